"""The duty roster (係分担表, issue 32 item 6; docs/people.md "Duty roster"), organisers only:
a table of roles by time block, names typed (or picked from the referees and the day's
accounts), the warnings for one person in two places, and the A4 PDF to pin on the board."""

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from common.downloads import PDF, file_response
from common.errors import UserError
from people import access, paper
from people.models import Referee
from people.roster import roster_table
from people.services import roster as service
from tournament.access import event_for_organiser


def roster_form(table, data=None):
    """A form with one text field per role and block (``<role>-<block>``), names separated by 、."""
    form = forms.Form(data)
    for row in table.rows:
        for block in table.blocks:
            form.fields[f"{row.role}-{block.index}"] = forms.CharField(
                label=f"{row.label} {block.label}",
                required=False,
                max_length=1000,
                initial="、".join(row.cells[block.index]),
                widget=forms.TextInput(attrs={"list": "people-names"}),
            )
    return form


@login_required
def roster(request, slug):
    """GET the table; POST it (every cell) to save."""
    event = event_for_organiser(request, slug)
    table = roster_table(event)
    form = roster_form(table, request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        cells, labels = {}, {}
        for name, field in form.fields.items():
            role, block = name.rsplit("-", 1)
            cells[(role, int(block))] = service.split_names(form.cleaned_data[name])
            labels[(role, int(block))] = str(field.label)
        try:
            service.save_roster(event, cells, labels)
        except UserError as error:
            form.add_error(None, error.message)
        else:
            messages.success(request, _("Duty roster saved."))
            return redirect("people:roster", event.slug)
    rows = [{"row": row, "fields": [form[f"{row.role}-{b.index}"] for b in table.blocks]} for row in table.rows]
    settings = access.day_settings(event)
    suggestions = sorted(
        {r.name for r in Referee.objects.filter(event=event)}
        | {u.username for u in settings.receptionists.all()}
        | {u.username for u in settings.announcers.all()}
    )
    return render(
        request,
        "people/roster.html",
        {"event": event, "table": table, "form": form, "rows": rows, "suggestions": suggestions},
        status=400 if request.method == "POST" else 200,
    )


@login_required
def roster_pdf(request, slug):
    """The roster as an A4 landscape PDF to pin on the board."""
    event = event_for_organiser(request, slug)
    return file_response(
        paper.roster_pdf(str(event), roster_table(event)), f"{event.slug}-roster.pdf", PDF, inline=True
    )
