"""Every way the project is exercised, each in its own fresh virtualenv.

Sessions run on the interpreter that runs nox (no fixed Python list), so the suite passes with
whichever single Python 3.10+ a machine has. Host versions are the parameters instead: each
adapter is tested against the lowest and the newest host release it supports.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import nox

# Install with bytecode compiled. Where PYTHONDONTWRITEBYTECODE is set (CI images often set it)
# every child build the tests run (sphinx-build, pelican, mkdocs) would otherwise compile its
# host from source again: about two thirds of a small Sphinx build. pip compiles anyway.
os.environ.setdefault("UV_COMPILE_BYTECODE", "1")

nox.options.default_venv_backend = "uv|virtualenv"
nox.options.error_on_missing_interpreters = False
nox.options.sessions = ["tests_core", "tests_mkdocs", "tests_sphinx", "tests_pelican",
                        "tests_cross_host", "tests_cli_generate", "tests_cli_generate_mkdocs2",
                        "tests_index_builds", "lint", "typecheck"]  # fmt: skip

ROOT = Path(__file__).parent
REPORTS = ROOT / ".nox-reports"
TEST_DEPS = [
    "pytest>=8",
    "pytest-xdist>=3.6",
    "hypothesis>=6.100",
    "lxml>=5",
    "ultimate-sitemap-parser>=1.8",
    "requests",
    "pyyaml>=6",  # the reference `generate`'s front matter reader is held to
]
PY = sys.version_info[:2]
# Linters pinned: a new release may add rules (ruff 0.16 began formatting Markdown code
# blocks), which must not turn a green main red overnight. Bump on purpose.
RUFF = "ruff==0.17.5"
MYPY = "mypy==2.4.1"
HOSTS = ("mkdocs", "sphinx", "pelican")

# mkdocs-include-markdown-plugin 4.0 is the first release to keep a list of the files it includes,
# which pages are dated by; its 4.x releases install on Python < 3.12 only, 5.0 to 6.0.1 on < 3.13.
INCLUDE_MARKDOWN_LOWEST = (
    "mkdocs-include-markdown-plugin==4.0.0" if PY < (3, 12)
    else "mkdocs-include-markdown-plugin==5.0.0" if PY < (3, 13)
    else "mkdocs-include-markdown-plugin==6.0.2"
)  # fmt: skip
# mkdocs-macros-plugin 1.0.1 is the oldest release that runs where setuptools is not installed
# (0.x imports pkg_resources without asking for it); its includes date pages.
MACROS_LOWEST = "mkdocs-macros-plugin==1.0.1"
# mkdocs-monorepo-plugin builds from a temporary copy of the docs folders, which pages are dated
# through; its 1.0.x releases copy with distutils, which Python 3.12 removed.
MONOREPO_LOWEST = (
    "mkdocs-monorepo-plugin==1.0.0" if PY < (3, 12) else "mkdocs-monorepo-plugin==1.1.0"
)
# mkdocstrings pages are dated by the modules they document. 0.28 is the oldest release that
# renders with the pymdown-extensions MkDocs 1.5's Material resolves to (0.26 passes Highlight
# settings it no longer takes); its Python handler is pinned beside it. The newest needs 3.11+,
# and the resolver takes the newest that installs on 3.10.
# mkdocs-gen-files writes its recipe's API reference pages; its pages are marked as generated
# from MkDocs 1.6 on, so with the lowest MkDocs its test skips, saying so.
MKDOCSTRINGS_LOWEST = [
    "mkdocstrings==0.28.0",
    "mkdocstrings-python==1.16.1",
    "mkdocs-gen-files==0.5.0",
]
# On 3.10 the resolver takes mkdocstrings 1.0.6 (the last release for 3.10) beside
# pymdown-extensions 12, whose Highlight wants the Markdown instance that 1.0.6 does not pass:
# every mkdocstrings page fails to render. 11 is the newest pymdown-extensions it renders with.
PYMDOWN_NEWEST = ["pymdown-extensions<12"] if PY < (3, 11) else []
# Lowest: the oldest release of each supported line that installs on this Python.
MKDOCS_VERSIONS = {
    # mkdocs-static-i18n 1.x needs MkDocs 1.5.2+: its test is skipped, with that reason, here.
    "lowest": ["mkdocs==1.5.0", "mkdocs-redirects==1.2.1", "mkdocs-material==9.3.2",
               INCLUDE_MARKDOWN_LOWEST, MACROS_LOWEST, MONOREPO_LOWEST, *MKDOCSTRINGS_LOWEST],
    "newest": ["mkdocs>=1.6,<2", "mkdocs-static-i18n>=1.3", "mkdocs-redirects>=1.2",
               "mkdocs-material>=9.5", "mkdocs-include-markdown-plugin>=4.0.0",
               "mkdocs-macros-plugin>=1.0.1", "mkdocs-monorepo-plugin>=1.0",
               "mkdocstrings[python]>=0.28", "mkdocs-gen-files>=0.5",
               "mkdocs-git-revision-date-localized-plugin>=1.2", *PYMDOWN_NEWEST],
}  # fmt: skip
# Sphinx 7.0.x calls datetime.utcfromtimestamp() at import of sphinx.builders.gettext, which
# Python 3.12+ deprecates; under pytest's filterwarnings=error that fails the session. 7.1.0 is
# the first Sphinx 7 release without it, so it is the lowest Sphinx 7 on 3.12 and newer.
SPHINX_7_LOWEST = "sphinx==7.0.1" if PY < (3, 12) else "sphinx==7.1.0"
# sphinx-multiversion and sphinx-polyversion build each version from a copy of its commit's
# tree. sphinx-multiversion 0.2.4 (its latest) does not run on Sphinx 9, whose session leaves it
# out (and its test skips, saying so).
SMV = "sphinx-multiversion==0.2.4"
POLYVERSION = "sphinx-polyversion==3.0.0"
# sphinx-notfound-page writes the 404 page under a name its users may choose (notfound_pagename):
# its first 1.x release with the lowest Sphinx 7, the newest with the others.
SPHINX_VERSIONS = {
    "7": ([SPHINX_7_LOWEST, "myst-parser==2.0.0", SMV, POLYVERSION,
           "sphinx-notfound-page==1.0.0"], (3, 10)),
    "8": (["sphinx>=8,<9", "myst-parser>=4,<5", SMV, POLYVERSION,
           "sphinx-notfound-page>=1.0"], (3, 10)),
    "9": (["sphinx>=9,<10", "myst-parser>=5", POLYVERSION, "sphinx-notfound-page>=1.0"], (3, 11)),
}  # fmt: skip
# `generate` runs after other tools' builds. The newest Zensical that installs here: its 0.1
# releases need a zensical-ui the package index may not carry, and the resolver then takes 0.0.x.
ZENSICAL = "zensical>=0.0.60"
# MkDocs 2.0 pre-releases replace the mkdocs package itself, so they get a virtualenv of their own.
MKDOCS_2 = "mkdocs==2.0.dev6"
# i18n_subsites builds one subsite per language in the same run; its sitemap test needs it.
PELICAN_VERSIONS = {
    "lowest": ["pelican[markdown]==4.9.1", "pelican-i18n-subsites==1.0.0"],
    "newest": ["pelican[markdown]>=4.9", "pelican-i18n-subsites>=1.0"],
}


def _pytest(session: nox.Session, *paths: str, dist: str = "worksteal") -> None:
    """Run pytest on ``paths`` against the package installed into the session's virtualenv.

    ``--import-mode=append`` puts the checkout after site-packages on ``sys.path``: ``tests``
    still imports from it, ``sitemap_plugins`` from the install, and child builds import the
    same (``tests/support/hosts.py``); ``tests/test_installed.py`` checks it in every session.
    Tests run on every core (pytest-xdist; an idle worker takes queued tests from a busy one, and
    ``dist="loadscope"`` keeps a module's tests, so its module-scoped fixtures, on one worker).
    Each session has a temporary folder of its own, removed once it passes: not pytest's
    numbered folders, which runs sharing a machine race for, and outside the checkout, as a git
    work tree around a test's folder would change what git says there.
    """
    REPORTS.mkdir(exist_ok=True)
    name = session.name.replace("(", "-").replace(")", "").replace("=", "-")
    report = REPORTS / f"{name}.xml"
    checkout = hashlib.sha256(str(ROOT.resolve()).encode()).hexdigest()[:12]
    basetemp = Path(tempfile.gettempdir()) / f"sitemap-plugins-{checkout}" / name.replace("'", "")
    basetemp.parent.mkdir(mode=0o700, exist_ok=True)  # pytest empties and makes the session's
    session.run(
        "pytest",
        *paths,
        "tests/test_installed.py",
        "--import-mode=append",
        f"--basetemp={basetemp}",
        "--numprocesses=auto",
        f"--dist={dist}",
        f"--junitxml={report}",
        "-p",
        "no:cacheprovider",
        *session.posargs,
        env={"SITEMAP_TEST_INSTALLED": "1"},
    )
    # Passed (a failed run raised above): nothing in the folder is of use any more, and a run of
    # the whole suite leaves about a gigabyte there, for each checkout that runs it. A failed
    # session keeps its folder, to look into.
    shutil.rmtree(basetemp, ignore_errors=True)
    with contextlib.suppress(OSError):
        basetemp.parent.rmdir()  # once the checkout's last session has passed


@nox.session
def tests_core(session: nox.Session) -> None:
    """The core, the command line and the test support, with no host package installed."""
    session.install(".", *TEST_DEPS)
    no_host = f"import importlib.util as u, sys; sys.exit(any(map(u.find_spec, {HOSTS!r})))"
    session.run("python", "-c", no_host)
    _pytest(session, "tests/core", "tests/support", "tests/cli", "tests/index", "tests/indexnow")


@nox.session
@nox.parametrize("mkdocs", list(MKDOCS_VERSIONS))
def tests_mkdocs(session: nox.Session, mkdocs: str) -> None:
    """The MkDocs plugin against the lowest and the newest supported MkDocs."""
    session.install(".", *TEST_DEPS, *MKDOCS_VERSIONS[mkdocs])
    _pytest(session, "tests/mkdocs")


@nox.session
@nox.parametrize("sphinx", list(SPHINX_VERSIONS))
def tests_sphinx(session: nox.Session, sphinx: str) -> None:
    """The Sphinx extension on Sphinx 7, 8 and 9, as far as this Python allows."""
    requirements, lowest_python = SPHINX_VERSIONS[sphinx]
    if lowest_python > PY:
        session.skip(f"Sphinx {sphinx} needs Python {'.'.join(map(str, lowest_python))}+")
    # sphinx-last-updated-by-git: its git_exclude_commits is read where ours is not set.
    session.install(".", *TEST_DEPS, *requirements, "sphinx-last-updated-by-git>=0.3")
    _pytest(session, "tests/sphinx")


@nox.session
@nox.parametrize("pelican", list(PELICAN_VERSIONS))
def tests_pelican(session: nox.Session, pelican: str) -> None:
    """The Pelican plugin against the oldest and the newest supported Pelican."""
    session.install(".", *TEST_DEPS, *PELICAN_VERSIONS[pelican])
    _pytest(session, "tests/pelican")


@nox.session
def tests_cross_host(session: nox.Session) -> None:
    """The three example sites agree on the pages they share."""
    session.install(".[all]", *TEST_DEPS, "myst-parser", "pelican[markdown]")
    _pytest(session, "tests/cross_host", dist="loadscope")  # the sites are built once


@nox.session
def tests_cli_generate(session: nox.Session) -> None:
    """`sitemap-plugins generate` on real builds: Zensical (with a blog), and sites laid out as
    Hugo, Jekyll and hand-written HTML sites are, with dated git histories and shallow clones."""
    session.install(".", *TEST_DEPS, ZENSICAL)
    _pytest(session, "tests/cli_generate", "-m", "not mkdocs2")


@nox.session
def tests_cli_generate_mkdocs2(session: nox.Session) -> None:
    """`generate` after a real MkDocs 2.0 pre-release build, where that pre-release installs."""
    try:
        session.install(".", *TEST_DEPS, MKDOCS_2)
    except nox.command.CommandFailed:
        session.skip(f"{MKDOCS_2} does not install on this Python or from this package index")
    _pytest(session, "tests/cli_generate", "-m", "mkdocs2")


@nox.session
def tests_index_builds(session: nox.Session) -> None:
    """sitemap-plugins index over real builds: MkDocs versions deployed by mike (which needs
    git), Sphinx builds in Read the Docs' layout, a mkdocs-static-i18n site."""
    session.install(".[mkdocs,sphinx]", *TEST_DEPS, "mike>=2", "mkdocs-static-i18n>=1.3")
    _pytest(session, "tests/index_builds")


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check over the whole repository."""
    session.install(RUFF)
    session.run("ruff", "check", ".")
    session.run("ruff", "format", "--check", ".")


@nox.session
def typecheck(session: nox.Session) -> None:
    """mypy --strict on the package, with the hosts installed so their types are seen."""
    # tomli: the 3.10 branch of generate/_toml.py; types-PyYAML: PyYAML ships no types.
    session.install(".[all]", MYPY, "tomli", "types-PyYAML")
    session.run("mypy", "--strict", "sitemap_plugins")


@nox.session
def examples(session: nox.Session) -> None:
    """The main job: build the three example sites with the real hosts, then validate them."""
    session.install(".[all]", "myst-parser", "pelican[markdown]")
    session.run("python", "example_sites/build_all.py")


# What each host's users run today for a sitemap with dates: the benchmarks' incumbents.
BENCH_INCUMBENTS = [
    "sphinx-sitemap",
    "sphinx-last-updated-by-git",
    "mkdocs-git-revision-date-localized-plugin",
    "pelican-sitemap",
]


@nox.session
def bench(session: nox.Session) -> None:
    """Benchmarks: ratios measured in one run (pass --quick after -- for a smoke run)."""
    session.install(".[all]", *BENCH_INCUMBENTS)
    session.run("python", "benchmarks/run.py", *session.posargs, env={"PYTHONHASHSEED": "0"})
