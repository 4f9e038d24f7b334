"""Scoring a Balkan game (seed 002): the three columns per player, deal by deal, and the settlement.

:func:`score` replays the deals of a :class:`~scoring.balkan.protocol.BalkanProtocol` the way the
players write them (reading aid, variants §1.2–1.3):

1. ``mult = 2 ** kontra × (2 if the declarer has an unplayed refa)``; his oldest refa is used
   (seed 002 "Refa"; notes (e), (f), (h); note (g): one refa per hand).
2. ``v = 2 × (contract + igra)`` (seed 002 "Scoring"), and the value is ``v × mult``.
3. The outcome: the declarer ± value in his declarer column only; the defenders' tricks × value
   in their soups against him; a defender who failed his quota − value in his own declarer
   column (seed 002 "The Defenders' Decisions", "Kontra"); a lost bettel gives each defender
   5 × value (note (h)); both defenders dropping gives the declarer the value and no soups.
4. The end cap (seed 002 "Ending the Game", note (p), ``variants.md`` A-HR-2): a won contract
   with no failed defender that would take the sum of the declarer columns past zero is worth
   exactly what makes it zero, and so is each defence trick.
5. The game ends when the declarer columns sum to zero (with ``end_cap`` off: to ≥ 0).

Records that cannot be scored (a seat not at the table, tricks that do not add up, the failed
preferans the seed leaves undefined, a deal after the end …) are **findings** and are left out of
the sums: the result says so (``kind == "not-scored"``), it never guesses.

Columns are **signed**: a declarer column starts at −bula, positive means under the hat. Soups
are ``soups[writer][against]``.

>>> from scoring.balkan.protocol import AllPass, BalkanProtocol, Defence, Hand
>>> p = BalkanProtocol(players=("A", "B", "C"), bula=30, first_dealer=1, deals=(
...     Hand(2, 3, tricks=(2, 2, 6)),                                    # note (b)
...     Hand(1, 5, defence=(Defence.PLAY, Defence.DROP), tricks=(0, 7, 3)),  # note (c)
...     AllPass()))                                                       # note (d)
>>> s = score(p)
>>> s.columns, s.soups[0], s.refas
((-30, -20, -24), (0, 0, 12), (1, 1, 1))
>>> s.deals[0].value, s.deals[1].made, s.deals[2].outcome
(6, True, 'refa')
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rules.balkan import BETTEL, BalkanConvention, find_convention

from ..findings import Finding, Severity, gettext_noop, seat_number, templated
from ..model import PENALTY_MAX, Ending, repeated_name
from .outcome import hand_outcome
from .protocol import AllPass, BalkanProtocol, Defence, Hand, Penalty

__all__ = [
    "DealResult",
    "ScoredBalkan",
    "Replay",
    "score",
    "convention_of",
    "pairwise_results",
    "deal_stats",
    "KINDS",
]

SOURCE = "002"

#: What happened at a deal: ``all-pass`` (everybody passed), ``penalty`` (a referee's entry),
#: ``played`` (a contract played out), ``no-play`` (both defenders dropped: the declarer wins),
#: ``plain-two`` (a plain two no defender kontra'd, per the convention's ``plain_two``),
#: ``not-scored`` (the record could not be scored; the findings say why).
KINDS = ("all-pass", "penalty", "played", "no-play", "plain-two", "not-scored")


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal as scored.

    ``outcome`` in words: ``made``/``lost`` (played), ``made`` (no-play), ``declarer-wins``,
    ``thrown-in``, ``refa``, ``no-score`` (plain-two), ``refa``/``no-effect`` (all-pass),
    ``penalty``, ``undefined``/``invalid``/``after-end`` (not-scored).
    ``base`` is v = 2 × (contract + igra); ``value`` = v × ``multiplier``; ``capped_value`` the
    value after the end cap (what the declarer column and each defence trick moved by);
    ``failed`` the defenders who failed their quota; ``host``/``guest`` the defender who
    answers for the defence after an invitation or a kontra, and his partner.
    ``column_delta[s]`` and ``soup_delta[s][q]`` are what this deal changed; ``columns``,
    ``soups`` and ``refas`` (unplayed refas per seat) the sheet after it; ``hats`` the seats
    whose column crossed zero, ``(seat, "up")`` (a hat) or ``(seat, "down")`` (an inverted hat).
    """

    index: int
    kind: str
    outcome: str
    dealer: int | None
    columns: tuple[int, ...]
    soups: tuple[tuple[int, ...], ...]
    refas: tuple[int, ...]
    column_delta: tuple[int, ...]
    soup_delta: tuple[tuple[int, ...], ...]
    declarer: int | None = None
    contract: int | None = None
    game: bool = False
    kontra: int = 0
    base: int = 0
    multiplier: int = 1
    value: int = 0
    capped_value: int = 0
    capped: bool = False
    made: bool | None = None
    failed: tuple[int, ...] = ()
    host: int | None = None
    guest: int | None = None
    refa_used: bool = False
    refa_used_from: int | None = None
    refa_given: bool = False
    hats: tuple[tuple[int, str], ...] = ()

    @property
    def scored(self) -> bool:
        return self.kind != "not-scored"


