"""Every URL pattern the project declares, and a concrete address for each (issue 27, item 1).

``declared()`` walks Django's URL resolver, so a new page is found without anyone listing it.
``addresses(fixture)`` fills each pattern's parameters from the played day of ``build.py``:
first from ``PARAMS`` (a pattern whose parameters need a particular object), else by the
parameter's name (``DEFAULTS``). A pattern that can be filled neither way is reported by the
coverage test, naming it. ``NOT_VISITED`` lists the patterns the crawl does not open as a page,
each with its reason: endpoints that take POST only (the coverage test checks that a GET
answers 405 or sends the visitor elsewhere) and the admin's catch-all patterns.
"""

import re
from dataclasses import dataclass

from django.urls import URLPattern, URLResolver, get_resolver


@dataclass(frozen=True)
class Declared:
    name: str  # "namespace:name", or the route when the pattern has no name
    route: str  # the pattern as declared, prefixes joined
    params: tuple  # the names of its parameters
    module: str  # the view's module

    @property
    def admin(self):
        return self.name.startswith("admin:")


def _walk(resolver, prefix="", namespace=""):
    for p in resolver.url_patterns:
        route = prefix + str(p.pattern)
        if isinstance(p, URLResolver):
            ns = namespace
            if p.namespace:
                ns = f"{namespace}:{p.namespace}" if namespace else p.namespace
            yield from _walk(p, route, ns)
        elif isinstance(p, URLPattern):
            name = f"{namespace}:{p.name}" if namespace and p.name else (p.name or "")
            params = tuple(p.pattern.regex.groupindex)
            yield Declared(name if p.name else f"{namespace}:{route}", route, params, p.callback.__module__)


def declared():
    """Every URL pattern of the project (admin included), in declaration order."""
    return list(_walk(get_resolver()))


# Patterns the crawl never opens as a page, with the reason. Each is still requested once
# with GET by the coverage test, which fails unless the answer is 405 (or a redirect to the
# page that holds the form): these take POST only.
POST_ONLY = {
    "tournament:programme_texts": "saves the programme's texts from the print page (POST only)",
    "tournament:event_visibility": "the event card's draft / public / archived switch (POST only)",
    "admin:logout": "the admin's log-out (POST only since Django 5)",
    "judging:court_start": "records the start of a game (POST only)",
    "judging:court_sign": "a leader's sign-off (POST only)",
    "judging:court_photo": "uploads the photo of the paper sheet (POST only)",
    "judging:court_heard": "the tablet's report of what it holds (POST only)",
    "judging:confirm_own": "confirms a recorder's own correction (POST only)",
    # The desk's buttons and the groups and schedule pages' steps, one address each (issue 30 item 5).
    "judging:match_confirm": "confirms a version on the desk (POST only; the game's page holds the form)",
    "judging:match_retype": "confirms a version re-typed blind (POST only; the game's page holds the form)",
    "judging:match_reject": "sends a version back (POST only; the game's page holds the form)",
    "judging:match_restore": "restores an older version (POST only; the game's page holds the form)",
    "judging:match_void": "voids a game (POST only; the game's page holds the form)",
    "judging:match_reopen": "reopens a void game (POST only; the game's page holds the form)",
    "judging:match_adopt": "adopts a refused save's values (POST only; the game's page holds the form)",
    "tournament:groups_draw": "draws the groups (POST only; the groups page holds the form)",
    "tournament:team_move": "moves a team to another group (POST only; the groups page holds the form)",
    "tournament:late_team": "adds a late team to a group (POST only; the groups page holds the form)",
    "tournament:schedule_make": "makes the schedule (POST only; the schedule page holds the form)",
    "tournament:schedule_clear": "clears the schedule (POST only; the schedule page holds the form)",
    "tournament:court_delay": "delays a court's games (POST only; the schedule page holds the form)",
    "tournament:court_close": "closes a court (POST only; the schedule page holds the form)",
    "awards:print": "prints certificates and logs them (POST only)",
    "awards:collected": "marks printed papers collected (POST only)",
    "awards:add_prize": "adds a hand prize (POST only)",
    "awards:remove_prize": "removes a hand prize (POST only)",
    "reader:deck_copy": "copies a deck (POST only)",
    "reader:recording_delete": "deletes a recording (POST only)",
    "reader:manage_start": "starts a reading (POST only)",
    "reader:manage_link": "renews or revokes a reader link (POST only)",
    "hanafuda:round_undo": "undoes the last round (POST only)",
    "hanafuda:round_preview": "scores a round before it is saved (POST only, JSON)",
    "dosai:hand_new": "deals a new hand (POST only)",
    "dosai:hand_call": "records a call (POST only)",
    "dosai:hand_undo": "undoes a call (POST only)",
    "dosai:hand_turn_free": "marks cards turned free (POST only)",
    "reader:manage_lines": "the reading's log lines from the reader page (POST only, JSON)",
    "reader:link_lines": "the reading's log lines from a reader link (POST only, JSON)",
    "logout": "logs out (POST only)",
    "club_entry:absent": "reports a player absent (POST only; the club's home page holds the form)",
    "reader:recording_upload": "uploads a recording (POST only; the deck's page holds the form)",
    "series:results_download": "downloads the signed results file (POST only; the exchange page holds the form)",
    "set_language": "sets the language (POST only; the crawl sets it with the language cookie)",
    "people:card_checkin": "receives a scanned card's team (POST only; the card's page holds the form)",
    "webhooks:send_test": "sends the webhook's test message (POST only; the webhook page holds the form)",
}

