"""The documents of the public JSON API v1 (``docs/api.md``), built from the read side.

Plain dicts and lists ready for ``JsonResponse``. No personal data: teams appear with
their id, name and affiliation only (the same rule as the public pages), never players.
Times are ISO 8601 in Japan time (+09:00); cards are counts of cards.
"""

from __future__ import annotations

import hashlib

from django.db.models import Max
from django.urls import reverse
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from common import page_cache
from common.dates import TOKYO
from judging.models import HistoryEntry, RecordingSheet
from tournament.models import Match, RunnerUpLot, Team, TieBreak
from tournament.reports import hall
from tournament.reports.bracket import division_brackets, single_champions
from tournament.reports.standings import best_places, event_standings
from tournament.reports.timetable import event_slots, match_line, match_queryset
from tournament.reports.versions import game_figures, row_figures, sheet_figures, team_figures


def iso(moment):
    """An aware datetime as ISO 8601 in Japan time ("2026-11-03T09:30:00+09:00"), or None."""
    return moment.astimezone(TOKYO).isoformat() if moment is not None else None


def last_change(event):
    """The newest moment (aware datetime) a game or recording sheet of ``event`` changed,
    as far as the database records it cheaply; the event's creation when nothing newer."""
    sheets = RecordingSheet.objects.filter(match__event=event).aggregate(
        submitted=Max("submitted_at"), confirmed=Max("confirmed_at")
    )
    matches = event.matches.aggregate(moved=Max("changed_at"), started=Max("actual_start"), ended=Max("actual_end"))
    moments = [event.created_at, *sheets.values(), *matches.values()]
    return max(m for m in moments if m is not None)


VERSION_KEY = "event-version:{pk}"


def event_version(event):
    """A short text (16 hex digits) that changes whenever what the public pages and the API
    show of ``event`` changes: a result submitted, confirmed or sent back, a game started,
    ended, moved, voided, seeded, added, kept or replayed, a lot or play-off recorded, a team
    edited or withdrawn. Pages carry the
    version they were made from and ``static/js/public_refresh.js`` compares it with the
    events document's ``version`` (docs/api.md).

    Every phone's poll and every public page asks for it (issue 31, item 3: it was a quarter
    of the server's time under a full hall's polls), so it is computed once per data version
    (``common.page_cache.data_version``: bumped when a write to the tournament commits) and
    kept in the shared cache for at most ``page_cache.FRESH_SECONDS`` (a write that bypasses
    the signals, ``QuerySet.update``, shows by then). Computed afresh, and not kept, while
    this connection's transaction holds writes not yet committed (they are not in the data
    version yet). The data version is read *before* the queries, so a version computed
    across a commit is kept under the older data version and never served after it. After a
    write, one request computes it while the others wait for it
    (``page_cache.kept_per_data_version``). A cache in trouble: computed every time (six
    aggregate queries, whatever the size)."""
    return page_cache.kept_per_data_version(VERSION_KEY.format(pk=event.pk), lambda: compute_event_version(event))


def compute_event_version(event):
    """``event_version`` from the database, never from the cache: six aggregate queries,
    whatever the size."""
    sheets = RecordingSheet.objects.filter(match__event=event).aggregate(**sheet_figures())
    matches = event.matches.aggregate(**game_figures())
    ties = TieBreak.objects.filter(group__division__event=event).aggregate(**row_figures())
    lots = RunnerUpLot.objects.filter(division__event=event).aggregate(**row_figures())
    # Every line of a game's history (kept, replayed, teams changed, started …) and every edit
    # or withdrawal of a team (its version counter) changes what the pages show too.
    history = HistoryEntry.objects.filter(match__event=event).aggregate(**row_figures())
    teams = Team.objects.filter(division__event=event).aggregate(**team_figures())
    parts = (sheets, matches, ties, lots, history, teams)
    text = repr(tuple(sorted(part.items()) for part in parts))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def team(team):
    """A team as the API shows it: ``{"id", "name", "affiliation"}``, or None (to be decided)."""
    if team is None:
        return None
    return {"id": team.pk, "name": team.name, "affiliation": team.affiliation}


