"""A plain ``mkdocs build`` imports none of the package's modules for features it leaves off.

On a 100-page site the import was about half of what the sitemap added to the build; the core's
own test (``tests/core/test_import_cost.py``) checks the core alone, and this one the adapter,
which once imported the translated sites' module for every build.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build

pytestmark = pytest.mark.mkdocs

NOT_FOR_A_PLAIN_BUILD = {
    "sitemap_plugins.core.languages",  # mkdocs-static-i18n
    "sitemap_plugins.core.language_tags",
    "sitemap_plugins.core.date_syntax",  # a date written as text in front matter
    "sitemap_plugins.core.html_text",  # titles, for the page for humans
    "sitemap_plugins.core.human_page",
    "sitemap_plugins.core.indexnow",
    "sitemap_plugins.core.images",
    "sitemap_plugins.core.news",
    "sitemap_plugins.core.robots",
    "sitemap_plugins.core.spill",
    "sitemap_plugins.core.video",
}

HOOK = """
import json, sys

def on_shutdown():
    ours = sorted(name for name in sys.modules if name.startswith("sitemap_plugins"))
    with open("modules.json", "w", encoding="utf-8") as stream:  # mkdocs runs in the site
        json.dump(ours, stream)
"""


def _modules_after(root: Path) -> set[str]:
    mkdocs_build(root)
    assert (root / "site" / "sitemap.xml").is_file()
    return set(json.loads((root / "modules.json").read_text(encoding="utf-8")))


def test_a_plain_build_imports_no_optional_feature(git_repo: GitRepo) -> None:
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/guide.md", "---\ntitle: Guide\n---\n# Guide\n")
    git_repo.commit("pages", "2024-05-01T10:00:00+00:00")
    git_repo.write("hooks.py", HOOK)
    config = {
        "site_name": "S",
        "site_url": "https://example.org/",
        "plugins": ["search", "sitemap"],
        "hooks": ["hooks.py"],
    }
    git_repo.write("mkdocs.yml", yaml.safe_dump(config))
    modules = _modules_after(git_repo.root)
    assert "sitemap_plugins.mkdocs" in modules
    assert modules.isdisjoint(NOT_FOR_A_PLAIN_BUILD), modules & NOT_FOR_A_PLAIN_BUILD


def test_the_features_import_what_they_need(git_repo: GitRepo) -> None:
    """The other side: the modules named above are the ones these features use, so the first
    test cannot pass by naming modules no build imports."""
    git_repo.write("docs/index.md", "---\nsitemap:\n  lastmod: '2024-05-01'\n---\n# Home\n")
    git_repo.commit("pages", "2024-05-01T10:00:00+00:00")
    git_repo.write("hooks.py", HOOK)
    options = {"html_page": True, "robots_txt": True, "indexnow_key": "a1b2c3d4e5f6a7b8"}
    config = {
        "site_name": "S",
        "site_url": "https://example.org/",
        "plugins": ["search", {"sitemap": options}],
        "hooks": ["hooks.py"],
    }
    git_repo.write("mkdocs.yml", yaml.safe_dump(config))
    modules = _modules_after(git_repo.root)
    used = {
        "sitemap_plugins.core.date_syntax",
        "sitemap_plugins.core.html_text",
        "sitemap_plugins.core.human_page",
        "sitemap_plugins.core.indexnow",
        "sitemap_plugins.core.robots",
    }
    assert used <= modules, used - modules
