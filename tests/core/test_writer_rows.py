"""The bulk path (``write_sitemap_rows``) and the writer's chunked fast path.

Rows must give the bytes entries give, and both must give the bytes of the plainest rendering
there is: :func:`render_url` per entry, cut into files by count. That last comparison is the
oracle for the fast path, which both public functions share. Every file written is checked with
``check_sitemap_file``.
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins.core import writer
from sitemap_plugins.core.dates import format_lastmod, sort_key, utc_day
from sitemap_plugins.core.model import Entry, Lastmod
from sitemap_plugins.core.options import CHANGEFREQS, Options
from sitemap_plugins.core.render import URLSET_CLOSE, render_url, urlset_open
from sitemap_plugins.core.report import CollectingReporter
from sitemap_plugins.core.writer import Row, write_sitemap_rows, write_sitemaps
from tests.support.sitemap_checks import check_sitemap_file, read_index

BASE = "https://example.org/docs/"
UTC = dt.timezone.utc
WEST = dt.timezone(dt.timedelta(hours=-5))
EAST = dt.timezone(dt.timedelta(hours=9, minutes=30))


def _lastmod(number: int) -> Lastmod | None:
    """A spread of kinds: none, dates, UTC instants, instants in other offsets, with
    microseconds. (Equal instants in different offsets have a test of their own.)"""
    kind = number % 6
    base = dt.datetime(2020, 1, 1, 6, tzinfo=UTC) + dt.timedelta(hours=7 * (number % 400))
    base += dt.timedelta(minutes=kind)
    if kind == 0:
        return None
    if kind == 1:
        return base.date()
    if kind == 2:
        return base
    if kind == 3:
        return base.astimezone(WEST)
    if kind == 4:
        return base.astimezone(EAST)
    return base.replace(microsecond=123_456)


def sample_rows(count: int) -> list[Row]:
    """Sorted, distinct, valid URLs. Most chunks are plain (their URLs need no escaping),
    so they take the fast path; one URL in 2,500 needs escaping (``&``, ``'``), which sends
    its chunk row by row."""
    rows: list[Row] = []
    for number in range(count):
        loc = f"{BASE}p{number:06d}/"
        if number % 2_500 == 1_000:
            loc += ("?a=1&b=2", "it's/")[number // 2_500 % 2]  # escaped: &amp; &apos;
        elif number % 37 == 2:
            loc += ("(x)!*$;=~/", "%C3%A9t%C3%A9/")[number % 2]  # written as they are
        changefreq = None if number % 5 == 0 else CHANGEFREQS[number % len(CHANGEFREQS)]
        priority = None if number % 7 == 0 else (number % 11) / 10
        rows.append((loc, _lastmod(number), changefreq, priority))
    return rows


def _options(**values: object) -> Options:
    return Options.from_mapping(values)


def write(
    target: Path, items: Iterable[object], *, rows: bool, **options: object
) -> CollectingReporter:
    reporter = CollectingReporter()
    function = write_sitemap_rows if rows else write_sitemaps
    function(
        items,  # type: ignore[arg-type]
        target,
        base_url=BASE,
        options=_options(**options),
        reporter=reporter,
    )
    return reporter


def files_of(directory: Path) -> dict[str, bytes]:
    return {
        p.relative_to(directory).as_posix(): p.read_bytes()
        for p in sorted(directory.rglob("*"))
        if p.is_file() and not p.name.startswith(".")
    }


def check_all(directory: Path, top: str) -> None:
    """Every file, the entry point with its own URL (which confines its locs)."""
    for name in files_of(directory):
        check_sitemap_file(directory / name, sitemap_url=BASE + top if name == top else None)


def oracle(
    entries: Sequence[Entry], per_file: int, style: str = "datetime", indent: int = 0
) -> tuple[list[bytes], list[str | None]]:
    """The urlset files and each one's newest lastmod as written, the plainest way."""
    head, tail = urlset_open().encode(), URLSET_CLOSE.encode()
    bodies, newest = [], []
    for start in range(0, len(entries), per_file):
        part = entries[start : start + per_file]
        texts = [render_url(e, lastmod_style=style, indent=indent) for e in part]
        bodies.append(head + "".join(texts).encode() + tail)
        best: Lastmod | None = None
        for entry in part:  # strictly newer replaces: the first of equal ones stays
            if entry.lastmod is None:
                continue
            if best is None or _order(entry.lastmod, style) > _order(best, style):
                best = entry.lastmod
        newest.append(None if best is None else format_lastmod(best, style))
    return bodies, newest


def _order(value: Lastmod, style: str) -> object:
    return utc_day(value) if style == "date" else sort_key(value)


def assert_matches_oracle(
    directory: Path, entries: Sequence[Entry], per_file: int, style: str = "datetime"
) -> None:
    bodies, newest = oracle(entries, per_file, style)
    if len(bodies) == 1:
        assert (directory / "sitemap.xml").read_bytes() == bodies[0]
        return
    children = read_index(directory / "sitemap.xml")
    names = [child.loc.rsplit("/", 1)[1] for child in children]
    assert [(directory / name).read_bytes() for name in names] == bodies
    assert [child.lastmod for child in children] == newest


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"lastmod_format": "date"},
        {"indent": 2},
        {"urls_per_file": 1_500},
        {"urls_per_file": 1_500, "gzip": "both"},
        {"bytes_per_file": 120_000},
        {"format": "txt", "urls_per_file": 2_000},
        {"filename": "maps/sitemap.xml", "urls_per_file": 2_000},
    ],
    ids=repr,
)
def test_rows_give_the_bytes_entries_give(tmp_path: Path, options: dict[str, object]) -> None:
    rows = sample_rows(5_000)
    if "filename" in options:  # a sitemap in maps/ lists only URLs under maps/
        rows = [(loc.replace(BASE, BASE + "maps/"), *rest) for loc, *rest in rows]  # type: ignore[misc]
    write(tmp_path / "rows", iter(rows), rows=True, **options)
    write(tmp_path / "entries", (Entry(*row) for row in rows), rows=False, **options)
    written = files_of(tmp_path / "rows")
    assert written
    assert written == files_of(tmp_path / "entries")
    top = {"format": "sitemap-index.xml", "filename": "maps/sitemap.xml"}
    entry_point = next((v for k, v in top.items() if k in options), "sitemap.xml")
    check_all(tmp_path / "rows", entry_point)


