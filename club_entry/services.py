"""Writes of the clubs' entry links (issue 20 item 4): links, settings, a club's teams, absences.

Every function is one transaction and refuses with ``UserError`` before any write. A club's teams
are saved through ``tournament.services.registration.save_team`` (the same name key, the same
tables as the organiser's form and the Excel import) under the optimistic lock of
``tournament.services.versions`` (docs/architecture.md, "Edits by two people at once"), and
each change is written to ``ChangeLog``.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.conf import settings as django_settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from club_entry.models import AbsenceReport, ChangeLog, ClubLink, EnteredTeam, EntrySettings
from common.errors import UserError
from tournament.engine import names
from tournament.models import Group, Match, Player, Team, new_court_token
from tournament.services import versions
from tournament.services.registration import lookalike_note, save_team

OPEN, DEADLINE, LOCKED, REVOKED = "open", "deadline", "locked", "revoked"
DAY, DRAWN, HAS_GAMES = "day", "drawn", "has_games"


class EntryClosed(UserError):
    """Entries are closed for this link (deadline, lock or revoked): nothing was saved."""


class WarningsNotAccepted(UserError):
    """The team has warnings the club has not ticked: nothing was saved. ``warnings``: texts."""

    def __init__(self, warnings):
        super().__init__(_("Read the warnings below and tick the box to save the team anyway."))
        self.warnings = warnings


@dataclass(frozen=True)
class EntryState:
    """Where a link stands: ``code`` (OPEN, DEADLINE, DAY, DRAWN, LOCKED, REVOKED; HAS_GAMES for
    one team), the sentence the club reads, and whether absences may be reported (the event's
    day, JST)."""

    code: str
    sentence: str
    event_day: bool

    @property
    def open(self):
        return self.code == OPEN


def entry_settings(event) -> EntrySettings:
    """The event's entry settings (created with the defaults on first use)."""
    found, _created = EntrySettings.objects.get_or_create(event=event)
    return found


def save_settings(event, *, deadline, locked, consent_note, base_version=None) -> EntrySettings:
    """Save the deadline (an aware datetime or None), the lock and the consent note.

    The note may not be empty (it is shown to clubs before they enter children's names). Raises
    ``UserError`` (``StaleEdit`` when another organiser saved in between); nothing is saved."""
    note = (consent_note or "").strip()
    if not note:
        raise UserError(_("Consent note: write the note the clubs read before they enter names."))
    with transaction.atomic():
        found = entry_settings(event)
        versions.claim(found, base_version)
        found.deadline, found.locked, found.consent_note = deadline, locked, note
        found.save()
    return found


def day_start(event) -> datetime.datetime:
    """00:00 JST of ``event``'s day (aware): without a deadline, club edits close then."""
    return timezone.make_aware(datetime.datetime.combine(event.date, datetime.time.min))


def drawn(event) -> bool:
    """True once ``event`` has a group or a game (drawn, scheduled or played) in any division:
    club edits close then whatever the deadline (docs/rules/entries.md, "Club links close")."""
    return (
        Group.objects.filter(division__event_id=event.pk).exists()
        or Match.objects.filter(division__event_id=event.pk).exists()
    )


def closing_sentence(event, settings=None) -> str:
    """When the event's club links close, for the organiser's page and the club's page: at the
    deadline if one is set, else at the start of the tournament's day (JST); in both cases
    earlier when the groups are drawn or the organisers lock the entries."""
    settings = settings or entry_settings(event)
    if settings.deadline is not None:
        at = timezone.localtime(settings.deadline).strftime("%Y-%m-%d %H:%M")
        return _(
            "Club links close at the deadline, %(at)s (JST), or earlier when the groups are drawn or the "
            "entries are locked. Teams with games can never be changed through a club link; absences are "
            "reported on the day."
        ) % {"at": at}
    at = timezone.localtime(day_start(event)).strftime("%Y-%m-%d %H:%M")
    return _(
        "No deadline is set: club links close at the start of the tournament's day, %(at)s (JST), or earlier "
        "when the groups are drawn or the entries are locked. Teams with games can never be changed through "
        "a club link; absences are reported on the day."
    ) % {"at": at}


