"""What every layer shares: the protocol's names and limits, the values read back from a file, and
how a file's bytes are read (gzip by content, the kind of sitemap it holds, an index's children).
"""

from __future__ import annotations

import gzip
import posixpath
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

__all__ = [
    "CHANGEFREQS",
    "IMAGE_NS",
    "LEGACY_NS",
    "MAX_BYTES",
    "MAX_IMAGES_PER_URL",
    "MAX_LOC_LENGTH",
    "MAX_NEWS_PER_FILE",
    "MAX_REPORTED",
    "MAX_URLS",
    "NEWS_NS",
    "SITEMAP_NS",
    "SM",
    "VIDEO_NS",
    "XHTML_NS",
    "SitemapRef",
    "UrlEntry",
    "child_path",
    "content_kind",
    "file_kind",
    "is_gzip",
    "local_name",
    "name_kind",
    "news_values",
    "read_uncompressed",
    "root_tag",
    "video_values",
]

SITEMAP_NS: Final = "http://www.sitemaps.org/schemas/sitemap/0.9"
LEGACY_NS: Final = "http://www.google.com/schemas/sitemap/0.84"
XHTML_NS: Final = "http://www.w3.org/1999/xhtml"
IMAGE_NS: Final = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS: Final = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS: Final = "http://www.google.com/schemas/sitemap-news/0.9"
MAX_URLS: Final = 50_000
MAX_BYTES: Final = 52_428_800
MAX_LOC_LENGTH: Final = 2_047
"""sitemaps.org: "less than 2,048 characters"."""
MAX_IMAGES_PER_URL: Final = 1_000
MAX_NEWS_PER_FILE: Final = 1_000
"""Google News reads at most 1,000 news:news per sitemap file."""
CHANGEFREQS: Final = frozenset(
    {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
)
SM: Final = "{" + SITEMAP_NS + "}"
"""The sitemap namespace as ElementTree writes it before a tag name."""
MAX_REPORTED: Final = 60
"""At most this many problems are shown in one failure message."""


@dataclass(frozen=True)
class UrlEntry:
    """One ``<url>`` (or one line of a text sitemap) as written, for assertions by meaning.

    Values are the element texts, unconverted, so a test can compare them with what it
    configured (``priority="0.8"``, ``lastmod="2024-05-01"``). ``alternates`` maps hreflang to
    href; it takes no part in hashing, so entries can still go into sets. ``videos`` holds each
    ``video:video`` as tag name to text (a repeated tag joined with ``|``, an attribute as
    ``tag@attribute``), ``news`` the ``news:news`` as name, language, publication_date, title.
    """

    loc: str
    lastmod: str | None = None
    changefreq: str | None = None
    priority: str | None = None
    alternates: dict[str, str] = field(default_factory=dict, hash=False)
    images: tuple[str, ...] = ()
    videos: tuple[dict[str, str], ...] = field(default=(), hash=False)
    news: dict[str, str] | None = field(default=None, hash=False)


def local_name(tag: str) -> str:
    """``{namespace}name`` without its namespace."""
    return tag.rpartition("}")[2]


def video_values(video: ET.Element) -> dict[str, str]:
    """A ``video:video`` as tag name to text; a repeated tag joined with ``|``, an attribute
    as ``tag@attribute``."""
    values: dict[str, str] = {}
    for child in video:
        name = local_name(str(child.tag))
        text = (child.text or "").strip()
        values[name] = f"{values[name]}|{text}" if name in values else text
        for attribute, value in child.attrib.items():
            values[f"{name}@{attribute}"] = value
    return values


def news_values(news: ET.Element | None) -> dict[str, str] | None:
    """A ``news:news`` as its four values, or None when there is none."""
    if news is None:
        return None
    n = f"{{{NEWS_NS}}}"
    return {
        "name": (news.findtext(f"{n}publication/{n}name") or "").strip(),
        "language": (news.findtext(f"{n}publication/{n}language") or "").strip(),
        "publication_date": (news.findtext(f"{n}publication_date") or "").strip(),
        "title": (news.findtext(f"{n}title") or "").strip(),
    }


@dataclass(frozen=True)
class SitemapRef:
    """One ``<sitemap>`` child of a sitemap index."""

    loc: str
    lastmod: str | None = None


def name_kind(path: Path) -> str:
    """What the file name promises: ``.txt``/``.txt.gz`` is a text sitemap, anything else XML."""
    return "txt" if path.name.removesuffix(".gz").endswith(".txt") else "xml"


def content_kind(data: bytes) -> str:
    """What the bytes are, sniffed the way crawlers (and usp) do: XML starts with ``<``."""
    return "xml" if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") else "txt"


def file_kind(path: Path) -> str:
    """What the file holds (``"xml"`` or ``"txt"``), read through gzip."""
    return content_kind(read_uncompressed(path, limit=None))


def is_gzip(path: Path) -> bool:
    with open(path, "rb") as stream:
        return stream.read(2) == b"\x1f\x8b"


def read_uncompressed(path: Path, limit: int | None) -> bytes:
    """The file's bytes, gunzipped when it is gzip (by content, whatever its name says).

    With ``limit``, reads at most one byte more, so a compression bomb cannot eat the memory.
    """
    if is_gzip(path):
        with gzip.open(path, "rb") as stream:
            return stream.read() if limit is None else stream.read(limit + 1)
    return path.read_bytes()


def root_tag(path: Path) -> str:
    """The qualified tag of the root element of an XML sitemap file (gzip transparent)."""
    return str(ET.fromstring(read_uncompressed(path, limit=None)).tag)


def child_path(loc: str, index: Path, site_dir: Path | None, base_url: str | None) -> Path:
    """The file an index child's ``loc`` names: under ``site_dir`` when the URL lies under
    ``base_url`` (both given), otherwise the file of the same name next to the index."""
    loc = loc.strip()
    if site_dir is not None and base_url is not None and loc.startswith(base_url):
        return site_dir / unquote(loc[len(base_url) :])
    return index.parent / unquote(posixpath.basename(urlsplit(loc).path))