@pytest.mark.parametrize("style", ["datetime", "date"])
@pytest.mark.parametrize("per_file", [50_000, 1_500, 999])
def test_the_fast_path_writes_what_render_url_writes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, style: str, per_file: int
) -> None:
    """Thousands of rows, so that most take the fast path and some go row by row: the first
    ones (no value known yet), chunks holding a URL to escape, and the shard edges. Rows that
    go row by row are counted (they ask for their lastmod's fragment), to be sure of both."""
    by_row: list[object] = []
    lastmod = writer._Fragments.lastmod

    def spy(self: writer._Fragments, value: Lastmod | None) -> tuple[str, float]:
        by_row.append(value)
        return lastmod(self, value)

    monkeypatch.setattr(writer._Fragments, "lastmod", spy)
    rows = sample_rows(10_000)
    write(tmp_path, iter(rows), rows=True, urls_per_file=per_file, lastmod_format=style)
    assert 1_200 <= len(by_row) <= 6_000
    assert_matches_oracle(tmp_path, [Entry(*row) for row in rows], per_file, style)
    check_all(tmp_path, "sitemap.xml")


@pytest.mark.parametrize("style", ["datetime", "date"])
def test_new_lastmods_leave_their_chunk_on_the_fast_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, style: str
) -> None:
    """A site dated from git has about one lastmod a page, each new to the writer. A chunk
    whose only new values are lastmods stays on the fast path: no row is checked one by one.
    The new values are still checked there as rows are (the bad-row test below puts a naive
    datetime and a string among known values), and the bytes and each shard's newest lastmod
    are the oracle's, in shuffled order, in three offsets, with dates and microseconds."""
    checked: list[object] = []
    checked_row = writer._checked_row

    def spy(row: Sequence[object]) -> Row:
        checked.append(row)
        return checked_row(row)

    monkeypatch.setattr(writer, "_checked_row", spy)
    start = dt.datetime(2019, 6, 1, 12, tzinfo=UTC)
    zones = (UTC, WEST, EAST)

    def lastmod(number: int) -> Lastmod:
        value = start + dt.timedelta(minutes=37 * number, microseconds=number % 3 * 250_000)
        return value.date() if number % 10 == 0 else value.astimezone(zones[number % 3])

    order = random.Random(7).sample(range(4_000), 4_000)
    rows: list[Row] = [(f"{BASE}{n:05d}/", lastmod(order[n]), None, None) for n in range(4_000)]
    write(tmp_path, iter(rows), rows=True, urls_per_file=1_500, lastmod_format=style)
    assert checked == []
    assert_matches_oracle(tmp_path, [Entry(*row) for row in rows], 1_500, style)
    check_all(tmp_path, "sitemap.xml")


