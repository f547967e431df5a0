"""The ``indexnow_key`` option, set in each host's own configuration, writes the key file that
``sitemap-plugins submit`` and the engines fetch, at the root of the built site."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, pelican_build, sphinx_build

EXAMPLES = Path(__file__).resolve().parents[2] / "example_sites"
KEY = "5f0e6c2a-index-now-key"
Build = Callable[[Path], subprocess.CompletedProcess[str]]
HOSTS: dict[str, tuple[Build, str, tuple[str, str, str]]] = {
    "mkdocs": (
        lambda folder: mkdocs_build(folder, "--strict"),
        "site",
        ("mkdocs.yml", "  - sitemap:\n", f"  - sitemap:\n      indexnow_key: {KEY}\n"),
    ),
    "sphinx": (
        lambda folder: sphinx_build(folder, folder / "_build" / "dirhtml", "-W"),
        "_build/dirhtml",
        ("conf.py", "", f"\nsitemap_indexnow_key = {KEY!r}\n"),
    ),
    "pelican": (
        pelican_build,
        "output",
        ("pelicanconf.py", "", f"\nSITEMAP = {{'indexnow_key': {KEY!r}}}\n"),
    ),
}


@pytest.mark.parametrize("host", list(HOSTS))
def test_each_host_writes_the_key_file_with_its_sitemap(tmp_path: Path, host: str) -> None:
    build, output, (config, old, new) = HOSTS[host]
    repo = GitRepo(tmp_path / "repo")
    folder = repo.root / host
    ignore = shutil.ignore_patterns("site", "_build", "output", "__pycache__")
    shutil.copytree(EXAMPLES / host, folder, ignore=ignore)
    text = (folder / config).read_text("utf-8")
    assert old in text
    (folder / config).write_text(text.replace(old, new, 1) if old else text + new, "utf-8")
    repo.commit("the example site, with an IndexNow key", "2024-02-01T10:00:00+00:00")
    build(folder)  # fails the test, with the build's output, if the build fails
    site = folder / output
    assert (site / f"{KEY}.txt").read_text("ascii") == KEY
    assert (site / "sitemap.xml").is_file()
