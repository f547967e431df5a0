#!/usr/bin/env python3
"""The project's two commands, runnable on a fresh machine that has only Python 3.10+, pip and git.

    python3 dev.py examples   build the three example sites and print where their sitemaps are
    python3 dev.py test       run the whole test suite (every host version, lint, types)

Both make a private virtualenv (``.venv-dev``) holding nox and uv, then let nox create one fresh
virtualenv per session, so nothing is installed into the user's own Python and no install step is
hidden: what a fresh clone needs, this script installs. Extra arguments go to nox
(``python3 dev.py test -s tests_core``).
"""

from __future__ import annotations

import os
import subprocess
import sys
import venv
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv-dev"
TOOLS = ["nox>=2024.10.9", "uv>=0.4"]
REPORTS = ROOT / ".nox-reports"


def _venv_python() -> Path:
    return VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _ensure_tools() -> Path:
    python = _venv_python()
    if not python.exists():
        print(f"dev.py: creating {VENV.name} with {' '.join(TOOLS)}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    check = subprocess.run([str(python), "-c", "import nox, uv"], capture_output=True, check=False)
    if check.returncode:
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", *TOOLS],
            check=True,
        )
    return python


def _nox(python: Path, args: list[str]) -> int:
    env = dict(os.environ)
    bin_dir = str(python.parent)
    env["PATH"] = bin_dir + os.pathsep + env.get("PATH", "")  # uv next to nox, for nox to find
    return subprocess.run(
        [str(python), "-m", "nox", *args], cwd=ROOT, env=env, check=False
    ).returncode


def _test_totals() -> tuple[int, int, int]:
    """Add up the pytest reports of every session, for one closing line CI can read."""
    passed = failed = skipped = 0
    for report in sorted(REPORTS.glob("*.xml")):
        for suite in ET.parse(report).getroot().iter("testsuite"):
            tests, skips = int(suite.get("tests", 0)), int(suite.get("skipped", 0))
            bad = int(suite.get("failures", 0)) + int(suite.get("errors", 0))
            passed += tests - skips - bad
            failed += bad
            skipped += skips
    return passed, failed, skipped


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("test", "examples"):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    if sys.version_info < (3, 10):  # noqa: UP036 - dev.py runs on whatever python3 is there
        print("dev.py: Python 3.10 or newer is needed", file=sys.stderr)
        return 2
    python = _ensure_tools()
    command, extra = argv[0], argv[1:]
    if command == "examples":
        return _nox(python, ["-s", "examples", *extra])
    for old in REPORTS.glob("*.xml"):
        old.unlink()
    status = _nox(python, extra)
    passed, failed, skipped = _test_totals()
    if passed or failed or skipped:
        print(f"\ntests: {passed} passed, {failed} failed, {skipped} skipped")
    if status == 0 and passed == 0 and not extra:
        print("dev.py: the test sessions ran no test", file=sys.stderr)
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
