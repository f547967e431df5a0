"""``generate --html-page``: the plain page for humans after another tool's build.

``generate`` has no theme to render through, so it writes the core's plain page; it must list
exactly what the sitemap lists (with each page's own ``<title>``), and a second run must not
take the first run's page for a page of the site.
"""

from __future__ import annotations

from pathlib import Path

from tests.cli_generate.helpers import page, run
from tests.support.browser import check_in_browser
from tests.support.gitrepo import GitRepo
from tests.support.sitemap_checks import check_sitemap_file

BASE = "https://example.org/"
JAN = "2024-01-10T09:00:00+00:00"
APR = "2024-04-30T08:00:00+02:00"


def test_generate_writes_the_plain_page_and_never_lists_it(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    root = git_repo
    root.write("index.html", page("Home").replace("lang=en", "lang=de"))
    root.write("docs/a.html", page("A &amp; B"))
    root.write("docs/index.html", page("Docs"))
    root.commit("start", JAN)
    root.write("blog/post.html", page("Post"))
    root.commit("post", APR)
    for _ in range(2):  # the second run finds the first run's sitemap.html
        done = run("generate", ".", "--base-url", BASE, "--html-page", cwd=root.root)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("sitemap: 4 URLs in sitemap.xml"), done.stdout
    entries = check_sitemap_file(root.root / "sitemap.xml", BASE + "sitemap.xml")
    assert BASE + "sitemap.html" not in {entry.loc for entry in entries}
    text = (root.root / "sitemap.html").read_text("utf-8")
    assert '<html lang="de">' in text  # the site's own language
    assert '<time datetime="2024-04-30T08:00:00+02:00">2024-04-30</time>' in text
    check_in_browser(
        root.root,
        "sitemap.html",
        base_url=BASE,
        sitemap_relpath="sitemap.xml",
        titles={
            BASE: "Home",
            BASE + "blog/post.html": "Post",
            BASE + "docs/": "Docs",
            BASE + "docs/a.html": "A & B",
        },
        shot=tmp_path / "generate.png",
    )


def test_without_the_option_no_page(git_repo: GitRepo) -> None:
    git_repo.write("index.html", page("Home"))
    git_repo.commit("start", JAN)
    done = run("generate", ".", "--base-url", BASE, cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    assert not (git_repo.root / "sitemap.html").exists()
