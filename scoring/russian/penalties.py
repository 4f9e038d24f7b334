"""What a penalty of the catalogue (:mod:`rules.penalties`) writes in the pulka (seed 001).

:func:`penalty_entries` turns a catalogue penalty into :class:`scoring.russian.protocol.Penalty` entries
for a given protocol, deal and offender, so that the pulka and the settlement change as the rule
says. A penalty that changes tricks (3.4.6, 3.4.9, 3.9.11.2, 3.9.18) is computed by the scoring
engine itself: the deal is written again with the penalised tricks and the difference in the
offender's own columns is the penalty entry — the other players write for the real tricks
(001 §3.9.12, note 68). A revoke (3.9.16.2) moves a trick to the opponents, so it changes every
column. :func:`adjusted_result_entries` does the referee's compensating result of
001 §3.8.5.1 Б.

>>> from scoring.russian.protocol import Protocol
>>> penalty_entries("TALON_PEEK", Protocol(("A", "B", "C"), 10), deal=None, seat=1)
(Penalty(player=1, rule='3.2.21', gora=5, pulya=0, whists=(), note='TALON_PEEK'),)
"""

from __future__ import annotations

import dataclasses

from rules.penalties import Params, PenaltyError, find_penalty

from ..findings import gettext_noop, seat_number
from .protocol import Call, Deal, Ending, Game, Penalty, Protocol, Raspasy
from .pulka import convention_of, score
from .writing import whisting_order

__all__ = [
    "PenaltyError",
    "adjusted_result_entries",
    "deal_delta_entries",
    "penalty_entries",
]

def _flat(protocol: Protocol, deals: tuple[Deal, ...]) -> tuple[int, ...]:
    prefix = dataclasses.replace(protocol, deals=deals, ending=Ending.IN_PROGRESS)
    scored = score(prefix)
    return scored.totals[-1] if scored.totals else (0,) * (protocol.size * (protocol.size + 2))


def deal_delta_entries(protocol: Protocol, deal: int, replacement: Deal, rule: str, note: str,
                       columns_of: tuple[int, ...] | None = None) -> tuple[Penalty, ...]:
    """Penalty entries that turn deal ``deal`` as written into ``replacement``.

    Both are scored after the same earlier deals; the difference of every cell becomes entries
    (a player's pulya and gora; whists ``q`` wrote on ``p`` as an entry on ``p`` written by
    ``q``). ``columns_of`` keeps only those players' own columns (pulya, gora, whists they
    wrote) — the offender's, when the others write for the real tricks.
    """
    n = protocol.size
    stride = n + 2
    before = protocol.deals[:deal]
    actual = _flat(protocol, before + (protocol.deals[deal],))
    wanted = _flat(protocol, before + (replacement,))
    keep = set(range(n) if columns_of is None else columns_of)
    delta = [w - a for w, a in zip(wanted, actual, strict=True)]
    out: list[Penalty] = []
    for p in range(n):
        pulya = delta[p * stride] if p in keep else 0
        gora = delta[p * stride + 1] if p in keep else 0
        whists = tuple((q, delta[q * stride + 2 + p]) for q in range(n)
                       if q != p and q in keep and delta[q * stride + 2 + p])
        if pulya or gora or whists:
            out.append(Penalty(p, rule, gora=gora, pulya=-pulya, whists=whists, note=note))
    return tuple(out)


def _game(protocol: Protocol, deal: int | None, code: str) -> Game:
    if deal is None or not 0 <= deal < len(protocol.deals):
        raise PenaltyError(
            f"{code}: deal {deal!r} is not in the protocol",
            gettext_noop("Choose a deal of the protocol."),
        )
    g = protocol.deals[deal]
    if type(g) is not Game:
        raise PenaltyError(
            f"{code}: deal {deal + 1} is not a game",
            gettext_noop("Deal %(deal)s is not a game."),
            {"deal": deal + 1},
        )
    return g


def _played(g: Game, code: str) -> int:
    if g.declarer_tricks is None:
        raise PenaltyError(
            f"{code}: the game was not played (no tricks recorded)",
            gettext_noop("The game was not played (no tricks are recorded)."),
        )
    return g.declarer_tricks


