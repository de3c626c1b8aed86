import datetime
import json
from pathlib import Path

from django.conf import settings
from django.db import transaction

from tournament.management.commands._base import EventCommand
from tournament.models import Court, Division, Event
from tournament.services.registration import PlayerData, save_team

DEMO = Path(settings.RESOURCE_DIR) / "fixtures" / "demo_event.json"


class Command(EventCommand):
    help = (
        "Create the demo tournament (slug 'demo') with its divisions, courts and teams, its referees and duty "
        "roster. Idempotent."
    )

    def add_arguments(self, parser):
        parser.add_argument("--file", default=str(DEMO))

    def handle(self, file, **options):
        data = json.loads(Path(file).read_text(encoding="utf-8"))
        info = data["event"]
        if Event.objects.filter(slug=info["slug"]).exists():
            event = Event.objects.get(slug=info["slug"])
            self.stdout.write(f"The demo tournament {event.slug!r} already exists; nothing changed.")
            return
        with transaction.atomic():
            event = Event.objects.create(
                slug=info["slug"],
                name=info["name"],
                edition=info.get("edition"),
                date=datetime.date.fromisoformat(info["date"]),
                venue=info.get("venue", ""),
                start_time=datetime.time.fromisoformat(info.get("start_time", "09:30")),
                game_minutes=info.get("game_minutes", 15),
                changeover_minutes=info.get("changeover_minutes", 5),
                card_total=info.get("card_total", 56),
            )
            courts = {
                name: Court.objects.create(event=event, name=name, order=i) for i, name in enumerate(data["courts"], 1)
            }
            teams = 0
            for order, d in enumerate(data["divisions"], 1):
                division = Division.objects.create(
                    event=event, name=d["name"], grade_band=d.get("grade_band", ""), order=order
                )
                division.courts.set([courts[c] for c in d.get("courts", [])])
                for t in d["teams"]:
                    players = [
                        PlayerData(
                            p["name"],
                            p.get("furigana", ""),
                            p.get("grade", ""),
                            bool(p.get("leader")),
                            bool(p.get("substitute")),
                        )
                        for p in t["players"]
                    ]
                    save_team(division, t["name"], t.get("affiliation", ""), players)
                    teams += 1
            # the people of the day (docs/people.md) through the event's reverse relations: the
            # tournament imports nothing of the people app (docs/architecture.md)
            for r in data.get("referees", []):
                event.referees.create(name=r["name"], furigana=r.get("furigana", ""), club=r.get("club", ""))
            for line in data.get("roster", []):
                for name in line["names"]:
                    event.duties.create(role=line["role"], block=line["block"], name=name)
        self.stdout.write(
            f"Created the demo tournament {event.slug!r}: {len(data['divisions'])} divisions, {teams} teams, {len(courts)} courts."
        )
