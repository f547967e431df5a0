"""A small site in two versions, written by the core writer, for the publishing tests.

Kept apart from the test module so that a child process (killed between two steps of
publishing) imports only this and the package, and starts fast.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from sitemap_plugins.core.model import Entry, News
from sitemap_plugins.core.options import Options
from sitemap_plugins.core.report import CollectingReporter
from sitemap_plugins.core.writer import write_sitemaps

BASE = "https://example.org/docs/"
SPLIT = {"urls_per_file": 2, "gzip": "both", "robots_txt": True}


def entries(version: str, base: str = BASE) -> list[Entry]:
    """Two builds of one site: A has 7 pages, B 5; both start with the same two pages, so
    their first shards are the same file and the rest differ."""
    count = {"A": 7, "B": 5}[version]
    return [
        Entry(
            loc=f"{base}{'0' if n < 2 else version.lower()}{n}/",
            lastmod=dt.date(2024, 1, 1) + dt.timedelta(days=n),
        )
        for n in range(count)
    ]


def write(out: Path, version: str, *, base: str = BASE, **options: object) -> CollectingReporter:
    """Write ``version`` of the site, served at ``base``, into ``out`` with ``options``."""
    reporter = CollectingReporter()
    write_sitemaps(
        iter(entries(version, base)),
        out,
        base_url=base,
        options=Options.from_mapping(options),
        reporter=reporter,
    )
    return reporter


NEWS_OPTION = {"name": "The Example", "language": "en"}


def news_entries(version: str) -> list[Entry]:
    """The recent articles of each build: A has three, B two, and they share none."""
    picks = {"A": (2, 4, 6), "B": (3, 4)}[version]
    chosen = [entry for n, entry in enumerate(entries(version)) if n in picks]
    return [
        Entry(
            entry.loc,
            news=News("The Example", "en", dt.date(2024, 6, 1), f"Story {entry.loc[-3:-1]}"),
        )
        for entry in chosen
    ]


def write_news(out: Path, version: str, **options: object) -> CollectingReporter:
    """Write ``version`` of the site with its news sitemap into ``out``."""
    reporter = CollectingReporter()
    write_sitemaps(
        iter(entries(version)),
        out,
        base_url=BASE,
        options=Options.from_mapping({**options, "news": NEWS_OPTION}),
        reporter=reporter,
        news=iter(news_entries(version)),
    )
    return reporter
