"""Real, throw-away git repositories with commits at chosen dates, for tests.

Lastmod correctness depends on what git itself says about a history, so the tests build real
histories rather than mocking git. Every git process here runs with the user's and the system's
configuration switched off, so that a developer's ``~/.gitconfig`` (signing, hooks, default branch,
``log.showSignature``...) cannot change what a test sees.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path

__all__ = ["GitError", "GitRepo", "git_env", "have_git"]

# Variables that would point git at some other repository or configuration than the one under test
# (they are set, for instance, when the test suite runs from inside a git hook).
_LEAKY = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY")


def have_git() -> bool:
    """Whether a ``git`` executable is on ``PATH``: tests that need one skip without it."""
    return shutil.which("git") is not None


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment for test git processes: isolated from user and system configuration."""
    env = {key: value for key, value in os.environ.items() if key not in _LEAKY}
    for key in list(env):
        if key.startswith(("GIT_AUTHOR_", "GIT_COMMITTER_", "GIT_CONFIG_")):
            del env[key]
    env.update(
        GIT_CONFIG_GLOBAL=os.devnull,
        GIT_CONFIG_NOSYSTEM="1",
        GIT_TERMINAL_PROMPT="0",
        LC_ALL="C",
        TZ="UTC",
    )
    if extra:
        env.update(extra)
    return env


class GitError(RuntimeError):
    """A git command used to build a fixture failed; the message carries git's own stderr."""