def state(link, now=None) -> EntryState:
    """The link's state at ``now`` (aware; default: now). Revoked beats locked beats the deadline
    (without one: the start of the event's day, JST) beats the draw: a link left open by default
    closes before the day and once groups or games exist (a leaked link cannot rewrite a result).
    Absences may be reported on the event's day (its date in JST) while the link is active."""
    now = now or timezone.now()
    settings = entry_settings(link.event)
    event_day = timezone.localtime(now).date() == link.event.date and link.enabled
    if not link.enabled:
        return EntryState(REVOKED, _("This link was revoked: ask the organisers for a new one."), False)
    if settings.locked:
        return EntryState(LOCKED, _("The organisers have locked the entries: changes are no longer saved."), event_day)
    if settings.deadline is not None and now >= settings.deadline:
        text = _("The entry deadline (%(deadline)s) has passed: changes are no longer saved.") % {
            "deadline": timezone.localtime(settings.deadline).strftime("%Y-%m-%d %H:%M")
        }
        return EntryState(DEADLINE, text, event_day)
    if settings.deadline is None and now >= day_start(link.event):
        text = _("The tournament's day has begun (no deadline was set): changes are no longer saved.")
        return EntryState(DAY, text, event_day)
    if drawn(link.event):
        text = _("The groups are drawn: changes are no longer saved; ask the organisers.")
        return EntryState(DRAWN, text, event_day)
    return EntryState(OPEN, "", event_day)


def team_state(link, team, now=None) -> EntryState:
    """``state`` for changing one ``team`` through ``link``: a team with a game (scheduled or
    played) is never changed through a club link, whatever the entries' state."""
    found = state(link, now)
    if found.open and team is not None and Match.objects.filter(Q(team_a=team) | Q(team_b=team)).exists():
        text = _("This team has games: it can no longer be changed through the club's link; ask the organisers.")
        return EntryState(HAS_GAMES, text, found.event_day)
    return found


def _require_open(link, team=None, now=None):
    found = team_state(link, team, now)
    if not found.open:
        raise EntryClosed(found.sentence)


def create_link(event, club, *, contact_name="", contact="") -> ClubLink:
    """A new entry link for ``club`` (an affiliation text) in ``event`` with its contact.

    Raises ``UserError`` for an empty or too long club name, or a club that already has a link
    (compared by ``names.name_key``)."""
    club = names.clean_display(club)
    if not club:
        raise UserError(_("Club: enter the club's name as it appears in the affiliation."))
    if len(club) > names.AFFILIATION_MAX:
        raise UserError(_("Club: at most %(n)s characters.") % {"n": names.AFFILIATION_MAX})
    if ClubLink.objects.filter(event=event, club_key=names.name_key(club)).exists():
        raise UserError(_("%(club)s already has an entry link.") % {"club": club})
    try:
        with transaction.atomic():
            return ClubLink.objects.create(
                event=event, club=club, contact_name=contact_name.strip()[:60], contact=contact.strip()[:120]
            )
    except IntegrityError:
        raise UserError(_("%(club)s already has an entry link.") % {"club": club}) from None


def create_links_for_affiliations(event) -> list[ClubLink]:
    """A link for each affiliation of the event's teams that has none yet; the new links. The
    affiliation of a team a club entered is that club's (even respelled): no link for it."""
    have = set(ClubLink.objects.filter(event=event).values_list("club_key", flat=True))
    made = []
    teams = Team.objects.filter(division__event=event, club_entry__isnull=True)  # not a club's entry
    with transaction.atomic():
        for affiliation in teams.values_list("affiliation", flat=True):
            key = names.name_key(affiliation)
            if key and key not in have:
                have.add(key)
                made.append(ClubLink.objects.create(event=event, club=affiliation))
    return made


