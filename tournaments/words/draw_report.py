"""The draw report in words for the round's page: the engine stores it in English with entry
ids (``tournaments.seating.report``, kept as data and by the API); this module gives its summary,
notes and reasons in the page's language with players' names. A text it does not know (from a
later engine) is shown as it is.
"""

from __future__ import annotations

import re

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from tournaments import rule_sources
from tournaments.models.event import DrawMethod
from tournaments.seating import report as seating_report

__all__ = [
    "construction",
    "entry_names",
    "name_of",
    "note",
    "progress",
    "rows",
    "summary",
    "why",
]


def name_of(names: dict[int, str], entry: object) -> str:
    """The player's name for an entry id in ``names``; one it does not hold (an entry deleted
    since, or an id of another server's draw the event cannot relate) said in words in the
    page's language, never as a database id."""
    name = names.get(entry) if isinstance(entry, int) else None
    return name if name is not None else _("a player not found in this event")


def note(note: str, names: dict[int, str]) -> str:
    """A note of the draw engine on how it made the tables, its frame in the page's language
    and players' names for entry ids; the construction's own name stays as the engine says it
    (it names the mathematics: "Kirkman triple system", "tabu search", …)."""
    match = re.fullmatch(r"round (\d+) of the schedule planned for (\d+) rounds \((.*)\)", note)
    if match:
        n, total, how = match.groups()
        return _("round %(n)s of the schedule planned for %(total)s rounds (%(how)s)") % {
            "n": n,
            "total": total,
            "how": construction(how),
        }
    match = re.fullmatch(
        r"round (\d+) of the plan made after round (\d+) for rounds (\d+)–(\d+) \((.*)\)", note
    )
    if match:
        n, after, first, last, how = match.groups()
        return _(
            "round %(n)s of the plan made after round %(after)s for rounds %(first)s–%(last)s "
            "(%(how)s)"
        ) % {"n": n, "after": after, "first": first, "last": last, "how": construction(how)}
    match = re.fullmatch(r"in the history but not present: \[([\d, ]*)\]", note)
    if match:
        ids = [int(x) for x in match.group(1).split(",") if x.strip()]
        return _("played before, not in this draw: %(names)s") % {
            "names": ", ".join(name_of(names, i) for i in ids)
        }
    match = re.fullmatch(r"must_sit for (\d+) ignored: not present this round", note)
    if match:
        entry = int(match.group(1))
        return _(
            "%(name)s is fixed at a table but not drawn this round: the fixing is not used"
        ) % {"name": name_of(names, entry)}
    return construction(note)


def construction(how: str) -> str:
    """How the engine made a schedule (``parameters["construction"]``, a note) in the page's
    language: the constructions keep their names ("Kirkman triple system", "tabu search",
    "CP-SAT"), the sentences around them are translated, with the plural of the meetings left.
    A text it does not know stays as it is.

    >>> construction("tabu search")
    'tabu search'
    >>> construction("tabu search over all rounds, 2 repeated meeting(s) left; CP-SAT proved no "
    ...              "schedule without repeats exists for 12 players over 4 rounds")
    'tabu search over all rounds, 2 repeated meetings left; CP-SAT proved that no schedule without repeats exists for 12 players over 4 rounds'
    """
    match = re.fullmatch(r"(.*), (\d+) repeated meeting\(s\) left; (.*)", how, re.S)
    if match:
        base, n, detail = match.groups()
        return ngettext(
            "%(how)s, %(n)s repeated meeting left; %(detail)s",
            "%(how)s, %(n)s repeated meetings left; %(detail)s",
            int(n),
        ) % {"how": construction(base), "n": n, "detail": _exact(detail)}
    match = re.fullmatch(r"(CP-SAT.*) \(OR-Tools (.+)\)", how)
    if match:
        return f"{_exact(match.group(1))} (OR-Tools {match.group(2)})"
    if how.startswith("CP-SAT"):
        return _exact(how)
    match = re.fullmatch(r"(.*) for (\d+) rounds and the tabu search for the last", how)
    if match:
        return _("%(how)s for %(n)s rounds and the tabu search for the last") % {
            "how": construction(match.group(1)),
            "n": match.group(2),
        }
    match = re.fullmatch(r"(.*) completing the first round", how)
    if match:
        return _("%(how)s, completing the first round") % {"how": construction(match.group(1))}
    match = re.fullmatch(r"tabu search, start (\d+)", how)
    if match:
        return _("tabu search, start %(n)s") % {"n": match.group(1)}
    if how == "tabu search over all rounds":
        return _("tabu search over all rounds")
    return how


def _exact(detail: str) -> str:
    """What CP-SAT (``seating.exact``) said, in the page's language."""
    match = re.fullmatch(
        r"CP-SAT proved no schedule without repeats exists for (\d+) players over (\d+) rounds"
        r"( given the earlier meetings and constraints)?",
        detail,
    )
    if match:
        n, rounds, given = match.groups()
        if given:
            return _(
                "CP-SAT proved that no schedule without repeats exists for %(n)s players over "
                "%(rounds)s rounds, given the earlier meetings and constraints"
            ) % {"n": n, "rounds": rounds}
        return _(
            "CP-SAT proved that no schedule without repeats exists for %(n)s players over "
            "%(rounds)s rounds"
        ) % {"n": n, "rounds": rounds}
    if detail == "CP-SAT found a schedule without repeats":
        return _("CP-SAT found a schedule without repeats")
    if detail == "CP-SAT: no answer within its budget":
        return _("CP-SAT found no answer within its time budget")
    return detail


