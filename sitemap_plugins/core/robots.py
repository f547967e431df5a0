"""Keeping a ``Sitemap:`` line in robots.txt true without disturbing the rest of the file.

``Sitemap:`` lines stand outside user-agent groups, so ours can go anywhere; we replace the line
that names our sitemap (even under an old base URL) and leave every other byte alone.
"""

from __future__ import annotations

import os
import re
import tempfile
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

_SITEMAP_LINE: Final = re.compile(r"^\s*sitemap\s*:\s*(\S+)\s*$", re.IGNORECASE)


def update_robots_txt(robots: Path, sitemap_url: str) -> None:
    """Add or update the ``Sitemap:`` line for ``sitemap_url``; create the file if needed."""
    ours = urlsplit(sitemap_url).path.rsplit("/", 1)[-1]
    try:
        text = robots.read_bytes().decode("utf-8")  # not read_text: keep CRLF line endings
    except FileNotFoundError:
        text = ""
    lines = text.splitlines(keepends=True)
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
    new_text = "".join(result)
    if new_text == text:
        return
    handle, temp = tempfile.mkstemp(dir=robots.parent, prefix=".robots-", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as stream:
            stream.write(new_text)
        Path(temp).replace(robots)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
