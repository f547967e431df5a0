"""The installed ``sitemap-plugins`` console script, run as users and CI run it, for every test
of the command line: the script beside this interpreter, an environment without proxies that
imports the same ``sitemap_plugins`` as this process, and a run on a pseudo-terminal."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.hosts import child_env

__all__ = ["ENV", "SCRIPT", "run", "run_on_a_terminal"]

SCRIPT = Path(sys.executable).parent / (
    "sitemap-plugins.exe" if os.name == "nt" else "sitemap-plugins"
)
ENV = child_env(base={k: v for k, v in os.environ.items() if not k.lower().endswith("_proxy")})
"""No proxy; the ``sitemap_plugins`` this process tests, also for ``python -m sitemap_plugins``."""


def run(*args: str | Path, cwd: Path, module: bool = False) -> subprocess.CompletedProcess[str]:
    """The console script (or ``python -m sitemap_plugins`` with ``module``) in ``cwd``."""
    if module:
        command = [sys.executable, "-m", "sitemap_plugins"]
    else:
        if not SCRIPT.exists():
            pytest.fail(f"{SCRIPT} is missing: install the project (pip install .) to test it")
        command = [str(SCRIPT)]
    return subprocess.run(
        [*command, *map(str, args)],
        cwd=cwd,
        env=ENV,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def run_on_a_terminal(*args: str | Path, cwd: Path) -> tuple[int, str, str]:
    """``python -m sitemap_plugins ARGS`` with stderr on a pseudo-terminal: the exit status,
    what the terminal showed and stdout."""
    primary, secondary = os.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "sitemap_plugins", *map(str, args)],
            cwd=cwd, env=ENV, stdout=subprocess.PIPE, stderr=secondary, timeout=120,
            check=False,
        )  # fmt: skip
        os.close(secondary)
        shown = b""
        while True:
            try:
                chunk = os.read(primary, 4096)
            except OSError:  # Linux reports the closed terminal as EIO
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(primary)
    return done.returncode, shown.decode(), done.stdout.decode()
