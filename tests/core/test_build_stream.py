"""The streaming build: the same files as ``build`` from the same pages, without a list of them.

Pages come in shuffled and with duplicates; the entries go through sorted runs on disk (a chunk
of a few items forces many) and must come out byte for byte as ``build`` writes them.
"""

from __future__ import annotations

import datetime as dt
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_plugins.core import (
    Article,
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
from tests.support.sitemap_checks import check_sitemap_file, read_sitemap

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


KILLED_WHILE_SORTING = """\
import os, signal, sys
from pathlib import Path
from sitemap_plugins.core.spill import SortedSpill

spill = SortedSpill(chunk=2, directory=Path(sys.argv[1]))
for key in range(5):
    spill.add(key, key)
os.kill(os.getpid(), signal.SIGKILL)  # as a build killed while it sorts: nothing cleans up
"""


@pytest.mark.skipif(os.name != "posix", reason="a process is killed outright only on POSIX")
def test_the_runs_of_a_killed_process_are_removed_by_the_next_spill(tmp_path: Path) -> None:
    """A build killed while it sorts leaves its runs in the temporary folder; the next spill
    that writes runs removes them, and never the folder of a process still running."""
    killed = subprocess.run(
        [sys.executable, "-c", KILLED_WHILE_SORTING, str(tmp_path)],
        env={**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])},
        check=False,
    )
    assert killed.returncode == -signal.SIGKILL
    [left] = tmp_path.iterdir()
    assert list(left.iterdir())  # its runs, which the process did not get to remove
    running = tmp_path / f"sitemap-plugins-sort-{os.getppid()}-inuse"
    running.mkdir()  # a folder of a process still alive stays
    with SortedSpill[int](chunk=2, directory=tmp_path) as spill:
        for key in range(5):
            spill.add(key, key)
        assert not left.exists()
        assert running.exists()
        assert list(spill.merged()) == list(range(5))
    assert list(tmp_path.iterdir()) == [running]


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


def test_build_stream_writes_images_videos_and_news_as_build_does(tmp_path: Path) -> None:
    """Extensions survive the sort on disk: the same urlset namespaces, images and videos, the
    same news sitemap and robots.txt, the same summary line."""
    now = dt.datetime(2024, 6, 10, 12, 0, tzinfo=dt.timezone.utc)
    video = {
        "thumbnail_loc": "thumb.jpg",
        "title": "Five minutes",
        "description": "What it shows.",
        "content_loc": "https://cdn.example.org/five.mp4",
    }
    pages: list[Page | LeftOut] = [
        Page(
            path=f"p{number:02d}/",
            origin=f"docs/p{number:02d}.md",
            html=f'<div role="main"><img src="../img/{number}.png"><img src="a b.png"></div>',
            sitemap={"video": [video]} if number % 3 == 0 else None,
            article=Article(now - dt.timedelta(hours=number), f"Post {number}")
            if number % 4 == 0
            else None,
        )
        for number in range(30)
    ]
    pages.append(Page(path="p04/", origin="docs/zz-duplicate.md", article=Article(now, "Twice")))
    random.Random(5).shuffle(pages)
    values = {
        "base_url": BASE,
        "urls_per_file": 7,
        "images": True,
        "news": {"name": "The Example", "language": "en"},
        "robots_txt": True,
    }
    options = Options.from_mapping(values)
    whole, streamed = tmp_path / "whole", tmp_path / "streamed"
    whole.mkdir()
    streamed.mkdir()
    first, second = CollectingReporter(), CollectingReporter()
    summary = SitemapBuilder(options, first, clock=lambda: now).build(pages, whole)
    streamed_summary = SitemapBuilder(options, second, clock=lambda: now).build_stream(
        iter(pages), streamed, dates=DateLookup({}, {}), chunk=4, spill_dir=tmp_path
    )

    names = sorted(path.relative_to(whole).as_posix() for path in whole.rglob("*"))
    assert names == sorted(path.relative_to(streamed).as_posix() for path in streamed.rglob("*"))
    for name in names:
        if (whole / name).is_file():
            assert (whole / name).read_bytes() == (streamed / name).read_bytes(), name
    assert streamed_summary.line() == summary.line()
    assert "; 60 images; 10 videos; news: 8 articles of the last two days" in summary.line()
    assert streamed_summary.news_url == summary.news_url == BASE + "sitemap-news.xml"
    assert second.codes() == first.codes() == [Code.DUPLICATE]
    news = check_sitemap_file(streamed / "sitemap-news.xml", BASE + "sitemap-news.xml")
    # p00, p04, ..., p28; p04 is the page of docs/p04.md, not its duplicate's.
    titles = [entry.news["title"] for entry in news if entry.news]
    assert titles == [f"Post {number}" for number in range(0, 30, 4)]
    entries = read_sitemap(streamed / "sitemap.xml", site_dir=streamed, base_url=BASE)
    assert {len(entry.images) for entry in entries} == {2}
    assert sum(len(entry.videos) for entry in entries) == 10


