"""Real Pelican builds in temporary git repositories, every sitemap checked and read back.

Most builds run the real ``pelican`` command line in a subprocess, as users do (see
:mod:`tests.pelican.helpers`). The autoreload test drives the Python API, because that is how
Pelican itself runs several builds in one process.
"""

from __future__ import annotations

import datetime as dt
import gzip
import importlib.util
import logging
import os
import shutil
import sys
import time
from pathlib import Path

import pytest

import sitemap_plugins.pelican
from tests.pelican.helpers import (
    BASE,
    PLAIN_SETTINGS,
    example_repo,
    log_of,
    page,
    plain_repo,
    post,
    sitemap,
    summary,
)
from tests.support.git_trace import GitTrace
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, pelican_build, run_python
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp, read_index

pytestmark = pytest.mark.pelican

# -- the example site -------------------------------------------------------------------------

EXAMPLE_PATHS = {
    "",
    "about/",
    "caf%C3%A9/",
    "guide/configure/",
    "guide/install/",
    "reference/options/",
    "blog/",
    "blog/page/2/",
    "first-post.html",
    "second-post.html",
    "second-post-fr.html",
    "salt-&-pepper.html",
    "cr%C3%A8me-br%C3%BBl%C3%A9e.html",
    "archives.html",
    "authors.html",
    "categories.html",
    "tags.html",
    "author/example-author.html",
    "author/example-author/page/2/",
    "category/news.html",
    "category/recipes.html",
    "tag/cooking.html",
    "tag/python.html",
    "tag/sitemaps.html",
}


def test_example_site_lists_every_published_url_once(git_repo: GitRepo) -> None:
    site = example_repo(git_repo)
    proc = pelican_build(site, "-v")
    entries = sitemap(site)
    assert set(entries) == EXAMPLE_PATHS
    # One summary line. Left out: internal (sitemap exclude), 404, the hidden page, the draft.
    read = summary(proc)
    assert (read.urls, read.files) == (len(EXAMPLE_PATHS), "sitemap.xml")
    assert sum(read.left_out.values()) == 4, read.left_out


def test_example_site_lastmod_metadata_then_date_then_git(git_repo: GitRepo) -> None:
    site = example_repo(git_repo)
    pelican_build(site)
    entries = sitemap(site)
    assert entries["about/"].lastmod == "2024-05-01"  # sitemap.lastmod metadata
    assert entries["guide/install/"].lastmod == "2024-02-11T09:00:00Z"  # git
    assert entries["caf%C3%A9/"].lastmod == "2024-06-14T09:00:00Z"  # git, non-ASCII file name
    assert entries[""].lastmod == "2024-01-10T09:00:00Z"
    assert entries["first-post.html"].lastmod == "2024-01-10T09:00:00+01:00"  # Date, not git
    assert entries["second-post.html"].lastmod == "2024-03-01T23:30:00+01:00"  # Modified wins
    # Listings are as new as the newest article they list, never the build date.
    assert entries["blog/"].lastmod == "2024-04-02T18:00:00+02:00"
    assert entries["tag/python.html"].lastmod == "2024-01-10T09:00:00+01:00"
    assert entries["tag/sitemaps.html"].lastmod == "2024-03-01T23:30:00+01:00"
    assert entries["blog/page/2/"].lastmod == "2024-03-01T23:30:00+01:00"  # 2nd and 1st posts


def test_example_site_metadata_and_translations(git_repo: GitRepo) -> None:
    site = example_repo(git_repo)
    pelican_build(site)
    entries = sitemap(site)
    install = entries["guide/install/"]
    assert (install.priority, install.changefreq) == ("0.8", "monthly")
    assert install.images == (BASE + "images/where-it-goes.svg",)  # the example's one image
    assert (site / "output" / "images" / "where-it-goes.svg").is_file()
    assert entries["reference/options/"].changefreq == "weekly"
    assert entries["guide/configure/"].priority is None  # nothing configured: nothing written
    group = {
        "en": BASE + "second-post.html",
        "fr": BASE + "second-post-fr.html",
        "x-default": BASE + "second-post.html",
    }
    assert entries["second-post.html"].alternates == group
    assert entries["second-post-fr.html"].alternates == group
    assert entries["first-post.html"].alternates == {}


def test_example_site_read_back_by_an_independent_parser(git_repo: GitRepo) -> None:
    site = example_repo(git_repo)
    pelican_build(site)
    pages = parse_with_usp(site / "output", "sitemap.xml", base_url=BASE)
    assert set(pages) == {BASE + path for path in EXAMPLE_PATHS}
    assert BASE + "salt-&-pepper.html" in pages  # a raw "&" would not be XML at all


def test_relative_urls_keep_absolute_locs(git_repo: GitRepo) -> None:
    site = example_repo(git_repo)
    pelican_build(site)
    absolute = (site / "output" / "sitemap.xml").read_bytes()
    shutil.rmtree(site / "output")
    pelican_build(site, "--relative-urls")
    assert (site / "output" / "sitemap.xml").read_bytes() == absolute
    sitemap(site)


# -- URLs as Pelican serves them ----------------------------------------------------------------


