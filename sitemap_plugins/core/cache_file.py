"""The one way our caches reach the disk and come back: JSON, replaced atomically, each file
headed by who wrote it, failures only ever a miss.

A cache is read by the next build, maybe while this one is killed half-way through writing it;
a reader must see the old file or the new one, never part of one. That next build may also run
another version of this package: caches travel with the site (CI restores Material's ``.cache``
with actions/cache, a Sphinx doctree folder, Pelican's ``cache/``), and what one version decided
from a page, a source or the history need not be what another decides. So a cache is used only
by the package version that wrote it, in the format it was written in (:func:`cache_header`,
:func:`read_cache`).
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Final, TextIO

from sitemap_plugins import __version__

__all__ = [
    "KEPT_PER_KIND",
    "cache_header",
    "forget_oldest",
    "read_cache",
    "write_json",
    "write_json_rows",
]

_COMPACT: Final = (",", ":")
_BATCH: Final = 1024
"""Rows converted to JSON text at once by :func:`write_json_rows`."""
KEPT_PER_KIND: Final = 16
"""How many caches of one kind a folder keeps (see :func:`forget_oldest`): a project's own
output folders and repositories, with room for a few it has left behind."""


def cache_header(format_number: int) -> dict[str, object]:
    """The keys every cache file starts with: its format and the package version that wrote it.

    Both are needed: an install from git keeps one package version across commits, which only
    the format number tells apart, and a release may change a decision without its writer
    remembering to change a format number, which the package version catches.
    """
    return {"version": format_number, "package": __version__}


def read_cache(path: Path, format_number: int) -> dict[str, Any]:
    """The JSON object ``path`` holds, when :func:`cache_header` of ``format_number`` in this
    package version headed it; else OSError or ValueError, which every reader takes as a miss,
    as it takes a file that cannot be read."""
    with open(path, encoding="utf-8") as stream:
        data: object = json.load(stream)
    if not isinstance(data, dict):
        raise ValueError("no cache")
    if (data.get("version"), data.get("package")) != (format_number, __version__):
        raise ValueError("written in another format, or by another version of the package")
    return data


def write_json(path: Path, data: object) -> bool:
    """Write ``data`` as compact JSON over ``path`` atomically; False if it could not be."""
    return _replace(path, lambda stream: stream.write(json.dumps(data, separators=_COMPACT)))


def write_json_rows(
    path: Path, data: Mapping[str, object], key: str, rows: Iterable[object]
) -> bool:
    """:func:`write_json` of ``data`` with ``rows`` as the list under ``key``, written a batch
    at a time: a long history's commits, converted to JSON values all at once and then to one
    text, held twice their own size again at the end of a first build."""

    def write(stream: TextIO) -> None:
        head = json.dumps({**data, key: []}, separators=_COMPACT)
        stream.write(head[:-2])  # up to the list's "["
        remaining = iter(rows)
        first = True
        while batch := list(itertools.islice(remaining, _BATCH)):
            stream.write(("" if first else ",") + json.dumps(batch, separators=_COMPACT)[1:-1])
            first = False
        stream.write("]}")

    if not isinstance(data, Mapping) or key in data:
        raise ValueError(f"data must be a mapping without {key!r}")
    return _replace(path, write)


def forget_oldest(directory: Path, kind: str, keep: int = KEPT_PER_KIND) -> None:
    """Remove all but the ``keep`` caches of ``kind`` (the start of their names) in ``directory``
    written last, each with the files that share its stem (a history's answers and commits).

    A cache is named by what it is about (an output folder, a repository's path), and some of
    those are never seen again: ``mkdocs serve`` builds into a new temporary folder each time
    it starts, and CI may restore a cache written at another checkout path. Without a bound
    the folder would grow by a file for each of them, for good. Called after a cache is
    written, which a build does only when what it keeps has changed; a cache removed here is
    only ever a miss.
    """
    newest: dict[str, int] = {}
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.name.startswith(f"{kind}-") and entry.name.endswith(".json"):
                    stem = entry.name.split(".", 1)[0]
                    with contextlib.suppress(OSError):
                        written = entry.stat(follow_symlinks=False).st_mtime_ns
                        newest[stem] = max(newest.get(stem, written), written)
    except OSError:
        return
    if len(newest) <= keep:
        return
    old = set(sorted(newest, key=newest.__getitem__, reverse=True)[keep:])
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            if entry.name.split(".", 1)[0] in old:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)  # noqa: PTH108 - a DirEntry's path


def _replace(path: Path, write: Callable[[TextIO], object]) -> bool:
    temp: Path | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
        temp = Path(name)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            write(stream)
        temp.replace(path)
        temp = None
        return True
    except (OSError, ValueError):
        return False
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                temp.unlink()
