"""After the build: MkDocs alone, then ``sitemap-plugins generate``, lists what the plugin lists.

Sites are moving to hosts without Python plugins (MkDocs 2.0, Zensical); their sitemaps should
not change on the way. The example site (front matter that dates, weights and excludes pages, a
404 page, a non-ASCII file name) with a Material blog (posts with ``date.updated`` and a plain
``date``) is built twice in one git repository: with the plugin, and by MkDocs alone followed by
``generate`` as a CI step runs it. Both sitemaps must list the same URLs with the same lastmod,
changefreq and priority, the blog's archive (dated by its newest post) included.
"""

from __future__ import annotations

import datetime as dt
import gzip
import importlib.metadata
import json
import re
import subprocess
from collections.abc import Iterable
from pathlib import Path

import pytest
import yaml

from tests.mkdocs.helpers import (
    BASE,
    COMMITS,
    english_and_french,
    example_repo,
    i18n_version,
    sitemap,
    write_config,
)
from tests.mkdocs.test_mkdocs import UPDATED_POST, material_blog_available
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output
from tests.support.sitemap_checks import UrlEntry, check_sitemap_file


def built_both_ways(
    repo: GitRepo,
    *plugins: object,
    generate: tuple[str, ...] = (),
    options: dict[str, list[object]] | None = None,
    written_by_build: tuple[str, ...] = (),
    theme: str = "material",
    **settings: object,
) -> dict[str, UrlEntry]:
    """The site built with Material, ``plugins`` and the mkdocs.yml ``settings`` twice: with
    the sitemap plugin (into ``with-plugin/``), and alone then ``generate`` as a CI step runs
    it (``site/``; with the arguments ``generate``, by default none). Both sitemaps must list
    the same URLs with the same lastmod, changefreq and priority; returns the plugin's.
    ``options`` are given to both: the plugin's in mkdocs.yml, ``generate``'s in
    ``sitemap-plugins.toml`` (each value a list, written as TOML's JSON-like arrays).
    ``written_by_build`` are sources a build writes when they are missing (Material's blog
    index): removed before each build, so that each build writes them anew, as on CI.
    ``theme`` is the theme both builds use."""
    root = repo.root
    sitemap_plugin: object = {"sitemap": options} if options else "sitemap"
    write_config(repo, theme={"name": theme}, plugins=[sitemap_plugin, *plugins], **settings)
    for relpath in written_by_build:
        (root / relpath).unlink(missing_ok=True)
    mkdocs_build(root, "--site-dir", "with-plugin")
    if options:
        toml = "".join(f"{key} = {_toml(value)}\n" for key, value in options.items())
        repo.write("sitemap-plugins.toml", toml)
    write_config(repo, theme={"name": theme}, plugins=[*plugins], **settings)
    for relpath in written_by_build:
        (root / relpath).unlink(missing_ok=True)
    mkdocs_build(root, "--site-dir", "site")
    for relpath in written_by_build:
        assert (root / relpath).is_file(), relpath  # the build wrote it
    done = run("generate", *generate, cwd=root)  # by default all from mkdocs.yml
    assert done.returncode == 0, done.stdout + done.stderr
    plugin_entries = sitemap(root / "with-plugin")
    after = {
        entry.loc: entry
        for entry in check_sitemap_file(root / "site/sitemap.xml", BASE + "sitemap.xml")
    }
    assert set(after) == set(plugin_entries)
    for loc in sorted(plugin_entries):
        want, got = plugin_entries[loc], after[loc]
        assert (got.lastmod, got.changefreq, got.priority) == (
            want.lastmod,
            want.changefreq,
            want.priority,
        ), loc
    return plugin_entries


def _toml(value: object) -> str:
    """A list of strings, numbers and flat tables as TOML writes it."""
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{key} = {_toml(item)}" for key, item in value.items()) + "}"
    return json.dumps(value)


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_generate_after_mkdocs_lists_what_the_plugin_lists(git_repo: GitRepo) -> None:
    example_repo(git_repo)
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/updated.md", UPDATED_POST)
    git_repo.write("docs/blog/posts/plain.md", "---\ndate: 2023-03-07\n---\n\n# Plain\n\nText.\n")
    git_repo.commit("blog", "2024-10-01T00:00:00+00:00")
    blog = {"blog": {"categories": False}}
    plugin = built_both_ways(git_repo, blog)
    assert plugin[BASE + "blog/archive/2023/"].lastmod == "2023-03-07"  # its newest post
    # What the example's front matter says, so that agreement is about something.
    assert plugin[BASE + "about/"].lastmod == "2024-05-01"
    assert plugin[BASE + "blog/2023/01/05/updated-post/"].lastmod == "2023-02-06"
    assert BASE + "internal/" not in plugin


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_generate_dates_the_blogs_own_page_by_its_newest_post_as_the_plugin_does(
    git_repo: GitRepo,
) -> None:
    """The blog's own page (``blog/index.md``) shows the newest posts: a post published after
    its source last changed makes it as new as that post, for the plugin and for ``generate``
    alike; a later edit of the source counts as well."""
    example_repo(git_repo)
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/plain.md", "---\ndate: 2023-03-07\n---\n\n# Plain\n\nText.\n")
    git_repo.commit("blog", "2024-10-01T00:00:00+00:00")
    git_repo.write("docs/blog/posts/new.md", "---\ndate: 2024-11-05\n---\n\n# New\n\nNews.\n")
    git_repo.commit("a new post", "2024-11-05T12:00:00+00:00", "docs/blog/posts/new.md")
    blog = {"blog": {"categories": False}}
    assert built_both_ways(git_repo, blog)[BASE + "blog/"].lastmod == "2024-11-05"  # the post
    git_repo.write("docs/blog/index.md", "# Blog\n\nAll our news.\n")
    git_repo.commit("intro", "2024-12-02T08:00:00+00:00", "docs/blog/index.md")
    assert built_both_ways(git_repo, blog)[BASE + "blog/"].lastmod == "2024-12-02T08:00:00Z"


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
@pytest.mark.parametrize("depth", [None, 1], ids=["full-clone", "shallow-clone"])
def test_generate_dates_the_blog_index_material_writes_as_the_plugin_does(
    git_repo: GitRepo, tmp_path: Path, depth: int | None
) -> None:
    """Material's blog writes ``docs/blog/index.md`` during the build when the site has none:
    untracked, its file time is the build's, on every CI build. ``generate``, after the build,
    dates the blog's page by the newest post it shows, as the plugin does, never by that time;
    in a shallow clone, where a post may have been deleted before the one commit it holds
    (after the newest post shown), not at all. A page edited and not committed keeps its file
    time, and so does a blog index its author wrote, newer than any such deletion."""
    example_repo(git_repo)
    git_repo.write(".gitignore", "site/\nwith-plugin/\n.cache/\n")
    git_repo.write("docs/blog/posts/updated.md", UPDATED_POST)
    git_repo.write("docs/blog/posts/plain.md", "---\ndate: 2023-03-07\n---\n\n# Plain\n\nText.\n")
    git_repo.commit("a blog without an index", "2024-10-01T00:00:00+00:00")
    repo = git_repo if depth is None else git_repo.clone(tmp_path / "clone", depth=depth)
    edited = repo.write("docs/guide/configure.md", "# Configure\n\nEdited, not committed.\n")
    blog = {"blog": {"categories": False}}
    index = "docs/blog/index.md"
    plugin = built_both_ways(repo, blog, written_by_build=(index,))
    assert f"?? {index}" in repo.git("status", "--short")  # Material's, as on every CI build
    newest_post = "2023-03-07" if depth is None else None
    assert plugin[BASE + "blog/"].lastmod == newest_post  # never the build
    assert plugin[BASE + "guide/configure/"].lastmod == _file_time(edited)
    own = repo.write(index, "# Blog\n\nOur news.\n")  # the author's own, not committed
    plugin = built_both_ways(repo, blog)
    assert plugin[BASE + "blog/"].lastmod == _file_time(own)


