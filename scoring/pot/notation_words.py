"""The words of the pot-game notation (:mod:`scoring.pot.notation`), in both games' languages.

Seed 000's Swedish (``går med``, ``stannar hemma``, ``bjuder in``, ``tvång``, ``efterköp``,
``förhandling``, ``rundpass``) and seed 003's German (``mitgehen``, ``daheim bleiben``, ``aus der
Hand``, ``Prämie``, ``alle passen``), plus English. Reading folds case and accents (:func:`fold`),
so every word is read with or without them, in either game; writing uses each game's own words.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

from rules.pot import PotContract
from scoring.model import Ending

from .protocol import Decision

__all__ = [
    "FORMAT_LINE", "fold", "strip_accents", "contract_from_words", "bid_text", "HEADERS",
    "ENDINGS", "DECISIONS", "DECISION_WORDS", "WORDS", "EFTERKOP", "AUCTION", "NEGOTIATED",
    "RUNDPASS", "PENALTY", "POT_KEYS", "RULE_KEYS", "NOTE_KEYS", "LEDGER", "RESULT", "DEALER",
    "LEVELS", "NO_TALON", "CONTRACT_HINT",
]  # fmt: skip

FORMAT_LINE: Final = "format: pot 1"


def fold(text: str) -> str:
    """Lower case without accents: ``Prämie`` → ``pramie``, ``tvång`` → ``tvang``."""
    text = text.lower().replace("ae", "a") if "praemie" in text.lower() else text.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


HEADERS: Final = {
    "format": "format",
    "convention": "convention", "variant": "convention", "konvention": "convention",
    "regler": "convention", "variante": "convention",
    "options": "options", "option": "options", "alternativ": "options", "optionen": "options",
    "players": "players", "spelare": "players", "spieler": "players",
    "firstdealer": "first_dealer", "forstagivare": "first_dealer", "givare": "first_dealer",
    "erstergeber": "first_dealer", "geber": "first_dealer", "dealer": "first_dealer",
    "openingpot": "opening_pot", "pott": "opening_pot", "topf": "opening_pot",
    "ending": "ending", "slut": "ending", "ende": "ending",
}  # fmt: skip
ENDINGS: Final = {e.value: e for e in Ending} | {
    "time": Ending.TIME_LIMIT, "tid": Ending.TIME_LIMIT, "zeit": Ending.TIME_LIMIT,
    "overenskommelse": Ending.AGREEMENT, "vereinbarung": Ending.AGREEMENT,
    "avslutad": Ending.CLOSED, "beendet": Ending.CLOSED,
}  # fmt: skip

DECISIONS: Final = {
    "gar med": Decision.GO, "mitgehen": Decision.GO, "geht mit": Decision.GO, "go": Decision.GO,
    "stannar hemma": Decision.HOME, "daheim bleiben": Decision.HOME, "daheim": Decision.HOME,
    "bleibt daheim": Decision.HOME, "home": Decision.HOME,
    "bjuder in": Decision.INVITE, "invite": Decision.INVITE,
    "inbjuden": Decision.INVITED, "invited": Decision.INVITED,
    "tvang": Decision.FORCED, "forced": Decision.FORCED,
}  # fmt: skip
DECISION_WORDS: Final = {
    "sv": {Decision.GO: "går med", Decision.HOME: "stannar hemma", Decision.INVITE: "bjuder in",
           Decision.INVITED: "inbjuden", Decision.FORCED: "tvång"},
    "de": {Decision.GO: "mitgehen", Decision.HOME: "daheim bleiben", Decision.INVITE: "invite",
           Decision.INVITED: "invited", Decision.FORCED: "forced"},
}  # fmt: skip
WORDS: Final = {
    "sv": {"efterkop": "efterköp", "auction": "bud", "negotiated": "förhandling",
           "rundpass": "rundpass", "penalty": "straff", "pot": "pott", "rule": "regel",
           "note": "not", "ledger": "kassa", "result": "resultat", "dealer": "giv"},
    "de": {"efterkop": "efterköp", "auction": "Gebote", "negotiated": "verhandelt",
           "rundpass": "alle passen", "penalty": "Strafe", "pot": "Topf", "rule": "Regel",
           "note": "Notiz", "ledger": "Kasse", "result": "Ergebnis", "dealer": "Geber"},
}  # fmt: skip
EFTERKOP: Final = frozenset({"efterkop", "efterkoper"})
AUCTION: Final = frozenset({"bud", "budgivning", "gebote", "gebot", "reizen", "auction"})
NEGOTIATED: Final = frozenset({"forhandling", "verhandelt", "verhandlung", "negotiated"})
RUNDPASS: Final = frozenset({"rundpass", "krypspel", "ausfechten", "allpass", "allepassen"})
PENALTY: Final = frozenset({"straff", "strafe", "penalty"})
POT_KEYS: Final = frozenset({"pott", "topf", "pot"})
RULE_KEYS: Final = frozenset({"regel", "rule"})
NOTE_KEYS: Final = frozenset({"not", "notiz", "note"})
LEDGER: Final = frozenset({"kassa", "kasse", "ledger", "saldo", "stand"})
RESULT: Final = frozenset({"resultat", "ergebnis", "result"})
DEALER: Final = frozenset({"giv", "geber", "dealer"})

LEVELS: Final = {
    "1": 1, "ett": 1, "eins": 1, "2": 2, "tva": 2, "zwei": 2, "3": 3, "tre": 3, "drei": 3,
    "4": 4, "fyra": 4, "vier": 4, "5": 5, "fem": 5, "bettel": 5, "6": 6, "sex": 6, "mord": 6,
    "7": 7, "sju": 7, "8": 8, "atta": 8,
}  # fmt: skip
NO_TALON: Final = ("utan kop", "u.k.", "uk", "u k", "aus der hand", "hand")


def contract_from_words(text: str, game: str) -> PotContract | str:
    """A contract or bid in the players' words; ``"spel"`` and German ``"herz"`` stay words.

    >>> contract_from_words("fem utan köp", "viennese"), contract_from_words("Hjärter", "viennese")
    (PotContract(level=5, hand=True), PotContract(level=4, hand=True))
    >>> contract_from_words("Prämie aus der Hand", "german"), contract_from_words("Herz", "german")
    (PotContract(level=4, hand=True), 'herz')

    :raises ValueError: for words that name no contract.
    """
    words = " ".join(fold(text).split())
    if words == "spel" and game == "viennese":
        return "spel"
    m = re.fullmatch(r"([1-8])u", words)
    if m:
        return PotContract(int(m.group(1)), True)
    hand = False
    for suffix in NO_TALON:
        if words.endswith(" " + suffix):
            words, hand = words[: -len(suffix) - 1].strip(), True
            break
    if words in ("hjarter", "herz", "pramie"):
        if game == "viennese":
            if words != "hjarter" or hand:
                raise ValueError(f'{text!r}: say hjärter (000 "Premiekontrakt")')
            return PotContract(4, True)
        if words == "herz" and not hand:
            return "herz"
        return PotContract(4, hand)
    if words in LEVELS:
        return PotContract(LEVELS[words], hand)
    raise ValueError(f"{text!r} names no contract")


def bid_text(bid: str, game: str, *, ascii: bool = False) -> str:
    """A bid code as spoken: ``"pass"``, ``"spel"``, ``"Herz"``, or the contract's words."""
    if bid in ("pass", "spel"):
        return bid
    if bid == "herz":
        return "Herz"
    return PotContract.from_code(bid).name(game, ascii=ascii)


#: what a contract's words may be, by game: a code of :data:`scoring.notation_errors.EXPECTED`
#: (" (1–4, 1–3 utan köp, hjärter, fem … åtta [utan köp])" after what was expected)
CONTRACT_HINT: Final = {"viennese": "contract_viennese", "german": "contract_german"}


def strip_accents(text: str) -> str:
    """Without accents, case kept: ``förhandling`` → ``forhandling`` (the ``--ascii`` words)."""
    text = text.replace("Prämie", "Praemie")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
