"""Placement games (順位決定戦) of a division: whether its groups are ready, which games it gets,
and writing them. ``tournament.services.placement.create_placement_games`` and the seeding of
each division (``tournament.services.knockout.seed_divisions``) use these; this module places
games with the placer it is given, so that neither imports the other in a circle.

The rules are in ``docs/rules/stages.md`` ("Placement games"); the pairing is
``tournament.engine.placement``.
"""

from __future__ import annotations

from django.db.models import Max
from django.utils.translation import gettext as _

from common.errors import UserError
from tournament.engine import placement, slots
from tournament.models import Match
from tournament.reports.placement import place_name, placement_title


def _where(division, group):
    return _("%(division)s・%(group)s") % {"division": division.name, "group": group}


def require_complete(division, tables):
    """``UserError`` naming the division, each group still playing and its games without a
    confirmed result, unless every group of ``division`` (``tables``: its ``RankedGroup``s)
    is complete."""
    waiting = [table for table in tables if not table.complete]
    if not waiting:
        return
    open_games = Match.objects.filter(division=division).group_stage().open()
    parts = [
        _("%(where)s has %(count)s games without a confirmed result.")
        % {"where": _where(division, table.group), "count": open_games.filter(group=table.group).count()}
        for table in waiting
    ]
    # Sentences follow each other with a space in English, none after a Japanese 。.
    raise UserError(" ".join([_("The groups are still playing."), *parts]).replace("。 ", "。"))


def pairs_problem(division_name, text, names):
    """The reason (in the active language, naming the division and the bad part) why ``text``
    cannot pair the groups ``names`` (in order) of division ``division_name``, or None when it
    can. With no groups yet (``names`` empty) only the form of the text is checked."""
    try:
        if names:
            placement.parse_pairs(text, names)
        else:
            placement.check_format(text)
    except placement.PairsError as error:
        return pairs_error_text(division_name, error, names)
    return None


def pairs_error_text(division_name, error, names):
    """A ``placement.PairsError`` in words, naming the division and the bad part of the text."""
    values = {"division": division_name, "part": error.part, "groups": "、".join(error.groups)}
    if error.code == "format":
        return _("%(division)s: “%(part)s” is not a pair of groups; write pairs like “A-B, C-D”.") % values
    if error.code == "unknown":
        values["names"] = "、".join(names)
        return _("%(division)s: there is no group “%(part)s” (its groups: %(names)s).") % values
    if error.code == "twice":
        return _("%(division)s: group “%(part)s” is written twice.") % values
    return (
        _(
            "%(division)s: groups %(groups)s are in no pair. Every group is in one pair; only with an odd "
            "number of groups is one group left over."
        )
        % values
    )


def plan_placement(division, tables, first_place, *, required=True):
    """The placement games (``placement.PlacementGame``) of ``division`` from ``first_place`` on,
    its groups sized by their teams that have not withdrawn (``tables``: its ``RankedGroup``s,
    in group order), paired by ``Division.placement_pairs`` (blank: two by two in order).
    ``UserError`` naming the division when the pair text is bad, when "both" has best runners-up
    (their place would be split between the knockout and the placement games), or when no game
    results (a single group, or groups no deeper than the knockout's places) and ``required``."""
    if division.after_groups == "both" and division.best_runners_up:
        raise UserError(
            _(
                "%(division)s: placement games below a knockout need whole places in the knockout; "
                "set the best runners-up to 0."
            )
            % {"division": division.name}
        )
    sizes = [
        placement.GroupSize(
            table.group.pk, table.group.name, sum(1 for row in table.rows if not table.teams[row.team].withdrawn)
        )
        for table in tables
    ]
    names = [size.name for size in sizes]
    try:
        pairs = placement.parse_pairs(division.placement_pairs, names)
    except placement.PairsError as error:
        raise UserError(pairs_error_text(division.name, error, names)) from None
    games = placement.plan(sizes, pairs, first_place)
    if not games and required:
        raise UserError(
            _("%(division)s has no placement game to play: a single group, or no place both groups of a pair have.")
            % {"division": division.name}
        )
    return games


