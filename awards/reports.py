"""Who gets what: the certificates of an event, per division, with their print status.

Read only; the pages, the PDFs and the commands of the awards desk all read this module. The
places come from the read side as the 成績一覧 shows them (``tournament.reports``: the
knockout's places, a single qualifier's title, the placement games' places; a division whose
groups are the result has its one group's order). The rules are in ``docs/rules/awards.md``.
Players' names are personal data: organiser outputs only.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from functools import cached_property

from django.db.models import Count, prefetch_related_objects
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from awards.engine.numerals import kanji_numerals
from awards.models import AwardSettings, HandPrize, PrintLog
from awards.text import CertificateText, PaperLayout, era_date, fill_body
from common import page_cache
from common.pdf.coverage import unprintable_notes
from judging.models import PlayerCards
from tournament.models import Player, Team
from tournament.reports import is_annulled, match_queryset
from tournament.reports.individual import individual_totals
from tournament.reports.placement import place_name as page_place_name
from tournament.reports.ranking import division_rankings
from tournament.reports.standings import division_standings, standing_lines

NOT_PRINTED, PRINTED, CHANGED = "not_printed", "printed", "changed"
PLACE, INDIVIDUAL, HAND = "place", "individual", "hand"


def place_name(rank, shared=False):
    """A place as a certificate prints it (always Japanese, docs/rules/awards.md): 「優勝」,
    「準優勝」, 「第N位」 (a shared place is always 「第N位」)."""
    if rank == 1 and not shared:
        return "優勝"
    if rank == 2 and not shared:
        return "準優勝"
    return f"第{rank}位"


@dataclass
class Prize:
    """One prize of a division: a place (``rank``), the individual prize or a prize added by
    hand, to a ``team`` (its members or its name) or to one ``player``. ``code`` identifies
    the prize's slot, not its winner, so a correction that changes the winner changes the
    text under the same key. ``tied``: how many share this individual prize (1: no tie)."""

    division: object
    kind: str
    name: str
    rank: int
    team: object
    code: str
    player: object = None
    tied: int = 1
    hand: object = None

    @property
    def label(self):
        """The prize in the active language, for the pages (the certificate keeps ``name``,
        always Japanese: docs/rules/awards.md): a place by its rank ("Champion", "3rd place";
        「優勝」「第3位」 in Japanese); a prize the organisers named, as typed (issue 27)."""
        if self.kind == PLACE:
            return page_place_name(self.rank, shared=self.name not in ("優勝", "準優勝"))
        return self.name


@dataclass
class Certificate:
    """One certificate: its ``key`` in the print log, the ``prize``, the ``member`` named on it
    (None: the team's name or the prize's player), its ``text``, the text's ``fingerprint``
    and the print ``status`` (``NOT_PRINTED``, ``PRINTED``, ``CHANGED``)."""

    key: str
    prize: Prize
    member: object
    text: CertificateText
    fingerprint: str
    status: str = NOT_PRINTED
    printed_at: object = None
    printed_log: object = None  # the latest PrintLog of its key, None when never printed

    @property
    def summary(self):
        """「小学生の部 優勝 赤チーム 日立 一郎」: one line for the print log and the pages."""
        parts = [self.text.division, self.text.place, self.text.team, self.text.recipient]
        return " ".join(p for p in parts if p)[:200]

    @cached_property
    def font_notes(self):
        """One sentence per character of the certificate's texts that no installed font can
        print (「𠮷 (U+20BB7) は印刷できません: 〓 になります」), shown on its row before printing."""
        return unprintable_notes(text_fields(self.text))

    @property
    def printed_for(self):
        """For a certificate changed since printed: who the paper in the pile names, in words
        (「印刷済みの用紙は 根本 和奏 / 会瀬台子ども会 宛て — 回収してください」); "" otherwise."""
        if self.status != CHANGED or self.printed_log is None:
            return ""
        return printed_for(self.printed_log, self.text.place)

    @property
    def status_text(self):
        return {
            NOT_PRINTED: _("not printed"),
            PRINTED: _("printed"),
            CHANGED: _("changed since printed: reprint"),
        }[self.status]


@dataclass
class DivisionAwards:
    """A division on the awards desk: whether its results are final (``finished``, else the
    ``reason`` in words), its ``prizes`` and their ``certificates``."""

    division: object
    finished: bool
    reason: str
    prizes: list = field(default_factory=list)
    certificates: list = field(default_factory=list)


def text_fields(text: CertificateText) -> list[str]:
    """Every text printed on a certificate, in reading order (the issuers' titles and names too)."""
    fields = [text.title, text.place, text.division, text.team, text.recipient, text.honorific, text.body]
    return fields + [text.date_text] + [part for pair in text.issuers for part in pair]


def fingerprint(text: CertificateText) -> str:
    """A certificate's text as 32 hex characters (SHA-256 of its fields): equal texts only."""
    data = json.dumps(asdict(text), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(data.encode("utf-8")).hexdigest()[:32]


def paper_layout(settings: AwardSettings, *, draw_frame=None) -> PaperLayout:
    """The ``PaperLayout`` of the settings (mm); ``draw_frame`` overrides the setting (the
    preview always draws the frame)."""
    return PaperLayout(
        size=settings.paper_size,
        orientation=settings.orientation,
        margin_top_mm=float(settings.margin_top),
        margin_right_mm=float(settings.margin_right),
        margin_bottom_mm=float(settings.margin_bottom),
        margin_left_mm=float(settings.margin_left),
        offset_x_mm=float(settings.offset_x),
        offset_y_mm=float(settings.offset_y),
        draw_frame=settings.draw_frame if draw_frame is None else draw_frame,
    )


def ranked_places(event, division=None):
    """Division pk -> ``[(rank, shared, Team, to confirm)]``, best first: the final ranking the
    成績一覧 shows (``tournament.reports.ranking.division_rankings``: the knockout's places, a
    single qualifier as champion, the placement games' places; a team listed twice is to
    confirm), with ``shared`` true when several teams hold the rank (joint third …). Every
    division of ``event``, or only ``division`` when given."""
    found = {}
    for ranking in division_rankings(event, division):
        ranks = [line.rank for line in ranking.lines]
        found[ranking.division.pk] = [
            (line.rank, ranks.count(line.rank) > 1, line.team, line.to_confirm) for line in ranking.lines
        ]
    return {pk: places for pk, places in found.items() if places}


def _group_result_places(division):
    """A division whose groups are the result (``after_groups`` "none") and that has one group:
    its order, ``[(rank, shared, Team, to confirm)]`` (a tie is to confirm: it needs a lot);
    [] with several groups (no single order) or games left."""
    tables = division_standings(division)
    if len(tables) != 1 or not tables[0].complete:
        return []
    lines = [line for line in standing_lines(tables[0]) if not line.withdrawn]
    return [(line.rank, line.tied, line.team, line.tied) for line in lines]


def _open_games(event):
    """Division pk -> how many of its games (not annulled, not void) have no confirmed result.
    A division none of whose games can be annulled (its setting
    keeps a withdrawn team's games, or no team withdrew during its groups) is counted by the
    database: building its every open game to ask ``is_annulled`` was a fifth of the team
    page (cProfile; issue 31 item 1)."""
    games = match_queryset(event).not_done()
    annulling = set(
        Team.objects.filter(
            division__event=event, division__withdrawal="annul", withdrawn=True, withdrawn_after_groups=False
        ).values_list("division_id", flat=True)
    )
    counts = dict(
        games.exclude(division__in=annulling)
        .order_by()
        .values_list("division_id")
        .annotate(n=Count("pk"))
        .values_list("division_id", "n")
    )
    for match in games.filter(division__in=annulling):
        if is_annulled(match):
            continue
        counts[match.division_id] = counts.get(match.division_id, 0) + 1
    return counts


def open_games(event) -> dict[int, int]:
    """Division pk -> how many of its games have no confirmed result (not annulled, not void),
    counted once per data version for every team page (``page_cache.kept_per_data_version``);
    a division absent has none left."""
    return page_cache.kept_per_data_version(f"open-games:{event.pk}", lambda: _open_games(event))


def team_page_stamp(event) -> str:
    """A short text that changes when what the awards desk adds to the public team pages
    changes: the prizes added by hand and the award settings (who gets a place prize). Read
    once per data version, and at least every ``page_cache.FRESH_SECONDS`` (the desk's writes
    are not in the data version): the team page's cached fragment is keyed on it beside
    ``reports.versions.team_version``."""

    def compute():
        hands = list(HandPrize.objects.filter(event=event).order_by("pk").values_list())
        settings = list(AwardSettings.objects.filter(event=event).values_list())
        return hashlib.sha256(repr((hands, settings)).encode()).hexdigest()[:16]

    return page_cache.kept_per_data_version(f"awards-stamp:{event.pk}", compute)


def _state(division, open_games, places):
    """(finished, reason): a division is finished when every game has a confirmed result, it has
    final places, and none of them is to confirm (docs/rules/awards.md, "Finished")."""
    if open_games:
        return False, ngettext(
            "%(n)s game without a confirmed result", "%(n)s games without a confirmed result", open_games
        ) % {"n": open_games}
    if not places:
        return False, _("no final places yet (the games after the groups are not played or not made)")
    if any(check for _r, _s, _t, check in places):
        return False, _("a place is to confirm (a game is out of date, or a tie needs a lot)")
    return True, ""


def _individual_prizes(event, settings, division):
    """The individual prizes of ``division``: per block (the division, or each grade), every
    player with the most cards over the group stage (ties: each of them)."""
    if not event.individual_counts or settings.individual_by == AwardSettings.IndividualBy.NONE:
        return []
    totals = individual_totals(event)
    players = Player.objects.filter(pk__in=totals, team__division=division).select_related("team")
    blocks = {}
    for player in players:
        grade = player.grade if settings.individual_by == AwardSettings.IndividualBy.GRADE else ""
        blocks.setdefault(grade, []).append(player)
    prizes = []
    for grade in sorted(blocks):
        best = max(totals[p.pk][0] for p in blocks[grade])
        if best <= 0:
            continue
        winners = sorted(
            (p for p in blocks[grade] if totals[p.pk][0] == best), key=lambda p: (p.team.entry_number, p.order, p.pk)
        )
        name = f"{settings.individual_name}（{grade}）" if grade else settings.individual_name
        for i, player in enumerate(winners):
            code = f"i{grade}:{i}"
            prizes.append(Prize(division, INDIVIDUAL, name, 0, player.team, code, player=player, tied=len(winners)))
    return prizes


def _place_prizes(division, places, settings):
    prizes, seen = [], {}
    for rank, shared, team, _check in places:
        if rank > settings.places_up_to:
            continue
        index = seen.get(rank, 0)
        seen[rank] = index + 1
        prizes.append(Prize(division, PLACE, place_name(rank, shared), rank, team, f"p{rank}:{index}"))
    return prizes


def _hand_prizes(division, hands):
    return [
        Prize(division, HAND, h.name, 0, h.team, f"h{h.pk}", player=h.player, hand=h)
        for h in hands
        if h.division_id == division.pk
    ]


def played_player_ids(event):
    """Ids of the players a confirmed sheet of ``event`` records cards for (they played)."""
    return set(PlayerCards.objects.confirmed().filter(sheet__match__event=event).values_list("player_id", flat=True))


def members(team, settings, played):
    """The members of ``team`` named on certificates and on the MC's list, in entry order: every
    regular member, and a substitute when ``include_substitutes`` is on or a confirmed sheet
    records cards for them (``played``: ``played_player_ids``; docs/rules/awards.md, "Members")."""
    return [p for p in team.players.all() if settings.include_substitutes or not p.is_substitute or p.pk in played]


def certificate_place(prize, kanji):
    """The place as the certificate prints it: a place's 「第3位」 in 漢数字 (「第三位」) when
    ``kanji`` (the settings' option, docs/rules/certificates.md "Numbers"); the individual
    prize's and a hand prize's names as typed."""
    return kanji_numerals(prize.name) if kanji and prize.kind == PLACE else prize.name


def _text(settings, event, prize, recipient, team_name):
    kanji = settings.kanji_numerals
    place = certificate_place(prize, kanji)
    return CertificateText(
        title=settings.title,
        place=place,
        division=prize.division.name,
        recipient=recipient,
        honorific=settings.honorific,
        body=fill_body(settings.body, event, prize.division.name, place, kanji=kanji),
        date_text=era_date(settings.award_date or event.date, kanji=kanji),
        issuers=settings.issuer_lines(),
        team=team_name,
    )


def _certificates(event, settings, prize, per, played):
    """The certificates of one prize: one for its player, or per member / one for the team."""
    base = f"{prize.division.pk}:{prize.code}"
    if prize.player is not None:
        text = _text(settings, event, prize, prize.player.name, prize.team.name)
        return [Certificate(f"{base}:p", prize, prize.player, text, fingerprint(text))]
    if per == AwardSettings.Per.TEAM:
        text = _text(settings, event, prize, prize.team.name, "")
        return [Certificate(f"{base}:t", prize, None, text, fingerprint(text))]
    found = []
    for i, member in enumerate(members(prize.team, settings, played)):
        text = _text(settings, event, prize, member.name, prize.team.name)
        found.append(Certificate(f"{base}:m{i}", prize, member, text, fingerprint(text)))
    return found


#: A print-log line saying the paper of its key was collected or discarded (``PrintLog``).
COLLECTED = PrintLog.COLLECTED


def latest_prints(event):
    """Key -> the latest ``PrintLog`` of each certificate of ``event`` printed so far."""
    latest = {}
    for log in PrintLog.objects.filter(event=event).order_by("key", "-printed_at", "-pk"):
        latest.setdefault(log.key, log)
    return latest


def event_awards(event, *, settings=None, per=None, division=None) -> list[DivisionAwards]:
    """Every division of ``event`` (or only ``division``) with its prizes and certificates.

    In: the event; ``settings`` (``AwardSettings.for_event`` when not given); ``per`` overrides
    the settings' one per member / per team (the command's ``--per``). Out:
    ``[DivisionAwards]`` in division order; a division not finished has no place or
    individual prize (its ``reason`` says why); prizes added by hand always count. Each
    certificate carries its print status from the print log. Raises nothing.
    """
    settings = settings or AwardSettings.for_event(event)
    per = per or settings.per
    places = ranked_places(event)
    left = _open_games(event)
    hands = list(HandPrize.objects.filter(event=event).select_related("team", "player", "division"))
    played = played_player_ids(event)
    prints = latest_prints(event)
    result = []
    divisions = [division] if division is not None else list(event.divisions.all())
    for d in divisions:
        division_places = places.get(d.pk) or (_group_result_places(d) if d.after_groups == "none" else [])
        finished, reason = _state(d, left.get(d.pk, 0), division_places)
        prizes = []
        if finished:
            prizes = _place_prizes(d, division_places, settings) + _individual_prizes(event, settings, d)
        result.append(DivisionAwards(d, finished, reason, prizes + _hand_prizes(d, hands)))
    # One query for the members of every team with a prize (the teams come from several reads).
    prefetch_related_objects([p.team for entry in result for p in entry.prizes], "players")
    for entry in result:
        for prize in entry.prizes:
            entry.certificates += _certificates(event, settings, prize, per, played)
        for cert in entry.certificates:
            log = prints.get(cert.key)
            if log is not None and log.fingerprint != COLLECTED:
                cert.status = PRINTED if log.fingerprint == cert.fingerprint else CHANGED
                cert.printed_at = log.printed_at
                cert.printed_log = log
    return result


def all_certificates(awards, which="all"):
    """The certificates of ``awards`` (``event_awards``) to print: "all", "pending" (not
    printed, or changed since printed) or a key."""
    found = [c for d in awards for c in d.certificates]
    if which == "all":
        return found
    if which == "pending":
        return [c for c in found if c.status != PRINTED]
    return [c for c in found if c.key == which]


def printed_for(log, place=None):
    """What the paper logged by ``log`` (a ``PrintLog``) names, as a sentence telling the desk
    to take it back: its recipient, its team after " / ", its place first when it is not
    ``place`` (the current one). A line logged before these were kept gives its summary.
    docs/rules/awards.md, "The print log"."""
    if log.recipient:
        who = f"{log.recipient} / {log.team}" if log.team else log.recipient
        if log.place and log.place != place:
            who = f"{log.place} {who}"
    else:
        who = log.summary
    return _("printed for %(who)s — take that paper back") % {"who": who}


def orphaned_prints(event, awards):
    """The ``PrintLog`` lines (latest per key) of certificates no longer in the list: a member
    removed, a place no longer given, a prize removed. Their paper should not be handed out:
    each line's ``printed_for`` says which paper (:func:`printed_for`). A key whose latest line
    says its paper was collected or discarded (:data:`COLLECTED`) is left out."""
    keys = {c.key for d in awards for c in d.certificates}
    found = [log for key, log in latest_prints(event).items() if key not in keys and log.fingerprint != COLLECTED]
    for log in found:
        log.printed_for = printed_for(log)
    return found


def team_prizes(event, team) -> list[str]:
    """The prizes ``team`` (a ``Team`` of ``event``) wins, in the active language, for the
    public team page (issue 35): its place prize once its division is finished (the same rule as
    the awards desk: ``event_awards``) and the prizes added by hand to the team. A prize to one
    player (individual, or by hand) is left out: it would name a child. ``[]`` when none."""
    division = team.division
    prizes = []
    # A division with games left is not finished (``_state``): its places are not read.
    if not open_games(event).get(division.pk, 0):
        places = ranked_places(event, division).get(division.pk) or (
            _group_result_places(division) if division.after_groups == "none" else []
        )
        finished, _reason = _state(division, 0, places)
        prizes = _place_prizes(division, places, AwardSettings.for_event(event)) if finished else []
    prizes += _hand_prizes(division, HandPrize.objects.filter(event=event, team=team, player__isnull=True))
    return [str(p.label) for p in prizes if p.team is not None and p.team.pk == team.pk and p.player is None]
