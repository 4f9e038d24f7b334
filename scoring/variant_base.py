"""The interface of one rule family, which each family's ``variant`` module fills in.

:class:`Variant` is what the registry (:mod:`scoring.variants`) hands out for a family;
:class:`ModuleVariant` does its work by plain functions in the family's own modules, named by
``"module.function"`` and imported when first used. :data:`HEADER_WORDS` are the notations'
header keywords in the players' languages. Shared machinery: this module imports
:mod:`rules.variants` (the families' parameters) and :mod:`scoring.findings` only, so that the
families' ``variant`` modules build on it without importing the registry.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Sequence
from fractions import Fraction
from typing import Any, ClassVar, Final

from rules.variants import Family

from .findings import CheckReport, Finding

__all__ = ["Variant", "ModuleVariant", "HEADER_WORDS", "Json"]

Json = Any


class Variant:
    """The interface of one rule family. Subclasses fill it in with their own modules.

    ``protocol`` arguments are the family's own protocol objects (for Russian
    :class:`scoring.russian.protocol.Protocol`, for Balkan :class:`scoring.balkan.protocol.BalkanProtocol`);
    every one has ``players``, ``convention``, ``options``, ``first_dealer``, ``deals``,
    ``ending``, ``target`` (the agreed size of the game: the pulka's target, the bula) and
    ``with_deals``. Sheets are the family's written-sheet objects.
    """

    family: ClassVar[Family]
    protocol_type: ClassVar[type]
    #: The JSON documents' ``format`` values and the text notation's ``format:`` word.
    protocol_format: ClassVar[str]
    sheet_format: ClassVar[str]
    result_format: ClassVar[str]
    text_format: ClassVar[str]
    #: The per-seat counters :meth:`deal_stats` gives, for the tournament's tie-breaks.
    stat_keys: ClassVar[tuple[str, ...]]

    @property
    def key(self) -> str:
        return self.family.key

    @property
    def name(self) -> str:
        return self.family.name

    @property
    def table_sizes(self) -> tuple[int, ...]:
        return self.family.table_sizes

    @property
    def seed(self) -> str:
        return self.family.seed

    def convention(self, protocol: Any) -> Any:
        """The protocol's convention with its options applied.

        :raises rules.conventions.InvalidConventionError: an unknown name or option.
        """
        conv = self.family.find(protocol.convention)
        if protocol.options:
            conv = conv.with_options(**dict(protocol.options))
        return conv

    # --- documents ----------------------------------------------------------------
    def from_dict(self, data: Json) -> tuple[Any, Any]:
        """A decoded protocol document: ``(protocol, sheet or None)``; JsonFormatError if bad."""
        raise NotImplementedError

    def to_dict(self, protocol: Any, sheet: Any = None) -> dict[str, Json]:
        raise NotImplementedError

    def sheet_from_dict(self, data: Json) -> Any:
        raise NotImplementedError

    def sheet_to_dict(self, sheet: Any) -> dict[str, Json]:
        raise NotImplementedError

    def loads_sheet(self, text: str) -> Any:
        """A sheet document (JSON text), or the ``sheet`` of a protocol document."""
        raise NotImplementedError

    def parse_text(self, text: str) -> tuple[Any, Any]:
        """The text notation: ``(protocol, sheet or None)``; NotationError if bad."""
        raise NotImplementedError

    def parse_sheet(
        self, text: str, players: tuple[str, ...], *, deals: int | None = None
    ) -> Any:
        """Sheet lines alone (``check --sheet``); ``deals``, the protocol's number of deals,
        bounds the rows a line may name."""
        raise NotImplementedError

    def format_text(self, protocol: Any, sheet: Any = None, *, ascii: bool = False) -> str:
        raise NotImplementedError

    def deal_text(self, protocol: Any, index: int, *, ascii: bool = False) -> str:
        """One deal as the notation writes it (without its number)."""
        raise NotImplementedError

    def header_fields(self, text: str) -> frozenset[str]:
        """The header fields a notation text states, in the shared names (``players``,
        ``convention``, ``options``, ``target`` — the game's size —, ``first_dealer``,
        ``ending``, ``format``): what a reader takes from the text rather than from elsewhere."""
        raise NotImplementedError

    def blank(
        self,
        *,
        players: tuple[str, ...],
        target: int,
        convention: str,
        options: tuple[tuple[str, Any], ...] = (),
        first_dealer: int = 0,
    ) -> Any:
        """An empty protocol in progress for a table: the event's rules, the draw's players."""
        raise NotImplementedError

    # --- scoring and checking ---------------------------------------------------------
    def score(self, protocol: Any) -> Any:
        """The scored game (the family's own result object); ValueError for an impossible table."""
        raise NotImplementedError

    def check(self, protocol: Any, sheet: Any = None) -> CheckReport:
        raise NotImplementedError

    def result_dict(
        self, protocol: Any, findings: Sequence[Finding] | None = None
    ) -> dict[str, Json]:
        """The computed result document (what ``python -m scoring score --json`` prints)."""
        raise NotImplementedError

    def render(self, protocol: Any, findings: Sequence[Finding] = (), *, ascii: bool = False) -> str:
        """The scored game as a readable sheet (``python -m scoring score``)."""
        raise NotImplementedError

    def settlement(self, protocol: Any) -> tuple[Fraction, ...]:
        """Each seat's exact result of the table, in the family's unit (whists, points)."""
        raise NotImplementedError

    def pairwise(self, protocol: Any) -> tuple[tuple[Fraction, ...], ...]:
        """``r[p][q]``: what p won from q; ``sum(r[p]) == settlement[p]``, antisymmetric."""
        raise NotImplementedError

    def deal_stats(self, protocol: Any) -> tuple[dict[str, int], ...]:
        """Per seat the counters of :attr:`stat_keys`."""
        raise NotImplementedError

    def random_protocol(
        self,
        rng: random.Random,
        *,
        convention: str | None = None,
        players: int = 3,
        target: int | None = None,
        options: Sequence[tuple[str, Any]] = (),
    ) -> Any:
        """A random legal protocol (for tests, the demo and benchmarks)."""
        raise NotImplementedError


class ModuleVariant(Variant):
    """A variant whose work is done by plain functions in its family's modules.

    ``package`` names the family's package and ``functions`` maps each interface method to a
    ``"module.function"`` in it (the defaults below follow the layout of :mod:`scoring.balkan`:
    ``jsonio``, ``notation``, ``score``, ``check``, ``result_json``, ``render``); a family
    names only what it calls differently. Nothing is imported until it is used.
    """

    package: ClassVar[str]
    functions: ClassVar[dict[str, str]] = {}
    #: whether the family's ``parse_sheet`` bounds a sheet line's row by the protocol's deals
    sheet_takes_deals: ClassVar[bool] = False

    _DEFAULTS: ClassVar[dict[str, str]] = {
        "from_dict": "jsonio.from_dict",
        "to_dict": "jsonio.to_dict",
        "sheet_from_dict": "jsonio.sheet_from_dict",
        "sheet_to_dict": "jsonio.sheet_to_dict",
        "loads_sheet": "jsonio.loads_sheet",
        "parse_text": "notation.parse_with_sheet",
        "parse_sheet": "notation.parse_sheet",
        "format_text": "notation.format",
        "deal_text": "notation.deal_text",
        "score": "score.score",
        "check": "check.check",
        "result_dict": "result_json.result_to_dict",
        "render": "render.render_sheet",
        "pairwise": "score.pairwise_results",
        "deal_stats": "score.deal_stats",
    }

    def _fn(self, method: str) -> Any:
        module, _, name = self.functions.get(method, self._DEFAULTS[method]).rpartition(".")
        return getattr(importlib.import_module(f"{self.package}.{module}"), name)

    def from_dict(self, data: Json) -> tuple[Any, Any]:
        return self._fn("from_dict")(data)  # type: ignore[no-any-return]

    def to_dict(self, protocol: Any, sheet: Any = None) -> dict[str, Json]:
        return self._fn("to_dict")(protocol, sheet)  # type: ignore[no-any-return]

    def sheet_from_dict(self, data: Json) -> Any:
        return self._fn("sheet_from_dict")(data)

    def sheet_to_dict(self, sheet: Any) -> dict[str, Json]:
        return self._fn("sheet_to_dict")(sheet)  # type: ignore[no-any-return]

    def loads_sheet(self, text: str) -> Any:
        return self._fn("loads_sheet")(text)

    def parse_text(self, text: str) -> tuple[Any, Any]:
        return self._fn("parse_text")(text)  # type: ignore[no-any-return]

    def parse_sheet(
        self, text: str, players: tuple[str, ...], *, deals: int | None = None
    ) -> Any:
        if deals is not None and self.sheet_takes_deals:
            return self._fn("parse_sheet")(text, players, deals=deals)
        return self._fn("parse_sheet")(text, players)

    def format_text(self, protocol: Any, sheet: Any = None, *, ascii: bool = False) -> str:
        return self._fn("format_text")(protocol, sheet, ascii=ascii)  # type: ignore[no-any-return]

    def deal_text(self, protocol: Any, index: int, *, ascii: bool = False) -> str:
        return self._fn("deal_text")(protocol, index, ascii=ascii)  # type: ignore[no-any-return]

    def score(self, protocol: Any) -> Any:
        return self._fn("score")(protocol)

    def check(self, protocol: Any, sheet: Any = None) -> CheckReport:
        return self._fn("check")(protocol, sheet)  # type: ignore[no-any-return]

    def result_dict(
        self, protocol: Any, findings: Sequence[Finding] | None = None
    ) -> dict[str, Json]:
        given = None if findings is None else tuple(findings)
        return self._fn("result_dict")(self.score(protocol), given)  # type: ignore[no-any-return]

    def render(self, protocol: Any, findings: Sequence[Finding] = (), *, ascii: bool = False) -> str:
        return self._fn("render")(self.score(protocol), findings, ascii=ascii)  # type: ignore[no-any-return]

    def pairwise(self, protocol: Any) -> tuple[tuple[Fraction, ...], ...]:
        return self._fn("pairwise")(protocol)  # type: ignore[no-any-return]

    def deal_stats(self, protocol: Any) -> tuple[dict[str, int], ...]:
        return self._fn("deal_stats")(protocol)  # type: ignore[no-any-return]

    def header_fields(self, text: str) -> frozenset[str]:
        """The family's ``notation.header_fields`` where it has one; otherwise the header lines
        (``key: value`` before the first deal) whose key is one of :data:`HEADER_WORDS`."""
        module = importlib.import_module(f"{self.package}.notation")
        if hasattr(module, "header_fields"):
            return module.header_fields(text)  # type: ignore[no-any-return]
        found: set[str] = set()
        for raw in text.splitlines():
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            key, sep, _ = line.partition(":")
            word = key.strip().lower()
            if not sep or word not in HEADER_WORDS:
                break
            found.add(HEADER_WORDS[word])
        return frozenset(found)


#: Header keywords of the notations, in the players' languages, by the shared field they set.
HEADER_WORDS: Final[dict[str, str]] = {
    **dict.fromkeys(("players", "spelare", "spieler", "igrači", "igraci", "игроки"), "players"),
    **dict.fromkeys(("convention", "konvention", "variant", "konvencija", "pravila"), "convention"),
    **dict.fromkeys(("options", "optioner", "optionen", "opcije", "опции"), "options"),
    **dict.fromkeys(("target", "stake", "insats", "einsatz", "sits", "bula", "пулька"), "target"),
    **dict.fromkeys(("first dealer", "förste giv", "geber", "prvi dijeli", "сдаёт"), "first_dealer"),
    **dict.fromkeys(("ending", "slut", "ende", "kraj", "окончание"), "ending"),
    **dict.fromkeys(("format", "формат"), "format"),
}
