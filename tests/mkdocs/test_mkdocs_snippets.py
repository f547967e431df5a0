"""Pages that read files in with ``pymdownx.snippets`` are as new as those files, in real builds."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.mkdocs.helpers import (
    BASE,
    MARK_POST_BUILD,
    english_and_french,
    example_repo,
    i18n_version,
    sitemap,
    touch_later,
    write_config,
)
from tests.support.git_trace import GitTrace, git_command
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build

pytestmark = pytest.mark.mkdocs
pytest.importorskip("pymdownx.snippets", reason="pymdown-extensions is not installed")

SNIPPETS = {"pymdownx.snippets": {"base_path": ["includes"], "check_paths": True}}
NOTICE = "includes/notice.md"
CONFIGURE = BASE + "guide/configure/"


DETAIL = """\
--8<-- [start:intro]
{intro}
--8<-- [end:intro]

The rest is not shown.
"""


def site_with_a_snippet(repo: GitRepo) -> Path:
    """The example site, whose configure page reads ``includes/notice.md`` (beyond ``docs/``,
    where sites keep what several pages share) in since 2024-05-20, and the notice a section of
    ``includes/detail.md`` in turn. The notice last changed on 2025-02-03, the section on
    2025-04-04, the page's own source never again."""
    root = example_repo(repo, markdown_extensions=[SNIPPETS])
    repo.write(NOTICE, '!!! note\n    Read the notice.\n\n--8<-- "detail.md:intro"\n')
    repo.write("includes/detail.md", DETAIL.format(intro="In short."))
    configure = repo.path("docs/guide/configure.md")
    repo.write("docs/guide/configure.md", configure.read_text("utf-8") + '\n--8<-- "notice.md"\n')
    repo.commit("share a notice", "2024-05-20T09:00:00+00:00")
    repo.write(NOTICE, '!!! note\n    Read the new notice.\n\n--8<-- "detail.md:intro"\n')
    repo.commit("reword the notice", "2025-02-03T09:00:00+00:00", NOTICE)
    repo.write("includes/detail.md", DETAIL.format(intro="In shorter words."))
    repo.commit("reword the intro", "2025-04-04T09:00:00+00:00")
    return root


def test_a_page_is_as_new_as_the_snippets_it_reads_in(git_repo: GitRepo, tmp_path: Path) -> None:
    """The page's own source dates from 2024-05-20, the section its notice reads in from
    2025-04-04: the page changed then. Pages without snippets keep their own sources' dates.
    The notice lies beyond ``docs/``, which the pass begun with the build does not cover: the
    pass is begun again over it as soon as MkDocs renders the page, so no git log runs once
    MkDocs is done (a hook, which runs before the plugin's post_build, notes in the trace when
    that comes), and the next build at the same HEAD reads no history at all."""
    root = site_with_a_snippet(git_repo)
    trace = GitTrace(tmp_path / "trace")
    git_repo.write("hooks/mark.py", MARK_POST_BUILD.format(log=str(trace.log)))
    write_config(git_repo, markdown_extensions=[SNIPPETS], hooks=["hooks/mark.py"])
    mkdocs_build(root, "--strict", env=trace.env)
    shown = (root / "site/guide/configure/index.html").read_text("utf-8")
    assert "Read the new notice." in shown
    assert "In shorter words." in shown
    assert "The rest is not shown." not in shown
    entries = sitemap(root / "site")
    assert entries[CONFIGURE].lastmod == "2025-04-04T09:00:00Z"
    assert entries[BASE + "guide/install/"].lastmod == "2024-02-11T09:00:00Z"
    assert entries[BASE + "about/"].lastmod == "2024-05-01"  # its front matter's own date
    commands = [git_command(args) for args in trace.commands()]
    assert commands.count("post-build") == 1, commands
    assert "log" not in commands[commands.index("post-build") :], commands
    assert commands.count("log") == 2, commands  # the pass begun, then begun again wider
    trace.clear()
    mkdocs_build(root, "--strict", env=trace.env)
    assert sitemap(root / "site") == entries
    assert trace.count("log") == 0, trace.commands()


