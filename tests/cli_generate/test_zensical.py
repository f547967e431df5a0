"""A real ``zensical build``, then ``sitemap-plugins generate`` with no argument: the CI step.

The project is a git repository whose sources were committed at chosen dates; ``site/`` is
ignored, as Zensical's own ``.gitignore`` advice has it. Zensical's sitemap has ``<loc>`` only;
ours replaces it, and every lastmod must be the last commit of the page's source (a blog post's
own ``date``, as the plugins take it), never the build's day. A shallow clone dates what its
history proves and nothing else.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.cli_generate.helpers import checked, lastmods, run, write, written, zensical_build
from tests.support.gitrepo import GitRepo

BASE = "https://docs.example.org/"
CONFIG = """\
[project]
site_name = "Example"
site_url = "https://docs.example.org/"

[project.plugins.blog]
"""
OLD = "2023-11-02T08:00:00+01:00"
JAN = "2024-01-15T12:00:00+00:00"
MAR = "2024-03-20T17:45:00-04:00"
MAY = "2024-05-02T09:30:00+02:00"


@pytest.fixture
def project(git_repo: GitRepo) -> GitRepo:
    """Docs pages and a blog, each page last changed at a different date."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", CONFIG)
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/guide/index.md", "# Guide\n")
    git_repo.write("docs/guide/install.md", "# Install\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.commit("start", OLD)
    git_repo.write(
        "docs/blog/posts/hello.md",
        "---\ndate:\n  created: 2024-01-10\n  updated: 2024-01-12\ncategories:\n  - News\n---\n\n"
        "# Hello world\n\nHi\n",
    )
    # A page's date, unlike a post's, often says when it was first written: git dates it.
    git_repo.write("docs/guide/install.md", "---\ndate: 2019-06-01\n---\n# Install\n\npip it\n")
    git_repo.commit("install, first post", JAN)
    git_repo.write("docs/blog/posts/second.md", "---\ndate: 2024-03-05\n---\n\n# Second post\n")
    git_repo.commit("second post", MAR)
    git_repo.write("docs/guide/index.md", "# Guide\n\nRead on.\n")
    git_repo.commit("guide", MAY)
    return git_repo


POSTS = {  # a post's date.updated, else its date, as the plugins take it from Material
    "blog/2024/01/10/hello-world/": "2024-01-12",
    "blog/2024/03/05/second-post/": "2024-03-05",
}

VIEWS = {  # as new as the newest post they list
    "blog/archive/2024/": max(POSTS.values()),  # generated, without a source
    "blog/category/news/": POSTS["blog/2024/01/10/hello-world/"],  # its one post
    # The blog's own page: as new as its source or its newest post, whichever is newer, as the
    # MkDocs plugin dates it; its source (committed at OLD) is the older here.
    "blog/": max(POSTS.values()),
}


def expected(repo: GitRepo) -> dict[str, str | None]:
    """Each URL's lastmod: a post's own date, else from git itself (the source's last commit)."""
    dates = {
        "": repo.log_date("docs/index.md"),
        "guide/": repo.log_date("docs/guide/index.md"),
        "guide/install/": repo.log_date("docs/guide/install.md"),
    }
    return {path: written(date) for path, date in dates.items()} | POSTS | VIEWS


def test_generate_with_no_argument_replaces_zensicals_sitemap(project: GitRepo) -> None:
    zensical_build(project.root)
    done = run("generate", cwd=project.root)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sitemap: 8 URLs in sitemap.xml; left out 1 (1 404 page)")
    entries = checked(project.root / "site", BASE)
    want = expected(project)
    assert lastmods(entries, BASE) == want
    assert want["guide/"] == MAY
    assert project.log_date("docs/blog/posts/second.md") == MAR  # not the post's own date
    # Zensical wrote no .gz, so none is added; and nothing dated the build's day.
    assert not (project.root / "site" / "sitemap.xml.gz").exists()
    assert "no lastmod" not in done.stderr


def test_a_deleted_post_moves_the_views_that_listed_it_forward(project: GitRepo) -> None:
    """Deleting the newest post changes the blog's page and its archive: they are as new as
    that commit, not as the post now newest, which would date them back, as the MkDocs
    plugin dates them. A view that never showed the post (its category is another) is dated
    by that commit all the same: later than needed, never earlier."""
    project.remove("docs/blog/posts/second.md")
    project.commit("unpublish the second post", "2024-07-01T12:00:00+00:00")
    zensical_build(project.root)
    done = run("generate", cwd=project.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(project.root / "site", BASE), BASE)
    views = ("blog/", "blog/archive/2024/", "blog/category/news/")
    assert {path: got[path] for path in views} == dict.fromkeys(views, "2024-07-01T12:00:00Z")
    assert "blog/2024/03/05/second-post/" not in got
    assert got["blog/2024/01/10/hello-world/"] == POSTS["blog/2024/01/10/hello-world/"]


@pytest.mark.parametrize(
    ("flags", "written"),
    [(("--filename", "map.xml"), "map.xml"), (("--format", "txt", "--filename", "x.txt"), "x.txt")],
    ids=["xml", "txt"],
)
def test_under_another_filename_zensicals_sitemap_goes(
    project: GitRepo, flags: tuple[str, ...], written: str
) -> None:
    """``--filename`` names a file the host never writes: Zensical's ``sitemap.xml`` (no
    lastmod at all) must not stay published beside it, first in line for crawlers, as the
    MkDocs plugin under that filename leaves none. Run again, the same files."""
    zensical_build(project.root)
    site = project.root / "site"
    for _ in range(2):
        done = run("generate", *flags, cwd=project.root)
        assert done.returncode == 0, done.stderr
        assert sorted(path.name for path in site.glob("*.xml*")) == (
            [written] if written.endswith(".xml") else []
        )
        assert (site / written).is_file()
    want = expected(project)
    if written.endswith(".xml"):
        assert lastmods(checked(site, BASE, written), BASE) == want
    else:
        lines = (site / written).read_text(encoding="utf-8").splitlines()
        assert sorted(lines) == sorted(BASE + path for path in want)


MATERIAL_READS = "Material reads sitemap.xml"
INSTANT = '\n[project.theme]\nfeatures = ["navigation.instant"]\n'


def material_reads(done: subprocess.CompletedProcess[str]) -> list[str]:
    """The lines of a run that say the theme reads a ``sitemap.xml`` the run leaves unwritten."""
    return [line for line in done.stderr.splitlines() if MATERIAL_READS in line]


def sitemap_files(site: Path) -> dict[str, bytes]:
    """The sitemap files at the top of ``site``, by name, as they are: Zensical writes no other
    file ending so there."""
    return {
        path.name: path.read_bytes()
        for path in site.glob("*.*")
        if path.suffix in (".xml", ".gz", ".txt") and path.is_file()
    }


@pytest.mark.parametrize(
    ("flags", "cause", "written"),
    [
        (("--gzip", "on"), "--gzip 'on' (sitemap.xml.gz alone)", "sitemap.xml.gz"),
        (("--format", "txt"), "--format 'txt' (sitemap.txt)", "sitemap.txt"),
        (("--filename", "map.xml"), "--filename 'map.xml'", "map.xml"),
    ],
    ids=["gzip-on", "txt", "filename"],
)
def test_zensicals_instant_navigation_reading_a_sitemap_xml_the_flags_leave_unwritten_is_a_warning(
    project: GitRepo, flags: tuple[str, ...], cause: str, written: str
) -> None:
    """Zensical's theme is Material's: its instant navigation follows in place only the links
    the site's ``sitemap.xml`` lists. ``generate`` removes the host's file when it writes none
    of that name, so without a word every page would load in full: a warning naming
    zensical.toml and the flag, as the MkDocs plugin gives it, and ``--strict`` fails."""
    project.write("zensical.toml", CONFIG + INSTANT)
    zensical_build(project.root)
    site = project.root / "site"
    bundles = list((site / "assets" / "javascripts").glob("bundle.*.min.js"))
    assert bundles
    assert any('new URL("sitemap.xml",' in bundle.read_text("utf-8") for bundle in bundles)
    before = sitemap_files(site)
    assert list(before) == ["sitemap.xml"]  # Zensical's own

    done = run("generate", *flags, "--strict", cwd=project.root)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = material_reads(done)
    assert line.startswith(f"warning: zensical.toml: {MATERIAL_READS}, which {cause} leaves ")
    assert "its instant navigation loads every page in full" in line
    assert "version selector" not in line
    assert sitemap_files(site) == before  # nothing written, nothing removed

    done = run("generate", *flags, cwd=project.root)
    assert done.returncode == 0, done.stderr
    assert len(material_reads(done)) == 1
    assert list(sitemap_files(site)) == [written]


def test_zensicals_version_selector_and_a_key_of_the_config_file_are_named(
    project: GitRepo,
) -> None:
    """The version selector (``extra.version`` with a ``provider``) finds the same page in
    another version in ``sitemap.xml``; a value from ``sitemap-plugins.toml`` is named with
    the file and its key. With the defaults, ``--gzip both``, features that read no sitemap,
    or no host config read, not a word."""
    project.write("zensical.toml", CONFIG + '\n[project.extra.version]\nprovider = "mike"\n')
    zensical_build(project.root)
    project.write("sitemap-plugins.toml", 'gzip = "on"\n')
    done = run("generate", "--strict", cwd=project.root)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = material_reads(done)
    assert "which gzip 'on' in sitemap-plugins.toml (sitemap.xml.gz alone) leaves " in line
    assert "its version selector lands on a version's home page" in line
    assert "instant navigation" not in line
    (project.root / "sitemap-plugins.toml").unlink()

    for text, flags in [
        (CONFIG + INSTANT, ()),
        (CONFIG + INSTANT, ("--gzip", "both")),
        (CONFIG + '\n[project.theme]\nfeatures = ["navigation.tabs"]\n', ("--gzip", "on")),
    ]:
        project.write("zensical.toml", text)
        done = run("generate", *flags, "--strict", cwd=project.root)
        assert done.returncode == 0, done.stderr
        assert not material_reads(done)
    project.write("zensical.toml", CONFIG + INSTANT)
    done = run(
        "generate", "site", "--no-host-config", "--base-url", BASE, "--gzip", "on", "--strict",
        cwd=project.root,
    )  # fmt: skip
    assert not material_reads(done)


def test_generate_in_a_shallow_clone_dates_only_what_its_history_proves(
    project: GitRepo, tmp_path: Path
) -> None:
    clone = project.clone(tmp_path / "clone", depth=3)  # MAY, MAR, and JAN at the boundary
    zensical_build(clone.root)
    done = run("generate", cwd=clone.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(clone.root / "site", BASE), BASE)
    truth = expected(project)
    # Dated by history: guide/; by their own front matter, whatever the depth: the posts, and
    # the views that list a post no older than the commit the clone stops at (the blog's own
    # page too: its source changed at the latest then, before its newest post). A post may
    # have left the posts folder before that commit, after the category's one post: no date.
    inside = {"guide/": MAY}
    unseen = {"blog/category/news/": None}
    assert got == {path: (inside | unseen).get(path, (POSTS | VIEWS).get(path)) for path in truth}
    assert {path: truth[path] for path in inside} == inside
    shallow = [line for line in done.stderr.splitlines() if "shallow clone" in line]
    assert len(shallow) == 1
    assert shallow[0].startswith("warning: 3 pages have no lastmod: ")


def test_a_base_url_the_pages_disown_writes_nothing_and_says_why(project: GitRepo) -> None:
    zensical_build(project.root)
    before = (project.root / "site" / "sitemap.xml").read_bytes()
    done = run("generate", "--base-url", "https://example.com/docs/", cwd=project.root)
    assert done.returncode == 1
    assert (
        "warning: 8 pages left out: their canonical link points to https://docs.example.org, "
        "another site than the base URL https://example.com/docs/ (is the base URL right?)"
    ) in done.stderr.splitlines()
    assert done.stdout.startswith("sitemap: 0 URLs in no file; left out 9 ")
    assert (project.root / "site" / "sitemap.xml").read_bytes() == before


def test_a_base_url_below_the_sites_folder_writes_nothing_and_says_why(project: GitRepo) -> None:
    """Every page's canonical link names its URL on the base URL's site, but outside its folder
    (the site is served at the top, not at ``v1/``): the pages are left out, and one line
    names the base URL and where the links point, not only that no page was left."""
    zensical_build(project.root)
    done = run("generate", "--base-url", BASE + "v1/", cwd=project.root)
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if "outside the base URL" in line]
    assert said == [
        "8 pages left out: their canonical link points outside the base URL "
        f"{BASE}v1/, such as {BASE} (is the base URL right?)"
    ]
    assert done.stdout.startswith("sitemap: 0 URLs in no file; left out 9 ")


