"""Builds that sphinx-multiversion runs: one per version, each from a copy of a commit's tree.

sphinx-multiversion copies each version's tree out of the repository with ``git archive``, into
a temporary folder named after the commit, and runs Sphinx on that copy with the checkout's own
``conf.py`` (``-c``). The copy holds no ``.git``, so its pages would be files of no repository;
its metadata names the copy (``basedir``), and the copy's name is the commit, which the pages'
history is read at.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from sphinx.config import Config

__all__ = ["version_copy"]

_COMMIT: Final = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def version_copy(config: Config) -> tuple[Path, str] | None:
    """The copy of a commit's tree that sphinx-multiversion runs this build on, and that
    commit; None for any other build (its values exist only where its extension is loaded)."""
    current = getattr(config, "smv_current_version", None)
    metadata = getattr(config, "smv_metadata", None)
    if not current or not isinstance(metadata, Mapping):
        return None
    version = metadata.get(current)
    basedir = version.get("basedir") if isinstance(version, Mapping) else None
    if not isinstance(basedir, str) or not basedir:
        return None
    commit = Path(basedir).name
    return (Path(basedir), commit) if _COMMIT.fullmatch(commit) else None
