"""Pages into which mkdocs-macros-plugin includes files are as new as those files, in real builds:
``{% include 'notice.md' %}`` shows the notice, whose changes change the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mkdocs.helpers import BASE, sitemap, touch_later, write_config
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build

pytestmark = pytest.mark.mkdocs
pytest.importorskip("mkdocs_macros", reason="mkdocs-macros-plugin is not installed")

HOME = BASE
GUIDE = BASE + "guide/"
PLAIN = BASE + "plain/"
QUIET = BASE + "quiet/"


def site_with_macros(repo: GitRepo, **macros: object) -> Path:
    """A site whose home page includes ``notice.md`` from the macros plugin's ``include_dir``,
    whose guide includes ``outer.md``, which includes ``inner.md`` in turn, and whose quiet page
    includes the notice too but says ``render_macros: false``, so the plugin shows the include
    as it is written. Every file was added on 2024-01-01; the plain page (which includes
    nothing) changed on 2024-03-03, the notice on 2024-06-01, the nested ``inner.md`` on
    2024-09-09, and no page's own source ever again. ``macros`` are the plugin's settings."""
    repo.write("docs/index.md", "# Home\n\n{% include 'notice.md' %}\n")
    repo.write("docs/guide.md", "# Guide\n\n{% include 'outer.md' %}\n")
    repo.write(
        "docs/quiet.md", "---\nrender_macros: false\n---\n# Quiet\n\n{% include 'notice.md' %}\n"
    )
    repo.write("docs/plain.md", "# Plain\n")
    repo.write("includes/notice.md", "A notice.\n")
    repo.write("includes/outer.md", "Outer part.\n\n{% include 'inner.md' %}\n")
    repo.write("includes/inner.md", "Inner part.\n")
    write_config(repo, plugins=["sitemap", {"macros": {"include_dir": "includes", **macros}}])
    repo.commit("a site", "2024-01-01T09:00:00+00:00")
    repo.write("docs/plain.md", "# Plain\n\n{{ 'Includes nothing.' }}\n")
    repo.commit("plain", "2024-03-03T09:00:00+00:00")
    repo.write("includes/notice.md", "A notice, reworded.\n")
    repo.commit("notice", "2024-06-01T09:00:00+00:00")
    repo.write("includes/inner.md", "Inner part, reworded.\n")
    repo.commit("inner", "2024-09-09T09:00:00+00:00")
    return repo.root


def dates(site: Path) -> dict[str, str | None]:
    return {loc: entry.lastmod for loc, entry in sitemap(site).items()}


EXPECTED = {
    HOME: "2024-06-01T09:00:00Z",  # its notice
    GUIDE: "2024-09-09T09:00:00Z",  # inner.md, which outer.md includes
    PLAIN: "2024-03-03T09:00:00Z",  # its own source: a macro, but no include
    QUIET: "2024-01-01T09:00:00Z",  # its own source: macros does not render it
}


def test_a_page_is_as_new_as_the_files_macros_includes_in_it(git_repo: GitRepo) -> None:
    """The home page's source dates from 2024-01-01, the notice it includes from 2024-06-01;
    the guide's nested include from 2024-09-09: each page changed when what it shows did, and
    only that. A page macros renders without an include, and one it does not render, keep
    their own sources' dates."""
    root = site_with_macros(git_repo)
    mkdocs_build(root, "--strict")
    site = root / "site"
    assert "A notice, reworded." in (site / "index.html").read_text("utf-8")
    assert "Inner part, reworded." in (site / "guide/index.html").read_text("utf-8")
    assert "Includes nothing." in (site / "plain/index.html").read_text("utf-8")
    quiet = (site / "quiet/index.html").read_text("utf-8")
    assert "notice.md" in quiet
    assert "A notice" not in quiet
    assert dates(site) == EXPECTED


def test_where_pages_opt_in_only_theirs_count(git_repo: GitRepo) -> None:
    """With ``render_by_default: false`` macros renders only the pages that say
    ``render_macros: true``: the home page that opts in is dated by its notice, the guide that
    does not is shown as written and keeps its own date."""
    root = site_with_macros(git_repo, render_by_default=False)
    home = git_repo.path("docs/index.md")
    home.write_text("---\nrender_macros: true\n---\n" + home.read_text("utf-8"), "utf-8")
    git_repo.commit("the home page opts in", "2024-02-02T09:00:00+00:00")
    mkdocs_build(root, "--strict")
    site = root / "site"
    assert "A notice, reworded." in (site / "index.html").read_text("utf-8")
    assert "Inner part" not in (site / "guide/index.html").read_text("utf-8")
    assert dates(site) == {
        **EXPECTED,
        HOME: "2024-06-01T09:00:00Z",  # its notice, newer than its own opting in
        GUIDE: "2024-01-01T09:00:00Z",  # not rendered: its own source
    }


def test_fresh_dirty_builds_keep_the_files_macros_included(git_repo: GitRepo) -> None:
    """``mkdocs build --dirty`` in a fresh process does not render the home page again when
    only its notice changed (its source is older than its output): the page is listed with the
    files macros included in it when it was last rendered, and dated by the notice's new
    commit."""
    root = site_with_macros(git_repo)
    mkdocs_build(root)
    assert dates(root / "site") == EXPECTED
    git_repo.write("includes/notice.md", "A notice, in other words.\n")
    git_repo.commit("notice again", "2025-05-05T09:00:00+00:00")
    touch_later(git_repo.path("docs/plain.md"))  # a --dirty build that renders some page
    expected = {**EXPECTED, HOME: "2025-05-05T09:00:00Z"}
    for _ in range(2):  # the first --dirty process reads what the clean build kept, and so on
        mkdocs_build(root, "--dirty")
        assert "in other words" not in (root / "site/index.html").read_text("utf-8")
        assert dates(root / "site") == expected