def summary(summary: dict) -> list[tuple[str, object]]:
    """The stored summary (its keys are part of the API's draw report) with translated labels."""
    labels = {
        "repeated meetings": _("repeated meetings"),
        "repeated left neighbours": _("repeated left neighbours"),
        "method": _("method"),
        "engine": _("engine"),
    }
    methods = dict(DrawMethod.choices)
    return [
        (labels.get(key, key), methods.get(value, value) if key == "method" else value)
        for key, value in summary.items()
    ]


def why(reason: str, names: dict[int, str]) -> str:
    """A reason the draw report stores (:mod:`tournaments.seating.report`), in the page's
    language and with players' names for entry ids; a reason it does not know stays as it is."""
    fixed = {
        seating_report.RANDOM: _(
            "random draw: the referees' draw does not avoid repeats (%(rule)s)"
        )
        % {"rule": rule_sources.cite("001", "note 8")},
        seating_report.BOTH_MUST_SIT: _("constraint: both must sit at this table"),
        seating_report.PARTNERS: _("constraint: fixed partners"),
        seating_report.SWISS: _("standings: Swiss tables group players of similar score"),
        seating_report.NOT_AVOIDED: _(
            "not avoided: the draw found no seating without it (see how the tables were made)"
        ),
    }
    if reason in fixed:
        return fixed[reason]
    templates = (
        (
            seating_report.UNAVOIDABLE,
            "unmet",
            _("unavoidable: only %(unmet)s players present not yet met"),
        ),
        (seating_report.MUST_SIT, "table", _("must sit at table %(table)s")),
        (seating_report.MUST_NOT_MEET, "entry", _("must not meet %(entry)s")),
        (seating_report.PARTNERS_WITH, "entry", _("partners with %(entry)s")),
    )
    for english, field, translated in templates:
        head, tail = english.split("{" + field + "}")
        value = reason[len(head) : len(reason) - len(tail)]
        if reason.startswith(head) and reason.endswith(tail) and value.isdigit():
            shown = name_of(names, int(value)) if field == "entry" else value
            return translated % {field: shown}
    return reason


def entry_names(event, report: dict) -> dict[int, str]:
    """Names of the entries a draw's notes may mention (every entry of the event, once)."""
    if not report.get("notes"):
        return {}
    return dict(event.entries.values_list("pk", "player__name"))


def rows(report: dict, names: dict[int, str]) -> list[dict]:
    rows = []
    for player in report.get("players", []):
        pid = player.get("id")
        rows.append(
            {
                "name": name_of(names, pid),
                "table": player.get("table"),
                "met_before": [
                    f"{name_of(names, o)} ({', '.join(str(r) for r in rounds)})"
                    for o, rounds in player.get("met_before", [])
                ],
                "repeats": [name_of(names, o) for o in player.get("repeats", [])],
                "why": "; ".join(why(part, names) for part in player.get("why", "").split("; ")),
                "seats": player.get("seat_counts", []),
            }
        )
    return sorted(rows, key=lambda r: (r["table"] or 0, r["name"]))


# Lazy: these messages are translated when shown, in the language of the request.


#: What each stage of the engine (``seating.Stage``) is doing, in words for the round's page.
STAGES = {
    "design": gettext_lazy("Building a schedule without repeats from a design"),
    "search": gettext_lazy("Searching for tables with the fewest repeats (tabu search)"),
    "patient_design": gettext_lazy("A repeat remains: a longer search for a design"),
    "restart": gettext_lazy("A repeat remains: the search again from another start"),
    "developed": gettext_lazy("A repeat remains: a cyclic schedule by CP-SAT"),
    "exact": gettext_lazy("A repeat remains: CP-SAT over all rounds (a schedule, or a proof)"),
    "extend": gettext_lazy(
        "Repeats remain: a schedule without one for a round fewer, and the last round searched"
    ),
    "seating": gettext_lazy("Seats and first dealers at each table"),
}


def progress(data: dict) -> dict[str, object] | None:
    """A draw job's progress (``Round.draw_job_progress``) for the round's page: the stage in
    words, ``detail`` (which start, which iteration), and ``value``/``max`` for a progress bar
    (None where the stage cannot say how far it has gone). None when there is none."""
    if not data or "stage" not in data:
        return None
    stage = str(data["stage"])
    step, steps = int(data.get("step") or 0), int(data.get("steps") or 0)
    attempt, attempts = int(data.get("attempt") or 1), int(data.get("attempts") or 1)
    parts = []
    if attempts > 1:
        parts.append(_("start %(k)d of %(n)d") % {"k": attempt, "n": attempts})
    if steps:
        parts.append(
            _("iteration %(step)s of at most %(steps)s")
            % {
                "step": number_format(step, force_grouping=True),
                "steps": number_format(steps, force_grouping=True),
            }
        )
    return {
        "stage": str(STAGES.get(stage, stage)),
        "detail": ", ".join(parts),
        "value": min(step, steps) if steps else None,
        "max": steps or None,
        "at": data.get("at", ""),
    }
