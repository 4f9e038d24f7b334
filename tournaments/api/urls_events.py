"""API routes: events."""

urlpatterns: list = []
