from django.contrib import admin

from tournament.models import Court, Division, Event, Group, Match, Player, RunnerUpLot, Team, TieBreak
from tournament.services import versions

# The Django admin is for superusers only: organisers and recorders use the app's pages.
admin.site.has_permission = lambda request: request.user.is_active and request.user.is_superuser


class VersionedAdmin(admin.ModelAdmin):
    """A save in the admin moves the row's edit version, as a save on the app's pages does
    (docs/architecture.md, "Edits by two people at once"): an organiser's form opened before it
    is then refused as stale instead of silently undoing the superuser's change. The admin's
    change view runs in a transaction, so the row is locked until the save commits."""

    def save_model(self, request, obj, form, change):
        if change:
            versions.claim(obj, None)
        super().save_model(request, obj, form, change)


class CourtInline(admin.TabularInline):
    model = Court
    extra = 0
    fields = ("name", "order")


@admin.register(Event)
class EventAdmin(VersionedAdmin):
    list_display = ("name", "edition", "date", "venue", "slug")
    prepopulated_fields = {"slug": ("name",)}
    filter_horizontal = ("organisers",)
    inlines = [CourtInline]


@admin.register(Court)
class CourtAdmin(VersionedAdmin):
    list_display = ("name", "event", "order")
    list_filter = ("event",)
    readonly_fields = ("token",)


@admin.register(Division)
class DivisionAdmin(VersionedAdmin):
    list_display = ("name", "event", "grade_band", "criteria_codes", "qualifiers_per_group")
    list_filter = ("event",)
    filter_horizontal = ("courts",)


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "division", "court")
    list_filter = ("division__event",)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Team)
class TeamAdmin(VersionedAdmin):
    list_display = ("name", "affiliation", "division", "group", "withdrawn")
    list_filter = ("division__event", "division")
    search_fields = ("name", "affiliation")
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "furigana", "grade", "team", "is_leader", "is_substitute")
    search_fields = ("name", "furigana")


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("match_number", "event", "division", "stage", "court", "start_at", "team_a", "team_b", "status")
    list_filter = ("event", "stage", "status")
    raw_id_fields = ("team_a", "team_b", "winner", "group")


@admin.register(TieBreak)
class TieBreakAdmin(admin.ModelAdmin):
    list_display = ("group", "team", "position", "method", "recorded_at")


@admin.register(RunnerUpLot)
class RunnerUpLotAdmin(admin.ModelAdmin):
    list_display = ("division", "team", "position", "method", "recorded_at")
