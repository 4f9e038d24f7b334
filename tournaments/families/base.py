"""The interface of a family's domain face (see :mod:`tournaments.families`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from django.utils.translation import gettext

from scoring.variants import VARIANTS, Variant
from tournaments import rule_sources

__all__ = ["FamilyDomain"]


class FamilyDomain:
    """What one family decides about a table's record on the Django side: who deals next, the
    result rows a version stores, what a save keeps that the event does not set, where a
    penalty entry goes, what a catalogue penalty or an adjusted result writes, the game's size
    and the rules its round pages cite. Plain methods over the scoring registry's objects (no
    forms, templates or requests). Subclasses fill in every hook.

    Ruling and event-penalty entries are stored in one neutral JSON form for every family:
    ``{"player", "rule", "gora", "pulya", "whists": [[writer, amount]], "note"}`` — ``gora``
    the points written against the offender in his own column (the Russian gora, the Balkan
    declarer column), ``whists`` what the others write against him (Russian whists, Balkan
    soups), ``pulya`` points taken off his pulya (Russian only). Each family turns it into its
    penalty deal (:meth:`penalty_from_json`).
    """

    #: the family key (``rules.variants``)
    key: ClassVar[str]

    #: the unit of a table result, for people ("whists", "points")
    result_unit: ClassVar[Any]

    #: the game's size as the family says it, ``%(n)d`` the size ("pulkas to 20", "bula 30")
    game_size_phrase: ClassVar[Any]

    #: partners sit opposite at a table of four (Priffe, seed 004): the draw then also spreads
    #: who partners whom over the rounds (``seating.TablePolicy.PARTNERSHIPS``)
    partnerships: ClassVar[bool] = False

    #: the rules of the family's seed the round pages cite ("3.2.1"), or "" where the seed says
    #: nothing of it (no reference rather than another family's): how the players draw their
    #: seats at a table, and who deals first (see :attr:`seating_citation`)
    seating_rule: ClassVar[str] = ""

    first_dealer_rule: ClassVar[str] = ""

    @property
    def variant(self) -> Variant:
        return VARIANTS[self.key]

    def game_size_text(self, n: int) -> str:
        """The game's size ``n`` in the family's words (:attr:`game_size_phrase`)."""
        return str(self.game_size_phrase) % {"n": n}

    @property
    def seed(self) -> str:
        """The seed its findings' rules are cited from (``001``, ``002``)."""
        return self.variant.seed

    def cite(self, rule: str) -> str:
        """A rule of the family's seed as a referee knows it ("Kodeks 1996, 3.2.1",
        "Croatian rules, “Kontra”": :func:`tournaments.rule_sources.cite`); "" for no rule."""
        return rule_sources.cite(self.seed, rule) if rule else ""

    def sized_options(self, convention: str, size: int | None, options: dict) -> dict:
        """The event's convention ``options`` with its game size ``size`` where the family
        plays the size as an option (a pot game's stake); unchanged elsewhere."""
        return options

    @property
    def seating_citation(self) -> str:
        return self.cite(self.seating_rule)

    @property
    def first_dealer_citation(self) -> str:
        return self.cite(self.first_dealer_rule)

    def next_dealer(self, protocol: Any) -> int:
        """The seat that deals next."""
        raise NotImplementedError

    def deal_dealers(self, protocol: Any) -> Sequence[int | None] | None:
        """The dealer of each deal where the deal passes to the next seat after every deal
        (``None`` for an entry that does not pass it, a penalty); ``None`` where the turn is
        no such rotation or the deals cannot be read."""
        return None

    def dealing_turn(self, protocol: Any) -> dict[str, Any] | None:
        """Who deals next and how the turn moves, as data for the table's phone (issue 42),
        which counts the turn over the deals it holds offline: ``order`` the seats in the
        order the deal passes, ``next`` the seat that deals next, ``passes`` for each deal
        whether it passed the deal. ``None`` where the family's turn is no plain rotation
        (:meth:`deal_dealers`): the phone then says that the turn shown is behind."""
        dealers = self.deal_dealers(protocol)
        if dealers is None:
            return None
        return {
            "order": list(range(protocol.size)),
            "next": self.next_dealer(protocol),
            "passes": [d is not None for d in dealers],
        }

    def notation_lead(self, header: Any, text: str) -> str:
        """The lines of the family's text that the referee's deals ``text`` stand under when
        it leaves them out (written from the table's ``header``); by default none."""
        return ""

    def deal_kind(self, deal: Any) -> str:
        """``game``, ``raspasy``/``allpass`` or ``penalty``: a CSS class and a filter."""
        raise NotImplementedError

    def is_penalty(self, deal: Any) -> bool:
        return self.deal_kind(deal) == "penalty"

    def result_rows(self, protocol: Any) -> list[dict[str, Any]]:
        """Per seat the table result a version stores: ``exact`` (text of a Fraction) and
        ``whists`` (the result the standings count, in :attr:`result_unit`), with the family's
        own final columns. :raises ValueError: for a protocol that cannot be scored."""
        raise NotImplementedError

    def keep_recorded(self, rebuilt: Any, protocol: Any) -> Any:
        """``rebuilt`` (``protocol`` on the event's rules) with what the table recorded that the
        event does not set (Priffe's seating per sits); the others record nothing more."""
        return rebuilt

    # --- penalties and rulings ------------------------------------------------------------
    #: the catalogue of the family's rule texts (``rules.penalties.CataloguePenalty``)
    catalogue: ClassVar[tuple[Any, ...]] = ()

    def penalty_from_json(self, data: Mapping[str, Any]) -> Any:
        raise NotImplementedError

    def penalty_to_json(self, deal: Any) -> dict[str, Any]:
        raise NotImplementedError

    def penalty_placement(self, protocol: Any, after_deal: int | None) -> dict[str, Any]:
        """What a penalty entry placed after deal ``after_deal`` of ``protocol`` (``None``: at
        the end) takes from where it stands, for the keys its JSON leaves out (Priffe: the
        sits of the deal it follows); nothing for the others."""
        return {}

    def catalogue_entries(
        self, code: str, protocol: Any, *, deal: int | None, seat: int, params: Mapping[str, Any]
    ) -> tuple[Any, ...]:
        """What catalogue penalty ``code`` writes. :raises ValueError: it cannot apply here."""
        raise ValueError(
            gettext("%(code)s is not a penalty of this game's rules.") % {"code": code}
        )

    def adjusted_entries(
        self, protocol: Any, deal: int, params: Mapping[str, Any]
    ) -> tuple[Any, ...]:
        """A referee's adjusted result on ``deal``. :raises ValueError: when it cannot apply."""
        raise ValueError(gettext("This game's rules define no adjusted result."))
