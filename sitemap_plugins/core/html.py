"""What a rendered page's ``<head>`` says about whether it belongs in a sitemap.

Hosts render pages we do not control (themes, redirect plugins), so the HTML is the only place a
``robots noindex`` meta or a redirect stub shows. This runs on every page of a build, so only
the head is read (from a file, never more than the head), only its ``<meta>`` tags are looked at,
and only those that could matter are parsed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Final

from sitemap_plugins.core.model import Reason

__all__ = ["head_of", "head_reason"]

_HEAD_END: Final = re.compile(r"</head\s*>", re.IGNORECASE)
_META_TAG: Final = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_RELEVANT: Final = re.compile(r"robots|bot\b|refresh", re.IGNORECASE)
_ROBOTS_NAMES: Final = frozenset({"robots", "googlebot", "bingbot"})
_CHUNK: Final = 16_384
_MOST: Final = 1_048_576
"""A head longer than this (inline scripts and styles) is read no further."""


class _MetaAttributes(HTMLParser):
    """The attributes of one ``<meta>`` tag, with entities decoded as a browser would."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.values = {name.lower(): (value or "") for name, value in attrs}

    handle_startendtag = handle_starttag


def head_of(page: str | Path) -> str:
    """The page's text up to the end of its head: the text itself, or read from its file.

    A file is read in pieces until ``</head>`` shows, so the body of a long page is never read; a
    file that cannot be read has no head to say anything.
    """
    if isinstance(page, str):
        end = _HEAD_END.search(page)
        return page if end is None else page[: end.start()]
    parts: list[str] = []
    try:
        with open(page, encoding="utf-8", errors="replace") as stream:
            read, tail = 0, ""
            while read < _MOST:
                chunk = stream.read(_CHUNK)
                if not chunk:
                    break
                parts.append(chunk)
                read += len(chunk)
                if _HEAD_END.search(tail + chunk):  # also when </head> spans two pieces
                    break
                tail = chunk[-16:]
    except OSError:
        return ""
    return head_of("".join(parts))


def _meta_tags(head: str) -> list[dict[str, str]]:
    found = []
    for tag in _META_TAG.findall(head):
        if _RELEVANT.search(tag):
            parser = _MetaAttributes()
            parser.feed(tag)
            parser.close()
            found.append(parser.values)
    return found


def _asks_noindex(values: dict[str, str]) -> bool:
    name = values.get("name", "").strip().lower()
    return name in _ROBOTS_NAMES and "noindex" in values.get("content", "").lower()


def _redirects(values: dict[str, str]) -> bool:
    return values.get("http-equiv", "").strip().lower() == "refresh" and "url=" in values.get(
        "content", ""
    ).lower().replace(" ", "")


def head_reason(page: str | Path) -> Reason | None:
    """Why a rendered page stays out of the sitemap, from one scan of its head, or None."""
    tags = _meta_tags(head_of(page))
    if any(_redirects(values) for values in tags):
        return Reason.REDIRECT_STUB
    if any(_asks_noindex(values) for values in tags):
        return Reason.NOINDEX
    return None
