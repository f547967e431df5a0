"""The news sitemap: recent articles only, a set of its own, published as safely as the sitemap."""

from __future__ import annotations

import datetime as dt
import gzip
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_plugins.core import (
    Article,
    Code,
    CollectingReporter,
    OptionError,
    Options,
    Page,
    SitemapBuilder,
    Summary,
)
from tests.core.publish_site import BASE as SITE_BASE
from tests.core.publish_site import SPLIT, write, write_news
from tests.support.hosts import child_env
from tests.support.publishing import (
    RECORD,
    recorded_files,
    snapshot,
    temporary_files,
    whole_set_problems,
)
from tests.support.sitemap_checks import (
    check_sitemap_file,
    parse_with_usp,
    read_index,
    read_sitemap,
)

BASE = "https://example.org/blog/"
NOW = dt.datetime(2024, 6, 10, 12, 0, tzinfo=dt.timezone.utc)
NEWS = {"name": "The Example Times", "language": "en"}


def article(slug: str, published: object, title: object = None, **fields: object) -> Page:
    return Page(
        path=f"{slug}/",
        origin=f"content/{slug}.md",
        article=Article(published, slug.title() if title is None else title, **fields),  # type: ignore[arg-type]
    )


def build(
    out: Path, pages: list[Page], now: dt.datetime = NOW, **options: object
) -> tuple[Summary, CollectingReporter]:
    reporter = CollectingReporter()
    values = {"base_url": BASE, "news": NEWS, **options}
    builder = SitemapBuilder(Options.from_mapping(values), reporter, clock=lambda: now)
    return builder.build(pages, out), reporter


@pytest.mark.parametrize(
    ("published", "listed"),
    [
        (NOW - dt.timedelta(hours=1), True),
        (NOW - dt.timedelta(hours=47, minutes=59), True),
        (NOW - dt.timedelta(hours=48), False),
        (NOW - dt.timedelta(days=30), False),
        (NOW + dt.timedelta(minutes=5), True),  # a clock a little fast is still now
        (NOW + dt.timedelta(hours=1), False),  # not published yet
        ("2024-06-09T08:00:00-04:00", True),
        ("2024-06-08T12:30", True),  # a naive time, read in the site's zone (UTC here)
        ("2024-06-08T11:59", False),
        (dt.date(2024, 6, 9), True),
        (dt.date(2024, 6, 8), False),  # its start is 60 hours ago
    ],
)
def test_an_article_is_news_for_two_days_after_its_publication(
    tmp_path: Path, published: object, listed: bool
) -> None:
    pages = [article("fresh", published), article("anchor", NOW - dt.timedelta(hours=2))]
    summary, reporter = build(tmp_path, pages)
    assert reporter.warnings == []
    news = {e.loc for e in check_sitemap_file(tmp_path / "sitemap-news.xml", BASE + "x")}
    assert (BASE + "fresh/" in news) is listed
    assert summary.news == 1 + listed


