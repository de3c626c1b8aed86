"""Court links: the secret token, what a link reaches, revoke and renew, the organiser's
page with QR codes, and what a tablet gets when the CSRF check fails."""

import json
import re
import shutil
import subprocess

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from judging import services
from judging.engine import rules
from judging.models import Dispute, RecordingSheet
from tests import factories
from tournament.models import Court, Match, new_court_token
from tournament.services.events import create_event

URL_SAFE = re.compile(r"^[A-Za-z0-9_-]+$")


def tr(text):
    """A message as the pages show it (Japanese, the default language)."""
    with translation.override("ja"):
        return translation.gettext(text)


def matches_on(court):
    return list(Match.objects.filter(court=court).select_related("team_a", "team_b").order_by("match_number"))


def court_urls(token, number):
    """Every court-link page of one game (and the court's own pages)."""
    return [
        reverse("judging:court_home", args=[token]),
        reverse("judging:court_rules", args=[token]),
        reverse("judging:court_entry", args=[token, number]),
        reverse("judging:court_dispute", args=[token, number]),
        reverse("judging:court_saved", args=[token, number, 1]),
    ]


def post_values(**overrides):
    data = {
        "cards_a": "30",
        "cards_b": "26",
        "referee_cards": "0",
        "joker_holder": "A",
        "rps_winner": "",
        "rps_used": "0",
        "base_version": "0",
        "submission_key": "tablet-1",
    }
    data.update(overrides)
    return data


def revoke(client, event, court, action="revoke"):
    """Revoke (or renew) a link as the organiser does: the confirmation page, then its button."""
    url = reverse("tournament:court_link_change", args=[event.slug, court.pk, action])
    assert client.get(url).status_code == 200
    response = client.post(url)
    assert response.status_code == 302
    court.refresh_from_db()


# --- the token -----------------------------------------------------------------------------


def test_court_tokens_are_at_least_32_url_safe_characters_and_unique(db):
    events = [factories.make_event(courts=4) for _ in range(3)]
    events.append(create_event("bulk", "一括", events[0].date, courts=8))  # bulk_create
    tokens = list(Court.objects.filter(event__in=events).values_list("token", flat=True))
    assert len(tokens) == 20
    assert all(len(t) >= 32 and URL_SAFE.match(t) for t in tokens)  # 32 × 6 bits = 192 ≥ 128 bits
    assert len(set(tokens)) == len(tokens)
    many = {new_court_token() for _ in range(2000)}
    assert len(many) == 2000
    assert all(len(t) >= 32 and URL_SAFE.match(t) for t in many)


def test_a_renewed_token_is_new_and_just_as_strong(day):
    court = day.courts.first()
    old = court.token
    court.renew_token()
    court.refresh_from_db()
    assert court.token != old and len(court.token) >= 32 and URL_SAFE.match(court.token)


# --- what a link reaches -----------------------------------------------------------------------


def test_a_court_link_on_another_courts_match_answers_404_and_reveals_nothing(client, day):
    court_1, court_2 = day.courts.order_by("order")
    other = matches_on(court_2)[0]
    services.submit_sheet(other, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), base_version=0, court=court_2)
    for url in court_urls(court_1.token, other.match_number)[2:]:
        for response in (client.get(url), client.post(url, post_values())):
            assert response.status_code == 404, url
            page = response.content.decode()
            assert other.team_a.name not in page and other.team_b.name not in page
    assert (
        client.post(
            reverse("judging:court_dispute", args=[court_1.token, other.match_number]),
            {"state_a": "both", "state_b": "both", "rps_winner": "A"},
        ).status_code
        == 404
    )
    assert RecordingSheet.objects.filter(match=other).count() == 1
    assert not Dispute.objects.exists()
    # The court's own home page does not list the other court's games either.
    home = client.get(reverse("judging:court_home", args=[court_1.token])).content.decode()
    assert f"/game/{other.match_number}/" not in home