class GitRepo:
    """A git work tree at ``root`` whose history a test writes commit by commit.

    Dates are ISO 8601 strings with an offset (``"2024-03-01T12:00:00+02:00"``); git keeps the
    offset, so ``%cI`` gives back exactly what was written.
    """

    def __init__(self, root: Path, *, init: bool = True) -> None:
        self.root = Path(root)
        if init:
            self.root.mkdir(parents=True, exist_ok=True)
            self.git("init", "-q", "-b", "main")
            self.git("config", "user.name", "Test Author")
            self.git("config", "user.email", "author@example.com")
            self.git("config", "commit.gpgsign", "false")
            self.git("config", "tag.gpgsign", "false")
            self.git("config", "core.autocrlf", "false")
            self.git("config", "merge.conflictStyle", "merge")

    # -- plumbing ---------------------------------------------------------------------------

    def run(
        self, *args: str, env: Mapping[str, str] | None = None, check: bool = True
    ) -> subprocess.CompletedProcess[str]:
        """Run git in the work tree and return the completed process (for exit-code checks)."""
        proc = subprocess.run(
            ["git", *args],
            cwd=self.root,
            env=git_env(env),
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
        )
        if check and proc.returncode != 0:
            raise GitError(
                f"git {' '.join(args)} failed ({proc.returncode}) in {self.root}:\n"
                f"{proc.stdout}{proc.stderr}"
            )
        return proc

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        """Run git in the work tree and return its stdout; raise :class:`GitError` on failure."""
        return self.run(*args, env=env).stdout

    @staticmethod
    def _dates(date: str, author_date: str | None, committer_date: str | None) -> dict[str, str]:
        return {
            "GIT_AUTHOR_DATE": author_date or date,
            "GIT_COMMITTER_DATE": committer_date or date,
        }

    # -- work tree --------------------------------------------------------------------------

    def path(self, relpath: str) -> Path:
        """The absolute path of ``relpath`` in the work tree."""
        return self.root / relpath

    def write(self, relpath: str, text: str) -> Path:
        """Write ``text`` (UTF-8, newlines untranslated) to ``relpath``, creating directories."""
        target = self.root / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        return target

    def remove(self, relpath: str) -> None:
        """Delete ``relpath`` from the work tree and the index (committed by the next commit)."""
        self.git("rm", "-q", "--", relpath)

    def move(self, old: str, new: str) -> None:
        """``git mv`` a file, creating the destination's directories."""
        (self.root / new).parent.mkdir(parents=True, exist_ok=True)
        self.git("mv", "--", old, new)

    # -- history ----------------------------------------------------------------------------

    def commit(
        self,
        message: str,
        date: str,
        *paths: str,
        all: bool = True,
        author_date: str | None = None,
        committer_date: str | None = None,
        allow_empty: bool = False,
    ) -> str:
        """Commit and return the new commit's sha.

        With ``paths``, only those paths are staged and committed. Without, ``all=True`` stages
        every change in the work tree (``git add -A``) and ``all=False`` commits the index as is.
        """
        if paths:
            self.git("add", "-A", "--", *paths)
        elif all:
            self.git("add", "-A")
        args = ["commit", "-q", "--no-verify", "-m", message]
        if allow_empty:
            args.append("--allow-empty")
        if paths:
            args += ["--", *paths]
        self.git(*args, env=self._dates(date, author_date, committer_date))
        return self.head()

    def head(self) -> str:
        """The sha HEAD points at."""
        return self.rev("HEAD")

    def rev(self, ref: str) -> str:
        """The full sha of ``ref``."""
        return self.git("rev-parse", "--verify", "-q", f"{ref}^{{commit}}").strip()

    def branch(self, name: str, start: str = "HEAD") -> None:
        """Create branch ``name`` at ``start`` without switching to it."""
        self.git("branch", name, start)

    def checkout(self, ref: str, *, create: bool = False) -> None:
        """Switch to ``ref`` (``create=True``: a new branch at HEAD, like ``checkout -b``)."""
        if create:
            self.git("checkout", "-q", "-b", ref)
        else:
            self.git("checkout", "-q", ref)

    def current_branch(self) -> str:
        """The branch HEAD is on."""
        return self.git("symbolic-ref", "--short", "HEAD").strip()

    def merge(
        self,
        ref: str,
        date: str,
        *,
        message: str | None = None,
        resolve: Mapping[str, str | None] | None = None,
        strategy: str | None = None,
        strategy_option: str | None = None,
        no_ff: bool = True,
        author_date: str | None = None,
        committer_date: str | None = None,
    ) -> str:
        """Merge ``ref`` into the current branch at ``date``; return the resulting HEAD sha.

        ``resolve`` maps paths to the text to commit in the merge (``None`` deletes the path):
        it resolves conflicts by hand, and can also make an "evil" merge that changes a file
        neither side touched. A conflict without a resolution raises :class:`GitError`.
        ``no_ff=False`` allows a fast-forward, in which case no merge commit is made.
        ``strategy="ours"`` records the merge but keeps the current tree (the side is discarded).
        """
        args = ["merge", "-q", "--no-commit", "--no-edit"]
        args.append("--no-ff" if no_ff else "--ff")
        if strategy:
            args += ["-s", strategy]
        if strategy_option:
            args += ["-X", strategy_option]
        dates = self._dates(date, author_date, committer_date)
        proc = self.run(*args, ref, env=dates, check=False)
        merging = self.run("rev-parse", "-q", "--verify", "MERGE_HEAD", check=False)
        if merging.returncode != 0:
            if proc.returncode != 0:
                raise GitError(f"git merge {ref} failed:\n{proc.stdout}{proc.stderr}")
            return self.head()  # fast-forward (or already up to date): nothing to commit
        for relpath, text in (resolve or {}).items():
            if text is None:
                self.git("rm", "-q", "--ignore-unmatch", "--", relpath)
            else:
                self.write(relpath, text)
                self.git("add", "--", relpath)
        unmerged = self.git("diff", "--name-only", "--diff-filter=U").split()
        if unmerged:
            self.run("merge", "--abort", check=False)
            raise GitError(f"merge of {ref} left conflicts without a resolution: {unmerged}")
        self.git("commit", "-q", "--no-verify", "-m", message or f"Merge {ref}", env=dates)
        return self.head()

    def fast_forward(self, ref: str) -> str:
        """Fast-forward the current branch to ``ref`` (fails if that is not possible)."""
        self.git("merge", "-q", "--ff-only", ref)
        return self.head()

    def tag(self, name: str, ref: str = "HEAD") -> None:
        """A lightweight tag."""
        self.git("tag", name, ref)

    # -- what git says, for use as a test oracle --------------------------------------------

    def log_date(self, relpath: str, *, field: str = "committer") -> str:
        """``git log -1 --format=%cI -- relpath`` (``%aI`` for ``field="author"``), or ``""``."""
        fmt = "%aI" if field == "author" else "%cI"
        return self.git("log", "-1", f"--format={fmt}", "--", relpath).strip()

    def tracked_files(self) -> list[str]:
        """Every path in HEAD, relative to the root, as git spells it."""
        out = self.git("-c", "core.quotepath=off", "ls-tree", "-r", "-z", "--name-only", "HEAD")
        return [name for name in out.split("\0") if name]

    def archive(self, dest: Path, revision: str = "HEAD") -> Path:
        """A copy of ``revision``'s tree at ``dest``, made with ``git archive``: the files and
        no ``.git``, as an sdist, a CI artifact or a container image's ``COPY`` leaves them."""
        dest.mkdir(parents=True)
        tar = subprocess.run(
            ["git", "archive", "--format=tar", revision],
            cwd=self.root,
            env=git_env(),
            capture_output=True,
            check=True,
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=tar, check=True)
        return dest

    def clone(
        self,
        dest: Path,
        *,
        depth: int | None = None,
        branch: str | None = None,
        options: Sequence[str] = (),
    ) -> GitRepo:
        """Clone this repository to ``dest`` (``depth`` makes a shallow clone, as CI does;
        ``options`` go to ``git clone``: ``--filter``, ``--recurse-submodules``...).

        Submodules may be cloned from ``file://`` URLs, which git refuses by default."""
        args = ["-c", "protocol.file.allow=always", "clone", "-q", *options]
        if depth is not None:
            args += ["--depth", str(depth)]
        if branch is not None:
            args += ["--branch", branch]
        # file:// so that --depth is honoured (a plain local path ignores it).
        subprocess.run(
            ["git", *args, self.root.resolve().as_uri(), str(dest)],
            env=git_env(),
            capture_output=True,
            check=True,
        )
        clone = GitRepo(dest, init=False)
        clone.git("config", "user.name", "Test Author")
        clone.git("config", "user.email", "author@example.com")
        clone.git("config", "commit.gpgsign", "false")
        return clone
