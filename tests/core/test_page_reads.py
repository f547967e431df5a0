"""Page reads kept from the last build: a page file as it was is not read again, any other is."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from sitemap_plugins.core import CollectingReporter, Options, Page, SitemapBuilder
from sitemap_plugins.core.html import PageRead, read_page
from sitemap_plugins.core.model import Reason, WrittenText
from sitemap_plugins.core.page_reads import PageReads

NOINDEX = '<html><head><meta name="robots" content="noindex"><title>A</title></head><body>'
INDEXED = '<html><head><meta name="robots" content="index,ok"><title>B</title></head><body>'
IMAGES = '<html><head><title>C</title></head><body><main><img src="a.png"></main></body></html>'
AN_HOUR_AGO = 3_600_000_000_000


def write(path: Path, text: str, *, mtime_ns: int | None = None) -> None:
    """Write a page; ``mtime_ns`` sets its time (a page the last build wrote, long done)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mtime_ns is not None:
        os.utime(path, ns=(mtime_ns, mtime_ns))


def old_time(path: Path) -> int:
    return path.stat().st_mtime_ns - AN_HOUR_AGO


def build(cache: Path, site: Path, pages: list[Path], **flags: bool) -> list[PageRead]:
    """One build's reads, from a fresh instance, as a new build process would make it."""
    reads = PageReads(cache, site)
    found = [
        reads.read(page, images=flags.get("images", False), title=flags.get("title", False))
        for page in pages
    ]
    reads.save()
    return found


def test_reads_equal_fresh_reads_and_a_rewritten_page_is_read_again(tmp_path: Path) -> None:
    site, cache = tmp_path / "site", tmp_path / "cache"
    a, b, c = site / "a.html", site / "b.html", site / "c.html"
    for page, text in ((a, NOINDEX), (b, INDEXED), (c, IMAGES)):
        write(page, text)
        os.utime(page, ns=(old_time(page), old_time(page)))
    for flags in ({}, {"title": True}, {"images": True}, {"images": True, "title": True}):
        for _ in range(2):  # the second build answers from what the first one kept
            assert build(cache, site, [a, b, c], **flags) == [
                read_page(page, images=flags.get("images", False), title=flags.get("title", False))
                for page in (a, b, c)
            ]
    assert build(cache, site, [a])[0].reason is Reason.NOINDEX
    write(a, INDEXED)  # rewritten by the next build: another size and time
    os.utime(a, ns=(old_time(a), old_time(a)))
    assert build(cache, site, [a])[0].reason is None


def test_a_page_of_the_same_size_and_time_is_not_read_again(tmp_path: Path) -> None:
    """What the cache trusts, shown by the one change it cannot see (which no host makes)."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    page = site / "a.html"
    write(page, NOINDEX)
    stamp = old_time(page)
    os.utime(page, ns=(stamp, stamp))
    assert build(cache, site, [page])[0].reason is Reason.NOINDEX
    same_size = NOINDEX.replace('content="noindex"', 'content="indexed"')
    assert len(same_size) == len(NOINDEX)
    write(page, same_size, mtime_ns=stamp)
    assert build(cache, site, [page])[0].reason is Reason.NOINDEX  # not read: kept answer
    write(page, same_size, mtime_ns=stamp + 1)
    assert build(cache, site, [page])[0].reason is None  # one nanosecond later: read


def test_a_page_written_just_now_is_read_again_next_time(tmp_path: Path) -> None:
    """A file this fresh could still change within its file system's clock tick."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    page = site / "a.html"
    write(page, NOINDEX)  # time: now
    stamp = page.stat().st_mtime_ns
    assert build(cache, site, [page])[0].reason is Reason.NOINDEX
    write(page, NOINDEX.replace('content="noindex"', 'content="indexed"'), mtime_ns=stamp)
    assert build(cache, site, [page])[0].reason is None


def test_a_broken_cache_or_another_site_costs_reads_only(tmp_path: Path) -> None:
    site, cache = tmp_path / "site", tmp_path / "cache"
    page = site / "a.html"
    write(page, NOINDEX)
    os.utime(page, ns=(old_time(page), old_time(page)))
    build(cache, site, [page])
    [stored] = cache.glob("pages-*.json")
    for broken in (
        "",
        "{",
        '{"version": 2}',
        '{"version": 2, "scope": 3, "files": []}',
        f'{{"version": 2, "scope": {json.dumps(str(site))}, "files": {{"{page}": [1]}}}}',
        "[]",
    ):
        stored.write_text(broken, encoding="utf-8")
        assert build(cache, site, [page])[0].reason is Reason.NOINDEX
    # Kept for exactly this file as it is, but not a read this version can use: read again.
    stored.unlink()
    build(cache, site, [page])
    header = json.loads(stored.read_text(encoding="utf-8"))
    info = page.stat()
    for value in ([], [False, False], [False, False, "NOSUCH", [], None, None], [0, 0, None, 5]):
        entry = {str(page): [info.st_size, info.st_mtime_ns, *value]}
        data = {**header, "files": entry}
        stored.write_text(json.dumps(data), encoding="utf-8")
        assert build(cache, site, [page])[0].reason is Reason.NOINDEX, value
    other = tmp_path / "other"
    write(other / "a.html", INDEXED)
    os.utime(other / "a.html", ns=(old_time(page), old_time(page)))
    assert build(cache, other, [other / "a.html"])[0].reason is None
    assert len(list(cache.glob("pages-*.json"))) == 2  # one per output folder
    assert build(None, site, [page])[0].reason is Reason.NOINDEX  # no cache place: plain reads


