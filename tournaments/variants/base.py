"""The interface of a family's page face, its UI adapter (see :mod:`tournaments.variants`)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

from django.utils.translation import gettext, gettext_lazy

from tournaments.families.base import FamilyDomain
from tournaments.selectors.standings import metric_label
from tournaments.standings.scores import round_score

__all__ = ["FamilyUI", "PulkaCells"]

#: a seat's stand-in name in :meth:`FamilyUI.named_deal_text`
_SEAT_MARK = re.compile(r"pulkaseat(\d+)x")


@dataclass
class PulkaCells:
    """What the pulka view shows per deal of a (scored) protocol: the dealer's seat, and per
    seat the cells written (a dict the family's ``_pulka`` template reads). ``extra_headers``
    name columns after the players' (the pot games' pot): each row then has one more cell per
    header after the seats' cells."""

    dealers: list[int | None] = field(default_factory=list)
    written: list[list[dict[str, Any]]] = field(default_factory=list)
    extra_headers: list[str] = field(default_factory=list)


def form_fields(form: Mapping[str, Any]) -> list[tuple[str, str]]:
    """A deal form's values (:meth:`FamilyUI.form_values`) as the form posts them: a field's
    string by its name, a ticked box as ``on``; per seat (``rows``) each value as
    ``<field>_<seat>``. What names no field of the form (who deals) fills nothing; the
    families whose forms hold lists of rows (the efterköp's) keep their fields by name too
    (:meth:`FamilyUI.seat_form`)."""
    out: list[tuple[str, str]] = []
    for name, value in form.items():
        if isinstance(value, bool):
            if value:
                out.append((name, "on"))
        elif isinstance(value, str | int):
            out.append((name, str(value)))
        elif name == "rows" and isinstance(value, list):
            for row in value:
                out += [
                    (f"{key}_{row['position']}", str(v))
                    for key, v in row.items()
                    if key not in ("position", "name", "field") and isinstance(v, str)
                ]
    return out