@pytest.mark.parametrize(
    ("site_url", "base"),
    [
        ("https://bücher.example/docs/", "https://xn--bcher-kva.example/docs/"),
        ("https://example.org:443/docs/", "https://example.org/docs/"),
    ],
    ids=["idn", "default-port"],
)
def test_a_site_url_spelled_another_way_than_the_sitemap_keeps_every_page(
    git_repo: GitRepo, site_url: str, base: str
) -> None:
    """Zensical writes each canonical link with ``site_url`` as given (a Unicode host, the
    default port); the sitemap writes it as RFC 3986 advises (``xn--``, no ``:443``). The same
    site either way: every page is its own canonical URL, dated by git, and Zensical's
    sitemap is replaced."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", f'[project]\nsite_name = "X"\nsite_url = "{site_url}"\n')
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/guide.md", "# Guide\n")
    git_repo.commit("start", JAN)
    zensical_build(git_repo.root)
    guide = (git_repo.root / "site/guide/index.html").read_text(encoding="utf-8")
    assert f'rel="canonical" href="{site_url}guide/"' in guide  # as the host spells it
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    assert "canonical" not in done.stderr
    got = lastmods(checked(git_repo.root / "site", base), base)
    assert got == {"": written(JAN), "guide/": written(JAN)}


def test_pages_whose_sources_differ_only_in_case_each_keep_their_own(git_repo: GitRepo) -> None:
    """``docs/Case.md`` and ``docs/case.md`` are two pages where file names keep their case,
    built to ``Case/`` and ``case/``: each is dated and configured by its own source, as the
    MkDocs plugin does, not both by whichever the folder lists first."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", CONFIG)
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/Case.md", "---\nsitemap:\n  priority: 0.2\n---\n# Upper\n")
    git_repo.commit("upper", JAN)
    git_repo.write("docs/case.md", "---\nsitemap:\n  priority: 0.9\n---\n# Lower\n")
    git_repo.commit("lower", MAY)
    zensical_build(git_repo.root)
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    entries = checked(git_repo.root / "site", BASE)
    upper, lower = entries[BASE + "Case/"], entries[BASE + "case/"]
    assert (upper.lastmod, upper.priority) == (written(git_repo.log_date("docs/Case.md")), "0.2")
    assert (lower.lastmod, lower.priority) == (written(git_repo.log_date("docs/case.md")), "0.9")


