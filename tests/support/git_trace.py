"""A git that writes down every command a build runs, to count the git processes of a real build.

The shim comes first on ``PATH`` in the build's environment, logs its arguments, and hands over
to the real git: the build's answers are git's own. A shell script, not Python, so that each
traced git process costs what an untraced one does.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

__all__ = ["GitTrace", "git_command"]

_SEPARATOR = "\x1f"


class GitTrace:
    """The environment of a traced build (:attr:`env`), and what git was asked to do."""

    def __init__(self, folder: Path) -> None:
        real = shutil.which("git")
        if real is None:
            raise RuntimeError("git is not installed")
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / "git-commands.log"
        shim = folder / "git"
        shim.write_text(
            "#!/bin/sh\n"
            f"IFS='{_SEPARATOR}'\n"
            f'printf "%s\\n" "$*" >> "{self.log}"\n'
            f'exec "{real}" "$@"\n',
            encoding="utf-8",
        )
        shim.chmod(0o755)
        self.env = {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}

    def commands(self) -> list[list[str]]:
        """Every git command since the last :meth:`clear`, in order, as its argument list."""
        if not self.log.exists():
            return []
        lines = self.log.read_text(encoding="utf-8").splitlines()
        return [line.split(_SEPARATOR) for line in lines]

    def count(self, command: str) -> int:
        """How many times ``git <command>`` ran (options before the command skipped)."""
        return sum(git_command(args) == command for args in self.commands())

    def clear(self) -> None:
        self.log.unlink(missing_ok=True)


def git_command(args: list[str]) -> str:
    """``log`` of ``-c x=y log ...``: the git command, past the options before it."""
    words = iter(args)
    for word in words:
        if word == "-c":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""
