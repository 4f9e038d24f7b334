"""Swedish Priffe (seed 004): the contracts, the one-round bidding and the two scorings as data.

Seed 004 describes the game of four players in two partnerships (bolag), 52 cards and 13 tricks,
with the **modern** scoring ("Poängräkning (det moderna sättet)") and the **old-fashioned** one
("Priffe i gammaldags variant"), plus a simpler way to play ("Enklare variant av Priffe"): a fixed
number of deals, or until a side reaches a total below the line. reading aid, variants
§7–8 lists the points the text leaves open (A-PR-1 … A-PR-6, A-PO-1 … A-PO-4); each reading with
an alternative is an option here, validated like the Russian ones, with the seed's as default.

Vocabulary (the players' words): **bolag** a partnership (side); **förhand** forehand, the
dealer's left, who speaks and (except at preference) leads first; **preference** (pref, priffe,
spel, spelut) no trumps, the most tricks; **noll** / **nollissimo** misère, the fewest tricks;
**hjärter**, **ruter** (and, old-fashioned, **klöver**, **spader**) a trump suit; **spader** /
**klöver** in the modern game only *information bids* (upplysningsbud: stor / liten invit) of
the first two speakers; **tvångsnoll** the forced misère played when nobody bid a contract;
**trick** a trick over six (noll: under seven); **strafftrick** a penalty trick;
**lillslam** / **storslam** 12 / 13 tricks (noll: 1 / 0); **straffslam** a capital failure;
**honnörer** honours; **utgång** game; **sits** a rubber, won with a side's second game;
**under / över strecket** below / above the line.

>>> find_convention("gammaldags").key, MODERN.trick_value(Contract.HJARTER), OLD.trick_value("hjärter")
('old', 10, 5)
>>> auction_outcome(("spader", "pass", "hjärter", "pass"), MODERN)
(<Contract.HJARTER: 'hjärter'>, 2)
>>> auction_outcome(("klöver", "pass", "pass", "pass"), MODERN)
(<Contract.TVANGSNOLL: 'tvångsnoll'>, None)
>>> auction_outcome(("klöver", "pass", "pass", "pass"), OLD)
(<Contract.KLOVER: 'klöver'>, 0)
>>> auction_problems(("pass", "pass", "spader", "pass"), MODERN)
[(2, 'spader is an information bid of the first two speakers only')]
>>> MODERN.with_options(penalty_points="sideways")
Traceback (most recent call last):
...
rules.conventions.InvalidConventionError: option 'penalty_points': 'sideways' is not one of 'below', 'above'
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Final

from rules.conventions import (
    not_one_of,
    not_yes_or_no,
    out_of_range,
    unknown_convention,
    unknown_option,
)

__all__ = [
    "Contract",
    "LADDER",
    "INFORMATION_BIDS",
    "PASS",
    "parse_contract",
    "parse_bid",
    "PriffeConvention",
    "MODERN",
    "OLD",
    "CONVENTIONS",
    "OPTION_NAMES",
    "OPTION_CHOICES",
    "OPTION_RANGES",
    "find_convention",
    "auction_outcome",
    "auction_problems",
    "auction_faults",
    "AUCTION_RULES",
    "HONOUR_CARDS",
]


class Contract(enum.StrEnum):
    """A Priffe bid or contract, by its Swedish name (seed 004 "Budgivning")."""

    PREFERENCE = "pref"  # preference, priffe, spel, spelut: no trumps
    NOLL = "noll"  # nollissimo: misère
    HJARTER = "hjärter"
    RUTER = "ruter"
    KLOVER = "klöver"  # modern: "liten invit", information only
    SPADER = "spader"  # modern: "stor invit", information only
    TVANGSNOLL = "tvångsnoll"  # forced misère: nobody bid a contract (never a bid)

    @property
    def is_noll(self) -> bool:
        """Noll and tvångsnoll are misère: the fewest tricks."""
        return self in (Contract.NOLL, Contract.TVANGSNOLL)


#: The bids from high to low. Modern (seed 004 "De olika buden är från högre till lägre"):
#: preference > noll > hjärter > ruter > spader > klöver. Old-fashioned ("gammaldags"): klöver
#: ranks above spader, "och så ned till spader, som var det lägsta budet".
LADDER: Final = {
    "modern": (Contract.PREFERENCE, Contract.NOLL, Contract.HJARTER, Contract.RUTER,
               Contract.SPADER, Contract.KLOVER),
    "old": (Contract.PREFERENCE, Contract.NOLL, Contract.HJARTER, Contract.RUTER,
            Contract.KLOVER, Contract.SPADER),
}  # fmt: skip
INFORMATION_BIDS: Final = frozenset({Contract.SPADER, Contract.KLOVER})
PASS: Final = "pass"

_WORDS: Final[dict[str, Contract]] = {
    "pref": Contract.PREFERENCE,
    "preference": Contract.PREFERENCE,
    "priffe": Contract.PREFERENCE,
    "spel": Contract.PREFERENCE,
    "spelut": Contract.PREFERENCE,
    "noll": Contract.NOLL,
    "nollissimo": Contract.NOLL,
    "hjärter": Contract.HJARTER,
    "hjarter": Contract.HJARTER,
    "ruter": Contract.RUTER,
    "klöver": Contract.KLOVER,
    "klover": Contract.KLOVER,
    "liten invit": Contract.KLOVER,
    "spader": Contract.SPADER,
    "stor invit": Contract.SPADER,
    "tvångsnoll": Contract.TVANGSNOLL,
    "tvangsnoll": Contract.TVANGSNOLL,
}
_PASSES: Final = frozenset({"pass", "passar", "-"})


def parse_contract(word: str) -> Contract:
    """A contract from the players' word (``"pref"``, ``"spelut"``, ``"nollissimo"``…).

    >>> parse_contract("Spelut"), parse_contract("nollissimo")
    (<Contract.PREFERENCE: 'pref'>, <Contract.NOLL: 'noll'>)

    :raises ValueError: quoting the word and the known ones.
    """
    try:
        return _WORDS[" ".join(word.lower().split())]
    except KeyError:
        known = ", ".join(c.value for c in Contract)
        raise ValueError(f"unknown contract {word!r}; known: {known}") from None


def parse_bid(word: str) -> str:
    """A spoken bid normalised: ``"pass"`` or a contract's key (tvångsnoll is never a bid).

    :raises ValueError: for a word that is no bid.
    """
    if " ".join(word.lower().split()) in _PASSES:
        return PASS
    contract = parse_contract(word)
    if contract is Contract.TVANGSNOLL:
        raise ValueError("tvångsnoll is never bid: it is played when no contract was bid")
    return contract.value


#: The honours per contract (seed 004 "Som honnörer räknas"): the four aces at preference,
#: E-K-D-Kn (A-K-Q-J) of trumps, the four twos at noll / nollissimo / tvångsnoll.
HONOUR_CARDS: Final = {
    Contract.PREFERENCE: "E E E E (the four aces)",
    Contract.NOLL: "2 2 2 2 (the four twos)",
    Contract.TVANGSNOLL: "2 2 2 2 (the four twos)",
    Contract.HJARTER: "E K D Kn of hjärter",
    Contract.RUTER: "E K D Kn of ruter",
    Contract.KLOVER: "E K D Kn of klöver",
    Contract.SPADER: "E K D Kn of spader",
}


@dataclass(frozen=True, slots=True)
class PriffeConvention:
    """The parameters of one Priffe scoring. Defaults are the modern scoring's (seed 004)."""

    key: str
    name: str
    aliases: tuple[str, ...] = ()

    # --- the scoring (data, not options: they are what makes the convention) ---------------
    #: Spader / klöver only information bids (modern) or real trump contracts (old).
    information_bids: bool = True
    #: Points per trick over six (noll, tvångsnoll: under seven), by contract.
    trick_values: tuple[tuple[Contract, int], ...] = (
        (Contract.PREFERENCE, 10), (Contract.NOLL, 10), (Contract.HJARTER, 10),
        (Contract.RUTER, 10), (Contract.TVANGSNOLL, 10),
    )  # fmt: skip
    #: A strafftrick is worth this many trick values ("20 poäng per strafftrick"; old: "dubbelt").
    penalty_factor: int = 2
    #: Lillslam and storslam bonuses above the line.
    slam_bonus: tuple[int, int] = (10, 20)
    #: Lilla and stora straffslam for the opponents on a capital failure.
    straffslam_bonus: tuple[int, int] = (20, 40)
    #: Honours: all four in one hand, three in one hand and the fourth with the partner, three
    #: in one hand. Points (modern: 50/40/30), or tricks of the contract (old: 4/2/2, A-PO-1).
    honour_values: tuple[int, int, int] = (50, 40, 30)
    honours_in_tricks: bool = False
    #: Trick points for a game (utgång): 30 modern, 20 old.
    game_points: int = 30
    #: A side's first and second game bonuses above the line (old: 10 and 20, A-PO-4).
    game_bonus: tuple[int, int] = (0, 0)

    # --- options (variants.md §7–8 alternatives; seed readings by default) -----------------
    #: ``"sits"``: games and sits, three sits with rotating partners (seed); ``"deals"``: the
    #: simpler variant, a fixed number of deals; ``"total"``: until a side reaches a total below
    #: the line ("Enklare variant av Priffe").
    play: str = "sits"
    #: Strafftrick points: ``"below"`` the line, counting toward game (A-PR-1 default), or
    #: ``"above"``, bridge-like, not counting.
    penalty_points: str = "below"
    #: Lilla / stora straffslam on a capital failure (modern: seed; old: none, A-PO-3).
    straffslam: bool = True
    #: Money: 0 none (A-PR-6 default); otherwise each player's money is the sum of his point
    #: differences to the three others divided by this (10 in [wiki-priffe]).
    money_divisor: int = 0

    def with_options(self, **overrides: object) -> PriffeConvention:
        """A copy with options changed; names and values are validated.

        :raises rules.conventions.InvalidConventionError: for an unknown option or a bad value.
        """
        for name, value in overrides.items():
            _validate(name, value)
        return dataclasses.replace(self, **overrides)  # type: ignore[arg-type]

    def options(self) -> dict[str, object]:
        """All options as a dict."""
        return {f: getattr(self, f) for f in OPTION_NAMES}

    @property
    def ladder(self) -> tuple[Contract, ...]:
        return LADDER["modern" if self.information_bids else "old"]

    def trick_value(self, contract: Contract | str) -> int:
        """Points per trick of ``contract`` (0 for a contract this scoring has none of).

        :raises ValueError: for a word that is no contract.
        """
        wanted = contract if isinstance(contract, Contract) else parse_contract(contract)
        return dict(self.trick_values).get(wanted, 0)

    def is_contract(self, contract: Contract) -> bool:
        """Whether ``contract`` can be the final contract in this scoring."""
        return contract in dict(self.trick_values)

    def honour_points(self, contract: Contract, pattern: str) -> int:
        """Points for honours of ``pattern`` (``"4"``, ``"3+1"``, ``"3"``) at ``contract``."""
        value = dict(zip(("4", "3+1", "3"), self.honour_values, strict=True))[pattern]
        return value * self.trick_value(contract) if self.honours_in_tricks else value

    @property
    def simple(self) -> bool:
        """The simpler variant: no games or sits, one partnership."""
        return self.play != "sits"


