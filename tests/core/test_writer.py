"""The writer: split edges by count and bytes, index, gzip, content-named shards, the record."""

from __future__ import annotations

import datetime as dt
import gzip
import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_plugins.core import writer as writer_module
from sitemap_plugins.core.gzip_stream import GzipStream
from sitemap_plugins.core.model import Entry
from sitemap_plugins.core.options import (
    MAX_BYTES_PER_FILE,
    MAX_SITEMAPS_PER_INDEX,
    MAX_URLS_PER_FILE,
    Options,
)
from sitemap_plugins.core.render import URLSET_CLOSE, render_url, urlset_open, xml_clean, xml_escape
from sitemap_plugins.core.report import Code, CollectingReporter, SitemapError
from sitemap_plugins.core.writer import write_sitemap_rows, write_sitemaps
from tests.support.sitemap_checks import check_sitemap_file, read_index, read_sitemap

BASE = "https://example.org/docs/"
UTC = dt.timezone.utc


def entries(count: int, *, day0: int = 0) -> Iterator[Entry]:
    for number in range(count):
        yield Entry(
            loc=f"{BASE}page-{number:07d}/",
            lastmod=dt.date(2020, 1, 1) + dt.timedelta(days=day0 + number % 1000),
            changefreq="weekly",
            priority=0.5,
        )


def write(tmp_path: Path, items: object, **options: object) -> tuple[object, CollectingReporter]:
    reporter = CollectingReporter()
    result = write_sitemaps(
        items,  # type: ignore[arg-type]
        tmp_path,
        base_url=BASE,
        options=Options.from_mapping(options),
        reporter=reporter,
    )
    return result, reporter


def sitemap_files(directory: Path) -> list[str]:
    return sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))


SHARD = re.compile(r"^sitemap-(?P<n>\d+)-[0-9a-f]{12}\.(xml|txt)(\.gz)?$")


def shards_of(index: Path) -> list[str]:
    """The file names an index lists, in order; each must be a content-named shard."""
    names = [ref.loc.rsplit("/", 1)[1] for ref in read_index(index)]
    numbers = [int(m["n"]) if (m := SHARD.match(name)) else None for name in names]
    assert numbers == list(range(1, len(names) + 1)), names
    return names


def test_one_file_is_a_plain_urlset(tmp_path: Path) -> None:
    result, reporter = write(tmp_path, entries(3))
    assert sitemap_files(tmp_path) == ["sitemap.xml"]
    check_sitemap_file(tmp_path / "sitemap.xml", sitemap_url=BASE + "sitemap.xml")
    read = read_sitemap(tmp_path / "sitemap.xml")
    assert [u.loc for u in read] == [f"{BASE}page-{n:07d}/" for n in range(3)]
    assert [u.lastmod for u in read] == ["2020-01-01", "2020-01-02", "2020-01-03"]
    assert {(u.changefreq, u.priority) for u in read} == {("weekly", "0.5")}
    assert reporter.warnings == []
    assert result.top == "sitemap.xml"  # type: ignore[attr-defined]


def test_the_50000th_url_is_the_count_edge(tmp_path: Path) -> None:
    write(tmp_path / "at", entries(MAX_URLS_PER_FILE))
    assert sitemap_files(tmp_path / "at") == ["sitemap.xml"]
    check_sitemap_file(tmp_path / "at" / "sitemap.xml")
    write(tmp_path / "over", entries(MAX_URLS_PER_FILE + 1))
    first, second = shards_of(tmp_path / "over" / "sitemap.xml")
    assert sitemap_files(tmp_path / "over") == [first, second, "sitemap.xml"]
    for name in sitemap_files(tmp_path / "over"):
        check_sitemap_file(tmp_path / "over" / name, sitemap_url=BASE + name)
    assert len(read_sitemap(tmp_path / "over" / first)) == MAX_URLS_PER_FILE
    assert len(read_sitemap(tmp_path / "over" / second)) == 1