def result(match, sheet):
    """The confirmed result of a game, or None: cards of each side, the winning side ("A"
    or "B"), how it was decided ("cards", "joker", "rps", "walkover")."""
    if sheet is None or not match.has_result:
        return None
    winner = None
    if match.winner_id is not None:
        winner = "A" if match.winner_id == match.team_a_id else "B"
    return {
        "cards_a": sheet.cards_a,
        "cards_b": sheet.cards_b,
        "winner": winner,
        "decided_by": sheet.decided_by,
        "walkover": sheet.is_walkover,
    }


def _side(slot):
    """Where one side of a game after the groups comes from: its slot's words (active language),
    whether the team filling it is final, whether it changed after the game was played, and for a
    kept result (``kept``) who fills the place now (``now``: a team name, null for nobody yet)."""
    return {
        "slot": slot.label or None,
        "short": slot.short or None,
        "slot_final": slot.final,
        "changed": slot.changed,
        "kept": slot.kept,
        "now": (slot.now or None) if slot.kept else None,
    }


def match_json(line):
    """One game (a ``reports.MatchLine``) as the API shows it: ``sides`` is null for a group
    game, else ``{"a": {"slot", "short", "slot_final", "changed"}, "b": …}``; ``out_of_date``
    is true for a started or played game a later change reached (``out_of_date_places`` names
    the places that changed); ``kept`` is true for such a game whose played result the organiser
    kept (``kept_text``: 「保留: <note> ・ A2は現在かもめ台B」, and each kept side's ``now``);
    ``status`` is "annulled" (and ``annulled`` true) for a group game
    a withdrawal annulled (``reports.timetable.is_annulled``: it counts for nobody)."""
    slots = line.slots
    return {
        "number": line.number,
        "court": line.court or None,
        "start": iso(line.start),
        "division": line.division,
        "stage": line.stage,
        "stage_text": line.stage_text,
        "group": line.group or None,
        "team_a": team(line.team_a),
        "team_b": team(line.team_b),
        "status": line.status_code,
        "annulled": line.annulled,
        "result": result(line.match, line.sheet),
        "sides": {"a": _side(slots.a), "b": _side(slots.b)} if slots else None,
        "out_of_date": line.out_of_date,
        "out_of_date_places": slots.changed_places if slots else [],
        "kept": bool(slots and slots.kept),
        "kept_text": (slots.kept_text or None) if slots else None,
    }


def event_summary(event):
    """An event in the events list, with the addresses of its documents and its ``version``
    (``event_version``: changes whenever a document of the event changes)."""
    return {
        "slug": event.slug,
        "title": event.title,
        "date": event.date.isoformat(),
        "venue": event.venue,
        "archived": event.visibility == event.Visibility.ARCHIVED,
        "version": event_version(event),
        "links": {
            kind: reverse(f"api:{kind}", args=[event.slug]) for kind in ("timetable", "results", "standings", "bracket")
        },
    }


def _event_head(event):
    return {"slug": event.slug, "title": event.title, "date": event.date.isoformat()}


def events_document(events):
    """``/api/v1/events/``: the events given (the view leaves drafts out), newest first as given."""
    return {"events": [event_summary(e) for e in events]}


def timetable_document(event):
    """``/api/v1/events/<slug>/timetable``: every game by match number."""
    slots = event_slots(event)
    return {"event": _event_head(event), "games": [match_json(match_line(m, slots)) for m in match_queryset(event)]}


def results_document(event):
    """``/api/v1/events/<slug>/results``: the games with a confirmed result, newest number first."""
    matches = match_queryset(event).played()
    slots = event_slots(event)
    return {
        "event": _event_head(event),
        "games": [match_json(match_line(m, slots)) for m in matches.order_by("-match_number")],
    }


