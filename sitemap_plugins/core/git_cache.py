"""A repository's history pass, kept on disk so that the next build starts from it.

Reading the whole history is the one cost of true dates that grows with the repository; a build
whose HEAD did not move needs none of it again, and one whose HEAD moved needs only the new
commits. The cache lives in the host's own cache place and is only ever an optimisation: a
missing, stale, corrupt or unwritable file means one full pass, never a different answer.

Two files per repository: the answers (small, all that a build at the same HEAD reads), and the
commits behind them (read only when HEAD has moved), each naming the HEAD it belongs to and the
walk that wrote both: two builds sharing one cache folder (two configurations of one site) can
interleave their writes, and commits diffed for one walk's paths know nothing of the other's.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from itertools import chain
from pathlib import Path
from types import MappingProxyType
from typing import Any, Final, NamedTuple

from sitemap_plugins.core.cache_file import (
    cache_header,
    forget_oldest,
    read_cache,
    write_json,
    write_json_rows,
)
from sitemap_plugins.core.git_history import Commit

__all__ = ["HistoryCache", "StoredWalk"]

_KIND: Final = "git-history"
"""How the names of this cache's files start (see :func:`.cache_file.forget_oldest`)."""
_VERSION: Final = 7
"""The files' format. It must change whenever a pass would be answered differently: the log
git runs or how its output is read (:mod:`.git_history`), or how the answers are drawn from the
commits (:mod:`.git_dates`: last changes, cut and link paths, removals). A file of another
format, or written by another version of the package, is a miss
(:func:`.cache_file.read_cache`). 7: the paths whose every change is ignored, and the
ignored commits in the files' names and headers; 6: the folders each commit deleted files
from, and the answers' newest deletion per folder; 5: every file names the package version
and its walk; 4 kept answers of a pass that ``log.follow = true`` in a user's git config
had left without dates."""
_ERRORS: Final = (OSError, ValueError, KeyError, TypeError, AttributeError)


class StoredWalk(NamedTuple):
    """One repository's pass: each wanted path's last change as its date text, the paths whose
    last change was traced to a shallow boundary, the commits HEAD reaches with their wanted
    paths' changes (None until they are needed), and how merges were diffed (against their
    first parent, or against each parent with git older than 2.31).

    Dates and cut paths are kept apart, not as a pair per path: a build loads this before the
    host renders, and a pair per path was thousands of objects more for the host's collector
    to count and walk, as many times as the stored JSON's own pairs."""

    head: str
    boundary: frozenset[bytes]
    paths: frozenset[str]
    dates: dict[str, str]
    cut: frozenset[str]
    commits: list[Commit] | None
    first_parent_diffs: bool = True
    links: frozenset[str] = frozenset()
    """The wanted paths HEAD holds as symbolic links: their pages read the files they name."""
    walk: str = ""
    """The stored pass's own name, written in both its files; empty until stored."""
    folders: frozenset[str] = frozenset()
    """The folders whose deletions were asked for besides ``paths`` (their pathspecs include
    them: see :func:`.git_history.pathspecs`)."""
    removed: Mapping[str, str] = MappingProxyType({})
    """Each folder a commit HEAD reaches deleted a file from, with the newest such commit's
    date as text: what a page listing the folder's files last lost."""
    bound: str = ""
    """In a shallow clone, the newest date of the commits it stops at, as text: a deletion
    before them is not seen, and was no later than that."""
    skipped: frozenset[str] = frozenset()
    """The wanted paths HEAD holds whose every change is in an ignored commit: no date."""


