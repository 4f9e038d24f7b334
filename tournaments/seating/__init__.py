"""Seating draws for Preference tournaments: pure Python, no Django, no ORM.

At a tournament the referees draw the seating (001 note 8). This package does
the draw from plain data and returns plain data; the Django side stores it.

Public API
==========

``draw_round(entries, history, *, seed, method, policy, constraints, standings=None,
round_number=None, rounds_total=None) -> Draw``
    Draw one round for the :class:`Entry` objects present, given the
    :class:`PastTable` rows of earlier rounds (which may name withdrawn
    entries; late entries simply have no history).

``draw_schedule(entries, rounds, *, seed, policy, constraints, history=()) -> tuple[Draw, ...]``
    All rounds at once (as the Serbian league fixes its first eight rounds).

Both take ``progress=``: a callable that hears a :class:`Progress` (the :class:`Stage`,
how far it has gone, which tabu start) as the draw goes; a background job shows it. The
tables do not depend on it.

``seed_commitment(seed) -> str``
    SHA-256 hex of the seed, to publish before the draw; after it, anyone
    re-runs the draw with the published seed and gets the same tables.

Methods (:class:`Method`)
-------------------------
* ``random`` — the referees' draw: seeded shuffle; only constraints are honoured.
* ``no_repeats`` — lexicographic: fewest repeated meetings, then fewest repeated
  left neighbours, then even seat positions and first deals, then a fair share
  of 4-table duty. With ``rounds_total`` it plans the remaining rounds together:
  round 1 is the first round of a whole schedule; later rounds follow the plan
  made after round 1 from the history alone (a design, or a schedule found
  offline (:mod:`.catalogue`), completing round 1 where the size has one, else a
  tabu search), so each round's own seed does not
  break it; after a correction the plan is made again from the rounds as
  played. Where a plan leaves a repeat, more tabu starts and, on small
  problems (players × rounds ≤ 400), CP-SAT look for a schedule without one,
  or prove none exists, and the report says which; where repeats still remain,
  a schedule without one for a round fewer and a last round searched given it
  are taken if they leave fewer (the four open cells, docs/seating-open-cells.md). That is how 15 × 7,
  21 × 10, 18 × 8, 24 × 11 and 14 × 4 come out with no repeat at all; round
  by round without ``rounds_total`` they cannot (greedy paints itself into a
  corner), while 60 × 9 or 150 × 9 come out repeat-free either way.
* ``swiss`` — tables of players close in the ``standings`` (score, higher is
  better; ties by rating), repeats minimised inside: avoiding one repeat is
  worth up to ten places of spread at a table.
* ``schedule`` — like ``draw_schedule``; ``draw_round`` returns the next round.

Tables (:class:`TablePolicy`): ``3``, ``4``, ``mixed`` (threes, as few fours as
the count needs), ``mixed-4`` (fours first) and ``partnerships`` (Priffe, seed
004: fours, partners opposite; fixed pairs via ``Constraints.partners``).
Any count but 1, 2 and 5 splits into threes and fours; other counts raise
:class:`TableCountError`.

Constraints (:class:`Constraints`): ``must_sit`` (entry → table number),
``must_not_meet`` pairs (``Constraints.same_club(entries)`` builds them for a
club), ``partners`` (Priffe), ``teams`` (entry → team: never two members of one
team at a table, and the teams' meetings spread evenly, issue 40; the report's
``team_meetings`` is the matrix). Constraints naming absent entries are ignored
with a note; contradictory ones raise :class:`ConstraintError`, and so do a
``must_not_meet`` pair or a team the search cannot keep apart and a team with
more members present than the round has tables.

Determinism: the same entries, history, parameters and seed give the same
:class:`Draw` in any process (no wall-clock budgets, no hash-order effects).

Result: :class:`Draw` — ``tables`` (clockwise ``seats``, ``first_dealer`` seat
index, 001 §3.2.1), ``method``, ``policy``, ``seed``, ``seed_commitment``,
``engine_version``, ``parameters``, and a :class:`DrawReport` with a
:class:`PlayerReport` per entry (whom they met and when, repeats at this table
and the reason, seats so far, left neighbours, first deals, 4-table duty).

Layout and imports
------------------
:mod:`.engine` draws (with :mod:`.schedule_search` for the rounds to come), :mod:`.setup`
validates, :mod:`.search` is the tabu search, :mod:`.planning` relabels the constructions of
:mod:`.designs` (:mod:`.kirkman`, :mod:`.near_kirkman`, :mod:`.fours`, over the difference
method of :mod:`.differences`), :mod:`.symmetric` and :mod:`.catalogue`; :mod:`.exact` is
CP-SAT. May import only the standard library, OR-Tools and its own modules: never Django, the
ORM or another part of ``tournaments``.

>>> players = [Entry(i) for i in range(1, 10)]
>>> d = draw_round(players, seed="demo", method=Method.NO_REPEATS, policy=TablePolicy.THREES)
>>> [len(t.seats) for t in d.tables], d.engine_version
([3, 3, 3], 'pulka-seating 1.13')
>>> d2 = draw_round(players, [PastTable(1, t.seats, t.first_dealer) for t in d.tables], seed="demo")
>>> d2.report.repeated_meetings
0
"""

from .engine import draw_round, draw_schedule, seed_commitment
from .kirkman import kirkman_schedule
from .model import (
    ENGINE_VERSION,
    ConstraintError,
    Constraints,
    Draw,
    DrawReport,
    Entry,
    EntryId,
    Method,
    PastTable,
    PlayerReport,
    Repeat,
    SeatingError,
    Table,
    TableCountError,
    TablePolicy,
)
from .progress import Progress, Reporter, Stage
from .sizes import table_sizes

__all__ = [
    "ENGINE_VERSION",
    "ConstraintError",
    "Constraints",
    "Draw",
    "DrawReport",
    "Entry",
    "EntryId",
    "Method",
    "PastTable",
    "PlayerReport",
    "Progress",
    "Repeat",
    "Reporter",
    "SeatingError",
    "Stage",
    "Table",
    "TableCountError",
    "TablePolicy",
    "draw_round",
    "draw_schedule",
    "kirkman_schedule",
    "seed_commitment",
    "table_sizes",
]
