"""The benchmark's URLconf: Pulka's, plus a trivial view (the baseline of bench_pages)."""

from django.http import HttpResponse
from django.urls import path

from tournaments.urls import handler400, handler403, handler404, handler500  # noqa: F401
from tournaments.urls import urlpatterns as pulka_urlpatterns


def trivial(request):
    return HttpResponse("ok", content_type="text/plain")


urlpatterns = [path("bench/trivial/", trivial), *pulka_urlpatterns]
