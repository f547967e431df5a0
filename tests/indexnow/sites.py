"""Built sites for submit tests, made by the core itself (no host needed)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path

from sitemap_plugins.core import CollectingReporter, Options, Page, SitemapBuilder
from sitemap_plugins.core.model import Entry
from sitemap_plugins.core.writer import write_sitemaps

KEY = "0123abcd-secret-key-456789"


def build(folder: Path, base_url: str, pages: Mapping[str, str | None], **options: object) -> Path:
    """Build ``pages`` (path -> lastmod or None) into ``folder`` with the core's builder."""
    settings = {"base_url": base_url, "lastmod_sources": ["metadata"], **options}
    builder = SitemapBuilder(Options.from_mapping(settings), CollectingReporter())
    written = [
        Page(
            path=path,
            origin=f"{path or 'index'}.md",
            sitemap={"lastmod": lastmod} if lastmod else None,
        )
        for path, lastmod in pages.items()
    ]
    summary = builder.build(written, folder)
    assert summary.top is not None
    return folder / summary.top


def write_many(folder: Path, base_url: str, count: int, **options: object) -> Path:
    """A sitemap of ``count`` URLs (split as the options say), written by the core's writer."""
    day = dt.datetime(2024, 5, 1, tzinfo=dt.timezone.utc)
    entries = (Entry(f"{base_url}p/{n:06d}/", day + dt.timedelta(minutes=n)) for n in range(count))
    result = write_sitemaps(
        entries,
        folder,
        base_url=base_url,
        options=Options.from_mapping({"base_url": base_url, **options}),
        reporter=CollectingReporter(),
    )
    assert result.top is not None
    return folder / result.top
