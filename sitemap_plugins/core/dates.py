"""Reading the dates authors write, and writing them the way the sitemap XSD accepts.

Front matter gives us ``date`` objects (YAML), ``datetime`` objects, or strings in many shapes.
The XSD takes only ``YYYY-MM-DD`` or a full timestamp with an offset, so anything we cannot read
unambiguously is rejected with the value named, never guessed.
"""

from __future__ import annotations

import datetime as dt
import functools
from typing import Final

from sitemap_plugins.core.model import Lastmod

_WITH_OFFSET: Final = len("2024-05-01T10:00:00+02:00")
_ALLOWED: Final = "a date such as 2024-05-01 or a timestamp such as 2024-05-01T10:00:00+02:00"


def parse_lastmod(value: object, *, naive_tz: dt.tzinfo = dt.timezone.utc) -> Lastmod:
    """Read an explicit date: a ``date`` or ``datetime`` as YAML and the hosts give them, or
    text as :data:`~sitemap_plugins.core.date_syntax.AUTHORED` spells it, by one grammar on
    every Python (a date with a zone, which the schema allows and W3C Datetime does not, is
    that date: no time of day is made up for it). Naive times are taken in ``naive_tz`` (UTC
    unless the host has a site time zone, as Pelican does). Raises ``ValueError`` if
    unreadable, with what is allowed, and why this value is not when its form is right
    (``...; this one has month 13``): callers show it as ``(allowed: ...)``."""
    if isinstance(value, dt.datetime):
        return value if value.tzinfo else value.replace(tzinfo=naive_tz)
    if isinstance(value, dt.date):
        return value
    if isinstance(value, str):
        # Imported by the builds that meet a date written as text: most pages have none.
        from sitemap_plugins.core.date_syntax import (
            AUTHORED,
            NOT_THIS_SYNTAX,
            WrittenDate,
            read_date_text,
        )

        written = read_date_text(value.strip(), AUTHORED, naive_tz)
        if isinstance(written, WrittenDate):
            return written.moment if written.has_time else written.moment.date()
        if written != NOT_THIS_SYNTAX:  # the form is right: say what is wrong with the value
            raise ValueError(f"{_ALLOWED}; this one {written}")
    raise ValueError(_ALLOWED)


def utc_day(value: Lastmod) -> dt.date:
    """The calendar day of an instant in UTC, so that every reader agrees on one calendar.

    A commit at 23:30 UTC-5 is the next day in UTC; a bare date is already a day and stays.
    """
    if isinstance(value, dt.datetime):
        return value.astimezone(dt.timezone.utc).date()
    return value


def as_written(value: Lastmod, style: str, *, declared: bool) -> Lastmod:
    """The value to write in ``style``: with ``date``, a declared time keeps the day its author
    wrote (a post dated 23:30 in New York is that day), an instant becomes its UTC day."""
    if style != "date" or not isinstance(value, dt.datetime):
        return value
    return value.date() if declared else utc_day(value)


def format_lastmod(value: Lastmod, style: str) -> str:
    """Render for ``<lastmod>``: the full W3C datetime with its offset, or with ``date`` the day.

    Cached: a site's pages share few distinct dates (one per commit), and this runs per URL.
    The offset is part of the cache key: aware datetimes of one instant in two zones are equal
    (and hash alike), but are written differently.
    """
    offset = value.utcoffset() if isinstance(value, dt.datetime) else None
    return _format_lastmod(value, style, offset)


@functools.lru_cache(maxsize=4096)
def _format_lastmod(value: Lastmod, style: str, offset: dt.timedelta | None) -> str:
    return lastmod_text(value, style)


def lastmod_text(value: Lastmod, style: str) -> str:
    """:func:`format_lastmod` without its cache, for a caller that keeps its own."""
    if isinstance(value, dt.datetime):
        if style == "date":
            return utc_day(value).isoformat()
        stamp = (value.replace(microsecond=0) if value.microsecond else value).isoformat()
        if len(stamp) != _WITH_OFFSET:
            # An offset with seconds (zoneinfo's local mean time, before time zones): the W3C
            # format and the XSD's dateTime have hours and minutes only. The instant in UTC.
            stamp = value.astimezone(dt.timezone.utc).replace(microsecond=0).isoformat()
        return stamp[:-6] + "Z" if stamp.endswith("+00:00") else stamp
    return value.isoformat()


def sort_key(value: Lastmod) -> dt.datetime:
    """Order dates and datetimes together; a bare date counts as the start of its day in UTC."""
    if isinstance(value, dt.datetime):
        return value
    return dt.datetime(value.year, value.month, value.day, tzinfo=dt.timezone.utc)
