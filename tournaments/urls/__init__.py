"""Root URLconf. The audience is in the module name (Tabbycat): ``public`` for everyone,
``organiser`` for an event's organisers and referees, ``private`` for a player's or a table's
private link; ``protocols`` and ``standings`` hold those features' pages; ``tournaments.api``
the REST API (``/api/v1/``)."""

from django.conf.urls.i18n import i18n_patterns
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView

from tournaments.views import health
from tournaments.views.language import language_switch
from tournaments.views.login import (
    AdminLockoutAuthenticationForm,
    LockoutAuthenticationForm,
    with_lockout_status,
)

# Both login pages count failures and lock out (tournaments/access/lockout.py).
admin.site.login_form = AdminLockoutAuthenticationForm

# JSON under /api/, the usual pages elsewhere; a database out of reach is a 503 (views/errors.py).
handler400 = "tournaments.views.errors.bad_request"
handler403 = "tournaments.views.errors.permission_denied"
handler404 = "tournaments.views.errors.not_found"
handler500 = "tournaments.views.errors.server_error"

urlpatterns = [
    path("healthz", health.healthz, name="healthz"),
    # the header's language switcher (a GET form); Django's POST set_language stays beside it
    path("i18n/language/", language_switch, name="language"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/v1/", include("tournaments.api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # templates/api/redoc.html: the reference without the web fonts drf-spectacular links to
    path(
        "api/docs/",
        SpectacularRedocView.as_view(url_name="api-schema", template_name="api/redoc.html"),
        name="api-docs",
    ),
]
urlpatterns += i18n_patterns(
    # Organisers' and referees' login: any active account with a role in an event (the
    # admin's login form admits staff only).
    path(
        "accounts/login/",
        with_lockout_status(
            auth_views.LoginView.as_view(authentication_form=LockoutAuthenticationForm)
        ),
        name="login",
    ),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/login/", with_lockout_status(admin.site.login)),
    path("admin/", admin.site.urls),
    path("", include("tournaments.urls.protocols")),
    path("", include("tournaments.urls.standings")),
    path("", include("tournaments.urls.series")),
    path("", include("tournaments.urls.ratings")),
    path("", include("tournaments.urls.teams")),
    path("", include("tournaments.urls.duplicate")),
    path("", include("tournaments.urls.organiser")),
    path("", include("tournaments.urls.archive")),
    path("", include("tournaments.urls.private")),
    path("", include("tournaments.urls.public")),
    prefix_default_language=False,
)