def test_options_from_flags_and_the_config_file_win_over_the_hosts(project: GitRepo) -> None:
    zensical_build(project.root)
    write(
        project.root / "sitemap-plugins.toml",
        'gzip = "both"\nexclude = ["blog/archive/*", "blog/category/*"]\n'
        'lastmod_format = "date"\nrobots_txt = true\n',
    )
    done = run("generate", "--no-robots-txt", cwd=project.root)
    assert done.returncode == 0, done.stderr
    site = project.root / "site"
    got = lastmods(checked(site, BASE), BASE)
    assert set(got) == set(expected(project)) - {"blog/archive/2024/", "blog/category/news/"}
    assert got["guide/"] == "2024-05-02"  # the UTC day of 09:30 at +02:00
    assert got["blog/2024/03/05/second-post/"] == "2024-03-05"  # the post's own day
    assert (site / "sitemap.xml.gz").is_file()
    assert not (site / "robots.txt").exists()  # the flag beat the file


def test_without_directory_urls_a_folders_index_page_is_dated_by_its_own_source(
    git_repo: GitRepo,
) -> None:
    """``use_directory_urls = false``: ``guide.md`` is built to ``guide.html``, and
    ``guide/index.md`` to ``guide/index.html``, which ``guide.md`` never dates nor configures."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", CONFIG.replace("\n\n", "\nuse_directory_urls = false\n\n"))
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/guide.md", "---\nsitemap:\n  priority: 0.1\n---\n\n# Guide overview\n")
    git_repo.commit("start", OLD)
    git_repo.write("docs/guide/index.md", "# Guide\n")
    git_repo.commit("guide index", JAN)
    zensical_build(git_repo.root)
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    entries = checked(git_repo.root / "site", BASE)
    overview, index = entries[BASE + "guide.html"], entries[BASE + "guide/index.html"]
    assert (overview.lastmod, overview.priority) == (written(OLD), "0.1")
    own = written(git_repo.log_date("docs/guide/index.md"))
    assert (index.lastmod, index.priority) == (own, None)


def test_without_directory_urls_blog_posts_and_views_are_dated(project: GitRepo) -> None:
    """``use_directory_urls = false``: Zensical writes each page to ``x.html`` (a folder's index
    to ``x/index.html``), blog posts and views too; each keeps the date it has with directory
    URLs."""
    project.write("zensical.toml", CONFIG.replace("\n\n", "\nuse_directory_urls = false\n\n"))
    zensical_build(project.root)
    done = run("generate", cwd=project.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(project.root / "site", BASE), BASE)
    indexes = {"", "guide/", "blog/"}  # the folders whose index.md is their page
    want = {
        path + "index.html" if path in indexes else path.removesuffix("/") + ".html": date
        for path, date in expected(project).items()
    }
    assert got == want


def test_posts_whose_titles_are_not_plain_ascii_words_are_found(git_repo: GitRepo) -> None:
    """Zensical makes a title a slug as ``pymdownx.slugs.slugify(case="lower")`` does (Unicode
    kept, each space a dash), or takes the post's ``slug``: each post is found, dated by its
    own date with its own settings, and the archive by the newest of them."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", CONFIG)
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    titles = {  # each post's own day, on which nothing else is published
        "2024-01-10": "Café au lait",
        "2024-02-10": "Tips & tricks",
        "2024-03-10": "Before - after",
        "2024-04-10": "日本語のタイトル",
    }
    for day, title in titles.items():
        git_repo.write(
            f"docs/blog/posts/{day}.md",
            f"---\ndate: {day}\nsitemap:\n  priority: 0.9\n---\n\n# {title}\n\nHi\n",
        )
    git_repo.write(
        "docs/blog/posts/own.md", "---\ndate: 2024-05-10\nslug: my-own\n---\n\n# Über & alles\n"
    )
    git_repo.commit("posts", MAY)
    zensical_build(git_repo.root)
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    entries = checked(git_repo.root / "site", BASE)
    posts = {  # by the day in each post's URL, whatever Zensical made of its title
        loc.removeprefix(BASE + "blog/")[:10].replace("/", "-"): entry
        for loc, entry in entries.items()
        if loc.startswith(BASE + "blog/2024/")
    }
    assert {day: (posts[day].lastmod, posts[day].priority) for day in titles} == {
        day: (day, "0.9") for day in titles
    }
    assert entries[BASE + "blog/2024/05/10/my-own/"].lastmod == "2024-05-10"
    assert entries[BASE + "blog/archive/2024/"].lastmod == "2024-05-10"


