"""``html_page: true`` on MkDocs: ``sitemap.html`` through the theme's ``main.html``.

Real ``mkdocs build`` runs of the example site in a git repository with dated commits. The page
must list exactly what the sitemap lists, grouped by section, with each page's title and the
sitemap's date, framed by the site's theme (the home page's own stylesheets), and it must look
right in a real headless Chromium.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.mkdocs.helpers import (
    BASE,
    example_repo,
    i18n_version,
    sitemap,
    touch_later,
    write_config,
)
from tests.support.browser import check_in_browser, sections_in, stylesheets
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output
from tests.support.publishing import recorded_files

pytestmark = pytest.mark.mkdocs

TITLES = {
    BASE: "Home",
    BASE + "guide/install/": "Install",
    BASE + "guide/configure/": "Configure",
    BASE + "reference/options/": "Options",
    BASE + "caf%C3%A9/": "Café",
    BASE + "about/": "About",
}
"""The example site's pages as its sources title them (internal.md asks to be left out)."""


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs", "material"])
def test_the_page_is_themed_and_lists_the_sitemap(
    git_repo: GitRepo, tmp_path: Path, theme: str
) -> None:
    root = example_repo(git_repo, theme={"name": theme}, plugins=[{"sitemap": {"html_page": True}}])
    mkdocs_build(root)
    site = root / "site"
    entries = sitemap(site)
    assert set(entries) == set(TITLES)  # the page itself is not in the sitemap
    text = (site / "sitemap.html").read_text("utf-8")
    home = (site / "index.html").read_text("utf-8")
    # Framed by the theme: the same stylesheets as the site's home page.
    assert stylesheets(home, BASE)
    assert stylesheets(home, BASE) <= stylesheets(text, BASE + "sitemap.html")
    assert "<title>Sitemap" in text
    sections = sections_in(text, BASE + "sitemap.html")
    assert [(title, [item.url for item in items]) for title, items in sections] == [
        ("Home", [BASE, BASE + "about/", BASE + "caf%C3%A9/"]),
        ("Guide", [BASE + "guide/configure/", BASE + "guide/install/"]),
        ("Reference", [BASE + "reference/options/"]),
    ]
    items = {item.url: item for _, found in sections for item in found}
    assert {url: item.title for url, item in items.items()} == TITLES
    # Each date is the one the sitemap carries; git dates differ page by page.
    assert {url: item.datetime for url, item in items.items()} == {
        url: entry.lastmod for url, entry in entries.items()
    }
    assert items[BASE + "guide/install/"].datetime == "2024-02-11T09:00:00Z"
    assert items[BASE + "about/"].datetime == "2024-05-01"
    check_in_browser(
        site,
        "sitemap.html",
        base_url=BASE,
        sitemap_relpath="sitemap.xml",
        titles=TITLES,
        shot=tmp_path / f"{theme}.png",
    )


def test_off_by_default_and_gone_when_turned_off(git_repo: GitRepo) -> None:
    root = example_repo(git_repo, plugins=["sitemap"])
    mkdocs_build(root)
    assert not (root / "site" / "sitemap.html").exists()
    write_config(git_repo, plugins=[{"sitemap": {"html_page": True}}])
    mkdocs_build(root)
    assert (root / "site" / "sitemap.html").is_file()
    write_config(git_repo, plugins=[{"sitemap": {"html_page": False}}])
    mkdocs_build(root)  # MkDocs cleans site/ before a build: nothing of ours is left behind
    assert not (root / "site" / "sitemap.html").exists()


def test_turned_off_the_page_goes_from_a_dirty_build_and_a_file_of_the_sites_own_stays(
    git_repo: GitRepo,
) -> None:
    """``mkdocs build --dirty`` keeps ``site/``: the page for humans is recorded with the
    sitemap, so that a build with the option off removes it, as it removes a sitemap file; it
    stayed for good, listing pages no longer there and none added since. Turned on again, it
    is back. A file of the site's own copied there is never taken for it."""
    root = example_repo(git_repo, plugins=[{"sitemap": {"html_page": True}}])
    site = root / "site"
    mkdocs_build(root)
    assert "Install" in (site / "sitemap.html").read_text("utf-8")
    assert "sitemap.html" in recorded_files(site)
    write_config(git_repo, plugins=[{"sitemap": {"html_page": False}}])
    git_repo.write("docs/added.md", "# Added\n\ntext\n")
    mkdocs_build(root, "--dirty")
    assert not (site / "sitemap.html").exists()
    assert "sitemap.html" not in recorded_files(site)
    assert BASE + "added/" in sitemap(site)
    write_config(git_repo, plugins=[{"sitemap": {"html_page": True}}])
    mkdocs_build(root, "--dirty")
    assert "Added" in (site / "sitemap.html").read_text("utf-8")
    assert "sitemap.html" in recorded_files(site)
    git_repo.write("docs/sitemap.html", "<!DOCTYPE html>\n<title>Our own</title>\nHAND MADE\n")
    write_config(git_repo, plugins=[{"sitemap": {"html_page": False}}])
    mkdocs_build(root, "--dirty")
    assert "HAND MADE" in (site / "sitemap.html").read_text("utf-8")
    assert "sitemap.html" not in recorded_files(site)


