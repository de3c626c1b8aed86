"""Japan time and Japanese dates for the paper and the spreadsheets.

``TOKYO`` is the Asia/Tokyo zone; :func:`format_date` prints 「2027年1月17日(日)」 or, with the
event's 和暦 setting, 「令和9年1月17日(日)」; :func:`format_time` prints 「09:30」.

Without a tz database the fixed +09:00 offset is exact: Japan has no summer time.
No Django imports: the PDF and Excel writers are plain Python.
"""

import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

try:
    TOKYO: datetime.tzinfo = ZoneInfo("Asia/Tokyo")
except ZoneInfoNotFoundError:  # no tz database
    TOKYO = datetime.timezone(datetime.timedelta(hours=9), "JST")

WEEKDAYS = "月火水木金土日"
WEEKDAYS_EN = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
MONTHS_EN = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")

ERAS = (  # (first day, name): the modern Japanese eras
    (datetime.date(2019, 5, 1), "令和"),
    (datetime.date(1989, 1, 8), "平成"),
    (datetime.date(1926, 12, 25), "昭和"),
)


def japanese_year(d: datetime.date) -> str:
    """The year of ``d`` in the Japanese calendar (和暦): 2027 → 「令和9年」.

    The first year of an era is 元年 (2019-05-01 → 「令和元年」); a date before 昭和 prints
    the Western year, 「1925年」.  Raises nothing.
    """
    for start, name in ERAS:
        if d >= start:
            year = d.year - start.year + 1
            return f"{name}{'元' if year == 1 else year}年"
    return f"{d.year}年"


def format_date(d: datetime.date | None, era: bool = False, english: bool = False) -> str:
    """A date as 「2027年1月17日(日)」, or 「令和9年1月17日(日)」 with ``era`` (the event's 和暦
    setting), or "Sun 17 Jan 2027" with ``english`` (paper printed in English: README
    "Languages"; the era is then not used); "" for None.  An aware datetime is read in
    Asia/Tokyo, a naive one as Tokyo wall-clock time."""
    if d is None:
        return ""
    if isinstance(d, datetime.datetime):
        d = to_tokyo(d).date()
    if english:
        return f"{WEEKDAYS_EN[d.weekday()]} {d.day} {MONTHS_EN[d.month - 1]} {d.year}"
    year = japanese_year(d) if era else f"{d.year}年"
    return f"{year}{d.month}月{d.day}日({WEEKDAYS[d.weekday()]})"


def to_tokyo(dt: datetime.datetime) -> datetime.datetime:
    """Aware -> Asia/Tokyo; a naive value is taken to be Tokyo wall-clock time already."""
    return dt.astimezone(TOKYO) if dt.tzinfo is not None else dt


def format_time(dt: datetime.datetime | None) -> str:
    """The time of day as 「09:30」 in Asia/Tokyo (see :func:`to_tokyo`); "" for None."""
    return "" if dt is None else to_tokyo(dt).strftime("%H:%M")