@dataclass(frozen=True, slots=True)
class ScoredBalkan:
    """The scored game: per deal a :class:`DealResult`, then the end state and the settlement.

    ``settlement[s]`` = own soups − soups written against s + 10 × signed column (seed 002, the
    final calculation); ``zero_sum`` whether it sums to 0 (it does once the game ended; a game
    stopped early is not, ``variants.md`` A-HR-4, and ``stopped_early`` says so).
    """

    protocol: BalkanProtocol
    convention: BalkanConvention
    refa_limit: int
    deals: tuple[DealResult, ...]
    columns: tuple[int, ...]
    soups: tuple[tuple[int, ...], ...]
    refas: tuple[int, ...]
    ended: bool
    ended_at: int | None
    settlement: tuple[int, ...]
    findings: tuple[Finding, ...] = field(default=())

    @property
    def bula(self) -> int:
        return self.protocol.bula

    @property
    def zero_sum(self) -> bool:
        return sum(self.settlement) == 0

    @property
    def stopped_early(self) -> bool:
        """The table stopped (time limit, agreement) before the columns summed to zero."""
        return not self.ended and self.protocol.ending in (Ending.TIME_LIMIT, Ending.AGREEMENT)

    @property
    def ok(self) -> bool:
        return not any(f.severity is Severity.ERROR for f in self.findings)


def convention_of(protocol: BalkanProtocol) -> BalkanConvention:
    """The protocol's convention with its options applied.

    :raises rules.conventions.InvalidConventionError: an unknown convention or option.
    """
    conv = find_convention(protocol.convention)
    if protocol.options:
        conv = conv.with_options(**dict(protocol.options))
    return conv


class _Sheet:
    """The running sheet while scoring (mutable, private)."""

    def __init__(self, bula: int) -> None:
        self.columns = [-bula] * 3
        self.soups = [[0] * 3 for _ in range(3)]
        self.refas: list[list[int]] = [[], [], []]  # per seat: deal indexes of unplayed refas
        self.rounds = 0  # refa rounds given

    def refa_possible(self, conv: BalkanConvention, limit: int) -> bool:
        """A new refa round may be written (seed 002 "Refa"; A-HR-3: exactly 0 is not under
        the hat; ``refa_count``: rounds given, or any player's unplayed refas)."""
        if any(c > 0 for c in self.columns):
            return False
        if conv.refa_count == "per_player":
            return max(len(r) for r in self.refas) < limit
        return self.rounds < limit

    def give_refas(self, index: int) -> None:
        self.rounds += 1
        for r in self.refas:
            r.append(index)


def _err(code: str, text: str, rule: str, deal: int, params: dict[str, object] | None = None,
         **kw: object) -> Finding:
    """An error whose message is the template ``text`` (marked for the translators) filled
    with ``params`` (:func:`scoring.findings.templated`)."""
    return templated(code, text, params, rule=rule, deal=deal, source=SOURCE, **kw)


def score(protocol: BalkanProtocol) -> ScoredBalkan:
    """Score ``protocol`` deal by deal (see the module docstring).

    :raises ValueError: only for a table that cannot be scored at all: not three players, a
        bula that is not a positive whole number, a first dealer not at the table, an unknown
        convention or option.
    """
    replay = Replay(protocol)
    for deal in protocol.deals:
        replay.apply(deal)
    return replay.result()


