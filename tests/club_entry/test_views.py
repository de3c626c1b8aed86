"""The club's pages and the organiser's page of the entry links (issue 20 item 4)."""

import datetime
import io
import subprocess

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone
from openpyxl import Workbook

from club_entry import services
from club_entry.models import ChangeLog, ClubLink
from tests.club_entry.conftest import CLUB, four
from tournament.imports import TEMPLATE_LABELS
from tournament.models import Team


def team_post(low, name="港A", grade="小3", **extra):
    data = {"division": low.pk, "name": name, "chaperone": "港 太郎", "leader": "2"}
    for i, (player, furigana) in enumerate(
        [("港一郎", "いちろう"), ("港二郎", "じろう"), ("港三郎", "さぶろう"), ("港四郎", "しろう")], start=1
    ):
        data.update({f"p{i}_name": player, f"p{i}_furigana": furigana, f"p{i}_grade": grade})
    data.update(extra)
    return data


def home(link):
    return f"/club/{link.token}/"


def test_the_club_page_is_private_and_asks_consent_first(client, event):
    link = services.create_link(event, CLUB)
    page = client.get(home(link))
    assert page.status_code == 200
    assert page["Cache-Control"] == "no-store" and "noindex" in page["X-Robots-Tag"]
    text = page.content.decode()
    assert "保護者" in text and "/team/add/" not in text
    assert client.get(f"/club/{link.token}/team/add/").status_code == 302
    assert client.post(home(link), {}).status_code == 200  # unticked: asked again
    assert client.post(home(link), {"agree": "1"}).status_code == 302
    link.refresh_from_db()
    assert link.consent_at is not None
    assert ChangeLog.objects.filter(what=ChangeLog.CONSENT).count() == 1


def test_a_club_enters_a_team_and_sees_it_as_the_organiser_will(client, link, low):
    answer = client.post(f"/club/{link.token}/team/add/", team_post(low))
    assert answer.status_code == 302, answer.content.decode()
    team = Team.objects.get()
    assert team.affiliation == CLUB
    text = client.get(home(link)).content.decode()
    assert (
        "◎港二郎" in text and "港四郎（補）" in text and "港 太郎" in text and f"<td>{team.entry_number}</td>" in text
    )


def test_a_warning_needs_the_tick(client, link, low):
    refused = client.post(f"/club/{link.token}/team/add/", team_post(low, grade="小5"))
    assert refused.status_code == 200 and not Team.objects.exists()
    assert 'name="accept_warnings"' in refused.content.decode() and "小1〜小3" in refused.content.decode()
    ok = client.post(f"/club/{link.token}/team/add/", team_post(low, grade="小5", accept_warnings="1"))
    assert ok.status_code == 302 and Team.objects.count() == 1


def test_the_form_names_the_field_of_bad_input(client, link, low):
    answer = client.post(f"/club/{link.token}/team/add/", team_post(low, p3_name="", p1_furigana="ichiro"))
    assert answer.status_code == 200 and not Team.objects.exists()
    assert answer.context["form"].errors.keys() >= {"p3_name", "p1_furigana"}


def test_another_clubs_team_is_a_404(client, link, other_link, low):
    theirs = services.save_club_team(other_link, division=low, name="大和A", players=four("大和"))
    for url in (f"/club/{link.token}/team/{theirs.pk}/", f"/club/{link.token}/team/{theirs.pk}/remove/"):
        assert client.get(url).status_code == 404
        assert client.post(url, team_post(low)).status_code == 404
    player = theirs.players.first()
    answer = client.post(f"/club/{link.token}/absent/", {"team": theirs.pk, "player": player.pk, "absent": "1"})
    assert answer.status_code == 404
    assert Team.objects.get(pk=theirs.pk).name == "大和A"
    assert "大和A" not in client.get(home(link)).content.decode()


def test_after_the_deadline_the_page_says_so_and_keeps_what_was_typed(client, link, event, low):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    services.save_settings(
        event, deadline=timezone.now() - datetime.timedelta(hours=1), locked=False, consent_note="同意"
    )
    assert "締切" in client.get(home(link)).content.decode()
    answer = client.post(f"/club/{link.token}/team/{team.pk}/", team_post(low, name="港Z", version=team.version))
    assert answer.status_code == 410
    text = answer.content.decode()
    assert "締切" in text and "港Z" in text and "港一郎" in text
    assert Team.objects.get().name == "港A"
    assert client.post(f"/club/{link.token}/team/{team.pk}/remove/", {}).status_code == 410
    assert Team.objects.exists()


def test_a_revoked_or_renewed_link_says_so_and_keeps_what_was_typed(client, link, low):
    token = link.token
    services.revoke(link)
    answer = client.post(f"/club/{token}/team/add/", team_post(low, name="港Q"))
    assert answer.status_code == 410 and "港Q" in answer.content.decode()
    services.renew(link)
    assert client.get(f"/club/{token}/").status_code == 410
    assert client.get(f"/club/{link.token}/").status_code == 200
    assert client.get("/club/" + "x" * 32 + "/").status_code == 404
    assert not Team.objects.exists()


