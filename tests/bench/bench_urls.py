"""The benchmark's URLconf: Pulka's, plus a trivial view (the baseline of bench_pages) and a
trivial write (the baseline of bench_writes: one row inserted in a transaction)."""

from django.db import transaction
from django.http import HttpResponse
from django.urls import path
from django.views.decorators.csrf import csrf_exempt

from tournaments.models import Player
from tournaments.urls import handler400, handler403, handler404, handler500  # noqa: F401
from tournaments.urls import urlpatterns as pulka_urlpatterns


def trivial(request):
    return HttpResponse("ok", content_type="text/plain")


@csrf_exempt
def trivial_write(request):
    with transaction.atomic():
        Player.objects.create(name="bench write")
    return HttpResponse("ok", content_type="text/plain", status=201)


urlpatterns = [
    path("bench/trivial/", trivial),
    path("bench/trivial-write/", trivial_write),
    *pulka_urlpatterns,
]
