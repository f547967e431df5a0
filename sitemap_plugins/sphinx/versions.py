"""Builds of one version among many, each from a copy of its commit's tree.

sphinx-multiversion copies each version's tree out of the repository with ``git archive``, into
a temporary folder named after the commit, and runs Sphinx on that copy with the checkout's own
``conf.py`` (``-c``); its metadata names the copy (``basedir``). sphinx-polyversion copies a
worktree of the commit into a temporary folder and runs ``sphinx-build`` on the source folder
inside it, from the folder it was started in (the repository, as its documentation runs it),
with the revision it builds in ``POLYVERSION_DATA``; the copy's top is not named, so the core
finds it from the commit. Either way the copy holds no ``.git``: without this, its pages would
be files of no repository.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Final, NamedTuple

from sphinx.config import Config

__all__ = ["VersionCopy", "version_copy"]

_COMMIT: Final = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_POLYVERSION_REVISION: Final = "sphinx_polyversion.git.GitRef"


class VersionCopy(NamedTuple):
    """Where a copy of a commit's tree is, which repository it comes from, and the commit."""

    folder: Path
    repository: Path
    commit: str
    within: bool
    """``folder`` lies somewhere in the copy, whose top the tool does not name."""


def version_copy(config: Config, confdir: Path, srcdir: Path) -> VersionCopy | None:
    """The copy of a commit's tree that sphinx-multiversion or sphinx-polyversion runs this
    build on; None for any other build."""
    return _multiversion(config, confdir) or _polyversion(srcdir)


def _multiversion(config: Config, confdir: Path) -> VersionCopy | None:
    # Its configuration values exist only where its extension is loaded.
    current = getattr(config, "smv_current_version", None)
    metadata = getattr(config, "smv_metadata", None)
    if not current or not isinstance(metadata, Mapping):
        return None
    version = metadata.get(current)
    basedir = version.get("basedir") if isinstance(version, Mapping) else None
    if not isinstance(basedir, str) or not basedir:
        return None
    commit = Path(basedir).name
    return VersionCopy(Path(basedir), confdir, commit, False) if _COMMIT.fullmatch(commit) else None


def _polyversion(srcdir: Path) -> VersionCopy | None:
    """The revision of ``POLYVERSION_DATA``'s ``current``, as sphinx-polyversion's default data
    writes it: ``{"__jsonclass__": ["sphinx_polyversion.git.GitRef", [name, commit, ...]]}``."""
    text = os.environ.get("POLYVERSION_DATA")
    if not text:
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    current = data.get("current") if isinstance(data, dict) else None
    encoded = current.get("__jsonclass__") if isinstance(current, dict) else None
    if not (
        isinstance(encoded, list) and len(encoded) == 2 and encoded[0] == _POLYVERSION_REVISION
    ):
        return None
    fields = encoded[1]
    commit = fields[1] if isinstance(fields, list) and len(fields) > 1 else None
    if not isinstance(commit, str) or not _COMMIT.fullmatch(commit):
        return None
    try:
        repository = Path.cwd()
    except OSError:  # the folder it was started in is gone
        return None
    return VersionCopy(srcdir, repository, commit, True)
