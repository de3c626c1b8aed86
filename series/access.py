"""Who may open the series pages and the clubs page (docs/rules/series.md, "Who")."""

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.shortcuts import get_object_or_404

from series.models import Series


def may_create_series(user):
    """Superusers, users with the ``series.add_series`` permission, and organisers of an event."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.has_perm("series.add_series") or user.organised_events.exists()


def visible_series(user):
    """The series ``user`` may open: every one for a superuser; else those they organise and
    those with an event they organise."""
    if user.is_superuser:
        return Series.objects.all()
    return Series.objects.filter(Q(organisers=user) | Q(members__event__organisers=user)).distinct()


def series_for_organiser(request, slug):
    """The ``Series`` of ``slug`` for one who may open it (``visible_series``): ``Http404`` for
    an unknown slug, ``PermissionDenied`` (403) for anyone else."""
    series = get_object_or_404(Series, slug=slug)
    if not visible_series(request.user).filter(pk=series.pk).exists():
        raise PermissionDenied
    return series


def may_edit_series(user, series):
    """Whether ``user`` may change ``series``: its settings (name, season, points table), which
    tournaments are in it and their roles. Superusers and the series' own organisers (the user
    who made it) only: an organiser of an event in the series (one that joined with the key
    file, docs/exchange.md) sees the ranking and exchanges results, and may take their own
    event out, but never edits the series or another event's place in it (issue 28, item 4;
    docs/rules/series.md, "Who")."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or series.organisers.filter(pk=user.pk).exists()


def series_for_editor(request, slug):
    """The ``Series`` of ``slug`` for one who may change it (``may_edit_series``): ``Http404``
    for an unknown slug, ``PermissionDenied`` (403) for anyone else, a member event's organiser
    included."""
    series = series_for_organiser(request, slug)
    if not may_edit_series(request.user, series):
        raise PermissionDenied
    return series


def may_manage_clubs(user):
    """The clubs page (merge, split and rename clubs of every event and of the PUBLIC archive):
    superusers, staff users and users given the ``series.change_club`` permission; never an
    organiser for being one (an organiser of one school event renamed another event's clubs in
    the archive). docs/rules/series.md, "Who"."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.is_staff or user.has_perm("series.change_club")


def may_see_players(user):
    """The player history across editions (issue 35; docs/rules/records.md): superusers, staff
    users and organisers of an event (each sees the players of the events they organise:
    ``series.players.visible_events``); never a recorder or anyone else for being logged in."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.is_staff or user.organised_events.exists()
