"""``sphinx-build`` in the clones CI makes: shallow, file times of the checkout."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_CONF, BASE_URL, read_entries
from tests.support.ci_history import DEPTHS, CiHistory
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build

pytestmark = pytest.mark.sphinx

SOURCES = {
    "untouched": "docs/index.rst",
    "edited": "docs/edited.rst",
    "main": "docs/main.rst",
    "late": "docs/late.rst",
}
URLS = {
    "untouched": BASE_URL,
    "edited": BASE_URL + "edited/",
    "main": BASE_URL + "main/",
    "late": BASE_URL + "late/",
}


def page(role: str, version: str) -> str:
    title = role.title()
    text = f"{title}\n{'=' * len(title)}\n\nThe {role} page, {version}.\n"
    if role == "untouched":
        text += "\n.. toctree::\n   :glob:\n\n   *\n"
    return text


@pytest.mark.parametrize("case", list(DEPTHS))
def test_a_shallow_clone_dates_what_its_history_proves(
    git_repo: GitRepo, tmp_path: Path, case: str
) -> None:
    history = CiHistory.write(git_repo, SOURCES, page, site_files={"docs/conf.py": BASE_CONF})
    depth, exact = DEPTHS[case]
    clone = history.origin.clone(tmp_path / "checkout", depth=depth)
    outdir = tmp_path / "out"
    proc = sphinx_build(clone.path("docs"), outdir)
    entries = {loc: entry.lastmod for loc, entry in read_entries(outdir).items()}
    expected = {URLS[role]: history.truth[role] if role in exact else None for role in URLS}
    assert entries == expected
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert not any(lastmod and lastmod.startswith(today) for lastmod in entries.values())
    warnings = [line for line in proc.stderr.splitlines() if "WARNING" in line]
    if exact == set(URLS):
        assert warnings == []
    else:
        [warning] = warnings
        assert f"{len(URLS) - len(exact)} pages have no lastmod: " in warning
        # -W turns it into an error: the build says so instead of writing a guessed date.
        failed = sphinx_build(clone.path("docs"), tmp_path / "strict", "-W", check=False)
        assert failed.returncode != 0


def test_git_fetch_history_gives_a_shallow_clone_full_dates(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    history = CiHistory.write(git_repo, SOURCES, page, site_files={"docs/conf.py": BASE_CONF})
    remote = tmp_path / "remote.git"
    git_repo.git("clone", "-q", "--bare", str(git_repo.root), str(remote))
    checkout = GitRepo(tmp_path / "remote.git", init=False).clone(tmp_path / "ci", depth=1)
    outdir = tmp_path / "out"
    proc = sphinx_build(checkout.path("docs"), outdir, "-W", "-D", "sitemap_git_fetch_history=1")
    entries = {loc: entry.lastmod for loc, entry in read_entries(outdir).items()}
    assert entries == {URLS[role]: history.truth[role] for role in URLS}
    assert "WARNING" not in proc.stderr
    assert checkout.git("rev-parse", "--is-shallow-repository").strip() == "false"
