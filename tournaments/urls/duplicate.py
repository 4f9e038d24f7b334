"""A duplicate event's pages (issue 43): the table's boards, the overview and standings, a
board's traveller, the organisers' preparation."""

from django.urls import path

from tournaments.views import duplicate as v

urlpatterns = [
    path("t/<str:key>/boards/", v.table_boards, name="duplicate-table"),
    path("e/<slug:slug>/duplicate/", v.duplicate_overview, name="duplicate"),
    path("e/<slug:slug>/duplicate/boards/<int:number>/", v.board_traveller, name="duplicate-board"),
    path("e/<slug:slug>/manage/duplicate/", v.duplicate_manage, name="duplicate-manage"),
]
