"""Pages that include files with mkdocs-include-markdown-plugin are as new as those files, in real
builds: ``{% include-markdown "../README.md" %}`` shows the README, whose changes change the page.
"""

from __future__ import annotations

import importlib.metadata
import os
from pathlib import Path

import pytest
from mkdocs.commands.build import build

from tests.indexnow.servers import serve_folder
from tests.mkdocs.helpers import (
    BASE,
    MARK_POST_BUILD,
    load,
    sitemap,
    touch_later,
    write_config,
)
from tests.support.git_trace import GitTrace, git_command
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build

pytestmark = pytest.mark.mkdocs
pytest.importorskip(
    "mkdocs_include_markdown_plugin", reason="mkdocs-include-markdown-plugin is not installed"
)

PLUGIN_VERSION = tuple(
    int(part)
    for part in importlib.metadata.version("mkdocs-include-markdown-plugin").split(".")[:2]
)
PLUGINS = ["sitemap", "include-markdown"]

HOME = BASE
GUIDE = BASE + "guide/"
PLAIN = BASE + "plain/"


def site_with_includes(repo: GitRepo, plugins: list[object] | None = None) -> Path:
    """A site whose home page includes the project's ``README.md`` (beyond ``docs/``, as sites
    show it), and whose guide includes ``includes/outer.md``, which includes ``inner.txt`` in
    turn. Every file was added on 2024-01-01; the README changed on 2024-06-01, the nested
    ``inner.txt`` on 2024-09-09, the plain page (which includes nothing) on 2024-03-03, and
    no page's own source ever again."""
    repo.write("README.md", "The project, in short.\n")
    repo.write("docs/index.md", '# Home\n\n{% include-markdown "../README.md" %}\n')
    repo.write("docs/guide.md", '# Guide\n\n{% include "../includes/outer.md" %}\n')
    repo.write("includes/outer.md", 'Outer part.\n\n{% include "./inner.txt" %}\n')
    repo.write("includes/inner.txt", "Inner part.\n")
    repo.write("docs/plain.md", "# Plain\n")
    write_config(repo, plugins=PLUGINS if plugins is None else plugins)
    repo.commit("a site", "2024-01-01T09:00:00+00:00")
    repo.write("docs/plain.md", "# Plain\n\nIncludes nothing.\n")
    repo.commit("plain", "2024-03-03T09:00:00+00:00")
    repo.write("README.md", "The project, in fewer words.\n")
    repo.commit("readme", "2024-06-01T09:00:00+00:00")
    repo.write("includes/inner.txt", "Inner part, reworded.\n")
    repo.commit("inner", "2024-09-09T09:00:00+00:00")
    return repo.root


def dates(site: Path) -> dict[str, str | None]:
    return {loc: entry.lastmod for loc, entry in sitemap(site).items()}


EXPECTED = {
    HOME: "2024-06-01T09:00:00Z",  # its README
    GUIDE: "2024-09-09T09:00:00Z",  # inner.txt, which outer.md includes
    PLAIN: "2024-03-03T09:00:00Z",  # its own source: it includes nothing
}


def test_a_page_is_as_new_as_the_files_it_includes(git_repo: GitRepo, tmp_path: Path) -> None:
    """The home page's source dates from 2024-01-01, the README it includes from 2024-06-01;
    the guide's nested include from 2024-09-09: each page changed when what it shows did,
    and only that. The included files lie beyond ``docs/``, which the pass begun with the build
    does not cover: it is begun again over them while MkDocs renders, so no git log runs once
    MkDocs is done (a hook notes in the trace when that comes), and the next build at the same
    HEAD reads no history at all and gives the same sitemap."""
    root = site_with_includes(git_repo)
    trace = GitTrace(tmp_path / "trace")
    git_repo.write("hooks/mark.py", MARK_POST_BUILD.format(log=str(trace.log)))
    write_config(git_repo, plugins=PLUGINS, hooks=["hooks/mark.py"])
    mkdocs_build(root, "--strict", env=trace.env)
    site = root / "site"
    assert "The project, in fewer words." in (site / "index.html").read_text("utf-8")
    assert "Inner part, reworded." in (site / "guide/index.html").read_text("utf-8")
    assert dates(site) == EXPECTED
    commands = [git_command(args) for args in trace.commands()]
    assert commands.count("post-build") == 1, commands
    assert "log" not in commands[commands.index("post-build") :], commands
    trace.clear()
    mkdocs_build(root, "--strict", env=trace.env)
    assert dates(site) == EXPECTED
    assert trace.count("log") == 0, trace.commands()


