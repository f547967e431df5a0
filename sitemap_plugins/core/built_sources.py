"""Sources a build wrote itself: their file time is the build's, never a change to date a page by.

The host or a plugin may write pages into the source folder while the site is built (Material's
blog writes ``blog/index.md`` when there is none, sphinx-autoapi keeps its pages there with
``autoapi_keep_files``, a Pelican plugin writes articles at start-up). Git does not track them, so
they would be dated by their file time, as an untracked file is: the time of the build, on every
CI build, written as if the page had changed then. A file time at or after the moment the build
began (:class:`BuildWindow`) is taken for the build's own writing instead, and the file gets no
date; so does the same file at the same time in a later build (:class:`BuiltSources`), since a
generator may leave a file it wrote as it is (autoapi does when its text is the same).

An edit saved while the build ran is indistinguishable from the build's own writing and gets no
date either: the page may or may not show it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from pathlib import Path
from typing import Final

from sitemap_plugins.core.cache_file import cache_header, read_cache, write_json

__all__ = ["BuildWindow", "BuiltSources"]

_SECOND: Final = 1_000_000_000
_COARSE_CLOCK_NS: Final = 20_000_000
"""How far a file's time may lag the clock a process reads (20 ms). File systems stamp files
from a clock that moves only at each timer tick (Linux before 6.13: up to 10 ms behind at the
slowest tick rate, 100 Hz; Windows: about 16 ms), so a file written just after the build read
the time can carry a time just before it. A human's edit saved this close before a build began
is rare, and loses only its date, never gets a wrong one."""
_STEPS: Final = (2 * _SECOND, _SECOND)
"""Whole steps of the file systems that keep coarse times: FAT keeps every other second; ext3,
HFS+ and archives keep whole seconds. A file time that is a whole step may be such a time, cut
down to the step, and is compared with the build's start cut down to the same step."""
_KIND: Final = "built-sources"
_VERSION: Final = 1
"""The record's format: each file's path and the time in nanoseconds a build left it with."""


class BuildWindow:
    """From the moment a build began to ``latest``, the last moment that still counts as now
    (the build's end, with the clock skew a time in the future is allowed).

    A file time inside it was given by the build. One after ``latest`` was not (a clock set
    wrong, a typo in a year): it is said to be in the future where the page's date is decided.
    The start is this process's clock, the file time the file system's: a network file system
    whose server clock lags the build machine's by more than :data:`_COARSE_CLOCK_NS` makes a
    generated file look older than the build, which no margin short enough to keep an edit
    saved just before a rebuild (``mkdocs serve`` rebuilds about a quarter of a second after a
    save) could catch.
    """

    __slots__ = ("_began_ns", "_latest_ns")

    def __init__(self, began: dt.datetime, latest: dt.datetime) -> None:
        self._began_ns = _ns(began) - _COARSE_CLOCK_NS
        self._latest_ns = _ns(latest)

    def holds(self, mtime_ns: int) -> bool:
        """Whether a file time lies in the window, at the file system's precision (a time of
        a whole second is compared with the second the build began in)."""
        if mtime_ns > self._latest_ns:
            return False
        began = self._began_ns
        for step in _STEPS:
            if mtime_ns % step == 0:
                return mtime_ns >= began - began % step
        return mtime_ns >= began


class BuiltSources:
    """The files builds wrote into the sources, each with the time a build left it with, kept in
    ``directory`` (the host's cache place; None keeps them for this process only).

    A file still at that time was not changed since: a build wrote it, whichever one. Edited,
    its time moves and it is dated by it again; committed, git dates it and this is not asked.
    """

    def __init__(self, directory: Path | None) -> None:
        self._file = None if directory is None else directory / f"{_KIND}.json"
        self._times: dict[str, int] | None = None  # read when first asked
        self._changed = False

    def wrote(self, path: str, mtime_ns: int, window: BuildWindow) -> bool:
        """Whether a build wrote the file at ``path`` (resolved) with time ``mtime_ns``: this
        build, when ``window`` holds the time, or an earlier one that left it at that time."""
        times = self._recorded()
        if window.holds(mtime_ns):
            if times.get(path) != mtime_ns:
                times[path] = mtime_ns
                self._changed = True
            return True
        return times.get(path) == mtime_ns

    def save(self) -> None:
        """Keep the record for the next build when this one changed it, without the files that
        are gone or changed since a build wrote them (a stat each: they are few)."""
        if not self._changed or self._times is None:
            return
        self._changed = False
        kept: dict[str, int] = {}
        for path, mtime_ns in self._times.items():
            with contextlib.suppress(OSError, ValueError):
                if os.stat(path).st_mtime_ns == mtime_ns:  # noqa: PTH116 - a path as text
                    kept[path] = mtime_ns
        self._times = kept
        if self._file is not None:
            write_json(self._file, {**cache_header(_VERSION), "files": kept})

    def _recorded(self) -> dict[str, int]:
        if self._times is None:
            self._times = {}
            if self._file is not None:
                with contextlib.suppress(OSError, ValueError, KeyError, TypeError, AttributeError):
                    files = read_cache(self._file, _VERSION)["files"]
                    self._times = {
                        str(path): mtime_ns
                        for path, mtime_ns in files.items()
                        if isinstance(mtime_ns, int)
                    }
        return self._times


def _ns(moment: dt.datetime) -> int:
    """An aware datetime as nanoseconds since the epoch, as file times are given."""
    delta = moment - dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
    return (delta.days * 86_400 + delta.seconds) * _SECOND + delta.microseconds * 1_000
