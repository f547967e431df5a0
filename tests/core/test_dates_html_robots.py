"""Small core pieces: reading authors' dates, reading a page's head, editing robots.txt."""

from __future__ import annotations

import datetime as dt
import re
from pathlib import Path

import pytest

from sitemap_plugins.core.dates import as_written, format_lastmod, parse_lastmod, sort_key
from sitemap_plugins.core.html import HeadScan, _may_say, head_of, head_reason, scan_head
from sitemap_plugins.core.model import Reason
from sitemap_plugins.core.robots import robots_text, robots_without, sitemap_line_url
from sitemap_plugins.validate.reading import sitemap_lines
from sitemap_plugins.validate.values import instant_of

UTC = dt.timezone.utc


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("2024-05-01", dt.date(2024, 5, 1)),
        (dt.date(2024, 5, 1), dt.date(2024, 5, 1)),
        ("2024-05-01T10:30:00Z", dt.datetime(2024, 5, 1, 10, 30, tzinfo=UTC)),
        ("2024-05-01 10:30", dt.datetime(2024, 5, 1, 10, 30, tzinfo=UTC)),
        (
            "2024-05-01T10:30:00+02:00",
            dt.datetime(2024, 5, 1, 10, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        ),
    ],
)
def test_parse_lastmod_reads_what_authors_write(raw: object, expected: object) -> None:
    assert parse_lastmod(raw) == expected


@pytest.mark.parametrize(
    "raw",
    [
        "yesterday",
        "2024-13-01",
        "01/05/2024",
        20240501,
        "",
        # Digits of other scripts: the XSD's are 0-9 only, so they are refused, never rewritten.
        "\uff12\uff10\uff12\uff14-05-01",
        "\u0662\u0660\u0662\u0664-05-01T10:00:00Z",
    ],
)
def test_parse_lastmod_refuses_to_guess(raw: object) -> None:
    with pytest.raises(ValueError, match="2024-05-01"):
        parse_lastmod(raw)


PLUS_2 = dt.timezone(dt.timedelta(hours=2))


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        # W3C Datetime's "one or more digits" of a second's fraction; Python holds microseconds.
        ("2024-05-01T10:00:00.5Z", dt.datetime(2024, 5, 1, 10, 0, 0, 500_000, tzinfo=UTC)),
        ("2024-05-01T10:00:00.12Z", dt.datetime(2024, 5, 1, 10, 0, 0, 120_000, tzinfo=UTC)),
        ("2024-05-01T10:00:00.1234Z", dt.datetime(2024, 5, 1, 10, 0, 0, 123_400, tzinfo=UTC)),
        ("2024-05-01T10:00:00.12345Z", dt.datetime(2024, 5, 1, 10, 0, 0, 123_450, tzinfo=UTC)),
        ("2024-05-01T10:00:00.1234567Z", dt.datetime(2024, 5, 1, 10, 0, 0, 123_456, tzinfo=UTC)),
        (
            "2024-05-01T10:00:00.5+02:00",
            dt.datetime(2024, 5, 1, 10, 0, 0, 500_000, tzinfo=PLUS_2),
        ),
        ("2024-05-01T10:00Z", dt.datetime(2024, 5, 1, 10, tzinfo=UTC)),  # W3C: no seconds
        ("2024-05-01t10:00:00z", dt.datetime(2024, 5, 1, 10, tzinfo=UTC)),  # RFC 3339
        ("2024-05-01 10:00:00.5", dt.datetime(2024, 5, 1, 10, 0, 0, 500_000, tzinfo=UTC)),
        ("2024-05-01T24:00:00Z", dt.datetime(2024, 5, 2, tzinfo=UTC)),  # the schema's end of day
        (
            "2024-05-01T10:00:00-14:00",
            dt.datetime(2024, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=-14))),
        ),
    ],
)
def test_timestamps_are_read_by_one_grammar_on_every_python(
    raw: str, expected: dt.datetime
) -> None:
    """Python 3.10's ``fromisoformat`` refused fractions that were not 3 or 6 digits, 3.11's
    reads them: the same front matter must give the same date whichever Python builds."""
    parsed = parse_lastmod(raw)
    assert parsed == expected
    assert isinstance(parsed, dt.datetime)
    assert parsed.utcoffset() == expected.utcoffset()