def test_the_slugs_are_the_blog_plugins() -> None:
    """The slugs :mod:`sitemap_plugins.generate.blog` makes without pymdown-extensions are
    those of the functions the blog plugins call, on titles of many kinds."""
    slugs = pytest.importorskip("pymdownx.slugs", reason="pymdown-extensions is not installed")
    from markdown.extensions.toc import slugify

    from sitemap_plugins.generate.blog import slugify_ascii, slugify_unicode

    unicode_slug = slugs.slugify(case="lower")
    titles = [
        "Hello world", "Café au lait", "Tips & tricks", "Before - after", "  Multiple   spaces ",
        "Straße", "ﬁne ligature", "x² and ½", "İstanbul", "Ǆ digraph", "Emoji 🎉 party",
        "It's (really) done!", "<em>Tagged</em> title", "snake_case and kebab-case",
        "日本語のタイトル", "Tab\tinside", "Ελληνικά Κεφαλαία", "e\u0301 decomposed",
    ]  # fmt: skip
    assert [slugify_unicode(title) for title in titles] == [
        unicode_slug(title, "-") for title in titles
    ]
    assert [slugify_ascii(title) for title in titles] == [slugify(title, "-") for title in titles]


def test_every_page_of_a_paginated_view_is_as_new_as_the_views_newest_post(
    git_repo: GitRepo,
) -> None:
    """A blog view's later pages (``blog/page/2/``, an archive's, a category's) are as new as
    the newest post of the whole view, as the MkDocs plugin dates them, not only of the posts
    each page shows: here the oldest post, shown last, was updated last."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", CONFIG + "pagination_per_page = 2\n")
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    updated = "2024-06-20"
    git_repo.write(
        "docs/blog/posts/p1.md",
        f"---\ndate:\n  created: 2024-01-10\n  updated: {updated}\ncategories:\n  - News\n---\n\n"
        "# Post 1\n\nHi\n",
    )
    for number in range(2, 6):
        git_repo.write(
            f"docs/blog/posts/p{number}.md",
            f"---\ndate: 2024-0{number}-10\ncategories:\n  - News\n---\n\n# Post {number}\n\nHi\n",
        )
    git_repo.commit("posts", MAY)
    zensical_build(git_repo.root)
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(git_repo.root / "site", BASE), BASE)
    views = {
        path: date
        for path, date in got.items()
        if path.startswith(("blog/page/", "blog/archive/", "blog/category/"))
    }
    assert len([path for path in views if "/page/" in path]) == 6  # two later pages a view
    assert views == dict.fromkeys(views, updated)