class FamilyUI(FamilyDomain):
    """One family's pages on the Django side: its forms, templates and words. Subclasses fill
    in every hook. A family's adapter extends its domain face (:mod:`tournaments.families`,
    which says what a save keeps, who deals next, where a penalty goes …), so a view holding
    the adapter may ask it those questions too; services and selectors hold the domain face
    only. The penalty entries' neutral JSON form: :class:`~tournaments.families.base.FamilyDomain`.
    """

    #: the template of the phone page's deal form (included by ``table_entry.html``)
    entry_template: ClassVar[str]
    #: the pulka view's table (included by ``_pulka.html``)
    pulka_template: ClassVar[str]
    #: the filled protocol PDF's layout, drawn with reportlab by :mod:`tournaments.pdf.filled`
    #: (fast enough for a round of 333 tables, issue 28): a name of
    #: :data:`tournaments.pdf.layouts.LAYOUTS` (``pulka``: the Russian grid of 001 §4.2.11)
    filled_layout: ClassVar[str] = "pulka"
    #: the blank protocol PDF's template; ``None``: the fast overlay sheet of
    #: :mod:`tournaments.pdf.blank` (the Russian pulka grid)
    blank_template: ClassVar[str | None] = None
    #: the ending select's label for a game played to its end
    ending_closed_label: ClassVar[Any]
    #: the record of one table's game in the family's word ("The pulka"), heading its ending
    game_label: ClassVar[Any] = gettext_lazy("The pulka")
    #: what a cross-table cell is (``scoring.variants.Variant.pairwise``); ``None``: the page's
    #: own sentence (whists, 001 §4.2.14)
    cross_table_note: ClassVar[Any] = None
    #: the player's standings page: his opponents, with what he won from each
    opponents_heading: ClassVar[Any] = gettext_lazy("Opponents (whists won from each)")
    #: the referee's desk: examples of the family's deal lines and of its sheet lines, in its
    #: notation (``None``: the page's own, in the Russian notation)
    notation_hint: ClassVar[Any] = None
    sheet_hint: ClassVar[Any] = None
    #: the pulka view's result row heading ("Result (whists)")
    result_label: ClassVar[Any]
    #: the rule sources whose findings the family's checker writes (a stored finding names its
    #: ``source``): this adapter says the contracts those findings name (:meth:`contract_said`)
    finding_sources: ClassVar[tuple[str, ...]] = ()
    #: the standings' result column heading ("Whists", "Points")
    result_heading: ClassVar[Any]
    #: the standings' main criterion, citing the family's rule (see :meth:`standings_criterion`)
    criterion_text: ClassVar[Any] = None
    #: the round scores' names on the standings settings page in the family's words (the keys
    #: of :data:`tournaments.standings.scores.ROUND_SCORES`, whose names are the fallback)
    round_score_names: ClassVar[Mapping[str, Any]] = {
        "whists": gettext_lazy("Whists"),
        "capped": gettext_lazy("Capped whists"),
        "scaled": gettext_lazy("Scaled whists"),
        "normalised": gettext_lazy("Whists normalised to tables of three"),
        "place_points": gettext_lazy("Place points at the table"),
    }
    #: the standings metrics' names and abbreviations where the family's words differ from
    #: :data:`tournaments.selectors.standings.METRIC_LABELS` (a table result in points)
    metric_names: ClassVar[Mapping[str, tuple[Any, Any]]] = {}
    #: a penalty's points in the offender's own column, and in a sentence ("in the gora")
    own_column_label: ClassVar[Any] = gettext_lazy("Gora")
    in_own_column: ClassVar[Any] = gettext_lazy("in the gora")
    #: what a penalty entry's neutral ``gora``, ``pulya`` and ``whists`` (see above) are on the
    #: family's sheet, in words for the filled protocol (``%(n)s`` the amount, ``%(name)s`` the
    #: player a ``whists`` pair names); ``None``: the Russian pulka's (the gora, the pulya,
    #: whists on a player; :func:`tournaments.words.penalties.penalty_entry_words`)
    penalty_terms: ClassVar[Mapping[str, Any] | None] = None
    #: an event penalty's deduction from the standings total
    deduction_label: ClassVar[Any] = gettext_lazy("Whists deducted")
    #: the kinds of the event's own penalties in the family's words, where they differ from
    #: ``PenaltyKind``'s labels ("Fixed whists")
    penalty_kind_names: ClassVar[Mapping[str, Any]] = {}

    def penalty_kind_name(self, kind: str, label: Any) -> str:
        """Penalty kind ``kind`` (``PenaltyKind``'s ``label``) in the family's words."""
        return str(self.penalty_kind_names.get(kind, label))

    #: a heading in the user's language for each of the checker's finding codes
    finding_titles: ClassVar[Mapping[str, Any]] = {}
    #: the rule behind a random seating draw in the family's seed ("note 8"), or ""
    random_draw_rule: ClassVar[str] = ""

    @property
    def random_draw_citation(self) -> str:
        """The rule behind a random seating draw as a referee knows it ("Kodeks 1996, note
        8"), or ""."""
        return self.cite(self.random_draw_rule)

    #: the rule that lets a referee adjust a deal's result (001 §3.8.5.1 Б: "3.8.5.1 Б"), or ""
    #: where the family's texts give none: the ruling form then does not offer it
    adjusted_result_rule: ClassVar[str] = ""
    #: the ruling form's fields for the parameters of the family's catalogue penalties (a
    #: template taking ``seats``: (position, name) pairs), or "" where the catalogue needs none
    ruling_params_template: ClassVar[str] = ""

    # --- the table's deal entry ----------------------------------------------------------
    def entry_context(self, protocol: Any) -> dict[str, Any]:
        """What the deal form needs besides the page's context (contracts, calls …)."""
        raise NotImplementedError

    def deal_from_post(self, post: Mapping[str, Any], protocol: Any, dealer: int) -> Any:
        """A deal from the phone form's POST; :class:`UserFacingError` naming the field."""
        raise NotImplementedError

    #: whether the phone form enters a penalty (Priffe's straff): elsewhere a penalty is the
    #: referee's, and the page offers no "correct" for it (its form would enter a deal instead)
    form_takes_penalties: ClassVar[bool] = False

    def form_values(
        self, protocol: Any, index: int | None, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The deal form's values (the family's entry template reads them as ``form``): deal
        ``index`` as entered ("Correct" opens the form so), or the ``post`` a refused form
        keeps, or a blank form. Empty: the family's form fills itself."""
        return {}

    def correction_forms(self, protocol: Any) -> list[dict[str, Any] | None]:
        """Each deal's correction form as data for the table's phone, which opens it offline
        (issue 42): ``fields`` the values its "Correct" form opens with, by field name
        (:meth:`form_values` read as the templates read it), and ``sitting_out``, the seat
        the form marks; ``None`` for an entry the page offers no "correct" for."""
        return self._corrections(protocol, lambda index: self.form_values(protocol, index))

    def _corrections(
        self, protocol: Any, values_of: Callable[[int], dict[str, Any]]
    ) -> list[dict[str, Any] | None]:
        """:meth:`correction_forms` with each deal's form values made by ``values_of(index)``."""
        out: list[dict[str, Any] | None] = []
        for index, deal in enumerate(protocol.deals):
            if self.is_penalty(deal) and not self.form_takes_penalties:
                out.append(None)
                continue
            form = values_of(index)
            out.append({"fields": form_fields(form), "sitting_out": form.get("sitting_out")})
        return out

    @staticmethod
    def seat_form(
        protocol: Any, values: Mapping[str, Any], seat_fields: tuple[str, ...], **defaults: Any
    ) -> dict[str, Any]:
        """A deal form's values as the family templates read them: the form's fields by name
        (``values`` over ``defaults``, each a string as posted) and ``rows``, per seat its
        ``position``, ``name`` and the value of each of ``seat_fields`` (``tricks`` is the
        field ``tricks_<seat>``)."""
        form: dict[str, Any] = {**defaults}
        form.update({str(k): str(v) for k, v in values.items()})
        form["rows"] = [
            {
                "position": p,
                "name": name,
                **{f: str(values.get(f"{f}_{p}", "")) for f in seat_fields},
            }
            for p, name in enumerate(protocol.players)
        ]
        return form

    @staticmethod
    def posted(post: Mapping[str, Any]) -> dict[str, str]:
        """A refused form's POST as plain strings (the last value of each field)."""
        return {str(k): str(post.get(k) or "") for k in post}

    # --- what the players wrote (the paper sheet) on the table's page -------------------
    #: the phone page's form for a written row (``None``: the family's page does not take it)
    sheet_template: ClassVar[str | None] = None

    def sheet_rows(self, protocol: Any) -> list[tuple[str, str]]:
        """The rows of the sheet a table can copy: ``(key, label)``, a deal's or the final."""
        return []

    def sheet_form(
        self, protocol: Any, sheet: Any, row: str, post: Mapping[str, Any] | None = None
    ) -> dict[str, Any]:
        """The written row ``row`` (a key of :meth:`sheet_rows`) as the form shows it, or as
        ``post``ed when the form was refused."""
        return {}

    def sheet_from_post(self, post: Mapping[str, Any], protocol: Any, sheet: Any) -> Any:
        """``sheet`` with the row the form posted; :class:`UserFacingError` naming the field."""
        raise NotImplementedError

    def notation_hints(self, header: Any) -> tuple[Any, Any]:
        """The referee's box's examples for a table of ``header``: of the deal lines and of
        the sheet lines, in the family's own notation (``None``: the page's Russian ones)."""
        return self.notation_hint, self.sheet_hint

    # --- showing a protocol -------------------------------------------------------------
    def deal_words(self, protocol: Any, index: int, dealer: int | None) -> str:
        """Deal ``index`` in words for people, in the page's language, with players' names;
        by default the family's notation line with the names (:meth:`named_deal_text`)."""
        return self.named_deal_text(protocol, index)

    def named_deal_text(
        self, protocol: Any, index: int, words: Callable[[str], str] | None = None
    ) -> str:
        """Deal ``index`` as the family's notation writes it, each player by his name, never
        by his seat number (the notation writes a seat's number for a name it could not read
        back, "Ana Kovač" or "Kontra"; a person reads the name). ``words`` rewrites the line's
        words before the names go in (each name is then one word of letters and digits)."""
        marks = tuple(f"pulkaseat{p}x" for p in range(len(protocol.players)))
        text = self.variant.deal_text(dataclasses.replace(protocol, players=marks), index)
        if words is not None:
            text = words(text)
        return _SEAT_MARK.sub(lambda m: protocol.players[int(m.group(1))], text)

    def contract_said(self, value: str, source: str) -> str:
        """A contract or bid a finding of rule source ``source`` names by its code (a parameter
        of :data:`scoring.findings.CONTRACT_PARAMS`: Priffe's ``spader``, a pot game's ``2u``),
        in the reader's words (issue 36: no Swedish contract on a German page); by default as
        stored."""
        return str(value)

    def finding_sentence(self, finding: Mapping[str, Any], names: Any, title: str) -> str:
        """A stored finding as a sentence for people, after its heading ``title`` (its rule is
        cited beside it, its code kept for the API and the logs); by default the checker's
        message."""
        return str(finding.get("message", ""))

    def penalty_name(self, code: str) -> str:
        """The name of the catalogue's penalty ``code`` in the page's language, or ""."""
        for entry in self.catalogue:
            if entry.code == code.upper():
                # the English name is marked for the catalogues (rules.penalties.gettext_noop)
                return gettext(entry.name_en) if entry.name_en else entry.code
        return ""

    def penalty_words(self, entry: Mapping[str, Any], names: Any) -> str:
        """A ruling's or penalty's entry (the neutral JSON, see above) in words, with names."""
        seat = int(entry.get("player", 0))
        who = names[seat] if 0 <= seat < len(names) else "?"
        what = ", ".join(str(x) for x in (entry.get("rule", ""), entry.get("note", "")) if x)
        return f"{who}: {what}" if what else who

    def pulka_cells(self, protocol: Any) -> PulkaCells | None:
        """Per deal the dealer and the cells written; ``None`` when it cannot be scored."""
        raise NotImplementedError

    def filled_sheet(self, protocol: Any, origin: list[int | None]) -> dict[str, Any]:
        """The filled PDF's rows (``deals``, ``settlement`` and the family's headers)."""
        raise NotImplementedError

    def blank_sheet(self, *, players: list[str], first_dealer: int, options: Any) -> dict:
        """What the blank protocol of one table shows besides its players (the family's own
        boxes, e.g. Priffe's partnerships per sits); ``options`` is the event's convention
        with its options."""
        return {}

    def blank_context(self, convention: Any) -> dict[str, Any]:
        """What the family's blank sheet shows of the event's ``convention`` (with options)."""
        return {}

    def sheet_terms(self, convention: Any, *, target: int) -> dict[str, Any]:
        """The game's terms the filled sheet's header shows (:mod:`tournaments.pdf.layouts`),
        read from the event's ``convention`` (with its options) and its ``target`` (the
        event's pulka target: the bula, the sits) before any deal: the sheet of a table with
        no protocol yet. The keys are the ones :meth:`filled_sheet` gives after play."""
        return {}

    def round_score_name(self, key: str) -> str:
        """The round score ``key``'s name in the family's words, in the user's language."""
        return str(self.round_score_names.get(key) or gettext(round_score(key).name))

    def metric_label(self, key: str) -> dict[str, str]:
        """A standings metric's ``key``, ``name`` and ``abbr`` in the family's words."""
        label = metric_label(key)
        if key in self.metric_names:
            name, abbr = self.metric_names[key]
            label.update(name=str(name), abbr=str(abbr))
        return label

    def standings_criterion(self, convention: Any) -> str | None:
        """What the standings page says a table result is, for an event of ``convention``
        (with its options); by default the family's :attr:`criterion_text`."""
        return self.criterion_text