def test_a_shallow_clone_dates_a_page_by_the_snippet_its_history_proves(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """CI's clone holds the last two commits: the section the notice reads in changed in the
    newest, inside the window, so the configure page changed then, though its own source and
    the notice last changed before the window (the pass was begun again over the snippets in
    that clone). A page whose only source changed before the window has no lastmod, never a
    checkout or boundary date, and one warning says why."""
    site_with_a_snippet(git_repo)
    clone = git_repo.clone(tmp_path / "checkout", depth=2)
    done = mkdocs_build(clone.root)
    entries = sitemap(clone.root / "site")
    assert entries[CONFIGURE].lastmod == "2025-04-04T09:00:00Z"
    assert entries[BASE + "guide/install/"].lastmod is None
    assert done.stderr.count("is a shallow clone") == 1, done.stderr


def test_an_uncommitted_snippet_edit_dates_the_page_by_its_file_time(git_repo: GitRepo) -> None:
    """As for a page's own source: an edit git shows in the working tree is dated by its time."""
    root = site_with_a_snippet(git_repo)
    notice = git_repo.path(NOTICE)
    notice.write_text("!!! note\n    Read the newest notice.\n", "utf-8")
    moment = 1_767_268_800  # 2026-01-01T12:00:00Z
    os.utime(notice, (moment, moment))
    mkdocs_build(root)
    assert sitemap(root / "site")[CONFIGURE].lastmod == "2026-01-01T12:00:00Z"


def test_fresh_dirty_builds_keep_the_snippets_each_page_read_in(git_repo: GitRepo) -> None:
    """``mkdocs build --dirty`` in a fresh process does not render the configure page again (its
    source is older than its output), so nothing reads the notice in: the page is listed with
    the snippets it read when it was last rendered, as MkDocs keeps its HTML, and its date stays
    theirs. The sitemap is the clean build's, byte for byte."""
    root = site_with_a_snippet(git_repo)
    mkdocs_build(root)
    clean = (root / "site" / "sitemap.xml").read_bytes()
    assert sitemap(root / "site")[CONFIGURE].lastmod == "2025-04-04T09:00:00Z"
    touch_later(git_repo.path("docs/index.md"))
    for _ in range(2):  # the first --dirty process reads what the clean build kept, and so on
        mkdocs_build(root, "--dirty")
        assert (root / "site" / "sitemap.xml").read_bytes() == clean
    touch_later(git_repo.path("docs/guide/configure.md"))  # rendered again: read in again
    mkdocs_build(root, "--dirty")
    assert (root / "site" / "sitemap.xml").read_bytes() == clean


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
def test_each_language_is_as_new_as_its_own_snippets(git_repo: GitRepo) -> None:
    """mkdocs-static-i18n renders the French pages in a build of its own, inside its
    ``on_post_build``: what the French guide reads in still dates it, and only it."""
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/guide.md", '# Guide\n\n--8<-- "notice.md"\n')
    git_repo.write("docs/guide.fr.md", '# Guide\n\n--8<-- "avis.md"\n')
    git_repo.write("includes/notice.md", "Notice.\n")
    git_repo.write("includes/avis.md", "Avis.\n")
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    git_repo.write("includes/avis.md", "Nouvel avis.\n")
    git_repo.commit("avis", "2024-09-09T00:00:00+00:00")
    write_config(
        git_repo,
        plugins=english_and_french(),
        markdown_extensions=[SNIPPETS],
    )
    mkdocs_build(git_repo.root, "--strict")
    site = git_repo.root / "site"
    assert "Nouvel avis." in (site / "fr/guide/index.html").read_text("utf-8")
    dates = {loc: entry.lastmod for loc, entry in sitemap(site).items()}
    assert dates == {
        BASE: "2024-03-01T00:00:00Z",
        BASE + "fr/": "2024-03-01T00:00:00Z",
        BASE + "guide/": "2024-03-01T00:00:00Z",
        BASE + "fr/guide/": "2024-09-09T00:00:00Z",
    }
