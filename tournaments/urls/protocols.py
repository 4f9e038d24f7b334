"""protocols pages (see tournaments/urls/__init__.py)."""

urlpatterns: list = []