_NOT_OPTIONS: Final = frozenset({
    "key", "name", "aliases", "information_bids", "trick_values", "penalty_factor",
    "slam_bonus", "straffslam_bonus", "honour_values", "honours_in_tricks", "game_points",
    "game_bonus",
})  # fmt: skip
OPTION_NAMES: Final = tuple(
    f.name for f in dataclasses.fields(PriffeConvention) if f.name not in _NOT_OPTIONS
)
OPTION_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "play": ("sits", "deals", "total"),
    "penalty_points": ("below", "above"),
}
OPTION_RANGES: Final[dict[str, tuple[int, int]]] = {"money_divisor": (0, 1000)}


def _validate(name: str, value: object) -> None:
    if name not in OPTION_NAMES:
        known = ", ".join(sorted(OPTION_NAMES))
        raise unknown_option(f"unknown option {name!r}; known options: {known}", name)
    if name in OPTION_CHOICES:
        if value not in OPTION_CHOICES[name]:
            allowed = ", ".join(repr(c) for c in OPTION_CHOICES[name])
            raise not_one_of(
                f"option {name!r}: {value!r} is not one of {allowed}",
                name,
                value,
                tuple(OPTION_CHOICES[name]),
            )
    elif name in OPTION_RANGES:
        low, high = OPTION_RANGES[name]
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise out_of_range(name, value, low, high)
    elif not isinstance(value, bool):
        raise not_yes_or_no(f"option {name!r}: {value!r} is not true or false", name, value)