class Replay:
    """The game played deal by deal: :meth:`apply` scores the next deal, :meth:`result` ends.

    :func:`score` is ``Replay(protocol)``, ``apply`` for each deal, then ``result()``; the
    generator (:mod:`scoring.balkan.generate`) uses it to see the sheet before each deal.
    ``protocol`` gives the table (players, bula, convention, first dealer, ending); its deals
    are not read here.

    :raises ValueError: as :func:`score`.
    """

    def __init__(self, protocol: BalkanProtocol) -> None:
        if len(protocol.players) != 3:
            raise ValueError(
                f"players: {len(protocol.players)} names given; the Balkan games have three "
                '(seed 002 "Players and Deal")'
            )
        same = repeated_name(protocol.players)
        if same is not None:
            raise ValueError(
                f"players: seat {same[1] + 1} has the name of seat {same[0] + 1} "
                f"({protocol.players[same[1]]!r}); each player needs a name of his own "
                '(seed 002 "Players and Deal")'
            )
        bula = protocol.bula
        if isinstance(bula, bool) or not isinstance(bula, int) or bula <= 0:
            raise ValueError(f'bula: {bula!r} must be a positive whole number (seed 002 "Scoring")')
        if protocol.first_dealer not in (0, 1, 2):
            raise ValueError(
                f"first_dealer: seat {seat_number(protocol.first_dealer)} is not at the table "
                "(seats 1 to 3)"
            )
        self.protocol = protocol
        self.conv = convention_of(protocol)
        self.limit = self.conv.refa_limit_for(bula)
        self.sheet = _Sheet(bula)
        self.findings: list[Finding] = []
        self.deals: list[DealResult] = []
        self.dealer = protocol.first_dealer  # the next deal's dealer
        self.ended_at: int | None = None

    @property
    def ended(self) -> bool:
        return self.ended_at is not None

    @property
    def columns(self) -> tuple[int, ...]:
        return tuple(self.sheet.columns)

    def unplayed_refas(self, seat: int) -> int:
        return len(self.sheet.refas[seat])

    def refa_possible(self) -> bool:
        """Whether everybody passing now would write a refa round."""
        return self.sheet.refa_possible(self.conv, self.limit)

    def apply(self, deal: object) -> DealResult:
        """Score the next deal; its findings go to :attr:`findings`."""
        sheet, conv, findings = self.sheet, self.conv, self.findings
        i = len(self.deals)
        before_cols = tuple(sheet.columns)
        before_soups = tuple(tuple(r) for r in sheet.soups)
        this_dealer: int | None = None
        if isinstance(deal, Penalty):
            info = _penalty(deal, sheet, i, findings)
        else:
            this_dealer = self.dealer
            self.dealer = (self.dealer + 1) % 3
            if self.ended_at is not None:
                findings.append(_err(
                    "DEAL_AFTER_END",
                    gettext_noop("a deal after the game ended at deal {deal} (the declarer "
                                 "columns summed to zero)"), "Ending the Game", i,
                    {"deal": self.ended_at + 1}))
                info = {"kind": "not-scored", "outcome": "after-end"}
            elif isinstance(deal, AllPass):
                info = _all_pass(sheet, conv, self.limit, i)
            elif isinstance(deal, Hand):
                info = _hand(deal, sheet, conv, self.limit, i, findings)
            else:
                findings.append(_err("DEAL_TYPE", gettext_noop("not a deal: {deal}"), "The Bidding", i,
                                     {"deal": repr(deal)}))
                info = {"kind": "not-scored", "outcome": "invalid"}
        hats = tuple(
            (s, "up" if after > 0 else "down")
            for s, (old, after) in enumerate(zip(before_cols, sheet.columns, strict=True))
            if (old > 0) != (after > 0)
        )
        total = sum(sheet.columns)
        if self.ended_at is None and (total == 0 if conv.end_cap else total >= 0):
            self.ended_at = i
        result = DealResult(
            index=i,
            dealer=this_dealer,
            columns=tuple(sheet.columns),
            soups=tuple(tuple(r) for r in sheet.soups),
            refas=tuple(len(r) for r in sheet.refas),
            column_delta=tuple(a - b for a, b in zip(sheet.columns, before_cols, strict=True)),
            soup_delta=tuple(
                tuple(a - b for a, b in zip(row, old, strict=True))
                for row, old in zip(sheet.soups, before_soups, strict=True)
            ),
            hats=hats,
            **info,  # type: ignore[arg-type]
        )
        self.deals.append(result)
        return result

    def result(self, protocol: BalkanProtocol | None = None) -> ScoredBalkan:
        """The scored game (for ``protocol``, default the one given at the start)."""
        protocol = protocol or self.protocol
        sheet = self.sheet
        findings = list(self.findings)
        columns = tuple(sheet.columns)
        soups = tuple(tuple(r) for r in sheet.soups)
        settlement = tuple(
            sum(soups[p]) - sum(soups[q][p] for q in range(3)) + 10 * columns[p]
            for p in range(3)
        )
        ended = self.ended_at is not None
        if not ended and protocol.ending == Ending.CLOSED:
            findings.append(templated(
                "NOT_ENDED",
                gettext_noop("the protocol says the game ended, but the declarer columns sum "
                             "to {sum}, not zero"), {"sum": sum(columns)},
                rule="Ending the Game", source=SOURCE, column="ending"))
        if not ended and protocol.ending in (Ending.TIME_LIMIT, Ending.AGREEMENT):
            # The seed ends a game only at a zero sum; the reading aid's A-HR-4 applies the
            # final calculation as it stands.
            findings.append(templated(
                "STOPPED_EARLY",
                gettext_noop("the game stopped before the declarer columns summed to zero "
                             "(they sum to {sum}): the final calculation is applied as it "
                             "stands and is not zero-sum (Σ = {total})"),
                {"sum": sum(columns), "total": sum(settlement)},
                rule="Ending the Game", source=SOURCE, severity=Severity.WARNING))
        if protocol.bula % 2:
            findings.append(templated(
                "ODD_BULA", gettext_noop("bula {bula} is odd; it should be even, as every score "
                                         "value is"), {"bula": protocol.bula},
                rule="Scoring", source=SOURCE, column="bula", severity=Severity.WARNING))
        findings.sort(key=lambda f: -1 if f.deal is None else f.deal)
        return ScoredBalkan(
            protocol=protocol,
            convention=self.conv,
            refa_limit=self.limit,
            deals=tuple(self.deals),
            columns=columns,
            soups=soups,
            refas=tuple(len(r) for r in sheet.refas),
            ended=ended,
            ended_at=self.ended_at,
            settlement=settlement,
            findings=tuple(findings),
        )


