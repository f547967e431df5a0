"""Layer 3a: reading a sitemap back by meaning, with the standard library's ElementTree.

Tests assert on sets of locs and on dates rather than on bytes. Every file read back must first
pass ``sitemap-plugins validate`` (:func:`~.protocol.assert_validates`).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tests.support.sitemap_checks.model import (
    IMAGE_NS,
    NEWS_NS,
    SM,
    VIDEO_NS,
    XHTML_NS,
    SitemapRef,
    UrlEntry,
    child_path,
    content_kind,
    file_kind,
    news_values,
    read_uncompressed,
    root_tag,
    video_values,
)
from tests.support.sitemap_checks.protocol import assert_validates

__all__ = ["read_entries", "read_index", "read_refs", "read_sitemap"]


def read_index(path: Path) -> list[SitemapRef]:
    """The ``<sitemap>`` children of an index, in order (gzip transparent).

    The index (with its children) must pass ``sitemap-plugins validate`` first: every sitemap
    the suite writes and reads back passes the command users run.
    """
    assert_validates(path)
    return read_refs(path)


def read_refs(path: Path) -> list[SitemapRef]:
    root = ET.fromstring(read_uncompressed(path, limit=None))
    assert root.tag == f"{SM}sitemapindex", f"{path} is not a sitemap index ({root.tag})"
    return [
        SitemapRef(
            loc=(child.findtext(f"{SM}loc") or "").strip(),
            lastmod=child.findtext(f"{SM}lastmod"),
        )
        for child in root.iter(f"{SM}sitemap")
    ]


def read_sitemap(
    path: Path, *, site_dir: Path | None = None, base_url: str | None = None
) -> list[UrlEntry]:
    """The entries of a urlset, a text sitemap, or (through its children on disk) an index.

    A child URL maps to ``site_dir / <path under base_url>`` when both are given and the URL lies
    under ``base_url``; otherwise to the file of the same name next to the index. gzip is read
    transparently. Values are the texts as written (see :class:`UrlEntry`). The file must pass
    ``sitemap-plugins validate`` first, as :func:`read_index` explains.
    """
    assert_validates(path, site_dir=site_dir, base_url=base_url)
    return read_entries(path, site_dir=site_dir, base_url=base_url)


def read_entries(
    path: Path, *, site_dir: Path | None = None, base_url: str | None = None
) -> list[UrlEntry]:
    data = read_uncompressed(path, limit=None)
    if content_kind(data) == "txt":
        return [UrlEntry(loc=line) for line in data.decode("utf-8-sig").splitlines() if line]
    root = ET.fromstring(data)
    if root.tag == f"{SM}sitemapindex":
        entries: list[UrlEntry] = []
        for ref in read_refs(path):
            child = child_path(ref.loc, path, site_dir, base_url)
            assert child.is_file(), f"{path} lists {ref.loc}, but {child} does not exist"
            assert file_kind(child) == "txt" or root_tag(child) != f"{SM}sitemapindex", (
                f"{path} lists another index, {ref.loc}"
            )
            entries += read_entries(child, site_dir=site_dir, base_url=base_url)
        return entries
    assert root.tag == f"{SM}urlset", f"{path}: root is {root.tag}, not a sitemap"
    entries = []
    for url in root.iter(f"{SM}url"):
        alternates = {
            link.get("hreflang", ""): link.get("href", "")
            for link in url.iter(f"{{{XHTML_NS}}}link")
        }
        images = tuple((image.text or "").strip() for image in url.iter(f"{{{IMAGE_NS}}}loc"))
        entries.append(
            UrlEntry(
                loc=(url.findtext(f"{SM}loc") or "").strip(),
                lastmod=_stripped(url.findtext(f"{SM}lastmod")),
                changefreq=_stripped(url.findtext(f"{SM}changefreq")),
                priority=_stripped(url.findtext(f"{SM}priority")),
                alternates=alternates,
                images=images,
                videos=tuple(video_values(v) for v in url.findall(f"{{{VIDEO_NS}}}video")),
                news=news_values(url.find(f"{{{NEWS_NS}}}news")),
            )
        )
    return entries


def _stripped(text: str | None) -> str | None:
    return None if text is None else text.strip()
