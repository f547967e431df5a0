"""``sitemap_html_page = True``: ``sitemap.html`` as one more page of the HTML builder.

The example project in a git repository with dated commits, built with the real
``sphinx-build``: the page lists exactly what the sitemap lists, grouped by section, with each
document's title and the sitemap's date, in the theme's ``page.html`` (the home page's own
stylesheets), and looks right in a real headless Chromium.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_URL, PROJECT_ROOT, page, read_entries, write_project
from tests.support.browser import check_in_browser, sections_in, stylesheets
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build
from tests.support.publishing import recorded_files

pytestmark = pytest.mark.sphinx

EXAMPLE = PROJECT_ROOT / "example_sites" / "sphinx"
PAGES = {
    "": "Home",
    "guide/install/": "Install",
    "guide/configure/": "Configure",
    "reference/options/": "Options",
    "caf%C3%A9/": "Café",
    "about/": "About",
}
"""The example project's documents in the sitemap (dirhtml paths), as their titles read."""


def example(repo: GitRepo) -> Path:
    shutil.copytree(EXAMPLE, repo.root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("_build"))
    repo.commit("site", "2024-01-10T09:00:00+00:00")
    repo.write("guide/configure.rst", repo.path("guide/configure.rst").read_text() + "\nMore.\n")
    repo.commit("edit configure", "2024-03-05T18:30:00+01:00")
    return repo.root


@pytest.mark.parametrize(
    ("builder", "theme", "relpath"),
    [("dirhtml", "alabaster", "sitemap/"), ("html", "classic", "sitemap.html")],
)
def test_the_page_is_themed_and_lists_the_sitemap(
    git_repo: GitRepo, tmp_path: Path, builder: str, theme: str, relpath: str
) -> None:
    root = example(git_repo)
    outdir = root / "_build" / builder
    args = ("-W", "-D", "sitemap_html_page=1", "-D", f"html_theme={theme}")
    sphinx_build(root, outdir, *args, builder=builder)
    sphinx_build(root, outdir, *args, builder=builder)  # incremental: the same page and sitemap
    entries = read_entries(outdir)
    if builder == "html":
        paths = {(p[:-1] if p else "index") + ".html": t for p, t in PAGES.items()}
    else:
        paths = PAGES
    titles = {BASE_URL + path: title for path, title in paths.items()}
    assert set(entries) == set(titles)  # the page itself is not in the sitemap
    served = relpath + ("index.html" if relpath.endswith("/") else "")
    text = (outdir / served).read_text("utf-8")
    home = (outdir / "index.html").read_text("utf-8")
    assert stylesheets(home, BASE_URL)
    assert stylesheets(home, BASE_URL) <= stylesheets(text, BASE_URL + relpath)
    sections = sections_in(text, BASE_URL + relpath)
    assert [(title, len(items)) for title, items in sections] == [
        ("Home", 3),
        ("Guide", 2),
        ("Reference", 1),
    ]
    items = {item.url: item for _, found in sections for item in found}
    assert {url: item.title for url, item in items.items()} == titles
    assert {url: item.datetime for url, item in items.items()} == {
        url: entry.lastmod for url, entry in entries.items()
    }
    configure = BASE_URL + ("guide/configure.html" if builder == "html" else "guide/configure/")
    assert items[configure].datetime == "2024-03-05T18:30:00+01:00"
    check_in_browser(
        outdir,
        relpath,
        base_url=BASE_URL,
        sitemap_relpath="sitemap.xml",
        titles=titles,
        shot=tmp_path / f"{builder}.png",
    )


def test_off_by_default(git_repo: GitRepo) -> None:
    root = example(git_repo)
    conf = git_repo.path("conf.py")
    conf.write_text(conf.read_text("utf-8").replace("sitemap_html_page = True", ""), "utf-8")
    assert "html_page" not in conf.read_text("utf-8")  # the example turns it on
    sphinx_build(root, root / "_build" / "html", "-W", builder="html")
    assert not (root / "_build" / "html" / "sitemap.html").exists()