# Another plugin's generator writing a page of its own, as many Pelican plugins do.
OTHER_PLUGIN = """\
from pelican import signals
from pelican.generators import Generator


class ExtraGenerator(Generator):
    def generate_output(self, writer):
        template = self.env.from_string("<html><body>extra</body></html>")
        writer.write_file("extra/index.html", template, self.context)


def register():
    signals.get_generators.connect(lambda pelican: ExtraGenerator, weak=False)
"""


def test_custom_urls_save_as_metadata_pagination_and_archives(git_repo: GitRepo) -> None:
    files = {
        f"content/post-{n}.md": post(
            f"Post {n}", f"2024-0{n}-01", tags="alpha" if n < 4 else "beta"
        )
        for n in range(1, 6)
    }
    files["content/pages/contact.md"] = page("Contact", Save_as="contact.html", URL="contact")
    files["content/pages/team.md"] = page("Team")
    files["content/tpl/landing.html"] = "<html><body>{{ SITENAME }} landing</body></html>\n"
    files["plugins/extra.py"] = OTHER_PLUGIN
    site = plain_repo(
        git_repo,
        files,
        """
        ARTICLE_URL = "posts/{slug}/"
        ARTICLE_SAVE_AS = "posts/{slug}/index.html"
        PAGE_URL = "{slug}/"
        PAGE_SAVE_AS = "{slug}/index.html"
        TAG_URL = "topics/{slug}"
        TAG_SAVE_AS = "topics/{slug}.html"
        CATEGORY_SAVE_AS = ""
        CATEGORIES_SAVE_AS = ""
        AUTHORS_SAVE_AS = ""
        ARCHIVES_URL = "archive/"
        ARCHIVES_SAVE_AS = "archive/index.html"
        YEAR_ARCHIVE_URL = "{date:%Y}/"
        YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
        MONTH_ARCHIVE_URL = "{date:%Y}/{date:%m}"
        MONTH_ARCHIVE_SAVE_AS = "{date:%Y}/{date:%m}.html"
        ARTICLE_EXCLUDES = ["pages", "tpl"]
        TEMPLATE_PAGES = {"tpl/landing.html": "landing/index.html"}
        PLUGIN_PATHS = ["plugins"]
        PLUGINS = ["extra", "sitemap_plugins.pelican"]
        DEFAULT_PAGINATION = 2
        """,
    )
    pelican_build(site)
    entries = sitemap(site)
    assert set(entries) == {
        "",  # index.html, page 1 of the paginated index
        "index2.html",  # Pelican's default PAGINATION_PATTERNS
        "index3.html",
        *(f"posts/post-{n}/" for n in range(1, 6)),
        "contact",  # url metadata, saved as contact.html
        "team/",
        "topics/alpha",  # TAG_URL, not where TAG_SAVE_AS wrote it
        "topics/alpha2.html",
        "topics/beta",
        "tags.html",
        "archive/",
        "2024/",
        *(f"2024/0{n}" for n in range(1, 6)),  # MONTH_ARCHIVE_URL, served without .html
        "landing/",  # TEMPLATE_PAGES
        "extra/",  # written by another plugin's generator
        "author/author.html",
        "author/author2.html",
        "author/author3.html",
    }
    assert entries["2024/"].lastmod == "2024-05-01T00:00:00Z"
    assert entries["2024/03"].lastmod == "2024-03-01T00:00:00Z"  # only that month's post
    assert entries["topics/beta"].lastmod == "2024-05-01T00:00:00Z"
    assert entries["topics/alpha"].lastmod == "2024-03-01T00:00:00Z"
    assert entries["landing/"].lastmod == "2024-05-05T12:00:00Z"  # the template's own commit
    assert entries["extra/"].lastmod is None  # nothing tells what it shows: no date is made up


def test_pagination_url_patterns_and_index_url(git_repo: GitRepo) -> None:
    files = {f"content/p{n}.md": post(f"P{n}", f"2024-01-0{n}") for n in range(1, 6)}
    site = plain_repo(
        git_repo,
        files,
        """
        DEFAULT_PAGINATION = 2
        INDEX_SAVE_AS = "news/index.html"
        INDEX_URL = "news/"
        PAGINATION_PATTERNS = (
            (1, "{url}", "{save_as}"),
            (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"),
        )
        """,
    )
    pelican_build(site)
    entries = sitemap(site)
    assert {"news/", "news/page/2/", "news/page/3/"} <= set(entries)
    assert not any("index" in path for path in entries)
    assert entries["news/"].lastmod == "2024-01-05T00:00:00Z"  # its newest post
    assert entries["news/page/3/"].lastmod == "2024-01-01T00:00:00Z"  # only the oldest there


# -- lastmod --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("style", "late", "about"),
    [
        ("datetime", "2024-03-01T00:30:00+01:00", "2024-07-02T01:15:00+02:00"),
        # The author's day stays Paris's; the commit's instant is 2024-07-01T23:15Z.
        ("date", "2024-03-01", "2024-07-01"),
    ],
)
def test_lastmod_honours_timezone_and_git_for_pages(
    git_repo: GitRepo, style: str, late: str, about: str
) -> None:
    files = {
        # 00:30 in Paris is still the previous day in UTC: the day must be Paris's.
        "content/late.md": post("Late", "2024-02-20 10:00", Modified="2024-03-01 00:30"),
        "content/pages/about.md": page("About"),
    }
    site = plain_repo(
        git_repo,
        files,
        f'TIMEZONE = "Europe/Paris"\nSITEMAP = {{"lastmod_format": "{style}"}}\n',
        date="2024-06-01T08:00:00+02:00",
    )
    git_repo.write("content/pages/about.md", page("About", Summary="changed"))
    git_repo.commit("edit about", "2024-07-02T01:15:00+02:00")
    pelican_build(site)
    entries = sitemap(site)
    assert entries["late.html"].lastmod == late
    assert entries["pages/about.html"].lastmod == about
    assert entries[""].lastmod == late


