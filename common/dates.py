"""Japan time for the paper and the spreadsheets: ``TOKYO``, the Asia/Tokyo zone.

Without a tz database the fixed +09:00 offset is exact: Japan has no summer time.
No Django imports: the PDF and Excel writers are plain Python.
"""

import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

try:
    TOKYO: datetime.tzinfo = ZoneInfo("Asia/Tokyo")
except ZoneInfoNotFoundError:  # no tz database
    TOKYO = datetime.timezone(datetime.timedelta(hours=9), "JST")
