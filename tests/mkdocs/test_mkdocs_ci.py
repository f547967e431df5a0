"""``mkdocs build`` in the clones CI makes: shallow, file times of the checkout."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
import yaml

from tests.support.ci_history import DEPTHS, CiHistory
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.mkdocs

BASE = "https://example.org/"
SOURCES = {
    "untouched": "docs/index.md",
    "edited": "docs/edited.md",
    "main": "docs/main.md",
    "late": "docs/late.md",
}
URLS = {
    "untouched": BASE,
    "edited": BASE + "edited/",
    "main": BASE + "main/",
    "late": BASE + "late/",
}
CONFIG = {"site_name": "CI", "site_url": BASE, "plugins": ["sitemap"]}


def page(role: str, version: str) -> str:
    return f"# {role.title()}\n\nThe {role} page, {version}.\n"


@pytest.mark.parametrize("case", list(DEPTHS))
def test_a_shallow_clone_dates_what_its_history_proves(
    git_repo: GitRepo, tmp_path: Path, case: str
) -> None:
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    depth, exact = DEPTHS[case]
    clone = history.origin.clone(tmp_path / "checkout", depth=depth)
    log = output(mkdocs_build(clone.root))  # the real command line, as a CI step runs it
    entries = {
        e.loc: e.lastmod
        for e in check_sitemap_file(clone.root / "site" / "sitemap.xml", BASE + "sitemap.xml")
    }
    expected = {URLS[role]: history.truth[role] if role in exact else None for role in URLS}
    assert entries == expected
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert not any(lastmod and lastmod.startswith(today) for lastmod in entries.values())
    warnings = [
        line for line in log.splitlines() if line.startswith("WARNING") and "sitemap" in line
    ]
    if exact == set(URLS):
        assert warnings == []
    else:
        [warning] = warnings
        undated = len(URLS) - len(exact)
        assert f"sitemap: {undated} pages have no lastmod: " in warning
        assert "fetch-depth: 0" in warning


def test_without_git_on_path_a_work_tree_gets_one_warning_and_no_dates(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    no_git = tmp_path / "bin"
    no_git.mkdir()
    log = output(mkdocs_build(history.origin.root, env={"PATH": str(no_git)}))
    site = history.origin.root / "site"
    entries = check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert [entry.lastmod for entry in entries] == [None] * len(URLS)
    [warning] = [line for line in log.splitlines() if line.startswith("WARNING")]
    assert f"sitemap: {len(URLS)} pages have no lastmod: " in warning
    assert "git was not found" in warning