def test_commits_in_the_ignore_revs_file_date_no_page(git_repo: GitRepo) -> None:
    """``git_ignore_commits_file``, relative to the project's folder: a page is dated by its
    last change before the reformat; one the reformat created has no lastmod, said once."""
    site = plain_repo(
        git_repo,
        {"content/pages/about.md": page("About")},
        'SITEMAP = {"git_ignore_commits_file": ".git-blame-ignore-revs"}\n',
        date="2024-06-01T08:00:00+00:00",
    )
    git_repo.write(".git-blame-ignore-revs", "")
    git_repo.commit("no commit ignored yet", "2024-06-02T08:00:00+00:00")
    git_repo.write("content/pages/about.md", page("About") + "\n")
    git_repo.write("content/pages/made.md", page("Made"))
    git_repo.commit("reformat", "2024-07-01T08:00:00+00:00")
    pelican_build(site)
    entries = sitemap(site)
    assert entries["pages/about.html"].lastmod == "2024-07-01T08:00:00Z"
    git_repo.write(".git-blame-ignore-revs", f"# reformat\n{git_repo.head()[:10]}\n")
    git_repo.commit("ignore the reformat", "2024-08-01T08:00:00+00:00")
    done = pelican_build(site, "-v")  # info lines shown
    entries = sitemap(site)
    assert entries["pages/about.html"].lastmod == "2024-06-01T08:00:00Z"
    assert entries["pages/made.html"].lastmod is None
    assert "1 page has no lastmod: every commit that changed their sources" in log_of(done)


def test_uncommitted_page_takes_its_mtime(git_repo: GitRepo) -> None:
    site = plain_repo(git_repo, {"content/pages/a.md": page("A")}, date="2020-01-01T00:00:00Z")
    edited = git_repo.write("content/pages/a.md", page("A", Summary="edited"))
    os.utime(edited, (1_700_000_000, 1_700_000_000))  # 2023-11-14 UTC
    pelican_build(site)
    assert sitemap(site)["pages/a.html"].lastmod == "2023-11-14T22:13:20Z"


GENERATOR_PLUGIN = """\
import pathlib
import time

from pelican import signals

TEXT = "Title: Generated\\nCategory: News\\n\\nWritten by a plugin.\\n"


def write(pelican):
    article = pathlib.Path(pelican.settings["PATH"], "generated.md")
    if not article.is_file() or article.read_text() != TEXT:  # else left as it is
        article.write_text(TEXT)
    time.sleep(0.2)  # the rest of its start-up work


def register():
    signals.initialized.connect(write)
"""
"""A plugin that writes an article into the content folder when Pelican starts (listed before
the sitemap, so it hears ``initialized`` first): anew when its text changes."""
GENERATED_SETTINGS = """\
PLUGIN_PATHS = ["plugins"]
PLUGINS = ["generator", "sitemap_plugins.pelican"]
DEFAULT_DATE = "fs"
"""
"""The generated article has no ``Date``: Pelican dates it by its file time, which is not the
author's, so it is dated as any article without a date."""


def test_a_deleted_article_moves_the_listings_that_showed_it_forward(git_repo: GitRepo) -> None:
    """Deleting the newest article changes the index, the archives, its category and tag: they
    are as new as that commit, not as the article now newest, which would date them back. A
    build from Pelican's content cache gives what a clean build gives."""
    settings = "CACHE_CONTENT = True\nLOAD_CONTENT_CACHE = True\n"
    site = plain_repo(
        git_repo,
        {"content/a.md": post("A", "2024-01-05"), "content/b.md": post("B", "2024-02-05")},
        settings,
        date="2024-02-05T12:00:00+00:00",
    )
    listings = ("", "archives.html", "category/news.html", "tag/misc.html", "author/author.html")
    pelican_build(site)
    before = sitemap(site)
    assert {path: before[path].lastmod for path in listings} == dict.fromkeys(
        listings, "2024-02-05T00:00:00Z"
    )
    git_repo.remove("content/b.md")
    git_repo.commit("unpublish b", "2024-07-01T12:00:00+00:00")
    pelican_build(site)  # from the content cache
    cached = {path: entry.lastmod for path, entry in sitemap(site).items()}
    assert {path: cached[path] for path in listings} == dict.fromkeys(
        listings, "2024-07-01T12:00:00Z"
    )
    assert cached["a.html"] == "2024-01-05T00:00:00Z"  # the article keeps its own date
    for folder in ("output", "cache"):
        shutil.rmtree(site / folder)
    pelican_build(site)
    assert {path: entry.lastmod for path, entry in sitemap(site).items()} == cached