#: Seed 004 "Poängräkning (det moderna sättet)"; variants.md §7.
MODERN: Final = PriffeConvention(
    key="modern",
    name="Priffe (det moderna sättet)",
    aliases=("priffe", "moderna", "modern priffe", "sv"),
)

#: Seed 004 "Priffe i gammaldags variant"; variants.md §8: spader 2, klöver 3, ruter 4,
#: hjärter 5, nollissimo 6 (and tvångsnoll, A-PO-2), preference 8 per trick; honours as tricks.
OLD: Final = PriffeConvention(
    key="old",
    name="Priffe (gammaldags)",
    aliases=("gammaldags", "old-fashioned", "oldfashioned", "gammal"),
    information_bids=False,
    trick_values=(
        (Contract.PREFERENCE, 8), (Contract.NOLL, 6), (Contract.HJARTER, 5),
        (Contract.RUTER, 4), (Contract.KLOVER, 3), (Contract.SPADER, 2),
        (Contract.TVANGSNOLL, 6),
    ),  # fmt: skip
    honour_values=(4, 2, 2),
    honours_in_tricks=True,
    game_points=20,
    game_bonus=(10, 20),
    straffslam=False,
)

CONVENTIONS: Final[dict[str, PriffeConvention]] = {c.key: c for c in (MODERN, OLD)}
_BY_NAME: Final[dict[str, PriffeConvention]] = {
    name.lower(): c for c in CONVENTIONS.values() for name in (c.key, *c.aliases)
}