def test_alternates_never_name_a_page_the_sitemap_leaves_out(tmp_path: Path) -> None:
    """Alternates must name each other back from indexable URLs: a version the sitemap leaves
    out (by its metadata, its robots meta, or the host) is named by none, ``x-default`` too, and
    a page left with only itself has none. Streamed through many runs, as ``build`` does it."""
    four = {"en": "a/", "de": "de/a/", "fr": "fr/a/", "it": "it/a/"}
    pair = {"en": "b/", "de": "de/b/"}
    kept = {"en": "c/", "de": "de/c/"}  # two files at one URL: one left out, one listed
    elsewhere = {"en": "d/", "de": "../de/d/"}  # outside the sitemap's folder: not ours to judge
    noindex = '<html><head><meta name="robots" content="noindex"></head><body>x</body></html>'
    pages: list[Page | LeftOut] = [
        Page(path="a/", origin="a.md", translations=four, default_locale="de"),
        Page(path="de/a/", origin="a.de.md", translations=four, default_locale="de", html=noindex),
        Page(path="fr/a/", origin="a.fr.md", translations=four, default_locale="de"),
        Page(path="it/a/", origin="a.it.md", translations=four, sitemap=False),
        Page(path="b/", origin="b.md", translations=pair, default_locale="en"),
        LeftOut(Reason.PRIVATE, "b.de.md", "de/b/"),
        Page(path="c/", origin="c.md", translations=kept),
        Page(path="de/c/", origin="c.de.md", translations=kept),
        Page(path="de/c/", origin="c.de.old.md", translations=kept, sitemap=False),
        Page(path="d/", origin="d.md", translations=elsewhere),
    ]
    random.Random(5).shuffle(pages)
    options = Options.from_mapping({"base_url": BASE})
    whole, streamed = tmp_path / "whole", tmp_path / "streamed"
    SitemapBuilder(options, CollectingReporter()).build(pages, whole)
    SitemapBuilder(options, CollectingReporter()).build_stream(
        iter(pages), streamed, dates=DateLookup({}, {}), chunk=2, spill_dir=tmp_path
    )
    assert (whole / "sitemap.xml").read_bytes() == (streamed / "sitemap.xml").read_bytes()
    entries = check_sitemap_file(streamed / "sitemap.xml", BASE + "sitemap.xml")
    got = {entry.loc.removeprefix(BASE): entry.alternates for entry in entries}
    listed = set(got)
    assert listed == {"a/", "fr/a/", "b/", "c/", "de/c/", "d/"}
    # Only what the sitemap lists is named, and a set is reciprocal among its members.
    assert got["a/"] == got["fr/a/"] == {"en": BASE + "a/", "fr": BASE + "fr/a/"}
    assert got["b/"] == {}  # only itself left: no alternates, no x-default
    assert got["c/"] == got["de/c/"] == {"en": BASE + "c/", "de": BASE + "de/c/"}
    assert got["d/"] == {"en": BASE + "d/", "de": "https://example.org/de/d/"}


def test_no_alternate_left_no_xhtml_namespace_in_a_streamed_build(tmp_path: Path) -> None:
    pair = {"en": "b/", "de": "de/b/"}
    pages = [
        Page(path="b/", origin="b.md", translations=pair),
        Page(path="de/b/", origin="b.de.md", translations=pair, sitemap=False),
    ]
    options = Options.from_mapping({"base_url": BASE})
    whole, streamed = tmp_path / "whole", tmp_path / "streamed"
    SitemapBuilder(options, CollectingReporter()).build(pages, whole)
    SitemapBuilder(options, CollectingReporter()).build_stream(
        pages, streamed, dates=DateLookup({}, {})
    )
    for out in (whole, streamed):
        assert b"xhtml" not in (out / "sitemap.xml").read_bytes()


@pytest.mark.parametrize("chunk", [2, 20_000])
def test_a_streamed_build_keeps_only_alternates_named_back_across_sorted_runs(
    tmp_path: Path, chunk: int
) -> None:
    """Each page naming its own versions (as ``generate`` reads them from heads), in any
    order and sorted through runs on disk: an entry keeps the versions that name it back, and
    a version outside the base URL's folder, which no page here can answer for, stays."""
    a = {"en": "en/a/", "fr": "fr/a/", "de": "de/a/"}
    pages: list[Page | LeftOut] = [
        Page(path="en/a/", origin="en/a.html", translations=a, default_locale="de"),
        Page(path="fr/a/", origin="fr/a.html", translations={"fr": "fr/a/", "en": "en/a/"}),
        Page(path="de/a/", origin="de/a.html"),
        *(Page(path=f"z{number:02d}/", origin=f"z{number:02d}.html") for number in range(30)),
    ]
    sibling = {"en": "en/b/", "de": "../de/b/"}
    pages.append(Page(path="en/b/", origin="en/b.html", translations=sibling))
    random.Random(5).shuffle(pages)
    options = Options.from_mapping({"base_url": BASE})
    reporter = CollectingReporter()
    (tmp_path / "runs").mkdir()
    SitemapBuilder(options, reporter).build_stream(
        pages,
        tmp_path,
        dates=DateLookup({}, {}),
        chunk=chunk,
        spill_dir=tmp_path / "runs",
        named_back=True,
    )
    got = {
        entry.loc.removeprefix(BASE): entry.alternates
        for entry in check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    }
    pair = {"en": BASE + "en/a/", "fr": BASE + "fr/a/"}  # x-default named de/a/: gone too
    assert got["en/a/"] == got["fr/a/"] == pair
    assert got["de/a/"] == {}
    assert got["en/b/"] == {"en": BASE + "en/b/", "de": "https://example.org/de/b/"}
    assert [m for m in reporter.infos if "link back" in m] == [
        "sitemap: 1 hreflang link left out of the alternates: the page linked does not link "
        f'back (en/a.html: hreflang="de" to {BASE}de/a/, which does not name {BASE}en/a/ back)'
    ]
    assert not reporter.warnings
    assert not list((tmp_path / "runs").iterdir())  # the runs of both spills are removed