def _file_time(path: Path) -> str:
    """The lastmod a file's modification time gives, as written by default."""
    moment = dt.datetime.fromtimestamp(int(path.stat().st_mtime), dt.timezone.utc)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


WATCH = """---
sitemap:
  priority: 0.6
  video:
    - thumbnail_loc: media/intro.jpg
      title: Five minutes with the plugin & its options
      description: >-
        Installing and configuring the plugin
        on a new site.
      content_loc: https://cdn.example.org/intro.mp4
      duration: 300
      publication_date: 2024-05-01
      tag: [install, setup]
      restriction: {allow: [IE, GB]}
      uploader:
        name: The team
        info: https://example.org/about/
    - {thumbnail_loc: "https://cdn.example.org/b.jpg", title: B, description: "Two",
       player_loc: "https://example.org/player?v=2&autoplay=0", family_friendly: no}
---

# Watch
"""


def test_generate_lists_the_videos_a_page_declares_as_the_plugin_does(git_repo: GitRepo) -> None:
    """A page's videos are front matter in every form YAML allows (nested lists and mappings,
    flow style over two lines, a folded description): ``generate`` reads them whole, as MkDocs
    does, and writes the sitemap the plugin writes, byte for byte."""
    root = example_repo(git_repo)
    git_repo.write("docs/watch.md", WATCH)
    git_repo.commit("watch", "2024-10-01T00:00:00+00:00")
    write_config(git_repo, plugins=["sitemap"])
    mkdocs_build(root, "--site-dir", "with-plugin", "--strict")
    write_config(git_repo, plugins=[])
    mkdocs_build(root, "--site-dir", "site")
    done = run("generate", "--strict", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr

    written = (root / "site/sitemap.xml").read_bytes()
    assert written == (root / "with-plugin/sitemap.xml").read_bytes()
    watch = sitemap(root / "site")[BASE + "watch/"]
    assert watch.priority == "0.6"
    videos = check_sitemap_file(root / "site/sitemap.xml", BASE + "sitemap.xml")
    assert [v.loc for v in videos if v.loc == BASE + "watch/"] == [BASE + "watch/"]
    assert written.count(b"<video:video>") == 2
    for text in (
        b"<video:thumbnail_loc>https://example.org/watch/media/intro.jpg</video:thumbnail_loc>",
        b"<video:title>Five minutes with the plugin &amp; its options</video:title>",
        b"<video:description>Installing and configuring the plugin on a new site.</video:desc",
        b"<video:tag>setup</video:tag>",
        b'<video:restriction relationship="allow">IE GB</video:restriction>',
        b'<video:uploader info="https://example.org/about/">The team</video:uploader>',
        b"<video:player_loc>https://example.org/player?v=2&amp;autoplay=0</video:player_loc>",
        b"<video:family_friendly>no</video:family_friendly>",
    ):
        assert text in written, text


def test_generate_takes_material_meta_files_as_the_plugin_does(git_repo: GitRepo) -> None:
    """Material's meta plugin merges each folder's ``.meta.yml`` into its pages' metadata, which
    the plugin receives; ``generate`` reads the same files after MkDocs alone built the site."""
    pytest.importorskip(
        "material.plugins.meta.plugin",
        reason="the meta plugin needs Material 9.6+ (this session has an older one)",
    )
    example_repo(git_repo)
    git_repo.write("docs/.meta.yml", "sitemap:\n  changefreq: yearly\n")
    git_repo.write("docs/guide/.meta.yml", "sitemap:\n  priority: 0.3\n")
    git_repo.write("docs/reference/.meta.yml", "sitemap:\n  exclude: true\n")
    git_repo.commit("folder defaults", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, "meta")
    # What the folders' files and the pages' front matter say, so that agreement is about them.
    configure, install = plugin[BASE + "guide/configure/"], plugin[BASE + "guide/install/"]
    assert (configure.changefreq, configure.priority) == ("yearly", "0.3")
    assert (install.changefreq, install.priority) == ("monthly", "0.8")  # its own front matter
    assert BASE + "reference/options/" not in plugin


def test_generate_leaves_out_404_pages_and_redirect_stubs_as_the_plugin_does(
    git_repo: GitRepo,
) -> None:
    """A page named 404 in a folder (``docs/http/404.md``, about the status code) is listed by
    both, the site's own not-found page by neither. A stub mkdocs-redirects writes over a page
    of another name (``moved/index.md`` over ``moved.md``, ``guide/README.md`` over
    ``guide/index.md``) is left out by both: the plugin knows where each stub goes,
    ``generate`` reads it."""
    example_repo(git_repo)
    for relpath in ("http/404.md", "moved.md", "guide/index.md"):
        git_repo.write(f"docs/{relpath}", f"# {relpath}\n")
    git_repo.commit("more pages", "2024-10-01T00:00:00+00:00")
    maps = {"moved/index.md": "about.md", "guide/README.md": "about.md"}
    plugin = built_both_ways(git_repo, "search", {"redirects": {"redirect_maps": maps}})
    # What MkDocs and mkdocs-redirects wrote, so that agreement is about something.
    assert 'http-equiv="refresh"' in (git_repo.root / "site/moved/index.html").read_text("utf-8")
    assert BASE + "http/404/" in plugin
    assert not {BASE + "404/", BASE + "moved/", BASE + "guide/"} & set(plugin)


@pytest.mark.parametrize("directory_urls", [True, False])
@pytest.mark.parametrize("theme", ["mkdocs", "readthedocs", "material"])
def test_generate_leaves_out_the_search_page_a_theme_has_as_the_plugin_does(
    git_repo: GitRepo, theme: str, directory_urls: bool
) -> None:
    """MkDocs' search plugin writes ``search.html`` at the top of the site for a theme that
    asks for a search page (readthedocs): no document, so the plugin never lists it, and
    ``generate`` leaves it out too. A document MkDocs saved as ``search.html`` (the mkdocs
    theme, which has no search page, without directory URLs) is listed by both."""
    example_repo(git_repo)
    own_page = theme == "mkdocs" and not directory_urls
    if own_page:
        git_repo.write("docs/search.md", "# How to search\n")
        git_repo.commit("a page about searching", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, "search", theme=theme, use_directory_urls=directory_urls)
    written = (git_repo.root / "site/search.html").is_file()
    assert written == (theme == "readthedocs" or own_page)  # so that agreement is about it
    assert (BASE + "search.html" in plugin) == own_page


def test_a_page_of_yours_saved_as_search_html_and_kept_out_of_search_is_listed_by_both(
    git_repo: GitRepo,
) -> None:
    """Material writes no ``search.html`` of its own, but its search plugin writes the search
    index beside the site: ``docs/search.md`` without directory URLs is saved as
    ``search.html``, and Material's ``search: exclude: true`` keeps it out of that index. The
    page has a source, so it is the user's, listed by the plugin and by ``generate``."""
    example_repo(git_repo)
    git_repo.write(
        "docs/search.md", "---\nsearch:\n  exclude: true\n---\n# Search tips\n\nThe box.\n"
    )
    git_repo.commit("a page about searching", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, "search", use_directory_urls=False)
    # What the build wrote, so that agreement is about it: the page, kept out of the index.
    index = json.loads((git_repo.root / "site/search/search_index.json").read_text("utf-8"))
    assert "search.html" not in {document["location"] for document in index["docs"]}
    assert "Search tips" in (git_repo.root / "site/search.html").read_text("utf-8")
    assert plugin[BASE + "search.html"].lastmod == "2024-10-01T00:00:00Z"


SUB_DELIMITERS = ("a&b", "it's", "x(1)", "p+q=r", "one,two;three", "at@home!", "cost$", "star*")
"""File names holding RFC 3986 sub-delimiters: a URL may carry them raw or encoded, and MkDocs
encodes them in every link it writes (``a%26b/``)."""


def test_generate_spells_urls_as_the_plugin_and_the_page_do(git_repo: GitRepo) -> None:
    """A page's URL is spelled one way: the plugin's, which is MkDocs' own (its canonical link,
    its navigation). ``generate`` on MkDocs' output must write the same ``<loc>``, not another
    spelling of the same address."""
    example_repo(git_repo)
    for name in SUB_DELIMITERS:
        git_repo.write(f"docs/odd/{name}.md", f"# {name}\n")
    git_repo.commit("odd names", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, "search")
    for name in SUB_DELIMITERS:
        html = (git_repo.root / "site" / "odd" / name / "index.html").read_text("utf-8")
        canonical = re.search(r'<link rel="canonical" href="([^"]+)"', html)
        assert canonical is not None, name
        assert canonical.group(1) in plugin, canonical.group(1)  # as the page names itself


def test_generate_matches_exclude_and_rules_on_source_files_as_the_plugin_does(
    git_repo: GitRepo,
) -> None:
    """``exclude`` and ``rules`` globs match the served path or the source file: written for
    the plugin against ``docs/...md``, they keep their meaning in ``generate``, which knows
    each page's source from its layout; globs on the served path still match too."""
    example_repo(git_repo)
    git_repo.write("docs/drafts/wip.md", "# WIP\n")
    git_repo.write("docs/drafts/notes.md", "# Notes\n")
    git_repo.commit("drafts", "2024-10-01T00:00:00+00:00")
    options: dict[str, list[object]] = {
        "exclude": ["docs/drafts/w*.md", "drafts/notes/"],
        "rules": [
            {"pattern": "docs/guide/configure.md", "priority": 0.2},
            {"pattern": "about/", "changefreq": "yearly"},
        ],
    }
    plugin = built_both_ways(git_repo, "search", options=options)
    # What the globs say, so that agreement is about them.
    assert BASE + "drafts/wip/" not in plugin
    assert BASE + "drafts/notes/" not in plugin
    assert plugin[BASE + "guide/configure/"].priority == "0.2"
    assert plugin[BASE + "about/"].changefreq == "yearly"


WITHOUT_THE_HOSTS_CONFIG = (
    "site", "--no-host-config", "--source", "docs", "--layout", "mkdocs",
    "--base-url", BASE, "--keep-index-html",
)  # fmt: skip
"""``generate`` told only the folders and the layout, not ``use_directory_urls``: what it
knows of the URL style is what the built site shows."""


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
@pytest.mark.parametrize(
    "generate", [(), WITHOUT_THE_HOSTS_CONFIG], ids=["mkdocs.yml", "no-host-config"]
)
def test_without_directory_urls_a_folders_index_page_is_its_own(
    git_repo: GitRepo, generate: tuple[str, ...]
) -> None:
    """With ``use_directory_urls: false``, ``guide.md`` is ``guide.html`` and ``guide/index.md``
    is ``guide/index.html``: each page is dated by, and takes the settings of, its own source,
    whether ``generate`` read mkdocs.yml or not."""
    example_repo(git_repo)
    git_repo.write("docs/guide.md", "---\nsitemap:\n  priority: 0.1\n---\n\n# Guide overview\n")
    git_repo.commit("guide overview", "2024-10-01T00:00:00+00:00")
    git_repo.write("docs/guide/index.md", "# Guide\n")
    git_repo.commit("guide index", "2024-11-02T00:00:00+00:00")
    plugin = built_both_ways(git_repo, generate=generate, use_directory_urls=False)
    # What each source says, so that agreement is about something: two dates, one priority.
    overview, index = plugin[BASE + "guide.html"], plugin[BASE + "guide/index.html"]
    assert overview.priority == "0.1"
    assert index.priority is None
    assert overview.lastmod is not None
    assert index.lastmod is not None
    assert index.lastmod > overview.lastmod


NOT_TOLD_THE_URL_STYLE = ("site", "--no-host-config", "--source", "docs", "--layout", "mkdocs")


@pytest.mark.parametrize(
    "generate",
    [(), (*NOT_TOLD_THE_URL_STYLE, "--base-url", BASE)],
    ids=["mkdocs.yml", "no-host-config"],
)
def test_a_page_of_yours_named_search_beside_the_themes_search_page_is_listed_alone(
    git_repo: GitRepo, generate: tuple[str, ...]
) -> None:
    """With directory URLs ``docs/search.md`` is ``search/``, and the readthedocs theme's
    search page is ``search.html`` beside it. Not told ``use_directory_urls``, ``generate``
    took ``search.md`` for the source of ``search.html`` too (a built ``x.html`` was ``x.md``'s
    page) and listed the theme's page; the site's ``search/`` says which one ``search.md``
    built."""
    example_repo(git_repo)
    git_repo.write("docs/search.md", "# Search tips\n\nThe box.\n")
    git_repo.commit("a page about searching", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, "search", theme="readthedocs", generate=generate)
    assert (git_repo.root / "site/search.html").is_file()  # so that leaving it out is about it
    assert BASE + "search.html" not in plugin
    assert plugin[BASE + "search/"].lastmod == "2024-10-01T00:00:00Z"


@pytest.mark.parametrize(
    "generate", [(), WITHOUT_THE_HOSTS_CONFIG], ids=["mkdocs.yml", "no-host-config"]
)
def test_without_directory_urls_a_folder_page_copied_as_it_is_takes_no_source(
    git_repo: GitRepo, generate: tuple[str, ...]
) -> None:
    """``docs/api.md`` is ``api.html`` without directory URLs; ``docs/api/index.html``, an HTML
    file of the docs, is copied as it is beside it. Not told the URL style, ``generate`` took
    the copy for ``api.md``'s page and left ``api.html`` undated."""
    example_repo(git_repo)
    git_repo.write("docs/api.md", "# API\n")
    git_repo.write("docs/api/index.html", "<!DOCTYPE html><title>API index</title><p>Kept.</p>\n")
    git_repo.commit("api", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, generate=generate, use_directory_urls=False)
    assert (git_repo.root / "site/api/index.html").is_file()  # so that it is about it
    assert plugin[BASE + "api.html"].lastmod == "2024-10-01T00:00:00Z"


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
@pytest.mark.parametrize(
    "generate", [(), WITHOUT_THE_HOSTS_CONFIG], ids=["mkdocs.yml", "no-host-config"]
)
def test_without_directory_urls_blog_posts_are_found(
    git_repo: GitRepo, generate: tuple[str, ...]
) -> None:
    """With ``use_directory_urls: false`` Material writes a post to ``.../<slug>.html``:
    ``generate`` finds it there, with its own date and settings, and dates the archive by it."""
    example_repo(git_repo)
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/updated.md", UPDATED_POST)
    git_repo.write(
        "docs/blog/posts/plain.md",
        "---\ndate: 2023-03-07\nsitemap:\n  priority: 0.9\n---\n\n# Plain\n\nText.\n",
    )
    git_repo.commit("blog", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(
        git_repo, {"blog": {"categories": False}}, generate=generate, use_directory_urls=False
    )
    # What the posts say, so that agreement is about something.
    posts = {loc: entry for loc, entry in plugin.items() if loc.startswith(BASE + "blog/2023/")}
    assert sorted(loc.endswith(".html") for loc in posts) == [True, True]
    assert sorted((entry.lastmod, entry.priority) for entry in posts.values()) == [
        ("2023-02-06", None),  # UPDATED_POST's date.updated
        ("2023-03-07", "0.9"),
    ]
    assert plugin[BASE + "blog/archive/2023.html"].lastmod == "2023-03-07"


TITLED_POSTS = {  # each post's own date and title, written as authors write them
    "cafe.md": ("2023-04-01", "Café au lait"),
    "tips.md": ("2023-05-02", "Tips & tricks"),
    "dash.md": ("2023-06-03", "Before - after"),
    "japanese.md": ("2023-07-04", "日本語のタイトル"),
}


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_generate_finds_posts_whose_titles_are_not_plain_ascii_words(git_repo: GitRepo) -> None:
    """A post's URL is its title made a slug, in the way of the Material release that built
    it (Unicode kept and each space a dash since 9.4.12, Python-Markdown's ASCII slug before),
    or the ``slug`` it declares: ``generate`` finds each post, dated by its own date and with
    its own settings, whichever release built the site."""
    example_repo(git_repo)
    git_repo.write("docs/blog/index.md", "# Blog\n")
    for name, (day, title) in TITLED_POSTS.items():
        git_repo.write(
            f"docs/blog/posts/{name}",
            f"---\ndate: {day}\nsitemap:\n  changefreq: yearly\n---\n\n# {title}\n\nText.\n",
        )
    git_repo.write(
        "docs/blog/posts/own.md",
        "---\ndate: 2023-08-05\nslug: my-own-slug\n---\n\n# Über & alles\n\nText.\n",
    )
    git_repo.commit("blog", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, {"blog": {"categories": False}})
    # What the posts say, so that agreement is about something: each one's own date.
    posts = {
        loc.removeprefix(BASE + "blog/")[:10]: entry
        for loc, entry in plugin.items()
        if loc.startswith(BASE + "blog/2023/")
    }
    days = {day.replace("-", "/"): day for day, _ in TITLED_POSTS.values()}
    assert {day: posts[day].lastmod for day in days} == {day: days[day] for day in days}
    assert {posts[day].changefreq for day in days} == {"yearly"}
    assert posts["2023/08/05"].lastmod == "2023-08-05"
    assert plugin[BASE + "blog/2023/08/05/my-own-slug/"].lastmod == "2023-08-05"


def later_pages_have_their_own_urls() -> bool:
    """Whether Material gives a blog view's later pages their own URLs (``blog/page/2/``).
    Before 9.4 their ``file.url`` is the view's, which the plugin then lists once, although
    the pages are written to their own folders (seen with 9.3.2)."""
    if not material_blog_available():
        return False
    version = importlib.metadata.version("mkdocs-material").split(".")
    return tuple(int(part) for part in version[:2]) >= (9, 4)


@pytest.mark.skipif(
    not later_pages_have_their_own_urls(),
    reason="needs mkdocs-material 9.4+, where a view's later pages have URLs of their own",
)
@pytest.mark.parametrize("directory_urls", [True, False], ids=["directory-urls", "html-urls"])
def test_every_page_of_a_paginated_view_is_as_new_as_the_views_newest_post(
    git_repo: GitRepo, directory_urls: bool
) -> None:
    """The plugin dates each page of a blog view (the index's later pages, an archive's or a
    category's pages) by the newest of all the posts of the view, not only those the page
    shows: ``generate`` does too. The oldest post, shown last, was updated last."""
    example_repo(git_repo)
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write(
        "docs/blog/posts/p1.md",
        "---\ndate:\n  created: 2024-01-10\n  updated: 2024-06-20\ncategories: [News]\n---\n\n"
        "# Post 1\n\nText.\n",
    )
    for number in range(2, 6):
        git_repo.write(
            f"docs/blog/posts/p{number}.md",
            f"---\ndate: 2024-0{number}-10\ncategories: [News]\n---\n\n# Post {number}\n\nText.\n",
        )
    git_repo.commit("blog", "2024-07-01T00:00:00+00:00")
    plugin = built_both_ways(
        git_repo, {"blog": {"pagination_per_page": 2}}, use_directory_urls=directory_urls
    )
    # What the views are, so that agreement is about something: three pages each, all as new
    # as the post updated last, which only the last page shows.
    views = ("blog/page/", "blog/archive/", "blog/category/")
    pages = {
        loc: entry
        for loc, entry in plugin.items()
        if loc.startswith(tuple(BASE + view for view in views))
    }
    assert len(pages) == 8  # three pages of each view but the index, which has a source
    assert {entry.lastmod for entry in pages.values()} == {"2024-06-20"}


def _mkdocs_alone(repo: GitRepo) -> None:
    """The example site built by MkDocs without the plugin: its own ``sitemap.xml`` and
    ``sitemap.xml.gz``, every lastmod the build day."""
    example_repo(repo)
    write_config(repo, plugins=["search"])
    mkdocs_build(repo.root)
    assert (repo.root / "site/sitemap.xml.gz").is_file()


@pytest.mark.parametrize(
    ("generate", "written"),
    [
        (("--gzip", "on"), "sitemap.xml.gz"),
        (("--format", "txt"), "sitemap.txt"),
        (("--filename", "map.xml"), "map.xml"),
        (("--format", "txt", "--filename", "x.txt"), "x.txt"),
    ],
    ids=["gzip-on", "txt", "filename", "txt-filename"],
)
def test_the_hosts_sitemap_goes_where_generate_writes_no_file_of_its_name(
    git_repo: GitRepo, generate: tuple[str, ...], written: str
) -> None:
    """``--gzip on`` writes ``sitemap.xml.gz`` alone, ``--format txt`` ``sitemap.txt``,
    ``--filename`` another name: MkDocs' own ``sitemap.xml`` (and ``.gz``), dated the build
    day, must not stay published beside it, as the plugin with the same options leaves none."""
    _mkdocs_alone(git_repo)
    done = run("generate", *generate, cwd=git_repo.root)
    assert done.returncode == 0, done.stdout + done.stderr
    site = git_repo.root / "site"
    published = sorted(path.name for path in site.glob("*.*") if path.suffix in _SITEMAP_SUFFIXES)
    assert published == [written]
    if not written.endswith(".txt"):
        home = {e.loc: e for e in check_sitemap_file(site / written, BASE + written)}[BASE]
        # The page's commit date, not the build day MkDocs wrote.
        assert home.lastmod is not None
        assert home.lastmod[:10] == COMMITS["docs/index.md"][:10]


_SITEMAP_SUFFIXES = (".xml", ".gz", ".txt")
"""What a sitemap file of the site's top folder may end with: MkDocs writes no other such file."""


MATERIAL_READS = "Material reads sitemap.xml"


def _material_reads(text: str) -> list[str]:
    """The lines that say Material reads a ``sitemap.xml`` the options leave unwritten."""
    return [line for line in text.splitlines() if MATERIAL_READS in line]


def _sitemap_files(site: Path) -> dict[str, bytes]:
    return {
        path.name: path.read_bytes()
        for path in site.glob("*.*")
        if path.suffix in _SITEMAP_SUFFIXES and path.is_file()
    }


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
@pytest.mark.parametrize(
    ("generate", "option", "cause"),
    [
        (("--gzip", "on"), {"gzip": "on"}, "--gzip 'on' (sitemap.xml.gz alone)"),
        (("--format", "txt"), {"format": "txt"}, "--format 'txt' (sitemap.txt)"),
        (("--filename", "map.xml"), {"filename": "map.xml"}, "--filename 'map.xml'"),
    ],
    ids=["gzip-on", "txt", "filename"],
)
def test_generate_warns_as_the_plugin_does_that_material_reads_a_sitemap_xml_it_leaves_unwritten(
    git_repo: GitRepo, generate: tuple[str, ...], option: dict[str, str], cause: str
) -> None:
    """Material's instant navigation follows in place only the links ``sitemap.xml`` lists.
    The plugin with those options writes none, and warns; ``generate`` with those flags removes
    the one MkDocs wrote, and must warn too, in the same words but for where the value was
    set, naming mkdocs.yml and the flag; ``--strict`` fails and writes nothing."""
    root = example_repo(git_repo)
    theme = {"name": "material", "features": ["navigation.instant"]}
    write_config(git_repo, theme=theme, plugins=[{"sitemap": option}])
    plugin_said = _material_reads(output(mkdocs_build(root, "--site-dir", "with-plugin")))
    write_config(git_repo, theme=theme, plugins=["search"])
    mkdocs_build(root)
    site = root / "site"
    bundles = list((site / "assets" / "javascripts").glob("bundle.*.min.js"))
    assert any("sitemap.xml" in bundle.read_text("utf-8") for bundle in bundles)  # it does read it
    before = _sitemap_files(site)
    assert sorted(before) == ["sitemap.xml", "sitemap.xml.gz"]  # MkDocs' own

    done = run("generate", *generate, "--strict", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = _material_reads(done.stderr)
    assert line.startswith(f"warning: mkdocs.yml: {MATERIAL_READS}, which {cause} leaves ")
    assert "its instant navigation loads every page in full" in line
    assert "version selector" not in line
    assert _sitemap_files(site) == before  # nothing written, nothing removed
    # The plugin's words, but for where the value was set.
    [plugin_line] = plugin_said
    assert plugin_line.endswith(line.partition(" leaves ")[2])

    done = run("generate", *generate, cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(_material_reads(done.stderr)) == 1
    assert "sitemap.xml" not in _sitemap_files(site)


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_generate_reads_material_s_features_and_version_selector_as_mkdocs_does(
    git_repo: GitRepo,
) -> None:
    """The version selector (``extra.version`` with a ``provider``) finds the same page in
    another version in ``sitemap.xml``. ``mkdocs.yml`` is read as MkDocs reads it: the theme
    from the file ``INHERIT`` names, ``!ENV`` with its default. With the defaults, ``--gzip
    both`` or a theme that reads no sitemap, not a word."""
    root = example_repo(git_repo)
    write_config(git_repo, theme={"name": "material"}, plugins=["search"])
    (root / "mkdocs.yml").rename(root / "base.yml")
    git_repo.write(
        "mkdocs.yml",
        "INHERIT: base.yml\n"
        "extra:\n  version:\n    provider: !ENV [SITEMAP_TEST_NO_SUCH_VARIABLE, mike]\n",
    )
    mkdocs_build(root)
    done = run("generate", "--gzip", "on", "--strict", cwd=root)
    assert done.returncode == 1, done.stdout + done.stderr
    [line] = _material_reads(done.stderr)
    assert "its version selector lands on a version's home page" in line
    assert "instant navigation" not in line

    instant = {"name": "material", "features": ["navigation.instant"]}
    for theme, generate in [
        (instant, ()),
        (instant, ("--gzip", "both")),
        ({"name": "material", "features": ["navigation.tabs"]}, ("--gzip", "on")),
        ({"name": "mkdocs", "features": ["navigation.instant"]}, ("--filename", "map.xml")),
    ]:
        write_config(git_repo, theme=theme, plugins=["search"])
        mkdocs_build(root)
        done = run("generate", *generate, "--strict", cwd=root)
        assert done.returncode == 0, done.stdout + done.stderr
        assert not _material_reads(done.stderr)


@pytest.mark.parametrize(
    ("generate", "written"),
    [(("--gzip", "on"), "sitemap.xml.gz"), (("--filename", "map.xml"), "map.xml")],
    ids=["gzip-on", "filename"],
)
def test_a_file_named_sitemap_xml_that_is_no_sitemap_is_left_alone(
    git_repo: GitRepo, generate: tuple[str, ...], written: str
) -> None:
    """Only a file that is recognisably a sitemap (a urlset) is taken for the host's: a file of
    the user's under that name stays, and a warning says why."""
    _mkdocs_alone(git_repo)
    own = git_repo.root / "site/sitemap.xml"
    own.write_text("<html><body>Our own page</body></html>\n", encoding="utf-8")
    done = run("generate", *generate, cwd=git_repo.root)
    assert own.read_text(encoding="utf-8") == "<html><body>Our own page</body></html>\n"
    assert "site/sitemap.xml is left as it is: it is not a sitemap" in done.stderr
    assert (git_repo.root / "site" / written).is_file()
    # A warning like any other: --strict fails on it, before anything is written.
    (git_repo.root / "site" / written).unlink()
    strict = run("generate", *generate, "--strict", cwd=git_repo.root)
    assert strict.returncode != 0
    assert "site/sitemap.xml is left as it is: it is not a sitemap" in strict.stderr
    assert not (git_repo.root / "site" / written).exists()
    assert own.read_text(encoding="utf-8") == "<html><body>Our own page</body></html>\n"


@pytest.mark.parametrize("runs_before", [0, 1], ids=["after-mkdocs", "after-generate"])
def test_a_gz_generate_wrote_itself_goes_once_gzip_is_no_longer_asked(
    git_repo: GitRepo, runs_before: int
) -> None:
    """The host's ``.gz`` makes ``generate`` write both files; its own ``.gz`` (from ``--gzip
    both``) must not, or ``--gzip`` could never be turned off again. So too after a run that
    wrote both for the host's ``.gz``: the flag's run leaves a ``.gz`` of its own."""
    _mkdocs_alone(git_repo)
    for _ in range(runs_before):
        assert run("generate", cwd=git_repo.root).returncode == 0
    done = run("generate", "--gzip", "both", cwd=git_repo.root)
    assert done.returncode == 0, done.stdout + done.stderr
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stdout + done.stderr
    site = git_repo.root / "site"
    assert sorted(path.name for path in site.glob("sitemap*")) == ["sitemap.xml"]


def test_generate_run_again_still_writes_both_files_the_hosts_gz_asked_for(
    git_repo: GitRepo,
) -> None:
    """MkDocs wrote ``sitemap.xml.gz``, so ``generate`` writes both files. Run again (a CI step
    re-run) it finds only its own ``.gz`` there: the same command on the same site must give
    the same files, or a ``Sitemap:`` line naming the ``.gz`` points at nothing. A new MkDocs
    build writes the host's pair again, and ``generate`` replaces both once more."""
    _mkdocs_alone(git_repo)
    site = git_repo.root / "site"

    def generate() -> dict[str, bytes]:
        done = run("generate", cwd=git_repo.root)
        assert done.returncode == 0, done.stdout + done.stderr
        return {path.name: path.read_bytes() for path in site.glob("sitemap*")}

    first = generate()
    assert sorted(first) == ["sitemap.xml", "sitemap.xml.gz"]
    assert gzip.decompress(first["sitemap.xml.gz"]) == first["sitemap.xml"]  # ours, not MkDocs'
    home = {e.loc: e for e in check_sitemap_file(site / "sitemap.xml.gz", BASE + "sitemap.xml.gz")}
    assert home[BASE].lastmod is not None
    assert home[BASE].lastmod[:10] == COMMITS["docs/index.md"][:10]
    assert generate() == first
    assert generate() == first
    mkdocs_build(git_repo.root)
    assert (site / "sitemap.xml").read_bytes() != first["sitemap.xml"]  # the build day's again
    assert generate() == first


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
@pytest.mark.parametrize("structure", ["suffix", "folder"])
def test_generate_dates_translations_as_the_plugin_does(git_repo: GitRepo, structure: str) -> None:
    """With mkdocs-static-i18n, ``fr/x/`` is built from ``x.fr.md`` (or ``fr/x.md`` in the
    folder structure), and from the default language's file where that language has none (a
    fallback page): ``generate`` reads the languages from mkdocs.yml and dates each page by
    the file the plugin dates it by."""
    files = {
        "index": ("2024-01-10", "2024-02-11"),
        "guide/install": ("2024-03-12", "2024-04-13"),
        "guide/only": ("2024-05-14", None),  # French readers get the English page
    }
    for name, (english, french) in files.items():
        for locale, date in (("en", english), ("fr", french)):
            if date is None:
                continue
            if structure == "folder":
                relpath = f"docs/{locale}/{name}.md"
            else:
                relpath = f"docs/{name}.md" if locale == "en" else f"docs/{name}.{locale}.md"
            git_repo.write(relpath, f"# {name} ({locale})\n")
            git_repo.commit(f"add {relpath}", f"{date}T09:00:00+00:00", relpath)
    i18n = english_and_french()[1]
    i18n["i18n"]["docs_structure"] = structure
    plugin = built_both_ways(git_repo, i18n, site_url=BASE)
    # What the sources say, so that agreement is about something.
    assert plugin[BASE + "fr/guide/install/"].lastmod == "2024-04-13T09:00:00Z"
    assert plugin[BASE + "fr/guide/only/"].lastmod == "2024-05-14T09:00:00Z"


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_an_html_file_mkdocs_copies_is_no_page_for_either(git_repo: GitRepo) -> None:
    """A hand-written HTML file in docs_dir is copied as it is, as any static file: MkDocs
    renders no page from it, the plugin does not list it, and ``generate`` must not either."""
    example_repo(git_repo)
    git_repo.write(
        "docs/legacy/old.html",
        "<!DOCTYPE html><html><head><title>Old</title></head><body>Old</body></html>\n",
    )
    git_repo.commit("legacy page", "2024-10-01T00:00:00+00:00")
    plugin = built_both_ways(git_repo, "search")
    assert (git_repo.root / "site/legacy/old.html").is_file()  # what MkDocs published
    assert BASE + "legacy/old.html" not in plugin


def generate_over_language_projects(
    git_repo: GitRepo, languages: Iterable[str], probe: str
) -> tuple[subprocess.CompletedProcess[str], dict[str, UrlEntry]]:
    """Build each language's MkDocs project (committed under its folder) into ``site/<lang>/``,
    then run ``generate`` over ``site/``: what it printed and the entries it wrote. Skipped where
    Material writes its language selector into no ``<link>`` of ``probe``'s head (9.3)."""
    for lang in languages:
        mkdocs_build(git_repo.root / lang)
    root = git_repo.root
    if not re.search(r"<link[^>]*hreflang", (root / probe).read_text("utf-8")):
        version = importlib.metadata.version("mkdocs-material")
        pytest.skip(f"mkdocs-material {version} writes extra.alternate into no <link> of the head")
    done = run("generate", "site", "--base-url", BASE, "--no-host-config", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    entries = check_sitemap_file(root / "site/sitemap.xml", BASE + "sitemap.xml")
    return done, {entry.loc: entry for entry in entries}


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_the_reason_pages_get_no_alternates_is_what_their_heads_say(git_repo: GitRepo) -> None:
    """One MkDocs project per language, with Material's language selector (``extra.alternate``,
    as Material documents it): every page links each language's home page with its hreflang.
    Those are the home pages' versions, not the other pages': the others get no alternates,
    and the line saying so names one of them and what its head says, its ``<html lang>`` and
    where the link for that language points, not a missing ``lang``."""
    selector = [
        {"name": "English", "link": "/en/", "lang": "en"},
        {"name": "Français", "link": "/fr/", "lang": "fr"},
    ]
    for lang in ("en", "fr"):
        config = {
            "site_name": f"Demo {lang}",
            "site_url": f"{BASE}{lang}/",
            "site_dir": f"../site/{lang}",
            "theme": {"name": "material", "language": lang},
            "extra": {"alternate": selector},
        }
        git_repo.write(f"{lang}/mkdocs.yml", yaml.safe_dump(config, allow_unicode=True))
        git_repo.write(f"{lang}/docs/index.md", f"# Home {lang}\n")
        git_repo.write(f"{lang}/docs/guide.md", f"# Guide {lang}\n")
    git_repo.commit("two languages", "2024-03-01T10:00:00+00:00")
    root = git_repo.root
    done, entries = generate_over_language_projects(
        git_repo, ("en", "fr"), "site/en/guide/index.html"
    )
    homes = {"en": BASE + "en/", "fr": BASE + "fr/"}
    assert entries[BASE + "en/"].alternates == entries[BASE + "fr/"].alternates == homes
    assert entries[BASE + "en/guide/"].alternates == entries[BASE + "fr/guide/"].alternates == {}

    [line] = [line for line in done.stderr.splitlines() if "without alternates" in line]
    said = re.search(
        r'2 pages .*\(such as (\S+): <html lang="(\w+)">, hreflang="\2" to (\S+)\)$', line
    )
    assert said is not None, line
    named, lang, target = said.groups()
    head = (root / named).read_text(encoding="utf-8")
    assert f'<html lang="{lang}"' in head  # what the page says, truly
    attributes = [
        dict(re.findall(r'([\w-]+)="([^"]*)"', tag)) for tag in re.findall("<link[^>]*>", head)
    ]
    links = {tag["hreflang"]: tag["href"] for tag in attributes if "hreflang" in tag}
    assert BASE + links[lang].lstrip("/") == target == homes[lang]
    assert named.removeprefix("site/").removesuffix("index.html") in {"en/guide/", "fr/guide/"}


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_home_pages_keep_only_the_versions_that_link_them_back(git_repo: GitRepo) -> None:
    """One MkDocs project per language whose language selectors (``extra.alternate``) differ:
    the English one lists English, French and German, the French one French and English, the
    German one has none. The home pages' heads then disagree, and search engines ignore a link
    not returned: the English and French home pages name each other, the German one names no
    one and is named by none, and one line says how many links were left out, naming one."""
    selectors = {
        "en": [("English", "en"), ("Français", "fr"), ("Deutsch", "de")],
        "fr": [("Français", "fr"), ("English", "en")],
        "de": [],
    }
    for lang, selector in selectors.items():
        config: dict[str, object] = {
            "site_name": f"Demo {lang}",
            "site_url": f"{BASE}{lang}/",
            "site_dir": f"../site/{lang}",
            "theme": {"name": "material", "language": lang},
        }
        if selector:
            links = [{"name": n, "link": f"/{code}/", "lang": code} for n, code in selector]
            config["extra"] = {"alternate": links}
        git_repo.write(f"{lang}/mkdocs.yml", yaml.safe_dump(config, allow_unicode=True))
        git_repo.write(f"{lang}/docs/index.md", f"# Home {lang}\n")
    git_repo.commit("three languages", "2024-03-01T10:00:00+00:00")
    root = git_repo.root
    done, entries = generate_over_language_projects(git_repo, selectors, "site/en/index.html")
    homes = {"en": BASE + "en/", "fr": BASE + "fr/"}
    assert entries[BASE + "en/"].alternates == entries[BASE + "fr/"].alternates == homes
    assert entries[BASE + "de/"].alternates == {}
    assert "warning" not in done.stderr.lower()  # the site's heads say so: nothing to fix here
    [line] = [line for line in done.stderr.splitlines() if "does not link back" in line]
    said = re.search(
        r'^1 hreflang link left out .*\((\S+): hreflang="de" to (\S+), which does not name '
        r"(\S+) back\)$",
        line,
    )
    assert said is not None, line
    named, target, own = said.groups()
    assert (named, target, own) == ("site/en/index.html", BASE + "de/", BASE + "en/")
    assert 'hreflang="de"' in (root / named).read_text(encoding="utf-8")  # what it says, truly
    assert "hreflang" not in (root / "site/de/index.html").read_text(encoding="utf-8")
