"""Ratings of persons across events (issue 41): plain data in, ratings with their history and
each table's explanation out. Pure Python, no Django (the ``pure`` contracts in
``pyproject.toml``); it may import ``openskill`` (the Weng–Lin models) and nothing of
``tournaments``' Django side.

A rating belongs to one rule family (a Russian rating is not a Croatian one). Its input is the
rated events in date order (:class:`RatedEvent`), each a list of its rounds' tables
(:class:`RatedTable`): the persons at the table with their table result (more is better; equal
results are ties). :func:`rate_events` runs a :class:`RatingModel` over them table by table and
returns every person's state and every change (:class:`RatingChange`) with its explanation: the
place at the table, the opponents as they stood, and the parts the change is made of (they add
up to the change). The job stores them compactly, one record per person and event
(:mod:`.compact`: :func:`pack`, and :func:`unpack` back to the same changes).

Two models (:data:`MODELS`, chosen by key; their parameters and version are stored with every
computed rating, :meth:`RatingModel.spec`, so that a recomputation gives the same numbers):

``weng-lin``  Pulka's default: openskill's Weng–Lin Bayesian rating with the Plackett–Luce
              model (:mod:`.weng_lin`); shown as a conservative value, μ − 3σ on a scale around
              1,500 (:func:`~.weng_lin.WengLin.shown`);
``prefko``    prefko's formula for three-player Balkan tables (:mod:`.prefko`), as published in
              its npm package ``preferans-rating-js`` (docs/ratings.md).

>>> from tournaments.ratings import RatedEvent, RatedTable, TableResult, rate_events, model_for
>>> t = RatedTable(1, 1, (TableResult(7, 40), TableResult(8, -10), TableResult(9, -30)), 30)
>>> run = rate_events([RatedEvent(1, (t,))], model_for("prefko"))
>>> [(c.person, c.place, c.change) for c in run.changes]
[(7, 1, 2.0), (8, 2, -1.0), (9, 3, -2.0)]
"""

from .compact import EventChanges, Packer, pack, unpack
from .model import (
    PlayerState,
    RatedEvent,
    RatedTable,
    RatingChange,
    RatingError,
    RatingModel,
    RatingRun,
    TableOutcome,
    TableResult,
    places_of,
    rate_events,
)
from .registry import DEFAULT_MODEL, MODELS, model_for, model_from_spec

__all__ = [
    "DEFAULT_MODEL",
    "EventChanges",
    "Packer",
    "MODELS",
    "PlayerState",
    "RatedEvent",
    "RatedTable",
    "RatingChange",
    "RatingError",
    "RatingModel",
    "RatingRun",
    "TableOutcome",
    "TableResult",
    "model_for",
    "model_from_spec",
    "pack",
    "places_of",
    "rate_events",
    "unpack",
]