def test_an_article_a_plugin_writes_at_start_up_has_no_lastmod(git_repo: GitRepo) -> None:
    """Untracked, the generated article's file time is the build's: no lastmod, this build or
    the next one that finds it as the plugin left it, and one info line saying why. A page
    edited before the build, not committed, keeps its file time."""
    files = {"plugins/generator.py": GENERATOR_PLUGIN, "content/pages/about.md": page("About")}
    site = plain_repo(git_repo, files, GENERATED_SETTINGS, date="2024-01-10T09:00:00Z")
    edited = git_repo.write("content/pages/about.md", page("About", Summary="edited"))
    edited_at = dt.datetime.fromtimestamp(int(edited.stat().st_mtime), dt.timezone.utc)
    for run in ("first build", "next build"):
        proc = pelican_build(site, "-v")  # info lines shown
        assert "?? content/generated.md" in git_repo.git("status", "--short"), run
        entries = sitemap(site)
        assert entries["generated.html"].lastmod is None, run
        assert entries["pages/about.html"].lastmod == edited_at.strftime("%Y-%m-%dT%H:%M:%SZ")
        log = log_of(proc)
        assert log.count("by the build itself") == 1, log
        assert "sitemap: 1 page has no lastmod" in log, log
        assert "WARNING" not in log, log
    git_repo.commit("keep the article", "2024-02-01T00:00:00Z", "content/generated.md")
    pelican_build(site)
    assert sitemap(site)["generated.html"].lastmod == "2024-02-01T00:00:00Z"


def test_autoreload_runs_each_begin_with_themselves(git_repo: GitRepo) -> None:
    """``pelican --autoreload``: the plugin writes its article once, when Pelican starts, and
    the next run still gives it no date; a page edited between the runs is dated by its file
    time in the next one, which began after it (not when Pelican started)."""
    from pelican import Pelican
    from pelican.settings import read_settings

    files = {"plugins/generator.py": GENERATOR_PLUGIN, "content/pages/about.md": page("About")}
    site = plain_repo(git_repo, files, GENERATED_SETTINGS, date="2024-01-10T09:00:00Z")
    settings = read_settings(
        str(site / "pelicanconf.py"),
        override={
            "PATH": str(site / "content"),
            "OUTPUT_PATH": str(site / "output"),
            "PLUGIN_PATHS": [str(site / "plugins")],
        },
    )
    instance = Pelican(settings)
    instance.run()
    assert sitemap(site)["generated.html"].lastmod is None
    assert sitemap(site)["pages/about.html"].lastmod == "2024-01-10T09:00:00Z"
    edited = git_repo.write("content/pages/about.md", page("About", Summary="edited"))
    time.sleep(0.1)  # saved before the next run begins, as the watcher sees it
    instance.run()
    entries = sitemap(site)
    assert entries["generated.html"].lastmod is None
    edited_at = dt.datetime.fromtimestamp(int(edited.stat().st_mtime), dt.timezone.utc)
    assert entries["pages/about.html"].lastmod == edited_at.strftime("%Y-%m-%dT%H:%M:%SZ")


# -- left out ------------------------------------------------------------------------------------


def test_drafts_hidden_private_noindex_redirects_and_404_are_left_out(git_repo: GitRepo) -> None:
    files = {
        "content/kept.md": post("Kept", "2024-01-01"),
        "content/draft.md": post("Draft", "2024-01-02", Status="draft"),
        "content/hidden.md": post("Hidden", "2024-01-03", Status="hidden"),
        "content/private.md": post("Private", "2024-01-04", Private="True"),
        "content/off.md": post("Off", "2024-01-05", Sitemap="false"),
        "content/pages/404.md": page("Not found", Status="hidden", Save_as="404.html"),
        "content/pages/notfound.md": page("Missing", Save_as="404/index.html", URL="404/"),
        "content/tpl/quiet.html": '<html><head><meta name="robots" content="noindex,follow">'
        "</head><body>quiet</body></html>\n",
        "content/tpl/moved.html": '<html><head><meta http-equiv="refresh" '
        'content="0; url=/kept.html"></head></html>\n',
        "content/tpl/feed.json": '{"items": []}\n',
    }
    site = plain_repo(
        git_repo,
        files,
        """
        ARTICLE_EXCLUDES = ["pages", "tpl"]
        TEMPLATE_PAGES = {
            "tpl/quiet.html": "quiet.html",
            "tpl/moved.html": "moved.html",
            "tpl/feed.json": "feed.json",
        }
        """,
    )
    proc = pelican_build(site, "-v")
    paths = set(sitemap(site))
    assert "kept.html" in paths
    assert not paths & {
        "draft.html",
        "drafts/draft.html",
        "hidden.html",
        "private.html",
        "off.html",
        "404.html",
        "404/",
        "quiet.html",
        "moved.html",
        "feed.json",
    }
    # Each file left out is counted under its reason in our summary line (Pelican's own log
    # names drafts and hidden pages too, so the log as a whole proves nothing).
    read = summary(proc)
    assert read.urls == len(paths)
    assert read.left_out == {
        "draft": 1,
        "hidden": 1,
        "private": 1,
        "noindex": 1,
        "redirect stub": 1,
        "404 page": 2,
        "not a page": 1,
        "excluded by metadata": 1,
    }


