"""The public archive of editions (/archive/…): no login, team names and affiliations only,
never players' names; shared cache and conditional GET like the other public pages
(``common.page_cache.shared_page``)."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from common.page_cache import shared_page
from series.archive import (
    clubs_over_years,
    edition_places,
    imported_sources,
    source_places,
    tournaments,
)
from series.models import ImportedPlacing
from tournament.models import Event


@shared_page("archive-index")
def index(request):
    """Every tournament by name with its editions (第N回) and the events of other laptops."""
    return render(request, "series/archive_index.html", {"tournaments": tournaments(), "sources": imported_sources()})


@shared_page("archive-edition")
def edition(request, year, slug):
    """One edition: champions and placings per division (404 when the year is not the event's, and
    for a draft event, to everyone: the page is kept in the shared cache)."""
    event = get_object_or_404(Event.objects.exclude(visibility=Event.Visibility.DRAFT), slug=slug)
    if event.date.year != year:
        raise Http404("not that year's edition")
    return render(request, "series/archive_edition.html", {"event": event, "divisions": edition_places(event)})


@shared_page("archive-imported")
def imported(request, pk):
    """The placings of an event run on another laptop, as its results file brought them."""
    first = get_object_or_404(ImportedPlacing.objects.select_related("series"), pk=pk)
    return render(request, "series/archive_imported.html", {"first": first, "divisions": source_places(first)})


@shared_page("archive-clubs")
def clubs(request):
    """Each club's teams over the years (merged spellings as one club)."""
    return render(request, "series/archive_clubs.html", {"clubs": clubs_over_years()})