def _declarer_tricks(protocol: Protocol, deal: int | None, seat: int, code: str, rule: str,
                     tricks: int) -> tuple[Penalty, ...]:
    g = _game(protocol, deal, code)
    assert deal is not None
    if seat != g.declarer:
        raise PenaltyError(
            f"{code}: seat {seat_number(seat)} is not the declarer of deal {deal + 1}",
            gettext_noop("%(seat)s is not the declarer of deal %(deal)s."),
            {"seat": seat, "deal": deal + 1},
            ("seat",),
        )
    changed = dataclasses.replace(g, declarer_tricks=max(0, min(10, tricks)))
    if g.declarer_tricks is None and not g.contract.is_misere:
        # not played (both passed, or half-whist): written as played with these tricks; only
        # the declarer's own columns are taken, so the calls chosen here change nothing else
        changed = dataclasses.replace(changed, calls=(Call.WHIST, Call.PASS),
                                      defender_tricks=None)
    return deal_delta_entries(protocol, deal, changed, rule, code, columns_of=(seat,))


def _bool(params: Params, name: str) -> bool:
    value = params.get(name, False)
    return value in (True, "true", "1", 1, "on", "yes")


def _int(params: Params, name: str, default: int) -> int:
    value = params.get(name, default)
    try:
        return int(value)  # type: ignore[call-overload, no-any-return]
    except (TypeError, ValueError):
        raise PenaltyError(
            f"parameter {name!r}: {value!r} is not a whole number",
            gettext_noop("“%(value)s” is not a whole number."),
            {"value": str(value)},
        ) from None


def _game_cost(protocol: Protocol, g: Game) -> int:
    conv = convention_of(protocol)
    return g.contract.price * conv.game_cost_multiplier * g.multiplier


def _whister_shortfall(protocol: Protocol, deal: int, g: Game, seat: int, code: str,
                       rule: str, tricks: int) -> tuple[Penalty, ...]:
    """A whister's remiz "without ``tricks``" on the whist (001 §3.9.18 example 2)."""
    if g.contract.is_misere or seat == g.declarer:
        raise PenaltyError(
            f"{code}: seat {seat_number(seat)} is not a whister of deal {deal + 1}",
            gettext_noop("%(seat)s is not a whister of deal %(deal)s."),
            {"seat": seat, "deal": deal + 1},
            ("seat",),
        )
    conv = convention_of(protocol)
    per = _game_cost(protocol, g)
    if conv.whist_responsibility == "half":  # 001 §3.8.12
        per //= 2
    return (Penalty(seat, rule, gora=tricks * per, note=code),)


def penalty_entries(code: str, protocol: Protocol, *, deal: int | None, seat: int,
                    params: Params | None = None) -> tuple[Penalty, ...]:
    """What penalty ``code`` writes when ``seat`` offends in deal ``deal`` (0-based).

    :raises PenaltyError: when the penalty does not apply (not a game, not the declarer …).
    """
    entry = find_penalty(code)
    params = params or {}
    if not 0 <= seat < protocol.size:
        raise PenaltyError(
            f"{entry.code}: seat {seat_number(seat)} is not at the table",
            gettext_noop("Choose the offender among the table's players."),
        )
    rule, code = entry.rule, entry.code
    if code in ("MISDEAL_FIRST", "REVOKE_CORRECTED", "RECORDING_WARNING", "RECORDING_PENCIL"):
        return ()
    if code == "TALON_PEEK":  # 001 §3.2.21: "запись 5-ти очков в гору"
        return (Penalty(seat, rule, gora=5, note=code),)
    if code == "MISDEAL_SECOND":  # 001 §3.2.17: "условленный ремиз (например, 5 в гору)"
        return (Penalty(seat, rule, gora=_int(params, "gora", 5), note=code),)
    if code == "RECORDING_ERROR":
        return _recording_error(protocol, seat, params, rule)
    g = _game(protocol, deal, code) if code != "CLOSED_TRICK_PEEK" else None
    assert deal is not None or g is None
    if code == "WRONG_CARDS_BID":  # 001 §3.4.6
        assert g is not None and deal is not None
        inevitable = _bool(params, "inevitable")
        if g.contract.is_misere:  # a misère's remiz "without two" is two tricks taken
            taken = g.declarer_tricks or 0
            return _declarer_tricks(protocol, deal, seat, code, rule,
                                    taken + 2 if inevitable and taken else max(taken, 2))
        level = g.contract.level
        tricks = level if g.declarer_tricks is None else g.declarer_tricks
        if inevitable and tricks < level:  # the two penalty tricks added to the undertricks
            return _declarer_tricks(protocol, deal, seat, code, rule, tricks - 2)
        return _declarer_tricks(protocol, deal, seat, code, rule, min(tricks, level - 2))
    if code == "DISCARD_PEEK":  # 001 §3.4.9: one penalty trick (on a misère one trick more)
        assert g is not None
        played = _played(g, code)
        return _declarer_tricks(protocol, deal, seat, code, rule,
                                played + 1 if g.contract.is_misere else played - 1)
    if code == "WRONG_CARDS_PLAY":  # 001 §3.9.18: "ремиз по меньшей мере без двух"
        assert g is not None and deal is not None
        extra = _int(params, "extra", 0)
        if seat != g.declarer:
            return _whister_shortfall(protocol, deal, g, seat, code, rule, 2 + extra)
        played = _played(g, code)
        if g.contract.is_misere:
            return _declarer_tricks(protocol, deal, seat, code, rule, max(played, 2) + extra)
        return _declarer_tricks(protocol, deal, seat, code, rule,
                                min(played, g.contract.level) - 2 - extra)
    if code == "CLOSED_TRICK_PEEK":
        return _closed_trick(protocol, deal, seat, rule, code)
    assert code == "REVOKE" and g is not None and deal is not None
    return _revoke(protocol, deal, g, seat, rule, code)


