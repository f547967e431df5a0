"""A real ``mkdocs serve --dirty``: the served sitemap, first as built, then after an edit.

The other MkDocs tests stand in for ``serve`` with repeated ``build(dirty=True)`` calls in one
process. Here MkDocs runs its own development server in a subprocess, watches the docs folder and
rebuilds on its own, and the sitemap is fetched over HTTP on loopback, as a browser would. The only
network used is ``127.0.0.1``.

``mkdocs serve`` sets ``site_url`` to the address it serves on (so do MkDocs' own sitemap and every
link it renders), so the served sitemap lists ``http://127.0.0.1:<port>/...`` URLs, not the
``https://example.org/`` of ``mkdocs.yml``.
"""

from __future__ import annotations

import datetime as dt
import gzip
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TypeVar

import pytest

from tests.mkdocs.helpers import MKDOCS_VERSION, sitemap, write_config
from tests.support.gitrepo import GitRepo, git_env
from tests.support.hosts import child_env
from tests.support.sitemap_checks import UrlEntry

pytestmark = [
    pytest.mark.mkdocs,
    pytest.mark.skipif(sys.platform == "win32", reason="a POSIX shell wrapper counts git runs"),
]

WAIT = 30.0
"""Seconds to wait for the server to answer, or for a rebuild to show; then the test fails."""

EDITED = "docs/guide/install.md"
EDITED_PATH = "guide/install/"
# MkDocs --dirty re-renders a page only if its source is newer than its output. A date in the
# future is no lastmod (it is refused with a warning), so the edited page's output is dated back
# first, and the edit gets a fixed past date that is newer than that.
OUTPUT_BACKDATED = dt.datetime(2024, 6, 15, 12, 0, tzinfo=dt.timezone.utc)
EDITED_MTIME = dt.datetime(2024, 7, 15, 12, 0, tzinfo=dt.timezone.utc)

# Every page committed on its own date (committer date = lastmod): (path, date, source).
PAGES = [
    ("docs/index.md", "2024-01-10T09:00:00+00:00", "# Home\n\nWelcome.\n"),
    (EDITED, "2024-02-11T09:00:00+00:00", "---\nsitemap:\n  priority: 0.8\n---\n\n# Install\n"),
    ("docs/guide/configure.md", "2024-03-12T09:00:00+00:00", "# Configure\n\nSettings.\n"),
    (
        "docs/reference/options.md",
        "2024-04-13T09:00:00+00:00",
        "---\nsitemap:\n  changefreq: weekly\n---\n\n# Options\n\nEvery option.\n",
    ),
    ("docs/about.md", "2024-05-14T09:00:00+00:00", "# About\n\nUs.\n"),
]
EXPECTED = {  # URL path -> (lastmod, changefreq, priority) before the edit
    "": ("2024-01-10T09:00:00Z", None, None),
    EDITED_PATH: ("2024-02-11T09:00:00Z", None, "0.8"),
    "guide/configure/": ("2024-03-12T09:00:00Z", None, None),
    "reference/options/": ("2024-04-13T09:00:00Z", "weekly", None),
    "about/": ("2024-05-14T09:00:00Z", None, None),
}
EDITED_SOURCE = "---\nsitemap:\n  priority: 0.3\n---\n\n# Install\n\nFreshly rewritten.\n"
SUMMARY = re.compile(r"sitemap: \d+ URLs? in sitemap\.xml\b[^\n]*")

T = TypeVar("T")
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # no proxy, ever


def dirty_flag() -> str:
    """MkDocs 1.5 and 1.6 spell it ``--dirty`` (``--dirtyreload`` stays as a hidden alias)."""
    return "--dirty" if MKDOCS_VERSION >= (1, 5) else "--dirtyreload"


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def fetch(url: str) -> bytes | None:
    """The body at ``url``, or None while the server is not (yet) answering with it."""
    try:
        with _OPENER.open(url, timeout=5) as response:
            body: bytes = response.read()
            return body
    except (OSError, http.client.HTTPException):  # URLError and HTTPError are OSErrors
        return None


