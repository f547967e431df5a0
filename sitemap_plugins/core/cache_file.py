"""The one way our caches reach the disk: JSON, replaced atomically, failures only ever a miss.

A cache is read by the next build, maybe while this one is killed half-way through writing it;
a reader must see the old file or the new one, never part of one.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

__all__ = ["write_json"]


def write_json(path: Path, data: object) -> bool:
    """Write ``data`` as compact JSON over ``path`` atomically; False if it could not be."""
    temp: Path | None = None
    try:
        text = json.dumps(data, separators=(",", ":"))
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}-", suffix=".tmp")
        temp = Path(name)
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
        temp.replace(path)
        temp = None
        return True
    except (OSError, ValueError):
        return False
    finally:
        if temp is not None:
            with contextlib.suppress(OSError):
                temp.unlink()
