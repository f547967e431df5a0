"""Driving the publishing steps of a real build from a test, through environment variables.

A build under test runs in a child process (``mkdocs build``, ``sphinx-build``, ``pelican``, or a
plain Python child for the core). The site's own configuration (a MkDocs hook file, ``conf.py``,
``pelicanconf.py``) calls :func:`install_from_environment`, which sets the core's
``publish.step_hook`` so that the test can, without any test code in the package:

``SITEMAP_TEST_STEPS=<file>``
    append the name of every step to ``file`` (to count them);
``SITEMAP_TEST_KILL_AT=<n>``
    kill the process with SIGKILL right after step ``n`` (counting every step but the removal
    of an earlier build's leftovers, so that ``n`` means the same whatever a killed run left);
``SITEMAP_TEST_AT_START=<action>``
    once publishing has started (the folder is locked, nothing written yet) make the disk hostile:
    ``fill:<folder>:<bytes>`` fills the file system of ``folder`` (a small tmpfs) until only that
    many bytes are free; ``enospc:<bytes>`` makes every write of a sitemap file fail with ENOSPC
    once that many bytes were written (where no tmpfs can be mounted); ``readonly:<folder>``
    makes ``folder`` read-only (``chattr +i`` as root, where permissions do not apply).

Only the standard library is imported here: every child build imports this module.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
from pathlib import Path
from typing import Any

__all__ = ["FILLER", "install_from_environment"]

FILLER = ".disk-filler"
"""The file that ``fill:`` writes; a test removes it to make room again."""


def install_from_environment() -> None:
    """Install the step hook the environment asks for (see the module); nothing otherwise."""
    from sitemap_plugins.core import publish

    steps_file = os.environ.get("SITEMAP_TEST_STEPS")
    kill_at = int(os.environ.get("SITEMAP_TEST_KILL_AT") or 0)
    at_start = os.environ.get("SITEMAP_TEST_AT_START", "")
    if not (steps_file or kill_at or at_start):
        return
    counted = 0

    def hook(step: str) -> None:
        nonlocal counted
        if steps_file:
            with open(steps_file, "a", encoding="utf-8") as log:
                log.write(step + "\n")
        if step == "start" and at_start:
            _make_hostile(at_start)
        if step.startswith("clean "):
            return
        counted += 1
        if counted == kill_at:
            os.kill(os.getpid(), signal.SIGKILL)

    publish.step_hook = hook


def _make_hostile(action: str) -> None:
    kind, _, argument = action.partition(":")
    if kind == "fill":
        folder, _, room = argument.rpartition(":")
        fill(Path(folder), int(room))
    elif kind == "enospc":
        fail_writes_after(int(argument))
    elif kind == "readonly":
        make_read_only(Path(argument))
    else:
        raise ValueError(f"unknown SITEMAP_TEST_AT_START action {action!r}")


def fill(folder: Path, room: int) -> None:
    """Fill the file system of ``folder`` until about ``room`` bytes are left."""
    info = os.statvfs(folder)
    free = info.f_bavail * info.f_frsize
    with open(folder / FILLER, "wb") as filler:
        left = free - room
        block = b"\0" * (1 << 16)
        while left > 0:
            try:
                left -= filler.write(block[: min(left, len(block))])
            except OSError as error:
                if error.errno == errno.ENOSPC:
                    break
                raise
            filler.flush()


def fail_writes_after(room: int) -> None:
    """Make every sitemap file's writes fail with ENOSPC past ``room`` bytes in all, as a full
    disk does: the real ``TempFile`` code gets a real ``OSError`` from its stream."""
    from sitemap_plugins.core import publish

    state = {"written": 0}
    original = publish.TempFile.__init__

    class FullDisk:
        def __init__(self, stream: Any) -> None:
            self.stream = stream

        def write(self, data: bytes) -> int:
            if state["written"] + len(data) > room:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
            state["written"] += len(data)
            return int(self.stream.write(data))

        def __getattr__(self, name: str) -> Any:
            return getattr(self.stream, name)

    def init(self: Any, path: Path, label: Path) -> None:
        original(self, path, label)
        self._stream = FullDisk(self._stream)

    publish.TempFile.__init__ = init  # type: ignore[method-assign]


def make_read_only(folder: Path) -> None:
    """Make ``folder`` read-only for this process: by permissions, or, for root (whom
    permissions do not stop), by the immutable attribute."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i", str(folder)], check=True, capture_output=True)
    else:
        folder.chmod(0o555)
