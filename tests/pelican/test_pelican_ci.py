"""``pelican`` in the clones CI makes: shallow, file times of the checkout."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.pelican.helpers import PLAIN_SETTINGS, page, sitemap
from tests.support.ci_history import DEPTHS, CiHistory
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
