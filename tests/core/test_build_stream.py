"""The streaming build: the same files as ``build`` from the same pages, without a list of them.

Pages come in shuffled and with duplicates; the entries go through sorted runs on disk (a chunk
of a few items forces many) and must come out byte for byte as ``build`` writes them.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from sitemap_plugins.core import (
    Code,
    CollectingReporter,
    LeftOut,
    Options,
    Page,
    Reason,
    SitemapBuilder,
    StrictError,
)
from sitemap_plugins.core.git_dates import DateLookup
from sitemap_plugins.core.spill import SortedSpill
from tests.support.gitrepo import GitRepo
from tests.support.sitemap_checks import check_sitemap_file

BASE = "https://example.org/docs/"


def test_sorted_spill_gives_every_item_back_in_order_across_runs(tmp_path: Path) -> None:
    keys = list(range(1000)) * 2
    random.Random(7).shuffle(keys)
    with SortedSpill[int](chunk=3, directory=tmp_path) as spill:
        for key in keys:
            spill.add(key, key * 10)
        # 666 runs of 3 were written; merged 32 at a time, never more than 31 of a size stay.
        assert spill.runs == 20 + 26  # 20 runs of 32 chunks, 26 of one chunk
        assert list(spill.merged()) == sorted(key * 10 for key in keys)
        assert list(tmp_path.iterdir())  # the runs are on disk while the spill is open
    assert not list(tmp_path.iterdir())  # and gone once it is closed


def test_sorted_spill_rejects_an_empty_chunk() -> None:
    with pytest.raises(ValueError, match=r"^chunk must be at least 1, not 0$"):
        SortedSpill[int](chunk=0)


def _pages(repo: GitRepo) -> list[Page | LeftOut]:
    pages: list[Page | LeftOut] = []
    for number in range(40):
        name = f"docs/p{number:02d}.md"
        pages.append(
            Page(
                path=f"p{number:02d}/",
                origin=name,
                sources=(repo.path(name),),
                updated="2024-02-01" if number % 7 == 0 else None,
            )
        )
    pages.append(Page(path="p03/", origin="docs/zz-duplicate.md"))
    pages.append(LeftOut(Reason.NOT_FOUND_PAGE, "docs/404.md"))
    random.Random(3).shuffle(pages)
    return pages


@pytest.fixture
def repo(git_repo: GitRepo) -> GitRepo:
    for number in range(40):
        git_repo.write(f"docs/p{number:02d}.md", f"# {number}\n")
        if number % 10 == 9:
            git_repo.commit(f"pages to {number}", f"2024-01-{number // 10 + 10}T10:00:00+01:00")
    return git_repo


def test_build_stream_writes_what_build_writes(repo: GitRepo, tmp_path: Path) -> None:
    options = Options.from_mapping({"base_url": BASE, "urls_per_file": 15, "gzip": "both"})
    pages = _pages(repo)
    listed = {path for page in pages if isinstance(page, Page) for path in page.sources}

    whole, streamed = tmp_path / "whole", tmp_path / "streamed"
    whole.mkdir()
    streamed.mkdir()
    first = CollectingReporter()
    summary = SitemapBuilder(options, first).build(pages, whole)
    second = CollectingReporter()
    builder = SitemapBuilder(options, second)
    dates = builder.file_dates.lookup(listed, within=listed, use_git=True, use_mtime=True)
    streamed_summary = builder.build_stream(
        iter(pages), streamed, dates=dates, chunk=4, spill_dir=tmp_path
    )

    names = sorted(path.name for path in whole.iterdir())
    assert names == sorted(path.name for path in streamed.iterdir())
    for name in names:
        assert (whole / name).read_bytes() == (streamed / name).read_bytes(), name
    assert streamed_summary.line() == summary.line()
    assert streamed_summary.urls == 40
    assert second.codes() == first.codes() == [Code.DUPLICATE]
    assert second.warnings[0][1] == first.warnings[0][1]
    entries = check_sitemap_file(streamed / "sitemap.xml", BASE + "sitemap.xml")
    dated = {entry.loc: entry.lastmod for entry in entries}
    assert dated[BASE + "p07/"] == "2024-02-01"
    assert dated[BASE + "p08/"] == repo.log_date("docs/p08.md") == "2024-01-10T10:00:00+01:00"
    assert [path.name for path in tmp_path.iterdir() if path.name.startswith("sitemap-")] == []


def test_build_stream_decides_strict_mode_before_writing(tmp_path: Path) -> None:
    options = Options.from_mapping({"base_url": BASE, "strict": True})
    pages = [Page(path="a/", origin="a.md", sitemap={"priority": 3})]
    builder = SitemapBuilder(options, CollectingReporter())
    with pytest.raises(StrictError, match=r"^1 warning in strict mode; no sitemap written$"):
        builder.build_stream(pages, tmp_path, dates=DateLookup({}, {}))
    assert list(tmp_path.iterdir()) == []


def test_one_instant_in_two_zones_is_written_in_each_ones_own_offset() -> None:
    from sitemap_plugins.core.dates import format_lastmod, parse_lastmod

    utc = parse_lastmod("2024-01-10T09:00:00+00:00")
    paris = parse_lastmod("2024-01-10T10:00:00+01:00")
    assert utc == paris  # the same instant: equal, and alike to a cache
    assert format_lastmod(utc, "datetime") == "2024-01-10T09:00:00Z"
    assert format_lastmod(paris, "datetime") == "2024-01-10T10:00:00+01:00"
