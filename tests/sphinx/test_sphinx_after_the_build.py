"""After the build: Sphinx alone, then ``sitemap-plugins generate`` on its output, lists what the
extension lists. Sphinx writes a general index, domain indexes and a search page beside the
documents; ``generate`` must leave them out as the extension does, and spell each URL as the
page's canonical link does (the html builder's ``index.html``)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_URL, page, read_entries, write_project
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
    sphinx_build(srcdir, out, builder=builder)
    plugin = read_entries(out)
    # What Sphinx wrote (genindex.html, or genindex/index.html), so that leaving them out is
    # about something.
    built = {path.relative_to(out).parts[0].removesuffix(".html") for path in out.rglob("*.html")}
    assert {"genindex", "py-modindex", "search"} <= built
    site = tmp_path / "generated"
    shutil.copytree(out, site)
    (site / "sitemap.xml").unlink()
    done = run("generate", site, "--base-url", BASE_URL, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    listed = set(read_entries(site))
    install = out / ("guide/install.html" if builder == "html" else "guide/install/index.html")
    if builder == "dirhtml" and "install.html" in canonical(install):
        # Sphinx issue 9730 (Sphinx 7.0 among others): each page's canonical link names x.html,
        # so generate, which follows the page, leaves the others out; the home page stays /.
        assert listed == {BASE_URL}
        return
    assert listed == set(plugin)


def canonical(page: Path) -> str:
    """The canonical link the built page names itself by."""
    found = re.search(r'<link rel="canonical" href="([^"]+)"', page.read_text("utf-8"))
    assert found is not None, page
    return found.group(1)