def _standing_row(line):
    return {
        "rank": line.rank,
        "rank_text": line.rank_text,
        "tied": line.tied,
        "team": team(line.team),
        "withdrawn": line.withdrawn,
        "annulled": line.annulled,
        "mark": str(line.mark),
        "provisional": line.provisional,
        "games_left": line.games_left,
        "played": line.played,
        "wins": line.wins,
        "losses": line.losses,
        "cards_taken": line.cards_taken,
        "cards_conceded": line.cards_conceded,
        "card_diff": line.card_diff,
        "joker_wins": line.joker_wins,
        "rps_wins": line.rps_wins,
        "decided_by": line.decided_by,
        "decided_by_text": line.decided_by_text,
    }


def standings_document(event):
    """``/api/v1/events/<slug>/standings``: per division and group, the ranked rows."""
    return {
        "event": _event_head(event),
        "divisions": [
            {
                "id": division.pk,
                "name": division.name,
                "criteria": list(division.criteria),
                "criteria_text": division.criteria_text,
                "groups": [
                    {
                        "name": g.group.name,
                        "court": g.group.court.name if g.group.court else None,
                        "complete": g.complete,
                        "provisional": g.provisional,
                        "games_left": g.games_left,
                        "rows": [_standing_row(line) for line in g.lines],
                    }
                    for g in groups
                ],
                "best_places": _best_places(best_places(division, [g.table for g in groups])),
            }
            for division, groups in event_standings(event)
        ],
    }


def _best_places(best):
    """The comparison across groups that decides the best runners-up, or null (docs/api.md)."""
    if best is None:
        return None
    return {
        "place": best.place,
        "count": best.count,
        "final": best.final,
        "text": best.text,
        "rows": [
            {
                "rank_text": line.rank_text,
                "team": team(line.team),
                "group": line.group.name,
                "played": line.played,
                "wins_per_game": line.wins_per_game,
                "card_diff_per_game": line.card_diff_per_game,
                "cards_taken_per_game": line.cards_taken_per_game,
                "decided_by": line.decided_by,
                "decided_by_text": line.decided_by_text,
                "qualifies": line.qualifies,
            }
            for line in best.lines
        ],
    }


def _bracket_match(match, slots):
    source_a, source_b = (
        (slots[match.pk].a.short or None, slots[match.pk].b.short or None) if match.pk in slots else (None, None)
    )
    return {
        **match_json(match_line(match, slots)),
        "round": match.round,
        "position": match.bracket_position,
        "sources": {"a": source_a, "b": source_b},
    }


def bracket_document(event):
    """``/api/v1/events/<slug>/bracket``: per division, its knockout games with their round,
    position, stage and sources ("A1": winner of group A, "2-1": the best runner-up, "W12":
    winner of game 12, "L12": its loser), the joint third place and the places decided so far
    (``to_confirm``: the place comes from a game that is out of date; ``decided_by``: "knockout",
    or "group" for a division whose only qualifier is its champion: no games, ``single_qualifier``
    true, its champion the winner of ``group``)."""
    divisions = [
        {
            "id": b.division.pk,
            "name": b.division.name,
            "single_qualifier": False,
            "games": [_bracket_match(g, b.slots) for g in b.matches],
            "joint_third": [team(t) for t in b.joint_third],
            "places": [
                {"place": place, "team": team(t), "to_confirm": check, "decided_by": "knockout"}
                for place, t, check in b.checked_places()
            ],
        }
        for b in division_brackets(event)
    ]
    divisions += [
        {
            "id": c.division.pk,
            "name": c.division.name,
            "single_qualifier": True,
            "group": c.group.name,
            "games": [],
            "joint_third": [],
            "places": [{"place": 1, "team": team(c.team), "to_confirm": False, "decided_by": "group"}],
        }
        for c in single_champions(event)
    ]
    return {"event": _event_head(event), "divisions": divisions}


# A level game on the ticker says how it was decided: by 「り」 or by じゃんけん.
TICKER_DECIDED = {"joker": lambda: "り", "rps": lambda: _("rock-paper-scissors")}


