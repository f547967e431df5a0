"""``SITEMAP = {"html_page": True}``: ``sitemap.html`` through the theme's ``page`` template.

The example site in a git repository with dated commits, built with the real ``pelican``: the
page lists exactly what the sitemap lists, grouped by section, with each article's and page's
title (and a title for each listing), the sitemap's dates, in the site's theme (the home page's
own stylesheets), and looks right in a real headless Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.pelican.helpers import BASE, example_repo, log_of, page, plain_repo, post, sitemap
from tests.support.browser import check_in_browser, sections_in, stylesheets
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build
from tests.support.publishing import recorded_files

pytestmark = pytest.mark.pelican

TITLES = {
    "": "Home",
    "about/": "About",
    "archives.html": "Archives",
    "authors.html": "Authors",
    "caf%C3%A9/": "Café",
    "categories.html": "Categories",
    "cr%C3%A8me-br%C3%BBl%C3%A9e.html": "Crème brûlée",
    "first-post.html": "First post",
    "salt-&-pepper.html": "Salt & pepper",
    "second-post-fr.html": "Deuxième billet",
    "second-post.html": "Second post",
    "tags.html": "Tags",
    "author/example-author.html": "Author: Example Author",
    "author/example-author/page/2/": "Author: Example Author (page 2)",
    "blog/": "Blog",
    "blog/page/2/": "Blog (page 2)",
    "category/news.html": "Category: News",
    "category/recipes.html": "Category: Recipes",
    "guide/configure/": "Configure",
    "guide/install/": "Install",
    "reference/options/": "Options",
    "tag/cooking.html": "Tag: cooking",
    "tag/python.html": "Tag: python",
    "tag/sitemaps.html": "Tag: sitemaps",
}
"""What the example site publishes, as the page for humans titles it: the content's own title,
and for a listing what it lists (and its page number)."""

# Theme files by relative links, so that the browser loads the theme's styles over loopback.
SETTINGS = '\nSITEMAP = {"html_page": True}\nRELATIVE_URLS = True\n'


def test_the_page_is_themed_and_lists_the_sitemap(git_repo: GitRepo, tmp_path: Path) -> None:
    site = example_repo(git_repo, SETTINGS)
    pelican_build(site)
    output = site / "output"
    entries = {BASE + path: entry for path, entry in sitemap(site).items()}
    titles = {BASE + path: title for path, title in TITLES.items()}
    assert set(entries) == set(titles)  # the page itself is not in the sitemap
    text = (output / "sitemap.html").read_text("utf-8")
    home = (output / "index.html").read_text("utf-8")
    assert stylesheets(home, BASE)
    assert stylesheets(home, BASE) <= stylesheets(text, BASE + "sitemap.html")
    sections = sections_in(text, BASE + "sitemap.html")
    assert [title for title, _ in sections] == [
        "Home",
        "Author",
        "Blog",
        "Category",
        "Guide",
        "Reference",
        "Tag",
    ]
    items = {item.url: item for _, found in sections for item in found}
    assert {url: item.title for url, item in items.items()} == titles
    assert {url: item.datetime for url, item in items.items()} == {
        url: entry.lastmod for url, entry in entries.items()
    }
    check_in_browser(
        output,
        "sitemap.html",
        base_url=BASE,
        sitemap_relpath="sitemap.xml",
        titles=titles,
        shot=tmp_path / "pelican.png",
    )


def test_off_by_default(git_repo: GitRepo) -> None:
    site = example_repo(git_repo, "\nSITEMAP = {}\n")  # the example turns it on
    pelican_build(site)
    assert not (site / "output" / "sitemap.html").exists()


def test_titles_with_markup_show_as_their_text(git_repo: GitRepo) -> None:
    """Pelican holds a reST title as HTML (``&amp;``, inline markup as tags): the page for
    humans shows its text, as the article's own page does, escaped once."""
    files = {
        "content/fish.rst": "Fish & *Chips* <3\n#################\n\n"
        ":date: 2024-01-01\n:slug: fish\n\nbody\n",
        "content/salt.md": "Title: Salt & pepper\nDate: 2024-01-02\nSlug: salt\n\nbody\n",
    }
    site = plain_repo(git_repo, files, 'SITEMAP = {"html_page": True}\n')
    pelican_build(site)
    output = site / "output"
    sections = sections_in((output / "sitemap.html").read_text("utf-8"), BASE + "sitemap.html")
    titles = {item.url: item.title for _, items in sections for item in items}
    assert titles[BASE + "fish.html"] == "Fish & Chips <3"
    assert titles[BASE + "salt.html"] == "Salt & pepper"


