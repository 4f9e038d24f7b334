"""API routes: protocols."""

urlpatterns: list = []
