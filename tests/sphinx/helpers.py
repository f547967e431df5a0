"""Real Sphinx projects in real git repositories, and reading their sitemaps back.

Builds run the real ``sphinx-build`` command line in a subprocess, through
:func:`tests.support.hosts.sphinx_build`: every build starts from a clean interpreter, as users
run it, and ``-W`` and exit codes behave exactly as in CI.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

from tests.support.gitrepo import GitRepo
from tests.support.sitemap_checks import UrlEntry, check_sitemap_file

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BASE_URL = "https://example.org/"

BASE_CONF = """\
project = "Test"
extensions = ["sitemap_plugins.sphinx"]
exclude_patterns = ["_build"]
html_baseurl = "https://example.org/"
"""

INDEX = """\
Home
====

The home page of a test project.

.. toctree::
   :glob:

   **
"""


def page(title: str, text: str = "A paragraph of text.", fields: str = "") -> str:
    """A reST page; ``fields`` is a field list placed first, where Sphinx reads metadata."""
    head = fields.strip() + "\n\n" if fields else ""
    return f"{head}{title}\n{'=' * len(title)}\n\n{text}\n"


def write_project(
    repo: GitRepo,
    pages: Mapping[str, str],
    *,
    conf_extra: str = "",
    conf: str = BASE_CONF,
    folder: str = "docs",
) -> Path:
    """Write conf.py, index.rst (a glob toctree) and ``pages`` under ``folder``; return srcdir."""
    repo.write(f"{folder}/conf.py", conf + conf_extra)
    if "index.rst" not in pages:
        repo.write(f"{folder}/index.rst", INDEX)
    for name, text in pages.items():
        repo.write(f"{folder}/{name}", text)
    return repo.path(folder)


def read_entries(
    outdir: Path, name: str = "sitemap.xml", base_url: str = BASE_URL
) -> dict[str, UrlEntry]:
    """Every check on the written sitemap (own protocol checks, XSD), then its entries by loc."""
    path = outdir / name
    assert path.is_file(), f"no {name} in {outdir}: {sorted(p.name for p in outdir.iterdir())}"
    entries = check_sitemap_file(path, sitemap_url=base_url + name)
    return {entry.loc: entry for entry in entries}


def canonical_link(page_file: Path) -> str:
    """The canonical link a built page names itself by, as Sphinx writes it."""
    found = re.search(r'<link rel="canonical" href="([^"]+)"', page_file.read_text("utf-8"))
    assert found is not None, page_file
    return found.group(1)