@pytest.mark.parametrize("rewrites_pages", [False, True])
def test_a_host_that_rewrites_every_page_has_each_read_anew(
    tmp_path: Path, rewrites_pages: bool
) -> None:
    """Pelican writes every page on every build: a kept read would never be used there, so the
    builder keeps none and reads each page; other hosts' builds answer from the kept read."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    page = site / "a.html"
    write(page, NOINDEX)
    stamp = old_time(page)
    os.utime(page, ns=(stamp, stamp))
    pages = [Page(path="a.html", origin="a.html", html=page), Page(path="", origin="index")]
    options = Options.from_mapping({"base_url": "https://example.org/", "lastmod_sources": []})

    def listed() -> set[str]:
        builder = SitemapBuilder(
            options, CollectingReporter(), cache_dir=cache, rewrites_pages=rewrites_pages
        )
        builder.build(pages, site)
        text = (site / "sitemap.xml").read_text(encoding="utf-8")
        return set(re.findall(r"<loc>https://example.org/([^<]*)</loc>", text))

    assert listed() == {""}
    same_size = NOINDEX.replace('content="noindex"', 'content="indexed"')
    write(page, same_size, mtime_ns=stamp)  # a change no memo can see
    assert listed() == ({"", "a.html"} if rewrites_pages else {""})
    assert bool(list(cache.glob("pages-*.json"))) is not rewrites_pages


def test_a_few_changed_pages_leave_the_kept_reads_as_they_are(tmp_path: Path) -> None:
    """An incremental build rewrites a handful of pages out of thousands: rewriting the memo of
    every page for them costs more than reading those few again, until they add up."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    pages = [site / f"p{number:03}.html" for number in range(128)]
    for page in pages:
        write(page, INDEXED)
        os.utime(page, ns=(old_time(page), old_time(page)))
    build(cache, site, pages)
    [stored] = cache.glob("pages-*.json")
    kept = stored.read_bytes()

    def change(page: Path) -> None:
        write(page, NOINDEX)  # another size
        os.utime(page, ns=(old_time(page), old_time(page)))

    change(pages[0])
    for _ in range(2):  # the changed page misses the memo at every build: read each time
        reads = build(cache, site, pages)
        assert [read.reason for read in reads] == [Reason.NOINDEX] + [None] * 127
        assert stored.read_bytes() == kept
    for page in pages[1:3]:
        change(page)
    reads = build(cache, site, pages)
    assert [read.reason for read in reads] == [Reason.NOINDEX] * 3 + [None] * 125
    assert stored.read_bytes() == kept  # three of 128: still cheaper to read again
    change(pages[3])
    reads = build(cache, site, pages)
    assert [read.reason for read in reads] == [Reason.NOINDEX] * 4 + [None] * 124
    files = json.loads(stored.read_text(encoding="utf-8"))["files"]
    assert [files[str(page)][4] for page in pages[:5]] == ["NOINDEX"] * 4 + [None]
    assert set(files) == {str(page) for page in pages}


def test_text_handed_over_is_read_and_kept_for_its_file(tmp_path: Path) -> None:
    """A host that hands over the text it wrote (MkDocs) has it read, not the file; a later
    build that only names the file recalls that read while the file stays as it was."""
    site, cache = tmp_path / "site", tmp_path / "cache"
    page = site / "a.html"
    write(page, INDEXED)
    stamp = old_time(page)
    os.utime(page, ns=(stamp, stamp))
    reads = PageReads(cache, site)
    assert reads.read(WrittenText(NOINDEX, str(page)), images=False).reason is Reason.NOINDEX
    reads.save()
    assert read_page(page, images=False).reason is None  # the file itself says otherwise
    assert build(cache, site, [page])[0].reason is Reason.NOINDEX  # recalled, not read
    os.utime(page, ns=(stamp + 1, stamp + 1))
    assert build(cache, site, [page])[0].reason is None  # changed: read
    no_cache = PageReads(None, site)  # no cache place: the text is read all the same
    assert no_cache.read(WrittenText(NOINDEX, str(page)), images=False).reason is Reason.NOINDEX
