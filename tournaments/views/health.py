from django.conf import settings
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from tournaments.services.health import health_check


@never_cache
def healthz(request):
    """``/healthz``: 200 when the database and the configured broker answer, else 503.

    Anyone learns only up or down (``{"status": "ok"|"fail"}``); staff also see each service and
    its detail (engine, broker address, the error), which would tell a stranger where the
    database and the broker live."""
    services = health_check()
    ok = all(s.ok for s in services)
    body: dict[str, object] = {"status": "ok" if ok else "fail"}
    if request.user.is_authenticated and request.user.is_staff:
        body["services"] = [s.as_dict() for s in services]
    response = JsonResponse(body, status=200 if ok else 503)
    if not ok:  # a load balancer or a client retries after this (issue 38)
        response["Retry-After"] = str(settings.PULKA_RETRY_AFTER_SECONDS)
    return response
