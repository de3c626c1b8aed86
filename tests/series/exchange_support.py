"""Events of a series for the exchange tests: district qualifiers played to the end with the
event-day commands, and an empty final with the same divisions."""

import datetime
from io import StringIO

from django.core.management import call_command

from series.exchange.export import export_results
from series.models import Series, SeriesEvent
from tests import factories

DIVISIONS = (("小学生の部", "小1〜小6"), ("中学生の部", "中1〜中3"))


def run(*args):
    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue()


def make_series(slug="hitachi-2027", name="日立市郷土かるた選手権"):
    return Series.objects.create(slug=slug, name=name, season=2027)


def district(series, slug, district_name, teams=6, seed=1, divisions=DIVISIONS):
    """A qualifier of ``series`` on 4 courts, its divisions played to the end (groups, knockout)."""
    event = factories.make_event(
        courts=4, slug=slug, name=f"日立市{district_name}予選", date=datetime.date(2027, 1, 10), venue="交流センター"
    )
    for order, (name, band) in enumerate(divisions):
        courts = [1, 2] if order == 0 else [3, 4]
        division = factories.make_division(
            event, name, courts=courts, grade_band=band, order=order, qualifiers_per_group=2
        )
        factories.make_teams(division, teams, prefix=f"{district_name}{name[:1]}")
    SeriesEvent.objects.create(series=series, event=event, role=SeriesEvent.Role.QUALIFIER, district=district_name)
    run("draw_groups", slug, "--seed", str(seed))
    run("make_schedule", slug)
    run("simulate_results", slug, "--seed", str(seed))
    run("seed_knockout", slug)
    run("simulate_results", slug, "--stage", "knockout", "--seed", str(seed))
    return event


def final(series, slug="final", divisions=DIVISIONS):
    event = factories.make_event(courts=4, slug=slug, name="日立市決勝大会", date=datetime.date(2027, 2, 7))
    for order, (name, band) in enumerate(divisions):
        courts = [1, 2] if order == 0 else [3, 4]
        factories.make_division(event, name, courts=courts, grade_band=band, order=order, qualifiers_per_group=2)
    SeriesEvent.objects.create(series=series, event=event, role=SeriesEvent.Role.FINAL)
    return event


def exported(event, qualifiers=2):
    return export_results(event, qualifiers)[0]