@pytest.mark.parametrize(
    ("format", "last", "limit"),
    [
        # Plain rows, at the protocol's real limit: the writer's fast path begins the file past it.
        ("xml", "z/", MAX_SITEMAPS_PER_INDEX),
        # The other paths at a lower limit, so that each does not write 50,000 files.
        ("xml", "z?a=1&b=2", 3),  # a URL to escape: the row-by-row path begins it
        ("txt", "z/", 3),
    ],
)
def test_more_files_than_an_index_may_list_fail_and_leave_the_last_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, format: str, last: str, limit: int
) -> None:
    """One URL a file: the 50,001st URL needs a 50,001st file, which no index may list. The
    count of URLs is only known as they stream, so the files before it are written (under
    temporary names) and the run then fails, publishing nothing."""
    monkeypatch.setattr(writer_module, "MAX_SITEMAPS_PER_INDEX", limit)
    options = {"format": format, "urls_per_file": 1}
    write(tmp_path, entries(3), **options)
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert len(before) == 5  # three shards, the index and the record

    def rows() -> Iterator[tuple[str, None, None, None]]:
        for number in range(limit):
            yield f"{BASE}p{number:06d}/", None, None, None
        yield BASE + last, None, None, None

    with pytest.raises(SitemapError) as raised:
        write_sitemap_rows(
            rows(),
            tmp_path,
            base_url=BASE,
            options=Options.from_mapping(options),
            reporter=CollectingReporter(),
        )
    message = str(raised.value)
    assert message.startswith(f"{limit + 1:,} URLs need more than {limit:,} files ")
    assert f" at urls_per_file 1 and bytes_per_file {MAX_BYTES_PER_FILE:,}," in message
    assert f" lists at most {limit:,}; " in message
    assert message.endswith("; no sitemap written")
    # The same files with the same bytes, the same record, and no temporary file left.
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == before


