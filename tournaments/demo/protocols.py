"""The demo's protocols: every state a referee meets (idempotent).

Closed rounds: every table's pulka played to the end (``scoring.russian.generate``), confirmed by its
players and approved. The round in play: a draft with findings, one still being played, one
confirmed and waiting for approval, one approved with a ruling (3.2.21) and an appeal pending,
one approved after a ruling with an adjusted result (3.8.5.1 Б); the rest not entered yet.
"""

from __future__ import annotations

import dataclasses
import random

from django.contrib.auth import get_user_model
from django.db import transaction

from rules.contracts import Contract
from scoring.russian.protocol import Call, Ending, Game
from scoring.russian.protocol import Protocol as ScoringProtocol
from scoring.russian.writing import whisting_order
from tournaments.models import Event, EventRole, Protocol, Round, Ruling, Table
from tournaments.services.protocols import (
    protocol_approve,
    protocol_confirm,
    protocol_save,
    table_header,
)
from tournaments.services.rounds import (
    round_commit_seed,
    round_create,
    round_draw,
    round_publish,
    round_start,
)
from tournaments.services.rulings import appeal_file, incident_record, ruling_make
from tournaments.variants import event_variant

__all__ = ["demo_protocols"]


def _referee(event: Event):
    role = (
        EventRole.objects.filter(
            event=event,
            role__in=[
                EventRole.Role.CHIEF_REFEREE,
                EventRole.Role.REFEREE,
                EventRole.Role.ORGANISER,
            ],
        )
        .select_related("user")
        .order_by("role")
        .first()
    )
    if role is not None:
        return role.user
    user, _ = get_user_model().objects.get_or_create(username="demo-referee")
    EventRole.objects.get_or_create(event=event, user=user, role=EventRole.Role.REFEREE)
    return user


def _pulka(event: Event, table: Table, seed: int) -> ScoringProtocol:
    """A legal pulka played to the end at ``table`` (its seats, first dealer and rules): a
    generated game still in progress (a generator may stop one early) is passed over, since the
    demo confirms and approves what it makes."""
    header = table_header(table)
    options = tuple(sorted((event.convention_options or {}).items()))
    for k in range(200):  # the first dealer is drawn by lot (001 §3.2.1): take a matching one
        p = event_variant(event).random_protocol(
            random.Random(seed * 1000 + k),
            convention=event.variant,
            players=header.size,
            target=event.pulka_target,
            options=options,
        )
        if p.first_dealer == table.first_dealer and p.ending != Ending.IN_PROGRESS:
            return dataclasses.replace(p, players=header.players, convention=header.convention)
    raise AssertionError("no generated pulka with this first dealer")


def _approved(table: Table, protocol: ScoringProtocol, by) -> Protocol:
    closed = table.round.state == Round.State.CLOSED
    # a closed round's table link no longer saves: its protocols come from the paper sheets,
    # entered by the referee with the reason (issue 25)
    version = protocol_save(
        table=table,
        protocol=protocol,
        based_on_version=None,
        source=Protocol.Source.REFEREE if closed else Protocol.Source.TABLE_LINK,
        by=by if closed else None,
        reason="Entered from the paper protocol" if closed else "",
    )
    for seat in table.seats.order_by("position"):
        protocol_confirm(protocol=version, seat=seat.position, entry=seat.entry)
    return protocol_approve(protocol=version, by=by)


def _in_play(event: Event, round_: Round, referee) -> None:
    tables = list(round_.tables.order_by("number"))
    for i, table in enumerate(tables):
        if table.protocols.exists():
            continue
        full = _pulka(event, table, 1000 * round_.number + table.number)
        if i == 0:  # a draft with findings: the whisters' tricks written do not make ten
            deals = list(full.deals[:6])
            k = next(j for j, d in enumerate(deals) if type(d) is Game and d.declarer_tricks)
            tricks = deals[k].declarer_tricks or 0
            deals[k] = dataclasses.replace(deals[k], defender_tricks=(10 - tricks, 1))
            protocol_save(
                table=table,
                protocol=full.with_deals(tuple(deals)),
                based_on_version=None,
                source=Protocol.Source.TABLE_LINK,
            )
        elif i == 1:  # still being played: resumes where it was
            protocol_save(
                table=table,
                protocol=dataclasses.replace(
                    full, deals=full.deals[: len(full.deals) // 2], ending=Ending.IN_PROGRESS
                ),
                based_on_version=None,
                source=Protocol.Source.TABLE_LINK,
            )
        elif i == 2:  # confirmed by every player, waiting for the referee's approval
            version = protocol_save(
                table=table, protocol=full, based_on_version=None, source=Protocol.Source.TABLE_LINK
            )
            for seat in table.seats.order_by("position"):
                protocol_confirm(protocol=version, seat=seat.position, entry=seat.entry)
        elif i == 3:  # approved, then a ruling (3.2.21) and an appeal against it
            _approved(table, full, referee)
            seat = table.seats.order_by("position")[1]
            incident = incident_record(
                table=table,
                deal=4,
                seats=[seat.position],
                by=referee,
                description=f"{seat.entry.player.name} looked at the talon before it was bought",
            )
            ruling = ruling_make(
                incident=incident,
                kind=Ruling.Kind.CATALOGUE,
                seat=seat.position,
                penalty_code="TALON_PEEK",
                by=referee,
                reason="Seen by the table referee",
            )
            appeal_file(
                ruling=ruling,
                entry=seat.entry,
                grounds="I only turned my own cards; the talon stayed closed.",
            )
        elif i == 4:  # the whister's plan against the passer's: 3.8.5.1 Б
            header = table_header(table)
            dealer = table.first_dealer
            declarer = (dealer + 1) % header.size
            game = Game(declarer, Contract.from_str("6♥"), (Call.WHIST, Call.PASS), 6, (3, 1))
            rest = _pulka(event, table, 7000 + table.number)
            protocol = dataclasses.replace(rest, deals=(game,), ending=Ending.AGREEMENT)
            _approved(table, protocol, referee)
            passer = whisting_order(declarer, header.size, dealer)[1]  # the one who passed
            incident = incident_record(
                table=table,
                deal=0,
                seats=[passer],
                by=referee,
                description="The passer disagreed with the whister's plan; referee called "
                "before the first lead",
            )
            ruling_make(
                incident=incident,
                kind=Ruling.Kind.ADJUSTED,
                by=referee,
                reason="Compensating result for the passer; the declarer's by lot",
                params={
                    "other_tricks": 5,
                    "other_split": [4, 1],
                    "passer": passer,
                    "lot": "played",
                },
            )
        else:
            break  # the other tables have not handed in their protocols yet


@transaction.atomic
def demo_protocols(event: Event) -> None:
    """Protocols in every state for the demo event; running it again changes nothing."""
    referee = _referee(event)
    for round_ in event.rounds.order_by("number"):
        if round_.state == Round.State.CLOSED:
            for table in round_.tables.order_by("number"):
                if not table.protocols.exists():
                    _approved(
                        table, _pulka(event, table, 100 * round_.number + table.number), referee
                    )
        elif round_.state == Round.State.IN_PLAY:
            _in_play(event, round_, referee)


def started_round(event: Event, by):
    """A new round of ``event`` as the day runs it: its seed's hash published first, drawn,
    published and started (the demo's every family alike)."""
    round_ = round_create(event=event, by=by)
    round_commit_seed(round_=round_, by=by)
    round_draw(round_=round_, by=by)
    round_publish(round_=round_, by=by)
    round_start(round_=round_, by=by)
    return round_
