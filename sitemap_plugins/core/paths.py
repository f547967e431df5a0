"""File paths as plain strings, for the loops that run once per file of a site, every build."""

from __future__ import annotations

import os
from typing import Final

from sitemap_plugins.core.model import FilePath

__all__ = ["absolute_path"]

_PLAIN_SEPARATORS: Final = os.sep == "/" and os.altsep is None
"""Whether ``/`` is the only separator, as on POSIX: :func:`absolute_path`'s checks hold there."""


def absolute_path(path: FilePath) -> str:
    """``os.path.abspath(path)``, without its work for a path that already is its own answer.

    Hosts name most files by absolute, normalised paths; ``abspath`` would still parse each one,
    for a third of what looking up a file's date costs. A path with no ``//``, no ``/.`` (which
    ``.`` and ``..`` segments need, as do hidden names, which then only take the long way) and
    no ``/`` at its end is one that ``abspath`` returns unchanged.
    """
    text = os.fspath(path)
    if (
        _PLAIN_SEPARATORS
        and text.startswith("/")
        and not text.endswith("/")
        and "/." not in text
        and "//" not in text
    ):
        return text
    return os.path.abspath(text)  # noqa: PTH100