OWN_PAGE = "<!DOCTYPE html>\n<title>Our own map</title>\nHAND WRITTEN\n"
OWN_SITEMAP_HTML = {
    # source, its text, settings, whether Pelican's sitemap lists it
    "page": (
        "content/pages/map.md",
        page("Our own map", Save_as="sitemap.html", URL="sitemap.html") + "HAND WRITTEN\n",
        "",
        True,
    ),
    "template page": (
        "content/tpl/map.html",
        OWN_PAGE,
        'TEMPLATE_PAGES = {"tpl/map.html": "sitemap.html"}\n',
        True,
    ),
    "static file": (
        "content/extra/sitemap.html",
        OWN_PAGE,
        'STATIC_PATHS = ["extra"]\n'
        'EXTRA_PATH_METADATA = {"extra/sitemap.html": {"path": "sitemap.html"}}\n',
        False,
    ),
}


@pytest.mark.parametrize("kind", list(OWN_SITEMAP_HTML))
def test_a_file_of_the_site_at_its_path_is_kept_with_a_warning(
    git_repo: GitRepo, kind: str
) -> None:
    """The site's own ``sitemap.html`` stays what Pelican wrote, listed as any page of its kind;
    the page for humans is not written, and one warning names the source and the path, which
    ``strict`` and ``--fatal warnings`` fail on."""
    source, text, settings, listed = OWN_SITEMAP_HTML[kind]
    files = {"content/first.md": post("First", "2024-01-05 10:00"), source: text}
    excludes = 'ARTICLE_EXCLUDES = ["extra", "tpl"]\n'
    site = plain_repo(git_repo, files, excludes + settings + 'SITEMAP = {"html_page": True}\n')
    output = site / "output"
    log = log_of(pelican_build(site))
    assert "HAND WRITTEN" in (output / "sitemap.html").read_text("utf-8")
    assert log.count("WARNING") == 1, log
    assert f"{source}: already written to sitemap.html" in log
    entries = sitemap(site)
    assert ("sitemap.html" in entries) is listed
    if listed:  # as the page it is, dated by its commit
        assert entries["sitemap.html"].lastmod == "2024-05-05T12:00:00Z"
    settings_file = site / "pelicanconf.py"
    configured = settings_file.read_text("utf-8")
    strict = configured.replace('{"html_page": True}', '{"html_page": True, "strict": True}')
    for settings_text, args in ((strict, ()), (configured, ("--fatal", "warnings"))):
        settings_file.write_text(settings_text, "utf-8")
        failed = pelican_build(site, *args, check=False)
        assert failed.returncode != 0, log_of(failed)
        assert "HAND WRITTEN" in (output / "sitemap.html").read_text("utf-8")


def test_turned_off_the_page_goes_and_a_page_of_the_sites_own_there_stays(
    git_repo: GitRepo,
) -> None:
    """Pelican keeps its output folder (``DELETE_OUTPUT_DIRECTORY`` is off by default): the page
    for humans is recorded with the sitemap, so that a build with the option off removes it,
    as it removes a sitemap file; it stayed for good, listing pages no longer there and none
    added since. Turned on again, it is back. A page of the site's own written there is never
    taken for it."""
    files = {"content/first.md": post("First", "2024-01-05 10:00")}
    site = plain_repo(git_repo, files, 'SITEMAP = {"html_page": True}\n')
    output = site / "output"
    settings = site / "pelicanconf.py"
    on = settings.read_text("utf-8")
    off = on.replace('{"html_page": True}', '{"html_page": False}')
    pelican_build(site)
    assert "First" in (output / "sitemap.html").read_text("utf-8")
    assert "sitemap.html" in recorded_files(output)
    settings.write_text(off, "utf-8")
    git_repo.write("content/second.md", post("Second", "2024-01-06 10:00"))
    pelican_build(site)
    assert not (output / "sitemap.html").exists()
    assert "sitemap.html" not in recorded_files(output)
    assert "second.html" in sitemap(site)
    settings.write_text(on, "utf-8")
    pelican_build(site)
    assert "Second" in (output / "sitemap.html").read_text("utf-8")
    assert "sitemap.html" in recorded_files(output)
    source, text, _, _ = OWN_SITEMAP_HTML["page"]
    git_repo.write(source, text)
    settings.write_text(off, "utf-8")
    pelican_build(site)
    assert "HAND WRITTEN" in (output / "sitemap.html").read_text("utf-8")
    assert "sitemap.html" not in recorded_files(output)