@pytest.mark.parametrize(
    ("builder", "written"), [("html", "sitemap.html"), ("dirhtml", "sitemap/index.html")]
)
def test_turned_off_the_page_goes_and_a_page_of_the_sites_own_there_stays(
    git_repo: GitRepo, builder: str, written: str
) -> None:
    """Sphinx keeps its output folder: the page for humans is recorded with the sitemap, so
    that a build with the option off removes it, as it removes a sitemap file; it stayed for
    good, listing pages no longer there and none added since. Turned on again, it is back. A
    page of the site's own Sphinx writes there is never taken for it."""
    root = example(git_repo)
    outdir = root / "_build" / builder
    conf = git_repo.path("conf.py")
    on = conf.read_text("utf-8")
    off = on.replace("sitemap_html_page = True", "sitemap_html_page = False")
    assert off != on
    sphinx_build(root, outdir, "-W", builder=builder)
    assert "Install" in (outdir / written).read_text("utf-8")
    assert written in recorded_files(outdir)
    conf.write_text(off, "utf-8")
    sphinx_build(root, outdir, "-W", builder=builder)
    assert not (outdir / written).exists()
    assert written not in recorded_files(outdir)
    read_entries(outdir)  # the sitemap itself stays
    conf.write_text(on, "utf-8")
    sphinx_build(root, outdir, "-W", builder=builder)
    assert "Install" in (outdir / written).read_text("utf-8")
    assert written in recorded_files(outdir)
    # The site's own page of that name, with the option off: it is written over ours, and stays.
    git_repo.write("sitemap.rst", page("Our own map"))
    git_repo.write("index.rst", git_repo.path("index.rst").read_text("utf-8") + "   sitemap\n")
    conf.write_text(off, "utf-8")
    sphinx_build(root, outdir, builder=builder)
    assert "Our own map" in (outdir / written).read_text("utf-8")
    assert written not in recorded_files(outdir)


@pytest.mark.parametrize(
    ("builder", "source", "written", "conf"),
    [
        ("html", "sitemap.rst", "sitemap.html", ""),
        ("dirhtml", "sitemap.rst", "sitemap/index.html", ""),
        # dirhtml writes both a document sitemap and a document sitemap/index to this file.
        ("dirhtml", "sitemap/index.rst", "sitemap/index.html", ""),
        ("html", None, "sitemap.html", 'html_additional_pages = {"sitemap": "own.html"}\n'),
    ],
    ids=["document", "dirhtml-document", "dirhtml-folder-index", "additional-page"],
)
def test_a_page_of_the_sites_own_written_there_keeps_its_place(
    git_repo: GitRepo, builder: str, source: str | None, written: str, conf: str
) -> None:
    """The site's own page at the file the page for humans would be written to: a document
    of that name, one dirhtml writes there, an ``html_additional_pages`` entry. It stays,
    listed as the page it is, with a warning naming it, which ``-W`` fails on."""
    files = {"about.rst": page("About")}
    if source is not None:
        files[source] = page("Our own map")
    srcdir = write_project(
        git_repo,
        files,
        conf_extra="sitemap_html_page = True\ntemplates_path = ['_templates']\n" + conf,
    )
    git_repo.write(
        "docs/_templates/own.html",
        '{% extends "page.html" %}{% block body %}Our own map{% endblock %}\n',
    )
    git_repo.commit("project", "2024-01-10T09:00:00+00:00")
    outdir = srcdir / "_build" / builder
    done = sphinx_build(srcdir, outdir, builder=builder)
    conflicts = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert len(conflicts) == 1, done.stderr
    assert f"already written to {written}, where the sitemap page goes" in conflicts[0]
    assert (source or "html_additional_pages 'sitemap'") in conflicts[0]
    assert "Our own map" in (outdir / written).read_text("utf-8")
    served = written.removesuffix("index.html")
    assert BASE_URL + served in read_entries(outdir)
    failed = sphinx_build(srcdir, outdir, "-W", builder=builder, check=False)
    assert failed.returncode != 0, failed.stderr
    assert "Our own map" in (outdir / written).read_text("utf-8")