def test_an_unknown_token_answers_404(client, day):
    number = matches_on(day.courts.first())[0].match_number
    for token in ("not-a-real-token", new_court_token()):
        for url in court_urls(token, number):
            assert client.get(url).status_code == 404, url
    assert client.post(reverse("judging:court_entry", args=["x" * 32, number]), post_values()).status_code == 404
    assert not RecordingSheet.objects.exists()


def test_a_revoked_link_answers_410_and_says_to_ask_for_a_new_link_on_every_court_page(client, day, organiser):
    court = day.courts.order_by("order").first()
    match = matches_on(court)[0]
    services.submit_sheet(match, rules.SheetValues(30, 26, 0, rules.JokerHolder.A), base_version=0, court=court)
    urls = court_urls(court.token, match.match_number)
    assert all(client.get(url).status_code == 200 for url in urls)
    client.force_login(organiser)
    revoke(client, day, court)
    assert court.link_enabled is False
    client.logout()
    for url in urls:
        response = client.get(url)
        assert response.status_code == 410, url
        page = response.content.decode()
        assert tr("This link is no longer valid. Ask the desk for a new link.") in page
        assert match.team_a.name not in page and match.team_b.name not in page  # reveals no game
    assert client.post(urls[2], post_values(base_version="1", submission_key="after-revoke")).status_code == 410
    assert client.post(urls[3], {"state_a": "both", "state_b": "wrong_only"}).status_code == 410
    assert RecordingSheet.objects.filter(match=match).count() == 1
    assert not Dispute.objects.exists()


def test_renewing_a_link_retires_the_old_token_and_opens_the_new_one(client, day, organiser):
    court = day.courts.order_by("order").first()
    number = matches_on(court)[0].match_number
    old = court.token
    client.force_login(organiser)
    revoke(client, day, court)
    revoke(client, day, court, action="renew")
    assert court.token != old and court.link_enabled is True
    client.logout()
    for url in court_urls(old, number)[:4]:
        assert client.get(url).status_code == 410, url  # the old link says to ask for a new one
    for url in court_urls(court.token, number)[:4]:
        assert client.get(url).status_code == 200, url


def test_the_court_links_page_cannot_touch_another_events_court(client, day, organiser):
    foreign = factories.make_event(courts=1).courts.get()
    token = foreign.token
    client.force_login(organiser)
    response = client.post(
        reverse("tournament:court_links", args=[day.slug]), {"court": foreign.pk, "action": "revoke"}
    )
    assert response.status_code == 404
    for action in ("revoke", "renew"):
        url = reverse("tournament:court_link_change", args=[day.slug, foreign.pk, action])
        assert client.get(url).status_code == 404
        assert client.post(url).status_code == 404
    foreign.refresh_from_db()
    assert foreign.link_enabled and foreign.token == token


# --- the organiser's page with QR codes --------------------------------------------------------


def test_the_court_links_page_is_for_organisers_only(client, day, organiser, django_user_model):
    url = reverse("tournament:court_links", args=[day.slug])
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    recorder = django_user_model.objects.create_user("recorder")
    day.recorders.add(recorder)
    client.force_login(recorder)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_the_court_links_page_shows_an_inline_svg_qr_code_for_each_active_court(client, day, organiser):
    court_1, court_2 = day.courts.order_by("order")
    client.force_login(organiser)
    url = reverse("tournament:court_links", args=[day.slug])
    page = client.get(url).content.decode()
    assert page.count("<svg") == 2
    for court in (court_1, court_2):
        assert f"http://testserver/court/{court.token}/" in page
    revoke(client, day, court_2)
    page = client.get(url).content.decode()
    assert page.count("<svg") == 1
    assert court_1.token in page and court_2.token not in page  # a revoked link is not shown


def svg_to_png(svg, path, pixels=8):
    """Rasterise the page's inline SVG (``common.qr_svg``: a viewBox in modules, one square
    ``M x y h1v1h-1z`` per dark module) to a PNG, the whole viewBox as the page scales it."""
    from PIL import Image

    modules = int(re.search(r'viewBox="0 0 (\d+) (\d+)"', svg).group(1))
    image = Image.new("L", (modules * pixels, modules * pixels), 255)
    for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", svg):
        x, y = int(x), int(y)
        image.paste(0, (x * pixels, y * pixels, (x + 1) * pixels, (y + 1) * pixels))
    image.save(path)


@pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) is not installed")
def test_the_qr_code_on_the_page_decodes_to_the_courts_link(client, day, organiser, tmp_path):
    pytest.importorskip("PIL")
    court = day.courts.order_by("order").first()
    client.force_login(organiser)
    page = client.get(reverse("tournament:court_links", args=[day.slug])).content.decode()
    svg = re.search(r"<svg.*?</svg>", page, re.S).group(0)
    png = tmp_path / "qr.png"
    svg_to_png(svg, png)
    result = subprocess.run(["zbarimg", "--raw", "-q", str(png)], capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == f"http://testserver/court/{court.token}/"


# --- a CSRF failure on a tablet keeps what was typed, never as a form ready to send ---------------


def kept_data(page):
    found = re.search(r'id="kept-form-data" type="application/json">(.*?)</script>', page)
    return dict(json.loads(found.group(1))) if found else None


def test_a_csrf_failure_on_the_entry_form_keeps_the_typed_values_for_the_same_page(day):
    tablet = Client(enforce_csrf_checks=True)
    court = day.courts.order_by("order").first()
    match = matches_on(court)[0]
    url = reverse("judging:court_entry", args=[court.token, match.match_number])
    assert tablet.get(url).status_code == 200  # the page was opened, then the token went stale
    typed = post_values(cards_a="３１", cards_b="25", submission_key="kept-key")
    response = tablet.post(url, typed, HTTP_ORIGIN="http://testserver")
    assert response.status_code == 403
    assert "csrf_failure.html" in [t.name for t in response.templates]
    assert not RecordingSheet.objects.exists()
    page = response.content.decode()
    # No form that sends the values again (issue 18, item 1): a link to the page instead.
    assert f'action="{url}"' not in page and f'href="{url}"' in page
    # Opening the page again shows them above its own form (as text, and as data its script
    # puts back into the form), once.
    again = tablet.get(url).content.decode()
    assert "<td>３１</td>" in again and "<td>25</td>" in again
    assert kept_data(again) == typed
    token = tablet.cookies["csrftoken"].value
    saved = tablet.post(url, {**typed, "csrfmiddlewaretoken": token})
    assert saved.status_code == 302
    assert saved["Location"] == reverse("judging:court_saved", args=[court.token, match.match_number, 1])
    sheet = RecordingSheet.objects.get(match=match)
    assert (sheet.cards_a, sheet.cards_b, sheet.submission_key) == (31, 25, "kept-key")
    assert kept_data(tablet.get(url).content.decode()) is None


def test_a_csrf_failure_with_no_cookie_at_all_still_keeps_the_values(day):
    tablet = Client(enforce_csrf_checks=True)  # never opened the page: no cookie
    court = day.courts.order_by("order").first()
    match = matches_on(court)[0]
    url = reverse("judging:court_entry", args=[court.token, match.match_number])
    typed = {"action": "walkover", "absent_side": "B", "base_version": "0", "submission_key": "w1"}
    response = tablet.post(url, typed, HTTP_REFERER=f"http://testserver{url}")
    assert response.status_code == 403 and 'type="hidden" name="action"' not in response.content.decode()
    assert kept_data(tablet.get(url).content.decode()) == typed
    assert tablet.post(url, {**typed, "csrfmiddlewaretoken": tablet.cookies["csrftoken"].value}).status_code == 302
    assert RecordingSheet.objects.get(match=match).is_walkover


def test_a_csrf_failure_from_another_site_keeps_nothing(day):
    tablet = Client(enforce_csrf_checks=True)
    court = day.courts.order_by("order").first()
    url = reverse("judging:court_entry", args=[court.token, matches_on(court)[0].match_number])
    response = tablet.post(url, post_values(cards_a="31", cards_b="25"), HTTP_ORIGIN="http://evil.example")
    assert response.status_code == 403 and "<td>31</td>" not in response.content.decode()
    assert kept_data(tablet.get(url).content.decode()) is None
