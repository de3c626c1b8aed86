"""Template filters of the series pages: what the user may open (``series.access``)."""

from django import template

from series import access

register = template.Library()


@register.filter
def may_see_players(user):
    """Whether ``user`` may open the player history (``series.access.may_see_players``): the
    navigation links it only for them, never a recorder (issue 35)."""
    return access.may_see_players(user)
