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
import functools
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
    """A date or timestamp as written: ``moment`` is its date and time of day (midnight for a
    plain date, ``24:00:00`` already the next day's start, a fraction cut to microseconds) in
    the zone written, else in the reader's ``naive_zone``; ``offset`` is the zone's offset
    when one is written."""

    moment: dt.datetime
    has_time: bool
    offset: dt.timedelta | None


def read_date_text(
    text: str, syntax: re.Pattern[str], naive_zone: dt.tzinfo | None = None
) -> WrittenDate | str:
    """Read ``text`` (already without surrounding whitespace) in ``syntax``, :data:`SCHEMA`
    or :data:`AUTHORED`; or say why it is not a date: the reason completes a sentence that
    names the value (``"2024-13-01" has month 13``).

    Text without a zone is read in ``naive_zone`` (naive when None). The zone is given here,
    not set afterwards, because ``datetime.replace`` costs more than reading the text, and
    this runs once per page and once per line of a URL list."""
    match = syntax.fullmatch(text)
    if match is None:
        return NOT_THIS_SYNTAX
    # One groups() call: a lookup by group name costs about as much as reading the number.
    neg, year_text, month_text, day_text, hour_text, minute_text, second_text, fraction, zone = (
        match.groups()
    )
    if neg:
        return NOT_THIS_SYNTAX
    year, month, day = int(year_text), int(month_text), int(day_text)
    if len(year_text) > 4 and year_text.startswith("0"):
        return "has a year with a leading zero"
    has_time = hour_text is not None
    hour, minute = (int(hour_text), int(minute_text)) if has_time else (0, 0)
    second = int(second_text) if second_text is not None else 0
    fraction = fraction or ""
    next_day = hour == 24 and minute == 0 and second == 0 and not fraction.strip(".0")
    if next_day:
        hour = 0
    if not 1 <= month <= 12:
        return f"has month {month:02d}"
    if hour > 23 or minute > 59 or second > 59:
        return "has a time of day out of range"
    offset = None
    tzinfo = naive_zone
    if zone is not None:
        known = _zone(zone)
        if known is None:
            return f"has time zone {zone}; offsets run from -14:00 to +14:00"
        offset, tzinfo = known
    if year > 9999:
        return "has a year after 9999"
    if year == 0:
        return "has year 0000"
    # Any number of fraction digits names an instant; microseconds are what Python holds.
    micro = int(fraction[1:7].ljust(6, "0")) if fraction else 0
    try:
        moment = dt.datetime(year, month, day, hour, minute, second, micro, tzinfo)
    except ValueError:
        return f"is not a calendar date (day {day:02d} of month {month:02d} in {year})"
    if next_day:
        try:
            moment += dt.timedelta(days=1)
        except OverflowError:
            return "has a year after 9999"
    return WrittenDate(moment, has_time, offset)


@functools.lru_cache(maxsize=256)
def _zone(zone: str) -> tuple[dt.timedelta, dt.timezone] | None:
    """The offset ``Z`` or ``+hh:mm`` names and its zone (UTC's own for ``Z`` and
    ``+00:00``), or None beyond the schema's -14:00 to +14:00.

    Cached: a site or a URL list writes few zones, and building a timedelta and a timezone
    for each of millions of lines was most of the time spent reading one."""
    if zone in ("Z", "z"):
        return dt.timedelta(0), dt.timezone.utc
    hours, minutes = int(zone[1:3]), int(zone[4:6])
    offset = dt.timedelta(hours=hours, minutes=minutes)
    if minutes > 59 or offset > _LATEST_OFFSET:
        return None
    if zone[0] == "-":
        offset = -offset
    return offset, (dt.timezone(offset) if offset else dt.timezone.utc)
