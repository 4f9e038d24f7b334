"""API routes: standings."""

urlpatterns: list = []
