"""After the build: MkDocs alone, then ``sitemap-plugins generate``, lists what the plugin lists.

Sites are moving to hosts without Python plugins (MkDocs 2.0, Zensical); their sitemaps should
not change on the way. The example site (front matter that dates, weights and excludes pages, a
404 page, a non-ASCII file name) with a Material blog (posts with ``date.updated`` and a plain
``date``) is built twice in one git repository: with the plugin, and by MkDocs alone followed by
``generate`` as a CI step runs it. Both sitemaps must list the same URLs with the same lastmod,
changefreq and priority, the blog's archive (dated by its newest post) included.
"""

from __future__ import annotations

import pytest

from tests.mkdocs.helpers import BASE, example_repo, sitemap, write_config
from tests.mkdocs.test_mkdocs import UPDATED_POST, material_blog_available
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build
from tests.support.sitemap_checks import check_sitemap_file


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_generate_after_mkdocs_lists_what_the_plugin_lists(git_repo: GitRepo) -> None:
    root = example_repo(git_repo)
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/updated.md", UPDATED_POST)
    git_repo.write("docs/blog/posts/plain.md", "---\ndate: 2023-03-07\n---\n\n# Plain\n\nText.\n")
    git_repo.commit("blog", "2024-10-01T00:00:00+00:00")
    blog = {"blog": {"categories": False}}
    write_config(git_repo, theme={"name": "material"}, plugins=["sitemap", blog])
    mkdocs_build(root, "--site-dir", "with-plugin")
    write_config(git_repo, theme={"name": "material"}, plugins=[blog])
    mkdocs_build(root, "--site-dir", "site")
    done = run("generate", cwd=root)  # site_url, docs_dir and site_dir from mkdocs.yml
    assert done.returncode == 0, done.stdout + done.stderr

    plugin = sitemap(root / "with-plugin")
    after = {
        entry.loc: entry
        for entry in check_sitemap_file(root / "site/sitemap.xml", BASE + "sitemap.xml")
    }
    assert set(after) == set(plugin)
    for loc in sorted(plugin):
        want, got = plugin[loc], after[loc]
        assert (got.lastmod, got.changefreq, got.priority) == (
            want.lastmod,
            want.changefreq,
            want.priority,
        ), loc
    assert plugin[BASE + "blog/archive/2023/"].lastmod == "2023-03-07"  # its newest post
    # What the example's front matter says, so that agreement is about something.
    assert plugin[BASE + "about/"].lastmod == "2024-05-01"
    assert plugin[BASE + "blog/2023/01/05/updated-post/"].lastmod == "2023-02-06"
    assert BASE + "internal/" not in plugin
