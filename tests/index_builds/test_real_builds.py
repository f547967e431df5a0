"""``sitemap-plugins index`` over real builds: two versions of a MkDocs site deployed by mike,
two Sphinx builds in ``en/latest`` and ``en/1.0``, and a mkdocs-static-i18n site with an older
version beside it. Each index is checked with the suite's sitemap checks (XSD, protocol rules,
validate) together with every child it lists, and read back by meaning."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.sphinx.helpers import page, write_project
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo, git_env
from tests.support.hosts import child_env, mkdocs_build, sphinx_build
from tests.support.sitemap_checks import (
    SITEMAP_NS,
    check_sitemap_file,
    validate_xsd,
    validator_errors,
)

BASE = "https://example.org/"
SM = f"{{{SITEMAP_NS}}}"
BIN = Path(sys.executable).parent


def index_entries(
    root: Path, name: str = "sitemap.xml", *, one_order: bool = True
) -> dict[str, str | None]:
    """Every check on the index and its children, then its entries (loc -> lastmod).

    ``one_order=False`` is for an index over a site at the root and a build in a folder under
    it, whose URLs interleave (``/``, ``/1.0/``, ``/about/``): the suite's own checks want one
    sorted order across an index, so there each file gets every check on its own, and the
    index the schema and ``validate`` with its children.
    """
    path = root / name
    if one_order:
        check_sitemap_file(path, BASE + name, site_dir=root, base_url=BASE)
    else:
        assert validator_errors(path, BASE + name, site_dir=root, base_url=BASE) == []
        validate_xsd(path)
    tree = ET.parse(path).getroot()
    assert tree.tag == f"{SM}sitemapindex"
    return {child.findtext(f"{SM}loc", ""): child.findtext(f"{SM}lastmod") for child in tree}


def newest_lastmod(sitemap: Path) -> str:
    dates = [e.text or "" for e in ET.parse(sitemap).getroot().iter(f"{SM}lastmod")]
    assert dates, sitemap
    return max(dates)  # one offset (UTC) in these builds: text order is time order


def has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


# --------------------------------------------------------------------------------------------
# mike


MKDOCS_YML = "site_name: Versions\nsite_url: https://example.org/\nplugins:\n  - sitemap\n"


def mike(repo: GitRepo, *args: str) -> None:
    env = child_env(base=git_env({"PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}))
    done = subprocess.run(
        [str(BIN / "mike"), *args], cwd=repo.root, env=env, capture_output=True, text=True,
        check=False, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.mkdocs
@pytest.mark.skipif(not has("mike"), reason="needs mike (pip install mike)")
def test_two_versions_deployed_by_mike(git_repo: GitRepo, tmp_path: Path) -> None:
    git_repo.write("mkdocs.yml", MKDOCS_YML)
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/guide.md", "# Guide\n\nVersion one.\n")
    git_repo.commit("version 1", "2024-01-10T09:00:00+00:00")
    mike(git_repo, "deploy", "1.0")
    git_repo.write("docs/guide.md", "# Guide\n\nVersion two.\n")
    git_repo.commit("version 2", "2024-03-12T09:00:00+00:00")
    mike(git_repo, "deploy", "--update-aliases", "2.0", "latest")
    pages = tmp_path / "pages"  # the gh-pages branch as it is served
    git_repo.git("worktree", "add", "-q", str(pages), "gh-pages")
    assert (pages / "latest").is_symlink()  # mike's default alias_type

    done = run("index", pages, "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert index_entries(pages) == {
        f"{BASE}1.0/sitemap.xml": newest_lastmod(pages / "1.0" / "sitemap.xml"),
        f"{BASE}2.0/sitemap.xml": "2024-03-12T09:00:00Z",
    }
    assert newest_lastmod(pages / "1.0" / "sitemap.xml") == "2024-01-10T09:00:00Z"
    assert "latest is an alias of 2.0; listed once, as 2.0/sitemap.xml" in done.stdout
    assert (pages / "robots.txt").read_text() == f"Sitemap: {BASE}sitemap.xml\n"

    latest = run("index", pages, "--base-url", BASE, "--only", "latest", cwd=tmp_path)
    assert latest.returncode == 0, latest.stdout
    assert set(index_entries(pages)) == {f"{BASE}2.0/sitemap.xml"}


# --------------------------------------------------------------------------------------------
# Sphinx, Read the Docs' layout


@pytest.mark.sphinx
@pytest.mark.skipif(not has("sphinx"), reason="needs Sphinx")
def test_two_sphinx_builds_in_en_latest_and_en_1_0(git_repo: GitRepo, tmp_path: Path) -> None:
    pages = {"install.rst": page("Install"), "usage.rst": page("Usage")}
    src = write_project(git_repo, pages)
    git_repo.commit("1.0", "2024-01-10T09:00:00+00:00")
    out = tmp_path / "html"
    conf = (src / "conf.py").read_text()
    (src / "conf.py").write_text(conf + 'html_baseurl = "https://example.org/en/1.0/"\n')
    sphinx_build(src, out / "en" / "1.0")
    git_repo.write("docs/usage.rst", page("Usage", "Changed for the next release."))
    git_repo.write("docs/conf.py", conf)
    git_repo.commit("latest", "2024-04-13T09:00:00+00:00")
    (src / "conf.py").write_text(
        conf + 'html_baseurl = "https://example.org/en/latest/"\nsitemap_urls_per_file = 2\n'
    )
    sphinx_build(src, out / "en" / "latest")
    assert (out / "en" / "latest" / "sitemap.xml").read_text().count("<sitemap>") == 2

    done = run("index", out, "--base-url", BASE, "--glob", "*/*/sitemap.xml", cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = index_entries(out)
    shards = sorted(loc for loc in entries if "/en/latest/" in loc)
    assert len(shards) == 2  # the split build is flattened: its parts, not its index
    assert all("/en/latest/sitemap-" in loc for loc in shards)
    assert entries[f"{BASE}en/1.0/sitemap.xml"] == "2024-01-10T09:00:00Z"
    assert max(entries[loc] or "" for loc in shards) == "2024-04-13T09:00:00Z"
    assert "an index: its 2 sitemaps are listed in its place" in done.stdout

    only = run("index", out, "--base-url", BASE, "--glob", "*/*/sitemap.xml",
               "--only", "1.0", cwd=tmp_path)  # fmt: skip
    assert only.returncode == 0, only.stdout
    assert set(index_entries(out)) == {f"{BASE}en/1.0/sitemap.xml"}


# --------------------------------------------------------------------------------------------
# mkdocs-static-i18n


def i18n_1x() -> bool:
    import importlib.metadata

    try:
        return int(importlib.metadata.version("mkdocs-static-i18n").split(".")[0]) >= 1
    except importlib.metadata.PackageNotFoundError:
        return False


@pytest.mark.mkdocs
@pytest.mark.skipif(not i18n_1x(), reason="needs mkdocs-static-i18n 1.x")
def test_a_static_i18n_site_with_an_older_version_beside_it(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    languages = [
        {"locale": "en", "default": True, "name": "English", "build": True},
        {"locale": "fr", "name": "Français", "build": True},
    ]
    config = {
        "site_name": "i18n",
        "plugins": ["sitemap", {"i18n": {"docs_structure": "suffix", "languages": languages}}],
    }
    git_repo.write("mkdocs.yml", json.dumps({**config, "site_url": f"{BASE}1.0/"}))
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/index.fr.md", "# Accueil\n")
    git_repo.write("docs/about.md", "# About\n")
    git_repo.write("docs/about.fr.md", "# À propos\n")
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    out = tmp_path / "out"
    older = tmp_path / "older"
    mkdocs_build(git_repo.root, "--site-dir", str(older))
    git_repo.write("docs/about.fr.md", "# À propos\n\nMis à jour.\n")
    git_repo.write("mkdocs.yml", json.dumps({**config, "site_url": BASE}))
    git_repo.commit("update", "2024-05-01T00:00:00+00:00")
    mkdocs_build(git_repo.root, "--site-dir", str(out))  # the latest, at the root
    shutil.move(older, out / "1.0")  # deployed beside it, as a build cleans its own folder
    own = (out / "sitemap.xml").read_bytes()
    assert (out / "1.0" / "fr" / "index.html").is_file()

    refused = run("index", out, "--base-url", BASE, cwd=tmp_path)
    assert refused.returncode == 2
    assert f"{out / 'sitemap.xml'}: is the site's own sitemap (4 URLs), not an index" in (
        refused.stderr
    )
    assert (out / "sitemap.xml").read_bytes() == own

    done = run("index", out, "sitemap.xml", "1.0/sitemap.xml", "--base-url", BASE,
               "--output", "sitemap-index.xml", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    for child in ("sitemap.xml", "1.0/sitemap.xml"):
        check_sitemap_file(out / child, BASE + child)
    assert index_entries(out, "sitemap-index.xml", one_order=False) == {
        f"{BASE}sitemap.xml": "2024-05-01T00:00:00Z",
        f"{BASE}1.0/sitemap.xml": "2024-03-01T00:00:00Z",
    }
    assert (out / "sitemap.xml").read_bytes() == own
    assert (out / "sitemap.xml.gz").is_file()  # the build's files are the build's
    robots = (out / "robots.txt").read_text()
    assert robots == f"Sitemap: {BASE}sitemap-index.xml\n"

    # The next deploy runs the same command: the index it wrote is its own, and is replaced.
    again = run("index", out, "sitemap.xml", "1.0/sitemap.xml", "--base-url", BASE,
                "--output", "sitemap-index.xml", cwd=tmp_path)  # fmt: skip
    assert again.returncode == 0, again.stdout + again.stderr
    assert f"Wrote {out / 'sitemap-index.xml'}: an index of 2 sitemaps" in again.stdout
    assert (out / "sitemap.xml").read_bytes() == own
    assert (out / "robots.txt").read_text() == robots