def test_a_file_html_extra_path_copies_there_keeps_its_place(git_repo: GitRepo) -> None:
    """A ``sitemap.html`` Sphinx copies from ``html_extra_path`` is the site's: where the page
    would go over it (``html``) it is not written, with a warning, which ``-W`` fails on;
    ``dirhtml`` writes the page to ``sitemap/index.html``, beside it, without a word."""
    conf = 'sitemap_html_page = True\nhtml_extra_path = ["extra"]\n'
    srcdir = write_project(git_repo, {"about.rst": page("About")}, conf_extra=conf)
    git_repo.write("docs/extra/sitemap.html", "<!DOCTYPE html>\n<title>Ours</title>\nHAND MADE\n")
    git_repo.commit("project", "2024-01-10T09:00:00+00:00")
    outdir = srcdir / "_build" / "html"
    done = sphinx_build(srcdir, outdir, builder="html")
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line]
    assert [line.removesuffix(" [sitemap.conflict]") for line in warnings] == [
        "WARNING: extra/sitemap.html: already written to sitemap.html (html_extra_path), where "
        "the sitemap page goes; sitemap_html_page left it as it is"
    ]
    assert "HAND MADE" in (outdir / "sitemap.html").read_text("utf-8")
    assert BASE_URL + "about.html" in read_entries(outdir)
    failed = sphinx_build(srcdir, outdir, "-W", builder="html", check=False)
    assert failed.returncode != 0, failed.stderr
    assert "HAND MADE" in (outdir / "sitemap.html").read_text("utf-8")
    outdir = srcdir / "_build" / "dirhtml"
    sphinx_build(srcdir, outdir, "-W", builder="dirhtml")
    assert "HAND MADE" in (outdir / "sitemap.html").read_text("utf-8")
    assert "About" in (outdir / "sitemap" / "index.html").read_text("utf-8")


def test_singlehtml_lists_its_one_page(git_repo: GitRepo, tmp_path: Path) -> None:
    root = example(git_repo)
    outdir = root / "_build" / "singlehtml"
    sphinx_build(root, outdir, "-W", builder="singlehtml")
    assert set(read_entries(outdir)) == {BASE_URL + "index.html"}
    check_in_browser(
        outdir,
        "sitemap.html",
        base_url=BASE_URL,
        sitemap_relpath="sitemap.xml",
        titles={BASE_URL + "index.html": "Home"},
        shot=tmp_path / "singlehtml.png",
    )


def test_titles_with_markup_show_as_their_text(git_repo: GitRepo) -> None:
    """Sphinx gives a title as text: shown as written, escaped once, in the listing and as the
    heading of the section its index document names."""
    srcdir = write_project(
        git_repo,
        {
            "fish.rst": page("Fish & *Chips* <3"),
            "kitchen/index.rst": page("Salt & <pepper>") + "\n.. toctree::\n\n   bread\n",
            "kitchen/bread.rst": page("Bread"),
        },
        conf_extra="sitemap_html_page = True\n",
    )
    git_repo.commit("project", "2024-01-10T09:00:00+00:00")
    sphinx_build(srcdir, srcdir / "_build", builder="html")
    text = (srcdir / "_build" / "sitemap.html").read_text("utf-8")
    sections = sections_in(text, BASE_URL + "sitemap.html")
    titles = {item.url: item.title for _, items in sections for item in items}
    assert titles[BASE_URL + "fish.html"] == "Fish & Chips <3"
    assert titles[BASE_URL + "kitchen/index.html"] == "Salt & <pepper>"
    assert "Salt & <pepper>" in [heading for heading, _ in sections]
