"""``pelican`` in the clones CI makes: shallow, file times of the checkout."""

from __future__ import annotations

import datetime as dt
import shlex
import sys
from pathlib import Path

import pytest

from tests.pelican.helpers import PLAIN_SETTINGS, page, sitemap
from tests.support.ci_history import DEPTHS, CiHistory
from tests.support.deploy_hook import push_to_deploy_hook
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build

pytestmark = pytest.mark.pelican

SOURCES = {role: f"content/pages/{role}.md" for role in ("untouched", "edited", "main", "late")}
PATHS = {role: f"pages/{role}.html" for role in SOURCES}


def page_text(role: str, version: str) -> str:
    return page(role.title(), Summary=f"The {role} page, {version}.")


@pytest.mark.parametrize("case", list(DEPTHS))
def test_a_shallow_clone_dates_what_its_history_proves(
    git_repo: GitRepo, tmp_path: Path, case: str
) -> None:
    settings = {"pelicanconf.py": PLAIN_SETTINGS, ".gitignore": "output/\n"}
    history = CiHistory.write(git_repo, SOURCES, page_text, site_files=settings)
    depth, exact = DEPTHS[case]
    clone = history.origin.clone(tmp_path / "checkout", depth=depth)
    proc = pelican_build(clone.root)
    entries = sitemap(clone.root)
    got = {role: entries[path].lastmod for role, path in PATHS.items()}
    assert got == {role: history.truth[role] if role in exact else None for role in SOURCES}
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert not any((entry.lastmod or "").startswith(today) for entry in entries.values())
    log = proc.stdout + proc.stderr
    warnings = [line for line in log.splitlines() if "WARNING" in line]
    if exact == set(SOURCES):
        assert warnings == []
    else:
        [warning] = warnings
        assert f"{len(SOURCES) - len(exact)} pages have no lastmod: " in warning


def test_a_site_built_by_the_deploy_hook_of_a_bare_repository_is_dated_by_its_history(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """``git push`` to a server whose bare repository's hook checks the branch out apart from
    the repository (no ``.git`` in it) and runs ``pelican`` there: every page gets its last
    commit, never the checkout's file times."""
    settings = {"pelicanconf.py": PLAIN_SETTINGS, ".gitignore": "output/\n"}
    history = CiHistory.write(git_repo, SOURCES, page_text, site_files=settings)
    build = f"{shlex.quote(sys.executable)} -m pelican content -s pelicanconf.py -o output"
    tree, log = push_to_deploy_hook(history.origin, tmp_path / "srv", [build])
    entries = sitemap(tree)
    assert {role: entries[path].lastmod for role, path in PATHS.items()} == history.truth
    assert "WARNING" not in log
