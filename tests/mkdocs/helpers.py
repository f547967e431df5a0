"""Real MkDocs sites in real git repositories, built in this process, and their sitemaps read back.

Most MkDocs tests build with ``build(load_config(...))`` in the test process, as MkDocs' own tests
and ``mkdocs serve`` do, so warnings reach ``caplog`` and ``--dirty`` rebuilds can reuse one
config; a build through the real command line is :func:`tests.support.hosts.mkdocs_build`.
"""

from __future__ import annotations

import datetime as dt
import gzip
import importlib.metadata
import logging
import os
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.config import load_config
from mkdocs.config.defaults import MkDocsConfig

from tests.support.gitrepo import GitRepo
from tests.support.sitemap_checks import UrlEntry, check_sitemap_file

EXAMPLE = Path(__file__).resolve().parents[2] / "example_sites" / "mkdocs"
BASE = "https://example.org/"
MKDOCS_VERSION = tuple(int(p) for p in importlib.metadata.version("mkdocs").split(".")[:2])
CONFIG_ABORT = r"^Aborted with (1 configuration errors|a configuration error)!$"
"""What ``load_config`` raises after logging the configuration errors (MkDocs 1.5, then 1.6)."""
BUILD_ABORT = r"^Aborted with a BuildError!$"
"""What ``build`` raises after logging a plugin's error."""

# The example site's pages, each committed on its own date (committer date = lastmod).
COMMITS = {
    "docs/index.md": "2024-01-10T09:00:00+00:00",
    "docs/guide/install.md": "2024-02-11T09:00:00+00:00",
    "docs/images/where-it-goes.svg": "2024-02-11T09:00:00+00:00",  # shown by guide/install
    "docs/guide/configure.md": "2024-03-12T09:00:00+00:00",
    "docs/reference/options.md": "2024-04-13T09:00:00+00:00",
    "docs/café.md": "2024-06-14T09:00:00+00:00",
    "docs/about.md": "2024-07-15T09:00:00+00:00",
    "docs/internal.md": "2024-08-16T09:00:00+00:00",
    "docs/404.md": "2024-09-17T09:00:00+00:00",
}


def example_repo(repo: GitRepo, **settings: Any) -> Path:
    """The example site committed file by file; ``settings`` are merged into mkdocs.yml."""
    for relpath, date in COMMITS.items():
        repo.write(relpath, (EXAMPLE / relpath).read_text(encoding="utf-8"))
        repo.commit(f"add {relpath}", date, relpath)
    write_config(repo, **settings)
    return repo.root


def write_config(repo: GitRepo, **settings: Any) -> None:
    config = yaml.safe_load((EXAMPLE / "mkdocs.yml").read_text(encoding="utf-8"))
    config.update(settings)
    repo.write("mkdocs.yml", yaml.safe_dump(config, allow_unicode=True))


def load(root: Path, **overrides: Any) -> MkDocsConfig:
    return load_config(config_file=str(root / "mkdocs.yml"), **overrides)


def build_site(root: Path, *, dirty: bool = False, **overrides: Any) -> Path:
    config = load(root, **overrides)
    build(config, dirty=dirty)
    return Path(config.site_dir)


def sitemap(
    site: Path, base_url: str = BASE, *, now: dt.datetime | None = None
) -> dict[str, UrlEntry]:
    """Both files MkDocs users rely on, checked, equal in content, keyed by loc.

    ``now`` is the moment no lastmod may pass, for a test that dates a file in the future.
    """
    plain = check_sitemap_file(site / "sitemap.xml", base_url + "sitemap.xml", now=now)
    zipped = check_sitemap_file(site / "sitemap.xml.gz", base_url + "sitemap.xml.gz", now=now)
    assert (
        gzip.decompress((site / "sitemap.xml.gz").read_bytes())
        == (site / "sitemap.xml").read_bytes()
    )
    assert plain == zipped
    return {entry.loc: entry for entry in plain}


def sitemap_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "mkdocs.plugins.sitemap" and r.levelno >= logging.WARNING
    ]


def summary_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "mkdocs.plugins.sitemap"
        and r.getMessage().startswith("sitemap: ")
        and r.levelno == logging.INFO
    ]


MARK_POST_BUILD = """
def on_post_build(config):
    with open({log!r}, "a") as log:
        log.write("post-build\\n")
"""
"""A hook (``.format(log=...)``) that writes ``post-build`` into a :class:`GitTrace`'s log when
MkDocs' post_build begins, before the plugin's own: git commands after it ran once MkDocs was done
rendering."""


def touch_later(path: Path) -> None:
    """Make a source newer than its output, which is how MkDocs --dirty decides what to rebuild."""
    later = time.time() + 5
    os.utime(path, (later, later))


def i18n_version() -> tuple[int, ...]:
    try:
        return tuple(
            int(p) for p in importlib.metadata.version("mkdocs-static-i18n").split(".")[:2]
        )
    except importlib.metadata.PackageNotFoundError:
        return (0,)


def english_and_french() -> list[Any]:
    """``plugins`` for a site mkdocs-static-i18n builds in English (the default) and French,
    each page's translation beside it (``guide.fr.md``)."""
    languages = [
        {"locale": "en", "default": True, "name": "English", "build": True},
        {"locale": "fr", "name": "Français", "build": True},
    ]
    return ["sitemap", {"i18n": {"docs_structure": "suffix", "languages": languages}}]