SEARCH_TEMPLATE = """\
{% extends "base.html" %}
{% block content %}
<form action="{{ SITEURL }}/search.html"><input name="q"></form>
<div id="tipue_search_content"></div>
{% endblock %}
"""


@pytest.mark.parametrize(
    ("settings", "written"),
    [
        ("", ["search.html"]),
        (
            # Saved elsewhere, and paginated: every page of it is the search page.
            'SEARCH_SAVE_AS = "find/index.html"\n'
            'SEARCH_URL = "find/"\n'
            'PAGINATED_TEMPLATES = {"index": None, "tag": None, "category": None,'
            ' "author": None, "search": 1}\n',
            ["find/index.html", "find/index2.html"],
        ),
    ],
)
def test_a_themes_search_page_is_left_out(
    git_repo: GitRepo, settings: str, written: list[str]
) -> None:
    """``DIRECT_TEMPLATES`` with ``search`` and a ``search.html`` template, as Tipue Search and
    the Flex theme set it up: a form with no content of its own, left out as Sphinx's search
    page is, and counted; the other direct templates stay listed."""
    files = {
        "content/a.md": post("A", "2024-01-01"),
        "content/b.md": post("B", "2024-01-02"),
        "templates/search.html": SEARCH_TEMPLATE,
    }
    site = plain_repo(
        git_repo,
        files,
        'THEME_TEMPLATES_OVERRIDES = ["templates"]\n'
        'DIRECT_TEMPLATES = ["index", "tags", "archives", "search"]\n' + settings,
    )
    proc = pelican_build(site, "-v")
    assert all((site / "output" / rel).is_file() for rel in written)
    paths = set(sitemap(site))
    assert {"", "a.html", "b.html", "tags.html", "archives.html"} <= paths
    assert not {path for path in paths if path.startswith(("search", "find"))}
    read = summary(proc)
    assert read.urls == len(paths)
    assert read.left_out == {"search page": len(written)}


# -- pelican-sitemap's settings ------------------------------------------------------------------


LEGACY_SETTINGS = """
SITEMAP = {
    "format": "xml",
    "priorities": {"articles": 0.7, "indexes": 0.3, "pages": 0.6},
    "changefreqs": {"articles": "weekly", "indexes": "daily", "pages": "yearly"},
    "exclude": ["^/noindex/", "/tag/", r"\\.json$", "^secret"],
}
PAGE_URL = "{slug}/"
PAGE_SAVE_AS = "{slug}/index.html"
"""


def test_pelican_sitemap_setting_used_unchanged(git_repo: GitRepo) -> None:
    files = {
        "content/a.md": post("A", "2024-01-01", tags="x"),
        "content/b.md": post("B", "2024-01-02", Priority="0.9", ChangeFreq="hourly"),
        "content/pages/about.md": page("About"),
        "content/pages/noindex.md": page("Hidden away", Slug="noindex/inner"),
        "content/pages/secret.md": page("Secret", Slug="secret-plans"),
    }
    site = plain_repo(git_repo, files, LEGACY_SETTINGS)
    pelican_build(site)
    entries = sitemap(site)
    assert not any(path.startswith(("tag/", "noindex/", "secret")) for path in entries)
    assert (entries["a.html"].priority, entries["a.html"].changefreq) == ("0.7", "weekly")
    assert (entries["b.html"].priority, entries["b.html"].changefreq) == ("0.9", "hourly")
    assert (entries["about/"].priority, entries["about/"].changefreq) == ("0.6", "yearly")
    assert (entries["archives.html"].priority, entries["archives.html"].changefreq) == (
        "0.3",
        "daily",
    )


def test_pelican_sitemap_bad_per_item_value_keeps_its_kinds_value(git_repo: GitRepo) -> None:
    """pelican-sitemap logged a bad ``Priority`` or ``ChangeFreq`` and wrote the kind's value
    instead, each field on its own: so do we, with a warning that strict mode counts."""
    files = {
        "content/a.md": post("A", "2024-01-01", Priority="high", ChangeFreq="Weekly"),
        "content/b.md": post("B", "2024-01-02", Priority="0.9", ChangeFreq="sometimes"),
    }
    site = plain_repo(git_repo, files, LEGACY_SETTINGS)
    log = log_of(pelican_build(site))
    assert "content/a.md: priority 'high' is not allowed" in log
    assert "content/a.md: changefreq 'Weekly' is not allowed" in log
    assert "content/b.md: changefreq 'sometimes' is not allowed" in log
    entries = sitemap(site)
    assert (entries["a.html"].priority, entries["a.html"].changefreq) == ("0.7", "weekly")
    assert (entries["b.html"].priority, entries["b.html"].changefreq) == ("0.9", "weekly")

    git_repo.write(
        "pelicanconf.py", PLAIN_SETTINGS + LEGACY_SETTINGS + 'SITEMAP["strict"] = True\n'
    )
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    assert "3 warning(s) and SITEMAP['strict'] is on" in log_of(proc)


def test_a_bad_per_item_value_the_sitemap_mapping_overrides_is_not_reported(
    git_repo: GitRepo,
) -> None:
    """The page's ``sitemap`` mapping wins over its ``Priority``: a bad ``Priority`` that is not
    used is no warning, so strict mode does not fail a build whose sitemap is right."""
    files = {
        "content/a.md": post("A", "2024-01-01", Priority="high", Sitemap='{"priority": 0.8}'),
    }
    site = plain_repo(git_repo, files, LEGACY_SETTINGS + 'SITEMAP["strict"] = True\n')
    log = log_of(pelican_build(site))
    assert "'high'" not in log
    assert sitemap(site)["a.html"].priority == "0.8"