@pytest.mark.parametrize("raw", ["2024-05-01+02:00", "2024-05-01Z", "2024-05-01-14:00"])
def test_a_date_with_a_zone_is_that_date_with_no_time_made_up(raw: str) -> None:
    """The schema's ``xsd:date`` may carry a zone, W3C Datetime's date may not: the value is the
    day written, never a midnight the author did not write (``2024-05-01T00:00:00+02:00``)."""
    parsed = parse_lastmod(raw)
    assert parsed == dt.date(2024, 5, 1)
    assert not isinstance(parsed, dt.datetime)
    assert format_lastmod(parsed, "datetime") == "2024-05-01"


ALLOWED = "a date such as 2024-05-01 or a timestamp such as 2024-05-01T10:00:00+02:00"


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        # Python 3.11+'s fromisoformat reads these; W3C Datetime and the schema do not.
        ("2024-05-01T10:00:00+0200", None),
        ("2024-05-01T10:00:00+02", None),
        ("20240501", None),
        ("2024-W18-3", None),
        ("2024-05-01T10:00:00,5Z", None),
        # Read by every Python's fromisoformat, and no W3C form either.
        ("2024-05-01T10Z", None),
        ("2024-05-01x10:00", None),
        ("2024-05-01T10:00:00+02:00:30", None),
        # Out of the schema's ranges: the form is right, so the reason is named.
        ("2024-05-01T10:00:00+15:00", "has time zone +15:00; offsets run from -14:00 to +14:00"),
        ("2024-05-01T10:00:60Z", "has a time of day out of range"),
        ("2024-05-01T24:00:01Z", "has a time of day out of range"),
        ("2024-13-01", "has month 13"),
        ("2024-02-30", "is not a calendar date (day 30 of month 02 in 2024)"),
        ("9999-12-31T24:00:00Z", "has a year after 9999"),
    ],
)
def test_what_is_not_w3c_is_refused_on_every_python(raw: str, reason: str | None) -> None:
    """The message says what is allowed and, where the form is right, what is wrong with
    this value (it is shown to users as ``is not a date (allowed: ...)``)."""
    message = ALLOWED if reason is None else f"{ALLOWED}; this one {reason}"
    with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
        parse_lastmod(raw)


@pytest.mark.parametrize(
    "raw",
    [
        "2024-05-01",
        "2024-05-01Z",
        "2024-05-01-05:00",
        "2024-05-01T10:00:00Z",
        "2024-05-01T10:00:00.5+02:00",
        "2024-05-01T10:00:00.123456789-09:30",
        "2024-05-01T24:00:00+14:00",
        "0999-01-01T00:00:00Z",
    ],
)
def test_the_core_and_the_validator_read_a_schema_date_as_the_same_instant(raw: str) -> None:
    parsed = parse_lastmod(raw)
    assert instant_of(raw) == sort_key(parsed)


def test_a_fraction_is_read_and_the_written_timestamp_keeps_whole_seconds() -> None:
    parsed = parse_lastmod("2024-05-01T10:00:00.999+02:00")
    assert isinstance(parsed, dt.datetime)
    assert parsed.microsecond == 999_000
    written = format_lastmod(parsed, "datetime")
    assert instant_of(written) == parsed.replace(microsecond=0)
    assert written.endswith("+02:00")


