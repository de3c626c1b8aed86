"""URLs of the club_entry app (see docs/architecture.md, "URL areas")."""

urlpatterns = []
