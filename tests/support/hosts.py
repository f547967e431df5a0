"""The hosts' real command lines, run in child processes the same way by every test.

Each build runs ``python -m mkdocs build``, ``python -m sphinx`` or ``python -m pelican`` with the
interpreter that runs the tests, so every nox session tests its own host release, and each build
starts from a clean process, as users run it: exit codes, strict modes and the log are what a
shell sees.

Which ``sitemap_plugins`` a child imports is the one this process imports (:func:`python_path`):
under nox that is the copy installed into the session's virtualenv, from a checkout without an
install it is the checkout. The child finds ``tests`` too, for a site's own configuration that
loads the step hook of :mod:`tests.support.steps`.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType

import sitemap_plugins
import tests

__all__ = [
    "HOST_VARIABLES",
    "child_env",
    "mkdocs_build",
    "output",
    "pelican_build",
    "python_path",
    "run_python",
    "sphinx_build",
]

HOST_VARIABLES = (
    "SOURCE_DATE_EPOCH",
    "READTHEDOCS_CANONICAL_URL",
    "FORCE_COLOR",
    "PY_COLORS",
    "CLICOLOR_FORCE",
)
"""Variables a CI runner may set that change what a host writes or prints (a forced colour wraps
Sphinx's log lines in escape codes); a test that wants one sets it."""


def _holder(package: ModuleType) -> str:
    """The folder that holds ``package`` (the entry of ``sys.path`` it was imported from)."""
    assert package.__file__ is not None, f"{package.__name__} is a namespace package"
    return str(Path(package.__file__).resolve().parent.parent)


def python_path() -> list[str]:
    """What a child puts first on ``sys.path``: the folder holding the ``sitemap_plugins`` this
    process imports, then the folder holding ``tests``, in that order.

    The order matters when both differ: ``tests`` lives in the checkout, which holds a
    ``sitemap_plugins`` of its own that must not hide the installed one.
    """
    folders = [_holder(sitemap_plugins), _holder(tests)]
    return list(dict.fromkeys(folders))


def child_env(
    env: Mapping[str, str] | None = None, *, base: Mapping[str, str] | None = None
) -> dict[str, str]:
    """The environment of a child build: ``base`` (default: this process's environment) without
    :data:`HOST_VARIABLES`, ``PYTHONPATH`` from :func:`python_path` (any earlier entries after
    it), ``NO_COLOR=1`` so logs read the same in any terminal, then ``env`` on top."""
    environ = {
        key: value
        for key, value in (os.environ if base is None else base).items()
        if key not in HOST_VARIABLES
    }
    earlier = [part for part in environ.get("PYTHONPATH", "").split(os.pathsep) if part]
    environ["PYTHONPATH"] = os.pathsep.join(dict.fromkeys([*python_path(), *earlier]))
    environ["NO_COLOR"] = "1"
    environ.update(env or {})
    return environ


def output(proc: subprocess.CompletedProcess[str]) -> str:
    """Everything a child printed, stdout then stderr."""
    return proc.stdout + proc.stderr


def run_python(
    *args: str | Path,
    cwd: Path,
    env: Mapping[str, str] | None = None,
    check: bool = True,
    via: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in ``cwd`` with :func:`child_env`; with ``check``, fail on exit != 0.
    ``via`` is a command that runs it (``setpriv`` with its options)."""
    proc = subprocess.run(
        [*via, sys.executable, *map(str, args)],
        cwd=cwd,
        env=child_env(env),
        capture_output=True,
        text=True,
        encoding="utf-8",
        check=False,
    )
    if check and proc.returncode != 0:
        shown = " ".join(map(str, args))
        raise AssertionError(f"python {shown} failed ({proc.returncode}):\n{output(proc)}")
    return proc


def mkdocs_build(
    root: Path, *args: str, env: Mapping[str, str] | None = None, check: bool = True
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build [ARGS]`` in the folder of ``mkdocs.yml``."""
    return run_python("-m", "mkdocs", "build", *args, cwd=root, env=env, check=check)


def sphinx_build(
    srcdir: Path,
    outdir: Path,
    *args: str,
    builder: str = "dirhtml",
    env: Mapping[str, str] | None = None,
    check: bool = True,
    via: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``sphinx-build -b BUILDER [ARGS] SRCDIR OUTDIR`` in ``srcdir``, run by ``via``."""
    command = ["-m", "sphinx", "-b", builder, *args, str(srcdir), str(outdir)]
    return run_python(*command, cwd=srcdir, env=env, check=check, via=via)


def pelican_build(
    site: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    check: bool = True,
    via: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """``pelican content -s pelicanconf.py -o output [ARGS]`` in ``site``.

    The log is as wide as its longest line (Pelican wraps it to the terminal otherwise), and
    Python's own warnings stay out of it. ``via`` is as for :func:`run_python`.
    """
    command = ["-m", "pelican", "content", "-s", "pelicanconf.py", "-o", "output", *args]
    pelican_env = {"COLUMNS": "400", "PYTHONWARNINGS": "ignore", **(env or {})}
    return run_python(*command, cwd=site, env=pelican_env, check=check, via=via)
