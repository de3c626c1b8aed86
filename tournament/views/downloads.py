"""Downloads for the organiser: the Excel workbook, recording sheets, the other paper of the
day (PDF) and the print menu."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from common.downloads import CSV, PDF, XLSX, file_response
from judging.paper.match_sheets import event_sheets_pdf
from tournament import exports, printing
from tournament.access import event_for_organiser, int_param, whole_number
from tournament.forms import ProgrammeSettingsForm
from tournament.models import ProgrammeSettings
from tournament.paper import PROGRAMME_DEFAULT_SECTIONS, PROGRAMME_SECTIONS
from tournament.reports.sheets import moved_since_printed
from tournament.services.programme import save_programme_texts
from tournament.services.sheets import mark_sheets_printed


@login_required
def export_workbook(request, slug):
    """One workbook with the kinds ticked (default the final ranking, standings and games), or
    one kind alone."""
    event = event_for_organiser(request, slug)
    default = ["ranking", "standings", "games"] + (["individual"] if event.individual_counts else [])
    kinds = [k for k in request.GET.getlist("kind") if k in exports.KINDS] or default
    data = exports.event_workbook(event, kinds)
    name = "results" if kinds == default else "-".join(kinds)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-{name}.xlsx", XLSX)


@login_required
def export_csv(request, slug, kind):
    """The games or the standings as CSV (``exports.event_csv``), beside the workbook."""
    event = event_for_organiser(request, slug)
    if kind not in exports.CSV_KINDS:
        raise Http404
    return file_response(exports.event_csv(event, kind), f"{event.slug}-{event.date:%Y%m%d}-{kind}.csv", CSV)


@login_required
def recording_sheets(request, slug):
    event = event_for_organiser(request, slug)
    matches = event.matches.all()
    label = "all"
    division, court, round_index = (
        int_param(request, "division"),
        int_param(request, "court"),
        int_param(request, "round"),
    )
    if division is not None:
        matches = matches.filter(division_id=division)
        label = f"division{division}"
    if court is not None:
        matches = matches.filter(court_id=court)
        label += f"-court{court}"
    if request.GET.get("stage") == "knockout":
        matches = matches.after_groups()
        label += "-knockout"
    elif request.GET.get("stage") == "group":
        matches = matches.group_stage()
    numbers = [n for n in map(whole_number, request.GET.get("numbers", "").split(",")) if n is not None]
    if numbers:  # only the sheets that changed (a closed court, a delay)
        matches = matches.filter(match_number__in=numbers)
        label += "-changed"
    if request.GET.get("moved") == "1":  # the games moved since their sheet was last printed
        matches = moved_since_printed(matches)
        label += "-moved"
    if round_index is not None:
        matches = matches.filter(round=round_index).group_stage()
        label += f"-round{round_index + 1}"
    per_page = 2 if request.GET.get("per_page") == "2" else 1
    printed = list(matches)
    data = event_sheets_pdf(
        event, matches, base_url=settings.SITE_URL or request.build_absolute_uri("/").rstrip("/"), per_page=per_page
    )
    mark_sheets_printed(printed)
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-sheets-{label}.pdf", PDF, inline=True)


@login_required
def print_menu(request, slug, programme_form=None):
    event = event_for_organiser(request, slug)
    rounds = sorted(set(event.matches.group_stage().values_list("round", flat=True)))
    moved = list(moved_since_printed(event.matches.all()).select_related("court"))
    return render(
        request,
        "tournament/print_menu.html",
        {
            "event": event,
            "divisions": event.divisions.all(),
            "courts": event.courts.all(),
            "font_warnings": printing.names_with_substitutes(event),
            "rounds": [(r, r + 1) for r in rounds],
            "moved": moved,
            "programme_form": programme_form
            or ProgrammeSettingsForm(instance=ProgrammeSettings.objects.filter(event=event).first()),
            "programme_sections": [
                (name, printing.programme_section_title(name), name in PROGRAMME_DEFAULT_SECTIONS)
                for name in PROGRAMME_SECTIONS
            ],
            "export_kinds": [
                ("ranking", _("final ranking")),
                ("standings", _("standings")),
                ("games", _("all games")),
                ("timetable", _("timetable")),
                ("teams", _("teams with players")),
            ]
            + ([("individual", _("individual records"))] if event.individual_counts else []),
        },
    )


@login_required
def print_paper(request, slug, kind):
    """The other paper of the day as PDF: 対戦表, 受付名簿, 順位表, トーナメント表, 成績一覧, 判定表,
    試合の準備."""
    event = event_for_organiser(request, slug)
    if kind == "matrix":
        data = printing.touch_matrix()
    elif kind == "setup":  # 試合の準備
        data = printing.game_setup()
    elif kind == "results":
        data = printing.final_results(event, with_names=request.GET.get("names") == "1")
    elif kind == "programme":  # 大会プログラム: the sections ticked, 2-up with booklet=1
        sections = [s for s in request.GET.getlist("section") if s in PROGRAMME_SECTIONS] or None
        base_url = settings.SITE_URL or request.build_absolute_uri("/").rstrip("/")
        data = printing.programme(event, sections, booklet=request.GET.get("booklet") == "1", base_url=base_url)
    elif kind in printing.KINDS:
        data = printing.KINDS[kind](event)
    else:
        raise Http404
    return file_response(data, f"{event.slug}-{event.date:%Y%m%d}-{kind}.pdf", PDF, inline=True)


@login_required
@require_POST
def programme_texts(request, slug):
    """Save the 大会プログラム's texts (cover title, 主催, 後援, 注意事項) from the print page; an
    invalid form is shown again on the print page with its errors."""
    event = event_for_organiser(request, slug)
    form = ProgrammeSettingsForm(request.POST, instance=ProgrammeSettings.objects.filter(event=event).first())
    if not form.is_valid():
        return print_menu(request, slug, programme_form=form)
    save_programme_texts(event, **form.cleaned_data)
    messages.success(request, _("The programme's texts were saved."))
    return redirect(reverse("tournament:print_menu", args=[event.slug]) + "#programme")
