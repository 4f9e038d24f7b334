from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from tournaments.services.health import health_check


@never_cache
def healthz(request):
    """``/healthz``: 200 when the database and the configured broker answer, else 503."""
    services = health_check()
    ok = all(s.ok for s in services)
    return JsonResponse(
        {"status": "ok" if ok else "fail", "services": [s.as_dict() for s in services]},
        status=200 if ok else 503,
    )
