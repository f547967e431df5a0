"""The sitemap checks must be able to fail: each bad file here is caught, each good one passes.

Every other test in the project trusts ``tests.support.sitemap_checks`` to reject a broken
sitemap. These tests feed it hand-written files, good and bad, and check the verdict of each layer:
the project's own protocol checks, the official XSD (where the schemas are present), and
ultimate-sitemap-parser over loopback HTTP. Where the XSD accepts a file the protocol or the
project forbids (a relative or unencoded loc, an unsorted list), the test says so: that gap is why
the own checks exist.
"""

from __future__ import annotations

import datetime as dt
import gzip
import socket
import subprocess
import sys
import textwrap
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path

import pytest

from tests.support.hosts import child_env
from tests.support.sitemap_checks import (
    MAX_BYTES,
    MAX_URLS,
    SITEMAP_NS,
    UrlEntry,
    check_sitemap_file,
    parse_with_usp,
    protocol_problems,
    read_index,
    read_sitemap,
    schema_skip_reason,
    serve_rebased,
    validate_xsd,
    xsd_dir,
)

BASE = "https://example.org/docs/"
XHTML = 'xmlns:xhtml="http://www.w3.org/1999/xhtml"'
IMAGE = 'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1"'
VIDEO = 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"'
NEWS = 'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
needs_schemas = pytest.mark.skipif(xsd_dir() is None, reason=str(schema_skip_reason()))


def url(
    loc: str,
    lastmod: str | None = None,
    changefreq: str | None = None,
    priority: str | None = None,
    extra: str = "",
) -> str:
    """One ``<url>`` element, children in XSD order (tests that need another order write it)."""
    parts = [f"<loc>{loc}</loc>"]
    if lastmod is not None:
        parts.append(f"<lastmod>{lastmod}</lastmod>")
    if changefreq is not None:
        parts.append(f"<changefreq>{changefreq}</changefreq>")
    if priority is not None:
        parts.append(f"<priority>{priority}</priority>")
    return "  <url>" + "".join(parts) + extra + "</url>\n"


def urlset(*urls: str, namespaces: str = "") -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="{SITEMAP_NS}" {namespaces}>\n' + "".join(urls) + "</urlset>\n"
    )


def index(*children: tuple[str, str | None]) -> str:
    body = "".join(
        f"  <sitemap><loc>{loc}</loc>"
        + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
        + "</sitemap>\n"
        for loc, lastmod in children
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="{SITEMAP_NS}">\n{body}</sitemapindex>\n'
    )


