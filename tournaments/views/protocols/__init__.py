"""Protocol pages: the table's private link (a phone, deal by deal), the referee's desk (the
text notation, keyboard only), players' confirmation, approval, double entry, incidents,
rulings, appeals and the log. Views parse the request, call one service, render.

By page kind: :mod:`.table` (the table's and the player's pages), :mod:`.offline` (the
table's page without the network: service worker, manifest, the phone's sends), :mod:`.desk` (the referee's
desk, versions, a round's protocols), :mod:`.rulings` (incidents, rulings, appeals, the event's
penalties, the log); :mod:`.common` what they share. The URLs (``tournaments.urls.protocols``)
name the views from here."""

from tournaments.views.protocols.common import staff_view
from tournaments.views.protocols.desk import (
    protocol_action,
    protocol_versions,
    referee_entry,
    round_protocols,
)
from tournaments.views.protocols.offline import (
    player_send,
    player_worker,
    table_manifest,
    table_send,
    table_worker,
)
from tournaments.views.protocols.rulings import (
    appeals,
    incidents,
    penalties,
    protocol_log,
)
from tournaments.views.protocols.table import player_protocols, table_entry

__all__ = [
    "appeals",
    "incidents",
    "penalties",
    "player_protocols",
    "player_send",
    "player_worker",
    "protocol_action",
    "protocol_log",
    "protocol_versions",
    "referee_entry",
    "round_protocols",
    "staff_view",
    "table_entry",
    "table_manifest",
    "table_send",
    "table_worker",
]