class HistoryCache:
    """The stored passes of ``directory`` (None: nothing is stored), one per repository, date
    field (committer, author) and set of ignored commits (``ignored``, as
    :attr:`.git_history.IgnoredCommits.key`): the answers depend on all three, so a pass kept
    for one is never read for another."""

    def __init__(self, directory: Path | None, ignored: str = "") -> None:
        self.directory = directory
        self.ignored = ignored

    def _files(self, top: Path, date_format: str) -> tuple[Path, Path] | None:
        if self.directory is None:
            return None
        key = f"{top}\0{date_format}\0{self.ignored}".encode("utf-8", "surrogateescape")
        stem = f"{_KIND}-" + hashlib.sha256(key).hexdigest()[:20]
        return self.directory / f"{stem}.json", self.directory / f"{stem}.commits.json"

    def load(self, top: Path, date_format: str) -> StoredWalk | None:
        """The stored answers (commits not read yet), or None when none can be trusted."""
        files = self._files(top, date_format)
        if files is None:
            return None
        try:
            data = _read(files[0], top, date_format, self.ignored)
            dates = data["dates"]
            removed = data["removed"]
            if not all(isinstance(text, str) for text in chain(dates.values(), removed.values())):
                raise TypeError("a date that is no text")
            return StoredWalk(
                head=str(data["head"]),
                boundary=frozenset(sha.encode() for sha in data["boundary"]),
                paths=frozenset(map(str, data["paths"])),
                dates=dates,  # JSON keys are text already
                cut=frozenset(map(str, data["cut"])),
                commits=None,
                first_parent_diffs=bool(data["first_parent_diffs"]),
                links=frozenset(map(str, data["links"])),
                walk=str(data["walk"]),
                folders=frozenset(map(str, data["folders"])),
                removed=removed,
                bound=str(data["bound"]),
                skipped=frozenset(map(str, data["skipped"])),
            )
        except _ERRORS:
            return None

    def load_commits(self, top: Path, date_format: str, walk: StoredWalk) -> list[Commit] | None:
        """The commits stored with the answers ``walk`` (from :meth:`load`), or None: commits
        of another walk, even at the same HEAD, were diffed for other paths."""
        files = self._files(top, date_format)
        if files is None:
            return None
        try:
            data = _read(files[1], top, date_format, self.ignored)
            if (data["head"], data["walk"]) != (walk.head, walk.walk):
                return None
            ids: dict[bytes, bytes] = {}  # each id one object, as parse_log makes them
            return [_commit(item, ids) for item in data["commits"]]
        except _ERRORS:
            return None

    def save(self, top: Path, date_format: str, walk: StoredWalk) -> None:
        """Write the pass for the next build; a cache that cannot be written is simply not kept.

        The commits go first: answers that name a HEAD whose commits are missing only cost a
        full pass once HEAD moves, never a wrong date.
        """
        files = self._files(top, date_format)
        if files is None:
            return
        common = {
            **cache_header(_VERSION),
            "top": str(top),
            "format": date_format,
            "ignored": self.ignored,
            "head": walk.head,
            "walk": os.urandom(8).hex(),  # the same in both files: they belong together
        }
        if walk.commits is not None:
            commits = (
                [c.sha.decode(), [p.decode() for p in c.parents], c.date.decode(),
                 {name: change.decode() for name, change in c.changes.items()}, c.removed]
                for c in walk.commits
            )  # fmt: skip
            if not write_json_rows(files[1], common, "commits", commits):
                return
        answers = {
            "boundary": sorted(sha.decode() for sha in walk.boundary),
            "paths": sorted(walk.paths),
            "dates": dict(sorted(walk.dates.items())),
            "cut": sorted(walk.cut),
            "first_parent_diffs": walk.first_parent_diffs,
            "links": sorted(walk.links),
            "folders": sorted(walk.folders),
            "removed": dict(sorted(walk.removed.items())),
            "bound": walk.bound,
            "skipped": sorted(walk.skipped),
        }
        if write_json(files[0], {**common, **answers}):
            forget_oldest(files[0].parent, _KIND)


def _read(path: Path, top: Path, date_format: str, ignored: str) -> Any:
    data = read_cache(path, _VERSION)
    if (data["top"], data["format"], data["ignored"]) != (str(top), date_format, ignored):
        raise ValueError("another pass")
    return data


def _commit(item: Any, ids: dict[bytes, bytes]) -> Commit:
    sha, parents, date, changes, removed = item
    shared = [ids.setdefault(one, one) for one in (sha.encode(), *map(str.encode, parents))]
    return Commit(
        shared[0],
        shared[1:],
        date.encode(),
        {str(name): change.encode() for name, change in changes.items()},
        tuple(map(str, removed)) if removed else (),
    )