def test_without_directory_urls_and_in_strict_mode(git_repo: GitRepo, tmp_path: Path) -> None:
    root = example_repo(
        git_repo, use_directory_urls=False, plugins=[{"sitemap": {"html_page": True}}]
    )
    mkdocs_build(root, "--strict")
    site = root / "site"
    entries = sitemap(site)
    titles = {
        BASE + ("index.html" if url == BASE else url[len(BASE) :].rstrip("/") + ".html"): title
        for url, title in TITLES.items()
    }
    assert set(entries) == set(titles)
    check_in_browser(
        site,
        "sitemap.html",
        base_url=BASE,
        sitemap_relpath="sitemap.xml",
        titles=titles,
        shot=tmp_path / "flat.png",
    )


@pytest.mark.parametrize(
    ("source", "text", "directory_urls"),
    [
        # A page of the site, written where the page for humans would go.
        ("docs/sitemap.md", "# Our own map\n\nHAND WRITTEN\n", False),
        # A file MkDocs copies as it is, with directory URLs as well.
        ("docs/sitemap.html", "<!DOCTYPE html>\n<title>Our own map</title>\nHAND WRITTEN\n", True),
    ],
)
def test_a_file_of_the_site_at_its_path_is_kept_with_a_warning(
    git_repo: GitRepo, source: str, text: str, *, directory_urls: bool
) -> None:
    """The site's own ``sitemap.html`` stays what MkDocs wrote, a page listed as any page; the
    page for humans is not written, and one warning names the source and the path, which
    ``--strict`` fails on."""
    root = example_repo(
        git_repo,
        use_directory_urls=directory_urls,
        plugins=[{"sitemap": {"html_page": True}}],
    )
    git_repo.write(source, text)
    git_repo.commit("our own sitemap page", "2024-10-01T09:00:00+00:00")
    proc = mkdocs_build(root)
    site = root / "site"
    assert "HAND WRITTEN" in (site / "sitemap.html").read_text("utf-8")
    warnings = [line for line in output(proc).splitlines() if line.startswith("WARNING")]
    assert len(warnings) == 1, output(proc)
    assert f"{source}: already written to sitemap.html" in warnings[0]
    entries = sitemap(site)
    if source.endswith(".md"):  # listed as the page it is, dated by its commit
        assert entries[BASE + "sitemap.html"].lastmod == "2024-10-01T09:00:00Z"
    else:  # a copied file: MkDocs lists none
        assert BASE + "sitemap.html" not in entries
    strict = mkdocs_build(root, "--strict", check=False)
    assert strict.returncode != 0
    assert "HAND WRITTEN" in (site / "sitemap.html").read_text("utf-8")


