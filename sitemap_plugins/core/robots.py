"""Keeping a ``Sitemap:`` line in robots.txt true without disturbing the rest of the file.

``Sitemap:`` lines stand outside user-agent groups, so ours can go anywhere; we replace the line
that names our sitemap (even under an old base URL) and leave every other byte alone.
"""

from __future__ import annotations

import re
from typing import Final
from urllib.parse import urlsplit

_SITEMAP_LINE: Final = re.compile(r"^\s*sitemap\s*:\s*(\S+)\s*$", re.IGNORECASE)


def robots_text(current: str, sitemap_url: str) -> str:
    """``current`` with the ``Sitemap:`` line for ``sitemap_url`` added or updated.

    Pure text in, text out: reading the file (which must be UTF-8) and replacing it without
    changing its mode is the publisher's job, done in step with the sitemap files.
    """
    ours = urlsplit(sitemap_url).path.rsplit("/", 1)[-1]
    lines = current.splitlines(keepends=True)
    result: list[str] = []
    placed = False
    for line in lines:
        match = _SITEMAP_LINE.match(line)
        if match and urlsplit(match.group(1)).path.rsplit("/", 1)[-1] == ours:
            if not placed:
                ending = line[len(line.rstrip("\r\n")) :]
                result.append(f"Sitemap: {sitemap_url}{ending}")
                placed = True
            continue
        result.append(line)
    if not placed:
        if result and not result[-1].endswith("\n"):
            result[-1] += "\n"
        result.append(f"Sitemap: {sitemap_url}\n")
    return "".join(result)


def robots_without(current: str, sitemap_url: str) -> str:
    """``current`` without the ``Sitemap:`` lines naming exactly ``sitemap_url``: a sitemap that
    is no longer published (the news sitemap of a build without recent articles)."""
    lines = current.splitlines(keepends=True)
    kept = [
        line
        for line in lines
        if not ((match := _SITEMAP_LINE.match(line)) and match.group(1) == sitemap_url)
    ]
    return current if len(kept) == len(lines) else "".join(kept)