def _recording_error(protocol: Protocol, seat: int, params: Params, rule: str
                     ) -> tuple[Penalty, ...]:
    """001 §4.2.7: the penalty for a false entry equals the excess ("за равное — равным")."""
    amount = _int(params, "amount", 0)
    if amount <= 0:
        raise PenaltyError(
            "RECORDING_ERROR: parameter 'amount' must be the positive excess",
            gettext_noop("The amount must be the excess written, a positive number."),
        )
    column = str(params.get("column", "whists"))
    if column == "pulya":  # example б): as many points in the gora
        return (Penalty(seat, rule, gora=amount, note="RECORDING_ERROR"),)
    if column != "whists":
        raise PenaltyError(
            f"RECORDING_ERROR: column {column!r} is not 'whists' or 'pulya'",
            gettext_noop("The column must be the whists or the pulya."),
        )
    on = _int(params, "on", -1)
    if not 0 <= on < protocol.size or on == seat:
        raise PenaltyError(
            f"RECORDING_ERROR: parameter 'on': seat {seat_number(on)} cannot write on seat {seat_number(seat)}",
            gettext_noop("%(on)s cannot write whists on %(seat)s."),
            {"on": on, "seat": seat},
            ("on", "seat"),
        )
    # example а): the partner writes on the offender as many whists as were over-written
    return (Penalty(seat, rule, whists=((on, amount),), note="RECORDING_ERROR"),)


def _closed_trick(protocol: Protocol, deal: int | None, seat: int, rule: str, code: str
                  ) -> tuple[Penalty, ...]:
    """001 §3.9.11.2: the offender loses one of his tricks; it is nobody's (3.9.12)."""
    if deal is None or not 0 <= deal < len(protocol.deals):
        raise PenaltyError(
            f"{code}: deal {deal!r} is not in the protocol",
            gettext_noop("Choose a deal of the protocol."),
        )
    d = protocol.deals[deal]
    if type(d) is Raspasy:  # "пишет за одну лишнюю (как бы одиннадцатую) взятку"
        scored = score(dataclasses.replace(protocol, deals=protocol.deals[: deal + 1],
                                           ending=Ending.IN_PROGRESS))
        conv = scored.convention
        step = scored.steps[deal] * d.multiplier
        if conv.raspasy_mode == "gora":
            return (Penalty(seat, rule, gora=conv.raspasy_price * step, note=code),)
        others = [q for q in range(protocol.size) if q != seat and d.tricks[q] is not None]
        least = min(others, key=lambda q: d.tricks[q] or 0)  # the least taker writes (3.7.2.2)
        return (Penalty(seat, rule, whists=((least, conv.raspasy_price * step),), note=code),)
    if type(d) is not Game:
        raise PenaltyError(
            f"{code}: deal {deal + 1} is not a game or raspasy",
            gettext_noop("Deal %(deal)s is neither a game nor raspasy."),
            {"deal": deal + 1},
        )
    tricks = _played(d, code)
    if seat == d.declarer:  # one trick fewer; on a misère one more
        return _declarer_tricks(protocol, deal, seat, code, rule,
                                tricks + 1 if d.contract.is_misere else tricks - 1)
    if d.contract.is_misere:
        raise PenaltyError(
            f"{code}: on a misère only the declarer's tricks are written",
            gettext_noop("On a misère only the declarer's tricks are written."),
        )
    return _defender_trick_to(protocol, deal, d, seat, rule, code, columns_of=(seat,))


