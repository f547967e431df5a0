"""``pelican`` in the clones CI makes: shallow, file times of the checkout, no git."""

from __future__ import annotations

import datetime as dt
import shlex
import sys
from pathlib import Path

import pytest

from tests.pelican.helpers import PLAIN_SETTINGS, page, plain_repo, post, sitemap
from tests.support.ci_history import DEPTHS, CiHistory
from tests.support.deploy_hook import push_to_deploy_hook
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, pelican_build

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
        # The pages, and the listings (index, archives...), which an article gone before the
        # clone's history would have changed.
        undated = sum(entry.lastmod is None for entry in entries.values())
        assert undated > len(SOURCES) - len(exact)
        assert f"{undated} pages have no lastmod: " in warning


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


@pytest.mark.parametrize("where", ["copy", "no git"])
def test_listings_are_not_dated_older_than_an_article_git_cannot_date(
    git_repo: GitRepo, tmp_path: Path, where: str
) -> None:
    """An article without a ``Date:`` of its own (``DEFAULT_DATE`` fills one in, which dates
    nothing) is dated by git. In a copy of the site without ``.git`` (an sdist, a container's
    COPY), or with no git installed, nothing dates it, and it may be the newest article: the
    listings that show it get no lastmod, as in a shallow clone, never the date of the other
    article, older than their last change."""
    site = plain_repo(
        git_repo,
        {"content/x.md": post("X", "2024-06-01")},
        'DEFAULT_DATE = "fs"\n',
        date="2024-06-01T10:00:00+00:00",
    )
    git_repo.write("content/y.md", "Title: Y\nCategory: News\nTags: misc\n\nNo date here.\n")
    git_repo.commit("Y", "2024-08-01T10:00:00+00:00")
    listings = ("", "archives.html", "category/news.html", "tag/misc.html")
    pelican_build(site)
    truth = sitemap(site)
    assert {path: truth[path].lastmod for path in listings} == dict.fromkeys(
        listings, "2024-08-01T10:00:00Z"
    )
    env = None
    if where == "copy":
        site = git_repo.archive(tmp_path / "copy")
    else:
        (tmp_path / "bin").mkdir()
        env = {"PATH": str(tmp_path / "bin")}
    pelican_build(site, env=env)
    entries = sitemap(site)
    assert {path: entries[path].lastmod for path in listings} == dict.fromkeys(listings)
    assert entries["x.html"].lastmod == "2024-06-01T00:00:00Z"  # the date it declares
    assert entries["y.html"].lastmod is None


@pytest.mark.parametrize("where", ["shallow clone", "copy", "no git"])
def test_the_line_that_says_why_counts_the_listings_left_undated_too(
    git_repo: GitRepo, tmp_path: Path, where: str
) -> None:
    """Articles without a ``Date:`` of their own (``DEFAULT_DATE = "fs"``), built where git
    cannot date them: the index, the archives, the category and tag pages are left without
    lastmod with them, and the one line that says why counts them all, as the sitemap shows
    them."""
    site = plain_repo(
        git_repo,
        {"content/one.md": "Title: One\nCategory: first\nTags: misc\n\nOne.\n"},
        'DEFAULT_DATE = "fs"\nDIRECT_TEMPLATES = ["index", "archives"]\nAUTHOR_SAVE_AS = ""\n',
        date="2024-01-01T10:00:00+00:00",
    )
    git_repo.write("content/two.md", "Title: Two\nCategory: second\nTags: misc\n\nTwo.\n")
    git_repo.commit("two", "2024-02-01T10:00:00+00:00")
    git_repo.write("notes.txt", "not a page\n")
    git_repo.commit("notes", "2024-03-01T10:00:00+00:00")
    env = None
    if where == "shallow clone":
        site = git_repo.clone(tmp_path / "checkout", depth=1).root
    elif where == "copy":
        site = git_repo.archive(tmp_path / "copy")
    else:
        (tmp_path / "bin").mkdir()
        env = {"PATH": str(tmp_path / "bin")}
    log = output(pelican_build(site, "--verbose", env=env))
    entries = sitemap(site)
    undated = [path for path, entry in entries.items() if entry.lastmod is None]
    assert {"", "archives.html", "category/first.html", "tag/misc.html"} <= set(undated)
    [said] = [" ".join(line.split()) for line in log.splitlines() if "no lastmod" in line]
    assert f"sitemap: {len(undated)} pages have no lastmod: " in said
    assert ("WARNING" in said) == (where != "copy")  # a copy's is an info line