def revoke(link) -> None:
    """Stop the link at once (its page then says so and keeps what was typed)."""
    link.enabled = False
    link.save(update_fields=["enabled"])


def renew(link) -> None:
    """A new secret for the link; the old one answers "revoked" (kept as ``previous_token``)."""
    link.previous_token, link.token, link.enabled = link.token, new_court_token(), True
    link.save(update_fields=["previous_token", "token", "enabled"])


def _log(link, what, team=None, detail="", team_name="", by_organiser=False):
    ChangeLog.objects.create(
        link=link,
        team=team,
        team_name=team.name if team else team_name,
        division_name=team.division.name if team else "",
        what=what,
        detail=detail[: ChangeLog.DETAIL_MAX],
        by_organiser=by_organiser,
    )
    if not by_organiser:
        link.last_activity = timezone.now()
        link.save(update_fields=["last_activity"])


def give_consent(link) -> None:
    """Record that the club ticked the consent note (with the time); once."""
    if link.consent_at is None:
        with transaction.atomic():
            link.consent_at = timezone.now()
            link.save(update_fields=["consent_at"])
            _log(link, ChangeLog.CONSENT)


def team_warnings(link, division, name, players, team=None) -> list[str]:
    """The warnings a club reads before its team is saved, about its own entries only: a grade
    outside the division's band, a player already in another of the club's teams, a team of
    the same name key in another division that is the club's. In: ``players`` a list of
    ``PlayerData``. Out: texts.

    Nothing here names or confirms another club's team or child (issue 28, item 3;
    docs/security.md): a player or a team name that is also another club's is saved without a
    word to the club, and the organisers see it on their clubs page (``cross_club_duplicates``).
    The one refusal about others is a team name already used in the same division (team names
    are on the public pages; the database holds one per division)."""
    own = link.teams().prefetch_related("players")
    if team is not None:
        own = own.exclude(pk=team.pk)
    own = list(own)
    by_player = {names.name_key(p.name): (p, t) for t in own for p in t.players.all()}
    key = names.name_key(name)
    warnings = [
        _("A team named “%(name)s” is already entered in %(division)s.")
        % {"name": other.name, "division": other.division.name}
        for other in own
        if other.name_key == key and other.division_id != division.pk
    ]
    for player in players:
        found = by_player.get(names.name_key(player.name))
        if found is not None:
            warnings.append(
                _("%(player)s is already entered in the registered team “%(team)s”.")
                % {"player": player.name, "team": found[1].name}
                + lookalike_note(player.name, found[0].name)
            )
        if division.grade_band and player.grade and not names.grade_in_band(player.grade, division.grade_band):
            warnings.append(
                _("%(player)s (%(grade)s) is outside the grades of %(division)s (%(band)s).")
                % {"player": player.name, "grade": player.grade, "division": division.name, "band": division.grade_band}
            )
    return warnings


@dataclass(frozen=True)
class Duplicate:
    """A name entered more than once in an event where a club's link is involved, for the
    organisers only: ``kind`` ("player" or "team"), the name as first spelt, and the teams with
    the club each belongs to (``(team, club text or "")``)."""

    kind: str
    name: str
    teams: tuple


def cross_club_duplicates(event) -> list[Duplicate]:
    """Players (by ``names.name_key``) entered in two teams of ``event`` that belong to different
    clubs, and team names (by key) used by different clubs in two divisions, when at least one of
    the teams came through a club's link: what a club is never told about another club (issue 28,
    item 3), shown on the organisers' clubs page to sort out with the clubs."""
    entered = dict(EnteredTeam.objects.filter(link__event=event).values_list("team_id", "link__club"))
    links = {link.club_key: link.club for link in ClubLink.objects.filter(event=event)}
    teams = list(Team.objects.filter(division__event=event).select_related("division").prefetch_related("players"))

    def club(team):
        return entered.get(team.pk) or links.get(names.name_key(team.affiliation or ""), "")

    found = []
    by_player: dict[str, list] = {}
    by_team: dict[str, list] = {}
    for team in teams:
        by_team.setdefault(team.name_key, []).append(team)
        for player in team.players.all():
            by_player.setdefault(names.name_key(player.name), []).append((player, team))
    for rows in by_player.values():
        clubs = {club(t) or f"#{t.pk}" for _p, t in rows}
        if len(rows) > 1 and len(clubs) > 1 and any(t.pk in entered for _p, t in rows):
            found.append(Duplicate("player", rows[0][0].name, tuple((t, club(t)) for _p, t in rows)))
    for rows in by_team.values():
        clubs = {club(t) or f"#{t.pk}" for t in rows}
        if len(rows) > 1 and len(clubs) > 1 and any(t.pk in entered for t in rows):
            found.append(Duplicate("team", rows[0].name, tuple((t, club(t)) for t in rows)))
    return found