class Server:
    """A running ``mkdocs serve`` with its output in a file."""

    def __init__(self, proc: subprocess.Popen[bytes], log: Path, base: str, tmpdir: Path) -> None:
        self.proc = proc
        self.log_path = log
        self.base = base
        self.tmpdir = tmpdir

    def output_times(self) -> dict[str, int]:
        """Each page's output file (in MkDocs' temp site) by URL path: its mtime in ns."""
        [site] = self.tmpdir.glob("mkdocs_*")
        return {path: (site / path / "index.html").stat().st_mtime_ns for path in EXPECTED}

    def backdate_output(self, path: str, when: dt.datetime) -> None:
        """Set the mtime of one page's output file (in MkDocs' temp site)."""
        [site] = self.tmpdir.glob("mkdocs_*")
        os.utime(site / path / "index.html", (when.timestamp(), when.timestamp()))

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def wait_for(self, what: str, check: Callable[[], T | None], timeout: float = WAIT) -> T:
        """Poll ``check`` until it gives a value; fail with the server's output otherwise."""
        deadline = time.monotonic() + timeout
        while True:
            result = check()
            if result is not None:
                return result
            if self.proc.poll() is not None:
                pytest.fail(
                    f"mkdocs serve exited ({self.proc.returncode}) while waiting for {what}; "
                    f"its output:\n{self.log()}"
                )
            if time.monotonic() > deadline:
                pytest.fail(f"no {what} after {timeout:.0f} s; mkdocs serve output:\n{self.log()}")
            time.sleep(0.1)

    def summaries(self) -> list[str]:
        return SUMMARY.findall(self.log())


@contextmanager
def mkdocs_serve(root: Path, scratch: Path) -> Iterator[Server]:
    """``mkdocs serve --dirty`` in ``root``, always stopped; its temp files go under ``scratch``."""
    port = free_port()
    tmpdir = scratch / "tmp"
    tmpdir.mkdir()
    # Without SOURCE_DATE_EPOCH (child_env drops it), which would clamp the mtime this test sets.
    env = child_env({"PYTHONUNBUFFERED": "1", "TMPDIR": str(tmpdir)}, base=git_env())
    env["PATH"] = os.pathsep.join([str(logging_git(scratch)), env.get("PATH", "")])
    args = [sys.executable, "-m", "mkdocs", "serve", dirty_flag(), "-a", f"127.0.0.1:{port}"]
    log = scratch / "serve.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            args,
            cwd=root,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, git children included
        )
    try:
        yield Server(proc, log, f"http://127.0.0.1:{port}/", tmpdir)
    finally:
        stop(proc)


def logging_git(scratch: Path) -> Path:
    """A folder whose ``git`` notes each command line, then runs the real git unchanged.

    Real git still does all the work; the log only lets the test count history walks.
    """
    real = shutil.which("git")
    assert real is not None
    folder = scratch / "bin"
    folder.mkdir()
    wrapper = folder / "git"
    wrapper.write_text(
        f'#!/bin/sh\nprintf "%s\\n" "$*" >> "{scratch / "git-calls.log"}"\nexec "{real}" "$@"\n'
    )
    wrapper.chmod(0o755)
    return folder


def git_log_runs(scratch: Path) -> int:
    """How many times the server ran ``git log`` (with or without ``-c`` options first)."""
    calls = (scratch / "git-calls.log").read_text().splitlines()
    return sum(1 for line in calls if " log " in f" {line} ")


def stop(proc: subprocess.Popen[bytes]) -> None:
    """Ctrl-C the server's process group (MkDocs then removes its temp site), then kill it.

    The group is only signalled while its leader is not yet reaped, so its id cannot be reused.
    """
    if sys.platform == "win32":  # pragma: no cover
        if proc.poll() is None:
            proc.kill()
    else:
        for sig in (signal.SIGINT, signal.SIGKILL):
            if proc.poll() is not None:
                break
            with suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)
            with suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=5)
    proc.wait(timeout=5)


