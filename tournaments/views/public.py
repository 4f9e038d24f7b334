"""Public pages: what anyone can see without logging in."""

from django.shortcuts import render


def home(request):
    return render(request, "tournaments/public/home.html", {})