def ticker_item(line):
    """One newly confirmed result for the screens' ticker: the game and its line of text."""
    match = line.match
    where = str(match.group) if match.group else line.stage_text
    parts = [
        _("Game %(number)s") % {"number": line.number},
        str(match.court) if match.court else "",
        line.division,
        where,
    ]
    result = line.result
    sheet = line.sheet
    if sheet is not None and not sheet.is_walkover and sheet.decided_by in TICKER_DECIDED:
        # a level game (28-28): how it was decided and who won
        winner = line.match.winner.name if line.match.winner is not None else ""
        result += f" ({TICKER_DECIDED[sheet.decided_by]()}) {_('winner')}: {winner}"
    text = " ".join(p for p in parts if p) + f"  {line.team_a_text} {result} {line.team_b_text}"
    return {"number": line.number, "text": text, "game": match_json(line)}


def hall_document(event, now):
    """What the hall screens poll (``/e/<slug>/display/state.json``): ``version`` (changes
    whenever a screen's page may have changed, ``reports.hall.hall_version``), the
    announcements shown at ``now`` (``id``, ``text``, ``until`` in ISO 8601) and the ticker of
    the newest confirmed results (``number``, ``text`` in the active language, ``game``).
    docs/hall-screens.md."""
    version = event_version(event)
    shown = hall.announcements_now(event, now)
    return {
        "event": _event_head(event),
        "version": hall.hall_version(event, now, version, shown),
        "announcements": [{"id": a.pk, "text": a.text, "until": iso(a.shown_until)} for a in shown],
        "ticker": ticker(event, version),
    }


TICKER_KEY = "hall-ticker:{pk}:{version}:{language}"


def ticker(event, version):
    """The ticker items (``ticker_item``) of ``event``'s newest confirmed results
    (``reports.hall.recent_results``), in the active language; kept in the shared cache per
    event version (``version``: ``event_version(event)``), which changes with every result,
    for ``page_cache.KEEP_SECONDS``: every screen's poll read them afresh (issue 31, item 3)."""
    key = TICKER_KEY.format(pk=event.pk, version=version, language=get_language())
    items = page_cache.cache_get(key)
    if items is None:
        items = [ticker_item(line) for line in hall.recent_results(event)]
        page_cache.cache_set(key, items, page_cache.KEEP_SECONDS)
    return items


# --------------------------------------------------------------------------- the contract
#
# The JSON Schema (2020-12, as OpenAPI 3.1 uses) of every document above, written beside the
# code that shapes it; ``openapi_document`` assembles them into ``/api/v1/openapi.json`` and
# tests/api/test_openapi.py validates every answer of a played event against it.


def _nullable(schema):
    """``schema`` or null."""
    return {"anyOf": [schema, {"type": "null"}]}


def _ref(name):
    return {"$ref": f"#/components/schemas/{name}"}


def _object(properties, required=None):
    """A closed object: every property listed is present (unless ``required`` says fewer) and
    no other one."""
    return {
        "type": "object",
        "properties": properties,
        "required": list(properties) if required is None else required,
        "additionalProperties": False,
    }


_TEXT = {"type": "string"}
_TEXT_OR_NULL = {"type": ["string", "null"]}
_INT = {"type": "integer"}
_COUNT = {"type": "integer", "minimum": 0}
_BOOL = {"type": "boolean"}
_NUMBER = {"type": "number"}
_DATE = {"type": "string", "format": "date"}
_MOMENT = {"type": ["string", "null"], "format": "date-time", "description": "ISO 8601 in Japan time (+09:00)"}
_STAGES = [s.value for s in Match.Stage]

