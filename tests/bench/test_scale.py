"""bench/scale.py's pure helpers: sizes, growth factors, verdicts and the growth table
(issue 31 item 4). Nothing here is timed and no event is built."""

import importlib.util
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[2] / "bench" / "scale.py"
spec = importlib.util.spec_from_file_location("bench_scale", PATH)
scale = importlib.util.module_from_spec(spec)
spec.loader.exec_module(scale)


def test_sizes_are_increasing_multiples_of_five():
    assert scale.parse_sizes("35, 250,1000") == [35, 250, 1000]
    for bad in ("", "35,33", "250,35", "35,35", "0", "-5", "x"):
        with pytest.raises(ValueError, match="--sizes"):
            scale.parse_sizes(bad)


def test_growth_is_each_value_over_the_first():
    assert scale.growth([10, 15, 40]) == [1.0, 1.5, 4.0]
    assert scale.growth([35, 250, 1000])[2] == pytest.approx(1000 / 35)
    assert scale.growth([0, 0, 3]) == [1.0, 1.0, float("inf")]


@pytest.mark.parametrize(
    ("factor", "teams", "expected"),
    [
        (1.0, 28.6, scale.FLAT),
        (2.0, 28.6, scale.FLAT),
        (2.1, 28.6, scale.LINEAR),
        (28.6 * 1.3, 28.6, scale.LINEAR),
        (28.6 * 1.3 + 0.1, 28.6, scale.FASTER),
        (0.5, 1.0, scale.FLAT),
        (2.5, 1.5, scale.FASTER),
    ],
)
def test_verdict(factor, teams, expected):
    assert scale.verdict(factor, teams) == expected


def test_the_largest_size_decides_and_expectations():
    # linear to 250 teams, then much faster to 1000
    assert scale.size_verdict([1.0, 7.0, 90.0], [1.0, 7.1, 28.6]) == scale.FASTER
    # a noisy middle size (x10 for x7.1 teams) is printed, not judged
    assert scale.size_verdict([1.0, 10.0, 25.0], [1.0, 7.1, 28.6]) == scale.LINEAR
    assert scale.size_verdict([1.0, 1.5, 1.9], [1.0, 7.1, 28.6]) == scale.FLAT
    assert scale.size_verdict([1.0], [1.0]) == scale.FLAT
    assert scale.meets(scale.FLAT, scale.LINEAR)
    assert not scale.meets(scale.LINEAR, scale.FLAT)
    assert not scale.meets(scale.FASTER, scale.LINEAR)
    assert scale.verdict_text(scale.LINEAR, scale.FLAT) == "linear or better (NOT FLAT)"
    assert scale.verdict_text(scale.LINEAR, scale.LINEAR) == "linear or better"


def item(name, expected, ms, size=1000, queries=5):
    return {"name": name, "expected": expected, "ms": ms, "bytes": size, "queries": queries}


def test_summary_compares_ratios_to_the_reference_of_the_same_run():
    sizes = [35, 1000]
    runs = [
        {"items": [item("court entry", "flat", 10), item("page", "flat", 20), item("sheets", scale.LINEAR, 50)]},
        # the machine twice as busy at 1000 teams: the reference took twice as long
        {"items": [item("court entry", "flat", 20), item("page", "flat", 80), item("sheets", scale.LINEAR, 5000)]},
    ]
    rows = {row["name"]: row for row in scale.summarise(sizes, runs)}
    assert rows["court entry"]["growth"] == [1.0, 2.0]  # the reference's own ms
    assert rows["page"]["ratio"] == [2.0, 4.0]
    assert rows["page"]["growth"] == [1.0, 2.0]
    assert rows["page"]["verdict"] == scale.FLAT and rows["page"]["meets"]
    assert rows["sheets"]["growth"] == [1.0, 50.0]  # 100x the ms, 50x the ratio: > 28.6 x 1.3
    assert rows["sheets"]["verdict"] == scale.FASTER and not rows["sheets"]["meets"]
    table = scale.markdown(sizes, list(rows.values()))
    assert (
        "| sheets | linear or better | 50 · 5.0× · 1 KB · 5 | 5000 · 250.0× · 1 KB · 5 | ×50.0 | ×1.0 | **GROWS FASTER** |"
        in table
    )


def test_an_item_missing_at_one_size_is_left_out():
    runs = [{"items": [item("ref", "flat", 1), item("only small", "flat", 1)]}, {"items": [item("ref", "flat", 1)]}]
    assert [row["name"] for row in scale.summarise([35, 250], runs)] == ["ref"]


def test_tables_printed_again_from_saved_figures(tmp_path, capsys):
    runs = [{"items": [item("court entry", "flat", 10), item("page", "flat", 20)]}]
    runs.append({"items": [item("court entry", "flat", 10), item("page", "flat", 400, size=30000)]})
    saved = tmp_path / "figures.json"
    saved.write_text(scale.json.dumps({"sizes": [35, 1000], "database": "sqlite", "clock": "cpu", "runs": runs}))
    scale.main(["--from-json", str(saved), "--markdown"])
    out = capsys.readouterr().out
    assert "1 of 2 within their expectation; not: page" in out
    assert (
        "| page | flat | 20 · 2.0× · 1 KB · 5 | 400 · 40.0× · 29 KB · 5 | ×20.0 | ×30.0 | **linear or better (NOT FLAT)** |"
        in out
    )