def _all_pass(sheet: _Sheet, conv: BalkanConvention, limit: int, i: int) -> dict[str, object]:
    """Everybody passed: a refa round when allowed (seed 002 "Refa"), else no effect."""
    if sheet.refa_possible(conv, limit):
        sheet.give_refas(i)
        return {"kind": "all-pass", "outcome": "refa", "refa_given": True}
    return {"kind": "all-pass", "outcome": "no-effect"}


def _penalty(pen: Penalty, sheet: _Sheet, i: int, findings: list[Finding]) -> dict[str, object]:
    """A referee's entry: points against the offender's column, soups others write on him."""
    problems: list[tuple[str, str]] = []  # (template, the value as a person reads it)
    if pen.player not in (0, 1, 2):
        problems.append((gettext_noop("penalty entry: the offender's seat {value} is not at the "
                                      "table"), seat_number(pen.player)))
    if not isinstance(pen.column, int) or pen.column < 0:
        problems.append((gettext_noop("penalty entry: column points {value} must be a whole "
                                      "number ≥ 0"), repr(pen.column)))
    elif pen.column > PENALTY_MAX:
        problems.append((gettext_noop("penalty entry: column points {value} are more than a "
                                      "penalty may be (at most 1000000)"), repr(pen.column)))
    for writer, points in pen.soups:
        if writer not in (0, 1, 2) or writer == pen.player:
            problems.append((gettext_noop("penalty entry: soup writer {value} is not another "
                                          "player at the table"), seat_number(writer)))
        if not isinstance(points, int) or points < 0:
            problems.append((gettext_noop("penalty entry: soup points {value} must be a whole "
                                          "number ≥ 0"), repr(points)))
        elif points > PENALTY_MAX:
            problems.append((gettext_noop("penalty entry: soup points {value} are more than a "
                                          "penalty may be (at most 1000000)"), repr(points)))
    if problems:
        for text, value in problems:
            findings.append(_err("PENALTY", text, "Scoring", i, {"value": value},
                                 player=pen.player if pen.player in (0, 1, 2) else None))
        return {"kind": "not-scored", "outcome": "invalid"}
    sheet.columns[pen.player] -= pen.column
    for writer, points in pen.soups:
        sheet.soups[writer][pen.player] += points
    return {"kind": "penalty", "outcome": "penalty"}