SCHEMAS = {
    "Team": _object({"id": _INT, "name": _TEXT, "affiliation": _TEXT}),
    "Result": _object(
        {
            "cards_a": _COUNT,
            "cards_b": _COUNT,
            "winner": {"enum": ["A", "B", None]},
            "decided_by": {"enum": ["cards", "joker", "rps", "walkover"]},
            "walkover": _BOOL,
        }
    ),
    "Side": _object(
        {
            "slot": _TEXT_OR_NULL,
            "short": _TEXT_OR_NULL,
            "slot_final": _BOOL,
            "changed": _BOOL,
            "kept": _BOOL,
            "now": _TEXT_OR_NULL,
        }
    ),
    "Game": _object(
        {
            "number": {"type": "integer", "minimum": 1, "description": "match number (試合番号)"},
            "court": _TEXT_OR_NULL,
            "start": _MOMENT,
            "division": _TEXT,
            "stage": {"enum": _STAGES},
            "stage_text": _TEXT,
            "group": _TEXT_OR_NULL,
            "team_a": _nullable(_ref("Team")),
            "team_b": _nullable(_ref("Team")),
            "status": {"enum": [*(s.value for s in Match.Status), "annulled"]},
            "annulled": _BOOL,
            "result": _nullable(_ref("Result")),
            "sides": _nullable(_object({"a": _ref("Side"), "b": _ref("Side")})),
            "out_of_date": _BOOL,
            "out_of_date_places": {"type": "array", "items": _TEXT},
            "kept": _BOOL,
            "kept_text": _TEXT_OR_NULL,
        }
    ),
    "EventHead": _object({"slug": _TEXT, "title": _TEXT, "date": _DATE}),
    "EventSummary": _object(
        {
            "slug": _TEXT,
            "title": _TEXT,
            "date": _DATE,
            "venue": _TEXT,
            "archived": _BOOL,
            "version": {"type": "string", "pattern": "^[0-9a-f]{16}$"},
            "links": _object({kind: _TEXT for kind in ("timetable", "results", "standings", "bracket")}),
        }
    ),
    "Events": _object({"events": {"type": "array", "items": _ref("EventSummary")}}),
    "Timetable": _object({"event": _ref("EventHead"), "games": {"type": "array", "items": _ref("Game")}}),
    "Results": _object({"event": _ref("EventHead"), "games": {"type": "array", "items": _ref("Game")}}),
    "StandingRow": _object(
        {
            "rank": _nullable(_INT),
            "rank_text": _TEXT,
            "tied": _BOOL,
            "team": _ref("Team"),
            "withdrawn": _BOOL,
            "annulled": _BOOL,
            "mark": _TEXT,
            "provisional": _BOOL,
            "games_left": _COUNT,
            "played": _COUNT,
            "wins": _COUNT,
            "losses": _COUNT,
            "cards_taken": _COUNT,
            "cards_conceded": _COUNT,
            "card_diff": _INT,
            "joker_wins": _COUNT,
            "rps_wins": _COUNT,
            "decided_by": _TEXT_OR_NULL,
            "decided_by_text": _TEXT_OR_NULL,
        }
    ),
    "BestPlaces": _object(
        {
            "place": _INT,
            "count": _COUNT,
            "final": _BOOL,
            "text": _TEXT,
            "rows": {
                "type": "array",
                "items": _object(
                    {
                        "rank_text": _TEXT,
                        "team": _ref("Team"),
                        "group": _TEXT,
                        "played": _COUNT,
                        "wins_per_game": _NUMBER,
                        "card_diff_per_game": _NUMBER,
                        "cards_taken_per_game": _NUMBER,
                        "decided_by": _TEXT_OR_NULL,
                        "decided_by_text": _TEXT_OR_NULL,
                        "qualifies": _BOOL,
                    }
                ),
            },
        }
    ),
    "Standings": _object(
        {
            "event": _ref("EventHead"),
            "divisions": {
                "type": "array",
                "items": _object(
                    {
                        "id": _INT,
                        "name": _TEXT,
                        "criteria": {"type": "array", "items": _TEXT},
                        "criteria_text": _TEXT,
                        "groups": {
                            "type": "array",
                            "items": _object(
                                {
                                    "name": _TEXT,
                                    "court": _TEXT_OR_NULL,
                                    "complete": _BOOL,
                                    "provisional": _BOOL,
                                    "games_left": _COUNT,
                                    "rows": {"type": "array", "items": _ref("StandingRow")},
                                }
                            ),
                        },
                        "best_places": _nullable(_ref("BestPlaces")),
                    }
                ),
            },
        }
    ),
    "BracketGame": {
        "allOf": [
            {"$ref": "#/components/schemas/GameFields"},
            {
                "type": "object",
                "properties": {
                    "round": _INT,
                    "position": _nullable(_INT),
                    "sources": _object({"a": _TEXT_OR_NULL, "b": _TEXT_OR_NULL}),
                },
                "required": ["round", "position", "sources"],
            },
        ],
        "unevaluatedProperties": False,
    },
    "Bracket": _object(
        {
            "event": _ref("EventHead"),
            "divisions": {
                "type": "array",
                "items": _object(
                    {
                        "id": _INT,
                        "name": _TEXT,
                        "single_qualifier": _BOOL,
                        "group": _TEXT,
                        "games": {"type": "array", "items": _ref("BracketGame")},
                        "joint_third": {"type": "array", "items": _ref("Team")},
                        "places": {
                            "type": "array",
                            "items": _object(
                                {
                                    "place": _INT,
                                    "team": _nullable(_ref("Team")),
                                    "to_confirm": _BOOL,
                                    "decided_by": {"enum": ["knockout", "group"]},
                                }
                            ),
                        },
                    },
                    required=["id", "name", "single_qualifier", "games", "joint_third", "places"],
                ),
            },
        }
    ),
    "Error": {
        "type": "object",
        "properties": {"error": _TEXT, "status": _INT},
        "required": ["error", "status"],
    },
}
# A bracket game is a game with three more fields: the game's properties, open for them
# (BracketGame's ``unevaluatedProperties`` still refuses any other field).
SCHEMAS["GameFields"] = {k: v for k, v in SCHEMAS["Game"].items() if k != "additionalProperties"}