# Addresses that answer every GET with a redirect on purpose (issue 34 item 5): the crawl checks
# that they redirect, for every role, and counts them crawled.
REDIRECTS = {
    "switch_language": "the language link: sets the language cookie and goes back to the page (302)",
    "api:api/v1/events": "the API's list of events without its slash: 301 to /api/v1/events/",
}

# The admin's own catch-all and redirect patterns: not pages of their own.
ADMIN_NOT_PAGES = {
    "admin:admin/(?P<url>.*)$": "the admin's catch-all (answers 404 or a redirect to the login)",
    "admin:view_on_site": "redirects to the object's page on the site (no model here has one)",
    "admin:autocomplete": "the admin's JSON for autocomplete widgets (no model here uses one)",
    "admin:axes_accessattempt_add": "django-axes' records are written by the login throttle, never added by hand",
    "admin:axes_accesslog_add": "django-axes' records are written by the login throttle, never added by hand",
    "admin:axes_accessfailurelog_add": "django-axes' records are written by the login throttle, never added by hand",
}


# Admin pages of one row of a model the played day has no row of: a tiebreak and a runner-up
# lot exist only after a tie that the seeded demo does not produce (their lists are crawled).
ADMIN_EMPTY = ("admin:tournament_tiebreak_", "admin:tournament_runneruplot_")


def _is_admin_redirect(d):
    # "admin/<app>/<model>/<object_id>/" redirects to ".../change/"
    return d.admin and d.route.endswith("<path:object_id>/") and not d.name.endswith(("_change", "_delete", "_history"))


def not_visited(d):
    """The reason ``d`` is not opened as a page, or ''."""
    if d.name in POST_ONLY:
        return POST_ONLY[d.name]
    if d.name in ADMIN_NOT_PAGES:
        return ADMIN_NOT_PAGES[d.name]
    if d.name.startswith(ADMIN_EMPTY) and not d.name.endswith(("_changelist", "_add")):
        return "a row of a model the played day has none of (only after a tie); its list is crawled"
    if _is_admin_redirect(d):
        return "redirects to the object's change page (crawled)"
    if d.name == "api:api/v1/^.*$":
        return ""
    return ""


def _defaults(f):
    return {
        "slug": f["event"],
        "division": f["division"],
        "court": f["court_number"],
        "team": f["team"],
        "number": f["confirmed_number"],
        "version": f["confirmed_version"],
        "token": f["court_token"],
        "year": f["event_year"],
    }