def test_news_sitemap_beside_the_sitemap_valid_and_read_by_an_independent_parser(
    tmp_path: Path,
) -> None:
    pages = [
        article("b-recent", "2024-06-10T09:30:00+02:00", "Launch <em>today</em> &amp; more"),
        article("a-translated", dt.date(2024, 6, 9), "Lancement", language="pt_BR"),
        article("c-chinese", NOW - dt.timedelta(hours=3), "发布", language="zh_TW"),
        article("old", "2024-05-01"),
        Page(path="about/", origin="content/pages/about.md"),
    ]
    summary, reporter = build(tmp_path, pages, gzip="both", robots_txt=True)
    assert reporter.warnings == []
    main = {e.loc: e for e in check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")}
    assert set(main) == {BASE + p for p in ("a-translated/", "about/", "b-recent/", "c-chinese/",
                                            "old/")}  # fmt: skip
    assert all(entry.news is None for entry in main.values())
    assert "xmlns:news" not in (tmp_path / "sitemap.xml").read_text("utf-8")
    news = check_sitemap_file(tmp_path / "sitemap-news.xml", BASE + "sitemap-news.xml")
    assert [(e.loc, e.lastmod, e.news) for e in news] == [
        (
            BASE + "a-translated/",
            None,
            {
                "name": "The Example Times",
                "language": "pt",
                "publication_date": "2024-06-09",
                "title": "Lancement",
            },
        ),
        (
            BASE + "b-recent/",
            None,
            {
                "name": "The Example Times",
                "language": "en",
                "publication_date": "2024-06-10T09:30:00+02:00",
                "title": "Launch today & more",
            },
        ),
        (
            BASE + "c-chinese/",
            None,
            {
                "name": "The Example Times",
                "language": "zh-tw",
                "publication_date": "2024-06-10T09:00:00Z",
                "title": "发布",
            },
        ),
    ]
    zipped = tmp_path / "sitemap-news.xml.gz"
    assert gzip.decompress(zipped.read_bytes()) == (tmp_path / "sitemap-news.xml").read_bytes()
    robots = (tmp_path / "robots.txt").read_text("utf-8").splitlines()
    assert robots == [f"Sitemap: {BASE}sitemap.xml", f"Sitemap: {BASE}sitemap-news.xml"]
    read = parse_with_usp(tmp_path, "sitemap-news.xml", base_url=BASE)
    assert read[BASE + "b-recent/"].news == (
        "The Example Times",
        "en",
        dt.datetime(2024, 6, 10, 9, 30, tzinfo=dt.timezone(dt.timedelta(hours=2))),
        "Launch today & more",
    )
    assert summary.news == 3
    assert summary.news_url == BASE + "sitemap-news.xml"
    assert summary.files == (
        "sitemap.xml",
        "sitemap.xml.gz",
        "sitemap-news.xml",
        "sitemap-news.xml.gz",
    )
    assert summary.line().endswith("; news: 3 articles of the last two days")
    assert recorded_files(tmp_path) == set(summary.files)


def test_when_no_article_is_recent_any_more_the_news_sitemap_and_its_line_go(
    tmp_path: Path,
) -> None:
    (tmp_path / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n", "utf-8")
    pages = [article("post", NOW - dt.timedelta(hours=1))]
    build(tmp_path, pages, gzip="both", robots_txt=True)
    assert (tmp_path / "sitemap-news.xml").is_file()
    assert f"Sitemap: {BASE}sitemap-news.xml" in (tmp_path / "robots.txt").read_text("utf-8")

    summary, reporter = build(tmp_path, pages, NOW + dt.timedelta(days=3), gzip="both",
                              robots_txt=True)  # fmt: skip
    assert reporter.warnings == []
    assert not (tmp_path / "sitemap-news.xml").exists()
    assert not (tmp_path / "sitemap-news.xml.gz").exists()
    assert (tmp_path / "robots.txt").read_text("utf-8") == (
        f"User-agent: *\nDisallow: /private/\nSitemap: {BASE}sitemap.xml\n"
    )
    assert recorded_files(tmp_path) == {"sitemap.xml", "sitemap.xml.gz"}
    assert summary.news == 0
    assert summary.line().endswith("; news: no article of the last two days, no news sitemap")
    check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")


def test_without_the_news_option_the_news_sitemap_and_its_line_go(tmp_path: Path) -> None:
    """The option taken out of the configuration: the build no longer knows the news file's
    name, but the record knows the line an earlier build wrote for it."""
    (tmp_path / "robots.txt").write_text("User-agent: *\nDisallow: /private/\n", "utf-8")
    write_news(tmp_path, "A", robots_txt=True)
    assert (tmp_path / "sitemap-news.xml").is_file()
    line = f"Sitemap: {SITE_BASE}sitemap-news.xml"
    assert line in (tmp_path / "robots.txt").read_text("utf-8").splitlines()
    assert write(tmp_path, "A", robots_txt=True).warnings == []
    assert not (tmp_path / "sitemap-news.xml").exists()
    assert (tmp_path / "robots.txt").read_text("utf-8") == (
        f"User-agent: *\nDisallow: /private/\nSitemap: {SITE_BASE}sitemap.xml\n"
    )


def test_a_users_own_news_sitemap_is_never_removed_nor_its_line(tmp_path: Path) -> None:
    theirs = f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{BASE}x/'
    (tmp_path / "sitemap-news.xml").write_text(theirs + "</loc></url></urlset>\n", "utf-8")
    (tmp_path / "robots.txt").write_text(f"Sitemap: {BASE}sitemap-news.xml\n", "utf-8")
    build(tmp_path, [article("old", "2020-01-01")], robots_txt=True)
    assert (tmp_path / "sitemap-news.xml").read_text("utf-8").startswith(theirs)
    assert (tmp_path / "robots.txt").read_text("utf-8") == (
        f"Sitemap: {BASE}sitemap-news.xml\nSitemap: {BASE}sitemap.xml\n"
    )
    assert RECORD in {p.name for p in tmp_path.iterdir()}
    assert recorded_files(tmp_path) == {"sitemap.xml"}


def test_more_than_1000_recent_articles_split_into_an_index_of_their_own(tmp_path: Path) -> None:
    pages = [article(f"post-{n:04}", NOW - dt.timedelta(minutes=n)) for n in range(1_500)]
    summary, _ = build(tmp_path, pages)
    refs = read_index(tmp_path / "sitemap-news.xml")
    assert len(refs) == 2
    assert all(ref.loc.startswith(BASE + "sitemap-news-") for ref in refs)
    news = check_sitemap_file(tmp_path / "sitemap-news.xml", BASE + "sitemap-news.xml")
    assert len(news) == 1_500
    assert [len(read_sitemap(tmp_path / ref.loc[len(BASE) :])) for ref in refs] == [1_000, 500]
    main = check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    assert len(main) == 1_500  # the main sitemap stays one urlset
    assert summary.news == 1_500


@pytest.mark.parametrize(
    ("page", "message"),
    [
        (article("untitled", NOW, title="  "), "content/untitled.md: the article has no title"),
        (article("nodate", "last Tuesday"), "content/nodate.md: publication date 'last Tuesday'"),
    ],
)
def test_an_article_the_news_sitemap_cannot_use_is_named(
    tmp_path: Path, page: Page, message: str
) -> None:
    _, reporter = build(tmp_path, [page, article("ok", NOW)])
    [(code, warning)] = reporter.warnings
    assert code is Code.BAD_NEWS
    assert warning.startswith(message)
    assert warning.endswith("not in the news sitemap")
    assert [e.loc for e in read_sitemap(tmp_path / "sitemap-news.xml")] == [BASE + "ok/"]
    assert len(read_sitemap(tmp_path / "sitemap.xml")) == 2  # both pages stay in the sitemap


def test_without_the_option_articles_make_no_news_sitemap(tmp_path: Path) -> None:
    reporter = CollectingReporter()
    options = Options.from_mapping({"base_url": BASE})
    summary = SitemapBuilder(options, reporter, clock=lambda: NOW).build(
        [article("post", NOW)], tmp_path
    )
    assert not (tmp_path / "sitemap-news.xml").exists()
    assert summary.news is None
    assert "news" not in summary.line()


@pytest.mark.parametrize(
    "value",
    [
        {"name": "The Times"},
        {"name": "The Times", "language": "EN"},
        {"name": "The Times", "language": "english"},
        {"name": "", "language": "en"},
        {"name": "The Times", "language": "en", "genres": "Blog"},
        "The Times",
    ],
)
def test_a_bad_news_option_fails_naming_it(value: object) -> None:
    with pytest.raises(OptionError, match=r"^invalid value for option 'sitemap_news': ") as caught:
        Options.from_mapping({"news": value}, prefix="sitemap_")
    assert "a mapping with 'name'" in str(caught.value)


def test_the_sitemap_may_not_take_the_news_sitemaps_name() -> None:
    with pytest.raises(OptionError, match=r"option 'filename': 'sitemap-news\.xml'"):
        Options.from_mapping({"news": NEWS, "filename": "sitemap-news.xml"})
    assert Options.from_mapping({"filename": "sitemap-news.xml"}).news is None


NEWS_CHILD = """
import sys
from pathlib import Path
from tests.support.steps import install_from_environment
install_from_environment()
from tests.core.publish_site import BASE as SITE_BASE
from tests.core.publish_site import SPLIT, write_news
write_news(Path(sys.argv[2]), sys.argv[1], **SPLIT)
"""
ENTRY_POINTS = ["sitemap.xml", "sitemap.xml.gz", "sitemap-news.xml", "sitemap-news.xml.gz"]


def news_child(version: str, out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Publish ``version`` with its news sitemap into ``out`` in a child process."""
    return subprocess.run(
        [sys.executable, "-c", NEWS_CHILD, version, str(out)],
        env=child_env(env),
        capture_output=True,
        text=True,
        check=False,
    )


def test_a_kill_at_any_step_leaves_both_sets_whole_and_the_next_build_cleans_up(
    tmp_path: Path,
) -> None:
    """Both sets are split (two URLs a file, so the news sitemap is an index too); a reader
    finds each entry point whole and from one build after a kill anywhere."""
    reference = {}
    for version in ("A", "B"):
        folder = tmp_path / f"reference-{version}"
        write_news(folder, version, **SPLIT)
        reference[version] = {k: v for k, v in snapshot(folder).items() if k != RECORD}
    assert {"sitemap-news.xml", "sitemap-news.xml.gz"} <= set(reference["A"])
    assert len(read_index(tmp_path / "reference-A" / "sitemap-news.xml")) == 2
    counting = tmp_path / "count"
    write_news(counting, "A", **SPLIT)
    log = tmp_path / "steps.log"
    assert news_child("B", counting, SITEMAP_TEST_STEPS=str(log)).returncode == 0
    steps = log.read_text().splitlines()
    assert len(steps) > 30
    start = tmp_path / "start"
    write_news(start, "A", **SPLIT)
    for number, step in enumerate(steps, 1):
        out = tmp_path / f"kill-{number}"
        shutil.copytree(start, out)
        killed = news_child("B", out, SITEMAP_TEST_KILL_AT=str(number))
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        problems = whole_set_problems(out, ENTRY_POINTS, reference)
        assert problems == [], f"killed after {step!r}: {problems}"
        assert news_child("B", out).returncode == 0
        assert temporary_files(out) == [], f"killed after {step!r}"
        left = {k: v for k, v in snapshot(out).items() if k != RECORD}
        assert left == reference["B"], step
        check_sitemap_file(out / "sitemap-news.xml", SITE_BASE + "sitemap-news.xml")
        shutil.rmtree(out)
