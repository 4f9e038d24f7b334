"""The convention options' and the game sizes' labels, for people, in the page's language: a
label (with the rule it comes from) for every option of every rule family's conventions
(:mod:`rules.variants`: the Russian :class:`rules.conventions.Convention`, seed 001; the Balkan
:class:`rules.balkan.BalkanConvention`, seed 002; the pot games' :class:`rules.pot.PotConvention`,
seeds 000 and 003; Priffe's, seed 004) and for every value of their choices, and an event's
options described with them.

Plain data keyed by the family's key (``FAMILY_OPTION_LABELS``), never a branch on a family's
name. It imports only ``rules`` and Django's translation, so that everything may import it: the
models (``Event.game_size_label``, ``Event.convention_options_described``), the event form's
fields (:mod:`tournaments.forms.convention_options`) and the pages.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules.conventions import InvalidConventionError
from rules.variants import RUSSIAN, Family, family_of_convention
from tournaments import rule_sources
from tournaments.rule_sources import SOURCES, with_rule

__all__ = [
    "BALKAN_OPTION_LABELS",
    "FAMILY_OPTION_LABELS",
    "GAME_SIZE_LABELS",
    "OPTION_LABELS",
    "POT_OPTION_LABELS",
    "PRIFFE_OPTION_LABELS",
    "VALUE_LABELS",
    "CONVENTION_NAMES",
    "FAMILY_NAMES",
    "by_convention",
    "convention_error",
    "convention_error_said",
    "convention_name",
    "described",
    "family_name",
    "family_for",
    "game_size_label",
]


#: Option → its label, citing the rule text (seed 001: the Kodeks) where the option lives.
OPTION_LABELS: dict[str, Any] = {
    "game_cost_multiplier": with_rule(
        _("Game cost: the contract's pulya price × (%(rule)s)"), "001", "note 52"
    ),
    "declarer_gora_multiplier": with_rule(
        _("Declarer's gora per undertrick: pulya price × (%(rule)s)"), "001", "4.2.1"
    ),
    "misere_gora_per_trick": _("Gora per trick on a failed misère"),
    "consolation": with_rule(_("Consolation per undertrick (%(rule)s)"), "001", "note 53"),
    "consolation_flat": _("Flat consolation: whists per undertrick"),
    "consolation_writers": with_rule(_("Who writes consolation (%(rule)s)"), "001", "3.8.1.2"),
    "misere_consolation": _("Consolation on a failed misère"),
    "talon_premiums": with_rule(_("Dealer's talon premium (%(rule)s)"), "001", "3.4.11"),
    "whist_responsibility": with_rule(
        _("Whister's responsibility (%(rule)s)"), "001", "3.8.11", "3.8.12"
    ),
    "whist_style": with_rule(_("Whist (%(rule)s)"), "001", "3.8.13", "3.8.14"),
    "pair_shortfall_6_7": with_rule(_("Two whisters short on a 6 or 7 (%(rule)s)"), "001", "3.8.6"),
    "pair_shortfall_8_10": with_rule(
        _("Two whisters short on 8 to 10 (%(rule)s)"), "001", "3.8.6", "note 58"
    ),
    "ten_checked": with_rule(
        _("Tens checked: no obligation to whist (%(rule)s)"), "001", "note 38"
    ),
    "single_whister_tricks": with_rule(
        _("A single whister writes whists for (%(rule)s)"), "001", "3.8.5"
    ),
    "returned_half_consolation": with_rule(
        _(
            "Gentleman whist, whist returned: the former half-whister writes the consolation (%(rule)s)"
        ),
        "001",
        "3.8.8",
        "3.8.14",
        "3.8.1.2",
    ),
    "raspasy_mode": with_rule(_("Raspasy are written in (%(rule)s)"), "001", "3.7.2"),
    "raspasy_price": with_rule(_("Raspasy price per trick (%(rule)s)"), "001", "note 44"),
    "raspasy_progression": with_rule(_("Raspasy progression (%(rule)s)"), "001", "3.7.4"),
    "raspasy_progression_limit": _("The progression stops after this many steps; 0: never"),
    "raspasy_amnesty": with_rule(
        _("Raspasy amnesty: the smallest count is subtracted (%(rule)s)"), "001", "3.7.3"
    ),
    "raspasy_whists_base": with_rule(_("Raspasy whists on (%(rule)s)"), "001", "3.7.2.2"),
    "raspasy_zero_bonus": with_rule(
        _("Zero-trick bonus in the pulya (%(rule)s)"), "001", "3.7.2.1"
    ),
    "raspasy_dealer_zero_bonus": _("A 4-player dealer with no tricks writes the zero bonus"),
    "raspasy_talon_to_dealer": with_rule(
        _("A 4-player dealer owns the talon's tricks (%(rule)s)"), "001", "3.7.6.1"
    ),
    "raspasy_exit": with_rule(_("What ends a run of raspasy (%(rule)s)"), "001", "3.7.8"),
    "raspasy_exit_level": with_rule(
        _("Lowest contract right after raspasy (%(rule)s)"), "001", "3.7.8"
    ),
    "raspasy_sliding": with_rule(
        _("Sliding raspasy: the deal passes on (%(rule)s)"), "001", "3.7.7"
    ),
    "help": with_rule(
        _("Help: points over the target go to an opponent (%(rule)s)"), "001", "4.2.3"
    ),
    "end_conversion": with_rule(_("Gora points a pulya point is worth (%(rule)s)"), "001", "4.2.3"),
    "rounding": with_rule(_("Rounding of the result (%(rule)s)"), "001", "4.2.12"),
    "multipliers": with_rule(
        _("Bombs and dark bids as multipliers (%(rule)s)"), "001", "note 29", "note 30", "note 31"
    ),
}


#: (option, value) → label of a choice; true and false are "yes" and "no".
VALUE_LABELS: dict[tuple[str, str], Any] = {
    ("consolation", "game_cost"): _("the game's cost"),
    ("consolation", "flat"): _("a flat number of whists"),
    ("consolation_writers", "all"): _("all opponents, a 4-player dealer too"),
    ("consolation_writers", "defenders"): _("the defenders only"),
    ("consolation_writers", "none"): _("nobody"),
    ("whist_responsibility", "full"): _("full (ответственный)"),
    ("whist_responsibility", "half"): _("half (полуответственный)"),
    ("whist_responsibility", "half_then_full"): _("half until the whister's pulya is closed"),
    ("whist_style", "greedy"): _("greedy (жлобский)"),
    ("whist_style", "gentleman"): _("gentleman's (джентльменский)"),
    ("pair_shortfall_6_7", "kodeks"): _("as the Kodeks: only when the pair is short"),
    ("pair_shortfall_6_7", "capped"): _("capped at the pair's shortfall"),
    ("pair_shortfall_6_7", "each_own"): _("each pays his own shortfall"),
    ("pair_shortfall_8_10", "second"): _("the second whister pays"),
    ("pair_shortfall_8_10", "both"): _("both whisters pay"),
    ("single_whister_tricks", "defence"): _("all the defence's tricks"),
    ("single_whister_tricks", "own"): _("his own tricks only"),
    ("raspasy_mode", "gora"): _("the gora"),
    ("raspasy_mode", "whists"): _("whists"),
    ("raspasy_progression", "none"): _("none"),
    ("raspasy_progression", "arithmetic"): _("arithmetic, 1-2-3"),
    ("raspasy_progression", "geometric"): _("geometric, 1-2-4"),
    ("raspasy_whists_base", "full"): _("the opponents' full counts"),
    ("raspasy_whists_base", "difference"): _("the difference of the counts"),
    ("raspasy_zero_bonus", "step"): _("the progression's step"),
    ("raspasy_zero_bonus", "one"): _("always 1"),
    ("raspasy_zero_bonus", "price"): _("the price × the step"),
    ("raspasy_exit", "any_game"): _("any game"),
    ("raspasy_exit", "whisted_game"): _("a whisted game"),
    ("rounding", "kodeks"): _("as the Kodeks, Variant 1: each gora rounded"),
    ("rounding", "average"): _("as the Kodeks, Variant 2: the average gora rounded"),
    ("rounding", "exact"): _("exact"),
}


#: The Balkan options (:mod:`rules.balkan`), citing seed 002 and the reading aid's §3
#: (reading aid, variants) where the seed leaves a point open.
BALKAN_OPTION_LABELS: dict[str, Any] = {
    "direction": with_rule(
        _("Direction of play (%(rule)s; Serbia: counter-clockwise)"), "002", "Players and Deal"
    ),
    "refas": with_rule(
        _("Played with refas (%(rule)s); no: all passing has no effect"), "002", "Refa"
    ),
    "refa_limit": with_rule(
        _("Refa limit; 0: by the bula, 1 at 30, 3 from 50 (%(rule)s)"), "002", "Refa"
    ),
    "refa_count": with_rule(_("How refas are counted (%(rule)s)"), "002", "Refa"),
    "plain_two": with_rule(_("A plain two nobody kontras (%(rule)s)"), "002", "Kontra"),
    "plain_two_refa": with_rule(
        _("A two nobody kontras, said by a declarer who holds a refa (%(rule)s)"), "002", "Kontra"
    ),
    "igra_commits_to_trumps": with_rule(
        _("Igra commits to trumps; igra betl / sans at the first turn only (%(rule)s, Serbia)"),
        "002",
    ),
    "preferans": with_rule(_("Preferans (8) as a contract (%(rule)s, Serbia)"), "002"),
    "defender_quota": with_rule(
        _("Defenders' quota with both playing (%(rule)s)"), "002", "note (j)"
    ),
    "kontra_soups": with_rule(
        _("Who writes the defence's tricks after a kontra (%(rule)s)"), "002", "Kontra"
    ),
    "kontra_limit": with_rule(
        _("Longest doubling chain; 0: unlimited (%(rule)s)"), "002", "Kontra"
    ),
    "bettel_kontra": with_rule(
        _("A lost bettel with kontra: who writes 5 × v (%(rule)s)"), "002", "Bettel"
    ),
    "end_cap": with_rule(
        _("End cap: the last contract reaches zero exactly (%(rule)s)"), "002", "Ending the Game"
    ),
}


VALUE_LABELS.update(
    {
        ("direction", "clockwise"): _("clockwise"),
        ("direction", "counter-clockwise"): _("counter-clockwise"),
        ("refa_count", "rounds"): _("rounds: every player gets one"),
        ("refa_count", "per_player"): _("per player, until one holds the most"),
        ("plain_two", "declarer_wins"): _("the declarer wins it unplayed (Croatia)"),
        ("plain_two", "thrown_in"): _("thrown in (Slovenia)"),
        ("plain_two", "refa_or_hat"): _("a refa, or scored only under the hat (Serbia)"),
        ("plain_two", "refa_or_score"): _("a refa, or always scored"),
        ("plain_two_refa", "excluded"): _("not plain: it is played (the Croatian exception)"),
        ("plain_two_refa", "included"): _("plain like any other two (the variation as written)"),
        ("defender_quota", "team"): _("the team's four"),
        ("defender_quota", "each"): _("two each"),
        ("kontra_soups", "host"): _("the kontra-sayer"),
        ("kontra_soups", "own"): _("each defender his own"),
        ("bettel_kontra", "host"): _("the kontra-sayer"),
        ("bettel_kontra", "each"): _("both defenders"),
    }
)


#: The Priffe options (:mod:`rules.priffe`), citing seed 004 and the reading aid's §7–8
#: (reading aid, variants: A-PR-1 … A-PR-6) where the seed leaves a point open.
PRIFFE_OPTION_LABELS: dict[str, Any] = {
    "play": with_rule(_("How long a game lasts (%(rule)s)"), "004", "Enklare variant av Priffe"),
    "penalty_points": with_rule(_("Where strafftrick points are written (%(rule)s)"), "004"),
    "straffslam": with_rule(_("Lilla / stora straffslam on a capital failure (%(rule)s)"), "004"),
    "money_divisor": _("Money: point differences divided by; 0: points only"),
}


#: The pot games' options (:mod:`rules.pot`): Viennese (seed 000) and German (seed 003), with the
#: reading aid's §5–6 (reading aid, variants, A-VI-…, A-DE-…) where the seeds leave a
#: point open. An option of the other game is refused for a convention (its error names it).
POT_OPTION_LABELS: dict[str, Any] = {
    "base_stake": with_rule(
        _("Base stake (grundinsats) in chips, divisible by ten (%(rule)s)"), "000", "Förberedelser"
    ),
    "max_amount": with_rule(
        _("Maximum amount (maxbelopp) in chips; blank: three base stakes (%(rule)s)"), "000"
    ),
    "ante": with_rule(
        _("The dealer's ante every deal; blank: one base stake, or 10 (%(rule)s; %(german)s)"),
        "000",
        "Giv",
        german=SOURCES["003"],
    ),
    "pot_end": _("The pot left at the end of the round (the rules do not say)"),
    "defender_quota": with_rule(_("A going defender falls under (%(rule)s)"), "000"),
    "invitation_pay": with_rule(
        _("After an invitation the declarer pays (%(rule)s)"), "000", "Betalning"
    ),
    "premium_cap": _("Premium payments cut to the maximum amount"),
    "premiums": with_rule(_("Premium contracts played (%(rule)s)"), "000", "Varianter"),
    "negotiation": with_rule(
        _("Negotiation (förhandling) allowed (%(rule)s)"), "000", "Förhandling"
    ),
    "trump_obligation": with_rule(
        _("Trump obligation (trumftvång) (%(rule)s)"), "000", "Varianter"
    ),
    "herz_premium": with_rule(_("Prämie: chips each way for Herz (%(rule)s)"), "003"),
    "cap": with_rule(_("The agreed maximum (Höchstgrenze) in chips; 0: none (%(rule)s)"), "003"),
    "cap_applies": with_rule(_("The maximum limits (%(rule)s)"), "003"),
    "premium_payers": with_rule(_("The Prämie is paid by and to (%(rule)s)"), "003"),
    "hand_game_rank": with_rule(_("A hand game of a talon bid's suit (%(rule)s)"), "003"),
    "bidding": with_rule(_("Bidding (%(rule)s: “Vorhand … Mittelhand … Der Kartengeber”)"), "003"),
}


VALUE_LABELS.update(
    {
        ("play", "sits"): with_rule(
            _("sits: three, every partnership once (%(rule)s)"), "004", "Utgång"
        ),
        ("play", "deals"): _("a fixed number of deals, one partnership"),
        ("play", "total"): _("until a side reaches a total below the line"),
        ("penalty_points", "below"): _("below the line: they count toward game"),
        ("penalty_points", "above"): _("above the line: they do not count toward game"),
        ("pot_end", "share"): _("shared equally: the table sums to zero"),
        ("pot_end", "keep"): _("kept: each result is the player's net"),
        ("invitation_pay", "inviter"): _("the inviter for both defenders' tricks"),
        ("invitation_pay", "own"): _("each defender for his own tricks"),
        ("premiums", "all"): _("all: hjärter, fem, sex, sju, åtta"),
        ("premiums", "five_six"): _("hjärter, fem and sex"),
        ("premiums", "hearts"): _("hjärter only"),
        ("cap_applies", "penalties"): _("what a fall costs"),
        ("cap_applies", "stake"): _("the stake played for"),
        ("premium_payers", "both"): _("both opponents"),
        ("premium_payers", "going"): _("the opponents who go along"),
        ("hand_game_rank", "suit"): _("not higher (flagged)"),
        ("hand_game_rank", "hand_higher"): _("higher"),
        ("bidding", "rounds"): _("round after round until two have passed"),
        ("bidding", "one_round"): _("one round: each speaks once"),
    }
)


#: Each family's option labels, by family key.
FAMILY_OPTION_LABELS: dict[str, dict[str, Any]] = {
    "russian": OPTION_LABELS,
    "balkan": BALKAN_OPTION_LABELS,
    "priffe": PRIFFE_OPTION_LABELS,
    "pot": POT_OPTION_LABELS,
}


#: What the table agrees on before play, by ``Family.game_size``: the pulka's size (the pulya
#: target, 001 §4.2.3) or the bula (002 "Scoring").
GAME_SIZE_LABELS: dict[str, Any] = {
    "target": _("Pulka size"),
    "bula": _("Bula"),
    "sits": _("Sits (or deals / total in the simpler variant)"),
    "stake": _("Stake (chips)"),
}


def game_size_label(family: Family) -> str:
    return str(GAME_SIZE_LABELS.get(family.game_size, family.game_size))


def family_for(variant: str | None) -> Family:
    """The family of a convention key or alias; Russian for none or an unknown one (the form
    then names the bad convention)."""
    if not variant:
        return RUSSIAN
    try:
        return family_of_convention(variant)
    except InvalidConventionError:
        return RUSSIAN


#: what an option left unset (``None``) means, for people (never "None", issue 36)
UNSET_LABELS: dict[str, Any] = {
    "max_amount": _("three base stakes"),
    "ante": _("one base stake, or 10"),
}


#: (family key, convention key) → the convention's name in the reader's language; the rule
#: texts' own names ("Hrvatski preferans (Croatian)", ``Convention.name``) stay for the API and
#: the command line.
CONVENTION_NAMES: dict[tuple[str, str], Any] = {
    ("russian", "sochi"): _("Sochi"),
    ("russian", "leningrad"): _("Leningrad"),
    ("russian", "rostov"): _("Rostov"),
    ("russian", "classic"): _("Classic"),
    ("balkan", "croatian"): _("Croatian Preference"),
    ("balkan", "serbian"): _("Serbian Preference"),
    ("balkan", "slovenian"): _("Slovenian Preference"),
    ("pot", "viennese"): _("Viennese Préférence"),
    ("pot", "german"): _("German Préférence"),
    ("priffe", "modern"): _("Priffe (the modern way)"),
    ("priffe", "old"): _("Priffe (the old way)"),
}

#: family key → the rule family's name in the reader's language (``Family.name`` stays for the
#: API and the command line).
FAMILY_NAMES: dict[str, Any] = {
    "russian": _("Russian Preference"),
    "balkan": _("Croatian / Serbian / Slovenian Preference"),
    "pot": _("Viennese and German Préférence (pot games)"),
    "priffe": _("Swedish Priffe"),
}


def convention_name(convention: Any, family: Family | None = None) -> str:
    """A convention (or its key or alias) as people name it, in the page's language
    ("Hrvatski preferans" on a Croatian page, "Kroatische Préférence" on a German one); the
    rule text's own name for a convention without one here, the key for an unknown key."""
    if isinstance(convention, str):
        try:
            family = family_of_convention(convention)
            convention = family.find(convention)
        except InvalidConventionError:
            return convention
    key = family.key if family is not None else family_of_convention(convention.key).key
    return str(CONVENTION_NAMES.get((key, convention.key), convention.name))


