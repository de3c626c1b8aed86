"""The clock of the day: slot indices into start minutes.

Pure: standard library only.  Times are whole minutes from midnight.
"""

from __future__ import annotations


def check_minutes(name: str, value: object, minimum: int | None = None) -> int:
    """Return ``value`` if it is an int (minutes, or a slot) of at least
    ``minimum``; raise ``ValueError`` naming ``name`` otherwise."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be an int (minutes), got {value!r}")
    if minimum is not None and value < minimum:
        raise ValueError(f"{name} must be at least {minimum}, got {value}")
    return value


class Clock:
    """Turns (slot, court) into a start minute.

    ``start_minute``: when slot 0 starts (minutes from midnight, >= 0);
    ``game_minutes`` (> 0) and ``changeover_minutes`` (>= 0): a slot is
    ``game + changeover`` minutes; ``lunch``: an optional break
    ``[lunch_start, lunch_end)`` in minutes; ``court_start``: optional
    ``{court id: start minute}`` for courts that open at another time (the
    others use ``start_minute``).

    Raises ``ValueError`` for a non-int or negative time, a game length of 0,
    or a lunch that does not end after it starts.
    """

    def __init__(
        self,
        start_minute: int,
        game_minutes: int,
        changeover_minutes: int,
        lunch: tuple[int, int] | None = None,
        court_start: dict[int, int] | None = None,
    ) -> None:
        self.start_minute = check_minutes("start_minute", start_minute, 0)
        self.game_minutes = check_minutes("game_minutes", game_minutes, 1)
        self.changeover_minutes = check_minutes("changeover_minutes", changeover_minutes, 0)
        if lunch is not None:
            if len(lunch) != 2:
                raise ValueError(f"lunch must be (start, end), got {lunch!r}")
            ls = check_minutes("lunch start", lunch[0], 0)
            le = check_minutes("lunch end", lunch[1], 0)
            if le <= ls:
                raise ValueError(f"lunch must end after it starts, got {lunch!r}")
            lunch = (ls, le)
        self.lunch = lunch
        self.court_start = {
            court: check_minutes(f"start of court {court}", m, 0) for court, m in (court_start or {}).items()
        }

    def __repr__(self) -> str:
        return (
            f"Clock(start_minute={self.start_minute}, game_minutes={self.game_minutes}, "
            f"changeover_minutes={self.changeover_minutes}, lunch={self.lunch!r}, "
            f"court_start={self.court_start!r})"
        )

    @property
    def slot_minutes(self) -> int:
        """Length of a slot: game + changeover (minutes)."""
        return self.game_minutes + self.changeover_minutes

    def start_of(self, slot: int, court: int) -> int:
        """Start minute of ``slot`` (0-based) on ``court`` (a court id).

        Slot ``k`` starts at ``base + k·(game + changeover)``, ``base`` being
        the court's own start or ``start_minute``.  The first game that would
        overlap the lunch break (``start < lunch_end`` and
        ``start + game > lunch_start``) starts at ``lunch_end`` instead, and
        every later slot of the court moves by the same amount (the slot
        length is unchanged).  A game may end exactly when lunch starts.
        Raises ``ValueError`` for a negative slot.
        """
        check_minutes("slot", slot, 0)
        base = self.court_start.get(court, self.start_minute)
        step = self.slot_minutes
        plain = base + slot * step
        if self.lunch is None:
            return plain
        ls, le = self.lunch
        g = self.game_minutes
        # First slot j whose game would end after lunch starts.
        j = 0 if base + g > ls else (ls - g - base) // step + 1
        if base + j * step >= le or slot < j:
            return plain
        return le + (slot - j) * step

    def end_of(self, slot: int, court: int) -> int:
        """End minute of the game in ``slot`` on ``court`` (start + game); ``ValueError`` for a negative slot."""
        return self.start_of(slot, court) + self.game_minutes

    def opening(self, court: int) -> int:
        """The minute ``court`` (a court id) opens: its own start or ``start_minute``."""
        return self.court_start.get(court, self.start_minute)

    def fit(self, minute: int) -> int:
        """The earliest start at or after ``minute`` whose game stays out of the lunch break.

        In and out: minutes from midnight.  A game that would overlap lunch
        (``start < lunch_end`` and ``start + game > lunch_start``) starts at
        ``lunch_end``; any other start is kept (a game may end exactly when
        lunch starts).  Used for every time the clock does not compute from a
        slot: delays, closed courts, late entries and knockout or placement
        games (docs/rules/scheduling-standings-seeding.md, §5).  Raises
        ``ValueError`` for a negative or non-int minute.
        """
        check_minutes("minute", minute, 0)
        if self.lunch is None:
            return minute
        ls, le = self.lunch
        if minute < le and minute + self.game_minutes > ls:
            return le
        return minute