def served_sitemap(
    server: Server, xml: bytes, folder: Path, *, now: dt.datetime | None = None
) -> dict[str, UrlEntry]:
    """Both served files, written to ``folder`` and checked as the build tests check them."""
    folder.mkdir()
    (folder / "sitemap.xml").write_bytes(xml)
    zipped = server.wait_for("sitemap.xml.gz", lambda: fetch(server.base + "sitemap.xml.gz"))
    (folder / "sitemap.xml.gz").write_bytes(zipped)
    assert gzip.decompress(zipped) == xml, "sitemap.xml.gz is not the served sitemap.xml"
    return sitemap(folder, server.base, now=now)


def test_serve_dirty_rebuild_keeps_every_page(git_repo: GitRepo, tmp_path: Path) -> None:
    for relpath, date, text in PAGES:
        git_repo.write(relpath, text)
        git_repo.commit(f"add {relpath}", date, relpath)
    write_config(git_repo)  # site_url https://example.org/, plugins: [sitemap]
    git_repo.commit("config", "2024-06-01T09:00:00+00:00", "mkdocs.yml")

    with mkdocs_serve(git_repo.root, tmp_path) as server:
        url = server.base + "sitemap.xml"
        first_xml = server.wait_for(f"sitemap at {url}", lambda: fetch(url))
        first = served_sitemap(server, first_xml, tmp_path / "first")
        assert set(first) == {server.base + path for path in EXPECTED}, server.log()
        for path, expected in EXPECTED.items():
            entry = first[server.base + path]
            assert (entry.lastmod, entry.changefreq, entry.priority) == expected, path
        server.backdate_output(EDITED_PATH, OUTPUT_BACKDATED)
        rendered = server.output_times()

        # Edit one page, uncommitted, its mtime set before MkDocs can see it: written aside and
        # moved into place, so that the watcher sees one change and never the file half-done.
        staged = tmp_path / "install.md"
        staged.write_text(EDITED_SOURCE, encoding="utf-8")
        os.utime(staged, (EDITED_MTIME.timestamp(), EDITED_MTIME.timestamp()))
        staged.replace(git_repo.path(EDITED))

        second_xml = server.wait_for(
            "change of the served sitemap after the edit",
            lambda: body if (body := fetch(url)) not in (None, first_xml) else None,
        )
        summaries = server.wait_for(
            "second summary line", lambda: s if len(s := server.summaries()) >= 2 else None
        )
        # The edited file is dated EDITED_MTIME, in the future on purpose: judge it as of then.
        second = served_sitemap(server, second_xml, tmp_path / "second", now=EDITED_MTIME)
        page = server.wait_for("re-rendered page", lambda: fetch(server.base + EDITED_PATH) or None)
        log = server.log()
        rerendered = {p for p, ns in server.output_times().items() if ns != rendered[p]}

    # The --dirty rebuild re-rendered one page; every other one must still be listed, unchanged.
    assert rerendered == {EDITED_PATH}, "not a --dirty rebuild of the one edited page"
    assert set(second) == set(first), log
    edited = second[server.base + EDITED_PATH]
    written = EDITED_MTIME.strftime("%Y-%m-%dT%H:%M:%SZ")
    assert (edited.priority, edited.lastmod) == ("0.3", written), log
    assert edited.changefreq is None
    for loc in set(first) - {server.base + EDITED_PATH}:
        assert second[loc] == first[loc], loc
    assert b"Freshly rewritten." in page  # MkDocs really rebuilt the page, not only our sitemap
    assert not any("example.org" in loc for loc in second)  # serve's site_url, see the module
    assert summaries[0].startswith("sitemap: 5 URLs"), summaries
    assert summaries[-1].startswith("sitemap: 5 URLs"), summaries
    assert "mtime 1" in summaries[-1], summaries  # the edited page, from its file time
    assert not [line for line in log.splitlines() if "WARNING" in line and "sitemap" in line]
    # The edit was not committed, so HEAD did not move: the history walk of the first build is
    # reused, and only the work tree is asked again.
    assert git_log_runs(tmp_path) == 1