def max_teams() -> int:
    """How many teams one club's link may hold (``KARUTA_CLUB_LINK_MAX_TEAMS``, default 20)."""
    return max(1, int(getattr(django_settings, "KARUTA_CLUB_LINK_MAX_TEAMS", 20)))


def writes_per_minute() -> int:
    """How many changes one club's link may save in a minute
    (``KARUTA_CLUB_LINK_WRITES_PER_MINUTE``, default 20)."""
    return max(1, int(getattr(django_settings, "KARUTA_CLUB_LINK_WRITES_PER_MINUTE", 20)))


class TooFast(UserError):
    """A club's link saved more changes in the last minute than ``writes_per_minute``."""


def _require_rate(link, now=None) -> None:
    """``TooFast`` when ``link`` saved ``writes_per_minute`` changes in the last 60 s (its change
    log lines written by the club: every worker sees them, nothing kept in memory)."""
    now = now or timezone.now()
    recent = ChangeLog.objects.filter(
        link=link, by_organiser=False, at__gte=now - datetime.timedelta(seconds=60)
    ).count()
    if recent >= writes_per_minute():
        raise TooFast(
            _(
                "This link has saved %(n)s changes in the last minute: wait a minute, then save again "
                "(what you typed is kept below)."
            )
            % {"n": recent}
        )


def _player(name, furigana, grade, leader, substitute) -> dict:
    return {"name": name, "furigana": furigana, "grade": grade, "leader": leader, "substitute": substitute}