def _params(f):
    """Pattern name -> its parameters, or a list of them (the pattern is crawled once each)."""
    ev = f["event"]
    return {
        "tournament:public_court": {"slug": ev, "court": f["court_pk"]},
        "tournament:court_display": {"slug": ev, "court": f["court_pk"]},
        "tournament:division_edit": {"slug": ev, "pk": f["division"]},
        "tournament:court_edit": {"slug": ev, "pk": f["court_pk"]},
        "tournament:team_edit": {"slug": ev, "pk": f["team"]},
        "tournament:team_withdraw": {"slug": ev, "pk": f["team"]},
        "tournament:court_link_change": {"slug": ev, "pk": f["court_pk"], "action": "renew"},
        "tournament:import_report": {"slug": ev, "token": f["import_token"]},
        "tournament:print_paper": [
            {"slug": ev, "kind": k}
            for k in ("timetables", "reception", "standings", "bracket", "results", "matrix", "setup", "programme")
        ],
        "tournament:podium_display": {"slug": ev, "division": f["division"]},
        "tournament:public_csv": [{"slug": ev, "kind": k} for k in ("games", "standings")],
        "tournament:export_csv": [{"slug": ev, "kind": k} for k in ("games", "standings")],
        "switch_language": [{"code": "en"}, {"code": "ja"}],
        "tournament:division_display": [{"slug": ev, "division": d} for d in f["divisions"]],
        "judging:court_entry": [
            {"token": f["court_token"], "number": n} for n in (f["confirmed_number"], f["court_next_number"])
        ],
        "judging:court_saved": {"token": f["court_token"], "number": f["confirmed_number"], "version": 1},
        "judging:court_sign": {"token": f["court_token"], "number": f["confirmed_number"], "version": 1},
        "judging:court_photo": {"token": f["court_token"], "number": f["confirmed_number"], "version": 1},
        "judging:court_dispute": {"token": f["court_token"], "number": f["confirmed_number"]},
        "judging:court_start": {"token": f["court_token"], "number": f["confirmed_number"]},
        "judging:match_detail": [{"slug": ev, "number": n} for n in (f["confirmed_number"], f["submitted_number"])],
        "judging:confirm_own": {"slug": ev, "number": f["submitted_number"]},
        "judging:organiser_dispute": {"slug": ev, "number": f["confirmed_number"]},
        "awards:remove_prize": {"slug": ev, "pk": f["prize"]},
        "series:series_detail": {"slug": f["series"]},
        "series:series_edit": {"slug": f["series"]},
        "series:series_events": {"slug": f["series"]},
        "series:series_xlsx": {"slug": f["series"]},
        "series:series_pdf": {"slug": f["series"]},
        "series:archive_edition": {"year": f["event_year"], "slug": ev},
        "series:archive_imported": {"pk": f["imported"]},
        "club_entry:home": {"token": f["club_token"]},
        "club_entry:team_add": {"token": f["club_token"]},
        "club_entry:team_edit": {"token": f["club_token"], "pk": f["club_team"]},
        "club_entry:team_remove": {"token": f["club_token"], "pk": f["club_team"]},
        "club_entry:absent": {"token": f["club_token"]},
        "club_entry:link_change": {"slug": ev, "pk": f["club_link"], "action": "renew"},
        "reader:audio": {"slug": f["deck"], "kind": "card", "name": "あ"},
        "reader:deck_detail": [{"slug": f["deck"]}, {"slug": "hitachi"}],
        "reader:deck_copy": {"slug": f["deck"]},
        "reader:card_add": {"slug": f["deck"]},
        "reader:card_edit": {"slug": f["deck"], "pk": f["card"]},
        "reader:deck_import": {"slug": f["deck"]},
        "reader:deck_template": {"slug": f["deck"]},
        "reader:recording_upload": {"slug": f["deck"]},
        "reader:recording_delete": {"slug": f["deck"]},
        "reader:manage_read": {"slug": ev, "pk": f["reading"]},
        "reader:manage_lines": {"slug": ev, "pk": f["reading"]},
        "reader:manage_log": {"slug": ev, "pk": f["reading"]},
        "reader:manage_log_csv": {"slug": ev, "pk": f["reading"]},
        "reader:link_home": {"token": f["reader_token"]},
        "reader:link_read": {"token": f["reader_token"], "pk": f["reading"]},
        "reader:link_lines": {"token": f["reader_token"], "pk": f["reading"]},
        **{
            f"hanafuda:{n}": {"pk": f["hanafuda"]}
            for n in (
                "session_detail",
                "round_entry",
                "round_undo",
                "round_preview",
                "history",
                "settlement",
                "score_sheet",
                "reference_card",
                "session_xlsx",
            )
        },
        "hanafuda:round_detail": {"pk": f["hanafuda"], "number": 1},
        **{
            f"dosai:{n}": {"pk": f["dosai_edition"]}
            for n in ("edition", "edition_rename", "edition_delete", "points_table")
        },
        **{
            f"dosai:{n}": {"pk": f["dosai"]}
            for n in ("session", "session_rename", "session_delete", "session_xlsx", "hand_new")
        },
        **{
            f"dosai:{n}": {"pk": f["dosai"], "number": 1}
            for n in ("hand", "hand_state", "hand_call", "hand_undo", "hand_turn_free", "hand_xlsx")
        },
        "people:referee_edit": {"slug": ev, "pk": f["referee"]},
        "people:card_scan": {"slug": ev, "code": f["card_code"]},
        "admin:auth_user_password_change": {"id": f["admin_objects"]["auth/user"]},
        "admin:app_list": [{"app_label": a} for a in ("auth", "axes", "tournament", "judging", "dosai")],
    }


_PARAM = re.compile(r"<(?:(?P<conv>[^>:]+):)?(?P<name>[^>]+)>")
_GROUP = re.compile(r"\(\?P<(?P<name>[^>]+)>[^)]*\)")


def _fill(route, values):
    """The path of ``route`` with its parameters replaced by ``values``."""
    path = _GROUP.sub(lambda m: str(values[m["name"]]), route)  # regex groups first: "(?P<token>…)"
    path = _PARAM.sub(lambda m: str(values[m["name"]]), path)
    return "/" + path.replace("^", "").replace("$", "")


def address_list(d, f):
    """The concrete paths the crawl opens for pattern ``d`` (empty: it could not be filled)."""
    table = _params(f)
    if d.name == "api:api/v1/^.*$":
        return ["/api/v1/no-such-thing"]  # the API's own 404 answer (JSON)
    if d.admin and "<path:object_id>" in d.route:
        model = re.search(r"admin/(\w+/\w+)/", d.route)[1]
        pk = f["admin_objects"].get(model)
        return [] if pk is None else [_fill(d.route, {"object_id": pk})]
    given = table.get(d.name)
    if given is None:
        given = {p: _defaults(f)[p] for p in d.params if p in _defaults(f)}
        if set(given) != set(d.params):
            return []
    return [_fill(d.route, values) for values in (given if isinstance(given, list) else [given])]