def test_pelican_sitemap_txt_format(git_repo: GitRepo) -> None:
    files = {"content/a.md": post("Salt & pepper", "2024-01-01", Slug="salt-&-pepper")}
    site = plain_repo(git_repo, files, 'SITEMAP = {"format": "txt"}\n')
    pelican_build(site)
    assert not (site / "output" / "sitemap.xml").exists()
    assert set(sitemap(site, "sitemap.txt")) >= {"", "salt-&-pepper.html", "tags.html"}


def test_incumbent_plugin_loaded_too_is_reported(git_repo: GitRepo) -> None:
    # A stand-in named like pelican-sitemap's legacy module, loaded from PLUGIN_PATHS.
    files = {
        "content/a.md": post("A", "2024-01-01"),
        "plugins/sitemap.py": "def register():\n    pass\n",
    }
    site = plain_repo(
        git_repo,
        files,
        'PLUGIN_PATHS = ["plugins"]\nPLUGINS = ["sitemap", "sitemap_plugins.pelican"]\n',
    )
    proc = pelican_build(site)
    # Named as the settings file writes it, which a search of the file finds.
    assert "pelican-sitemap is active too ('sitemap' in PLUGINS)" in log_of(proc)


# -- options, warnings, strict --------------------------------------------------------------------


def test_core_options_split_and_gzip(git_repo: GitRepo) -> None:
    files = {f"content/p{n}.md": post(f"P{n}", f"2024-01-0{n}") for n in range(1, 8)}
    site = plain_repo(git_repo, files, 'SITEMAP = {"urls_per_file": 5, "gzip": "both"}\n')
    pelican_build(site)
    out = site / "output"
    entries = check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml")
    assert len(entries) > 5
    shards = [ref.loc.removeprefix(BASE) for ref in read_index(out / "sitemap.xml")]
    assert len(shards) == -(-len(entries) // 5)
    assert all((out / name).is_file() and (out / f"{name}.gz").is_file() for name in shards)
    assert (
        gzip.decompress((out / "sitemap.xml.gz").read_bytes()) == (out / "sitemap.xml").read_bytes()
    )


def test_bad_metadata_warns_names_file_and_keeps_the_page(git_repo: GitRepo) -> None:
    files = {
        "content/a.md": post("A", "2024-01-01", Priority="high"),
        "content/b.md": post("B", "2024-01-02", Sitemap='{"changefreq": "sometimes"}'),
    }
    site = plain_repo(git_repo, files)
    proc = pelican_build(site)
    log = log_of(proc)
    assert "content/a.md: priority 'high'" in log
    assert "content/b.md" in log
    assert "'sometimes'" in log
    entries = sitemap(site)
    assert {"a.html", "b.html"} <= set(entries)
    assert entries["b.html"].changefreq is None


def test_strict_option_and_fatal_warnings_fail_the_build(git_repo: GitRepo) -> None:
    site = plain_repo(git_repo, {"content/a.md": post("A", "2024-01-01")})
    assert pelican_build(site, "--fatal", "warnings", check=False).returncode == 0
    git_repo.write("content/a.md", post("A", "2024-01-01", ChangeFreq="Weekly"))
    assert pelican_build(site, check=False).returncode == 0
    assert pelican_build(site, "--fatal", "warnings", check=False).returncode != 0
    git_repo.write("pelicanconf.py", PLAIN_SETTINGS + 'SITEMAP = {"strict": True}\n')
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    assert "SITEMAP['strict'] is on; no sitemap written" in log_of(proc)


@pytest.mark.parametrize(
    ("setting", "line"),
    [
        (
            'SITEMAP = {"gzip": 2}',
            """invalid value for option "SITEMAP['gzip']": 2 (allowed: one of off, on, both)""",
        ),
        (
            'SITEMAP = ["gzip"]',
            "invalid value for option 'SITEMAP': ['gzip'] (allowed: a dict of sitemap options)",
        ),
        (  # a glob, as the other hosts' exclude takes: here pelican-sitemap's regexes
            'SITEMAP = {"exclude": ["*.html"]}',
            """invalid value for option "SITEMAP['exclude']": '*.html' (allowed: a list of """
            "regular expressions, searched in each URL path, as pelican-sitemap reads them; "
            'globs go in rules: {"pattern": "drafts/*", "exclude": True} '
            "(nothing to repeat at position 0))",
        ),
    ],
)
def test_invalid_option_fails_at_config_time_in_one_line(
    git_repo: GitRepo, setting: str, line: str
) -> None:
    """One line that names the option, as any Pelican shows a bad setting: Pelican 4.12 logs
    the exception that ends a build with its traceback, which a bad value is not worth."""
    site = plain_repo(git_repo, {"content/a.md": post("A", "2024-01-01")}, setting + "\n")
    proc = pelican_build(site, check=False)
    assert proc.returncode == 1
    assert "Traceback" not in output(proc)
    assert f"CRITICAL OptionError: {line}" in log_of(proc)
    assert not (site / "output" / "sitemap.xml").exists()


def test_a_crash_elsewhere_keeps_the_traceback_pelican_gives_it(git_repo: GitRepo) -> None:
    """Only our own one-line errors lose their traceback: another plugin's crash is shown as
    Pelican shows it without us (with its traceback from Pelican 4.12)."""
    crash = (
        "from pelican import signals\n\n"
        "def crash(pelican):\n    raise ValueError('a bug in another plugin')\n\n"
        "def register():\n    signals.initialized.connect(crash)\n"
    )
    site = plain_repo(git_repo, {"content/a.md": post("A", "2024-01-01"), "crash.py": crash})
    shown = {}
    for plugins in (["crash"], ["sitemap_plugins.pelican", "crash"]):
        settings = f"PLUGINS = {plugins!r}\nPLUGIN_PATHS = ['.']\n"
        git_repo.write("pelicanconf.py", PLAIN_SETTINGS + settings)
        proc = pelican_build(site, check=False)
        assert proc.returncode == 1
        assert "CRITICAL ValueError: a bug in another plugin" in log_of(proc)
        shown[plugins[0]] = "Traceback" in output(proc)
    assert shown["sitemap_plugins.pelican"] == shown["crash"]


@pytest.mark.parametrize("siteurl", ["", "/blog", "example.org"])
def test_missing_or_relative_siteurl_warns_and_writes_nothing(
    git_repo: GitRepo, siteurl: str
) -> None:
    site = plain_repo(
        git_repo, {"content/a.md": post("A", "2024-01-01")}, f"SITEURL = {siteurl!r}\n"
    )
    proc = pelican_build(site)
    assert "no sitemap written" in log_of(proc)
    assert "SITEURL" in log_of(proc)
    assert not (site / "output" / "sitemap.xml").exists()


# -- several builds in one process (pelican --autoreload) ------------------------------------------


def test_autoreload_builds_start_from_scratch(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from pelican import Pelican
    from pelican.settings import read_settings

    files = {"content/a.md": post("A", "2024-01-01"), "content/b.md": post("B", "2024-01-02")}
    site = plain_repo(git_repo, files)
    settings = read_settings(
        str(site / "pelicanconf.py"),
        override={"PATH": str(site / "content"), "OUTPUT_PATH": str(site / "output")},
    )
    instance = Pelican(settings)
    # A second copy of the module, as a plugin loader that imports it again would make: both
    # copies' handlers run, and the build must still be made once.
    spec = importlib.util.spec_from_file_location(
        "sitemap_plugins._pelican_again", sitemap_plugins.pelican.__file__
    )
    assert spec is not None
    assert spec.loader is not None
    again = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, again)  # as Pelican's own plugin loader does
    spec.loader.exec_module(again)
    again.register()
    caplog.set_level(logging.INFO)
    instance.run()
    assert {"a.html", "b.html"} <= set(sitemap(site))
    (site / "content" / "b.md").unlink()
    (site / "output" / "b.html").unlink()
    instance.run()
    paths = set(sitemap(site))
    assert "a.html" in paths
    assert "b.html" not in paths
    summaries = [r.getMessage() for r in caplog.records if " URLs in " in r.getMessage()]
    assert len(summaries) == 2  # one per build
    assert summaries[0] != summaries[1]


def test_page_translations_get_bcp47_hreflang_and_x_default(git_repo: GitRepo) -> None:
    files = {
        "content/pages/about.md": page("About", Slug="about", Lang="en"),
        "content/pages/about-pt.md": page("Sobre", Slug="about", Lang="pt_BR"),
        "content/pages/about-de.md": page("Über", Slug="about", Lang="de", Status="hidden"),
    }
    site = plain_repo(git_repo, files)
    pelican_build(site)
    entries = sitemap(site)
    group = {
        "en": BASE + "pages/about.html",
        "pt-BR": BASE + "pages/about-pt_BR.html",
        "x-default": BASE + "pages/about.html",
    }
    assert entries["pages/about.html"].alternates == group
    assert entries["pages/about-pt_BR.html"].alternates == group
    assert "pages/about-de.html" not in entries


def test_translations_the_sitemap_leaves_out_are_no_alternates(git_repo: GitRepo) -> None:
    """Alternates name each other back from indexable URLs: a private translation, or one with
    ``Sitemap: false``, is left out of the sitemap and named by no other version."""
    files = {
        "content/fish.md": post("Fish", "2024-01-01", Slug="fish", Lang="en"),
        "content/fish-it.md": post("Pesce", "2024-01-01", Slug="fish", Lang="it"),
        "content/fish-fr.md": post("Poisson", "2024-01-01", Slug="fish", Lang="fr", Private="True"),
        "content/fish-de.md": post("Fisch", "2024-01-01", Slug="fish", Lang="de", Sitemap="false"),
        "content/cat.md": post("Cat", "2024-01-01", Slug="cat", Lang="en"),
        "content/cat-de.md": post("Katze", "2024-01-01", Slug="cat", Lang="de", Private="True"),
    }
    site = plain_repo(git_repo, files)
    pelican_build(site)
    assert (site / "output/fish-fr.html").exists()  # served, though not listed
    assert (site / "output/fish-de.html").exists()
    entries = sitemap(site)
    assert not {"fish-fr.html", "fish-de.html"} & set(entries)
    group = {"en": BASE + "fish.html", "it": BASE + "fish-it.html", "x-default": BASE + "fish.html"}
    assert entries["fish.html"].alternates == entries["fish-it.html"].alternates == group
    assert entries["cat.html"].alternates == {}  # only itself left
    assert "cat-de.html" not in entries


def test_translations_pelican_does_not_write_are_no_alternates(git_repo: GitRepo) -> None:
    """``ARTICLE_LANG_SAVE_AS = ""`` and ``PAGE_LANG_SAVE_AS = ""`` are Pelican's way of not
    publishing translations: no file, nothing served there, so no version names one as its
    alternate (each was named, a URL that answers 404)."""
    files = {
        "content/fish.md": post("Fish", "2024-01-01", Slug="fish", Lang="en"),
        "content/fish-fr.md": post("Poisson", "2024-01-01", Slug="fish", Lang="fr"),
        "content/pages/about.md": page("About", Slug="about", Lang="en"),
        "content/pages/about-de.md": page("Über", Slug="about", Lang="de"),
    }
    settings = 'ARTICLE_LANG_SAVE_AS = ""\nPAGE_LANG_SAVE_AS = ""\n'
    site = plain_repo(git_repo, files, settings)
    pelican_build(site)
    out = site / "output"
    written = {path.relative_to(out).as_posix() for path in out.rglob("*.html")}
    assert {"fish.html", "pages/about.html"} <= written  # the originals, so that it is about them
    assert not [name for name in written if "-fr" in name or "-de" in name]
    entries = sitemap(site)
    assert entries["fish.html"].alternates == {}
    assert entries["pages/about.html"].alternates == {}


def test_the_history_pass_starts_with_the_build_and_is_the_only_one(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """git reads the history while Pelican reads and writes (started with the run, the build's
    first git command), and the sitemap takes that pass: one git log and one git status a
    build, and no log at all the next time, at the same HEAD."""
    site = example_repo(git_repo)
    trace = GitTrace(tmp_path / "trace")
    pelican_build(site, env=trace.env)
    first = sitemap(site)
    assert first["caf%C3%A9/"].lastmod == "2024-06-14T09:00:00Z"
    started = trace.commands()[0]
    assert (started[0], started[-1]) == ("rev-parse", "HEAD"), trace.commands()
    assert (trace.count("log"), trace.count("status")) == (1, 1), trace.commands()
    trace.clear()
    pelican_build(site, env=trace.env)
    assert sitemap(site) == first
    assert (trace.count("log"), trace.count("status")) == (0, 1), trace.commands()
    # Kept beside the content folder, in the project, where it always was.
    assert (site / ".cache" / "sitemap-plugins").is_dir()
    assert not (site.parent / ".cache").exists()


# -- the project's folder ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path_setting", "run_in", "args", "built"),
    [
        pytest.param("", "repo", [], "repo", id="PATH unset"),
        pytest.param('PATH = "."\n', "repo", [], "repo", id="PATH ."),
        # Run from the folder above: "." is still the settings file's, which holds the output.
        pytest.param(
            'PATH = "."\nOUTPUT_PATH = "output"\n', ".", [], "repo", id="PATH . run from above"
        ),
        # Run in it, the output written to a folder beside it.
        pytest.param("", "repo", ["-o", "../deploy/output"], "deploy", id="output beside"),
    ],
)
def test_content_in_the_project_folder_keeps_the_cache_and_the_names_in_it(
    git_repo: GitRepo, tmp_path: Path, path_setting: str, run_in: str, args: list[str], built: str
) -> None:
    """With ``PATH`` unset (the folder Pelican runs in) or ``"."`` (the settings file's
    folder), the content folder is the project's own: the cache is kept in it, not in the
    folder above, shared with whatever lies beside the project, and messages name files from
    it (``posts/a.md``, not ``repo/posts/a.md``)."""
    settings = PLAIN_SETTINGS.replace('PATH = "content"\n', path_setting)
    assert 'PATH = "content"' not in settings
    settings += 'ARTICLE_PATHS = ["posts"]\nPAGE_PATHS = ["pages"]\n'
    git_repo.write("pelicanconf.py", settings)
    git_repo.write("posts/a.md", post("A", "2024-03-01", Sitemap='{"priority": 7}'))
    git_repo.write("pages/about.md", page("About"))
    git_repo.write(".gitignore", "output/\n__pycache__/\n")
    git_repo.commit("site", "2024-05-01T10:00:00+00:00")
    cwd = tmp_path / run_in
    conf = os.path.relpath(git_repo.root / "pelicanconf.py", cwd)
    proc = run_python(
        *("-m", "pelican", "-s", conf, *args),
        cwd=cwd,
        env={"COLUMNS": "400", "PYTHONWARNINGS": "ignore"},  # one line per message
    )
    assert not (tmp_path / ".cache").exists()
    assert any((git_repo.root / ".cache" / "sitemap-plugins").iterdir())
    log = log_of(proc)
    assert "sitemap: posts/a.md: priority 7 is not allowed" in log, log
    entries = sitemap(tmp_path / built)
    assert {"", "a.html", "pages/about.html"} <= set(entries)
    assert entries["pages/about.html"].lastmod == "2024-05-01T10:00:00Z"
