"""The dates a content's author wrote, not those Pelican filled in from ``DEFAULT_DATE``.

Pelican merges ``DEFAULT_DATE`` into every content's metadata before the reader's own: a fixed
value (a tuple or a string) becomes ``date``, ``'fs'`` makes ``date`` and ``modified`` the source
file's time. The content keeps no trace of where a value came from, so a value counts as filled
in when it is exactly what ``DEFAULT_DATE`` gives for that file (worked out the way Pelican
does), and neither ``FILENAME_METADATA``/``PATH_METADATA`` nor ``EXTRA_PATH_METADATA``, which the
author writes and which take precedence, gave the field. A filled-in date is no date at all: the
page is dated like a page without one (git...), and a listing counts it by its source file.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from pelican.readers import parse_path_metadata, path_metadata
from pelican.utils import get_date

from sitemap_plugins.core.lastmod import is_future

__all__ = ["AuthorDates"]

_UNKNOWN: Final = object()
"""Not asked yet (None is an answer: no date)."""


class AuthorDates:
    """Each content's own ``modified``, else ``date``, as the author wrote it."""

    def __init__(
        self, settings: Mapping[str, Any], content_path: Path, naive_tz: dt.tzinfo
    ) -> None:
        self.default: object = settings.get("DEFAULT_DATE")
        self.settings = settings
        self.extra_path_metadata = {"EXTRA_PATH_METADATA": settings.get("EXTRA_PATH_METADATA")}
        self.content_path = content_path
        self.naive_tz = naive_tz
        self.known: dict[object, object] = {}
        self.in_listings: dict[object, object] = {}
        self.now = dt.datetime.now(dt.timezone.utc)

    def forget(self) -> None:
        """A new run: sources may have changed (``'fs'`` follows their file times)."""
        self.known = {}
        self.in_listings = {}
        self.now = dt.datetime.now(dt.timezone.utc)

    def listed(self, content: Any) -> object:
        """:meth:`explicit`, as a listing counts it: None for a date in the future, which the
        core refuses on the content's own page (a typo in a year), so that a listing counts
        the content by its source file, as its own page is then dated, and is never older
        than a page it lists."""
        key = getattr(content, "source_path", None) or id(content)
        found = self.in_listings.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            found = self.explicit(content)
            if isinstance(found, dt.date):
                if isinstance(found, dt.datetime) and found.tzinfo is None:
                    found = found.replace(tzinfo=self.naive_tz)
                if is_future(found, self.now):
                    found = None
            self.in_listings[key] = found
        return found

    def explicit(self, content: Any) -> object:
        """``modified``, else ``date``, as the author wrote it; None when there is neither."""
        # Asked for each listing an article is in (seven times on a blog), so asked once.
        key = getattr(content, "source_path", None) or id(content)
        found = self.known.get(key, _UNKNOWN)
        if found is _UNKNOWN:
            filled = self._filled_in(content)
            found = self.known[key] = next(
                (
                    value
                    for name in ("modified", "date")
                    if name not in filled and (value := getattr(content, name, None))
                ),
                None,
            )
        return found

    def published(self, content: Any) -> object:
        """``date`` as the author wrote it (an article's publication), or None when Pelican
        filled it in from ``DEFAULT_DATE``."""
        if "date" in self._filled_in(content):
            return None
        return getattr(content, "date", None) or None

    def _filled_in(self, content: Any) -> frozenset[str]:
        default = self.default
        source = getattr(content, "source_path", None)
        if not default or not source:
            return frozenset()
        path = Path(source)
        try:
            relative = path.relative_to(self.content_path).as_posix()
        except ValueError:
            relative = path.name
        declared = set(parse_path_metadata(relative, settings=self.settings))
        declared.update(path_metadata(str(path), relative, settings=self.extra_path_metadata))
        try:
            if default == "fs":
                value = dt.datetime.fromtimestamp(path.stat().st_mtime)
                fields: tuple[str, ...] = ("date", "modified")
            elif isinstance(default, str):
                value = get_date(default)
                fields = ("date",)
            elif isinstance(default, (tuple, list)):
                value = dt.datetime(*default)
                fields = ("date",)
            else:
                return frozenset()
        except (OSError, TypeError, ValueError):
            return frozenset()  # Pelican itself refuses such a DEFAULT_DATE
        return frozenset(
            name
            for name in fields
            if name not in declared and _same_time(getattr(content, name, None), value)
        )


def _same_time(actual: object, filled: dt.datetime) -> bool:
    """Whether a content's date is the filled-in value: Pelican gives a naive one the content's
    time zone, keeping its wall-clock time."""
    if not isinstance(actual, dt.datetime):
        return False
    if filled.tzinfo is None:
        return actual.replace(tzinfo=None) == filled
    return actual == filled
