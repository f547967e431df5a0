"""Which ``sitemap_plugins`` the suite tests: under nox, the copy installed into the session's
virtualenv, as users have it; run from a checkout without nox, the checkout itself.

A package that forgets a subpackage or a data file passes every test run against the source
tree. nox runs pytest with ``--import-mode=append`` (the checkout comes after site-packages on
``sys.path``) and sets ``SITEMAP_TEST_INSTALLED=1``; child builds import what this process
imports (:func:`tests.support.hosts.python_path`). nox runs this file in every session.
"""

from __future__ import annotations

import importlib.metadata
import os
import shutil
import sysconfig
from pathlib import Path

import pytest

import sitemap_plugins
import tests
from tests.support.hosts import run_python

CHECKOUT = Path(tests.__file__).resolve().parents[1]
INSTALLED = os.environ.get("SITEMAP_TEST_INSTALLED") == "1"
PACKAGE = Path(sitemap_plugins.__file__).resolve().parent


def package_files(folder: Path) -> set[str]:
    """The modules and data files of a ``sitemap_plugins`` folder, relative to it."""
    files = {*folder.rglob("*.py"), *folder.rglob("py.typed")}
    return {path.relative_to(folder).as_posix() for path in files}


def test_a_child_build_imports_what_this_process_tests(tmp_path: Path) -> None:
    show = "import sitemap_plugins, tests; print(sitemap_plugins.__file__); print(tests.__file__)"
    proc = run_python("-c", show, cwd=tmp_path)
    [package, support] = [Path(line).resolve() for line in proc.stdout.splitlines()]
    assert package.parent == PACKAGE
    assert support.parent == Path(tests.__file__).resolve().parent


@pytest.mark.skipif(not INSTALLED, reason="not under nox: the checkout is what is tested")
def test_under_nox_the_installed_package_is_tested() -> None:
    assert PACKAGE != CHECKOUT / "sitemap_plugins", "the checkout is tested, not the install"
    assert PACKAGE.parent == Path(sysconfig.get_path("purelib")).resolve()
    # Every module and data file of the checkout made it into the install.
    assert package_files(CHECKOUT / "sitemap_plugins") <= package_files(PACKAGE)
    script = shutil.which("sitemap-plugins")
    assert script is not None, "the console script is not on PATH"
    assert Path(script).parent.resolve() == Path(sysconfig.get_path("scripts")).resolve()


@pytest.mark.skipif(not INSTALLED, reason="not under nox: the checkout is what is tested")
def test_the_installed_distribution_carries_its_license() -> None:
    """The MIT license asks that its text go with every copy: the wheel ships it, and its
    metadata names it and the SPDX expression (which setuptools reads from 77 on)."""
    distribution = importlib.metadata.distribution("sitemap-plugins")
    assert distribution.metadata["License-Expression"] == "MIT"
    assert distribution.metadata.get_all("License-File") == ["LICENSE"]
    shipped = [path for path in distribution.files or () if path.name == "LICENSE"]
    assert len(shipped) == 1, distribution.files
    text = (CHECKOUT / "LICENSE").read_text(encoding="utf-8")
    assert shipped[0].read_text(encoding="utf-8") == text
