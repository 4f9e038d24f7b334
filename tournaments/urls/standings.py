"""Standings and documents pages (see tournaments/urls/__init__.py): public under
``/e/<slug>/standings/`` and ``/e/<slug>/documents/``, staff under ``/e/<slug>/manage/…``."""

from django.urls import path

from tournaments.views import standings as v

urlpatterns = [
    path("e/<slug:slug>/standings/", v.standings, name="standings"),
    path("e/<slug:slug>/standings.csv", v.standings_csv, name="standings-csv"),
    path("e/<slug:slug>/standings/rounds/<int:number>/", v.round_results, name="standings-round"),
    path("e/<slug:slug>/standings/cross/", v.cross_table, name="standings-cross"),
    path("e/<slug:slug>/standings/cross.csv", v.cross_table_csv, name="standings-cross-csv"),
    path("e/<slug:slug>/standings/players/<int:entry_id>/", v.player, name="standings-player"),
    path("e/<slug:slug>/documents/", v.documents, name="documents"),
    path("e/<slug:slug>/documents/<int:file_id>/", v.document_download, name="document"),
    path("e/<slug:slug>/manage/standings/", v.manage_standings, name="standings-manage"),
    path("e/<slug:slug>/manage/documents/", v.manage_documents, name="documents-manage"),
]
