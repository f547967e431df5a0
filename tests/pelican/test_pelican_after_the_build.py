"""After the build: Pelican alone, then ``sitemap-plugins generate`` on its output, lists what the
plugin lists. Pelican writes its drafts into the output as ordinary pages; ``generate`` must
know them for drafts, as the plugin knows them by their status."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.pelican.helpers import BASE, page, plain_repo, post, sitemap, summary
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build
from tests.support.sitemap_checks import check_sitemap_file

SITE = {
    "content/hello.md": post("Hello", "2024-01-02"),
    "content/secret.md": post("Secret draft", "2024-01-03", Status="draft"),
    "content/pages/about.md": page("About"),
    "content/pages/wip.md": page("Draft page", Status="draft"),
    "content/pages/hidden.md": page("Hidden page", Status="hidden"),
}
HIDDEN = "pages/hidden-page.html"
"""Where Pelican saves the hidden page: nothing in the output tells it from any other page, so
README's recipe leaves it out by name."""


@pytest.mark.parametrize(
    ("settings", "where"),
    [
        ("", "project"),
        ("DRAFT_SAVE_AS = 'unpublished/{slug}.html'\n", "project"),
        ("", "copy"),
    ],
    ids=["default-drafts", "own-draft-folder", "output-alone"],
)
def test_generate_leaves_out_the_drafts_pelican_wrote(
    git_repo: GitRepo, tmp_path: Path, settings: str, where: str
) -> None:
    """Where ``pelicanconf.py`` lies beside the output, its ``DRAFT_*SAVE_AS`` say where the
    drafts went; an output copied elsewhere is known by its generator tag, with Pelican's
    default draft folder."""
    root = plain_repo(git_repo, SITE, settings)
    pelican_build(root)
    plugin = sitemap(root)
    drafts = [path for path in (root / "output").rglob("*.html") if "draft" in path.name]
    assert len(drafts) == 2  # what the site holds, so that leaving them out is about something
    site, cwd = root / "output", root
    if where == "copy":
        site, cwd = tmp_path / "public", tmp_path
        shutil.copytree(root / "output", site)
    done = run("generate", site, "--base-url", BASE, "--exclude", HIDDEN, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert {entry.loc.removeprefix(BASE) for entry in entries} == set(plugin)
    assert "2 draft" in done.stdout + done.stderr


SEARCH = """\
{% extends "base.html" %}
{% block content %}<form action="{{ SITEURL }}/search.html"><input name="q"></form>{% endblock %}
"""


@pytest.mark.parametrize(
    "settings",
    [
        "",
        'SEARCH_SAVE_AS = "find/index.html"\nSEARCH_URL = "find/"\n'
        'PAGINATED_TEMPLATES = {"index": None, "tag": None, "category": None,'
        ' "author": None, "search": 1}\n',
    ],
    ids=["search.html", "paginated-elsewhere"],
)
def test_generate_leaves_out_the_search_page_as_the_plugin_does(
    git_repo: GitRepo, settings: str
) -> None:
    """A theme's search page (``DIRECT_TEMPLATES`` with ``search``, as Tipue Search and Flex
    set it up) is a form, which the plugin leaves out: ``generate`` reads where
    ``pelicanconf.py`` saves it and leaves out the same files."""
    files = {
        **SITE,
        "content/b.md": post("B", "2024-01-04"),
        "templates/search.html": SEARCH,
    }
    root = plain_repo(
        git_repo,
        files,
        'THEME_TEMPLATES_OVERRIDES = ["templates"]\n'
        'DIRECT_TEMPLATES = ["index", "tags", "archives", "search"]\n' + settings,
    )
    pelican_build(root)
    plugin = sitemap(root)
    searched = [
        p
        for p in ("search.html", "find/index.html", "find/index2.html")
        if (root / "output" / p).is_file()
    ]
    assert searched  # what the site holds, so that leaving it out is about something
    done = run("generate", root / "output", "--base-url", BASE, "--exclude", HIDDEN, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = check_sitemap_file(root / "output/sitemap.xml", BASE + "sitemap.xml")
    assert {entry.loc.removeprefix(BASE) for entry in entries} == set(plugin)
    assert not set(searched) & set(plugin)
    assert f"{len(searched)} search page" in done.stdout + done.stderr


def test_a_page_named_404_outside_the_top_of_the_site_is_listed_by_both(
    git_repo: GitRepo,
) -> None:
    """The page a web server sends for a missing URL is ``404.html`` at the top of the site
    (``Save_as: 404.html``, Pelican's recipe), or of a language's folder: both leave it out.
    A page whose slug is 404 is saved as ``pages/404.html`` and served there, at a URL of its
    own that no server sends for a missing one: a page like any other, for both."""
    files = {
        **SITE,
        "content/pages/404.md": page("404"),  # its slug, from the title: pages/404.html
        "content/pages/not-found.md": page("Not found", Save_as="404.html", URL="404.html"),
        "content/pages/introuvable.md": page(
            "Introuvable", Lang="fr", Save_as="fr/404.html", URL="fr/404.html"
        ),
    }
    root = plain_repo(git_repo, files)
    proc = pelican_build(root, "-v")
    output = root / "output"
    assert all((output / name).is_file() for name in ("pages/404.html", "404.html", "fr/404.html"))
    plugin = sitemap(root)
    assert "pages/404.html" in plugin
    assert not {"404.html", "fr/404.html"} & set(plugin)
    assert summary(proc).left_out["404 page"] == 2
    done = run("generate", output, "--base-url", BASE, "--exclude", HIDDEN, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = check_sitemap_file(output / "sitemap.xml", BASE + "sitemap.xml")
    assert {entry.loc.removeprefix(BASE) for entry in entries} == set(plugin)
    assert "2 404 page" in done.stdout + done.stderr


def test_each_subsites_404_page_in_the_main_sites_language_is_left_out_by_both(
    git_repo: GitRepo,
) -> None:
    """i18n_subsites writes the 404 page of Pelican's recipe (``Save_as: 404.html``) into each
    subsite too (``de/404.html``), in the main site's language (``<html lang="en">``) where it
    has no translation, and beside no sitemap of its own: ``de/`` is a build's top because
    ``I18N_SUBSITES`` in ``pelicanconf.py`` names it, and its 404 page is left out, as the
    plugin leaves it out of the subsite it builds."""
    pytest.importorskip(
        "pelican.plugins.i18n_subsites", reason="pelican-i18n-subsites not installed"
    )
    files = {
        "content/hello.md": post("Hello", "2024-01-02", Slug="hello", Lang="en"),
        "content/hallo.md": post("Hallo", "2024-01-02", Slug="hello", Lang="de"),
        "content/pages/404.md": page("Not found", Status="hidden", Save_as="404.html", Lang="en"),
    }
    settings = (
        'PLUGINS = ["sitemap_plugins.pelican", "i18n_subsites"]\nI18N_SUBSITES = {"de": {}}\n'
    )
    root = plain_repo(git_repo, files, settings)
    pelican_build(root)
    plugin = sitemap(root)
    output = root / "output"
    # What the subsite holds, so that leaving it out is about something.
    assert 'lang="en"' in (output / "de/404.html").read_text(encoding="utf-8")
    assert not (output / "de/sitemap.xml").exists()
    assert "de/hello.html" in plugin
    assert not {"404.html", "de/404.html"} & set(plugin)
    done = run("generate", output, "--base-url", BASE, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = check_sitemap_file(output / "sitemap.xml", BASE + "sitemap.xml")
    assert {entry.loc.removeprefix(BASE) for entry in entries} == set(plugin)
    assert "2 404 page" in done.stdout + done.stderr


SUBSITES = {
    # A subsite in the language's folder, by default, and one written where its settings say,
    # which saves its drafts elsewhere too.
    "project": 'I18N_SUBSITES = {"de": {}, "fr": {"OUTPUT_PATH": "output/francais", '
    '"SITEURL": "https://example.org/francais", "DRAFT_SAVE_AS": "brouillons/{slug}.html", '
    '"DRAFT_LANG_SAVE_AS": "brouillons/{slug}-{lang}.html"}}\n'
    'THEME_TEMPLATES_OVERRIDES = ["templates"]\n'
    'DIRECT_TEMPLATES = ["index", "tags", "archives", "search"]\n',
    # The output copied away from its config: each subsite is known by Pelican's generator tag.
    "copy": 'I18N_SUBSITES = {"de": {}, "fr": {}}\n',
}


@pytest.mark.parametrize("where", list(SUBSITES))
def test_generate_leaves_out_each_subsites_drafts_and_search_page(
    git_repo: GitRepo, tmp_path: Path, where: str
) -> None:
    """With i18n_subsites each subsite is a Pelican output of its own (``de/``, or the
    ``OUTPUT_PATH`` its settings give): its drafts, those i18n_subsites makes of untranslated
    articles among them (``de/drafts/world-en.html``), and its search page are left out, as the
    plugin leaves them out, where ``I18N_SUBSITES`` in ``pelicanconf.py`` says each one's
    folder and settings."""
    pytest.importorskip(
        "pelican.plugins.i18n_subsites", reason="pelican-i18n-subsites not installed"
    )
    files = {
        "content/hello.md": post("Hello", "2024-01-02", Slug="hello", Lang="en"),
        "content/hallo.md": post("Hallo", "2024-01-02", Slug="hello", Lang="de"),
        "content/bonjour.md": post("Bonjour", "2024-01-02", Slug="hello", Lang="fr"),
        "content/world.md": post("World", "2024-01-03", Slug="world", Lang="en"),
        "content/wip.md": post("Draft", "2024-01-04", Slug="wip", Lang="en", Status="draft"),
        "templates/search.html": SEARCH,
    }
    settings = 'PLUGINS = ["sitemap_plugins.pelican", "i18n_subsites"]\n' + SUBSITES[where]
    root = plain_repo(git_repo, files, settings)
    pelican_build(root)
    plugin = sitemap(root)
    output = root / "output"
    written = {path.relative_to(output).as_posix() for path in output.rglob("*.html")}
    subsites = ("de/", "francais/") if where == "project" else ("de/", "fr/")
    drafts = {path for path in written if "drafts/" in path or "brouillons/" in path}
    searched = {path for path in written if path.endswith("search.html")}
    # What the subsites hold, so that leaving it out is about something.
    for folder in subsites:
        assert any(path.startswith(folder) for path in drafts), (folder, sorted(written))
        assert (f"{folder}search.html" in searched) is (where == "project")
    assert not (drafts | searched) & set(plugin)
    site, cwd = output, root
    if where == "copy":
        site, cwd = tmp_path / "public", tmp_path
        shutil.copytree(output, site)
    done = run("generate", site, "--base-url", BASE, cwd=cwd)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert {entry.loc.removeprefix(BASE) for entry in entries} == set(plugin)
    assert f"{len(drafts)} draft" in done.stdout + done.stderr