def write_placement_games(event, division, games, placer):
    """Write ``games`` (``plan_placement``) as ``Match.Stage.PLACEMENT`` games of ``division``:
    ``round`` the place, ``bracket_position`` the pair, each side the reference of its group
    place, numbered after the event's last game, each placed by ``placer`` (a
    ``tournament.services.knockout._Placer``: after the games of both groups). Teams come later, from the references
    (``judging.services.refresh_slots``). Returns the games written."""
    number = (event.matches.aggregate(m=Max("match_number"))["m"] or 0) + 1
    written = []
    for game in games:
        match = Match(
            event=event,
            division=division,
            stage=Match.Stage.PLACEMENT,
            round=game.place,
            bracket_position=game.pair,
            match_number=number,
            source_a=slots.group_place(game.group_a, game.place),
            source_b=slots.group_place(game.group_b, game.place),
        )
        placer.place(match)
        match.save()
        placer.saved(match)
        written.append(match)
        number += 1
    return written


def following_games(division):
    """What follows the groups of ``division`` under its saved settings, for the division form:
    ``(titles, left_over)``: the placement games' titles ("1位決定戦（A-B）") by place and pair,
    and sentences naming the group places that play none; ``([], [])`` when the division plays
    no placement games, has no groups yet or its pair text is bad (the form says why)."""
    if division.pk is None or division.after_groups not in ("placement", "both"):
        return [], []
    groups = list(division.groups.all())
    sizes = [placement.GroupSize(g.pk, g.name, g.teams.filter(withdrawn=False).count()) for g in groups]
    try:
        pairs = placement.parse_pairs(division.placement_pairs, [g.name for g in groups])
    except placement.PairsError:
        return [], []
    first = division.qualifiers_per_group + 1 if division.after_groups == "both" else 1
    games = placement.plan(sizes, pairs, first)
    name = {g.pk: g.name for g in groups}
    titles = [placement_title(game.place, f"{name[game.group_a]}-{name[game.group_b]}") for game in games]
    played = {(game.place, gid) for game in games for gid in (game.group_a, game.group_b)}
    left_over = [
        _("%(group)s place %(place)s plays no placement game.") % {"group": g, "place": place}
        for g, size in zip(groups, sizes, strict=True)
        for place in range(first, size.size + 1)
        if (place, g.pk) not in played
    ]
    return titles, left_over


def shared_places_text(division_name, names, sizes, text, first_place=1):
    """The sentence, in the active language, that warns the organiser before saving a format
    whose placement games leave final places shared (``placement.shared_ranks``; with four
    groups two teams are 第1位: two certificates of the first place, two teams on the top of the
    podium), naming the shared places and the alternative; None when every place has one team
    or the pair text is bad (the form names that). ``names``/``sizes``: the groups in order
    and how many teams each places."""
    try:
        pairs = placement.parse_pairs(text, names)
    except placement.PairsError:
        return None
    groups = [placement.GroupSize(i, name, size) for i, (name, size) in enumerate(zip(names, sizes, strict=True))]
    shared = placement.shared_ranks(groups, pairs, first_place)
    if not shared:
        return None
    places = "、".join(
        _("%(place)s: %(teams)s teams") % {"place": place_name(rank, shared=True), "teams": teams}
        for rank, teams in shared[:4]
    ) + ("…" if len(shared) > 4 else "")
    values = {"division": division_name, "places": places}
    if first_place == 1:
        return (
            _(
                "%(division)s: these placement games give shared places (%(places)s): each of those teams "
                "gets the place's certificate, and the teams sharing the first place all stand on the top of "
                "the podium. For one champion, choose “knockout for the qualifiers, placement games for the "
                "others” (the group winners play a knockout); or tick “keep the shared places”."
            )
            % values
        )
    return (
        _(
            "%(division)s: the placement games below the knockout give shared places (%(places)s): each of "
            "those teams gets the place's certificate. Pair fewer groups for places of their own, or tick "
            "“keep the shared places”."
        )
        % values
    )