# (name in the URL, its schema, summary) of each event document, in the order of docs/api.md.
EVENT_DOCUMENTS = (
    ("timetable", "Timetable", "Every game, by match number"),
    ("results", "Results", "The games with a confirmed result, newest number first"),
    ("standings", "Standings", "Per division and group, the ranked rows"),
    ("bracket", "Bracket", "Per division, the knockout games, joint third and places"),
)


def _operation(operation_id, summary, schema, parameters=()):
    error = {"application/json": {"schema": _ref("Error")}}
    return {
        "get": {
            "operationId": operation_id,
            "summary": summary,
            "parameters": list(parameters),
            "responses": {
                "200": {
                    "description": summary,
                    "headers": {
                        "ETag": {"schema": _TEXT, "description": "a hash of the body"},
                        "Last-Modified": {"schema": _TEXT},
                    },
                    "content": {"application/json": {"schema": _ref(schema)}},
                },
                "304": {"description": "Not modified: the ETag sent in If-None-Match is current"},
                "404": {"description": "Unknown event or path (a draft event too)", "content": error},
                "405": {"description": "A method other than GET or HEAD", "content": error},
            },
        }
    }


def openapi_document(server="/api/v1"):
    """The OpenAPI 3.1 document of API v1 (a dict): every path the API answers, each answer's
    schema (``SCHEMAS``) and the errors; ``server`` is the API's base address."""
    slug = {"name": "slug", "in": "path", "required": True, "schema": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}}
    paths = {"/events/": _operation("events", "The public and archived events, newest first", "Events")}
    for kind, schema, summary in EVENT_DOCUMENTS:
        paths[f"/events/{{slug}}/{kind}"] = _operation(kind, summary, schema, [slug])
    return {
        "openapi": "3.1.0",
        "jsonSchemaDialect": "https://json-schema.org/draft/2020-12/schema",
        "info": {
            "title": "Hitachi Folk Karuta tournament manager: public API",
            "version": "1",
            "description": "Read-only, no login, no personal data. Times in Japan time (+09:00). docs/api.md.",
        },
        "servers": [{"url": server}],
        "paths": paths,
        "components": {"schemas": SCHEMAS},
    }
