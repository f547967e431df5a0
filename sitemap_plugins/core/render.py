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
from sitemap_plugins.core.model import Entry, IndexEntry, News, Video

SITEMAP_NS: Final = "http://www.sitemaps.org/schemas/sitemap/0.9"
XHTML_NS: Final = "http://www.w3.org/1999/xhtml"
IMAGE_NS: Final = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS: Final = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS: Final = "http://www.google.com/schemas/sitemap-news/0.9"
XML_DECLARATION: Final = '<?xml version="1.0" encoding="UTF-8"?>\n'

_ESCAPES: Final = str.maketrans(
    {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&apos;"}
)
# Characters XML 1.0 cannot carry at all, even escaped: the few ranges its Char production leaves
# out, listed as such, which compiles ten times faster than the negated production does. Nearly
# every text is ASCII, where only the control characters are out; the full classes, whose
# surrogate range alone takes as long to compile as the rest of this module to import, are
# compiled the first time a text is not ASCII (every build imports this module).
_ASCII_OUT: Final = "\x00-\x08\x0b\x0c\x0e-\x1f"
_NOT_XML_ASCII: Final = re.compile(f"[{_ASCII_OUT}]")
# Anything that needs work: markup characters, or characters XML cannot carry.
_NEEDS_ESCAPING_ASCII: Final = re.compile(f"[&<>\"'{_ASCII_OUT}]")


@functools.cache
def _beyond_ascii() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What :data:`_NOT_XML_ASCII` and :data:`_NEEDS_ESCAPING_ASCII` find, in any text."""
    out = f"{_ASCII_OUT}\ud800-\udfff\ufffe\uffff"
    return re.compile(f"[{out}]"), re.compile(f"[&<>\"'{out}]")


def xml_escape(text: str) -> str:
    """Escape for element text and attribute values, dropping characters XML cannot hold.

    Almost every URL needs nothing, so one regex search settles it before any copying: this is
    on the writer's per-URL path.
    """
    if text.isascii():
        not_xml, needs_escaping = _NOT_XML_ASCII, _NEEDS_ESCAPING_ASCII
    else:
        not_xml, needs_escaping = _beyond_ascii()
    if needs_escaping.search(text) is None:
        return text
    return not_xml.sub("", text).translate(_ESCAPES)


def xml_clean(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot carry (as :func:`xml_escape` drops them),
    for checking a text's length and emptiness as it will be written."""
    return (_NOT_XML_ASCII if text.isascii() else _beyond_ascii()[0]).sub("", text)


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
    if "video" in extensions:
        declared.append(f'xmlns:video="{VIDEO_NS}"')
    if "news" in extensions:
        declared.append(f'xmlns:news="{NEWS_NS}"')
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
    if entry.videos:
        text += "".join(_render_video(video, pad2, " " * indent * 3, nl) for video in entry.videos)
    if entry.news is not None:
        text += _render_news(entry.news, pad2, " " * indent * 3, nl)
    return text + f"{pad1}</url>\n"


def _yes_no(value: bool) -> str:
    return "yes" if value else "no"


def _render_video(video: Video, outer: str, inner: str, nl: str) -> str:
    """``<video:video>`` with its children in the order of the video 1.1 XSD."""
    parts = [
        f"{outer}<video:video>{nl}",
        f"{inner}<video:thumbnail_loc>{xml_escape(video.thumbnail_loc)}</video:thumbnail_loc>{nl}",
        f"{inner}<video:title>{xml_escape(video.title)}</video:title>{nl}",
        f"{inner}<video:description>{xml_escape(video.description)}</video:description>{nl}",
    ]
    if video.content_loc is not None:
        parts.append(
            f"{inner}<video:content_loc>{xml_escape(video.content_loc)}</video:content_loc>{nl}"
        )
    if video.player_loc is not None:
        parts.append(
            f"{inner}<video:player_loc>{xml_escape(video.player_loc)}</video:player_loc>{nl}"
        )
    if video.duration is not None:
        parts.append(f"{inner}<video:duration>{video.duration}</video:duration>{nl}")
    if video.expiration_date is not None:
        date = format_lastmod(video.expiration_date, "datetime")
        parts.append(f"{inner}<video:expiration_date>{date}</video:expiration_date>{nl}")
    if video.rating is not None:
        parts.append(f"{inner}<video:rating>{format_priority(video.rating)}</video:rating>{nl}")
    if video.view_count is not None:
        parts.append(f"{inner}<video:view_count>{video.view_count}</video:view_count>{nl}")
    if video.publication_date is not None:
        date = format_lastmod(video.publication_date, "datetime")
        parts.append(f"{inner}<video:publication_date>{date}</video:publication_date>{nl}")
    parts.extend(f"{inner}<video:tag>{xml_escape(tag)}</video:tag>{nl}" for tag in video.tags)
    if video.family_friendly is not None:
        value = _yes_no(video.family_friendly)
        parts.append(f"{inner}<video:family_friendly>{value}</video:family_friendly>{nl}")
    if video.restriction is not None:
        relationship, countries = video.restriction
        parts.append(
            f'{inner}<video:restriction relationship="{relationship}">'
            f"{' '.join(countries)}</video:restriction>{nl}"
        )
    if video.requires_subscription is not None:
        value = _yes_no(video.requires_subscription)
        parts.append(
            f"{inner}<video:requires_subscription>{value}</video:requires_subscription>{nl}"
        )
    if video.uploader is not None:
        info = "" if video.uploader_info is None else f' info="{xml_escape(video.uploader_info)}"'
        parts.append(
            f"{inner}<video:uploader{info}>{xml_escape(video.uploader)}</video:uploader>{nl}"
        )
    if video.platform is not None:
        relationship, platforms = video.platform
        parts.append(
            f'{inner}<video:platform relationship="{relationship}">'
            f"{' '.join(platforms)}</video:platform>{nl}"
        )
    if video.live is not None:
        parts.append(f"{inner}<video:live>{_yes_no(video.live)}</video:live>{nl}")
    parts.append(f"{outer}</video:video>{nl}")
    return "".join(parts)


def _render_news(news: News, outer: str, inner: str, nl: str) -> str:
    """``<news:news>`` in the order of the news 0.9 XSD: publication, date, title."""
    date = format_lastmod(news.publication_date, "datetime")
    return (
        f"{outer}<news:news>{nl}"
        f"{inner}<news:publication><news:name>{xml_escape(news.name)}</news:name>"
        f"<news:language>{news.language}</news:language></news:publication>{nl}"
        f"{inner}<news:publication_date>{date}</news:publication_date>{nl}"
        f"{inner}<news:title>{xml_escape(news.title)}</news:title>{nl}"
        f"{outer}</news:news>{nl}"
    )


def render_index_entry(entry: IndexEntry, *, lastmod_style: str = "date", indent: int = 0) -> str:
    """One ``<sitemap>`` child of an index."""
    pad1, pad2, nl = " " * indent, " " * indent * 2, "\n" if indent else ""
    text = f"{pad1}<sitemap>{nl}{pad2}<loc>{xml_escape(entry.loc)}</loc>{nl}"
    if entry.lastmod is not None:
        text += f"{pad2}<lastmod>{format_lastmod(entry.lastmod, lastmod_style)}</lastmod>{nl}"
    return text + f"{pad1}</sitemap>\n"
