"""API routes: protocols (``/api/v1/events/<slug>/rounds/<n>/tables/<t>/protocols``)."""

from django.urls import path

from tournaments.api.views import protocols as v

P = "events/<slug:slug>/rounds/<int:number>/tables/<int:table_number>/protocols"

urlpatterns = [
    path(P, v.ProtocolSubmitApi.as_view(), name="protocol-submit"),
    path(P + "/versions", v.ProtocolVersionListApi.as_view(), name="protocol-versions"),
    path(
        P + "/versions/<int:version>", v.ProtocolVersionDetailApi.as_view(), name="protocol-version"
    ),
    path(P + "/approve", v.ProtocolApproveApi.as_view(), name="protocol-approve"),
    path(P + "/findings", v.ProtocolFindingsApi.as_view(), name="protocol-findings"),
]