class _TocLinks(HTMLParser):
    """The text of every link to a section of the page (``#sitemap-section-N``), by target."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.links: dict[str, list[str]] = {}
        self._target: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href") or ""
        if tag == "a" and href.startswith("#sitemap-section-"):
            self._target = href[1:]
            self.links.setdefault(self._target, []).append("")

    def handle_data(self, data: str) -> None:
        if self._target is not None:
            self.links[self._target][-1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._target = None


@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs"])
def test_titles_with_markup_characters_show_as_written(git_repo: GitRepo, theme: str) -> None:
    """MkDocs holds a title as the HTML its theme puts in the page (1.6 escapes ``&`` and ``<``
    of a heading): the page for humans shows the text a reader sees there, escaped once."""
    root = example_repo(git_repo, theme={"name": theme}, plugins=[{"sitemap": {"html_page": True}}])
    pages = {
        "docs/tom.md": ('# Tom & "Jerry" <3\n\ntext\n', 'Tom & "Jerry" <3'),
        "docs/kitchen/index.md": ("# Fish & *Chips* &lt;b&gt;\n\ntext\n", "Fish & Chips <b>"),
        "docs/kitchen/bread.md": ("# Bread &amp; butter\n\ntext\n", "Bread & butter"),
    }
    for relpath, (text, _) in pages.items():
        git_repo.write(relpath, text)
    git_repo.commit("titles", "2024-10-01T09:00:00+00:00")
    mkdocs_build(root)
    text = (root / "site" / "sitemap.html").read_text("utf-8")
    sections = sections_in(text, BASE + "sitemap.html")
    titles = {item.url: item.title for _, items in sections for item in items}
    assert titles[BASE + "tom/"] == pages["docs/tom.md"][1]
    assert titles[BASE + "kitchen/"] == pages["docs/kitchen/index.md"][1]
    assert titles[BASE + "kitchen/bread/"] == pages["docs/kitchen/bread.md"][1]
    # The section named after its index page, in the listing and in the theme's contents.
    headings = [heading for heading, _ in sections]
    assert pages["docs/kitchen/index.md"][1] in headings
    if theme != "mkdocs":
        return  # readthedocs shows a page's contents under its entry in the nav, and it has none
    toc = _TocLinks()
    toc.feed(text)
    toc.close()
    assert toc.links  # the theme shows the sections as the page's table of contents
    for number, heading in enumerate(headings):
        assert set(toc.links[f"sitemap-section-{number}"]) <= {heading}


def _listed_titles(site: Path) -> dict[str, str]:
    """Each page the page for humans lists, by URL, with the title it shows."""
    text = (site / "sitemap.html").read_text("utf-8")
    sections = sections_in(text, BASE + "sitemap.html")
    return {item.url: item.title for _, items in sections for item in items}


@pytest.mark.parametrize("memo", ["kept", "lost"])
def test_a_dirty_build_shows_every_page_by_the_title_a_clean_build_shows(
    git_repo: GitRepo, memo: str
) -> None:
    """``mkdocs build --dirty`` in a new process renders the changed page alone, and MkDocs
    holds no title for the others but one ``nav`` gives: they showed by their HTML ``<title>``
    (``Install - Example site``, the site's name for the home page). Each shows the title its
    last render gave, or, with nothing kept of it (``.cache/`` lost), the one MkDocs gives from
    its source; a ``nav`` title wins, as in a clean build."""
    nav = ["index.md", {"Setting up": "guide/install.md"}, "guide/configure.md"]
    root = example_repo(git_repo, nav=nav, plugins=[{"sitemap": {"html_page": True}}])
    git_repo.write("docs/tom.md", '# Tom & "Jerry" <3\n\ntext\n')
    git_repo.commit("tom", "2024-10-01T09:00:00+00:00")
    mkdocs_build(root)
    site = root / "site"
    expected = {
        **TITLES,
        BASE + "guide/install/": "Setting up",
        BASE + "tom/": 'Tom & "Jerry" <3',
    }
    assert _listed_titles(site) == expected
    if memo == "lost":
        for kept in (root / ".cache" / "sitemap-plugins").glob("sources-*.json"):
            kept.unlink()
    about = git_repo.path("docs/about.md")
    about.write_text(about.read_text("utf-8").replace("# About", "# About us"), "utf-8")
    touch_later(about)
    for _ in range(2):  # the first --dirty process, and one that reads what it kept
        mkdocs_build(root, "--dirty")
        assert _listed_titles(site) == {**expected, BASE + "about/": "About us"}


def _chrome(page: str) -> tuple[str | None, str]:
    """A page's language and its footer's words: what a theme translates."""
    lang = re.search(r"<html\b[^>]*\blang=\"([^\"]*)\"", page)
    footer = re.search(r"<footer\b.*?</footer>", page, re.DOTALL)
    words = re.sub(r"<[^>]*>", " ", footer.group(0)).split() if footer else []
    return (lang.group(1) if lang else None, " ".join(words))


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
@pytest.mark.parametrize("theme", ["mkdocs", "material"])
def test_with_static_i18n_the_page_is_in_the_default_language(
    git_repo: GitRepo, theme: str
) -> None:
    """mkdocs-static-i18n builds the other languages after the default one, each changing the
    config for its language; the page at the site root is framed like the rest of the root,
    in the default language, whichever language was built last."""
    languages = [
        {"locale": "en", "default": True, "name": "English", "build": True},
        {"locale": "fr", "name": "Français", "build": True},
        {"locale": "de", "name": "Deutsch", "build": True, "site_name": "Seite DE"},
    ]
    plugins = [
        {"i18n": {"docs_structure": "suffix", "languages": languages}},
        {"sitemap": {"html_page": True}},
    ]
    for suffix, title in [("", "Home"), (".fr", "Accueil"), (".de", "Startseite")]:
        git_repo.write(f"docs/index{suffix}.md", f"# {title}\n\ntext\n")
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    write_config(git_repo, theme={"name": theme}, plugins=plugins)
    mkdocs_build(git_repo.root)
    site = git_repo.root / "site"
    home = (site / "index.html").read_text("utf-8")
    last = (site / "de" / "index.html").read_text("utf-8")
    page = (site / "sitemap.html").read_text("utf-8")
    assert _chrome(home) != _chrome(last)  # the languages' pages do differ
    assert _chrome(page) == _chrome(home)
    assert "Seite DE" in last
    assert "Seite DE" not in page
    assert not (site / "de" / "sitemap.html").exists()
