"""Every version of a site, built by sphinx-multiversion from copies of its commits' trees.

sphinx-multiversion copies each branch and tag it builds out of the repository with
``git archive`` and runs Sphinx on the copy, which holds no ``.git``, with the checkout's own
``conf.py``. Each version's pages must be dated by that version's history, as
``git log -1 VERSION -- FILE`` dates them, and listed under the version's own folder.
sphinx-multiversion 0.2.4 does not run on Sphinx 9: the session of Sphinx 9 does not install it.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_URL, page, read_entries
from tests.support.git_trace import GitTrace
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, run_python
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = [
    pytest.mark.sphinx,
    pytest.mark.skipif(
        importlib.util.find_spec("sphinx_multiversion") is None,
        reason="sphinx-multiversion is not installed here (it does not run on Sphinx 9)",
    ),
]

CONF = """\
project = "Versions"
version = "{version}"
extensions = ["sitemap_plugins.sphinx", "sphinx_multiversion"]
html_baseurl = "https://example.org/"
smv_tag_whitelist = r"^v.*$"
smv_branch_whitelist = r"^main$"
smv_remote_whitelist = None
smv_outputdir_format = "{{config.version}}"
sitemap_url_scheme = "{{version}}{{link}}"
"""
INDEX = "Home\n====\n\n.. toctree::\n   :glob:\n\n   *\n"


def truth(repo: GitRepo, revision: str, source: str) -> str:
    """``git log -1 REVISION -- SOURCE``'s instant, UTC written ``Z`` as the sitemap does."""
    date = repo.git("log", "-1", "--format=%cI", revision, "--", source).strip()
    return date.replace("+00:00", "Z")


def test_each_version_is_dated_by_its_own_history_and_listed_in_its_folder(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    repo = git_repo
    repo.write("docs/conf.py", CONF.format(version="1.0"))
    repo.write("docs/index.rst", INDEX)
    for name in ("guide", "old"):
        repo.write(f"docs/{name}.rst", page(name.title()))
    repo.commit("first release's pages", "2024-01-05T10:00:00+00:00")
    repo.write("docs/guide.rst", page("Guide", "Fixed before the release."))
    repo.commit("fix the guide", "2024-02-01T09:30:00+01:00")
    repo.tag("v1.0")
    repo.checkout("feature", create=True)
    repo.write("docs/index.rst", INDEX + "\nWhat is new.\n")
    repo.commit("index on a branch", "2024-03-01T12:00:00-05:00")
    repo.checkout("main")
    repo.write("docs/guide.rst", page("Guide", "Rewritten for 2.0."))
    repo.write("docs/new.rst", page("New"))
    repo.remove("docs/old.rst")
    repo.write("docs/conf.py", CONF.format(version="2.0"))
    repo.commit("2.0's pages", "2024-04-01T08:00:00+00:00")
    repo.merge("feature", "2024-05-01T08:00:00+00:00")
    out = tmp_path / "site"
    trace = GitTrace(tmp_path / "trace")
    build = run_python("-m", "sphinx_multiversion", "docs", out, cwd=repo.root, env=trace.env)
    assert "WARNING" not in output(build)
    assert trace.count("log") == 2  # one history pass for each version, never a second
    versions = {
        "1.0": ("v1.0", ["index", "guide", "old"]),
        "2.0": ("main", ["index", "guide", "new"]),
    }
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    for folder, (revision, pages) in versions.items():
        entries = read_entries(out / folder, base_url=f"{BASE_URL}{folder}/")
        lastmods = {loc: entry.lastmod for loc, entry in entries.items()}
        assert lastmods == {
            f"{BASE_URL}{folder}/{name}.html": truth(repo, revision, f"docs/{name}.rst")
            for name in pages
        }, folder
        assert not any(lastmod and lastmod.startswith(today) for lastmod in lastmods.values())
    # One index at the root over every version's sitemap, each read back through it.
    index = run_python("-m", "sitemap_plugins", "index", out, "--base-url", BASE_URL, cwd=tmp_path)
    assert "refused" not in output(index)
    listed = check_sitemap_file(
        out / "sitemap.xml", BASE_URL + "sitemap.xml", site_dir=out, base_url=BASE_URL
    )
    assert {entry.loc for entry in listed} == {
        f"{BASE_URL}{folder}/{name}.html"
        for folder, (_, pages) in versions.items()
        for name in pages
    }
    # Changed after the release, on main and on a merged branch: each version its own date.
    assert truth(repo, "v1.0", "docs/guide.rst") != truth(repo, "main", "docs/guide.rst")
    assert truth(repo, "v1.0", "docs/index.rst") != truth(repo, "main", "docs/index.rst")