def test_a_file_outside_the_repository_does_not_date_the_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A file the page includes from outside the repository (by an absolute path) has only a
    file time, which is a checkout's or an install's: the page is dated by the files git dates,
    its README, however new the other file looks."""
    root = site_with_includes(git_repo)
    elsewhere = tmp_path / "elsewhere" / "notice.md"
    elsewhere.parent.mkdir()
    elsewhere.write_text("A notice from elsewhere.\n", "utf-8")
    moment = 1_767_268_800  # 2026-01-01T12:00:00Z
    os.utime(elsewhere, (moment, moment))
    home = git_repo.path("docs/index.md")
    home.write_text(home.read_text("utf-8") + f'\n{{% include "{elsewhere}" %}}\n', "utf-8")
    git_repo.commit("the notice", "2024-02-02T09:00:00+00:00")
    mkdocs_build(root, "--strict")
    site = root / "site"
    assert "A notice from elsewhere." in (site / "index.html").read_text("utf-8")
    assert dates(site) == EXPECTED


def test_an_uncommitted_edit_of_an_included_file_dates_the_page_by_its_file_time(
    git_repo: GitRepo,
) -> None:
    """As for a page's own source: an edit git shows in the working tree is dated by its time,
    here of the file the guide includes through another."""
    root = site_with_includes(git_repo)
    inner = git_repo.path("includes/inner.txt")
    inner.write_text("Inner part, not yet committed.\n", "utf-8")
    moment = 1_767_268_800  # 2026-01-01T12:00:00Z
    os.utime(inner, (moment, moment))
    mkdocs_build(root)
    assert dates(root / "site") == {**EXPECTED, GUIDE: "2026-01-01T12:00:00Z"}


def test_fresh_dirty_builds_keep_the_files_each_page_included(git_repo: GitRepo) -> None:
    """``mkdocs build --dirty`` in a fresh process does not render the home page again when
    only the README changed (its source is older than its output), so nothing includes the
    README: the page is listed with the files it included when it was last rendered, as MkDocs
    keeps its HTML, and is dated by the README's new commit. Whatever order the plugins are in."""
    root = site_with_includes(git_repo, plugins=["include-markdown", "sitemap"])
    mkdocs_build(root)
    assert dates(root / "site") == EXPECTED
    git_repo.write("README.md", "The project, in other words.\n")
    git_repo.commit("readme again", "2025-05-05T09:00:00+00:00")
    touch_later(git_repo.path("docs/plain.md"))  # a --dirty build that renders some page
    expected = {**EXPECTED, HOME: "2025-05-05T09:00:00Z"}
    for _ in range(2):  # the first --dirty process reads what the clean build kept, and so on
        mkdocs_build(root, "--dirty")
        assert "in other words" not in (root / "site/index.html").read_text("utf-8")
        assert dates(root / "site") == expected


def test_rebuilds_in_one_process_date_each_page_by_its_own_includes(git_repo: GitRepo) -> None:
    """As ``mkdocs serve`` rebuilds: one config, so one include plugin, whose list of included
    files goes on growing from build to build. The plain page, rendered again, includes
    nothing, whatever the other pages included in the build before; the pages not rendered
    again keep what they included."""
    root = site_with_includes(git_repo)
    config = load(root)
    build(config)
    site = Path(config.site_dir)
    assert dates(site) == EXPECTED
    touch_later(git_repo.path("docs/plain.md"))  # the one page rendered again
    build(config, dirty=True)
    assert dates(site) == EXPECTED


@pytest.mark.skipif(PLUGIN_VERSION < (5, 0), reason="URLs are included from 5.0 on")
def test_an_included_url_dates_nothing(git_repo: GitRepo, tmp_path: Path) -> None:
    """A page that includes a URL (served on loopback here) shows it, and is dated by the files
    it includes, never by the URL, which has no history."""
    served = tmp_path / "served"
    served.mkdir()
    (served / "notice.md").write_text("A notice served over HTTP.\n", "utf-8")
    root = site_with_includes(git_repo)
    with serve_folder(served) as url:
        home = git_repo.path("docs/index.md")
        home.write_text(home.read_text("utf-8") + f'\n{{% include "{url}notice.md" %}}\n', "utf-8")
        git_repo.commit("the served notice", "2024-02-02T09:00:00+00:00")
        mkdocs_build(root, "--strict", env={"NO_PROXY": "*", "no_proxy": "*"})
    site = root / "site"
    assert "A notice served over HTTP." in (site / "index.html").read_text("utf-8")
    assert dates(site) == EXPECTED
