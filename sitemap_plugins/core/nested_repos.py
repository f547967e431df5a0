"""Which git repositories inside the sources' own repository date the pages' files they hold.

Only files in the repositories that hold the site's sources date a page: a file time in an
installed package, the standard library or beside the checkout records an install or a copy.
A work tree can hold other repositories too, and they are of two kinds:

- the project's own files kept in a repository of their own: a submodule (translations kept
  apart, as python-docs-fr is, in ``locales/fr``), or a clone of them the outer repository
  ignores, in the folder the host reads translations from. Their own commits date them, as a
  page's own source in a submodule is dated;
- installed packages: ``pip install -e git+...`` checks a theme or an extension out into
  ``.venv/src/NAME/``, a git clone like any other, which dates nothing.

So a nested repository counts when the repository around it counts and it is a submodule
registered there (its repository kept in the outer one's ``modules``, or a gitlink in the
outer index), or it lies under a folder the host reads sources or
translations from (Sphinx's source folder and ``locale_dirs``), or holds one; and never when it
lies in a Python environment (a virtualenv, a conda environment, ``site-packages``).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Final

__all__ = ["NestedRepositories"]

_PACKAGE_FOLDERS: Final = frozenset({"site-packages", "dist-packages"})


class NestedRepositories:
    """Decides, once per repository of a lookup, whether one nested in the sources' repositories
    dates the files it holds.

    ``folders`` are the resolved folders the host reads sources and translations from;
    ``find_root`` gives the work tree holding a resolved folder (the lookup's own search, with its
    memory), ``is_submodule`` whether a path (relative to a work tree's top) is a submodule
    that work tree registers. That is a git process, and a build should cost none it does not
    need: a submodule is told by its ``.git`` file (see :func:`_module_of`), so
    ``is_submodule`` is asked only of a nested repository whose ``.git`` is a folder, in one
    that counts, outside any Python environment, when no folder decides.
    """

    def __init__(
        self,
        folders: Iterable[str],
        find_root: Callable[[str], Path | None],
        is_submodule: Callable[[Path, str], bool],
    ) -> None:
        self._folders = tuple(os.path.join(folder, "") for folder in folders)  # noqa: PTH118
        self._find_root = find_root
        self._is_submodule = is_submodule
        self._decided: dict[Path, bool] = {}

    def dates_files_of(self, root: Path, held: frozenset[Path]) -> bool:
        """Whether the repository at ``root`` is one of ``held`` (those that hold the sources),
        or nested in one that counts, as one of the project's own."""
        if root in held:
            return True
        known = self._decided.get(root)
        if known is None:
            self._decided[root] = False  # while its outer repositories are asked
            outer = self._find_root(os.path.dirname(root))  # noqa: PTH120
            known = (
                outer is not None
                and outer != root
                and self.dates_files_of(outer, held)
                and self._belongs(root, outer)
            )
            self._decided[root] = known
        return known

    def _belongs(self, root: Path, outer: Path) -> bool:
        here = os.path.join(root, "")  # noqa: PTH118
        if _in_environment(str(root), str(outer)):
            return False
        if any(here.startswith(folder) or folder.startswith(here) for folder in self._folders):
            return True
        dot_git = os.path.join(root, ".git")  # noqa: PTH118
        if os.path.isfile(dot_git):  # noqa: PTH113
            return _module_of(dot_git, os.path.join(outer, ".git"))  # noqa: PTH118
        try:
            return self._is_submodule(outer, os.path.relpath(root, outer).replace(os.sep, "/"))
        except (OSError, ValueError):
            return False


def _module_of(dot_git: str, outer_dot_git: str) -> bool:
    """Whether the ``.git`` file ``dot_git`` names a repository in the ``modules`` folder of
    the git directory ``outer_dot_git`` stands for: where ``git submodule`` keeps each
    submodule's repository (since git 1.7.8; ``git submodule absorbgitdirs`` moves older ones
    there), leaving such a file in its work tree. Any other ``.git`` file is a linked work
    tree or a clone with its repository elsewhere, which no outer repository registers."""
    own = _git_dir(dot_git)
    outer = _git_dir(outer_dot_git)
    if own is None or outer is None:
        return False
    return own.startswith(os.path.join(outer, "modules", ""))  # noqa: PTH118


def _git_dir(dot_git: str) -> str | None:
    """The resolved git directory a work tree's ``.git`` stands for: itself when a folder,
    the one its ``gitdir:`` line names (relative to its folder) when a file."""
    if os.path.isdir(dot_git):  # noqa: PTH112
        return os.path.realpath(dot_git)
    try:
        with open(dot_git, encoding="utf-8") as file:
            line = file.readline()
    except (OSError, UnicodeError):
        return None
    if not line.startswith("gitdir:"):
        return None
    named = line[len("gitdir:") :].strip()
    return os.path.realpath(os.path.join(os.path.dirname(dot_git), named))  # noqa: PTH118, PTH120


def _in_environment(folder: str, outer: str) -> bool:
    """Whether a folder from ``folder`` up to ``outer`` (left out) is a Python environment, or
    the folder packages are installed in."""
    current = folder
    while current != outer and len(current) > len(outer):
        if (
            os.path.basename(current) in _PACKAGE_FOLDERS  # noqa: PTH119
            or os.path.isfile(os.path.join(current, "pyvenv.cfg"))  # noqa: PTH113, PTH118
            or os.path.isdir(os.path.join(current, "conda-meta"))  # noqa: PTH112, PTH118
        ):
            return True
        current = os.path.dirname(current)  # noqa: PTH120
    return False
