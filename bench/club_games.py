"""Time the club games' replays: every page re-derives scores from what was stored.

A Musashino-bana page re-scores every round of the session (``session_state``), and so does
each live preview of the round being tapped (``preview_round``, asked about 0.3 s after
each tap); a Sanjô Dôsai reader page replays every call of the hand (``replay``). This
prints how long that takes for a full game, through the services and a throwaway SQLite
database.

Run: .venv/bin/python bench/club_games.py
"""

import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ["KARUTA_DATA_DIR"] = tempfile.mkdtemp(prefix="karuta-bench-")
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django

django.setup()

from django.contrib.auth.models import User  # noqa: E402
from django.core.management import call_command  # noqa: E402

from dosai import services as dosai_services  # noqa: E402
from dosai.engine.options import Options as DosaiOptions  # noqa: E402
from dosai.models import ClubEdition  # noqa: E402
from hanafuda import services as hanafuda_services  # noqa: E402
from hanafuda.engine.options import Options as HanafudaOptions  # noqa: E402
from tests.dosai.factories import club_values  # noqa: E402


def timed(fn, repeat=20):
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times), max(times)


def hanafuda_session(owner, played=12):
    session = hanafuda_services.create_session(owner, "bench", ["一郎", "二郎", "三郎"], HanafudaOptions(rounds=12))
    rng = random.Random(1)
    for number in range(1, played + 1):
        piles = [[], [], []]
        for month in range(1, 13):  # each month's four cards go as two pairs to random sides
            cards = [month * 10 + r for r in range(4)]
            piles[rng.randrange(3)] += cards[:2]
            piles[rng.randrange(3)] += cards[2:]
        hanafuda_services.record_round(session, number, piles)
    return session, lambda: hanafuda_services.session_state(session)


def dosai_hand(owner):
    edition = ClubEdition.objects.create(
        owner=owner,
        name="bench",
        base=ClubEdition.BASE_MATSUI,
        values={str(k): v for k, v in club_values().items()},
        source="bench",
    )
    session = dosai_services.create_session(owner, "bench", edition, ["A", "B", "C", "D", "E", "F"], DosaiOptions())
    hand = dosai_services.start_hand(session, dealing="app", reader="app", rng=random.Random(1))
    for k in range(DosaiOptions().calls_per_hand):
        dosai_services.record_call(hand, None, k)
    hand.refresh_from_db()
    return hand, lambda: dosai_services.replay(hand)


def main():
    call_command("migrate", verbosity=0)
    owner = User.objects.create_user("bench")
    _session, state = hanafuda_session(owner)
    median, worst = timed(state)
    print(f"Musashino-bana: re-score 12 rounds and settle   median {median:6.1f} ms   max {worst:6.1f} ms")
    session, _state = hanafuda_session(owner, played=11)
    half = [[10, 11, 30, 31, 80, 81], [20, 21], [50]]  # round 12, half tapped
    median, worst = timed(lambda: hanafuda_services.preview_round(session, 12, half))
    print(f"Musashino-bana: preview round 12 after 11 rounds median {median:6.1f} ms   max {worst:6.1f} ms")
    _hand, replay = dosai_hand(owner)
    median, worst = timed(replay)
    print(f"Sanjô Dôsai: replay a 50-call hand and settle   median {median:6.1f} ms   max {worst:6.1f} ms")


if __name__ == "__main__":
    main()
