"""What each written page said at the last build, for the pages a build did not write again.

An incremental build (Sphinx without ``-E``, ``mkdocs build --dirty``) rewrites a handful of pages,
yet every page it publishes is checked for a robots ``noindex`` or a redirect, which a theme may
add anywhere. A page file whose size and modification time are those of the last read says what
it said then, so only the others are read. Like the history cache, this is only ever an
optimisation: a missing, stale or unreadable file means every page is read.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.core.cache_file import write_json
from sitemap_plugins.core.html import NOTHING_READ, PageRead, read_page
from sitemap_plugins.core.model import Reason

__all__ = ["PageReads"]

_VERSION: Final = 1
_RACY_NS: Final = 50_000_000
"""A file changed this recently (50 ms) may change again within the same tick of its file
system's clock, unseen by its size and time: it is read again next time, never remembered."""


class PageReads:
    """The reads of one output folder's pages, kept in ``directory`` (None: nothing is kept)."""

    def __init__(self, directory: Path | None, output_dir: Path) -> None:
        self._file: Path | None = None
        self._output = str(output_dir.absolute())
        self._old: dict[str, list[Any]] = {}
        self._new: dict[str, list[Any]] = {}
        # Older than this, a page's file may be remembered. Taken once, before any read: a
        # page written during the build is then judged as if read at the start, which only
        # ever remembers less.
        self._settled_ns = time.time_ns() - _RACY_NS
        if directory is None:
            return
        key = self._output.encode("utf-8", "surrogateescape")
        self._file = directory / f"pages-{hashlib.sha256(key).hexdigest()[:20]}.json"
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            data = json.loads(self._file.read_text(encoding="utf-8"))
            if data["version"] == _VERSION and data["output"] == self._output:
                self._old = dict(data["pages"])

    def read(self, page: str | Path, *, images: bool, title: bool = False) -> PageRead:
        """:func:`.html.read_page`, from the last read when the file is as it was then."""
        if self._file is None or not isinstance(page, Path):
            return read_page(page, images=images, title=title)
        name = str(page)
        try:
            info = os.stat(name)  # noqa: PTH116 - per page, every build: no second Path
        except OSError:
            return read_page(page, images=images, title=title)
        stamp = [info.st_size, info.st_mtime_ns, images, title]
        old = self._old.get(name)
        if old is not None and old[:4] == stamp:
            with contextlib.suppress(ValueError, TypeError, KeyError):
                found = _page_read(old[4:])
                self._new[name] = old
                return found
        found = read_page(page, images=images, title=title)
        if info.st_mtime_ns < self._settled_ns:
            reason = None if found.reason is None else found.reason.name
            self._new[name] = [*stamp, reason, list(found.images), found.base, found.title]
        return found

    def save(self) -> None:
        """Keep this build's reads (and only them: a page no longer written is forgotten)."""
        if self._file is None or self._new == self._old:
            return
        write_json(self._file, {"version": _VERSION, "output": self._output, "pages": self._new})


def _page_read(stored: list[Any]) -> PageRead:
    reason, images, base, title = stored
    if reason is None and not images and base is None and title is None:
        return NOTHING_READ  # what most pages say: one shared value
    return PageRead(
        None if reason is None else Reason[reason],
        tuple(str(image) for image in images),
        None if base is None else str(base),
        None if title is None else str(title),
    )
