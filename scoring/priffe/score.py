"""Scoring a Priffe game (seed 004): below and above the line, games, sits and player totals.

Per deal (seed 004 "Poängräkning (det moderna sättet)"; old: "Priffe i gammaldags variant"):

* a made preference / hjärter / ruter (old also klöver, spader): the trick value per trick over
  six, **below** the line; lillslam (12 tricks) and storslam (13) bonuses **above**;
* a made noll: the trick value per trick under seven below; lillslam at 1 trick, storslam at 0;
* a failed contract: the opponents score ``penalty_factor`` × the trick value per strafftrick
  (their tricks over six; at noll the declaring side's tricks over six), below the line (A-PR-1;
  option ``penalty_points="above"``); on a capital failure (12 or 13 tricks against) lilla /
  stora straffslam above (modern; A-PR-3; old: none, A-PO-3);
* tvångsnoll: the side with six tricks or fewer scores the trick value per trick under seven;
  no strafftrick and no slam (A-PR-4);
* honours: above the line for the side holding them, whoever declared;
* a game (utgång) when a side's trick points below the line in the current game reach the
  convention's game points (30 modern, 20 old); both sides restart at 0; a side's second game
  wins the sits (old: +10 for a side's first game, +20 for its second, above, A-PO-4);
* every point a side scores is credited to both its players (seed 004 "Alla poäng som ett bolag
  får ges givetvis till bägge spelarna").

In the simpler variant (option ``play`` ``"deals"`` or ``"total"``) there are no games: the
points below the line accumulate, and the game ends after the agreed number of deals or when a
side's points below the line reach the agreed total.

>>> from scoring.priffe.protocol import Hand, PriffeProtocol, Contract
>>> p = PriffeProtocol(players=("A", "B", "C", "D"), sittings=((0, 1, 2, 3),),
...                    ending="in-progress",
...                    deals=(Hand(0, Contract.HJARTER, 0, (9, 4)),
...                           Hand(0, Contract.HJARTER, 1, (8, 5))))
>>> s = score(p)
>>> s.deals[0].below, s.deals[0].game_won_by, s.deals[1].below, s.player_totals
((30, 0), 0, (40, 0), (70, 0, 70, 0))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from rules.priffe import Contract, PriffeConvention, find_convention

from .protocol import Hand, Penalty, PriffeProtocol, Seating

__all__ = [
    "Part",
    "ScoredDeal",
    "ScoredSits",
    "ScoredPriffe",
    "Scoring",
    "convention_of",
    "deal_points",
    "dealers",
    "score",
    "pairwise_results",
]


@dataclass(frozen=True, slots=True)
class Part:
    """One item written for a deal: ``side``, ``where`` ("below"/"above"), points and why."""

    side: int
    where: str
    points: int
    reason: str  # tricks, strafftrick, lillslam, storslam, lilla straffslam, stora straffslam,
    # honours, game bonus, penalty


@dataclass(frozen=True, slots=True)
class ScoredDeal:
    """A deal as scored: what each side wrote, and where the game and the sits stand after it.

    ``game_points`` are the sides' points below the line in the current game after this deal,
    before a game line resets them (in the simpler variant: all points below the line so far).
    """

    index: int
    sits: int
    dealer: int | None
    declaring_side: int | None
    below: tuple[int, int]
    above: tuple[int, int]
    parts: tuple[Part, ...]
    game: int
    game_points: tuple[int, int]
    games: tuple[int, int]
    game_won_by: int | None
    sits_won_by: int | None


@dataclass(frozen=True, slots=True)
class ScoredSits:
    """One sits: its seating, games and the sides' totals below and above the line."""

    index: int
    seating: Seating
    deals: tuple[int, ...]
    games: tuple[int, int]
    below: tuple[int, int]
    above: tuple[int, int]
    winner: int | None
    won_at: int | None

    @property
    def sides(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """The partnerships: (first, third) and (second, fourth) player of the seating."""
        return (self.seating[0], self.seating[2]), (self.seating[1], self.seating[3])

    @property
    def totals(self) -> tuple[int, int]:
        return (self.below[0] + self.above[0], self.below[1] + self.above[1])


@dataclass(frozen=True, slots=True)
class ScoredPriffe:
    """A scored Priffe game."""

    protocol: PriffeProtocol
    convention: PriffeConvention
    deals: tuple[ScoredDeal, ...]
    sits: tuple[ScoredSits, ...]
    player_totals: tuple[int, ...]
    closed_at: int | None
    extra: tuple[int, ...] = field(default=())  # deals after the game was over

    @property
    def money(self) -> tuple[Fraction, ...] | None:
        """Per player the sum of his point differences to the others / ``money_divisor``."""
        divisor = self.convention.money_divisor
        if not divisor:
            return None
        t = self.player_totals
        return tuple(
            sum((Fraction(t[p] - t[q], divisor) for q in range(len(t)) if q != p), Fraction(0))
            for p in range(len(t))
        )


def convention_of(protocol: PriffeProtocol) -> PriffeConvention:
    """The protocol's convention with its options applied.

    :raises rules.conventions.InvalidConventionError: an unknown name or option.
    """
    conv = find_convention(protocol.convention)
    return conv.with_options(**dict(protocol.options)) if protocol.options else conv


def dealers(protocol: PriffeProtocol) -> tuple[int | None, ...]:
    """Per entry the dealer by the rotation: the sits' seating, clockwise, one seat per deal
    (a penalty deals no cards: ``None``). Every sits starts with its seating's first player."""
    out: list[int | None] = []
    count: dict[int, int] = {}
    for deal in protocol.deals:
        seating = protocol.seating(deal.sits)
        if isinstance(deal, Penalty) or seating is None:
            out.append(None)
            continue
        k = count.get(deal.sits, 0)
        out.append(seating[k % 4])
        count[deal.sits] = k + 1
    return tuple(out)


def deal_points(hand: Hand, side: int | None, conv: PriffeConvention) -> tuple[Part, ...]:
    """What one deal writes, for a declaring side ``side`` (``None`` at tvångsnoll)."""
    v = conv.trick_value(hand.contract)
    parts: list[Part] = []
    penalty_where = conv.penalty_points
    if hand.contract is Contract.TVANGSNOLL or side is None:
        # 004: "Vid tvångsnoll förekommer dock inga strafftrick" (A-PR-4: no slams either).
        for s in (0, 1):
            if hand.tricks[s] <= 6:
                parts.append(Part(s, "below", v * (7 - hand.tricks[s]), "tricks"))
        return tuple(parts)
    other = 1 - side
    taken = hand.tricks[side]
    if hand.contract.is_noll:
        made, over = taken <= 6, 7 - taken  # "10 poäng per trick (stick under sju)"
        strafftricks = taken - 6  # variants.md §7: declaring-side tricks − 6
        slam = {1: 0, 0: 1}.get(taken)
        capital = {12: 0, 13: 1}.get(taken)  # A-PR-3
    else:
        made, over = taken >= 7, taken - 6  # "10 poäng per trick (stick utöver de sex första)"
        strafftricks = hand.tricks[other] - 6  # "stick över sex som de själva vann"
        slam = {12: 0, 13: 1}.get(taken)
        capital = {12: 0, 13: 1}.get(hand.tricks[other])
    if made:
        parts.append(Part(side, "below", v * over, "tricks"))
        if slam is not None:
            parts.append(Part(side, "above", conv.slam_bonus[slam], ("lillslam", "storslam")[slam]))
    else:
        if strafftricks > 0:
            points = conv.penalty_factor * v * strafftricks
            parts.append(Part(other, penalty_where, points, "strafftrick"))
        if capital is not None and conv.straffslam:
            reason = ("lilla straffslam", "stora straffslam")[capital]
            parts.append(Part(other, "above", conv.straffslam_bonus[capital], reason))
    return tuple(parts)


def _honour_parts(protocol: PriffeProtocol, hand: Hand, conv: PriffeConvention) -> list[Part]:
    out = []
    for claim in hand.honours:
        side = protocol.side_of(claim.holder, hand.sits)
        if side is not None:
            points = conv.honour_points(hand.contract, claim.pattern)
            out.append(Part(side, "above", points, "honours"))
    return out


class _Sits:
    def __init__(self, index: int, seating: Seating) -> None:
        self.index, self.seating = index, seating
        self.deals: list[int] = []
        self.game_points = [0, 0]
        self.games = [0, 0]
        self.below = [0, 0]
        self.above = [0, 0]
        self.game = 0
        self.winner: int | None = None
        self.won_at: int | None = None

    def freeze(self) -> ScoredSits:
        return ScoredSits(
            index=self.index,
            seating=self.seating,
            deals=tuple(self.deals),
            games=(self.games[0], self.games[1]),
            below=(self.below[0], self.below[1]),
            above=(self.above[0], self.above[1]),
            winner=self.winner,
            won_at=self.won_at,
        )


class Scoring:
    """A Priffe game scored deal by deal: :meth:`add` scores one more entry in constant time,
    so that a game built up deal by deal (the generator, a table entering deals) costs linear
    time, not a full rescoring per deal. :func:`score` is this over a protocol's deals.

    ``protocol`` gives the players, the sittings, the target and the rules; its own deals are
    not read.

    :raises ValueError: an unknown convention or option.
    """

    def __init__(self, protocol: PriffeProtocol) -> None:
        self.protocol = protocol
        self.convention = convention_of(protocol)
        self.table: dict[int, _Sits] = {}
        self.deals: list[ScoredDeal] = []
        self.totals = [0] * protocol.size
        self.closed_at: int | None = None
        self.extra: list[int] = []
        self.hands = 0
        self.won = 0  # sits won so far
        self._dealt: dict[int, int] = {}  # hands dealt per sits, for the rotation

    def sits_winner(self, sits: int) -> int | None:
        """The side that won sits ``sits`` so far, or ``None``."""
        state = self.table.get(sits)
        return None if state is None else state.winner

    def add(self, deal: Hand | Penalty) -> ScoredDeal:
        """Score the next entry.

        :raises ValueError: a deal whose sits has no seating (the readers refuse those).
        """
        protocol, conv = self.protocol, self.convention
        i = len(self.deals)
        seating = protocol.seating(deal.sits)
        if seating is None:
            raise ValueError(f"deals[{i}].sits: sits {deal.sits + 1} has no seating")
        state = self.table.get(deal.sits)
        if state is None:
            state = self.table[deal.sits] = _Sits(deal.sits, seating)
        state.deals.append(i)
        if self.closed_at is not None:
            self.extra.append(i)
        declaring: int | None = None
        dealer: int | None = None
        if isinstance(deal, Penalty):
            offender = protocol.side_of(deal.player, deal.sits)
            parts: list[Part] = []
            if offender is not None:
                parts.append(Part(1 - offender, "above", deal.points, "penalty"))
        else:
            self.hands += 1
            k = self._dealt.get(deal.sits, 0)
            dealer = seating[k % 4]  # the rotation (see :func:`dealers`)
            self._dealt[deal.sits] = k + 1
            if deal.declarer is not None:
                declaring = protocol.side_of(deal.declarer, deal.sits)
            parts = [*deal_points(deal, declaring, conv), *_honour_parts(protocol, deal, conv)]
        below, above = [0, 0], [0, 0]
        for part in parts:
            (below if part.where == "below" else above)[part.side] += part.points
        game_won_by = sits_won_by = None
        game = state.game
        for s in (0, 1):
            state.game_points[s] += below[s]
        game_points = (state.game_points[0], state.game_points[1])
        if not conv.simple:
            for s in (0, 1):
                if state.game_points[s] >= conv.game_points and game_won_by is None:
                    game_won_by = s
                    state.games[s] += 1
                    if (
                        state.games[s] <= len(conv.game_bonus)
                        and conv.game_bonus[state.games[s] - 1]
                    ):
                        bonus = conv.game_bonus[state.games[s] - 1]
                        parts.append(Part(s, "above", bonus, "game bonus"))
                        above[s] += bonus
            if game_won_by is not None:
                state.game_points = [0, 0]
                state.game += 1
                if state.games[game_won_by] == 2 and state.winner is None:
                    state.winner, state.won_at, sits_won_by = game_won_by, i, game_won_by
                    self.won += 1
                    if self.won >= protocol.target and self.closed_at is None:
                        self.closed_at = i
        elif self.closed_at is None and (
            (conv.play == "deals" and isinstance(deal, Hand) and self.hands >= protocol.target)
            or (conv.play == "total" and max(state.game_points) >= protocol.target)
        ):
            self.closed_at = i
        for s in (0, 1):
            state.below[s] += below[s]
            state.above[s] += above[s]
            for seat in (s, s + 2):
                self.totals[seating[seat]] += below[s] + above[s]
        scored = ScoredDeal(
            index=i,
            sits=deal.sits,
            dealer=dealer,
            declaring_side=declaring,
            below=(below[0], below[1]),
            above=(above[0], above[1]),
            parts=tuple(parts),
            game=game,
            game_points=game_points,
            games=(state.games[0], state.games[1]),
            game_won_by=game_won_by,
            sits_won_by=sits_won_by,
        )
        self.deals.append(scored)
        return scored

    def result(self, protocol: PriffeProtocol | None = None) -> ScoredPriffe:
        """The game scored so far (``protocol``: the one whose deals were added)."""
        sits = tuple(
            self.table[k].freeze() if k in self.table else _Sits(k, s).freeze()
            for k, s in enumerate(self.protocol.sittings)
        )
        return ScoredPriffe(
            protocol=protocol if protocol is not None else self.protocol,
            convention=self.convention,
            deals=tuple(self.deals),
            sits=sits,
            player_totals=tuple(self.totals),
            closed_at=self.closed_at,
            extra=tuple(self.extra),
        )


def score(protocol: PriffeProtocol) -> ScoredPriffe:
    """Score a Priffe protocol.

    :raises ValueError: a deal whose sits has no seating (the readers refuse those), or an
        unknown convention or option.
    """
    scoring = Scoring(protocol)
    for deal in protocol.deals:
        scoring.add(deal)
    return scoring.result()


def pairwise_results(protocol: PriffeProtocol) -> tuple[tuple[Fraction, ...], ...]:
    """``r[p][q] = (total[p] − total[q]) / 4``: antisymmetric, and each row sums to the
    player's total minus the table's mean (Priffe totals are not zero-sum, so the rows cannot
    sum to the totals themselves). Among tied players, the sign says who outscored whom."""
    totals = score(protocol).player_totals
    n = len(totals)
    return tuple(
        tuple(Fraction(0) if p == q else Fraction(totals[p] - totals[q], n) for q in range(n))
        for p in range(n)
    )
