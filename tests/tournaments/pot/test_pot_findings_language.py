"""Issue 36: the pot games' findings read in the page's language, the players by name, with no
English left in a translated sentence ("Franz Huber marked tvång, but the pot holds 60 …" on a
German page) and no Python value ("None", "home", "share", a 0-based seat): each finding of
:mod:`scoring.pot.check` and :mod:`scoring.pot.auction` carries a template and its values, and
every template has its words in every language Pulka offers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation
from django.utils.translation import trans_real

from rules.pot import PotContract
from scoring.pot.check import check
from scoring.pot.protocol import Decision, Hand, Penalty, PotProtocol
from tournaments.words.protocols import finding_message

LANGUAGES = [code for code, _name in settings.LANGUAGES if code != "en"]


def _stored(f) -> dict:
    """A finding as the services store it (tournaments.services.protocols.checks)."""
    return {"code": f.code, "message": f.message, "text": f.text, "params": dict(f.params)}


def _forced_home() -> PotProtocol:
    # the pot holds one base stake after the ante: both defenders must go along (tvång), but
    # Bertil Berg stays home
    return PotProtocol(
        players=("Anna Alm", "Bertil Berg", "Cecilia Cronholm"),
        deals=(Hand(0, PotContract(1), (Decision.HOME, Decision.GO), (6, 0, 4)),),
    )


def test_every_pot_finding_carries_its_template():
    report = check(_forced_home())
    assert [f.code for f in report.findings] == ["TVANG"]
    (f,) = report.findings
    assert f.text and f.message == f.text.format(**dict(f.params))
    assert "stays home" in f.message and "home in" not in f.message  # the decision in words


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", "Zwangsspiel"),
        ("sv", "stannar hemma"),
        ("hr", "prisilnom dijeljenju"),
        ("ru", "дома"),
    ],
)
def test_a_tvang_finding_reads_in_the_pages_language(language, words):
    (f,) = check(_forced_home()).findings
    with translation.override(language):
        said = finding_message(_stored(f))
    assert "Bertil Berg" in said and words in said, said
    assert not re.search(r"\b(?:None|True|False|home|forced deal|both go along)\b", said), said


def _unscorable() -> PotProtocol:
    # a penalty over the most a penalty may be: the record cannot be scored (PotScoringError),
    # said as UNSCORABLE
    return PotProtocol(
        players=("Anna Alm", "Bertil Berg", "Cecilia Cronholm"),
        deals=(Penalty(0, to_pot=2_000_000),),
    )


def test_a_record_that_cannot_be_scored_keeps_its_english_message_and_has_a_template():
    (f,) = [f for f in check(_unscorable()).findings if f.code == "UNSCORABLE"]
    # the command line's message as it was
    assert f.message == "deal 1: to_pot: 2000000 chips are more than a penalty may be (at most 1000000)"
    assert f.text == "{chips} chips are more than a penalty may be (at most {most})"
    assert dict(f.params) == {"chips": 2_000_000, "most": 1_000_000}


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "Strafe"), ("sv", "straff"), ("hr", "kazna"), ("ru", "штраф")],
)
def test_a_record_that_cannot_be_scored_reads_in_the_pages_language(language, words):
    (f,) = [f for f in check(_unscorable()).findings if f.code == "UNSCORABLE"]
    with translation.override(language):
        said = finding_message(_stored(f))
    assert words in said and "2000000" in said and "1000000" in said, said
    assert not re.search(r"\b(?:deal|to_pot|chips|penalty|most)\b", said), said


def _templates() -> set[str]:
    root = Path(settings.BASE_DIR)
    found = set()
    for path in ("scoring/pot/check.py", "scoring/pot/auction.py", "scoring/pot/score.py"):
        for node in ast.walk(ast.parse((root / path).read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "gettext_noop":
                found.add(node.args[0].value)
    return found


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_pot_finding_template_has_its_words(language):
    catalog = trans_real.translation(language)._catalog
    templates = _templates()
    assert len(templates) > 60
    missing = [t for t in sorted(templates) if not catalog.get(t)]
    assert not missing, missing


@pytest.mark.parametrize(
    ("language", "words"),
    [("de", "keine Option"), ("sv", "inget alternativ"), ("ru", "не параметр"), ("hr", "nije opcija")],
)
def test_an_unknown_option_reads_in_the_pages_language_in_the_pot_and_priffe_games(
    language, words
):
    # the convention's own error (rules.conventions), said as the settings page says it
    from scoring.priffe.check import check as check_priffe
    from scoring.priffe.protocol import PriffeProtocol

    pot = PotProtocol(players=("Anna", "Bertil", "Cecilia"), options=(("nonsense", 1),))
    priffe = PriffeProtocol(players=("A", "B", "C", "D"), options=(("nonsense", 1),))
    for report in (check(pot), check_priffe(priffe)):
        (f,) = report.findings
        assert f.code == "CONVENTION" and f.message.startswith("unknown option 'nonsense'")
        with translation.override(language):
            said = finding_message(_stored(f))
        assert "nonsense" in said and words in said and "unknown option" not in said, said
        with translation.override(language):
            expected = translation.gettext("“%(option)s” is not an option of this game.")
        assert said == expected % {"option": "nonsense"}, said


def _auction_findings(game: str) -> list[dict]:
    """An auction's bid not higher than the one before (Viennese: fem after hjärter, which rank
    equal; German: Zwei aus der Hand after Prämie), stored as the services store it."""
    from scoring.pot.auction import check_auction

    auction = ((1, "4u"), (2, "5"), (0, "pass"), (2, "pass"), (1, "pass"))
    if game == "german":
        auction = ((1, "1"), (2, "4"), (0, "2u"), (1, "pass"), (2, "pass"), (0, "pass"))
    found = check_auction(auction, 3, 0, 0, game, names=("Anna Alm", "Bertil Berg", "Cecilia C"))
    return [_with_source(f) for f in found.findings if f.code == "AUCTION_NOT_HIGHER"]


@pytest.mark.parametrize(
    ("game", "language", "words", "not_there"),
    [("viennese", "de", ["fünf", "Herz"], ["4u", "hjärter", "fem"]),
     ("viennese", "sv", ["fem", "hjärter"], ["4u"]),
     ("viennese", "hr", ["5", "herc"], ["4u", "hjärter", "fem"]),
     ("viennese", "ru", ["5", "черв"], ["4u", "hjärter", "fem"]),
     # English: the template is the command line's, which names hjärter and fem in the rule
     # text's words; the values are the page's
     ("viennese", "en", ["5 is not higher than hearts"], ["4u"]),
     ("german", "de", ["Zwei aus der Hand", "Prämie"], ["2u"]),
     ("german", "sv", ["2 utan köp", "hjärter"], ["2u", "aus der Hand", "Prämie"])],
)  # fmt: skip
def test_the_contracts_of_an_auctions_finding_read_in_the_pages_words(
    game, language, words, not_there
):
    """Issue 36: an auction's finding names its bids in the page's words (the game's own where
    the page reads them: the Viennese game in German on /de/), never by their codes ("2u") nor
    in Swedish on another language's page; the English message keeps the codes."""
    found = _auction_findings(game)
    assert found and "u" in found[0]["message"], found  # the codes: 4u, 2u
    with translation.override(language):
        said = finding_message(found[0])
    for word in words:
        assert word in said, (word, said)
    for word in not_there:
        assert not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", said), (word, said)


def _with_source(f) -> dict:
    """A finding as the services store it: its rule source, template and values
    (tournaments.services.protocols.checks)."""
    return {"code": f.code, "message": f.message, "source": f.source, "text": f.text,
            "params": dict(f.params)}  # fmt: skip