def write(path: Path, text: str, *, gz: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(gzip.compress(data, mtime=0) if gz else data)
    return path


def alternates(*pairs: tuple[str, str]) -> str:
    return "".join(
        f'<xhtml:link rel="alternate" hreflang="{lang}" href="{href}"/>' for lang, href in pairs
    )


def video(
    *,
    thumbnail: str | None = f"{BASE}img/t.jpg",
    title: str | None = "A &amp; B",
    content: str | None = f"{BASE}v.mp4",
) -> str:
    """A ``<video:video>`` with the required children, minus those given as None."""
    parts = [
        f"<video:thumbnail_loc>{thumbnail}</video:thumbnail_loc>" if thumbnail else "",
        f"<video:title>{title}</video:title>" if title else "",
        "<video:description>What it shows</video:description>",
        f"<video:content_loc>{content}</video:content_loc>" if content else "",
    ]
    return "<video:video>" + "".join(parts) + "</video:video>"


def news(*, title: str | None = "Launch &lt;today&gt;", date: str = "2024-05-01") -> str:
    """A ``<news:news>`` with every required child, minus a title given as None."""
    return (
        "<news:news><news:publication><news:name>The Example</news:name>"
        "<news:language>en</news:language></news:publication>"
        f"<news:publication_date>{date}</news:publication_date>"
        + (f"<news:title>{title}</news:title>" if title else "")
        + "</news:news>"
    )


GOOD_URLSET = urlset(
    url(BASE, "2024-05-01", "weekly", "1.0"),
    url(
        BASE + "en/guide/",
        "2024-05-02T10:00:00+02:00",
        extra=alternates(
            ("en", BASE + "en/guide/"),
            ("fr", BASE + "fr/guide/"),
            ("x-default", BASE + "en/guide/"),
        )
        + f"<image:image><image:loc>{BASE}img/a.png</image:loc></image:image>",
    ),
    url(
        BASE + "fr/guide/",
        "2024-05-03T08:00:00Z",
        extra=alternates(
            ("en", BASE + "en/guide/"),
            ("fr", BASE + "fr/guide/"),
            ("x-default", BASE + "en/guide/"),
        ),
    ),
    url(BASE + "search%20tips/caf%C3%A9/?q=a&amp;b=c", priority="0.25"),
    namespaces=f"{XHTML} {IMAGE}",
)


# --------------------------------------------------------------------------------------------
# Good files pass every layer


def test_good_urlset_passes_and_reads_back(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", GOOD_URLSET)

    assert protocol_problems(path, BASE + "sitemap.xml") == []
    if xsd_dir() is not None:
        validate_xsd(path)
        entries = check_sitemap_file(path, BASE + "sitemap.xml")
    else:
        entries = read_sitemap(path)

    assert [e.loc for e in entries] == [
        BASE,
        BASE + "en/guide/",
        BASE + "fr/guide/",
        BASE + "search%20tips/caf%C3%A9/?q=a&b=c",
    ]
    assert entries[0] == UrlEntry(BASE, "2024-05-01", "weekly", "1.0")
    assert entries[1].alternates == {
        "en": BASE + "en/guide/",
        "fr": BASE + "fr/guide/",
        "x-default": BASE + "en/guide/",
    }
    assert entries[1].images == (BASE + "img/a.png",)
    assert entries[3].priority == "0.25"
    assert len(set(entries)) == 4  # hashable despite the alternates mapping


GOOD_MEDIA = urlset(
    url(
        BASE + "a/",
        extra=f"<image:image><image:loc>{BASE}img/a.png</image:loc></image:image>"
        + video()
        + news(date="2024-05-01T10:00:00+02:00"),
    ),
    namespaces=f"{IMAGE} {VIDEO} {NEWS}",
)


def test_images_videos_and_news_pass_and_read_back(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", GOOD_MEDIA)

    assert protocol_problems(path, BASE + "sitemap.xml") == []
    if xsd_dir() is not None:
        validate_xsd(path)
    [entry] = check_sitemap_file(path, BASE + "sitemap.xml")
    assert entry.images == (BASE + "img/a.png",)
    assert entry.videos == (
        {
            "thumbnail_loc": BASE + "img/t.jpg",
            "title": "A & B",
            "description": "What it shows",
            "content_loc": BASE + "v.mp4",
        },
    )
    assert entry.news == {
        "name": "The Example",
        "language": "en",
        "publication_date": "2024-05-01T10:00:00+02:00",
        "title": "Launch <today>",
    }
    [page] = parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE).values()
    assert page.images == (BASE + "img/a.png",)
    assert page.news == (
        "The Example",
        "en",
        dt.datetime(2024, 5, 1, 10, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        "Launch <today>",
    )


def test_more_than_1000_news_in_one_file_is_caught(tmp_path: Path) -> None:
    locs = sorted(f"{BASE}n{number}/" for number in range(1_001))
    path = write(
        tmp_path / "sitemap-news.xml",
        urlset(*(url(loc, extra=news()) for loc in locs), namespaces=NEWS),
    )
    assert protocol_problems(path) == ["1,001 news:news in one file, more than 1,000"]


def test_gzip_is_transparent(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml.gz", GOOD_URLSET, gz=True)

    assert protocol_problems(path) == []
    assert read_sitemap(path)[0].loc == BASE
    if xsd_dir() is not None:
        validate_xsd(path)
        assert len(check_sitemap_file(path)) == 4


def test_gz_name_without_gzip_content_is_caught(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml.gz", GOOD_URLSET)
    assert "named .gz but not gzip-compressed" in protocol_problems(path)


def test_schema_folder_location(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("SITEMAP_XSD_DIR", str(tmp_path / "nowhere"))
    assert xsd_dir() is None
    reason = schema_skip_reason()
    assert reason is not None
    assert str(tmp_path / "nowhere") in reason
    assert "SITEMAP_XSD_DIR" in reason

    monkeypatch.delenv("SITEMAP_XSD_DIR")
    found = xsd_dir()
    if found is not None:
        assert (found / "sitemap-all.xsd").is_file()
        monkeypatch.setenv("SITEMAP_XSD_DIR", str(found))
        assert xsd_dir() == found


# --------------------------------------------------------------------------------------------
# Bad urlsets: caught by the own checks, and by the XSD where the XSD can see it

OK = f"{BASE}a/"
BAD_URLSETS = {
    # name: (document, expected own-check message fragment, XSD rejects it too)
    "unescaped ampersand": (urlset(url(f"{BASE}?a=1&b=2")), "not well-formed XML", True),
    "wrong child order": (
        urlset(
            f"  <url><loc>{OK}</loc><priority>0.5</priority><lastmod>2024-05-01</lastmod></url>\n"
        ),
        "out of order",
        True,
    ),
    "loc not first": (
        urlset(f"  <url><lastmod>2024-05-01</lastmod><loc>{OK}</loc></url>\n"),
        "<loc> is not the first child",
        True,
    ),
    "missing loc": (urlset("  <url><lastmod>2024-05-01</lastmod></url>\n"), "no <loc>", True),
    "relative loc": (urlset(url("guide/install/")), "not an absolute http(s) URL", False),
    "priority 1.5": (urlset(url(OK, priority="1.5")), "outside 0.0-1.0", True),
    "priority high": (urlset(url(OK, priority="high")), "not a decimal number", True),
    "changefreq Weekly": (urlset(url(OK, changefreq="Weekly")), "changefreq 'Weekly'", True),
    "changefreq sometimes": (urlset(url(OK, changefreq="sometimes")), "changefreq", True),
    "raw space in loc": (urlset(url(f"{BASE}a b/")), "RFC 3986 does not allow raw", False),
    "raw non-ASCII in loc": (urlset(url(f"{BASE}café/")), "RFC 3986 does not allow raw", False),
    "stray percent": (urlset(url(f"{BASE}100%/")), "% not followed by two hex digits", True),
    "loc of 2,048 characters": (
        urlset(url(BASE + "a" * (2048 - len(BASE)))),
        "it must be under 2,048",
        False,  # the XSD's maxLength is 2048 inclusive; the protocol says "less than"
    ),
    "loc with whitespace": (urlset(url(f" {OK} ")), "surrounding whitespace", False),
    "unsorted": (urlset(url(f"{BASE}b/"), url(f"{BASE}a/")), "not sorted", False),
    "duplicate": (urlset(url(OK), url(OK)), "duplicate loc", False),
    "two hosts": (
        urlset(url(OK), url("https://other.example.org/docs/b/")),
        "more than one scheme and host",
        False,
    ),
    "lastmod without time zone": (
        urlset(url(OK, "2024-05-01T10:00:00")),
        "not YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with Z",
        False,  # xsd:dateTime makes the zone optional; the W3C profile requires it
    ),
    "lastmod without seconds": (urlset(url(OK, "2024-05-01T10:00Z")), "lastmod", True),
    "lastmod month 13": (urlset(url(OK, "2024-13-01")), "month must be in 1..12", True),
    "lastmod in words": (urlset(url(OK, "yesterday")), "lastmod 'yesterday'", True),
    "empty urlset": (urlset(), "without any <url>", True),
    "unknown sitemap element": (
        urlset(url(OK, extra="<title>A</title>")),
        "unknown element <title>",
        True,
    ),
    "no namespace": (
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset>' + url(OK) + "</urlset>\n",
        "root element is urlset",
        True,
    ),
    "legacy namespace": (
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        '<urlset xmlns="http://www.google.com/schemas/sitemap/0.84">' + url(OK) + "</urlset>\n",
        "legacy namespace",
        True,
    ),
    "no XML declaration": (
        urlset(url(OK)).split("\n", 1)[1],
        "does not start with an XML declaration",
        False,
    ),
    "hreflang without self link": (
        urlset(
            url(OK, extra=alternates(("fr", f"{BASE}fr/a/"))),
            namespaces=XHTML,
        ),
        "does not list itself",
        False,
    ),
    "hreflang groups disagree": (
        urlset(
            url(OK, extra=alternates(("en", OK), ("fr", f"{BASE}fr/a/"))),
            url(f"{BASE}fr/a/", extra=alternates(("fr", f"{BASE}fr/a/"))),
            namespaces=XHTML,
        ),
        "differ",
        False,
    ),
    "hreflang listed twice": (
        urlset(url(OK, extra=alternates(("en", OK), ("en", f"{BASE}b/"))), namespaces=XHTML),
        "listed twice",
        False,
    ),
    "relative alternate": (
        urlset(url(OK, extra=alternates(("en", OK), ("fr", "fr/a/"))), namespaces=XHTML),
        "alternate href 'fr/a/' is not an absolute",
        False,
    ),
    "video without content or player": (
        urlset(url(OK, extra=video(content=None)), namespaces=VIDEO),
        "without video:content_loc or video:player_loc",
        False,  # both are optional to the XSD; Google requires one
    ),
    "video without title": (
        urlset(url(OK, extra=video(title=None)), namespaces=VIDEO),
        "without video:title",
        True,
    ),
    "relative video thumbnail": (
        urlset(url(OK, extra=video(thumbnail="thumb.jpg")), namespaces=VIDEO),
        "video:thumbnail_loc 'thumb.jpg' is not an absolute",
        False,  # xsd:anyURI takes a relative reference
    ),
    "video content at the page's own URL": (
        urlset(url(OK, extra=video(content=OK)), namespaces=VIDEO),
        "video:content_loc is the page's own URL",
        False,
    ),
    "news without title": (
        urlset(url(OK, extra=news(title=None)), namespaces=NEWS),
        "news:news without news:title",
        True,
    ),
    "news date without time zone": (
        urlset(url(OK, extra=news(date="2024-05-01T10:00:00")), namespaces=NEWS),
        "news:publication_date",
        False,
    ),
    "undeclared extension namespace": (
        urlset(url(OK, extra='<x:y xmlns:x="urn:unknown">1</x:y>')),
        None,  # nothing the own checks forbid: extensions are free-form to them
        True,  # the XSD's xsd:any is processContents="strict"
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_URLSETS))
def test_bad_urlset_is_caught(name: str, tmp_path: Path) -> None:
    document, fragment, xsd_rejects = BAD_URLSETS[name]
    path = write(tmp_path / "sitemap.xml", document)

    problems = protocol_problems(path)
    if fragment is None:
        assert problems == []
    else:
        assert any(fragment in p for p in problems), problems
        with pytest.raises(AssertionError, match="sitemap problem"):
            check_sitemap_file(path)

    if xsd_dir() is None:
        validate_xsd(path)  # records the deferred skip of the schema layer, with its reason
    elif xsd_rejects:
        with pytest.raises(AssertionError, match=r"sitemap\.xml:\d+:\d+: |not well-formed"):
            validate_xsd(path)
    else:
        validate_xsd(path)  # the XSD alone would let this through


@needs_schemas
def test_xsd_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", urlset(url(f"{BASE}a/"), url(f"{BASE}b/", priority="2")))
    with pytest.raises(AssertionError) as caught:
        validate_xsd(path)
    assert f"{path}:4:" in str(caught.value)
    assert "priority" in str(caught.value)


def test_doctype_is_refused(tmp_path: Path) -> None:
    document = urlset(url(OK)).replace("<urlset", '<!DOCTYPE urlset [<!ENTITY e "x">]>\n<urlset', 1)
    path = write(tmp_path / "sitemap.xml", document)
    assert any("DOCTYPE" in p for p in protocol_problems(path))


def test_encoding_other_than_utf8_is_caught(tmp_path: Path) -> None:
    path = tmp_path / "sitemap.xml"
    text = urlset(url(f"{BASE}caf%C3%A9/")).replace("UTF-8", "ISO-8859-1")
    path.write_bytes(text.encode("latin-1"))
    assert any("declares encoding 'ISO-8859-1'" in p for p in protocol_problems(path))

    path.write_bytes(urlset(url(OK)).replace("</loc>", "\xe9</loc>").encode("latin-1"))
    assert any("not UTF-8" in p for p in protocol_problems(path))

    path.write_bytes(b"\xef\xbb\xbf" + urlset(url(OK)).encode())
    assert any("byte order mark" in p for p in protocol_problems(path))


def test_scope_of_the_sitemap_url(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", urlset(url(f"{BASE}a/"), url("https://example.org/z/")))
    problems = protocol_problems(path, BASE + "sitemap.xml")
    assert problems == [f"https://example.org/z/ is outside the scope {BASE} of {BASE}sitemap.xml"]
    assert protocol_problems(path, "https://example.org/sitemap.xml") == []
    assert any(
        "scheme and host" in p for p in protocol_problems(path, "http://example.org/sitemap.xml")
    )


def test_url_count_limit(tmp_path: Path) -> None:
    locs = [url(f"https://example.org/p{i:06d}/") for i in range(MAX_URLS + 1)]
    path = write(tmp_path / "sitemap.xml", urlset(*locs))
    assert protocol_problems(path) == ["50,001 <url> elements, more than 50,000"]

    path = write(tmp_path / "sitemap.xml", urlset(*locs[:MAX_URLS]))
    assert protocol_problems(path) == []


def test_byte_limit_counts_uncompressed_bytes(tmp_path: Path) -> None:
    head = urlset(url(OK)).removesuffix("</urlset>\n")
    padding = MAX_BYTES - len(head) - len("</urlset>\n")
    exact = head + " " * padding + "</urlset>\n"
    over = head + " " * (padding + 1) + "</urlset>\n"
    assert len(exact.encode()) == MAX_BYTES
    for path in (
        write(tmp_path / "sitemap.xml", over),
        write(tmp_path / "sitemap.xml.gz", over, gz=True),
    ):
        assert protocol_problems(path) == [f"more than {MAX_BYTES:,} bytes uncompressed"], path
    assert protocol_problems(write(tmp_path / "sitemap.xml.gz", exact, gz=True)) == []


# --------------------------------------------------------------------------------------------
# Indexes, children on disk


def make_split_site(site: Path, base: str = BASE, *, gz_child: bool = True) -> Path:
    """An index and two children, as the writer lays them out when a sitemap is split."""
    first = "sitemap-1.xml.gz" if gz_child else "sitemap-1.xml"
    write(
        site / first,
        urlset(
            url(f"{base}a/", "2024-05-01", "weekly", "0.8"),
            url(f"{base}b/", "2024-05-03T10:00:00+02:00"),
        ),
        gz=gz_child,
    )
    write(site / "sitemap-2.xml", urlset(url(f"{base}c/", "2024-04-01"), url(f"{base}d/")))
    return write(
        site / "sitemap.xml",
        index(
            (f"{base}{first}", "2024-05-03T10:00:00+02:00"),
            (f"{base}sitemap-2.xml", "2024-04-01"),
        ),
    )


def test_good_index_with_children(tmp_path: Path) -> None:
    path = make_split_site(tmp_path)

    assert protocol_problems(path, BASE + "sitemap.xml") == []
    assert read_index(path)[1].loc == BASE + "sitemap-2.xml"
    entries = read_sitemap(path)
    assert [e.loc for e in entries] == [f"{BASE}{c}/" for c in "abcd"]
    assert entries[0].priority == "0.8"
    assert entries[3].lastmod is None
    if xsd_dir() is not None:
        assert check_sitemap_file(path, BASE + "sitemap.xml") == entries


def test_index_children_found_through_site_dir_and_base_url(tmp_path: Path) -> None:
    site = tmp_path / "site"
    write(site / "en" / "sitemap-1.xml", urlset(url(f"{BASE}en/a/", "2024-05-01")))
    write(site / "fr" / "sitemap-1.xml", urlset(url(f"{BASE}fr/a/", "2024-05-02")))
    path = write(
        site / "sitemap.xml",
        index((f"{BASE}en/sitemap-1.xml", "2024-05-01"), (f"{BASE}fr/sitemap-1.xml", "2024-05-02")),
    )
    assert protocol_problems(path, site_dir=site, base_url=BASE) == []
    got = read_sitemap(path, site_dir=site, base_url=BASE)
    assert [e.loc for e in got] == [f"{BASE}en/a/", f"{BASE}fr/a/"]


def test_index_of_text_sitemaps(tmp_path: Path) -> None:
    write(tmp_path / "sitemap-1.txt.gz", f"{BASE}a/\n{BASE}b/\n", gz=True)
    write(tmp_path / "sitemap-2.txt", f"{BASE}c/\n")
    path = write(
        tmp_path / "sitemap-index.xml",
        index((f"{BASE}sitemap-1.txt.gz", "2024-05-01"), (f"{BASE}sitemap-2.txt", None)),
    )
    assert protocol_problems(path, BASE + "sitemap-index.xml") == []
    assert [e.loc for e in check_sitemap_file(path)] == [f"{BASE}{c}/" for c in "abc"]
    assert sorted(parse_with_usp(tmp_path, "sitemap-index.xml", base_url=BASE)) == [
        f"{BASE}{c}/" for c in "abc"
    ]


BAD_INDEXES: dict[str, tuple[Callable[[Path], Path], str]] = {
    "child missing": (
        lambda site: write(site / "sitemap.xml", index((f"{BASE}sitemap-9.xml", None))),
        "listed by the index but not found",
    ),
    "child is an index": (
        lambda site: (
            write(site / "sitemap-1.xml", index((f"{BASE}sitemap-2.xml", None))),
            write(site / "sitemap-2.xml", urlset(url(OK))),
            write(site / "sitemap.xml", index((f"{BASE}sitemap-1.xml", None))),
        )[-1],
        "an index may not list another index",
    ),
    "lastmod not the newest child entry": (
        lambda site: (
            write(site / "sitemap-1.xml", urlset(url(OK, "2024-05-02"))),
            write(site / "sitemap.xml", index((f"{BASE}sitemap-1.xml", "2024-05-01"))),
        )[-1],
        "but the newest entry is 2024-05-02",
    ),
    "lastmod missing": (
        lambda site: (
            write(site / "sitemap-1.xml", urlset(url(OK, "2024-05-02"))),
            write(site / "sitemap.xml", index((f"{BASE}sitemap-1.xml", None))),
        )[-1],
        "no lastmod, but the newest entry",
    ),
    "unsorted across children": (
        lambda site: (
            write(site / "sitemap-1.xml", urlset(url(f"{BASE}c/"))),
            write(site / "sitemap-2.xml", urlset(url(f"{BASE}a/"))),
            write(
                site / "sitemap.xml",
                index((f"{BASE}sitemap-1.xml", None), (f"{BASE}sitemap-2.xml", None)),
            ),
        )[-1],
        "not sorted",
    ),
    "duplicate across children": (
        lambda site: (
            write(site / "sitemap-1.xml", urlset(url(OK))),
            write(site / "sitemap-2.xml", urlset(url(OK))),
            write(
                site / "sitemap.xml",
                index((f"{BASE}sitemap-1.xml", None), (f"{BASE}sitemap-2.xml", None)),
            ),
        )[-1],
        "duplicate loc",
    ),
    "child lists URLs outside its own directory": (
        lambda site: (
            write(site / "en" / "sitemap-1.xml", urlset(url(f"{BASE}fr/a/"))),
            write(site / "sitemap.xml", index((f"{BASE}en/sitemap-1.xml", None))),
        )[-1],
        f"outside the scope {BASE}en/",
    ),
    "bad child": (
        lambda site: (
            write(site / "sitemap-1.xml", urlset(url(OK, priority="1.5"))),
            write(site / "sitemap.xml", index((f"{BASE}sitemap-1.xml", None))),
        )[-1],
        "sitemap-1.xml: url #1",
    ),
    "relative child loc": (
        lambda site: (
            write(site / "sitemap-1.xml", urlset(url(OK))),
            write(site / "sitemap.xml", index(("sitemap-1.xml", None))),
        )[-1],
        "not an absolute http(s) URL",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_INDEXES))
def test_bad_index_is_caught(name: str, tmp_path: Path) -> None:
    make, fragment = BAD_INDEXES[name]
    path = make(tmp_path)
    problems = protocol_problems(path, site_dir=tmp_path / "en", base_url=BASE + "en/")
    assert any(fragment in p for p in problems), problems
    with pytest.raises(AssertionError, match="sitemap problem"):
        check_sitemap_file(path)


# --------------------------------------------------------------------------------------------
# Text sitemaps


def test_text_sitemap(tmp_path: Path) -> None:
    good = write(tmp_path / "sitemap.txt", f"{BASE}\n{BASE}a/\n{BASE}caf%C3%A9/\n")
    assert protocol_problems(good, BASE + "sitemap.txt") == []
    assert [e.loc for e in read_sitemap(good)] == [BASE, f"{BASE}a/", f"{BASE}caf%C3%A9/"]

    cases = {
        f"{BASE}\nguide/\n": "not an absolute http(s) URL",
        f"{BASE}\n\n{BASE}a/\n": "line 2: blank line",
        f"{BASE}b/\n{BASE}a/\n": "not sorted",
        f"{BASE}a b/\n": "RFC 3986",
        f"{BASE}\r\n": "carriage return",
        f"{BASE}": "does not end with a newline",
        "": "empty text sitemap",
    }
    for text, fragment in cases.items():
        path = write(tmp_path / "bad.txt", text)
        problems = protocol_problems(path)
        assert any(fragment in p for p in problems), (text, problems)
    many = "".join(f"https://example.org/p{i:06d}\n" for i in range(MAX_URLS + 1))
    assert protocol_problems(write(tmp_path / "many.txt.gz", many, gz=True)) == [
        "50,001 URLs, more than 50,000"
    ]
    named_xml = write(tmp_path / "sitemap-1.xml.gz", f"{BASE}\n", gz=True)
    assert protocol_problems(named_xml) == [
        "holds a text sitemap but is named sitemap-1.xml.gz; "
        "servers and crawlers go by the name (Content-Type)"
    ]
    assert any(
        "holds an XML sitemap" in p
        for p in protocol_problems(write(tmp_path / "x.txt", GOOD_URLSET))
    )
    # No schema applies to a text file: nothing to skip, whether or not the schemas are here.
    assert len(check_sitemap_file(good, BASE + "sitemap.txt")) == 3


# --------------------------------------------------------------------------------------------
# The independent parser, over loopback HTTP


def test_usp_reads_a_urlset_over_loopback(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml", GOOD_URLSET)

    pages = parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE)

    assert set(pages) == {
        BASE,
        BASE + "en/guide/",
        BASE + "fr/guide/",
        BASE + "search%20tips/caf%C3%A9/?q=a&b=c",
    }
    home = pages[BASE]
    # usp quirks, pinned: a date is a naive midnight, a timestamp keeps its own offset,
    # a missing priority reads as 0.5.
    assert home.lastmod == dt.datetime(2024, 5, 1)
    assert home.changefreq == "weekly"
    assert home.priority == Decimal("1.0")
    guide = pages[BASE + "en/guide/"]
    assert guide.lastmod == dt.datetime(2024, 5, 2, 10, tzinfo=dt.timezone(dt.timedelta(hours=2)))
    assert guide.priority == Decimal("0.5")
    assert guide.changefreq is None
    assert ("fr", BASE + "fr/guide/") in guide.alternates
    assert pages[BASE + "fr/guide/"].lastmod == dt.datetime(2024, 5, 3, 8, tzinfo=dt.timezone.utc)
    assert guide.sitemap_url == BASE + "sitemap.xml"


def test_usp_follows_an_index_to_its_children(tmp_path: Path) -> None:
    make_split_site(tmp_path)

    pages = parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE)

    assert sorted(pages) == [f"{BASE}{c}/" for c in "abcd"]
    assert pages[f"{BASE}a/"].lastmod == dt.datetime(2024, 5, 1)
    assert pages[f"{BASE}a/"].priority == Decimal("0.8")
    assert pages[f"{BASE}a/"].sitemap_url == BASE + "sitemap-1.xml.gz"
    assert pages[f"{BASE}c/"].lastmod == dt.datetime(2024, 4, 1)
    assert pages[f"{BASE}d/"].lastmod is None


def test_usp_with_a_site_built_for_the_loopback_url(tmp_path: Path) -> None:
    with serve_rebased(tmp_path, "/docs/") as site:
        assert site.base_url.startswith("http://127.0.0.1:")
        assert site.base_url.endswith("/docs/")
        make_split_site(tmp_path, site.base_url, gz_child=False)
        assert protocol_problems(tmp_path / "sitemap.xml", site.url("sitemap.xml")) == []

        pages = parse_with_usp(tmp_path, "sitemap.xml", site=site)

        assert sorted(pages) == [f"{site.base_url}{c}/" for c in "abcd"]
        assert pages[f"{site.base_url}b/"].lastmod == dt.datetime(
            2024, 5, 3, 10, tzinfo=dt.timezone(dt.timedelta(hours=2))
        )
        port = int(site.origin.rsplit(":", 1)[1])
    with (
        pytest.raises(ConnectionRefusedError),
        socket.create_connection(("127.0.0.1", port), timeout=2),
    ):
        pass  # the server is gone once the block ends


def test_usp_gzip_top_level(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml.gz", GOOD_URLSET, gz=True)
    assert len(parse_with_usp(tmp_path, "sitemap.xml.gz", base_url=BASE)) == 4


def test_usp_failures_are_reported(tmp_path: Path) -> None:
    # usp itself would only log these and carry on.
    write(tmp_path / "priority.xml", urlset(url(OK, priority="1.5")))
    with pytest.raises(AssertionError, match="Priority is not within 0 and 1"):
        parse_with_usp(tmp_path, "priority.xml", base_url=BASE)
    assert parse_with_usp(tmp_path, "priority.xml", base_url=BASE, strict=False)[OK].priority == (
        Decimal("0.5")
    )

    write(tmp_path / "truncated.xml", urlset(url(OK), url(f"{BASE}b/"))[:-40])
    with pytest.raises(AssertionError, match="usp logged"):
        parse_with_usp(tmp_path, "truncated.xml", base_url=BASE)

    with pytest.raises(AssertionError, match="usp could not read"):
        parse_with_usp(tmp_path, "missing.xml", base_url=BASE)


def test_usp_never_leaves_loopback(tmp_path: Path) -> None:
    write(tmp_path / "sitemap-1.xml", urlset(url("https://elsewhere.invalid/a/")))
    write(tmp_path / "sitemap.xml", index(("https://elsewhere.invalid/sitemap-1.xml", None)))
    with pytest.raises(AssertionError, match="tried to leave the loopback server"):
        parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE)


# --------------------------------------------------------------------------------------------
# Missing schemas: only the schema layer is skipped, the rest still runs and can still fail

INNER_TESTS = f"""
from pathlib import Path

import pytest
from tests.support.sitemap_checks import check_sitemap_file

GOOD = {GOOD_URLSET!r}


def test_passes(tmp_path):
    path = tmp_path / "sitemap.xml"
    path.write_text(GOOD, encoding="utf-8")
    assert len(check_sitemap_file(path)) == 4


def test_fails_after_the_check(tmp_path):
    path = tmp_path / "sitemap.xml"
    path.write_text(GOOD, encoding="utf-8")
    check_sitemap_file(path)
    assert False, "assertion after the check"


def test_own_checks_still_fail(tmp_path):
    path = tmp_path / "sitemap.xml"
    path.write_text(GOOD.replace("weekly", "Weekly"), encoding="utf-8")
    check_sitemap_file(path)


@pytest.fixture
def built(tmp_path):
    path = tmp_path / "sitemap.xml"
    path.write_text(GOOD, encoding="utf-8")
    return check_sitemap_file(path)


def test_checked_in_a_fixture(built):
    assert len(built) == 4
"""


@pytest.mark.parametrize("plugin", [True, False], ids=["plugin", "no-plugin"])
def test_missing_schemas_skip_only_the_schema_layer(plugin: bool, tmp_path: Path) -> None:
    (tmp_path / "test_inner.py").write_text(textwrap.dedent(INNER_TESTS), encoding="utf-8")
    env = child_env({"SITEMAP_XSD_DIR": str(tmp_path / "no-schemas-here")})
    args = [sys.executable, "-m", "pytest", "-q", "-rs", "-p", "no:cacheprovider"]
    if plugin:
        args += ["-p", "tests.support.sitemap_checks"]
    run = subprocess.run(
        [*args, "test_inner.py"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    out = run.stdout + run.stderr
    assert "official schemas not found at" in out, out
    assert "changefreq 'Weekly'" in out, out
    if plugin:
        # The body ran to the end: a later failure still fails, a clean body is skipped.
        assert "2 failed, 2 skipped" in out, out
        assert "all other checks passed; schema validation skipped" in out, out
        assert "assertion after the check" in out, out
    else:
        # Without the plugin the skip ends the test at the check.
        assert "1 failed, 3 skipped" in out, out
