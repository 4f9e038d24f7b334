"""The text notation of a pot game, in the players' words: one deal a line.

``docs/pot-format.md`` has the grammar. In short (Viennese, the words of seed 000)::

    format: pot 1
    convention: viennese
    options: max_amount=30
    players: Anna, Bertil, Cecilia
    first dealer: Cecilia

    1. Anna 1 / tvång, tvång / 6-2-2
    2. Bertil 3 utan köp / går med, stannar hemma / 4-6-0 förhandling
    3. Cecilia 2 efterköp Anna fem / 0-5-5
    4. rundpass 3-3-4
    5. Anna hjärter / bjuder in, inbjuden / 5-3-2 bud { Bertil pass, Cecilia pass, Anna hjärter }
    6. straff Bertil pott=10 regel="000 Budgivningen"
    kassa 1: -4, 2, 2; pott 0

German (seed 003) writes ``Eins``, ``Zwei aus der Hand``, ``Prämie``, ``mitgehen``, ``daheim
bleiben``, ``alle passen``, ``Strafe``, ``Kasse``, ``Topf``, ``Gebote``; every word of either
language (and English: ``go``, ``home``, ``invite``, ``invited``, ``forced``, ``penalty``,
``ledger``) is read in both games. Tricks are per seat in seat order (``6-2-2``; with four
players the dealer's 0 too).

>>> text = "players: Anna, Bertil, Cecilia\\n1. Anna 1 / tvang, tvang / 6-2-2\\nrundpass 3-3-4\\n"
>>> p, _ = parse(text)
>>> p.deals[0].tricks, p.deals[1].tricks
((6, 2, 2), (3, 3, 4))
>>> print(format(p).splitlines()[-2])
1. Anna 1 / tvång, tvång / 6-2-2
>>> parse(format(p))[0] == p
True
"""

from __future__ import annotations

import json
import re
import unicodedata
from fractions import Fraction
from typing import Final

from rules.conventions import InvalidConventionError
from rules.pot import PotContract, find_convention
from scoring.notation_lexer import Cursor, NotationError, Token, quote, squash, tokenize
from scoring.protocol import Ending, OptionValue

from .protocol import Decision, Hand, Ledger, LedgerRow, Penalty, PotDeal, PotProtocol, Rundpass

__all__ = [
    "NotationError",
    "FORMAT_LINE",
    "parse",
    "parse_ledger",
    "format",
    "format_ledger",
    "deal_text",
    "contract_from_words",
    "bid_text",
]

FORMAT_LINE: Final = "format: pot 1"


def _fold(text: str) -> str:
    """Lower case without accents: ``Prämie`` → ``pramie``, ``tvång`` → ``tvang``."""
    text = text.lower().replace("ae", "a") if "praemie" in text.lower() else text.lower()
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


