"""The event's record to take away (``tournaments.views.archive``) and the hall's projector
(``tournaments.views.hall``)."""

from django.urls import path

from tournaments.views import archive, hall

urlpatterns = [
    path("manage/import-event/", archive.import_event, name="event-import"),
    path("manage/import-event/<str:task_id>/", archive.import_event_job, name="event-import-job"),
    path("e/<slug:slug>/manage/archive/", archive.manage_archive, name="manage-archive"),
    path(
        "e/<slug:slug>/rounds/<int:number>/tables/<int:table_number>/protocol.json",
        archive.protocol_json,
        name="protocol-json",
    ),
    path("e/<slug:slug>/hall/", hall.projector, name="hall"),
    path("e/<slug:slug>/hall/state", hall.projector_state, name="hall-state"),
]