def _hand(
    h: Hand, sheet: _Sheet, conv: BalkanConvention, limit: int, i: int, findings: list[Finding]
) -> dict[str, object]:
    """A declared contract: :func:`~scoring.balkan.outcome.hand_outcome` reads the record,
    then the refa, the kontra and the end cap give the values (``variants.md`` §1.3)."""
    seated = h.declarer in (0, 1, 2)
    errors, warnings, plan = hand_outcome(
        h, conv, i,
        has_refa=seated and bool(sheet.refas[h.declarer]),
        refa_possible=sheet.refa_possible(conv, limit),
        under_hat=seated and sheet.columns[h.declarer] > 0,
    )
    findings.extend(errors)
    findings.extend(warnings)
    info: dict[str, object] = {"declarer": h.declarer if seated else None,
                               "contract": h.contract, "game": bool(h.game), "kontra": h.kontra}
    if plan is None:
        undefined = any(f.code == "UNDEFINED" for f in errors)
        return {**info, "kind": "not-scored", "outcome": "undefined" if undefined else "invalid"}
    decl = h.declarer
    info.update(kind=plan.kind, outcome=plan.outcome, host=plan.host, guest=plan.guest)
    if plan.made is None:  # a plain two thrown in, or giving a refa, or not scored
        if plan.outcome == "refa" or (
            plan.outcome == "thrown-in" and sheet.refa_possible(conv, limit)
        ):
            sheet.give_refas(i)
            info["refa_given"] = True
        return info
    multiplier = 2**h.kontra
    if sheet.refas[decl]:  # his oldest unplayed refa doubles this hand (notes (e), (g))
        info["refa_used_from"] = sheet.refas[decl].pop(0)
        info["refa_used"] = True
        multiplier *= 2
    base = 2 * (h.contract + bool(h.game))
    value = base * multiplier
    made = plan.made
    effective = value
    total = sum(sheet.columns)
    if conv.end_cap and made and not plan.failed and total + value > 0:
        effective = -total  # note (p), A-HR-2: the cap replaces the multiplied value
        info["capped"] = True
    sheet.columns[decl] += effective if made else -value
    for s in plan.failed:
        sheet.columns[s] -= value
    for writer, units in plan.soups:
        sheet.soups[writer][decl] += units * effective
    info.update(base=base, multiplier=multiplier, value=value, capped_value=effective,
                made=made, failed=plan.failed)
    return info


def pairwise_results(protocol: BalkanProtocol) -> tuple[tuple[Fraction, ...], ...]:
    """``r[p][q]``: what p won from q — the soups netted plus 10 × (col p − col q) / 3.

    Antisymmetric; once the game ended (columns summing to 0) ``sum(r[p])`` is p's settlement.
    In a game stopped early it is the settlement less 10 × Σ columns / 3 (A-HR-4: the interim
    formula is not zero-sum, a pairwise split cannot be).

    >>> from scoring.balkan.protocol import BalkanProtocol, Hand
    >>> r = pairwise_results(BalkanProtocol(("A", "B", "C"), 30, (Hand(0, 3, tricks=(6, 2, 2)),)))
    >>> r[1][0], r[0][1], r[0][2]
    (Fraction(-8, 1), Fraction(8, 1), Fraction(8, 1))
    """
    s = score(protocol)
    col, soups = s.columns, s.soups
    return tuple(
        tuple(
            Fraction(0) if p == q
            else Fraction(soups[p][q] - soups[q][p]) + Fraction(10 * (col[p] - col[q]), 3)
            for q in range(3)
        )
        for p in range(3)
    )


STAT_KEYS = ("games", "games_made", "games_lost", "bettels", "defences", "defences_failed",
             "kontras", "refas_used", "penalties")


def deal_stats(protocol: BalkanProtocol) -> tuple[dict[str, int], ...]:
    """Per seat the counters a tournament's tie-breaks use (``BalkanVariant.stat_keys``).

    ``games`` contracts declared and scored (made / lost), ``bettels`` of them, ``defences``
    hands defended in play (playing, inviting, invited or in a kontra), ``defences_failed``,
    ``kontras`` said, ``refas_used``, ``penalties`` entries against the seat.
    """
    s = score(protocol)
    stats = [dict.fromkeys(STAT_KEYS, 0) for _ in range(3)]
    for d, deal in zip(s.deals, protocol.deals, strict=True):
        if d.kind == "penalty" and isinstance(deal, Penalty):
            stats[deal.player]["penalties"] += 1
        if d.declarer is None or not d.scored or d.kind == "all-pass" or d.made is None:
            continue
        if not isinstance(deal, Hand):
            continue
        mine = stats[d.declarer]
        mine["games"] += 1
        mine["games_made" if d.made else "games_lost"] += 1
        mine["bettels"] += deal.contract == BETTEL
        mine["refas_used"] += d.refa_used
        if deal.kontra and deal.kontra_by is not None:
            stats[deal.kontra_by]["kontras"] += 1
        if d.kind == "played":
            for seat, decision in zip(deal.defenders(), deal.defence, strict=False):
                partner = deal.defence[1] if seat == deal.defenders()[0] else deal.defence[0]
                if decision is not Defence.DROP or partner is Defence.INVITE or deal.kontra:
                    stats[seat]["defences"] += 1
        for seat in d.failed:
            stats[seat]["defences_failed"] += 1
    return tuple(stats)