def _defender_trick_to(protocol: Protocol, deal: int, g: Game, seat: int, rule: str, code: str,
                       columns_of: tuple[int, ...] | None) -> tuple[Penalty, ...]:
    """Deal ``deal`` written as if defender ``seat`` had one trick fewer and the declarer one
    more; with ``columns_of=(seat,)`` only the defender's own columns change (3.9.12)."""
    dealer = score(dataclasses.replace(protocol, deals=protocol.deals[: deal + 1],
                                       ending=Ending.IN_PROGRESS)).dealers[deal]
    defenders = whisting_order(g.declarer, protocol.size, dealer if dealer is not None else 0)
    if seat not in defenders:
        raise PenaltyError(
            f"{code}: seat {seat_number(seat)} is not a defender of deal {deal + 1}",
            gettext_noop("%(seat)s is not a defender of deal %(deal)s."),
            {"seat": seat, "deal": deal + 1},
            ("seat",),
        )
    split = g.defender_tricks
    mine = defenders.index(seat)
    if split is not None:
        if split[mine] < 1:
            raise PenaltyError(
                f"{code}: seat {seat_number(seat)} took no trick in deal {deal + 1}",
                gettext_noop("%(seat)s took no trick in deal %(deal)s."),
                {"seat": seat, "deal": deal + 1},
                ("seat",),
            )
        new_split: tuple[int, ...] | None = tuple(
            t - 1 if k == mine else t for k, t in enumerate(split))
    elif g.calls[mine] is not Call.WHIST:
        raise PenaltyError(
            f"{code}: the defenders' tricks are needed (who took which)",
            gettext_noop("The defenders' tricks are needed (who took which)."),
        )
    else:
        new_split = None
    tricks = _played(g, code)
    if tricks >= 10:
        raise PenaltyError(
            f"{code}: the defence took no trick in deal {deal + 1}",
            gettext_noop("The defence took no trick in deal %(deal)s."),
            {"deal": deal + 1},
        )
    changed = dataclasses.replace(g, declarer_tricks=tricks + 1, defender_tricks=new_split)
    return deal_delta_entries(protocol, deal, changed, rule, code, columns_of=columns_of)


def _revoke(protocol: Protocol, deal: int, g: Game, seat: int, rule: str, code: str
            ) -> tuple[Penalty, ...]:
    """001 §3.9.16.2: "штрафная взятка становится собственностью противников"."""
    tricks = _played(g, code)
    if seat == g.declarer:
        if g.contract.is_misere:
            return deal_delta_entries(protocol, deal, dataclasses.replace(
                g, declarer_tricks=min(10, tricks + 1)), rule, code)
        if tricks < 1:
            raise PenaltyError(
                f"{code}: the declarer took no trick in deal {deal + 1}",
                gettext_noop("The declarer took no trick in deal %(deal)s."),
                {"deal": deal + 1},
            )
        split = g.defender_tricks
        new_split = None
        if split is not None:  # the trick goes to the first whister (or the first defender)
            first = 0 if g.calls and g.calls[0] is Call.WHIST else 1
            new_split = tuple(t + 1 if k == first else t for k, t in enumerate(split))
        changed = dataclasses.replace(g, declarer_tricks=tricks - 1, defender_tricks=new_split)
        return deal_delta_entries(protocol, deal, changed, rule, code)
    if g.contract.is_misere:
        raise PenaltyError(
            f"{code}: a defender's revoke on a misère needs an adjusted result",
            gettext_noop("A defender's revoke on a misère needs an adjusted result."),
        )
    return _defender_trick_to(protocol, deal, g, seat, rule, code, columns_of=None)


def adjusted_result_entries(protocol: Protocol, deal: int, *, other: Game, passer: int,
                            lot: str) -> tuple[Penalty, ...]:
    """The referee's ruling of 001 §3.8.5.1 Б on deal ``deal`` (played by the whister's plan).

    ``other`` is the same deal written as it would have ended by the other plan. The
    disagreeing ``passer`` is given the compensating result (his columns by the other plan);
    the declarer is given by lot (``lot`` = ``"played"`` or ``"other"``) one of the two
    results; the whister keeps what was played.

    :raises PenaltyError: when the deal is not a game or the seats do not fit.
    """
    g = _game(protocol, deal, "ADJUSTED")
    if lot not in ("played", "other"):
        raise PenaltyError(
            f"lot: {lot!r} is not 'played' or 'other'",
            gettext_noop("Choose whether the game was played as it was or by the other plan."),
        )
    if passer == g.declarer or not 0 <= passer < protocol.size:
        raise PenaltyError(
            f"passer: seat {seat_number(passer)} cannot be the disagreeing passer",
            gettext_noop("%(seat)s cannot be the passer who disagreed."),
            {"seat": passer},
            ("seat",),
        )
    if other.declarer != g.declarer or other.contract != g.contract:
        raise PenaltyError(
            "the other plan must be the same game: same declarer and contract",
            gettext_noop("The other plan must be the same game: the same declarer and contract."),
        )
    seats = (passer, g.declarer) if lot == "other" else (passer,)
    return deal_delta_entries(protocol, deal, other, "3.8.5.1", "ADJUSTED", columns_of=seats)
