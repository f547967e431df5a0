"""Bytes for each sitemap element; the only place in the project that produces XML.

Rendering one entry at a time (rather than building a tree) is what lets the writer stream a
million URLs in constant memory and count bytes exactly for the 50 MiB limit.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Final

from sitemap_plugins.core.dates import format_lastmod
from sitemap_plugins.core.model import Entry, IndexEntry

SITEMAP_NS: Final = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS: Final = "http://www.w3.org/1999/xhtml"
IMAGE_NS: Final = "http://www.google.com/schemas/sitemap-image/1.1"
XML_DECLARATION: Final = '<?xml version="1.0" encoding="UTF-8"?>\n'

_ESCAPES: Final = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
)
# Characters XML 1.0 cannot carry at all, even escaped.
_NOT_XML: Final = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# Anything that needs work: markup characters, or characters XML cannot carry.
_NEEDS_ESCAPING: Final = re.compile("[&<>\"'\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def xml_escape(text: str) -> str:
    """Escape for element text and attribute values, dropping characters XML cannot hold.

    Almost every URL needs nothing, so one regex search settles it before any copying: this is
    on the writer's per-URL path.
    """
    if _NEEDS_ESCAPING.search(text) is None:
        return text
    return _NOT_XML.sub("", text).translate(_ESCAPES)


@functools.lru_cache(maxsize=256)
def format_priority(priority: float) -> str:
    """Plain decimal notation (``0.5``, ``0.25``), never an exponent, which the XSD rejects."""
    text = f"{priority:.4f}".rstrip("0")
    return text + "0" if text.endswith(".") else text


def urlset_open(extensions: Iterable[str] = ()) -> str:
    """The XML declaration and ``<urlset>`` start tag, declaring only namespaces in use."""
    declared = [f'xmlns="{SITEMAP_NS}"']
    if "xhtml" in extensions:
        declared.append(f'xmlns:xhtml="{XHTML_NS}"')
    if "image" in extensions:
        declared.append(f'xmlns:image="{IMAGE_NS}"')
    return f"{XML_DECLARATION}<urlset {' '.join(declared)}>\n"


URLSET_CLOSE: Final = "</urlset>\n"
INDEX_OPEN: Final = f'{XML_DECLARATION}<sitemapindex xmlns="{SITEMAP_NS}">\n'
INDEX_CLOSE: Final = "</sitemapindex>\n"


def render_url(entry: Entry, *, lastmod_style: str = "date", indent: int = 0) -> str:
    """One ``<url>`` element with its children in XSD order, then extensions."""
    pad1, pad2, nl = (" " * indent, " " * indent * 2, "\n") if indent else ("", "", "")
    text = f"{pad1}<url>{nl}{pad2}<loc>{xml_escape(entry.loc)}</loc>{nl}"
    if entry.lastmod is not None:
        text += f"{pad2}<lastmod>{format_lastmod(entry.lastmod, lastmod_style)}</lastmod>{nl}"
    if entry.changefreq is not None:
        text += f"{pad2}<changefreq>{entry.changefreq}</changefreq>{nl}"
    if entry.priority is not None:
        text += f"{pad2}<priority>{format_priority(entry.priority)}</priority>{nl}"
    for hreflang, href in entry.alternates:
        text += (
            f'{pad2}<xhtml:link rel="alternate" hreflang="{xml_escape(hreflang)}"'
            f' href="{xml_escape(href)}"/>{nl}'
        )
    for image in entry.images:
        text += f"{pad2}<image:image><image:loc>{xml_escape(image)}</image:loc></image:image>{nl}"
    return text + f"{pad1}</url>\n"


def render_index_entry(entry: IndexEntry, *, lastmod_style: str = "date", indent: int = 0) -> str:
    """One ``<sitemap>`` child of an index."""
    pad1, pad2, nl = " " * indent, " " * indent * 2, "\n" if indent else ""
    text = f"{pad1}<sitemap>{nl}{pad2}<loc>{xml_escape(entry.loc)}</loc>{nl}"
    if entry.lastmod is not None:
        text += f"{pad2}<lastmod>{format_lastmod(entry.lastmod, lastmod_style)}</lastmod>{nl}"
    return text + f"{pad1}</sitemap>\n"
