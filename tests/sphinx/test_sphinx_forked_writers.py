"""With ``-j``, the main process's objects are frozen while Sphinx's forked writers run.

Each writer inherits the collector's state of the main process; frozen, the objects it holds
are left out of the writers' collections (see :mod:`sitemap_plugins.sphinx.forked_writers`).
A recording extension in ``conf.py`` says, from inside each writer and after the build, what
``gc.get_freeze_count()`` was: the real ``sphinx-build``, forking as users run it.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path
from typing import NamedTuple

import pytest

from tests.sphinx.helpers import page, read_entries, write_project
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build

pytestmark = [
    pytest.mark.sphinx,
    pytest.mark.skipif(not hasattr(os, "fork"), reason="sphinx-build -j forks"),
]

RECORDER = """
import gc, os, pathlib

_RECORD = pathlib.Path(os.environ["RECORD_DIR"])

def _started(app):
    (_RECORD / "main").write_text(str(os.getpid()))

def _page(app, pagename, templatename, context, doctree):
    if doctree is None:
        return
    if pagename == os.environ.get("FAIL_ON_PAGE"):
        raise RuntimeError("a writer fails")
    name = pagename.replace("/", "_")
    (_RECORD / f"page-{os.getpid()}-{name}").write_text(str(gc.get_freeze_count()))

def _finished(app, exception):
    (_RECORD / "after").write_text(str(gc.get_freeze_count()))

def setup(app):
    app.connect("builder-inited", _started)
    app.connect("html-page-context", _page)
    app.connect("build-finished", _finished, priority=999)
"""


class _Recorded(NamedTuple):
    result: subprocess.CompletedProcess[str]
    pages: dict[str, dict[str, int]]
    """Per process ("main" or a writer's pid), each page's freeze count as it saw it."""
    after: int
    """The freeze count after every other handler of build-finished."""


def _build(git_repo: GitRepo, tmp_path: Path, jobs: str, **env: str) -> _Recorded:
    """``sphinx-build -j JOBS`` of a 24-page project, with what the recorder saw."""
    pages = {f"chapter{n:02d}.rst": page(f"Chapter {n}") for n in range(24)}
    srcdir = write_project(git_repo, pages, conf_extra=RECORDER)
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    record = tmp_path / "record"
    record.mkdir()
    result = sphinx_build(
        srcdir, tmp_path / "out", "-j", jobs, env={"RECORD_DIR": str(record), **env}, check=False
    )
    main = (record / "main").read_text()
    seen: dict[str, dict[str, int]] = {}
    for path in record.glob("page-*"):
        _, pid, name = path.name.split("-", 2)
        seen.setdefault("main" if pid == main else pid, {})[name] = int(path.read_text())
    return _Recorded(result, seen, int((record / "after").read_text()))


def test_forked_writers_see_the_main_process_frozen(git_repo: GitRepo, tmp_path: Path) -> None:
    built = _build(git_repo, tmp_path, "2")
    assert built.result.returncode == 0, built.result.stderr
    forked = {pid: seen for pid, seen in built.pages.items() if pid != "main"}
    assert forked, f"no document was written by a forked writer: {built.pages}"
    assert all(count > 0 for seen in forked.values() for count in seen.values()), forked
    assert built.after == 0  # thawed before build-finished's other handlers
    assert len(read_entries(tmp_path / "out")) == 25


def test_a_build_on_one_process_freezes_nothing(git_repo: GitRepo, tmp_path: Path) -> None:
    built = _build(git_repo, tmp_path, "1")
    assert built.result.returncode == 0, built.result.stderr
    assert list(built.pages) == ["main"]
    assert set(built.pages["main"].values()) == {0}
    assert built.after == 0


def test_a_writer_that_fails_still_thaws_the_main_process(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    built = _build(git_repo, tmp_path, "2", FAIL_ON_PAGE="chapter07")
    assert built.result.returncode != 0
    assert "a writer fails" in built.result.stdout + built.result.stderr
    forked = [n for pid, seen in built.pages.items() if pid != "main" for n in seen.values()]
    assert forked
    assert all(count > 0 for count in forked)
    assert built.after == 0