def _entries_filling_exactly(total: int) -> list[Entry]:
    """Long-URL entries whose urlset is exactly ``total`` bytes, to probe the byte edge."""
    size = len(urlset_open().encode()) + len(URLSET_CLOSE.encode())
    filler = "x" * 1_900
    made: list[Entry] = []

    def sized(number: int, length: int) -> Entry:
        """An entry of exactly ``length`` rendered bytes."""
        bare = len(render_url(Entry(loc=f"{BASE}{number:06d}/")).encode())
        return Entry(loc=f"{BASE}{number:06d}/" + "y" * (length - bare))

    step = len(render_url(Entry(loc=f"{BASE}{0:06d}/{filler}")).encode())
    while total - size > 2 * step:
        made.append(Entry(loc=f"{BASE}{len(made):06d}/{filler}"))
        size += step
    rest = total - size  # between one and two steps: two entries of about half each
    made.append(sized(len(made), rest // 2))
    made.append(sized(len(made), rest - rest // 2))
    assert all(len(e.loc) < 2_048 for e in made[-2:])
    return made


def test_the_52428800th_byte_is_the_size_edge(tmp_path: Path) -> None:
    exact = _entries_filling_exactly(MAX_BYTES_PER_FILE)
    write(tmp_path / "at", iter(exact))
    assert sitemap_files(tmp_path / "at") == ["sitemap.xml"]
    assert (tmp_path / "at" / "sitemap.xml").stat().st_size == MAX_BYTES_PER_FILE
    check_sitemap_file(tmp_path / "at" / "sitemap.xml")

    one_more = [*exact[:-1], Entry(loc=exact[-1].loc + "z")]
    write(tmp_path / "over", iter(one_more))
    first, second = shards_of(tmp_path / "over" / "sitemap.xml")
    assert sitemap_files(tmp_path / "over") == [first, second, "sitemap.xml"]
    assert len(read_sitemap(tmp_path / "over" / second)) == 1
    for name in (first, second):
        assert (tmp_path / "over" / name).stat().st_size <= MAX_BYTES_PER_FILE


def test_index_lists_each_shard_with_its_newest_lastmod(tmp_path: Path) -> None:
    items = [
        Entry(loc=f"{BASE}a/", lastmod=dt.date(2021, 1, 1)),
        Entry(loc=f"{BASE}b/", lastmod=dt.datetime(2023, 6, 1, 8, tzinfo=UTC)),
        Entry(loc=f"{BASE}c/", lastmod=dt.date(2022, 1, 1)),
        Entry(loc=f"{BASE}d/"),
        Entry(loc=f"{BASE}e/", lastmod=dt.date(2020, 1, 1)),
    ]
    write(tmp_path, iter(items), urls_per_file=2, lastmod_format="datetime")
    check_sitemap_file(tmp_path / "sitemap.xml", sitemap_url=BASE + "sitemap.xml")
    children = read_index(tmp_path / "sitemap.xml")
    names = shards_of(tmp_path / "sitemap.xml")
    assert [(c.loc, c.lastmod) for c in children] == [
        (BASE + names[0], "2023-06-01T08:00:00Z"),
        (BASE + names[1], "2022-01-01"),
        (BASE + names[2], "2020-01-01"),
    ]
    followed = read_sitemap(tmp_path / "sitemap.xml")
    assert [u.loc for u in followed] == [e.loc for e in items]


def test_gzip_both_is_reproducible_and_equal_to_plain(tmp_path: Path) -> None:
    write(tmp_path / "one", entries(5), gzip="both", urls_per_file=2)
    write(tmp_path / "two", entries(5), gzip="both", urls_per_file=2)
    names = sitemap_files(tmp_path / "one")
    assert names == sitemap_files(tmp_path / "two")  # identical input, identical names
    shards = shards_of(tmp_path / "one" / "sitemap.xml")
    assert shards_of(tmp_path / "one" / "sitemap.xml.gz") == shards  # both name the plain files
    assert names == sorted([*shards, *(n + ".gz" for n in shards), "sitemap.xml", "sitemap.xml.gz"])
    for name in names:
        one, two = (tmp_path / "one" / name).read_bytes(), (tmp_path / "two" / name).read_bytes()
        assert one == two, name
        if name.endswith(".gz"):
            assert one[4:8] == b"\0\0\0\0"  # gzip header mtime fixed
            # Compressed at gzip's default level, not its slowest (RFC 1952 XFL 2: level 9).
            assert one[8] == 0
            plain = (tmp_path / "one" / name[:-3]).read_bytes()
            assert gzip.decompress(one) == plain
        check_sitemap_file(tmp_path / "one" / name)


def test_gzip_on_writes_only_gz_and_the_index_names_gz(tmp_path: Path) -> None:
    result, _ = write(tmp_path, entries(3), gzip="on", urls_per_file=2)
    shards = shards_of(tmp_path / "sitemap.xml.gz")
    assert all(name.endswith(".xml.gz") for name in shards)
    assert sitemap_files(tmp_path) == [*shards, "sitemap.xml.gz"]
    check_sitemap_file(tmp_path / "sitemap.xml.gz", sitemap_url=BASE + "sitemap.xml.gz")
    assert result.top == "sitemap.xml.gz"  # type: ignore[attr-defined]


def test_files_of_an_earlier_build_go_and_user_files_stay(tmp_path: Path) -> None:
    """Removal goes by the record of what we published, never by a name that looks like ours."""
    user_sitemap = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
    users = {"sitemap-2.xml": user_sitemap, "sitemap-9.xml": "<notes/>", "sitemap-7.txt": BASE}
    for name, text in users.items():
        (tmp_path / name).write_text(text)
    write(tmp_path, entries(7), urls_per_file=2)
    seven = shards_of(tmp_path / "sitemap.xml")
    assert len(seven) == 4
    assert sitemap_files(tmp_path) == sorted([*seven, *users, "sitemap.xml"])
    write(tmp_path, entries(3, day0=1), urls_per_file=2)
    three = shards_of(tmp_path / "sitemap.xml")
    assert not set(three) & set(seven)  # new content, new names: the old index never dangled
    assert sitemap_files(tmp_path) == sorted([*three, *users, "sitemap.xml"])
    write(tmp_path, entries(2), urls_per_file=2)
    assert sitemap_files(tmp_path) == sorted([*users, "sitemap.xml"])
    assert len(check_sitemap_file(tmp_path / "sitemap.xml")) == 2
    assert {name: (tmp_path / name).read_text() for name in users} == users


def test_a_file_of_ours_changed_by_someone_else_is_not_removed(tmp_path: Path) -> None:
    """MkDocs wipes the site folder but keeps dotfiles: a user's file may now stand where a
    shard of ours stood, under the same name. Only bytes we wrote are removed."""
    write(tmp_path, entries(5), urls_per_file=2)
    _, second, _ = shards_of(tmp_path / "sitemap.xml")
    (tmp_path / second).write_text("<urlset/>")  # someone else's now
    write(tmp_path, entries(1))
    assert sitemap_files(tmp_path) == sorted([second, "sitemap.xml"])
    assert (tmp_path / second).read_text() == "<urlset/>"
    write(tmp_path, entries(1))  # and it is forgotten, not retried
    assert sitemap_files(tmp_path) == sorted([second, "sitemap.xml"])
    assert second not in (tmp_path / ".sitemap-plugins.json").read_text()


def test_the_first_build_removes_nothing(tmp_path: Path) -> None:
    """Without a record, nothing is known to be ours, however much it looks like a shard."""
    (tmp_path / "sitemap-1-0123456789ab.xml").write_text(
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
    )
    write(tmp_path, entries(3))
    assert sitemap_files(tmp_path) == ["sitemap-1-0123456789ab.xml", "sitemap.xml"]


def test_an_interrupted_write_leaves_the_previous_files_intact(tmp_path: Path) -> None:
    write(tmp_path, entries(5), urls_per_file=2, gzip="both")
    before = {name: (tmp_path / name).read_bytes() for name in sitemap_files(tmp_path)}

    def failing() -> Iterator[Entry]:
        yield from entries(3, day0=500)
        raise RuntimeError("the host crashed half-way")

    record = (tmp_path / ".sitemap-plugins.json").read_bytes()
    with pytest.raises(RuntimeError, match="half-way"):
        write(tmp_path, failing(), urls_per_file=2, gzip="both")
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    # Same files, same bytes, the same record, and no temporary files left behind.
    assert after == {**before, ".sitemap-plugins.json": record}


def test_no_entries_writes_nothing_and_warns(tmp_path: Path) -> None:
    result, reporter = write(tmp_path, iter([]))
    assert sitemap_files(tmp_path) == []
    assert reporter.codes() == [Code.EMPTY]
    assert "sitemap.xml" in reporter.warnings[0][1]
    assert result.top is None  # type: ignore[attr-defined]


def test_text_sitemap_splits_with_an_xml_index(tmp_path: Path) -> None:
    write(tmp_path, entries(3), format="txt", filename="sitemap.txt", urls_per_file=2)
    first, second = shards_of(tmp_path / "sitemap-index.xml")
    assert sitemap_files(tmp_path) == [first, second, "sitemap-index.xml"]
    lines = (tmp_path / first).read_text(encoding="utf-8").splitlines()
    assert lines == [f"{BASE}page-0000000/", f"{BASE}page-0000001/"]
    check_sitemap_file(tmp_path / "sitemap-index.xml")
    for name in (first, second):
        check_sitemap_file(tmp_path / name)
    write(tmp_path, entries(1), format="txt", filename="sitemap.txt", urls_per_file=2)
    assert sitemap_files(tmp_path) == ["sitemap.txt"]


def test_sitemap_in_a_subfolder(tmp_path: Path) -> None:
    # A sitemap in maps/ may list only URLs under maps/ (build() leaves the others out).
    inside = (e._replace(loc=e.loc.replace(BASE, BASE + "maps/")) for e in entries(3))
    write(tmp_path, inside, filename="maps/sitemap.xml", urls_per_file=2)
    first, second = shards_of(tmp_path / "maps" / "sitemap.xml")
    assert sitemap_files(tmp_path / "maps") == [first, second, "sitemap.xml"]
    children = read_index(tmp_path / "maps" / "sitemap.xml")
    assert children[0].loc == BASE + "maps/" + first
    # The record stays at the top of the output folder, so a new filename still cleans up.
    assert sitemap_files(tmp_path) == ["maps"]
    write(tmp_path, entries(3), filename="sitemap.xml", urls_per_file=2)
    assert sitemap_files(tmp_path / "maps") == []


def test_an_entry_larger_than_a_file_is_left_out_with_a_warning(tmp_path: Path) -> None:
    huge = Entry(loc=BASE + "x" * 1_990)
    items = [Entry(loc=BASE + "a/"), huge, Entry(loc=BASE + "b/")]
    alternates = tuple((f"l{n}", f"{BASE}l{n}/") for n in range(10))
    items[1] = Entry(loc=huge.loc, alternates=alternates)
    _, reporter = write(tmp_path, iter(items), bytes_per_file=2_048)
    assert [u.loc for u in read_sitemap(tmp_path / "sitemap.xml")] == [BASE + "a/", BASE + "b/"]
    assert reporter.codes() == [Code.BAD_URL]
    assert "bytes_per_file" in reporter.warnings[0][1]


def test_indent_is_pretty_and_still_valid(tmp_path: Path) -> None:
    write(tmp_path, entries(2), indent=2)
    text = (tmp_path / "sitemap.xml").read_text()
    assert "\n  <url>\n    <loc>" in text
    check_sitemap_file(tmp_path / "sitemap.xml")
    assert len(read_sitemap(tmp_path / "sitemap.xml")) == 2


def test_an_offset_with_seconds_is_written_in_utc(tmp_path: Path) -> None:
    """W3C datetimes, and the XSD's dateTime, have offsets in hours and minutes. Local mean
    time, which zoneinfo gives before time zones (Amsterdam: +00:19:32), has seconds, and an
    offset may have microseconds: the same instant is written in UTC, to the second, in the
    sitemap and in the index, which stays valid."""
    lmt = dt.timezone(dt.timedelta(minutes=19, seconds=32))
    odd = dt.timezone(dt.timedelta(hours=1, microseconds=500_000))
    old = dt.datetime(1800, 1, 1, tzinfo=lmt)
    late = dt.datetime(2024, 5, 1, 12, 0, 0, 250_000, tzinfo=odd)
    write(tmp_path, [Entry(f"{BASE}a/", old), Entry(f"{BASE}b/", late)], urls_per_file=1)
    children = read_index(tmp_path / "sitemap.xml")
    assert [child.lastmod for child in children] == ["1799-12-31T23:40:28Z", "2024-05-01T10:59:59Z"]
    for child in children:
        name = child.loc.rsplit("/", 1)[1]
        check_sitemap_file(tmp_path / name)
        assert f"<lastmod>{child.lastmod}</lastmod>" in (tmp_path / name).read_text("utf-8")
    check_sitemap_file(tmp_path / "sitemap.xml", sitemap_url=f"{BASE}sitemap.xml")


def test_an_offset_with_microseconds_orders_instants_by_them(tmp_path: Path) -> None:
    """The index names its child's newest instant: one whose offset has microseconds is that
    much earlier than its fields say, which decides it against an instant a microsecond apart."""
    odd = dt.timezone(dt.timedelta(microseconds=2))
    earlier = dt.datetime(2024, 5, 1, 10, 0, 0, tzinfo=odd)  # 09:59:59.999998 in UTC
    east = dt.timezone(dt.timedelta(hours=1))
    later = dt.datetime(2024, 5, 1, 10, 59, 59, 999_999, tzinfo=east)  # 09:59:59.999999 in UTC
    for order in ([earlier, later], [later, earlier]):
        folder = tmp_path / str(order.index(later))
        folder.mkdir()
        entries = [Entry(f"{BASE}{n}/", lastmod) for n, lastmod in enumerate(order)]
        write(folder, [*entries, Entry(f"{BASE}x/")], urls_per_file=2)
        children = read_index(folder / "sitemap.xml")
        assert [child.lastmod for child in children] == ["2024-05-01T10:59:59+01:00", None]
        check_sitemap_file(folder / "sitemap.xml", sitemap_url=f"{BASE}sitemap.xml")


@pytest.mark.parametrize(
    ("style", "newest"), [("date", "2024-05-02"), ("datetime", "2024-05-01T23:00:00-05:00")]
)
def test_index_lastmod_is_the_newest_child_as_written(
    tmp_path: Path, style: str, newest: str
) -> None:
    """Offsets must not make the index name an older day or instant than its child holds."""
    east = dt.timezone(dt.timedelta(hours=9))
    west = dt.timezone(dt.timedelta(hours=-5))
    items = [
        Entry(loc=f"{BASE}a/", lastmod=dt.datetime(2024, 5, 2, 1, tzinfo=east)),  # 05-01T16Z
        Entry(loc=f"{BASE}b/", lastmod=dt.datetime(2024, 5, 1, 23, tzinfo=west)),  # 05-02T04Z
        Entry(loc=f"{BASE}c/"),
    ]
    write(tmp_path, iter(items), urls_per_file=2, lastmod_format=style)
    check_sitemap_file(tmp_path / "sitemap.xml")
    children = {ref.loc: ref.lastmod for ref in read_index(tmp_path / "sitemap.xml")}
    assert set(children.values()) == {None, newest}


def test_tiny_priorities_are_plain_decimals(tmp_path: Path) -> None:
    write(tmp_path, iter([Entry(loc=f"{BASE}a/", priority=0.00001)]), priority=0.00001)
    check_sitemap_file(tmp_path / "sitemap.xml")
    assert [u.priority for u in read_sitemap(tmp_path / "sitemap.xml")] == ["0.0"]


def test_text_format_defaults_to_a_txt_name(tmp_path: Path) -> None:
    result, _ = write(tmp_path, entries(3), format="txt", urls_per_file=2)
    shards = shards_of(tmp_path / "sitemap-index.xml")
    assert sitemap_files(tmp_path) == [*shards, "sitemap-index.xml"]
    assert result.top == "sitemap-index.xml"  # type: ignore[attr-defined]
    write(tmp_path, entries(2), format="txt")
    assert sitemap_files(tmp_path) == ["sitemap.txt"]
    check_sitemap_file(tmp_path / "sitemap.txt", sitemap_url=BASE + "sitemap.txt")


def test_a_discarded_gzip_write_leaves_nothing_open(tmp_path: Path) -> None:
    """Python 3.12+ reports a gzip layer collected while open; the writer must close it."""
    import gc
    import warnings

    def failing() -> Iterator[Entry]:
        yield from entries(2)
        raise RuntimeError("stop")

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(RuntimeError, match="stop"):
            write(tmp_path, failing(), gzip="both")
        gc.collect()
    assert list(tmp_path.iterdir()) == []


def test_exactly_the_characters_xml_cannot_carry_are_dropped() -> None:
    """Every code point, against XML 1.0's Char production as the specification words it."""

    def is_char(code: int) -> bool:
        return (
            code in (0x9, 0xA, 0xD)
            or 0x20 <= code <= 0xD7FF
            or 0xE000 <= code <= 0xFFFD
            or 0x10000 <= code <= 0x10FFFF
        )

    escapes = {
        ord("&"): "&amp;",
        ord("<"): "&lt;",
        ord(">"): "&gt;",
        ord('"'): "&quot;",
        ord("'"): "&apos;",
    }
    # Every code point at once, then ASCII alone (which the writer checks the cheaper way), and
    # each character alone, in an ASCII text and beside a non-ASCII one.
    for codes in (range(0x110000), range(0x80)):
        every = "".join(map(chr, codes))
        assert xml_clean(every) == "".join(chr(c) for c in codes if is_char(c))
        assert xml_escape(every) == xml_clean(every).translate(escapes)
    for code in [*range(0x80), 0xD800, 0xDFFF, 0xFFFE, 0xFFFF, 0xFFFD, 0x10000]:
        for text in (f"a{chr(code)}b", f"\u00e9{chr(code)}"):
            kept = "".join(c for c in text if is_char(ord(c)))
            assert xml_clean(text) == kept
            assert xml_escape(text) == kept.translate(escapes)


@pytest.mark.parametrize("size", [0, 1, 5_000, 300_000])
@pytest.mark.parametrize("pieces", [1, 7, 300])
def test_gzip_stream_writes_the_bytes_gzipfile_writes(size: int, pieces: int) -> None:
    """The gzip layer is written by hand (see gzip_stream): byte for byte what GzipFile with
    no file name, mtime 0 and level 6 writes, whatever the pieces the data comes in."""
    rng = random.Random(size * 1000 + pieces)
    text = "".join(f"<url><loc>https://example.org/p{rng.randrange(10**6)}</loc></url>\n"
                   for _ in range(size // 40 + 1))  # fmt: skip
    data = text.encode()[:size]
    cuts = sorted(rng.sample(range(size + 1), min(size, pieces - 1)))
    chunks = [data[a:b] for a, b in zip([0, *cuts], [*cuts, size], strict=True)]
    expected = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=expected, mtime=0, compresslevel=6) as g:
        g.write(data)
    ours = io.BytesIO()
    stream = GzipStream(ours)
    for chunk in chunks:
        stream.write(chunk)
    stream.close()
    assert ours.getvalue() == expected.getvalue()
    assert gzip.decompress(ours.getvalue()) == data
