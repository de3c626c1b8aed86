"""URLs of the reader app (see docs/architecture.md, "URL areas")."""

urlpatterns = []