def family_name(family: Family) -> str:
    """A rule family's name in the page's language."""
    return str(FAMILY_NAMES.get(family.key, family.name))


def convention_error(exc: Exception, family: Family | None = None) -> tuple[str | None, dict]:
    """A convention's error (:class:`rules.conventions.InvalidConventionError`) for people:
    its template and its values with the options' labels and values' words of ``family`` (or
    the family of nothing known: the option's name as typed); ``(None, {})`` for an error
    without words (then its English message is shown)."""
    text = getattr(exc, "text", None)
    if not text:
        return None, {}
    params = dict(getattr(exc, "params", None) or {})
    option = str(params.get("option", ""))
    labels = FAMILY_OPTION_LABELS.get(family.key, {}) if family is not None else {}
    if option:
        label = labels.get(option)
        params["option"] = str(label) if label is not None else option
    for key in ("value", "other"):
        if key in params:
            params[key] = _shown(option, params[key]) if option else str(params[key])
    if isinstance(params.get("choices"), list):
        params["choices"] = ", ".join(_shown(option, c) for c in params["choices"])
    return str(text), params


def convention_error_said(exc: Exception, family: Family | None = None) -> str:
    """:func:`convention_error` said in the active language; the English message without
    words (its rules cited as people know them)."""
    text, params = convention_error(exc, family)
    if text is None:
        return rule_sources.cited_in(str(exc))
    return gettext(text) % params


def _shown(name: str, value: object) -> str:
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    if value is None:
        return str(UNSET_LABELS.get(name, "—"))
    return str(VALUE_LABELS.get((name, str(value)), value))


def by_convention(name: str, family: Family = RUSSIAN) -> list[str]:
    """What each convention of ``family`` (in its order) has for the option ``name``."""
    return [_shown(name, getattr(c, name)) for c in family.conventions.values()]


def described(options: dict[str, Any], family: Family = RUSSIAN) -> list[tuple[str, str]]:
    """An event's options as (label, value) for people, in the page's language."""
    labels = FAMILY_OPTION_LABELS.get(family.key, {})
    return [
        (str(labels.get(name, name)), _shown(name, value))
        for name, value in sorted((options or {}).items())
    ]
