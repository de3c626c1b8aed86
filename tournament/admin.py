from django.contrib import admin
from django.db.models import Q
from django.utils.translation import gettext as _

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


def recorded_games(model, objs):
    """The games with something recorded among what deleting ``objs`` (games, groups, divisions
    or teams) would delete: a recording sheet of any status, or a result (confirmed, waiting,
    disputed, walkover, void). ``docs/rules/stages.md``, "A played game is never deleted"."""
    pks = [obj.pk for obj in objs]
    matches = {
        Match: Match.objects.filter(pk__in=pks),
        Group: Match.objects.filter(group__in=pks),
        Division: Match.objects.filter(division__in=pks),
        Team: Match.objects.filter(Q(team_a__in=pks) | Q(team_b__in=pks)),
    }[model]
    return (
        matches.filter(Q(sheets__isnull=False) | ~Q(status=Match.Status.SCHEDULED))
        .distinct()
        .order_by("event", "match_number")
    )


class KeepsRecordedGames:
    """The admin never deletes a game with a result, nor a group, division or team whose
    deletion would take such a game with it (issue 29, item 4): the delete page and the
    "delete selected" action list each such game as protected and delete nothing. A played
    game is voided on its game page instead (its history kept); the standings then count the
    group as incomplete until it is replayed or the void stands."""

    def get_deleted_objects(self, objs, request):
        deleted, counts, perms_needed, protected = super().get_deleted_objects(objs, request)
        for match in recorded_games(self.model, objs):
            protected = [
                *protected,
                _(
                    "Game %(number)s (%(event)s) has a result or a recording sheet: it cannot be deleted. "
                    "Void it on its game page instead."
                )
                % {"number": match.match_number, "event": match.event},
            ]
        return deleted, counts, perms_needed, protected


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
class DivisionAdmin(KeepsRecordedGames, VersionedAdmin):
    list_display = ("name", "event", "grade_band", "criteria_codes", "qualifiers_per_group")
    list_filter = ("event",)
    filter_horizontal = ("courts",)


@admin.register(Group)
class GroupAdmin(KeepsRecordedGames, admin.ModelAdmin):
    list_display = ("name", "division", "court")
    list_filter = ("division__event",)


class PlayerInline(admin.TabularInline):
    model = Player
    extra = 0


@admin.register(Team)
class TeamAdmin(KeepsRecordedGames, VersionedAdmin):
    list_display = ("name", "affiliation", "division", "group", "withdrawn")
    list_filter = ("division__event", "division")
    search_fields = ("name", "affiliation")
    inlines = [PlayerInline]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ("name", "furigana", "grade", "team", "is_leader", "is_substitute")
    search_fields = ("name", "furigana")


@admin.register(Match)
class MatchAdmin(KeepsRecordedGames, admin.ModelAdmin):
    list_display = ("match_number", "event", "division", "stage", "court", "start_at", "team_a", "team_b", "status")
    list_filter = ("event", "stage", "status")
    raw_id_fields = ("team_a", "team_b", "winner", "group")


@admin.register(TieBreak)
class TieBreakAdmin(admin.ModelAdmin):
    list_display = ("group", "team", "position", "method", "recorded_at")


@admin.register(RunnerUpLot)
class RunnerUpLotAdmin(admin.ModelAdmin):
    list_display = ("division", "team", "position", "method", "recorded_at")
