"""bench/load.py's pure parts (issue 31 item 3): the shapes' arguments, the percentile and the
day shape's marks. No load is run here: benchmarks are measured by the script, never in tests."""

import importlib.util
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "load.py"


@pytest.fixture(scope="module")
def load():
    spec = importlib.util.spec_from_file_location("bench_load", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_day_shape_defaults_to_a_prefectural_event(load):
    args = load.parse_args(["--shape", "day", "--no-pin"])
    assert (args.referees, args.phones, args.screens, args.duration) == (50, 1000, 8, 60)
    assert args.team_phones == 0.5  # half the phones on their team's page, the family page
    assert args.server_core is None


def test_stress_is_the_default_shape(load):
    assert load.parse_args(["--no-pin"]).shape == "stress"


def test_bad_counts_are_refused(load):
    with pytest.raises(SystemExit):
        load.parse_args(["--phones", "-1", "--no-pin"])
    with pytest.raises(SystemExit):
        load.parse_args(["--shape", "day", "--team-phones", "1.5", "--no-pin"])


@pytest.mark.parametrize(
    "values, q, expected",
    [([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 95, 10), ([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 50, 5), ([7], 95, 7)],
)
def test_percentile(load, values, q, expected):
    assert load.pct(values, q) == expected


def test_the_day_marks_say_met_or_not(load):
    stats = load.Stats()
    for _ in range(20):
        stats.record("entry POST", 0.120)
        stats.record("phone poll", 0.150)
    lines = load.day_marks(stats)
    assert "mark entry POST: p95 120 ms < 300 ms: met" in lines
    assert "mark phone poll: p95 150 ms < 100 ms: NOT MET" in lines
    assert "mark screen poll: p95 < 100 ms: no request" in lines
