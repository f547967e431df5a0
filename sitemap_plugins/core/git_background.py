"""A git command that runs while the host renders, for a history pass started before it is needed.

A clean build's history pass is mostly git's own time (``git log`` over every commit); started
when the host reads its configuration, it runs on another core while the host renders, and the
build only waits for what is left of it at the end. Its output goes to an unnamed temporary file
rather than a pipe: nobody reads it before the end, and a full pipe would stop git.

A process, not a thread: Sphinx forks its parallel workers (``-j``), and a fork taken while a
thread of ours held a lock could hang the worker.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Final

__all__ = ["BackgroundGit", "detached_work_tree", "git_env"]

_REPO_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")
"""Variables that would make git look at another repository than the one found from the file."""
_NO_NETWORK: Final = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""}
"""No lazy fetch from a partial clone's remote. ``GIT_NO_LAZY_FETCH`` stops it before it
starts (git 2.45, and the security releases from 2.39.4 on); where git does not know it, an
empty list of allowed protocols makes the fetch git starts fail before it connects
(``transport 'https' not allowed``), for every protocol and remote helper, whatever the user's
``protocol.*.allow`` settings say."""


def detached_work_tree() -> tuple[str, str] | None:
    """The work tree and repository the caller named with ``GIT_WORK_TREE`` and ``GIT_DIR``
    (real paths), when that work tree holds no ``.git`` of its own.

    Such a tree is a checkout written apart from its repository, as a deploy hook writes one
    (``git --work-tree=/srv/site checkout -f`` in a bare repository on the server): only these
    variables lead its files to their history. Without ``GIT_WORK_TREE``, the repository's own
    ``core.worktree`` names the tree, as it does for git (the other push-to-deploy recipe).
    Anywhere else they are the caller's own business (a git hook running the build inside the
    repository it was called for), and a file's repository is the one found from the file, as
    it would be outside the hook.
    """
    git_dir = os.environ.get("GIT_DIR")
    if not git_dir:
        return None
    git_dir = os.path.realpath(git_dir)
    # A relative GIT_DIR (a hook's ".") read from another folder names no repository.
    if not os.path.isfile(os.path.join(git_dir, "HEAD")):  # noqa: PTH113, PTH118
        return None
    named = os.environ.get("GIT_WORK_TREE")
    if named:
        tree = os.path.realpath(named)  # relative to the folder the build runs in, as for git
    else:
        configured = _configured_work_tree(git_dir)
        if not configured:
            return None
        tree = os.path.realpath(os.path.join(git_dir, configured))  # noqa: PTH118 (relative to it)
    own_repository = os.path.lexists(os.path.join(tree, ".git"))  # noqa: PTH118
    return None if own_repository else (tree, git_dir)


_CORE_SECTION: Final = re.compile(r"\s*\[\s*core\s*\]", re.IGNORECASE)
_SECTION: Final = re.compile(r"\s*\[")
_WORK_TREE: Final = re.compile(r"\s*worktree\s*=\s*(\"[^\"]*\"|[^;#]*)", re.IGNORECASE)


def _configured_work_tree(git_dir: str) -> str | None:
    """``core.worktree`` of the repository's own config file, as written there (a path
    relative to the repository, or absolute); None where it has none."""
    try:
        with open(os.path.join(git_dir, "config"), encoding="utf-8") as config:  # noqa: PTH118
            lines = config.read().splitlines()
    except (OSError, ValueError):
        return None
    found = None
    in_core = False
    for line in lines:
        if _SECTION.match(line):
            in_core = bool(_CORE_SECTION.match(line))
        elif in_core and (value := _WORK_TREE.match(line)):
            found = value.group(1).strip().strip('"') or None
    return found


def git_env(cwd: Path, *, fetch: bool = False) -> dict[str, str]:
    """The environment every git process of ours runs in: C locale, no optional locks, no
    prompt, and no repository overrides, except those naming a :func:`detached_work_tree` for a
    command run inside it (``cwd``) where no ``.git`` of its own lies on the way up.

    Nor does git reach the network, unless the command is a ``fetch`` the user asked for
    (``git_fetch_history``). A partial clone's git fetches any object it lacks from the remote
    as a command needs it: a commit a restored cache names that this clone never fetched, a
    build stalled on a slow remote, hung behind a firewall, objects written into the user's
    clone. :data:`_NO_NETWORK` turns that off, so that such a command fails instead, as it
    would in an ordinary clone, and the caller does what it does there.
    """
    env = {key: value for key, value in os.environ.items() if key not in _REPO_ENV}
    env.update(GIT_OPTIONAL_LOCKS="0", LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_FLUSH="0")
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    if not fetch:
        env.update(_NO_NETWORK)
    detached = detached_work_tree()
    if detached is not None and _below(cwd, detached[0]):
        env["GIT_WORK_TREE"], env["GIT_DIR"] = detached
    return env


def _below(cwd: Path, tree: str) -> bool:
    """Whether ``cwd`` lies in ``tree`` with no ``.git`` on the way up, which git would find
    first without the variables."""
    current = os.path.realpath(cwd)
    while current != tree:
        if os.path.lexists(os.path.join(current, ".git")):  # noqa: PTH118
            return False
        parent = os.path.dirname(current)  # noqa: PTH120
        if parent == current:
            return False
        current = parent
    return True


class BackgroundGit:
    """``git <args>`` started now; :meth:`result` waits for it (:meth:`finish` too, handing over
    the file of its output unread), :meth:`cancel` stops it."""

    def __init__(self, args: Sequence[str], cwd: Path) -> None:
        self.args = list(args)
        # Closed by cancel, or handed to the caller of finish.
        self._out: IO[bytes] | None = tempfile.TemporaryFile()  # noqa: SIM115
        self._err = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            self._proc: subprocess.Popen[bytes] | None = subprocess.Popen(
                ["git", *self.args], cwd=cwd, env=git_env(cwd), stdin=subprocess.DEVNULL,
                stdout=self._out, stderr=self._err,
            )  # fmt: skip
        except OSError:
            self._close()
            raise

    def result(self) -> subprocess.CompletedProcess[bytes] | None:
        """What git printed, as :func:`subprocess.run` gives it; None once cancelled."""
        finished = self.finish()
        if finished is None:
            return None
        done, output = finished
        try:
            with output:
                done.stdout = output.read()
        except OSError:
            return None
        return done

    def finish(self) -> tuple[subprocess.CompletedProcess[bytes], IO[bytes]] | None:
        """Wait for git: its status and what it printed on stderr (``stdout`` left empty),
        and the file its output went to, at its start, for the caller to read and close. A
        long history's ``git log`` prints tens of megabytes, which need not all be in memory
        at once. None once cancelled."""
        proc, output = self._proc, self._out
        if proc is None or output is None:
            return None
        self._proc = None
        try:
            returncode = proc.wait()
            output.seek(0)
            self._err.seek(0)
            err = self._err.read()
        except OSError:
            self._close()
            return None
        self._out = None
        self._err.close()
        return subprocess.CompletedProcess(["git", *self.args], returncode, b"", err), output

    def cancel(self) -> None:
        """Stop git if it still runs (its output is no longer wanted)."""
        proc, self._proc = self._proc, None
        if proc is not None:
            with contextlib.suppress(OSError):
                proc.kill()
                proc.wait()
        self._close()

    def _close(self) -> None:
        if self._out is not None:
            self._out.close()
        self._err.close()

    def __del__(self) -> None:
        # A build that fails before asking for the dates leaves no git process behind.
        with contextlib.suppress(Exception):
            self.cancel()
