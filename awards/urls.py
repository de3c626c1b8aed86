"""URLs of the awards app (see docs/architecture.md, "URL areas")."""

urlpatterns = []
