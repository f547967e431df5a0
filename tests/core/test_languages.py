"""A site built once per language, joined into one sitemap; a language build served from its folder.

The joined pages go through the real builder and the written files through every check (own
protocol checks, XSD, the project's validator, ultimate-sitemap-parser over loopback).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sitemap_plugins.core import (
    Article,
    CollectingReporter,
    LanguageSite,
    LeftOut,
    Options,
    Page,
    Reason,
    SitemapBuilder,
    folder_under,
    join_language_sites,
)
from sitemap_plugins.core.languages import under
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp, read_index

BASE = "https://example.org/"


def _build(out: Path, pages: list[Page | LeftOut], **options: object) -> CollectingReporter:
    reporter = CollectingReporter()
    output_url_path = str(options.pop("output_url_path", ""))
    builder = SitemapBuilder(Options.from_mapping({"base_url": BASE, **options}), reporter)
    builder.build(pages, out, output_url_path=output_url_path)
    return reporter


@pytest.mark.parametrize(
    ("prefix", "path", "expected"),
    [
        ("", "", ""),
        ("de/", "", "de/"),
        ("de/", "hello.html", "de/hello.html"),
        ("de/", "../hello.html", "hello.html"),
        ("de/", "../", ""),
        ("de/", "..", ""),
        ("de/", "../fr/a/", "fr/a/"),
        ("", "de/hello.html", "de/hello.html"),
        ("de/", "/tags.html", "de/tags.html"),
        ("pt_BR/", "./a/b/../c.html", "pt_BR/a/c.html"),
    ],
)
def test_paths_move_under_their_language_folder(prefix: str, path: str, expected: str) -> None:
    assert under(prefix, path) == expected


def test_folder_under_the_main_site() -> None:
    assert folder_under("https://example.org", "https://example.org/de") == "de/"
    assert folder_under("https://example.org/blog/", "https://example.org/blog/pt-br/") == "pt-br/"
    assert folder_under("https://example.org/", "https://example.org") == ""
    assert folder_under("https://example.org", "https://de.example.org") is None
    assert folder_under("https://example.org/de", "https://example.org/") is None
    assert folder_under("", "https://example.org/de") is None


def _sites() -> list[LanguageSite]:
    """What three language builds of one blog say, each about its own folder."""
    english = LanguageSite(
        "en",
        "",
        (
            Page("", "index (en)"),
            Page("archives.html", "archives (en)"),
            Page(
                "hello.html",
                "hello.md",
                translations={"en": "hello.html", "de": "de/hello.html", "fr": "fr/hello.html"},
            ),
            Page("only-english.html", "only-english.md"),
        ),
    )
    german = LanguageSite(
        "de",
        "de/",
        (
            Page("", "index (de)"),
            Page("archives.html", "archives (de)"),
            Page(
                "hello.html",
                "hallo.md",
                translations={"de": "hello.html", "en": "../hello.html", "fr": "../fr/hello.html"},
            ),
            LeftOut(Reason.DRAFT, "only-english.md"),
        ),
    )
    french = LanguageSite(
        "fr",
        "fr/",
        (
            Page("", "index (fr)"),
            Page(
                "hello.html",
                "bonjour.md",
                translations={"fr": "hello.html", "en": "../hello.html", "de": "../de/hello.html"},
            ),
            LeftOut(Reason.DRAFT, "only-english.md"),
        ),
    )
    return [english, german, french]


def test_languages_join_into_one_sitemap_with_every_version(tmp_path: Path) -> None:
    joined = join_language_sites(_sites(), "en")
    assert sum(isinstance(item, LeftOut) for item in joined) == 2  # each kept, once

    reporter = _build(tmp_path, joined)
    assert reporter.warnings == []
    entries = {
        e.loc: e.alternates
        for e in check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    }
    hello = {
        "de": BASE + "de/hello.html",
        "en": BASE + "hello.html",
        "fr": BASE + "fr/hello.html",
        "x-default": BASE + "hello.html",
    }
    home = {"de": BASE + "de/", "en": BASE, "fr": BASE + "fr/", "x-default": BASE}
    # Archives exist in two languages only: those two are each other's versions.
    archives = {
        "de": BASE + "de/archives.html",
        "en": BASE + "archives.html",
        "x-default": BASE + "archives.html",
    }
    assert entries == {
        BASE: home,
        BASE + "de/": home,
        BASE + "fr/": home,
        BASE + "archives.html": archives,
        BASE + "de/archives.html": archives,
        BASE + "hello.html": hello,
        BASE + "de/hello.html": hello,
        BASE + "fr/hello.html": hello,
        BASE + "only-english.html": {},
    }
    pages = parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE)
    assert {loc: dict(info.alternates) for loc, info in pages.items()} == entries


def test_a_version_is_listed_where_its_own_build_serves_it(tmp_path: Path) -> None:
    """The English build links the German page by a URL that serves nothing; the German build
    lists it where its file is, and links back: that is where it is, for every version."""
    english = LanguageSite(
        "en",
        "",
        (Page("about.html", "about.md", translations={"en": "about.html", "de": "de/about.html"}),),
    )
    german = LanguageSite(
        "de",
        "de/",
        (
            Page(
                "kontakt.html",
                "ueber.md",
                translations={"de": "kontakt.html", "en": "../about.html"},
            ),
        ),
    )
    _build(tmp_path, join_language_sites([english, german], "en"))
    group = {
        "de": BASE + "de/kontakt.html",
        "en": BASE + "about.html",
        "x-default": BASE + "about.html",
    }
    entries = check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.alternates for e in entries} == {
        BASE + "about.html": group,
        BASE + "de/kontakt.html": group,
    }


@pytest.mark.parametrize("base_url", [BASE, BASE + "de/", BASE + "de"])
def test_a_build_served_from_its_language_folder(tmp_path: Path, base_url: str) -> None:
    """A language build whose paths start with its folder (Sphinx's ``{lang}{link}``): the
    sitemap, its parts and its robots.txt line are under the folder, and its alternates into
    the sibling folders stay. A base URL that is already the folder's (a Sphinx build's own
    ``html_baseurl``) gives the same sitemap: the folder is not added twice."""
    pages: list[Page | LeftOut] = [
        Page(
            f"de/{name}",
            f"{name or 'index'}.rst",
            translations={"de": f"de/{name}", "en": f"en/{name}"},
            default_locale="en",
        )
        for name in ("", "guide/", "api/")
    ]
    pages.append(Page("en/stray/", "stray.rst"))  # not under the sitemap's folder
    out = tmp_path / "de"
    reporter = _build(
        out, pages, output_url_path="de/", urls_per_file=2, robots_txt=True, base_url=base_url
    )

    assert [w for _, w in reporter.warnings] == [
        "stray.rst: URL https://example.org/en/stray/ is outside https://example.org/de/, "
        "which a sitemap there may not list; left out"
    ]
    parts = [ref.loc for ref in read_index(out / "sitemap.xml")]
    assert len(parts) == 2
    assert all(loc.startswith(BASE + "de/sitemap-") for loc in parts)
    assert (out / "robots.txt").read_text() == f"Sitemap: {BASE}de/sitemap.xml\n"
    entries = check_sitemap_file(
        out / "sitemap.xml", BASE + "de/sitemap.xml", site_dir=out, base_url=BASE + "de/"
    )
    assert {e.loc: e.alternates["en"] for e in entries} == {
        BASE + f"de/{name}": BASE + f"en/{name}" for name in ("", "guide/", "api/")
    }
    assert all(e.alternates["x-default"] == e.alternates["en"] for e in entries)
    pages_read = parse_with_usp(out, "sitemap.xml", base_url=BASE + "de/")
    assert set(pages_read) == {e.loc for e in entries}


def test_an_article_of_a_language_build_is_news_in_that_language(tmp_path: Path) -> None:
    """Each language's build takes its own language as the default and names none for its
    articles; joined, a German build's article is German news, an English one the option's."""
    now = dt.datetime(2024, 6, 10, 12, 0, tzinfo=dt.timezone.utc)
    sites = [
        LanguageSite("en", "", (Page("hello.html", "hello.md", article=Article(now, "Hello")),)),
        LanguageSite(
            "de",
            "de/",
            (
                Page("hallo.html", "hallo.md", article=Article(now, "Hallo")),
                Page("hi.html", "hi.md", article=Article(now, "Hi", language="en")),
            ),
        ),
    ]
    joined = join_language_sites(sites, "en")
    reporter = CollectingReporter()
    news = {"name": "The Example", "language": "en"}
    options = Options.from_mapping({"base_url": BASE, "news": news})
    SitemapBuilder(options, reporter, clock=lambda: now).build(joined, tmp_path)
    assert reporter.warnings == []
    entries = check_sitemap_file(tmp_path / "sitemap-news.xml", BASE + "sitemap-news.xml")
    languages = {entry.loc: (entry.news or {}).get("language") for entry in entries}
    assert languages == {
        BASE + "hello.html": "en",
        BASE + "de/hallo.html": "de",
        BASE + "de/hi.html": "en",  # a language the build named stays
    }
