"""What a rendered page's ``<head>`` says about whether it belongs in a sitemap.

Hosts render pages we do not control (themes, redirect plugins), so the HTML is the only place a
``robots noindex`` meta or a redirect stub shows. This runs on every page of a build, so only
the ``<meta>`` tags of the head are looked at, and only those that could matter are parsed.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Final

_HEAD_END: Final = re.compile(r"</head\s*>", re.IGNORECASE)
_META_TAG: Final = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_RELEVANT: Final = re.compile(r"robots|bot\b|refresh", re.IGNORECASE)
_ROBOTS_NAMES: Final = frozenset({"robots", "googlebot", "bingbot"})


class _MetaAttributes(HTMLParser):
    """The attributes of one ``<meta>`` tag, with entities decoded as a browser would."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.values = {name.lower(): (value or "") for name, value in attrs}

    handle_startendtag = handle_starttag


def _meta_tags(html: str) -> list[dict[str, str]]:
    end = _HEAD_END.search(html)
    head = html if end is None else html[: end.start()]
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


def has_robots_noindex(html: str) -> bool:
    """Whether the page asks search engines not to index it."""
    return any(_asks_noindex(values) for values in _meta_tags(html))


def is_redirect_stub(html: str) -> bool:
    """Whether the page is a meta-refresh redirect (as mkdocs-redirects and others write)."""
    return any(_redirects(values) for values in _meta_tags(html))


def head_exclusion(html: str) -> str | None:
    """Why a rendered page stays out of the sitemap, from one scan of its head, or None.

    Adapters call this once per page; the reason is the same words in every host's summary.
    """
    tags = _meta_tags(html)
    if any(_redirects(values) for values in tags):
        return "redirect stub"
    if any(_asks_noindex(values) for values in tags):
        return "noindex"
    return None
