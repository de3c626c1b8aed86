"""The programme's staff section shaped, as tables (people.engine.staff; issue 34 item 1,
docs/programme.md): the referees' table by time block and court, the roster's lines with
consecutive blocks of the same people merged."""

import pytest

from people.engine.staff import DutyLine, Judged, duty_lines, referee_grid

J = Judged


@pytest.mark.parametrize(
    ("games", "courts", "expected"),
    [
        ([], 2, []),
        (
            [J(0, 570, "山田"), J(1, 570, "佐藤"), J(0, 590, "佐藤")],
            2,
            [(570, ["山田", "佐藤"]), (590, ["佐藤", None])],
        ),
        # given out of order: rows by start, a game without a referee is ""
        ([J(1, 610, ""), J(0, 570, "鈴木")], 2, [(570, ["鈴木", None]), (610, [None, ""])]),
        # two games of one court at one start: both referees, once each
        ([J(0, 570, "山田"), J(0, 570, "佐藤"), J(0, 570, "山田")], 1, [(570, ["山田・佐藤"])]),
        ([J(0, 570, ""), J(0, 570, "佐藤")], 1, [(570, ["佐藤"])]),
    ],
)
def test_referee_grid(games, courts, expected):
    assert referee_grid(games, courts) == expected


def test_referee_grid_refuses_a_court_outside_the_table():
    with pytest.raises(ValueError, match="court 2"):
        referee_grid([J(2, 570, "山田")], 2)


ROLES = ["reception", "recording", "announcer", "venue"]


@pytest.mark.parametrize(
    ("duties", "expected"),
    [
        ([], []),
        # the same people in consecutive blocks: one line over both
        (
            [("reception", 0, "山田"), ("reception", 1, "山田")],
            [DutyLine("reception", 0, 1, ("山田",))],
        ),
        # other people in the next block: two lines
        (
            [("reception", 0, "山田"), ("reception", 1, "佐藤")],
            [DutyLine("reception", 0, 0, ("山田",)), DutyLine("reception", 1, 1, ("佐藤",))],
        ),
        # a gap between blocks is not merged
        (
            [("venue", 0, "山田"), ("venue", 2, "山田")],
            [DutyLine("venue", 0, 0, ("山田",)), DutyLine("venue", 2, 2, ("山田",))],
        ),
        # roles in the given order, unknown ones after, by code; names trimmed and once
        (
            [("zz", 0, "X"), ("venue", 0, " 山田  花子 "), ("reception", 0, "佐藤"), ("venue", 0, "山田 花子")],
            [
                DutyLine("reception", 0, 0, ("佐藤",)),
                DutyLine("venue", 0, 0, ("山田 花子",)),
                DutyLine("zz", 0, 0, ("X",)),
            ],
        ),
        # several names keep their order; three blocks merge
        (
            [("announcer", b, n) for b in (0, 1, 2) for n in ("鈴木", "田中")],
            [DutyLine("announcer", 0, 2, ("鈴木", "田中"))],
        ),
        # an empty name makes no line
        ([("recording", 0, "  ")], []),
    ],
)
def test_duty_lines(duties, expected):
    assert duty_lines(duties, ROLES) == expected
