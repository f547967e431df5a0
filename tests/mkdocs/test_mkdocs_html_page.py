"""``html_page: true`` on MkDocs: ``sitemap.html`` through the theme's ``main.html``.

Real ``mkdocs build`` runs of the example site in a git repository with dated commits. The page
must list exactly what the sitemap lists, grouped by section, with each page's title and the
sitemap's date, framed by the site's theme (the home page's own stylesheets), and it must look
right in a real headless Chromium.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mkdocs.helpers import BASE, example_repo, sitemap, write_config
from tests.support.browser import check_in_browser, sections_in, stylesheets
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build

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