def snapshot(team) -> dict | None:
    """A saved team's values (None for a new team): division, name, chaperone, players."""
    if team is None:
        return None
    players = [
        _player(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in team.players.order_by("order", "pk")
    ]
    return {"division": team.division.name, "name": team.name, "chaperone": team.chaperone, "players": players}


def typed_values(division, name, chaperone, players) -> dict:
    """The values a club saves (``players``: ``registration.PlayerData``), as ``snapshot``."""
    rows = [_player(p.name, p.furigana, p.grade, p.is_leader, p.is_substitute) for p in players if p.name.strip()]
    return {"division": division.name, "name": name, "chaperone": chaperone, "players": rows}


def _shown(value) -> str:
    return value or "—"


def _one_player(p) -> str:
    extra = "、".join(x for x in (p["furigana"], p["grade"]) if x)
    mark = ("◎" if p["leader"] else "") + p["name"] + (_("(substitute)") if p["substitute"] else "")
    return f"{mark}（{extra}）" if extra else mark


def _player_changes(before, after) -> list[str]:
    old = {names.name_key(p["name"]): p for p in before}
    new = {names.name_key(p["name"]): p for p in after}
    lines = []
    fields = (("name", _("name")), ("furigana", _("furigana")), ("grade", _("grade")))
    for key, p in new.items():
        if key not in old:
            lines.append(_("player added: %(player)s") % {"player": _one_player(p)})
            continue
        was = old[key]
        for field, label in fields:
            if was[field] != p[field]:
                lines.append(f"{p['name']}: {label} {_shown(was[field])} → {_shown(p[field])}")
        if was["substitute"] != p["substitute"]:
            role = _("substitute") if p["substitute"] else _("regular player")
            lines.append(_("%(player)s is now a %(role)s") % {"player": p["name"], "role": role})
    lines += [_("player removed: %(player)s") % {"player": old[key]["name"]} for key in old if key not in new]
    leaders = [next((p["name"] for p in side if p["leader"]), "") for side in (before, after)]
    if names.name_key(leaders[0]) != names.name_key(leaders[1]):
        lines.append(f"{_('leader')}: {_shown(leaders[0])} → {_shown(leaders[1])}")
    return lines


def describe_change(before: dict | None, after: dict) -> str:
    """The change log's text: for a new team every player with furigana and grade; for an edit
    each changed field as 「label: old → new」 (division, team name, chaperone, each player's
    name, furigana, grade, substitute, the leader), or 「変更なし」. In: ``snapshot``/``typed_values``."""
    if before is None:
        return "、".join(_one_player(p) for p in after["players"])
    lines = [
        f"{label}: {_shown(before[field])} → {_shown(after[field])}"
        for field, label in (("division", _("division")), ("name", _("team name")), ("chaperone", _("chaperone")))
        if before[field] != after[field]
    ]
    lines += _player_changes(before["players"], after["players"])
    return "; ".join(lines) or _("no change")


def save_club_team(link, *, division, name, players, chaperone="", team=None, base_version=None, accept_warnings=False):
    """Create (``team`` None) or edit one of the club's teams; the affiliation is the club's.

    In: a division of the link's event, the team name, ``players`` (``PlayerData``), the
    chaperone, the version the page was opened with, and whether the club ticked the warnings.
    Raises ``EntryClosed`` after the deadline, a lock or a revocation, ``TooFast`` (more than
    ``writes_per_minute`` changes in a minute), ``UserError`` for a new team past ``max_teams``,
    ``WarningsNotAccepted``, ``StaleEdit`` (someone saved the team in between), ``UserError`` (a
    duplicate team name in the division by ``names.name_key``); nothing is saved then. Logs the
    change. Returns the team."""
    _require_open(link, team)
    if division.event_id != link.event_id:
        raise UserError(_("Division: choose a division of this tournament."))
    _require_rate(link)
    if team is None and link.teams().count() >= max_teams():
        raise UserError(
            _("A club's link may enter at most %(n)s teams; ask the organisers to enter more.") % {"n": max_teams()}
        )
    warnings = team_warnings(link, division, name, players, team)
    if warnings and not accept_warnings:
        raise WarningsNotAccepted(warnings)
    with transaction.atomic():
        before = snapshot(team)
        if team is not None:
            versions.claim(team, base_version)
            _close_absences(team, players, link, by_organiser=False)
        seed = team.seed if team is not None else None
        # An edit keeps the team's affiliation (the organisers may have corrected its spelling).
        affiliation = team.affiliation if team is not None else link.club
        saved = save_team(division, name, affiliation, players, team=team, seed=seed, chaperone=chaperone)
        EnteredTeam.objects.update_or_create(team=saved, defaults={"link": link})
        detail = describe_change(before, typed_values(division, saved.name, saved.chaperone, players))
        _log(link, ChangeLog.EDITED if team is not None else ChangeLog.ADDED, saved, detail)
    return saved


def owner(team) -> ClubLink | None:
    """The link whose club ``team`` is (``ClubLink.teams``): the link that entered it, else the
    link of its event whose club has the affiliation's key; None when no club's."""
    entered = EnteredTeam.objects.filter(team=team).select_related("link").first()
    if entered is not None:
        return entered.link
    return _link_of(team.division.event_id, team.affiliation)


def _link_of(event_id, affiliation) -> ClubLink | None:
    key = names.name_key(affiliation or "")
    return ClubLink.objects.filter(event_id=event_id, club_key=key).first() if key else None


def _close_absences(team, players, link, *, by_organiser) -> None:
    """Before ``team`` is saved with ``players`` (``PlayerData``): the absence reports of its
    players no longer in it (by ``names.name_key``, as ``registration.save_team`` keeps rows)
    are closed (deleted) and the change log says so, on the reporting club's link."""
    typed = {names.name_key(p.name) for p in players}
    for report in AbsenceReport.objects.filter(player__team=team).select_related("player", "link"):
        if names.name_key(report.player.name) in typed:
            continue
        target = report.link or link
        if target is not None:
            _log(target, ChangeLog.CLOSED, team, report.player.name, by_organiser=by_organiser)
        report.delete()


def organiser_edits_team(team, *, affiliation, players) -> None:
    """Call inside the organiser's save of an existing ``team``, before
    ``registration.save_team``, with the typed affiliation and ``players`` (``PlayerData``).

    Absence reports of players no longer in the team are closed and logged (``_close_absences``).
    A new affiliation (another ``names.name_key``): a team a club entered stays that club's unless
    the affiliation is another club's with a link, which then gets it (the entry moves); a team
    no club entered follows its affiliation. A change of club is logged on both links as moved
    (shown on the organiser's clubs page); a spelling that keeps the club is logged as renamed.
    The rule: docs/architecture.md, URL areas, ``/club/<token>/``; README, clubs' entry links."""
    before = owner(team)
    _close_absences(team, players, before, by_organiser=True)
    if names.name_key(affiliation or "") == names.name_key(team.affiliation or ""):
        return
    target = _link_of(team.division.event_id, affiliation)
    entered = EnteredTeam.objects.filter(team=team).first()
    after = target if entered is None or target is not None else before
    detail = f"{team.affiliation or '—'} → {affiliation or '—'}"
    if after == before:
        if before is not None:
            _log(before, ChangeLog.RENAMED, team, detail, by_organiser=True)
        return
    if entered is not None:
        entered.link = after
        entered.save(update_fields=["link"])
    if before is not None:
        _log(before, ChangeLog.MOVED_OUT, team, detail, by_organiser=True)
    if after is not None:
        _log(after, ChangeLog.MOVED_IN, team, detail, by_organiser=True)


def moved_away(link, teams=None) -> list[ChangeLog]:
    """The link's teams the organisers gave to another club (its ``MOVED_OUT`` log lines, newest
    first) that are no longer the link's (``teams``: its teams when already read)."""
    mine = {t.pk for t in (link.teams() if teams is None else teams)}
    return [c for c in link.changes.filter(what=ChangeLog.MOVED_OUT) if c.team_id not in mine]


def remove_club_team(link, team, base_version=None) -> None:
    """Remove one of the club's teams before the deadline; refused once it is drawn into a group
    (the organiser withdraws it then) or when someone saved it in between (``StaleEdit``)."""
    _require_open(link, team)
    _require_rate(link)
    if team.group_id is not None:
        raise UserError(_("This team is already drawn into a group: ask the organisers to withdraw it."))
    with transaction.atomic():
        versions.claim(team, base_version)
        _log(link, ChangeLog.REMOVED, team, describe_change(None, snapshot(team)))
        team.delete()


def report_absence(link, player: Player, absent: bool, now=None) -> None:
    """Report one of the club's players absent (or withdraw the report) on the event's day.

    Raises ``UserError`` on another day or for a revoked link; the organiser sees the report on
    the team list and the reception list."""
    found = state(link, now)
    if not found.event_day:
        raise UserError(_("Absences are reported on the day of the tournament."))
    _require_rate(link)
    with transaction.atomic():
        if absent:
            _obj, created = AbsenceReport.objects.get_or_create(player=player, defaults={"link": link})
        else:
            created = AbsenceReport.objects.filter(player=player).delete()[0] > 0
        if created:
            _log(link, ChangeLog.ABSENT if absent else ChangeLog.PRESENT, player.team, player.name)


def absent_players(event) -> dict[int, datetime.datetime]:
    """The event's players reported absent: player id → when it was reported."""
    return dict(
        AbsenceReport.objects.filter(player__team__division__event=event).values_list("player_id", "reported_at")
    )
