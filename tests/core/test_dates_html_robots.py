"""Small core pieces: reading authors' dates, reading a page's head, editing robots.txt."""

from __future__ import annotations

import datetime as dt

import pytest

from sitemap_plugins.core.dates import as_written, format_lastmod, newest, parse_lastmod
from sitemap_plugins.core.html import has_robots_noindex, head_exclusion, is_redirect_stub
from sitemap_plugins.core.robots import robots_text

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


@pytest.mark.parametrize("raw", ["yesterday", "2024-13-01", "01/05/2024", 20240501, ""])
def test_parse_lastmod_refuses_to_guess(raw: object) -> None:
    with pytest.raises(ValueError, match="2024-05-01"):
        parse_lastmod(raw)


def test_format_lastmod_date_is_the_utc_day_of_an_instant() -> None:
    late = dt.datetime(2024, 5, 1, 23, 30, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    assert format_lastmod(late, "date") == "2024-05-02"  # 04:30 UTC on the next day
    early = dt.datetime(2024, 5, 2, 1, 0, tzinfo=dt.timezone(dt.timedelta(hours=9)))
    assert format_lastmod(early, "date") == "2024-05-01"  # 16:00 UTC the day before
    assert format_lastmod(late, "datetime") == "2024-05-01T23:30:00-05:00"
    assert format_lastmod(dt.datetime(2024, 5, 1, tzinfo=UTC), "datetime") == "2024-05-01T00:00:00Z"
    assert format_lastmod(dt.date(2024, 5, 1), "datetime") == "2024-05-01"


def test_newest_orders_dates_and_datetimes_together() -> None:
    day = dt.date(2024, 5, 2)
    stamp = dt.datetime(2024, 5, 1, 23, tzinfo=UTC)
    assert newest([stamp, day]) == day
    assert newest([]) is None


@pytest.mark.parametrize(
    ("html", "noindex"),
    [
        ('<html><head><meta name="robots" content="noindex"></head></html>', True),
        ("<head><META CONTENT='NOINDEX, nofollow' NAME='Robots'></head>", True),
        ('<head><meta name="robots" content="index, follow"></head>', False),
        ('<head></head><body><meta name="robots" content="noindex"></body>', False),
        ('<head><meta name="description" content="noindex"></head>', False),
    ],
)
def test_noindex_is_read_from_the_head(html: str, noindex: bool) -> None:
    assert has_robots_noindex(html) is noindex


def test_redirect_stub() -> None:
    stub = '<head><meta http-equiv="refresh" content="0; url=../new/"></head>'
    assert is_redirect_stub(stub)
    assert not is_redirect_stub("<head><title>x</title></head><body>refresh url=</body>")


def test_robots_txt_created() -> None:
    assert robots_text("", "https://example.org/sitemap.xml") == (
        "Sitemap: https://example.org/sitemap.xml\n"
    )


def test_robots_txt_keeps_everything_else_and_updates_our_line() -> None:
    original = (
        "User-agent: *\r\nDisallow: /private/\r\n"
        "Sitemap: https://old.example.org/sitemap.xml\r\n"
        "Sitemap: https://example.org/news-sitemap.xml\r\n"
        "sitemap: https://old.example.org/sitemap.xml\r\n"
        "# end"
    )
    updated = robots_text(original, "https://example.org/sitemap.xml")
    assert updated == (
        "User-agent: *\r\nDisallow: /private/\r\n"
        "Sitemap: https://example.org/sitemap.xml\r\n"
        "Sitemap: https://example.org/news-sitemap.xml\r\n"
        "# end"
    )
    assert robots_text(updated, "https://example.org/sitemap.xml") == updated  # a fixed point


def test_robots_txt_without_trailing_newline_gets_line_appended() -> None:
    updated = robots_text("User-agent: *\nDisallow:", "https://example.org/docs/sitemap.xml")
    assert updated.splitlines() == [
        "User-agent: *",
        "Disallow:",
        "Sitemap: https://example.org/docs/sitemap.xml",
    ]


@pytest.mark.parametrize(
    ("html", "noindex", "redirect"),
    [
        ('<HEAD><meta\nname="robots"\ncontent="NOINDEX"/></HEAD>', True, False),
        ("<head><meta name=robots content=noindex></head>", True, False),
        ('<head><meta name="bingbot" content="noarchive, noindex"></head>', True, False),
        ('<head><meta name="robots" content="index"><title>noindex</title></head>', False, False),
        ('<head><meta http-equiv="Refresh" content="0;URL=&quot;/new/&quot;"></head>', False, True),
        ('<head><meta http-equiv="refresh" content="30"></head>', False, False),  # a reload
        ("<p>no head at all</p>", False, False),
    ],
)
def test_head_meta_variants(html: str, noindex: bool, redirect: bool) -> None:
    assert has_robots_noindex(html) is noindex
    assert is_redirect_stub(html) is redirect
    expected = "redirect stub" if redirect else "noindex" if noindex else None
    assert head_exclusion(html) == expected


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


def test_format_lastmod_writes_equal_instants_each_in_its_own_offset() -> None:
    """Equal instants are equal keys of any cache; each keeps the offset it came with."""
    west = dt.datetime(2024, 5, 1, 23, tzinfo=dt.timezone(dt.timedelta(hours=-5)))
    utc = dt.datetime(2024, 5, 2, 4, tzinfo=UTC)
    assert west == utc
    assert format_lastmod(west, "datetime") == "2024-05-01T23:00:00-05:00"
    assert format_lastmod(utc, "datetime") == "2024-05-02T04:00:00Z"