def find_convention(name: str) -> PriffeConvention:
    """The Priffe convention with this key or alias (case-insensitive).

    :raises rules.conventions.InvalidConventionError: naming the known conventions.
    """
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(CONVENTIONS)
        raise unknown_convention(f"unknown convention {name!r}; known: {known}", name) from None


def auction_outcome(
    bids: tuple[str, ...], convention: PriffeConvention
) -> tuple[Contract, int | None]:
    """The contract and the speaker (0 = forehand) who bid it; tvångsnoll has no bidder.

    The highest bid is the final contract (seed 004 "Budgivning"). In the modern scoring an
    information bid that no higher bid follows, or four passes, give tvångsnoll; in the old one
    only four passes do (variants.md §8). Bids are as :func:`parse_bid` returns them.
    """
    best: tuple[int, Contract, int] | None = None
    ladder = convention.ladder
    for speaker, bid in enumerate(bids):
        if bid == PASS:
            continue
        contract = Contract(bid)
        rank = len(ladder) - ladder.index(contract)
        if best is None or rank > best[0]:
            best = (rank, contract, speaker)
    if best is None or not convention.is_contract(best[1]):
        return Contract.TVANGSNOLL, None
    return best[1], best[2]


def auction_problems(
    bids: tuple[str, ...], convention: PriffeConvention
) -> list[tuple[int, str]]:
    """What is illegal in an auction: ``(speaker, reason)`` pairs (seed 004 "Budgivning");
    :func:`auction_faults` says which rule each breaks."""
    return [(speaker, reason) for speaker, _, reason in auction_faults(bids, convention)]


#: The rules of seed 004 "Budgivning" an auction can break, by the code of its finding.
AUCTION_RULES: Final[dict[str, str]] = {
    "AUCTION_ROUND": "one round of four speakers, each once",
    "AUCTION_TVANGSNOLL": "tvångsnoll is never bid",
    "AUCTION_INFORMATION": "spader and klöver (modern) only from the first two speakers",
    "AUCTION_NOT_HIGHER": "a bid higher than the one before it",
}


def auction_faults(
    bids: tuple[str, ...], convention: PriffeConvention
) -> list[tuple[int, str, str]]:
    """What is illegal in an auction: ``(speaker, code, reason)`` (seed 004 "Budgivning"),
    the code one of :data:`AUCTION_RULES`, so that each rule has its own.

    One round of four: each speaks once; a bid must be higher than the bid before it; spader
    and klöver (modern) only from the first two speakers.
    """
    out: list[tuple[int, str, str]] = []
    if len(bids) != 4:
        out.append((min(len(bids), 3), "AUCTION_ROUND",
                    f"{len(bids)} bids; one round of four speakers"))
    ladder = convention.ladder
    last: Contract | None = None
    for speaker, bid in enumerate(bids):
        if bid == PASS:
            continue
        contract = Contract(bid)
        if contract is Contract.TVANGSNOLL:
            out.append((speaker, "AUCTION_TVANGSNOLL", "tvångsnoll is never bid"))
            continue
        if convention.information_bids and contract in INFORMATION_BIDS and speaker >= 2:
            out.append((speaker, "AUCTION_INFORMATION",
                        f"{contract} is an information bid of the first two speakers only"))
        if last is not None and ladder.index(contract) >= ladder.index(last):
            out.append((speaker, "AUCTION_NOT_HIGHER", f"{contract} is not higher than {last}"))
        else:
            last = contract
    return out
