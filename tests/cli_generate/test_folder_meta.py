"""A real ``zensical build`` with the ``meta`` plugin, then ``generate``: folder defaults count.

Each folder's ``.meta.yml`` (or the name the plugin's ``meta_file`` gives) is front matter for
every page in it and below, merged from the top folder down with the page's own front matter
last, as Material's meta plugin does and Zensical's does: the sitemap must say what the pages'
merged metadata says. Zensical's own search index shows the host merged the same files (the
folders' ``tags`` join each page's), so the test is about the files the host read. The config is
``zensical.toml``, or ``mkdocs.yml`` (which Zensical reads too) with another file name.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli_generate.helpers import checked, lastmods, run, written, zensical_build
from tests.support.gitrepo import GitRepo

BASE = "https://docs.example.org/"
JAN = "2024-01-15T12:00:00+00:00"
MAY = "2024-05-02T09:30:00+02:00"
CONFIGS = {
    "zensical.toml": (
        '[project]\nsite_name = "Example"\nsite_url = "https://docs.example.org/"\n{plugin}',
        "[project.plugins.meta]\n",
        ".meta.yml",
    ),
    "mkdocs.yml": (
        "site_name: Example\nsite_url: https://docs.example.org/\n{plugin}",
        "plugins:\n  - search\n  - meta:\n      meta_file: _folder.yml\n",
        "_folder.yml",
    ),
}


def _project(repo: GitRepo, config: str, *, meta_plugin: bool) -> str:
    """The pages, and meta files for the config's name; returns that name."""
    text, plugin, name = CONFIGS[config]
    repo.write(config, text.format(plugin=plugin if meta_plugin else ""))
    repo.write(".gitignore", "site/\n.cache/\n")
    repo.write(f"docs/{name}", "tags: [everywhere]\nsitemap:\n  changefreq: monthly\n")
    repo.write("docs/index.md", "# Home\n")
    repo.write(f"docs/guide/{name}", "tags: [guide]\nsitemap:\n  priority: 0.4\n")
    repo.write("docs/guide/install.md", "# Install\n")
    repo.write(
        "docs/guide/configure.md",
        "---\ntags: [own]\nsitemap:\n  priority: 0.9\n---\n\n# Configure\n",
    )
    repo.write(f"docs/guide/deep/{name}", "sitemap:\n  changefreq: yearly\n")
    repo.write("docs/guide/deep/details.md", "# Details\n")
    repo.write(f"docs/drafts/{name}", "sitemap:\n  exclude: true\n")
    repo.write("docs/drafts/idea.md", "# Idea\n")
    repo.write("docs/drafts/ready.md", "---\nsitemap:\n  exclude: false\n---\n\n# Ready\n")
    repo.commit("start", JAN)
    repo.write("docs/guide/install.md", "# Install\n\npip it\n")
    repo.commit("install", MAY)
    return name


def _tags(root: Path) -> dict[str, list[str]]:
    """Each page's tags in Zensical's search index: what the host merged into its metadata."""
    index = json.loads((root / "site/search.json").read_text("utf-8"))
    return {
        item["location"]: item["tags"] for item in index["items"] if "#" not in item["location"]
    }


@pytest.fixture(params=sorted(CONFIGS))
def config(request: pytest.FixtureRequest) -> str:
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    return str(request.param)


def test_pages_take_their_folders_sitemap_defaults(git_repo: GitRepo, config: str) -> None:
    _project(git_repo, config, meta_plugin=True)
    root = git_repo.root
    zensical_build(root)
    tags = _tags(root)
    assert tags["guide/deep/details/"] == ["everywhere", "guide"]  # three files, two with tags
    assert tags["guide/configure/"] == ["everywhere", "guide", "own"]  # lists join

    done = run("generate", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" not in done.stderr, done.stderr
    entries = checked(root / "site", BASE)
    assert set(lastmods(entries, BASE)) == {
        "",
        "guide/install/",
        "guide/configure/",
        "guide/deep/details/",
        "drafts/ready/",
    }
    said = {
        loc.removeprefix(BASE): (entry.changefreq, entry.priority) for loc, entry in entries.items()
    }
    assert said == {
        "": ("monthly", None),
        "guide/install/": ("monthly", "0.4"),
        "guide/configure/": ("monthly", "0.9"),  # its own priority wins
        "guide/deep/details/": ("yearly", "0.4"),  # the deeper folder's changefreq wins
        "drafts/ready/": ("monthly", None),  # its own exclude: false wins over the folder's
    }
    assert entries[BASE + "guide/install/"].lastmod == written(
        git_repo.log_date("docs/guide/install.md")
    )
    assert entries[BASE + "guide/configure/"].lastmod == written(JAN)


def test_without_the_meta_plugin_the_files_say_nothing(git_repo: GitRepo, config: str) -> None:
    _project(git_repo, config, meta_plugin=False)
    root = git_repo.root
    zensical_build(root)
    assert _tags(root)["guide/deep/details/"] == []  # the host did not read them either
    done = run("generate", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = checked(root / "site", BASE)
    assert BASE + "drafts/idea/" in entries
    assert entries[BASE + "guide/install/"].priority is None
    assert entries[BASE + "guide/configure/"].priority == "0.9"


def test_what_generate_cannot_merge_is_named(git_repo: GitRepo, config: str) -> None:
    """A meta file, and a page's front matter, changed after the build into what the host would
    stop on: one warning naming each file, every page still listed with what the rest says
    (the page's own value over a folder's it does not merge with), and ``--strict`` writes
    nothing."""
    name = _project(git_repo, config, meta_plugin=True)
    root = git_repo.root
    zensical_build(root)
    git_repo.write(f"docs/guide/{name}", "sitemap: [priority: 0.4\n")
    git_repo.write("docs/drafts/ready.md", "---\nsitemap: false\n---\n\n# Ready\n")
    done = run("generate", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 2, done.stderr
    broken = next(line for line in warnings if f"guide/{name}" in line)
    assert f"docs/guide/{name}: not valid YAML" in broken
    assert broken.endswith("its sitemap is ignored")
    ready = next(line for line in warnings if "ready.md" in line)
    merged = "{'changefreq': 'monthly', 'exclude': True}"  # the top folder's, then drafts/'s
    assert f"docs/drafts/ready.md: sitemap False does not merge with {merged}" in ready
    assert f"from docs/drafts/{name}" in ready
    assert ready.endswith("the page's own value is used")
    entries = checked(root / "site", BASE)
    assert BASE + "drafts/ready/" not in entries
    assert (
        entries[BASE + "guide/install/"].changefreq,
        entries[BASE + "guide/install/"].priority,
    ) == (
        "monthly",
        None,
    )
    assert (root / "site/sitemap.xml").is_file()
    (root / "site/sitemap.xml").unlink()
    strict = run("generate", "--strict", cwd=root)
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert not (root / "site/sitemap.xml").exists()