def test_equal_instants_keep_each_its_own_offset(tmp_path: Path) -> None:
    """Equal instants are one dict key; each must still be written in its own offset, in the
    fast path too (so the same few values repeat over many chunks)."""
    utc = dt.datetime(2024, 5, 2, 4, tzinfo=UTC)
    values = [utc, utc.astimezone(WEST), utc.astimezone(EAST), utc.astimezone(WEST)]
    rows: list[Row] = [(f"{BASE}{n:05d}/", values[n % 4], None, None) for n in range(4_000)]
    write(tmp_path, iter(rows), rows=True, urls_per_file=3_000)
    shards = {name: data for name, data in files_of(tmp_path).items() if name != "sitemap.xml"}
    text = b"".join(shards.values()).decode()
    assert text.count("<lastmod>2024-05-02T04:00:00Z</lastmod>") == 1_000
    assert text.count("<lastmod>2024-05-01T23:00:00-05:00</lastmod>") == 2_000
    assert text.count("<lastmod>2024-05-02T13:30:00+09:30</lastmod>") == 1_000
    assert_matches_oracle(tmp_path, [Entry(*row) for row in rows], 3_000)
    check_all(tmp_path, "sitemap.xml")


def test_the_index_names_the_first_of_equal_newest_lastmods(tmp_path: Path) -> None:
    """Strictly newer replaces the shard's newest: of equal ones the first stays, also inside a
    chunk of the fast path and from one chunk to the next (rows 3072 to 5119 here, all values
    known by then). A date and the
    midnight UTC that starts it are equal in order and written differently."""
    day = dt.date(2024, 5, 2)
    midnight = dt.datetime(2024, 5, 2, tzinfo=UTC)
    older = dt.datetime(2023, 1, 1, tzinfo=UTC)

    def lastmod(number: int) -> Lastmod:
        if number < 2:
            return (midnight, day)[number]  # in the first shard: every value is then cached
        if number < 3_072:
            return older
        # Each chunk of 1,024 rows starts with another of the two.
        return (day, midnight)[(number + number // 1_024) % 2]

    rows: list[Row] = [(f"{BASE}{n:05d}/", lastmod(n), None, None) for n in range(5_120)]
    write(tmp_path, iter(rows), rows=True, urls_per_file=3_000)
    children = read_index(tmp_path / "sitemap.xml")
    assert [child.lastmod for child in children] == ["2024-05-02T00:00:00Z"] * 2
    assert_matches_oracle(tmp_path, [Entry(*row) for row in rows], 3_000)
    check_all(tmp_path, "sitemap.xml")


def test_caches_start_again_past_their_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory stays flat with a million distinct dates: the caches are emptied when full."""
    monkeypatch.setattr(writer, "_CACHED", 16)
    start = dt.datetime(2021, 3, 1, tzinfo=UTC)
    rows: list[Row] = [
        (f"{BASE}{n:05d}/", start + dt.timedelta(minutes=n % 700), "daily", (n % 300) / 1000)
        for n in range(5_000)
    ]
    write(tmp_path, iter(rows), rows=True, urls_per_file=2_000)
    assert_matches_oracle(tmp_path, [Entry(*row) for row in rows], 2_000)
    check_all(tmp_path, "sitemap.xml")


def test_entries_with_alternates_among_plain_ones(tmp_path: Path) -> None:
    entries = [
        Entry(*row, alternates=(("en", row[0]), ("x-default", row[0])) if n % 3 == 0 else ())
        for n, row in enumerate(sample_rows(3_000))
    ]
    reporter = CollectingReporter()
    write_sitemaps(
        iter(entries),
        tmp_path,
        base_url=BASE,
        options=_options(urls_per_file=1_200),
        reporter=reporter,
        extensions={"xhtml"},
    )
    children = read_index(tmp_path / "sitemap.xml")
    names = [child.loc.rsplit("/", 1)[1] for child in children]
    head, tail = urlset_open({"xhtml"}).encode(), URLSET_CLOSE.encode()
    expected = [
        head
        + "".join(render_url(e, lastmod_style="datetime") for e in entries[i : i + 1_200]).encode()
        + tail
        for i in range(0, 3_000, 1_200)
    ]
    assert [(tmp_path / name).read_bytes() for name in names] == expected
    assert reporter.warnings == []
    check_all(tmp_path, "sitemap.xml")


_LOC_TAIL = (
    st.text(alphabet="abcxyz019-._~!$()*+,;=%/", min_size=0, max_size=12)
    .map(lambda text: text.replace("%", "%25"))
    # The builder's URLs are in RFC 3986's normal form: no "." or ".." segment is left in them
    # (``/0000/.`` is ``/0000/``, which a reader would take for the same URL listed twice).
    .filter(lambda text: not {".", ".."} & set(text.split("/")))
)
_ODD_TAIL = st.text(alphabet="ab&'", min_size=1, max_size=4)
_LASTMOD = st.one_of(
    st.none(),
    st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2024, 12, 31)),
    st.builds(
        lambda moment, minutes: moment.replace(tzinfo=dt.timezone(dt.timedelta(minutes=minutes))),
        st.datetimes(min_value=dt.datetime(1990, 1, 2), max_value=dt.datetime(2024, 12, 30)),
        st.integers(min_value=-14 * 60, max_value=14 * 60),
    ),
)
_FIELDS = st.tuples(
    _LASTMOD,
    st.none() | st.sampled_from(CHANGEFREQS),
    st.none() | st.integers(min_value=0, max_value=10_000).map(lambda n: n / 10_000),
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    tails=st.lists(_LOC_TAIL, min_size=1, max_size=40, unique=True),
    odd=st.none() | _ODD_TAIL,
    fields=st.lists(_FIELDS, min_size=40, max_size=40),
    repeat=st.integers(min_value=1, max_value=80),
    per_file=st.integers(min_value=1, max_value=3_000),
    style=st.sampled_from(["datetime", "date"]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_any_rows_match_the_oracle(
    tmp_path_factory: pytest.TempPathFactory,
    tails: list[str],
    odd: str | None,
    fields: list[tuple[Lastmod | None, str | None, float | None]],
    repeat: int,
    per_file: int,
    style: str,
    seed: int,
) -> None:
    """Few distinct values repeated over many rows (as on a real site), so that chunks take
    the fast path once their values are known (and a URL to escape, sometimes, sends its
    chunk row by row); URLs sorted and distinct, as the builder gives."""
    rng = random.Random(seed)
    locs = sorted(f"{BASE}{n:04d}/{tail}" for n in range(repeat) for tail in tails)
    if odd is not None:
        locs[rng.randrange(len(locs))] += odd
        locs = sorted(set(locs))
    rows: list[Row] = [(loc, *rng.choice(fields)) for loc in locs]
    target = tmp_path_factory.mktemp("rows")
    write(target, iter(rows), rows=True, urls_per_file=per_file, lastmod_format=style)
    assert_matches_oracle(target, [Entry(*row) for row in rows], per_file, style)
    check_all(target, "sitemap.xml")


def _many(bad: Row, at: int = 3_000) -> Iterator[Row]:
    """Valid rows, then ``bad`` far enough in that its neighbours' values are all cached."""
    rows = sample_rows(at)
    yield from rows
    yield bad


@pytest.mark.parametrize(
    ("bad", "error", "named"),
    [
        ((f"{BASE}zz/", None, "sometimes", None), ValueError, "'sometimes'"),
        ((f"{BASE}zz/", None, None, 1.5), ValueError, "1.5"),
        ((f"{BASE}zz/", None, None, float("nan")), ValueError, "nan"),
        ((f"{BASE}zz/", None, None, "0.5"), TypeError, "'0.5'"),
        ((f"{BASE}zz/", dt.datetime(2024, 1, 1), None, None), ValueError, "no UTC offset"),
        ((f"{BASE}zz/", "2024-01-01", None, None), TypeError, "'2024-01-01'"),
        ((f"{BASE}zz/", [2024], None, None), TypeError, "[2024]"),
        ((b"https://example.org/docs/zz/", None, None, None), TypeError, "b'https"),
        ((f"{BASE}zz/", None, None), TypeError, "(loc, lastmod, changefreq, priority)"),
    ],
    ids=lambda value: repr(value)[:40],
)
def test_a_bad_row_stops_the_build_and_leaves_the_sitemap(
    tmp_path: Path, bad: Row, error: type[Exception], named: str
) -> None:
    write(tmp_path, iter(sample_rows(10)), rows=True)
    before = files_of(tmp_path)
    with pytest.raises(error, match=re.escape(named)) as raised:
        write(tmp_path, _many(bad), rows=True, urls_per_file=1_000)
    if isinstance(bad[0], str):
        assert f"{BASE}zz/" in str(raised.value)
    assert files_of(tmp_path) == before
    check_all(tmp_path, "sitemap.xml")


def test_a_bool_priority_is_refused_when_first_seen(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="priority True"):
        write(tmp_path, iter([(f"{BASE}a/", None, None, True)]), rows=True)
    assert files_of(tmp_path) == {}
