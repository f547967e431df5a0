"""Sites that mkdocs-monorepo-plugin merges from several docs folders, dated by their real sources.

The plugin builds from a temporary copy of every docs folder and points a page back at the file
it copied only when MkDocs renders the page: a ``mkdocs build --dirty`` that skips unchanged pages
must still date them by those files, in git, and keep what they read in.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from tests.mkdocs.helpers import BASE, sitemap, touch_later
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output

pytestmark = pytest.mark.mkdocs
pytest.importorskip("mkdocs_monorepo_plugin", reason="mkdocs-monorepo-plugin is not installed")
pytest.importorskip("pymdownx.snippets", reason="pymdown-extensions is not installed")

SNIPPETS = {"pymdownx.snippets": {"base_path": ["includes"], "check_paths": True}}
PROJECT_HOME = BASE + "project-a/"


def monorepo_site(repo: GitRepo, plugins: list[str]) -> Path:
    """A site whose own docs hold a home page and a guide, and whose nav includes project A's
    docs (a start page that reads ``includes/notice.md`` in, and a usage page). Everything was
    added on 2024-01-01; the notice changed on 2024-03-03, project A's usage page on 2024-06-01."""
    config = {
        "site_name": "Monorepo",
        "site_url": BASE,
        "plugins": plugins,
        "markdown_extensions": [SNIPPETS],
        "nav": [
            {"Home": "index.md"},
            {"Guide": "guide.md"},
            {"Project A": "!include ./projects/a/mkdocs.yml"},
        ],
    }
    repo.write("mkdocs.yml", yaml.safe_dump(config))
    repo.write("docs/index.md", "# Home\n")
    repo.write("docs/guide.md", "# Guide\n")
    project = {"site_name": "project-a", "nav": [{"Start": "index.md"}, {"Usage": "usage.md"}]}
    repo.write("projects/a/mkdocs.yml", yaml.safe_dump(project))
    repo.write("projects/a/docs/index.md", '# A\n\n--8<-- "notice.md"\n')
    repo.write("projects/a/docs/usage.md", "# Usage\n")
    repo.write("includes/notice.md", "A notice.\n")
    repo.write(".gitignore", "site/\n.cache/\n")
    repo.commit("a monorepo site", "2024-01-01T09:00:00+00:00")
    repo.write("includes/notice.md", "A reworded notice.\n")
    repo.commit("notice", "2024-03-03T09:00:00+00:00")
    repo.write("projects/a/docs/usage.md", "# Usage\n\nIn more words.\n")
    repo.commit("usage", "2024-06-01T09:00:00+00:00")
    return repo.root


@pytest.mark.parametrize(
    "plugins", [["monorepo", "sitemap"], ["sitemap", "monorepo"]], ids=["monorepo-first", "last"]
)
def test_fresh_dirty_builds_date_skipped_pages_by_the_files_monorepo_copied(
    git_repo: GitRepo, plugins: list[str]
) -> None:
    """After a clean build, only the guide changes: ``mkdocs build --dirty`` in a fresh process
    renders it alone. Every other page keeps the date of its own source in git (under
    ``docs/`` or ``projects/a/docs/``), and project A's start page that of the notice it read
    in when it was last rendered, in whichever order the plugins run."""
    root = monorepo_site(git_repo, plugins)
    expected = {
        BASE: "2024-01-01T09:00:00Z",
        BASE + "guide/": "2024-01-01T09:00:00Z",
        PROJECT_HOME: "2024-03-03T09:00:00Z",  # the notice it reads in
        PROJECT_HOME + "usage/": "2024-06-01T09:00:00Z",
    }
    mkdocs_build(root, "--strict")
    site = root / "site"
    assert "A reworded notice." in (site / "project-a/index.html").read_text("utf-8")
    assert {loc: entry.lastmod for loc, entry in sitemap(site).items()} == expected
    for page in ("index.html", "project-a/index.html", "project-a/usage/index.html"):
        with open(site / page, "a", encoding="utf-8") as handle:
            handle.write("<!-- from the clean build -->\n")

    guide = git_repo.write("docs/guide.md", "# Guide\n\nIn more words.\n")
    git_repo.commit("guide", "2024-07-01T09:00:00+00:00")
    touch_later(guide)  # the plugin's 1.0 releases copy it with its time cut to the second
    result = mkdocs_build(root, "--dirty")

    for page in ("index.html", "project-a/index.html", "project-a/usage/index.html"):
        assert "from the clean build" in (site / page).read_text("utf-8"), page  # skipped
    assert "In more words." in (site / "guide/index.html").read_text("utf-8")
    dates = {loc: entry.lastmod for loc, entry in sitemap(site).items()}
    assert dates == {**expected, BASE + "guide/": "2024-07-01T09:00:00Z"}
    assert "no lastmod" not in output(result)


@pytest.mark.parametrize(
    "plugins", [["monorepo", "sitemap"], ["sitemap", "monorepo"]], ids=["monorepo-first", "last"]
)
def test_messages_name_the_files_a_user_edits(git_repo: GitRepo, plugins: list[str]) -> None:
    """A warning about a page names the file it was copied from, never the temporary folder
    the plugin merged the docs into, which is gone once the build ends."""
    root = monorepo_site(git_repo, plugins)
    git_repo.write("projects/a/docs/usage.md", "---\nsitemap:\n  priority: 7\n---\n# Usage\n")
    git_repo.write("docs/guide.md", "---\nsitemap:\n  changefreq: often\n---\n# Guide\n")
    git_repo.commit("bad values", "2024-07-01T09:00:00+00:00")
    log = output(mkdocs_build(root))
    warned = sorted(
        line.split("sitemap: ", 1)[1].split(":", 1)[0]
        for line in log.splitlines()
        if line.startswith("WARNING") or line.lstrip().startswith("warning")
    )
    assert warned == ["docs/guide.md", "projects/a/docs/usage.md"], log
