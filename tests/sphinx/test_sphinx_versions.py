"""Every version of a site, built from copies of its commits' trees by a versioning tool.

sphinx-multiversion copies each branch and tag it builds out of the repository with
``git archive`` and runs Sphinx on the copy with the checkout's own ``conf.py``;
sphinx-polyversion copies a worktree of each into a temporary folder and runs ``sphinx-build``
there. Neither copy holds a ``.git``. Each version's pages must be dated by that version's
history, as ``git log -1 VERSION -- FILE`` dates them, and listed under the version's folder.
sphinx-multiversion 0.2.4 does not run on Sphinx 9: the session of Sphinx 9 does not install it.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import os
import sys
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_URL, canonical_link, page, read_entries
from tests.support.git_trace import GitTrace
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, run_python
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.sphinx

MULTIVERSION_CONF = """\
project = "Versions"
version = "{version}"
extensions = ["sitemap_plugins.sphinx", "sphinx_multiversion"]
smv_tag_whitelist = r"^v.*$"
smv_branch_whitelist = r"^main$"
smv_remote_whitelist = None
smv_outputdir_format = "{{config.version}}"
sitemap_url_scheme = "{{version}}{{link}}"
"""
# sphinx-polyversion hands each build its revision; the folder it writes to is the ref's name.
POLYVERSION_CONF = """\
import sphinx_polyversion.git
from sphinx_polyversion.api import load

load(globals())
project = "Versions"
version = html_context["current"].name
extensions = ["sitemap_plugins.sphinx"]
html_baseurl = f"https://example.org/{{version}}/"
sitemap_url_scheme = "{{version}}{{link}}"
"""
POLYVERSION_DRIVER = """\
from pathlib import Path

from sphinx_polyversion.driver import DefaultDriver
from sphinx_polyversion.environment import Environment
from sphinx_polyversion.git import Git, file_predicate
from sphinx_polyversion.sphinx import SphinxBuilder

DefaultDriver(
    Path({root!r}),
    {output!r},
    vcs=Git(branch_regex=r"^main$", tag_regex=r"^v.*$", predicate=file_predicate([Path("docs")])),
    builder=SphinxBuilder(Path("docs")),
    env=Environment.factory(),
).run(False, True)
"""
INDEX = "Home\n====\n\n.. toctree::\n   :glob:\n\n   *\n"


def truth(repo: GitRepo, revision: str, source: str) -> str:
    """``git log -1 REVISION -- SOURCE``'s instant, UTC written ``Z`` as the sitemap does."""
    date = repo.git("log", "-1", "--format=%cI", revision, "--", source).strip()
    return date.replace("+00:00", "Z")


def write_history(repo: GitRepo, conf: str) -> None:
    """``v1.0``, then on ``main`` a page rewritten, one added, one removed, and a branch merged
    that changed the index; ``conf`` holds ``{version}``, the version each ref's conf.py says."""
    repo.write("docs/conf.py", conf.format(version="1.0"))
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
    repo.write("docs/conf.py", conf.format(version="2.0"))
    repo.commit("2.0's pages", "2024-04-01T08:00:00+00:00")
    repo.merge("feature", "2024-05-01T08:00:00+00:00")
    # Changed after the release, on main and on a merged branch: each version its own date.
    assert truth(repo, "v1.0", "docs/guide.rst") != truth(repo, "main", "docs/guide.rst")
    assert truth(repo, "v1.0", "docs/index.rst") != truth(repo, "main", "docs/index.rst")


def commits_resolved(trace: GitTrace) -> list[list[str]]:
    """Our ``git rev-parse`` of a version's commit, one per time it was asked."""
    return [args for args in trace.commands() if args and args[-1].endswith("^{commit}")]


def check_versions(repo: GitRepo, out: Path, folders: dict[str, str], tmp_path: Path) -> None:
    """Each version's sitemap (its folder -> its ref) lists its own pages under its folder, each
    dated by that ref's history; one index at the root lists them all, read back through it."""
    pages = {"v1.0": ["index", "guide", "old"], "main": ["index", "guide", "new"]}
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    for folder, revision in folders.items():
        entries = read_entries(out / folder, base_url=f"{BASE_URL}{folder}/")
        lastmods = {loc: entry.lastmod for loc, entry in entries.items()}
        assert lastmods == {
            f"{BASE_URL}{folder}/{name}.html": truth(repo, revision, f"docs/{name}.rst")
            for name in pages[revision]
        }, folder
        assert not any(lastmod and lastmod.startswith(today) for lastmod in lastmods.values())
        for loc in entries:  # each listed where its canonical link says it is
            assert canonical_link(out / folder / loc.removeprefix(f"{BASE_URL}{folder}/")) == loc
    index = run_python("-m", "sitemap_plugins", "index", out, "--base-url", BASE_URL, cwd=tmp_path)
    assert "refused" not in output(index)
    listed = check_sitemap_file(
        out / "sitemap.xml", BASE_URL + "sitemap.xml", site_dir=out, base_url=BASE_URL
    )
    assert {entry.loc for entry in listed} == {
        f"{BASE_URL}{folder}/{name}.html"
        for folder, revision in folders.items()
        for name in pages[revision]
    }


@pytest.mark.skipif(
    importlib.util.find_spec("sphinx_multiversion") is None,
    reason="sphinx-multiversion is not installed here (it does not run on Sphinx 9)",
)
def test_sphinx_multiversion_dates_each_version_by_its_own_history(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    write_history(git_repo, MULTIVERSION_CONF)
    out = tmp_path / "site"
    trace = GitTrace(tmp_path / "trace")
    # Each version served in its folder, its html_baseurl: sphinx-multiversion fills ${version}.
    baseurl = "html_baseurl=https://example.org/${version}/"
    build = run_python(
        "-m", "sphinx_multiversion", "docs", out, "-D", baseurl, cwd=git_repo.root, env=trace.env
    )
    assert "WARNING" not in output(build)
    assert trace.count("log") == 2  # one history pass for each version, never a second
    assert len(commits_resolved(trace)) == 2  # begun early, the lookup asks again for nothing
    check_versions(git_repo, out, {"1.0": "v1.0", "2.0": "main"}, tmp_path)


@pytest.mark.skipif(
    importlib.util.find_spec("sphinx_polyversion") is None,
    reason="sphinx-polyversion is not installed here",
)
def test_sphinx_polyversion_dates_each_version_by_its_own_history(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    write_history(git_repo, POLYVERSION_CONF)
    out = tmp_path / "site"
    driver = tmp_path / "poly.py"
    driver.write_text(POLYVERSION_DRIVER.format(root=str(git_repo.root), output=str(out)), "utf-8")
    trace = GitTrace(tmp_path / "trace")
    # It runs `sphinx-build` by name: this interpreter's, after the traced git.
    path = os.pathsep.join(
        [str(tmp_path / "trace"), str(Path(sys.executable).parent), os.environ.get("PATH", "")]
    )
    build = run_python("-m", "sphinx_polyversion", driver, cwd=git_repo.root, env={"PATH": path})
    assert "WARNING" not in output(build)
    assert trace.count("log") == 2  # one history pass for each version, never a second
    assert len(commits_resolved(trace)) == 2  # begun early, the lookup asks again for nothing
    check_versions(git_repo, out, {"v1.0": "v1.0", "main": "main"}, tmp_path)
