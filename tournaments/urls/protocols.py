"""Protocol pages: the table's private link ``/t/<key>/``, the referees' desk under
``/e/<slug>/manage/``, and a player's confirmations under ``/p/<key>/protocols/``."""

from django.urls import path

from tournaments.views import protocols as v

_TABLE = "e/<slug:slug>/manage/rounds/<int:number>/tables/<int:table_number>/"

urlpatterns = [
    path("t/<str:key>/", v.table_entry, name="protocol-table"),
    # the table's phone offline (issue 42): its service worker is scoped to the page's folder
    path("t/<str:key>/sw.js", v.table_worker, name="protocol-table-worker"),
    path("t/<str:key>/manifest", v.table_manifest, name="protocol-table-manifest"),
    path("t/<str:key>/send", v.table_send, name="protocol-table-send"),
    path("p/<str:key>/protocols/", v.player_protocols, name="protocol-player"),
    # a player's confirmations offline: his page's own worker, scoped to that page's folder
    path("p/<str:key>/protocols/sw.js", v.player_worker, name="protocol-player-worker"),
    path("p/<str:key>/protocols/send", v.player_send, name="protocol-player-send"),
    path(_TABLE + "protocol", v.referee_entry, name="protocol-referee"),
    path(_TABLE + "protocol/versions", v.protocol_versions, name="protocol-versions"),
    path(_TABLE + "protocol/<str:action>", v.protocol_action, name="protocol-action"),
    path(_TABLE + "incidents", v.incidents, name="protocol-incidents"),
    path(
        "e/<slug:slug>/manage/rounds/<int:number>/protocols",
        v.round_protocols,
        name="protocol-round",
    ),
    path("e/<slug:slug>/manage/appeals/", v.appeals, name="protocol-appeals"),
    path("e/<slug:slug>/manage/penalties/", v.penalties, name="protocol-penalties"),
    path("e/<slug:slug>/manage/protocol-log/", v.protocol_log, name="protocol-log"),
]
