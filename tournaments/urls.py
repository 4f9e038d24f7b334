"""Root URLconf: public pages, the admin, the REST API, health."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from tournaments.views import health, public

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularRedocView.as_view(url_name="api-schema"), name="api-docs"),
]
urlpatterns += i18n_patterns(
    path("admin/", admin.site.urls),
    path("", public.home, name="home"),
    prefix_default_language=False,
)
