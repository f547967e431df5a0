"""A real build's cache file, rewritten as an older release of the package would have left it.

CI restores a site's caches from earlier runs (Material's ``.cache``, a Sphinx doctree folder,
Pelican's ``cache/``), and those runs may have used another release. The tests that show such a
cache is never used start from what a real build wrote, then give it the header an older release
wrote (the same format number, another package version) and the values that release decided.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["OLDER_RELEASE", "as_an_older_release_wrote_it"]

OLDER_RELEASE = "0.0.1"


def as_an_older_release_wrote_it(path: Path, values: Callable[[dict[str, Any]], None]) -> None:
    """Rewrite the cache at ``path``: its header names :data:`OLDER_RELEASE`, and ``values``
    changes what it holds into what that release decided."""
    data = json.loads(path.read_text(encoding="utf-8"))
    data["package"] = OLDER_RELEASE
    values(data)
    path.write_text(json.dumps(data), encoding="utf-8")