_HEADERS: Final = {
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
_ENDINGS: Final = {e.value: e for e in Ending} | {
    "time": Ending.TIME_LIMIT, "tid": Ending.TIME_LIMIT, "zeit": Ending.TIME_LIMIT,
    "overenskommelse": Ending.AGREEMENT, "vereinbarung": Ending.AGREEMENT,
    "avslutad": Ending.CLOSED, "beendet": Ending.CLOSED,
}  # fmt: skip

_DECISIONS: Final = {
    "gar med": Decision.GO, "mitgehen": Decision.GO, "geht mit": Decision.GO, "go": Decision.GO,
    "stannar hemma": Decision.HOME, "daheim bleiben": Decision.HOME, "daheim": Decision.HOME,
    "bleibt daheim": Decision.HOME, "home": Decision.HOME,
    "bjuder in": Decision.INVITE, "invite": Decision.INVITE,
    "inbjuden": Decision.INVITED, "invited": Decision.INVITED,
    "tvang": Decision.FORCED, "forced": Decision.FORCED,
}  # fmt: skip
_DECISION_WORDS: Final = {
    "sv": {Decision.GO: "går med", Decision.HOME: "stannar hemma", Decision.INVITE: "bjuder in",
           Decision.INVITED: "inbjuden", Decision.FORCED: "tvång"},
    "de": {Decision.GO: "mitgehen", Decision.HOME: "daheim bleiben", Decision.INVITE: "invite",
           Decision.INVITED: "invited", Decision.FORCED: "forced"},
}  # fmt: skip
_WORDS: Final = {
    "sv": {"efterkop": "efterköp", "auction": "bud", "negotiated": "förhandling",
           "rundpass": "rundpass", "penalty": "straff", "pot": "pott", "rule": "regel",
           "note": "not", "ledger": "kassa", "result": "resultat", "dealer": "giv"},
    "de": {"efterkop": "efterköp", "auction": "Gebote", "negotiated": "verhandelt",
           "rundpass": "alle passen", "penalty": "Strafe", "pot": "Topf", "rule": "Regel",
           "note": "Notiz", "ledger": "Kasse", "result": "Ergebnis", "dealer": "Geber"},
}  # fmt: skip
_EFTERKOP: Final = frozenset({"efterkop", "efterkoper"})
_AUCTION: Final = frozenset({"bud", "budgivning", "gebote", "gebot", "reizen", "auction"})
_NEGOTIATED: Final = frozenset({"forhandling", "verhandelt", "verhandlung", "negotiated"})
_RUNDPASS: Final = frozenset({"rundpass", "krypspel", "ausfechten", "allpass", "allepassen"})
_PENALTY: Final = frozenset({"straff", "strafe", "penalty"})
_POT_KEYS: Final = frozenset({"pott", "topf", "pot"})
_RULE_KEYS: Final = frozenset({"regel", "rule"})
_NOTE_KEYS: Final = frozenset({"not", "notiz", "note"})
_LEDGER: Final = frozenset({"kassa", "kasse", "ledger", "saldo", "stand"})
_RESULT: Final = frozenset({"resultat", "ergebnis", "result"})
_DEALER: Final = frozenset({"giv", "geber", "dealer"})

_LEVELS: Final = {
    "1": 1, "ett": 1, "eins": 1, "2": 2, "tva": 2, "zwei": 2, "3": 3, "tre": 3, "drei": 3,
    "4": 4, "fyra": 4, "vier": 4, "5": 5, "fem": 5, "bettel": 5, "6": 6, "sex": 6, "mord": 6,
    "7": 7, "sju": 7, "8": 8, "atta": 8,
}  # fmt: skip
_NO_TALON: Final = ("utan kop", "u.k.", "uk", "u k", "aus der hand", "hand")


def contract_from_words(text: str, game: str) -> PotContract | str:
    """A contract or bid in the players' words; ``"spel"`` and German ``"herz"`` stay words.

    >>> contract_from_words("fem utan köp", "viennese"), contract_from_words("Hjärter", "viennese")
    (PotContract(level=5, hand=True), PotContract(level=4, hand=True))
    >>> contract_from_words("Prämie aus der Hand", "german"), contract_from_words("Herz", "german")
    (PotContract(level=4, hand=True), 'herz')

    :raises ValueError: for words that name no contract.
    """
    words = " ".join(_fold(text).split())
    if words == "spel" and game == "viennese":
        return "spel"
    m = re.fullmatch(r"([1-8])u", words)
    if m:
        return PotContract(int(m.group(1)), True)
    hand = False
    for suffix in _NO_TALON:
        if words.endswith(" " + suffix):
            words, hand = words[: -len(suffix) - 1].strip(), True
            break
    if words in ("hjarter", "herz", "pramie"):
        if game == "viennese":
            if words != "hjarter" or hand:
                raise ValueError(f"{text!r}: say hjärter (000 \"Premiekontrakt\")")
            return PotContract(4, True)
        if words == "herz" and not hand:
            return "herz"
        return PotContract(4, hand)
    if words in _LEVELS:
        return PotContract(_LEVELS[words], hand)
    raise ValueError(f"{text!r} names no contract")


def bid_text(bid: str, game: str, *, ascii: bool = False) -> str:
    """A bid code as spoken: ``"pass"``, ``"spel"``, ``"Herz"``, or the contract's words."""
    if bid in ("pass", "spel"):
        return bid
    if bid == "herz":
        return "Herz"
    return PotContract.from_code(bid).name(game, ascii=ascii)


# --- reading ---------------------------------------------------------------------------------


class _Reader:
    def __init__(self) -> None:
        self.players: tuple[str, ...] | None = None
        self.game = "viennese"

    def seat(self, cur: Cursor) -> int:
        tok = cur.peek()
        assert self.players is not None
        if tok is not None and tok.kind in ("word", "string"):
            for s, name in enumerate(self.players):
                if tok.text.lower() == name.lower():
                    cur.i += 1
                    return s
        names = ", ".join(self.players)
        raise cur.error(f"a player's name ({names})", tok)

    def phrase(self, cur: Cursor, stops: str = ",;/{}") -> tuple[str, Token | None]:
        """Words up to a stop character or a keyword; ``("", tok)`` if none."""
        first = cur.peek()
        words: list[str] = []
        while (tok := cur.peek()) is not None and tok.kind == "word" and tok.kind not in stops:
            if words and _fold(tok.text) in (_EFTERKOP | _AUCTION | _NEGOTIATED | _DEALER):
                break
            words.append(tok.text)
            cur.i += 1
        return " ".join(words), first

    def contract(self, cur: Cursor, what: str = "a contract") -> PotContract:
        text, tok = self.phrase(cur)
        try:
            found = contract_from_words(text, self.game)
        except ValueError:
            found = None
        if not isinstance(found, PotContract):
            cur.i -= len(text.split())
            raise cur.error(what + _CONTRACT_HINT[self.game], tok)
        return found


_CONTRACT_HINT: Final = {
    "viennese": " (1–4, 1–3 utan köp, hjärter, fem … åtta [utan köp])",
    "german": " (Eins, Zwei, Drei, Prämie [aus der Hand])",
}


def _option_value(cur: Cursor) -> OptionValue:
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error("an option value (a word, number, true/false, none or quoted text)", tok)
    cur.i += 1
    if tok.kind == "string":
        return tok.text
    low = tok.text.lower()
    if re.fullmatch(r"-?[0-9]+", low):
        return int(low)
    if low in ("true", "yes", "ja", "on"):
        return True
    if low in ("false", "no", "nej", "nein", "off"):
        return False
    if low in ("none", "null"):
        return None
    return tok.text


def _header(reader: _Reader, cur: Cursor, key: str, found: dict[str, object]) -> None:
    head = cur.toks[0]
    if key in found and key != "options":
        raise NotationError(cur.number, head.col, f"the {key.replace('_', ' ')} is given twice")
    if key == "format":
        word = cur.expect("word", "'pot'")
        if word.text.lower() != "pot":
            raise cur.error("'pot'", word)
        found[key] = cur.integer("the notation version 1", 1, 1)
    elif key == "convention":
        name = cur.text("a convention: viennese (wiener) or german (deutsch)")
        try:
            reader.game = find_convention(name).game
        except InvalidConventionError as error:
            raise NotationError(cur.number, head.col, str(error)) from None
        found[key] = name
    elif key == "options":
        options = dict(found.get("options", {}))  # type: ignore[call-overload]
        while True:
            tok = cur.peek()
            name = cur.text("an option name", stop=",=")
            cur.expect("=", f"'=' and a value after {name}")
            if name in options:
                raise NotationError(cur.number, tok.col if tok else 1, f"option {name!r} twice")
            options[name] = _option_value(cur)
            if not cur.at(","):
                break
            cur.i += 1
        found[key] = options
    elif key == "players":
        names = [cur.text("a player's name")]
        while cur.at(","):
            cur.i += 1
            names.append(cur.text("a player's name"))
        if len(names) not in (3, 4):
            raise NotationError(cur.number, head.col, f"expected 3 or 4 players, found {len(names)}")
        if len({n.lower() for n in names}) != len(names):
            raise NotationError(cur.number, head.col, "two players have the same name")
        reader.players = tuple(names)
        found[key] = reader.players
    elif key == "first_dealer":
        if reader.players is None:
            raise NotationError(cur.number, head.col, "expected a 'players:' line before this one")
        found[key] = reader.seat(cur)
    elif key == "opening_pot":
        found[key] = cur.integer("the chips in the pot before the first deal", 0)
    else:
        tok = cur.expect("word", "closed, agreement, time-limit or in-progress")
        if _fold(tok.text) not in _ENDINGS:
            raise cur.error("closed, agreement, time-limit or in-progress", tok)
        found[key] = _ENDINGS[_fold(tok.text)]
    if not cur.done():
        raise cur.error("end of line", cur.peek())


def _header_key(tokens: list[Token]) -> str | None:
    for j, tok in enumerate(tokens):
        if tok.kind == ":":
            return _HEADERS.get(squash(_fold("".join(t.text for t in tokens[:j])))) if j else None
        if tok.kind != "word":
            return None
    return None


def _tricks(reader: _Reader, cur: Cursor) -> tuple[int, ...]:
    assert reader.players is not None
    n = len(reader.players)
    tok = cur.peek()
    expected = f"tricks per seat in seat order, {n} numbers such as {'-'.join(['3'] * n)}"
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[0-9]+(-[0-9]+)+", tok.text):
        raise cur.error(expected, tok)
    values = tuple(int(x) for x in tok.text.split("-"))
    if len(values) != n or any(v > 10 for v in values):
        raise cur.error(expected, tok)
    cur.i += 1
    return values


def _auction(reader: _Reader, cur: Cursor) -> tuple[tuple[int, str], ...]:
    cur.expect("{", "'{' and the bids")
    bids: list[tuple[int, str]] = []
    while not cur.at("}"):
        seat = reader.seat(cur)
        text, tok = reader.phrase(cur)
        if _fold(text) in ("pass", "passe", "passar"):
            bids.append((seat, "pass"))
        else:
            try:
                found = contract_from_words(text, reader.game)
            except ValueError:
                raise cur.error("a bid (pass, spel or a contract)", tok) from None
            bids.append((seat, found if isinstance(found, str) else found.code))
        if cur.at(","):
            cur.i += 1
        elif not cur.at("}"):
            raise cur.error("',' or '}'", cur.peek())
    cur.i += 1
    return tuple(bids)


def _deal(reader: _Reader, cur: Cursor) -> PotDeal:
    first = cur.peek()
    assert first is not None
    word = _fold(first.text)
    if word in _PENALTY:
        cur.i += 1
        return _penalty(reader, cur)
    dealer: int | None = None
    if word in _DEALER:
        cur.i += 1
        dealer = reader.seat(cur)
        first = cur.peek()
        if first is None:
            raise cur.error("a deal", first)
        word = _fold(first.text)
    if word in _RUNDPASS or (word == "alle" and _fold(getattr(cur.peek(1), "text", "")) == "passen"):
        cur.i += 2 if word == "alle" else 1
        tricks = None
        tok = cur.peek()
        if tok is not None and tok.kind == "word" and re.fullmatch(r"[0-9-]+", tok.text):
            tricks = _tricks(reader, cur)
        auction = None
        if _next_is(cur, _AUCTION):
            cur.i += 1
            auction = _auction(reader, cur)
        return Rundpass(tricks=tricks, auction=auction, dealer=dealer)
    declarer = reader.seat(cur)
    contract = reader.contract(cur)
    efterkop: list[tuple[int, PotContract]] = []
    while _next_is(cur, _EFTERKOP):
        cur.i += 1
        seat = reader.seat(cur)
        efterkop.append((seat, reader.contract(cur, "the efterköp's contract")))
    defence: list[Decision] = []
    tricks: tuple[int, ...] | None = None
    negotiated = False
    if cur.at("/"):
        cur.i += 1
        tok = cur.peek()
        if tok is not None and tok.kind == "word" and re.fullmatch(r"[0-9]+(-[0-9]+)+", tok.text):
            tricks = _tricks(reader, cur)
        else:
            while True:
                text, tok = reader.phrase(cur)
                if _fold(text) not in _DECISIONS:
                    cur.i -= len(text.split())
                    raise cur.error("a decision: går med, stannar hemma, bjuder in, inbjuden, "
                                    "tvång, mitgehen or daheim bleiben", tok)  # fmt: skip
                defence.append(_DECISIONS[_fold(text)])
                if not cur.at(","):
                    break
                cur.i += 1
            if cur.at("/"):
                cur.i += 1
                tricks = _tricks(reader, cur)
    if _next_is(cur, _NEGOTIATED):
        cur.i += 1
        negotiated = True
    auction = None
    if _next_is(cur, _AUCTION):
        cur.i += 1
        auction = _auction(reader, cur)
    return Hand(declarer, contract, tuple(defence), tricks, tuple(efterkop), negotiated, auction,
                dealer)  # fmt: skip


def _next_is(cur: Cursor, words: frozenset[str]) -> bool:
    tok = cur.peek()
    return tok is not None and tok.kind == "word" and _fold(tok.text) in words


def _penalty(reader: _Reader, cur: Cursor) -> Penalty:
    assert reader.players is not None
    player = reader.seat(cur)
    to_pot, to_players, rule, note = 0, [], "", ""
    while not cur.done():
        tok = cur.peek()
        assert tok is not None
        key = _fold(tok.text)
        if tok.kind in ("word", "string") and key in {_fold(n) for n in reader.players}:
            seat = reader.seat(cur)
            cur.expect("=", "'=' and the chips paid to this player")
            to_players.append((seat, cur.integer("chips", 0)))
            continue
        cur.i += 1
        if tok.kind != "word" or not cur.at("="):
            raise cur.error("pott=, regel=, not= or a player's name and '='", tok)
        cur.i += 1
        if key in _POT_KEYS:
            to_pot = cur.integer("chips paid into the pot", 0)
        elif key in _RULE_KEYS:
            rule = _free(cur, "the rule, one word or quoted")
        elif key in _NOTE_KEYS:
            note = _free(cur, "a note, one word or quoted")
        else:
            raise NotationError(cur.number, tok.col, f"expected pott=, regel= or not=, found {tok.text!r}")
    return Penalty(player, rule, to_pot, tuple(to_players), note)


def _free(cur: Cursor, expected: str) -> str:
    tok = cur.peek()
    if tok is None or tok.kind not in ("word", "string"):
        raise cur.error(expected, tok)
    cur.i += 1
    return tok.text


def _number(cur: Cursor) -> Fraction:
    tok = cur.peek()
    if tok is None or tok.kind != "word" or not re.fullmatch(r"[-+]?[0-9]+", tok.text):
        raise cur.error("a whole number or a fraction such as -80/3", tok)
    cur.i += 1
    if not cur.at("/"):
        return Fraction(int(tok.text))
    cur.i += 1
    below = cur.integer("a denominator after '/'", 1)
    return Fraction(int(tok.text), below)


def _ledger_line(reader: _Reader, cur: Cursor, running: dict[int, LedgerRow],
                 final: list[tuple[Fraction, ...]]) -> None:  # fmt: skip
    assert reader.players is not None
    n = len(reader.players)
    head = cur.toks[0]
    cur.i = 1
    if _fold(head.text) in _RESULT:
        cur.expect(":", "':'")
        values = [_number(cur)]
        while cur.at(","):
            cur.i += 1
            values.append(_number(cur))
        if len(values) != n:
            raise cur.error(f"{n} results, one per seat", cur.peek())
        if final:
            raise NotationError(cur.number, head.col, "the result is given twice")
        final.append(tuple(values))
    else:
        number = cur.integer("the deal number the ledger line follows", 1)
        cur.expect(":", "':'")
        nets = [cur.integer("a net in chips", -(10**12))]
        while cur.at(","):
            cur.i += 1
            nets.append(cur.integer("a net in chips", -(10**12)))
        if len(nets) != n:
            raise cur.error(f"{n} nets, one per seat", cur.peek())
        cur.expect(";", "';' and the pot")
        word = cur.expect("word", "pott")
        if _fold(word.text) not in _POT_KEYS:
            raise cur.error("pott", word)
        pot = cur.integer("the pot in chips", -(10**12))
        if number in running:
            raise NotationError(cur.number, head.col, f"ledger line {number} is given twice")
        running[number] = LedgerRow(tuple(nets), pot)
    if not cur.done():
        raise cur.error("end of line", cur.peek())


def _read(text: str, players: tuple[str, ...] | None = None) -> tuple[dict[str, object],
                                                                        list[PotDeal], Ledger | None]:  # fmt: skip
    reader = _Reader()
    reader.players = players
    found: dict[str, object] = {}
    deals: list[PotDeal] = []
    running: dict[int, LedgerRow] = {}
    final: list[tuple[Fraction, ...]] = []
    seen_ledger = False
    for number, raw in enumerate(text.splitlines(), 1):
        tokens = tokenize(raw, number)
        if not tokens:
            continue
        cur = Cursor(tokens, number, len(raw))
        key = _header_key(tokens)
        if key is not None and not deals and not seen_ledger and players is None:
            cur.i = tokens.index(next(t for t in tokens if t.kind == ":")) + 1
            _header(reader, cur, key, found)
            continue
        if _fold(tokens[0].text) in (_LEDGER | _RESULT) and tokens[0].kind == "word":
            if reader.players is None:
                raise NotationError(number, 1, "expected a 'players:' line before the ledger")
            seen_ledger = True
            _ledger_line(reader, cur, running, final)
            continue
        if players is not None:
            raise NotationError(number, 1, "expected a ledger line (kassa N: …; pott …)")
        if reader.players is None:
            raise NotationError(number, 1, "expected a 'players:' line before the deals")
        if re.fullmatch(r"[0-9]+\.?", tokens[0].text) and len(tokens) > 1:
            if not tokens[0].text.endswith("."):
                raise NotationError(number, 1, "expected a deal number such as '3.'")
            if int(tokens[0].text[:-1]) != len(deals) + 1:
                raise NotationError(number, 1, f"expected deal number {len(deals) + 1}.")
            cur.i = 1
        if seen_ledger:
            raise NotationError(number, 1, "deals must come before the ledger lines")
        deals.append(_deal(reader, cur))
        if not cur.done():
            raise cur.error("end of the deal", cur.peek())
    ledger = None
    if seen_ledger:
        last = max(running, default=0)
        ledger = Ledger(tuple(running.get(i) for i in range(1, last + 1)),
                        final[0] if final else None)  # fmt: skip
    return found, deals, ledger


def parse(text: str) -> tuple[PotProtocol, Ledger | None]:
    """Read the notation: ``(protocol, ledger or None)``.

    :raises scoring.notation_lexer.NotationError: naming the line and column.
    """
    found, deals, ledger = _read(text)
    if "players" not in found:
        raise NotationError(1, 1, "expected a 'players:' line")
    options = found.get("options", {})
    protocol = PotProtocol(
        players=found["players"],  # type: ignore[arg-type]
        deals=tuple(deals),
        convention=str(found.get("convention", "viennese")),
        options=tuple(sorted(options.items())),  # type: ignore[attr-defined]
        first_dealer=int(found.get("first_dealer", 0)),  # type: ignore[call-overload]
        ending=found.get("ending", Ending.CLOSED),  # type: ignore[arg-type]
        opening_pot=int(found.get("opening_pot", 0)),  # type: ignore[call-overload]
    )
    return protocol, ledger


def parse_ledger(text: str, players: tuple[str, ...]) -> Ledger:
    """Ledger lines alone (``check --sheet``)."""
    _, _, ledger = _read(text, players)
    return ledger if ledger is not None else Ledger()


# --- writing ---------------------------------------------------------------------------------


def _language(protocol: PotProtocol) -> tuple[str, str]:
    try:
        conv = find_convention(protocol.convention)
    except InvalidConventionError:
        return "sv", "viennese"
    return conv.language, conv.game


def _option_text(value: OptionValue) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    reads_back = isinstance(_option_value(Cursor(tokenize(value, 0), 0, len(value))), str)
    return quote(value, word=True) if reads_back else json.dumps(value, ensure_ascii=False)


def _strip(text: str) -> str:
    """Without accents, case kept: ``förhandling`` → ``forhandling`` (the ``--ascii`` words)."""
    text = text.replace("Prämie", "Praemie")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def deal_text(protocol: PotProtocol, index: int, *, ascii: bool = False) -> str:
    """One deal as the notation writes it (without its number)."""
    lang, game = _language(protocol)
    words = {k: _strip(v) if ascii else v for k, v in _WORDS[lang].items()}
    names = [quote(n, word=True) for n in protocol.players]
    deal = protocol.deals[index]
    parts: list[str] = []
    if isinstance(deal, Penalty):
        parts = [words["penalty"], names[deal.player]]
        if deal.to_pot:
            parts.append(f"{words['pot']}={deal.to_pot}")
        parts += [f"{names[s]}={a}" for s, a in deal.to_players]
        if deal.rule:
            parts.append(f"{words['rule']}={quote(deal.rule, word=True)}")
        if deal.note:
            parts.append(f"{words['note']}={quote(deal.note, word=True)}")
        return " ".join(parts)
    if deal.dealer is not None:
        parts += [words["dealer"], names[deal.dealer]]
    if isinstance(deal, Rundpass):
        parts.append(words["rundpass"])
        if deal.tricks is not None:
            parts.append("-".join(map(str, deal.tricks)))
    else:
        parts += [names[deal.declarer], deal.contract.name(game, ascii=ascii)]
        for seat, contract in deal.efterkop:
            parts += [words["efterkop"], names[seat], contract.name(game, ascii=ascii)]
        if deal.defence:
            said = [_DECISION_WORDS[lang][d] for d in deal.defence]
            parts += ["/", ", ".join(_strip(w) if ascii else w for w in said)]
        if deal.tricks is not None:
            parts += ["/", "-".join(map(str, deal.tricks))]
        if deal.negotiated:
            parts.append(words["negotiated"])
    if deal.auction is not None:
        bids = ", ".join(f"{names[s]} {bid_text(b, game, ascii=ascii)}" for s, b in deal.auction)
        parts += [words["auction"], "{", bids, "}"] if bids else [words["auction"], "{", "}"]
    return " ".join(parts)


def format_ledger(protocol: PotProtocol, ledger: Ledger) -> str:
    lang, _ = _language(protocol)
    words = _WORDS[lang]
    lines = []
    for i, row in enumerate(ledger.running, 1):
        if row is not None:
            nets = ", ".join(str(x) for x in row.nets)
            lines.append(f"{words['ledger']} {i}: {nets}; {words['pot']} {row.pot}")
    if ledger.final is not None:
        lines.append(f"{words['result']}: " + ", ".join(str(x) for x in ledger.final))
    return "\n".join(lines) + ("\n" if lines else "")


def format(protocol: PotProtocol, ledger: Ledger | None = None, *, ascii: bool = False) -> str:
    """The canonical text: ``parse(format(p)) == (p, ledger)``."""
    names = [quote(n, word=True) for n in protocol.players]
    lines = [FORMAT_LINE, f"convention: {quote(protocol.convention)}"]
    if protocol.options:
        lines.append("options: " + ", ".join(f"{k}={_option_text(v)}" for k, v in protocol.options))
    lines.append("players: " + ", ".join(names))
    lines.append(f"first dealer: {names[protocol.first_dealer]}")
    if protocol.opening_pot:
        lines.append(f"opening pot: {protocol.opening_pot}")
    lines += [f"ending: {Ending(protocol.ending).value}", ""]
    lines += [f"{i + 1}. {deal_text(protocol, i, ascii=ascii)}" for i in range(len(protocol.deals))]
    text = "\n".join(lines) + "\n"
    if ledger is not None:
        text += format_ledger(protocol, ledger)
    return text
