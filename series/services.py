"""Writes of the series app: series, their events, and the clubs' spellings.

Each function is one transaction; a refusal is a ``UserError`` raised before any write
(docs/architecture.md, "Errors"). The rules are in ``docs/rules/series.md``.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from common.errors import UserError
from series.engine import points
from series.labels import table_error_text
from series.models import Club, ClubSpelling, ForgottenPlayer, Series, SeriesEvent
from tournament.engine.names import name_key

# Series slugs that would hide a page of the series area (/series/new/, /series/clubs/).
RESERVED_SLUGS = frozenset({"new", "clubs", "players"})


def checked_table(text):
    """``text`` as the stored points table ("10,7,5"), or ``UserError`` naming the bad entry."""
    try:
        return ",".join(str(p) for p in points.parse_table(text))
    except points.PointsTableError as error:
        raise UserError(table_error_text(error)) from None


def create_series(user, slug, name, season, points_table):
    """A new ``Series`` with ``user`` as its organiser. ``points_table`` as typed ("10,7,5").

    Raises ``UserError`` for a taken or reserved short name or a bad table."""
    table = checked_table(points_table)
    if slug in RESERVED_SLUGS:
        raise UserError(_("The short name 「%(slug)s」 is reserved; choose another.") % {"slug": slug})
    with transaction.atomic():
        if Series.objects.filter(slug=slug).exists():
            raise UserError(_("A series with the short name 「%(slug)s」 exists already.") % {"slug": slug})
        series = Series.objects.create(slug=slug, name=name, season=season, points_table=table)
        if user is not None and user.is_authenticated:
            series.organisers.add(user)
    return series


def update_series(series, name, season, points_table):
    """Save ``series``'s name, season and points table; ``UserError`` for a bad table."""
    table = checked_table(points_table)
    series.name, series.season, series.points_table = name, season, table
    series.save(update_fields=["name", "season", "points_table"])
    return series


def refuse_second_final(series, role, event=None):
    """``UserError`` when ``role`` is the final and ``series`` has a final already (another
    event than ``event``): one final per series (docs/rules/series.md; the database holds it
    too, ``series_one_final``). Call inside the write's transaction."""
    if role != SeriesEvent.Role.FINAL:
        return
    final = SeriesEvent.objects.select_for_update().filter(series=series, role=SeriesEvent.Role.FINAL)
    if event is not None:
        final = final.exclude(event=event)
    final = final.select_related("event").first()
    if final is not None:
        raise UserError(
            _("The series 「%(series)s」 has its final already: 「%(event)s」. A series has one final.")
            % {"series": series, "event": final.event.title}
        )


def add_event(series, event, role, district=""):
    """Put ``event`` into ``series`` with ``role`` (``SeriesEvent.Role``) and ``district``.

    Raises ``UserError`` when the event is in a series already (one series per event) or when
    ``role`` is the final and the series has one (one final per series)."""
    if role not in SeriesEvent.Role.values:
        raise UserError(_("Choose the tournament's role in the series."))
    with transaction.atomic():
        taken = SeriesEvent.objects.filter(event=event).select_related("series").first()
        if taken is not None:
            raise UserError(
                _("「%(event)s」 is in the series 「%(series)s」 already.") % {"event": event, "series": taken.series}
            )
        refuse_second_final(series, role)
        return SeriesEvent.objects.create(series=series, event=event, role=role, district=district.strip())


def remove_event(series, member_pk, *, only_events=None):
    """Take the tournament ``member_pk`` (a ``SeriesEvent``) out of ``series``; its results stay
    in the tournament. ``only_events``: a queryset of the events the person may take out (an
    organiser of a member event who does not edit the series: their own events only), or None
    for the series' editors (any event). ``UserError`` when it is not in this series or not one
    of ``only_events`` (the same sentence: issue 28, item 4)."""
    members = SeriesEvent.objects.filter(series=series, pk=member_pk)
    if only_events is not None:
        members = members.filter(event__in=only_events)
    deleted, _rows = members.delete()
    if not deleted:
        raise UserError(_("That tournament is not in this series (any more)."))


def _club_for(text):
    """The ``Club`` of the spelling ``text``, made (with its spelling) when it has none."""
    spelling = ClubSpelling.objects.select_related("club").filter(key=name_key(text)).first()
    if spelling is not None:
        return spelling.club
    club = Club.objects.create(name=text)
    ClubSpelling.objects.create(club=club, text=text)
    return club


def merge_spellings(keep, other):
    """Make the affiliation spellings ``keep`` and ``other`` (texts as stored on teams) one club:
    ``other``'s club (every spelling of it) joins ``keep``'s club, which keeps its name.

    Teams' stored affiliations are never rewritten: the club is found by the spelling's
    ``name_key`` (docs/rules/series.md, "Clubs"). Returns the club. Raises ``UserError`` for a
    blank spelling or two spellings of one club already."""
    if not name_key(keep or "") or not name_key(other or ""):
        raise UserError(_("Choose two spellings to merge."))
    with transaction.atomic():
        target, source = _club_for(keep), _club_for(other)
        if target.pk == source.pk:
            raise UserError(_("「%(a)s」 and 「%(b)s」 are one club already.") % {"a": keep, "b": other})
        source.spellings.update(club=target)
        source.delete()
    return target


def split_spelling(text):
    """Take the spelling ``text`` off its club: it becomes a club of its own again (the undo
    of a merge). Raises ``UserError`` when it is not merged with another spelling."""
    with transaction.atomic():
        spelling = ClubSpelling.objects.select_related("club").filter(key=name_key(text or "")).first()
        if spelling is None or spelling.club.spellings.count() < 2:
            raise UserError(_("「%(text)s」 is not merged with another spelling.") % {"text": text})
        club = spelling.club
        spelling.delete()
        if club.name == spelling.text:  # the club was named by this spelling: name it by another
            club.name = club.spellings.order_by("pk").first().text
            club.save(update_fields=["name"])
    return club


def rename_club(club, name):
    """Show ``club`` as ``name`` on the rankings and the archive (its spellings stay)."""
    name = (name or "").strip()
    if not name:
        raise UserError(_("Type the club's name."))
    club.name = name[:80]
    club.save(update_fields=["name"])
    return club


def forget_player(key, user=None):
    """Remove a player's history across editions (issue 35; docs/rules/records.md): the player
    history never lists the players of ``key`` (``series.models.player_key``: 64 hex digits)
    again. Removing one already removed changes nothing. Returns the ``ForgottenPlayer``.
    ``UserError`` for a key that is not one."""
    if not (isinstance(key, str) and len(key) == 64 and all(c in "0123456789abcdef" for c in key)):
        raise UserError(_("This player's history cannot be found (any more)."))
    with transaction.atomic():
        forgotten, _created = ForgottenPlayer.objects.get_or_create(key=key, defaults={"removed_by": user})
    return forgotten
