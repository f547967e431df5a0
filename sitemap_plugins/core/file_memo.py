"""What a build read from each file, kept for the next build while the file stays as it was.

An incremental build (Sphinx without ``-E``, ``mkdocs build --dirty``) changes a handful of
files, yet the sitemap needs something from every page: what its rendered head says (robots
``noindex``, a redirect), and on MkDocs the front matter of sources MkDocs did not read this
time. A file whose size and modification time are those of the last read says what it said
then. Like the history cache, this is only ever an optimisation: a missing, stale or unreadable
memo means every file is read, and so does one written by another version of the package, or in
another format of the memo or of its kind's values (:func:`.cache_file.read_cache`): a file's
size and time say it did not change, not that this version would read it as that one did.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import time
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.core.cache_file import cache_header, forget_oldest, read_cache, write_json

__all__ = ["FileMemo", "Stamp"]

_VERSION: Final = 3
"""The memo's own layout (stamps and values per file, the scope). A kind's values have a format
of their own, which the module that decides them keeps (``format_number``). 3: the file names
the package version and its kind's format; 2 had neither; 1: page reads only, in another layout."""
_RACY_NS: Final = 50_000_000
"""A file changed this recently (50 ms) may change again within the same tick of its file
system's clock, unseen by its size and time: it is read again next time, never remembered."""
_REWRITE_SHARE: Final = 32
"""A memo is rewritten once the entries a build changed reach 1/32 of its old and new entries.
Rewriting costs every file's entry (about 4.5 ms for 3,000 pages); reading a file that missed
the memo again costs about 12 µs (a page's head, or a front matter): until that share, the
reads the next builds repeat cost less than a rewrite at every build."""

Stamp = tuple[int, int]
"""A file's size and modification time in nanoseconds, as the memo compares them."""


class FileMemo:
    """One kind of read (``kind``: ``"pages"``, ``"sources"``) of the files under one folder
    (``scope``), kept in ``directory``; None keeps nothing and every file is read.
    ``format_number`` is the format of the kind's values: a memo of another is not used."""

    def __init__(self, directory: Path | None, kind: str, scope: str, format_number: int) -> None:
        self._file: Path | None = None
        self._scope = scope
        self._format = format_number
        self._old: dict[str, list[Any]] = {}
        self._new: dict[str, list[Any]] = {}
        # Older than this, a file may be remembered. Taken once, before any read: a file
        # written during the build is judged as if read at the start, which only ever
        # remembers less.
        self._settled_ns = time.time_ns() - _RACY_NS
        if directory is None:
            return
        key = hashlib.sha256(scope.encode("utf-8", "surrogateescape")).hexdigest()[:20]
        self._kind = kind
        self._file = directory / f"{kind}-{key}.json"
        with contextlib.suppress(OSError, ValueError, KeyError, TypeError):
            data = read_cache(self._file, _VERSION)
            if (data["values"], data["scope"]) == (format_number, scope):
                self._old = dict(data["files"])

    def recall(self, name: str) -> tuple[Stamp | None, list[Any] | None]:
        """The file's stamp (None if it cannot be read, or nothing is kept: then not even
        looked at) and the value remembered for exactly that stamp, if any. A value recalled
        is kept for the next build as it is."""
        if self._file is None:
            return None, None
        try:
            info = os.stat(name)  # noqa: PTH116 - per file, every build: no Path made
        except OSError:
            return None, None
        stamp = (info.st_size, info.st_mtime_ns)
        old = self._old.get(name)
        if old is None or len(old) < 2 or old[0] != stamp[0] or old[1] != stamp[1]:
            return stamp, None
        self._new[name] = old
        return stamp, old[2:]

    def remember(self, name: str, stamp: Stamp, value: list[Any]) -> None:
        """Keep ``value`` (JSON) for the file as it was at ``stamp``; a file too fresh keeps
        nothing, not even what an earlier build kept."""
        if stamp[1] < self._settled_ns:
            self._new[name] = [*stamp, *value]
        else:
            self.forget(name)

    def forget(self, name: str) -> None:
        """Keep nothing for the file: the next build reads it again."""
        self._new.pop(name, None)

    def save(self) -> None:
        """Keep this build's values, and only them: a file no longer read is forgotten.

        An incremental build changes a handful of files out of thousands: the memo then stays
        as it is, and those files miss it (their size or time moved) until enough of them
        justify a rewrite (:data:`_REWRITE_SHARE`).
        """
        if self._file is None:
            return
        old = self._old
        recalled = sum(1 for name, value in self._new.items() if old.get(name) is value)
        changed = len(self._new) + len(old) - 2 * recalled
        if changed * _REWRITE_SHARE < len(self._new) + len(old) or not changed:
            return
        header = {**cache_header(_VERSION), "values": self._format, "scope": self._scope}
        if write_json(self._file, {**header, "files": self._new}):
            forget_oldest(self._file.parent, self._kind)