def test_format_lastmod_date_is_the_utc_day_of_an_instant() -> None:
    late = dt.datetime(2024, 5, 1, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert format_lastmod(late, "date") == "2024-05-02"  # 04:30 UTC on the next day
    early = dt.datetime(2024, 5, 2, 1, 0, tzinfo=dt.timezone(dt.timedelta(hours=9)))
    assert format_lastmod(early, "date") == "2024-05-01"  # 16:00 UTC the day before
    assert format_lastmod(late, "datetime") == "2024-05-01T23:30:00-05:00"
    assert format_lastmod(dt.datetime(2024, 5, 1, tzinfo=UTC), "datetime") == "2024-05-01T00:00:00Z"
    assert format_lastmod(dt.date(2024, 5, 1), "datetime") == "2024-05-01"


def test_sort_key_orders_dates_and_datetimes_together() -> None:
    day = dt.date(2024, 5, 2)
    stamp = dt.datetime(2024, 5, 1, 23, tzinfo=UTC)
    assert max([stamp, day], key=sort_key) == day
    assert max([day, stamp], key=sort_key) == day


@pytest.mark.parametrize(
    ("html", "noindex"),
    [
        ('<html><head><meta name="robots" content="noindex"></head></html>', True),
        ("<head><META CONTENT='NOINDEX, nofollow' NAME='Robots'></head>", True),
        ('<head><meta name="robots" content="index, follow"></head>', False),
        ('<head></head><body><meta name="robots" content="noindex"></body>', False),
        ('<head><meta name="description" content="noindex"></head>', False),
        # "none" is "noindex, nofollow" to search engines, but not as another directive's value
        ('<head><meta name="robots" content="none"></head>', True),
        ('<head><meta name="googlebot" content="nosnippet, None"></head>', True),
        ('<head><meta name="robots" content="max-image-preview:none"></head>', False),
        ('<head><meta name="robots" content="index, max-snippet:-1, none-such"></head>', False),
    ],
)
def test_noindex_is_read_from_the_head(html: str, noindex: bool) -> None:
    assert (head_reason(html) is Reason.NOINDEX) is noindex


def test_redirect_stub() -> None:
    stub = '<head><meta http-equiv="refresh" content="0; url=../new/"></head>'
    assert head_reason(stub) is Reason.REDIRECT_STUB
    assert head_reason("<head><title>x</title></head><body>refresh url=</body>") is None


@pytest.mark.parametrize("filler", [0, 16_370, 16_380, 40_000])
def test_a_file_is_read_up_to_its_head_and_no_further(tmp_path: Path, filler: int) -> None:
    """The head's end may fall anywhere, across the pieces a file is read in; the body is
    never needed (a noindex meta in the body does not count)."""
    page = tmp_path / "page.html"
    head = f'<html><head><title>{"x" * filler}</title><meta name="robots" content="noindex">'
    body = '<body><meta http-equiv="refresh" content="0; url=/x/">' + "text " * 50_000
    page.write_text(head + "</head>" + body, encoding="utf-8")
    assert head_of(page) == head
    assert head_reason(page) is Reason.NOINDEX
    assert head_reason(tmp_path / "missing.html") is None
    assert head_reason(tmp_path) is None  # a folder opens, and cannot be read


@pytest.mark.parametrize(
    ("end", "at"),
    [
        ("</head" + " " * 40 + ">", 16_370),  # its whitespace spans two pieces, past their overlap
        ("</head" + " " * 40 + ">", 16_340),
        ("</HEAD\n>", 16_380),
        ("</head\u2003>", 100),  # whitespace to a text reader, not to a byte reader
        ("</head\x1c>", 16_380),
    ],
)
def test_the_head_ends_at_its_first_end_tag_wherever_the_pieces_fall(
    tmp_path: Path, end: str, at: int
) -> None:
    """A later plain ``</head>`` does not hide an earlier end tag that the pieces a file is read
    in cut apart, or that only decoding shows: the head of the file is the head of its text."""
    page = tmp_path / "page.html"
    start, close = '<html><head><meta name="robots" content="noindex"><title>', "</title>"
    head = start + "x" * (at - len(start) - len(close)) + close  # the end tag starts at byte ``at``
    late = '<meta http-equiv="refresh" content="0; url=/x/"></head><body>' + "text " * 9_000
    text = head + end + late
    page.write_text(text, encoding="utf-8")
    assert head_of(page) == head_of(text) == head
    assert head_reason(page) is Reason.NOINDEX


def test_robots_txt_created() -> None:
    assert robots_text("", "https://example.org/sitemap.xml") == (
        "Sitemap: https://example.org/sitemap.xml\n"
    )


def test_robots_txt_keeps_everything_else_and_updates_our_line() -> None:
    """Our line under the base URL an earlier build wrote (the site moved to a new host) is
    updated in place; a second copy of it goes; every other line stays."""
    original = (
        "User-agent: *\r\nDisallow: /private/\r\n"
        "Sitemap: https://old.example.org/sitemap.xml\r\n"
        "Sitemap: https://example.org/news-sitemap.xml\r\n"
        "Sitemap: https://example.org/blog/sitemap.xml\r\n"
        "sitemap: https://old.example.org/sitemap.xml\r\n"
        "# end"
    )
    ours = "https://example.org/sitemap.xml"
    updated = robots_text(original, ours, previous=["https://old.example.org/sitemap.xml"])
    assert updated == (
        "User-agent: *\r\nDisallow: /private/\r\n"
        "Sitemap: https://example.org/sitemap.xml\r\n"
        "Sitemap: https://example.org/news-sitemap.xml\r\n"
        "Sitemap: https://example.org/blog/sitemap.xml\r\n"
        "# end"
    )
    assert robots_text(updated, ours, previous=[ours]) == updated  # a fixed point
    assert robots_text(updated, ours) == updated


@pytest.mark.parametrize(
    "theirs",
    [
        "https://example.org/blog/sitemap.xml",  # another folder
        "https://shop.example.net/sitemap.xml",  # another host
        "https://old.example.org/sitemap.xml",  # our old host, but no record says we wrote it
        "https://example.org/docs/sitemap.xml",  # a folder we once wrote, another file name
        "http://example.org/sitemap.xml",  # another scheme: another site
        "https://example.org:8443/sitemap.xml",  # another port
        "https://example.org/Sitemap.xml",  # a path's case is its own
    ],
)
def test_robots_txt_never_takes_another_sitemaps_line_for_ours(theirs: str) -> None:
    """A line is ours only when it names our sitemap, or a URL an earlier build of ours wrote
    for a file of the same name; a file name alone proves nothing."""
    original = f"User-agent: *\nDisallow:\nSitemap: {theirs}\n"
    ours = "https://example.org/sitemap.xml"
    updated = robots_text(original, ours, previous=["https://example.org/docs/sitemap.txt"])
    assert updated == f"{original}Sitemap: {ours}\n"
    assert robots_without(updated, ours) == original


@pytest.mark.parametrize(
    "spelled",
    [
        "https://Example.ORG/%7Eme/sitemap.xml",  # the host's case, an escaped unreserved "~"
        "https://example.org:443/~me/sitemap.xml",  # the scheme's default port
        "HTTPS://example.org/~me/./sitemap.xml",  # the scheme's case, a dot segment
    ],
)
def test_robots_txt_takes_our_url_spelled_otherwise_for_our_line(spelled: str) -> None:
    """RFC 3986 makes these one URL with ours: a second line would name the sitemap twice,
    which a crawler reads twice."""
    ours = "https://example.org/~me/sitemap.xml"
    original = f"User-agent: *\nSitemap: {spelled}  # the feed\n"
    updated = robots_text(original, ours)
    assert updated == f"User-agent: *\nSitemap: {ours}  # the feed\n"
    assert robots_text(updated, ours) == updated
    assert robots_without(original, ours) == "User-agent: *\n"


def test_robots_txt_without_trailing_newline_gets_line_appended() -> None:
    updated = robots_text("User-agent: *\nDisallow:", "https://example.org/docs/sitemap.xml")
    assert updated.splitlines() == [
        "User-agent: *",
        "Disallow:",
        "Sitemap: https://example.org/docs/sitemap.xml",
    ]


@pytest.mark.parametrize("ending", ["\r\n", "\n", "\r"])
@pytest.mark.parametrize("last", ["", "end"])
def test_robots_txt_keeps_the_files_own_line_ending(ending: str, last: str) -> None:
    """A line added, and the break added after a last line that had none, end as the file's
    other lines do: a file edited on Windows stays a CRLF file (RFC 9309 allows all three)."""
    url = "https://example.org/sitemap.xml"
    original = ending.join(["User-agent: *", "Disallow: /private/", f"# {last}"])
    updated = robots_text(original, url)
    assert updated.startswith(original)
    assert set(re.findall(r"\r\n|\r|\n", updated)) == {ending}
    assert [sitemap_line_url(line) for line in re.split(r"\r\n|\r|\n", updated)][-2:] == [url, None]
    assert updated.endswith(ending)
    assert robots_text(updated, url) == updated


@pytest.mark.parametrize(
    "original",
    [
        "\ufeffSitemap: https://example.org/sitemap.xml\nUser-agent: *\nDisallow:\n",
        "User-agent: *\nDisallow:\nSitemap: https://example.org/sitemap.xml # the docs index\n",
        "User-agent: *\n  SITEMAP :https://example.org/sitemap.xml\t#\n",
    ],
)
def test_robots_txt_our_line_is_found_behind_a_bom_or_before_a_comment(original: str) -> None:
    """Crawlers skip a leading BOM and read ``#`` as the start of a comment: such a line
    already names the sitemap, and the file stays exactly as it was (no second line)."""
    assert robots_text(original, "https://example.org/sitemap.xml") == original


@pytest.mark.parametrize(
    ("line", "url"),
    [
        ("Sitemap: https://example.org/sitemap.xml", "https://example.org/sitemap.xml"),
        ("\tsitemap :  https://example.org/a b.xml  ", "https://example.org/a b.xml"),
        ("Sitemap: https://example.org/sitemap.xml# a comment", "https://example.org/sitemap.xml"),
        ("Sitemap: # only a comment", None),
        ("Sitemap:", None),
        ("Sitemaps: https://example.org/sitemap.xml", None),
        ("# Sitemap: https://example.org/sitemap.xml", None),
        ("Disallow: /sitemap.xml", None),
    ],
)
def test_robots_txt_lines_are_read_as_the_validator_reads_them(line: str, url: str | None) -> None:
    """Editing robots.txt and checking it must agree on which lines are ``Sitemap:`` lines and
    what they name, or an update would add a line the check then reports twice."""
    read = sitemap_lines([line.encode()])
    assert sitemap_line_url(line) == url
    assert read == ([] if url is None else [(1, url)])


def test_the_validator_reads_robots_lines_as_crawlers_split_and_space_them() -> None:
    """Lines end at CR, LF or CRLF only (RFC 9309), not at a form feed; space around a URL is
    space and tab only, so a no-break space stays part of the URL, for the check to report."""
    text = (
        "\ufeffSitemap: https://example.org/a.xml\r\n"
        "User-agent: *\x0cSitemap: https://example.org/not-a-line.xml\r"
        "Sitemap:\thttps://example.org/b.xml \t# b\n"
        "Sitemap: https://example.org/c.xml\u00a0\n"
    )
    assert sitemap_lines([text.encode()]) == [
        (1, "https://example.org/a.xml"),
        (3, "https://example.org/b.xml"),
        (4, "https://example.org/c.xml\u00a0"),
    ]


@pytest.mark.parametrize(
    ("html", "noindex", "redirect"),
    [
        ('<HEAD><meta\nname="robots"\ncontent="NOINDEX"/></HEAD>', True, False),
        ("<head><meta name=robots content=noindex></head>", True, False),
        ('<head><meta name="bingbot" content="noarchive, noindex"></head>', True, False),
        ('<head><META NAME="GoogleBot" CONTENT="NoIndex"></head>', True, False),
        ('<head><meta name="robot" content="noindex"></head>', False, False),  # not a robots name
        ('<head><META HTTP-EQUIV="REFRESH" CONTENT="0; URL=/x/"></head>', False, True),
        ('<head><meta name="robots" content="index"><title>noindex</title></head>', False, False),
        ('<head><meta http-equiv="Refresh" content="0;URL=&quot;/new/&quot;"></head>', False, True),
        ('<head><meta http-equiv="refresh" content="30"></head>', False, False),  # a reload
        ("<p>no head at all</p>", False, False),
    ],
)
def test_head_meta_variants(html: str, noindex: bool, redirect: bool) -> None:
    expected = Reason.REDIRECT_STUB if redirect else Reason.NOINDEX if noindex else None
    assert head_reason(html) is expected


def test_a_declared_time_keeps_the_day_its_author_wrote() -> None:
    late = dt.datetime(2024, 5, 1, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert as_written(late, "date", declared=True) == dt.date(2024, 5, 1)
    assert as_written(late, "date", declared=False) == dt.date(2024, 5, 2)
    assert as_written(late, "datetime", declared=True) is late
    assert as_written(dt.date(2024, 5, 1), "date", declared=False) == dt.date(2024, 5, 1)


def test_naive_times_are_read_in_the_zone_given() -> None:
    paris = dt.timezone(dt.timedelta(hours=2))
    assert parse_lastmod("2024-05-01T10:00", naive_tz=paris) == dt.datetime(
        2024, 5, 1, 10, tzinfo=paris
    )
    assert parse_lastmod(
        dt.datetime(2024, 5, 1, 10), naive_tz=paris
    ).utcoffset() == paris.utcoffset(None)
    # A time that carries its offset keeps it, and a bare date stays a day.
    assert parse_lastmod("2024-05-01T10:00Z", naive_tz=paris).utcoffset() == dt.timedelta(0)
    assert parse_lastmod("2024-05-01", naive_tz=paris) == dt.date(2024, 5, 1)


@pytest.mark.parametrize(
    ("head", "modified"),
    [
        (
            '<meta property="article:modified_time" content="2024-05-01T10:00:00+02:00">',
            "2024-05-01T10:00:00+02:00",
        ),
        ('<meta name="last-modified" content=" 2024-05-02 ">', "2024-05-02"),
        ('<meta http-equiv="Last-Modified" content="2024-05-03">', "2024-05-03"),
        (
            '<meta property="og:updated_time" content="2024-01-01">'
            '<script type="application/ld+json">{"@graph": [{"@type": "WebSite"},'
            ' {"@type": "Article", "dateModified": "2024-05-04"}]}</script>',
            "2024-05-04",  # JSON-LD first, wherever in the graph
        ),
        ('<script type="application/ld+json">{not json</script>', None),
        ('<meta name="description" content="2024-05-05">', None),
    ],
)
def test_scan_head_finds_a_declared_modification_date(head: str, modified: str | None) -> None:
    scan = scan_head(f"<html><head>{head}</head><body>dateModified 2099</body></html>")
    assert scan.modified == modified
    assert scan.reason is None


def test_scan_head_reads_canonical_and_the_same_reasons(tmp_path: Path) -> None:
    page = tmp_path / "p.html"
    page.write_text(
        '<head><link rel="stylesheet" href="x.css"><LINK REL="Canonical" HREF="/other/">'
        '<meta name="robots" content="noindex"></head><body><link rel="canonical" href="/b/">',
        encoding="utf-8",
    )
    scan = scan_head(page)
    assert (scan.canonical, scan.reason) == ("/other/", Reason.NOINDEX)
    assert scan_head("<head></head>") == HeadScan()


def test_format_lastmod_writes_equal_instants_each_in_its_own_offset() -> None:
    """Equal instants are equal keys of any cache; each keeps the offset it came with."""
    west = dt.datetime(2024, 5, 1, 23, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    utc = dt.datetime(2024, 5, 2, 4, tzinfo=UTC)
    assert west == utc
    assert format_lastmod(west, "datetime") == "2024-05-01T23:00:00-05:00"
    assert format_lastmod(utc, "datetime") == "2024-05-02T04:00:00Z"


def test_scan_head_reads_names_spelled_with_character_references() -> None:
    """The scan parses only the tags that can name what it looks for; a character reference
    can spell any name, as a browser reads it, so a tag with one is always parsed."""
    scan = scan_head(
        '<head><meta name="&#114;obots" content="noindex">'
        '<meta property="article:&#109;odified_time" content="2024-05-01">'
        '<link rel="&#99;anonical" href="/x/"><meta name="viewport" content="width=1">'
        '<link rel="stylesheet" href="s.css"></head>'
    )
    assert scan == HeadScan(Reason.NOINDEX, "/x/", "2024-05-01", None)


def test_a_robots_name_spelled_with_character_references_keeps_the_page_out() -> None:
    """The plugins read a page's head as the scan of a built site does: a browser, and a
    crawler, decode the references before reading the name."""
    head = '<head><meta name="&#114;obots" content="noindex"><meta name="viewport"></head>'
    assert head_reason(head) is Reason.NOINDEX
    assert head_reason('<head><meta http-equiv="&#82;efresh" content="0; url=/x/"></head>') is (
        Reason.REDIRECT_STUB
    )


def test_an_ampersand_alone_spells_no_name() -> None:
    """A stylesheet's query (``&display=swap``) holds an ``&`` that is no reference: the tag
    says nothing the scan looks for; one that is a reference still can."""
    fonts = '<link rel="stylesheet" href="https://fonts.example/css?family=A&display=swap">'
    scan = scan_head(
        f'<head>{fonts}<link rel="stylesheet" href="/c.css?canonical&amp;x">'
        '<meta name="description" content="Fish &amp; chips"></head>'
    )
    assert scan == HeadScan()
    assert not _may_say(fonts, ("canonical", "hreflang"))  # not parsed for nothing
    assert _may_say('<link rel="&#99;anonical" href="/x/">', ("canonical", "hreflang"))
