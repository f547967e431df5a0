"""After the build: Sphinx alone, then ``sitemap-plugins generate`` on its output, lists what the
extension lists. Sphinx writes a general index, domain indexes and a search page beside the
documents; ``generate`` must leave them out as the extension does, and spell each URL as the
page's canonical link does (the html builder's ``index.html``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_URL, canonical_link, page, read_entries, write_project
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build

PY = """\
Py
==

.. py:module:: foo

.. py:function:: bar()

   Does bar.

.. index:: term
"""


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_generate_lists_what_the_extension_lists(
    git_repo: GitRepo, tmp_path: Path, builder: str
) -> None:
    """The same URLs as the extension: no ``genindex``, ``py-modindex`` or ``search``, and the
    home page as ``index.html`` with the html builder, as its canonical link names it."""
    srcdir = write_project(
        git_repo,
        {"guide/install.rst": page("Install"), "py.rst": PY},
        conf_extra="html_split_index = False\n",
    )
    git_repo.commit("site", "2024-02-01T10:00:00+00:00")
    out = tmp_path / "out"
    result = sphinx_build(srcdir, out, "-W", builder=builder)
    assert "canonical elsewhere" not in result.stdout
    plugin = read_entries(out)
    for loc in plugin:  # each page listed at the URL its file is served at
        served = out / loc.removeprefix(BASE_URL)
        assert (served / "index.html" if builder == "dirhtml" else served).is_file(), loc
    # What Sphinx wrote (genindex.html, or genindex/index.html), so that leaving them out is
    # about something.
    built = {path.relative_to(out).parts[0].removesuffix(".html") for path in out.rglob("*.html")}
    assert {"genindex", "py-modindex", "search"} <= built
    site = tmp_path / "generated"
    shutil.copytree(out, site)
    (site / "sitemap.xml").unlink()
    done = run("generate", site, "--base-url", BASE_URL, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(read_entries(site)) == set(plugin)


OLD_PAGE = "<!DOCTYPE html>\n<html><head><title>Old</title></head><body>Moved.</body></html>\n"
STUB = (
    '<!DOCTYPE html>\n<html><head><meta http-equiv="refresh" content="0; url=guide/">'
    "</head><body>Moved.</body></html>\n"
)


def test_generate_lists_dirhtml_pages_whose_canonical_link_names_their_html_url(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Sphinx 7.0 to 8.0 write a dirhtml page's canonical link as the html builder names it
    (Sphinx issue 9730): ``guide/index.html`` says ``guide.html``. ``generate`` took every page
    but the home page for canonical elsewhere; it lists them where they are served, as the
    extension does, whatever the site holds at that ``x.html`` (here files of
    ``html_extra_path``: a page of its own, listed too, and a redirect stub to ``guide/`` left
    from the site's html days, left out), and for documents whose names hold ``#`` or ``?``,
    which Sphinx writes into that link unescaped."""
    srcdir = write_project(
        git_repo,
        {
            "guide.rst": page("Guide"),
            "guide/install.rst": page("Install"),
            "old.rst": page("Old"),
            "c#-guide.rst": page("C sharp"),
            "why?.rst": page("Why"),
        },
        conf_extra='html_extra_path = ["extra"]\n',
    )
    git_repo.write("docs/extra/old.html", OLD_PAGE)
    git_repo.write("docs/extra/guide.html", STUB)
    git_repo.commit("site", "2024-02-01T10:00:00+00:00")
    out = tmp_path / "out"
    sphinx_build(srcdir, out, "-W", builder="dirhtml")
    plugin = set(read_entries(out))
    pages = ("", "guide/", "guide/install/", "old/", "c%23-guide/", "why%3F/")
    assert {BASE_URL + path for path in pages} <= plugin
    (out / "sitemap.xml").unlink()
    done = run("generate", out, "--base-url", BASE_URL, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "canonical elsewhere" not in done.stdout + done.stderr
    assert set(read_entries(out)) == plugin | {BASE_URL + "old.html"}


# Sphinx built once per language or version, each into a folder of the site served from its top.
FOLDERS = {"en": "en", "fr": "fr", "1.0": "en"}


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_generate_leaves_out_sphinxs_pages_in_each_language_and_version_folder(
    git_repo: GitRepo, tmp_path: Path, builder: str
) -> None:
    """Built per language (``-D language=fr``) or version into ``site/en/``, ``site/fr/`` and
    ``site/1.0/``, each folder is a Sphinx output: over the whole site, ``generate`` leaves out
    each one's ``genindex``, ``py-modindex`` and ``search``, as it does run on that folder alone.
    A document named ``search`` below a build's top is a page like any other."""
    srcdir = write_project(
        git_repo,
        {"guide/install.rst": page("Install"), "guide/search.rst": page("Search"), "py.rst": PY},
        conf='project = "Test"\nexclude_patterns = ["_build"]\n',
    )
    git_repo.commit("site", "2024-02-01T10:00:00+00:00")
    site = tmp_path / "site"
    for folder, language in FOLDERS.items():
        sphinx_build(srcdir, site / folder, "-D", f"language={language}", builder=builder)
    specials = {"genindex", "py-modindex", "search"}
    for folder in FOLDERS:  # what Sphinx wrote, so that leaving them out is about something
        tops = {path.name for path in (site / folder).iterdir()}
        assert {name + ".html" if builder == "html" else name for name in specials} <= tops

    done = run("generate", site, "--base-url", BASE_URL, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = {loc.removeprefix(BASE_URL) for loc in read_entries(site)}
    alone: set[str] = set()
    for folder in FOLDERS:
        base = f"{BASE_URL}{folder}/"
        done = run("generate", site / folder, "--base-url", base, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        alone |= {
            folder + "/" + loc.removeprefix(base)
            for loc in read_entries(site / folder, base_url=base)
        }
    assert listed == alone
    named = {path.split("/")[1].removesuffix(".html") for path in listed if "/" in path}
    assert not named & specials
    install = "guide/install.html" if builder == "html" else "guide/install/"
    user_search = "guide/search.html" if builder == "html" else "guide/search/"
    for folder in FOLDERS:
        assert {f"{folder}/{install}", f"{folder}/{user_search}"} <= listed


def test_each_language_folders_home_page_is_listed_at_its_folder_as_at_the_sites_top(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A dirhtml build per language, each with its own ``html_baseurl`` (README's recipe), is
    listed over the whole site as over each folder alone: each home page at its folder's URL
    (``en/``), as the extension lists it, even where Sphinx's canonical link names
    ``index.html`` (Sphinx issue 9730, Sphinx 7.0 among others)."""
    srcdir = write_project(
        git_repo,
        {"guide/install.rst": page("Install")},
        conf='project = "Test"\nexclude_patterns = ["_build"]\n',
    )
    git_repo.commit("site", "2024-02-01T10:00:00+00:00")
    site = tmp_path / "site"
    folders = ("en", "fr")
    for folder in folders:
        baseurl = f"html_baseurl={BASE_URL}{folder}/"
        sphinx_build(srcdir, site / folder, "-D", f"language={folder}", "-D", baseurl)
        assert canonical_link(site / folder / "index.html").startswith(f"{BASE_URL}{folder}/")

    done = run("generate", site, "--base-url", BASE_URL, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = set(read_entries(site))
    alone: set[str] = set()
    for folder in folders:
        base = f"{BASE_URL}{folder}/"
        done = run("generate", site / folder, "--base-url", base, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        alone |= set(read_entries(site / folder, base_url=base))
    assert listed == alone
    assert {f"{BASE_URL}{folder}/" for folder in folders} <= listed
    assert not [loc for loc in listed if loc.endswith("index.html")]
