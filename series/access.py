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


def may_manage_clubs(user):
    """The clubs page (merge, split and rename clubs of every event and of the PUBLIC archive):
    superusers, staff users and users given the ``series.change_club`` permission; never an
    organiser for being one (an organiser of one school event renamed another event's clubs in
    the archive). docs/rules/series.md, "Who"."""
    if not user.is_authenticated:
        return False
    return user.is_superuser or user.is_staff or user.has_perm("series.change_club")
