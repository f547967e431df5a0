"""The one reader of dates and timestamps written as text, the same on every Python.

``datetime.fromisoformat`` cannot be that reader: Python 3.11 widened its grammar, so one
front matter value was read on one Python and refused on another (a fraction of 1, 2, 4, 5 or
7+ digits, ``+0200``, ``20240501``, a week date ``2024-W18-3``). Here the grammar is spelled
out, and two spellings share everything else (ranges, calendar, time zones, ``24:00:00``):

- :data:`SCHEMA`, the sitemap schema's ``xsd:date`` and ``xsd:dateTime``, which the validator
  holds a file to;
- :data:`AUTHORED`, what an author may write in page metadata: the same, and also W3C
  Datetime's time without seconds (``2024-05-01T10:00Z``), a time without a zone (the host
  says in which zone it is read), and RFC 3339's ``t``, ``z`` or a space before the time.

Neither reads an offset without its colon (``+0200``, ``+02``): W3C Datetime and the schema
have ``+hh:mm`` only, and a sitemap must be read the same way by every engine.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Final, NamedTuple

# Digits are spelled [0-9]: Python's \d also matches other scripts' digits (Arabic-Indic,
# full-width), which int() would then read as numbers; the schema's digits are ASCII.
_DAY: Final = r"(?P<neg>-)?(?P<y>[0-9]{4,})-(?P<m>[0-9]{2})-(?P<d>[0-9]{2})"
SCHEMA: Final = re.compile(
    _DAY + r"(?:T(?P<H>[0-9]{2}):(?P<M>[0-9]{2}):(?P<S>[0-9]{2})(?P<f>\.[0-9]+)?)?"
    r"(?P<tz>Z|[+-][0-9]{2}:[0-9]{2})?"
)
"""``xsd:date`` and ``xsd:dateTime`` (XML Schema 1.0, as libxml2 reads them)."""
AUTHORED: Final = re.compile(
    _DAY + r"(?:[Tt ](?P<H>[0-9]{2}):(?P<M>[0-9]{2})(?::(?P<S>[0-9]{2})(?P<f>\.[0-9]+)?)?)?"
    r"(?P<tz>[Zz]|[+-][0-9]{2}:[0-9]{2})?"
)
"""What authors write: the schema's forms, W3C Datetime's ``hh:mm``, RFC 3339's spellings."""
NOT_THIS_SYNTAX: Final = "is not YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with Z or +hh:mm"
_LATEST_OFFSET: Final = dt.timedelta(hours=14)


class WrittenDate(NamedTuple):
    """A date or timestamp as written: ``wall`` is its date and time of day, without a zone
    (midnight for a plain date, ``24:00:00`` already the next day's start, a fraction cut to
    microseconds); ``offset`` is the zone's offset when one is written."""

    wall: dt.datetime
    has_time: bool
    offset: dt.timedelta | None


def read_date_text(text: str, syntax: re.Pattern[str]) -> WrittenDate | str:
    """Read ``text`` (already without surrounding whitespace) in ``syntax``, :data:`SCHEMA`
    or :data:`AUTHORED`; or say why it is not a date: the reason completes a sentence that
    names the value (``"2024-13-01" has month 13``)."""
    match = syntax.fullmatch(text)
    if match is None or match["neg"]:
        return NOT_THIS_SYNTAX
    year, month, day = int(match["y"]), int(match["m"]), int(match["d"])
    if len(match["y"]) > 4 and match["y"].startswith("0"):
        return "has a year with a leading zero"
    has_time = match["H"] is not None
    hour, minute = (int(match["H"]), int(match["M"])) if has_time else (0, 0)
    second = int(match["S"]) if match["S"] is not None else 0
    fraction = match["f"] or ""
    next_day = hour == 24 and minute == 0 and second == 0 and not fraction.strip(".0")
    if next_day:
        hour = 0
    if not 1 <= month <= 12:
        return f"has month {month:02d}"
    if hour > 23 or minute > 59 or second > 59:
        return "has a time of day out of range"
    offset = None
    zone = match["tz"]
    if zone is not None:
        offset = _offset(zone)
        if offset is None:
            return f"has time zone {zone}; offsets run from -14:00 to +14:00"
    if year > 9999:
        return "has a year after 9999"
    if year == 0:
        return "has year 0000"
    # Any number of fraction digits names an instant; microseconds are what Python holds.
    micro = int(fraction[1:7].ljust(6, "0")) if fraction else 0
    try:
        wall = dt.datetime(year, month, day, hour, minute, second, micro)
    except ValueError:
        return f"is not a calendar date (day {day:02d} of month {month:02d} in {year})"
    if next_day:
        try:
            wall += dt.timedelta(days=1)
        except OverflowError:
            return "has a year after 9999"
    return WrittenDate(wall, has_time, offset)


def _offset(zone: str) -> dt.timedelta | None:
    """The offset ``Z`` or ``+hh:mm`` names, or None beyond the schema's -14:00 to +14:00."""
    if zone in ("Z", "z"):
        return dt.timedelta(0)
    hours, minutes = int(zone[1:3]), int(zone[4:6])
    offset = dt.timedelta(hours=hours, minutes=minutes)
    if minutes > 59 or offset > _LATEST_OFFSET:
        return None
    return -offset if zone[0] == "-" else offset
