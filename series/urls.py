"""URLs of the series app (see docs/architecture.md, "URL areas")."""

urlpatterns = []