def test_two_saves_at_once_lose_nothing_silently(client, link, low):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    first = client.post(f"/club/{link.token}/team/{team.pk}/", team_post(low, name="港B", version=team.version))
    assert first.status_code == 302
    second = client.post(f"/club/{link.token}/team/{team.pk}/", team_post(low, name="港C", version=team.version))
    assert second.status_code == 409 and Team.objects.get().name == "港B"
    assert "港C" in second.content.decode()


def test_absences_on_the_day(client, link, event, low):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    player = team.players.first()
    event.date = timezone.localdate()
    event.save()
    services.save_settings(event, deadline=timezone.now(), locked=False, consent_note="同意")
    assert "欠席を報告" in client.get(home(link)).content.decode()
    answer = client.post(f"/club/{link.token}/absent/", {"team": team.pk, "player": player.pk, "absent": "1"})
    assert answer.status_code == 302
    assert player.absence_report.link == link
    assert client.get(f"/club/{link.token}/absent/").status_code == 405


def test_forms_need_the_csrf_token(link, low):
    strict = Client(enforce_csrf_checks=True)
    assert strict.post(f"/club/{link.token}/team/add/", team_post(low)).status_code == 403
    assert not Team.objects.exists()


def test_the_organiser_makes_links_sets_the_deadline_and_sees_the_changes(client, event, low, organiser):
    url = f"/manage/{event.slug}/clubs/"
    day = datetime.timedelta(days=1)
    assert client.post(url, {"action": "add", "club": CLUB, "contact_name": "港 花子"}).status_code == 302
    assert client.post(url, {"action": "add", "club": CLUB}).status_code == 400  # already has one
    link = ClubLink.objects.get()
    services.give_consent(link)
    services.save_club_team(link, division=low, name="港A", players=four())
    answer = client.post(
        url,
        {"action": "settings", "deadline": f"{event.date - day}T18:00", "consent_note": "同意文", "version": "1"},
    )
    assert answer.status_code == 302
    found = services.entry_settings(event)
    assert timezone.localtime(found.deadline).hour == 18 and found.consent_note == "同意文"
    page = client.get(url).content.decode()
    assert link.token in page and "港A" in page and "<svg" in page and "港 花子" in page
    assert client.post(f"{url}{link.pk}/revoke/").status_code == 302
    link.refresh_from_db()
    assert not link.enabled


def test_an_import_that_would_duplicate_a_club_team_is_refused_by_the_name_key(client, link, event, low, organiser):
    services.save_club_team(link, division=low, name="港Ａ", players=four())
    wb = Workbook()
    ws = wb.active
    ws.append(list(TEMPLATE_LABELS))
    ws.append([low.name, "港 A", CLUB, "甲", None, "小2", "乙", None, "小2", "丙", None, "小2", None, None, None, None])
    data = io.BytesIO()
    wb.save(data)
    answer = client.post(
        f"/manage/{event.slug}/teams/import/",
        {"file": SimpleUploadedFile("entries.xlsx", data.getvalue()), "default_division": ""},
    )
    report = answer.context["report"]
    assert not report.ok
    assert "すでに登録されています" in report.problems[0].message and "港 A" in report.problems[0].message
    assert Team.objects.count() == 1


def test_the_organiser_sees_an_absence_on_the_team_list_and_the_reception_list(client, link, event, low, organiser):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    player = team.players.get(name="港三郎")
    event.date = timezone.localdate()
    event.save()
    services.report_absence(link, player, True)
    listing = client.get(f"/manage/{event.slug}/teams/").content.decode()
    assert "港三郎（欠席）" in listing.replace('<strong class="warning">', "").replace("</strong>", "")
    assert "港三郎" in client.get(f"/manage/{event.slug}/clubs/").content.decode()
    pdf = client.get(f"/manage/{event.slug}/print/reception.pdf")
    assert pdf.status_code == 200, pdf.status_code
    text = subprocess.run(["pdftotext", "-", "-"], input=pdf.content, capture_output=True, check=True).stdout.decode()
    assert "欠席（クラブ" in text


def test_a_club_removes_its_team_after_a_confirmation(client, link, low):
    team = services.save_club_team(link, division=low, name="港A", players=four())
    url = f"/club/{link.token}/team/{team.pk}/remove/"
    assert "チームを削除" in client.get(url).content.decode()
    assert Team.objects.exists()
    assert client.post(url, {"version": team.version}).status_code == 302
    assert not Team.objects.exists()
    assert ChangeLog.objects.filter(what=ChangeLog.REMOVED, team_name="港A").exists()


def test_the_default_consent_note_is_in_the_pages_language(client, link):
    """The club's page shows the default consent note in English in an English session and in
    Japanese in a Japanese one; a note the organisers typed is shown as typed (issue 27)."""
    from club_entry import services
    from club_entry.models import DEFAULT_CONSENT_NOTE

    link.consent_at = None  # the note is shown until the club ticks it
    link.save(update_fields=["consent_at"])
    english = client.get(f"/club/{link.token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Ask the parents" in english and DEFAULT_CONSENT_NOTE[:20] not in english
    japanese = client.get(f"/club/{link.token}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert DEFAULT_CONSENT_NOTE[:20] in japanese and "Ask the parents" not in japanese
    services.save_settings(link.event, deadline=None, locked=False, consent_note="保護者の同意を得てください。")
    assert (
        "保護者の同意を得てください。" in client.get(f"/club/{link.token}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    )
