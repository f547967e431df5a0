"""The one way our caches reach the disk: JSON, replaced atomically, failures only ever a miss.

A cache is read by the next build, maybe while this one is killed half-way through writing it;
a reader must see the old file or the new one, never part of one.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import tempfile
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Final, TextIO

__all__ = ["write_json", "write_json_rows"]

_COMPACT: Final = (",", ":")
_BATCH: Final = 1024
"""Rows converted to JSON text at once by :func:`write_json_rows`."""


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
