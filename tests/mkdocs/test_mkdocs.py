"""Real MkDocs builds in temporary git repositories, every sitemap checked and read back."""

from __future__ import annotations

import datetime as dt
import gzip
import importlib.metadata
import logging
import os
import re
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
import yaml
from mkdocs.commands.build import build
from mkdocs.exceptions import Abort

from sitemap_plugins.core import OPTION_SPECS
from sitemap_plugins.core.cache_file import KEPT_PER_KIND
from sitemap_plugins.mkdocs import SitemapConfig
from tests.mkdocs.helpers import (
    BASE,
    CONFIG_ABORT,
    EXAMPLE,
    MKDOCS_VERSION,
    build_site,
    english_and_french,
    example_repo,
    i18n_version,
    load,
    sitemap,
    sitemap_warnings,
    summary_lines,
    touch_later,
    write_config,
)
from tests.support.git_trace import GitTrace
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build
from tests.support.older_caches import as_an_older_release_wrote_it
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp

pytestmark = pytest.mark.mkdocs


@pytest.mark.parametrize(
    ("use_directory_urls", "paths"),
    [
        (
            True,
            [
                "",
                "guide/install/",
                "guide/configure/",
                "reference/options/",
                "caf%C3%A9/",
                "about/",
            ],
        ),
        (
            False,
            [
                "index.html",
                "guide/install.html",
                "guide/configure.html",
                "reference/options.html",
                "caf%C3%A9.html",
                "about.html",
            ],
        ),
    ],
)
def test_example_site_lists_every_page_with_its_git_date(
    git_repo: GitRepo,
    caplog: pytest.LogCaptureFixture,
    use_directory_urls: bool,
    paths: list[str],
) -> None:
    caplog.set_level(logging.INFO)
    root = example_repo(git_repo, use_directory_urls=use_directory_urls)
    site = build_site(root)
    entries = sitemap(site)
    assert set(entries) == {BASE + path for path in paths}
    home, install, configure, options, cafe, about = (entries[BASE + p] for p in paths)
    assert home.lastmod == "2024-01-10T09:00:00Z"
    assert configure.lastmod == "2024-03-12T09:00:00Z"
    assert cafe.lastmod == "2024-06-14T09:00:00Z"
    assert about.lastmod == "2024-05-01"  # front matter beats git
    assert (install.priority, install.changefreq) == ("0.8", "monthly")
    assert (options.priority, options.changefreq) == (None, "weekly")
    assert (configure.priority, configure.changefreq) == (None, None)
    assert install.images == (BASE + "images/where-it-goes.svg",)  # the example's one image
    assert (site / "images" / "where-it-goes.svg").is_file()
    assert all(entry.images == () for entry in entries.values() if entry is not install)
    [line] = summary_lines(caplog)
    assert "6 URLs" in line
    assert "404 page" in line
    assert "excluded by metadata" in line
    assert sitemap_warnings(caplog) == []
    pages = parse_with_usp(site, "sitemap.xml", base_url=BASE)
    assert set(pages) == set(entries)


def test_site_url_with_a_path_and_spaced_file_names(git_repo: GitRepo) -> None:
    root = example_repo(git_repo, site_url="https://example.org/docs/")
    git_repo.write("docs/guide/my page.md", "# My page\n\nA file name with a space.\n")
    git_repo.commit("spaced", "2024-10-01T10:00:00+02:00")
    site = build_site(root)
    entries = sitemap(site, "https://example.org/docs/")
    spaced = entries["https://example.org/docs/guide/my%20page/"]
    assert spaced.lastmod == "2024-10-01T10:00:00+02:00"
    assert "https://example.org/docs/caf%C3%A9/" in entries
    assert all(loc.startswith("https://example.org/docs/") for loc in entries)


def test_builtin_sitemap_is_replaced_not_doubled(git_repo: GitRepo) -> None:
    root = example_repo(git_repo, plugins=[{"sitemap": {"gzip": "off"}}])
    site = build_site(root)
    assert not (site / "sitemap.xml.gz").exists()  # MkDocs' own template did not run
    entries = check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert all(not (entry.lastmod or "").startswith(time.strftime("%Y-%m-%d")) for entry in entries)


def test_no_site_url_warns_once_and_writes_nothing(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    root = example_repo(git_repo)
    config = yaml.safe_load(git_repo.path("mkdocs.yml").read_text(encoding="utf-8"))
    del config["site_url"]
    git_repo.write("mkdocs.yml", yaml.safe_dump(config))
    site = build_site(root)
    [warning] = sitemap_warnings(caplog)
    assert "site_url" in warning
    assert not (site / "sitemap.xml").exists()
    assert not (site / "sitemap.xml.gz").exists()


def test_read_the_docs_gives_the_url_of_a_site_without_site_url(git_repo: GitRepo) -> None:
    """Read the Docs serves each build at the URL it puts in READTHEDOCS_CANONICAL_URL; a
    project there that sets no site_url of its own is listed at it, and one that does keeps
    its own."""
    root = example_repo(git_repo)
    config = yaml.safe_load(git_repo.path("mkdocs.yml").read_text(encoding="utf-8"))
    del config["site_url"]
    git_repo.write("mkdocs.yml", yaml.safe_dump(config))
    canonical = "https://demo.readthedocs.io/en/latest/"
    done = mkdocs_build(root, env={"READTHEDOCS_CANONICAL_URL": canonical})
    assert "WARNING" not in done.stderr, done.stderr
    entries = sitemap(root / "site", canonical)
    assert canonical + "guide/install/" in entries
    assert all(loc.startswith(canonical) for loc in entries)

    write_config(git_repo, site_url=BASE)
    mkdocs_build(root, env={"READTHEDOCS_CANONICAL_URL": canonical})
    assert set(sitemap(root / "site")) == {BASE + loc[len(canonical) :] for loc in entries}


@pytest.mark.parametrize(
    ("option", "value"),
    [("priority", 1.5), ("changefreq", "sometimes"), ("gzip", "maybe"), ("base_url", "/docs/")],
)
def test_invalid_option_fails_at_config_time_naming_it(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture, option: str, value: object
) -> None:
    example_repo(git_repo, plugins=[{"sitemap": {option: value}}])
    with pytest.raises(Abort, match=CONFIG_ABORT):
        load(git_repo.root)
    errors = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert f"'{option}'" in errors
    assert str(value) in errors


def test_format_txt_alone_writes_sitemap_txt(git_repo: GitRepo) -> None:
    """No filename is set, so none can be wrong: the name follows the format."""
    root = example_repo(git_repo, plugins=[{"sitemap": {"format": "txt"}}])
    site = build_site(root)
    entries = check_sitemap_file(site / "sitemap.txt", BASE + "sitemap.txt")
    assert len(entries) == 6
    zipped = (site / "sitemap.txt.gz").read_bytes()
    assert gzip.decompress(zipped) == (site / "sitemap.txt").read_bytes()
    assert not (site / "sitemap.xml").exists()


def test_config_has_exactly_the_core_options() -> None:
    assert {name for name, _ in SitemapConfig._schema} == {spec.name for spec in OPTION_SPECS}


BAD_FRONT_MATTER = "---\nsitemap:\n  priority: 1.5\n  changefreq: Weekly\n---\n\n# Bad\n\nText.\n"


def test_bad_front_matter_warns_with_file_and_value(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    root = example_repo(git_repo)
    git_repo.write("docs/bad.md", BAD_FRONT_MATTER)
    git_repo.commit("bad", "2024-11-01T00:00:00+00:00")
    entries = sitemap(build_site(root))
    bad = entries[BASE + "bad/"]
    assert (bad.priority, bad.changefreq, bad.lastmod) == (None, None, "2024-11-01T00:00:00Z")
    assert len(entries) == 7
    warnings = sitemap_warnings(caplog)
    assert any("bad.md" in w and "1.5" in w for w in warnings)
    assert any("bad.md" in w and "Weekly" in w for w in warnings)


def test_strict_build_fails_on_bad_front_matter(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    """MkDocs' strict mode is ours: the warnings fail the build before a sitemap is written."""
    root = example_repo(git_repo)
    git_repo.write("docs/bad.md", BAD_FRONT_MATTER)
    git_repo.commit("bad", "2024-11-01T00:00:00+00:00")
    with pytest.raises(Abort):
        build_site(root, strict=True)
    assert "sitemap: 2 warnings in strict mode; no sitemap written" in caplog.text
    assert not (root / "site" / "sitemap.xml").exists()


def test_strict_build_passes_on_a_clean_site(git_repo: GitRepo) -> None:
    root = example_repo(git_repo)
    assert len(sitemap(build_site(root, strict=True))) == 6


NOINDEX_TEMPLATE = """{% extends "base.html" %}
{% block extrahead %}{% if page and page.meta.robots %}<meta name="robots"
 content="{{ page.meta.robots }}">{% endif %}{% endblock %}
"""


def test_noindex_drafts_and_exclude_docs_are_left_out(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    settings: dict[str, Any] = {
        "theme": {"name": "mkdocs", "custom_dir": "overrides"},
        "exclude_docs": "secret.md\n",
    }
    if MKDOCS_VERSION >= (1, 6):
        settings["draft_docs"] = "wip.md\n"
    root = example_repo(git_repo, **settings)
    git_repo.write("overrides/main.html", NOINDEX_TEMPLATE)
    git_repo.write("docs/hidden.md", "---\nrobots: noindex, follow\n---\n\n# Hidden\n\nText.\n")
    git_repo.write("docs/secret.md", "# Secret\n\nText.\n")
    git_repo.write("docs/wip.md", "# Work in progress\n\nText.\n")
    git_repo.write("docs/sitemap-false.md", "---\nsitemap: false\n---\n\n# Off\n\nText.\n")
    git_repo.commit("more", "2024-11-01T00:00:00+00:00")
    site = build_site(root)
    assert (site / "hidden" / "index.html").is_file()
    entries = sitemap(site)
    expected = {"", "guide/install/", "guide/configure/", "reference/options/", "caf%C3%A9/"}
    expected |= {"about/"} | ({"wip/"} if MKDOCS_VERSION < (1, 6) else set())
    assert set(entries) == {BASE + path for path in expected}
    [line] = summary_lines(caplog)
    assert "1 noindex" in line
    assert "2 excluded by metadata" in line


@pytest.mark.parametrize("redirects_first", [True, False])
def test_redirect_stubs_are_not_listed(git_repo: GitRepo, redirects_first: bool) -> None:
    redirects = {"redirects": {"redirect_maps": {"old.md": "guide/install.md"}}}
    plugins = [redirects, "sitemap"] if redirects_first else ["sitemap", redirects]
    root = example_repo(git_repo, plugins=plugins)
    site = build_site(root)
    assert (site / "old" / "index.html").is_file()
    entries = sitemap(site)
    assert BASE + "old/" not in entries
    assert len(entries) == 6


@pytest.mark.parametrize("dirty", [False, True], ids=["rebuild", "dirty-rebuild"])
@pytest.mark.parametrize("setting", ["exclude_docs", "redirect_maps"])
def test_a_rebuild_in_the_same_process_follows_what_the_config_leaves_out(
    git_repo: GitRepo, dirty: bool, setting: str
) -> None:
    """``mkdocs serve`` rebuilds in one process with one plugin instance. A page the config now
    excludes or redirects gets no page rendered, and what an earlier build saw of it must not
    be listed; once the setting is gone again, the page is listed as before."""
    root = example_repo(git_repo, plugins=["sitemap", "redirects"])
    before = sitemap(build_site(root))
    assert BASE + "about/" in before
    if setting == "exclude_docs":
        write_config(git_repo, plugins=["sitemap", "redirects"], exclude_docs="about.md\n")
    else:
        redirects = {"redirects": {"redirect_maps": {"about.md": "guide/install.md"}}}
        write_config(git_repo, plugins=["sitemap", redirects])
    config = load(root)
    build(config, dirty=dirty)
    plugin = config.plugins["sitemap"]
    after = sitemap(Path(config.site_dir))
    assert set(after) == set(before) - {BASE + "about/"}
    write_config(git_repo, plugins=["sitemap", "redirects"])
    git_repo.path("docs/about.md").touch()  # as an editor saves it: a --dirty build renders it
    config = load(root)
    build(config, dirty=dirty)
    assert config.plugins["sitemap"] is plugin  # the same instance throughout, as serve keeps it
    assert sitemap(Path(config.site_dir)) == before


def test_a_page_overwritten_by_a_redirect_is_left_out(git_repo: GitRepo) -> None:
    plugins = ["sitemap", {"redirects": {"redirect_maps": {"about.md": "guide/install.md"}}}]
    root = example_repo(git_repo, plugins=plugins)
    entries = sitemap(build_site(root))
    assert BASE + "about/" not in entries
    assert len(entries) == 5


@pytest.mark.parametrize("use_directory_urls", [True, False])
@pytest.mark.parametrize("redirects_first", [True, False])
def test_a_redirect_written_where_a_page_of_another_name_goes_leaves_it_out(
    git_repo: GitRepo,
    caplog: pytest.LogCaptureFixture,
    redirects_first: bool,
    use_directory_urls: bool,
) -> None:
    """mkdocs-redirects writes each stub where MkDocs would write a page of its key's name:
    ``guide/README.md`` where ``guide/index.md`` goes, and ``moved/index.md`` where
    ``moved.md`` goes with use_directory_urls (without, ``moved.md`` goes to ``moved.html``
    and stays). The page written over is a stub, whatever name the key gives it."""
    caplog.set_level(logging.INFO)
    for relpath in ("index.md", "new.md", "moved.md", "guide/index.md", "guide/setup.md"):
        git_repo.write(f"docs/{relpath}", f"# {relpath}\n\nText.\n")
    git_repo.commit("pages", "2024-01-01T00:00:00+00:00")
    maps = {"moved/index.md": "new.md", "guide/README.md": "new.md"}
    redirects = {"redirects": {"redirect_maps": maps}}
    plugins = [redirects, "sitemap"] if redirects_first else ["sitemap", redirects]
    write_config(git_repo, plugins=plugins, use_directory_urls=use_directory_urls)
    site = build_site(git_repo.root)
    for stub in ("moved/index.html", "guide/index.html"):
        assert 'http-equiv="refresh"' in (site / stub).read_text(encoding="utf-8"), stub
    if use_directory_urls:
        pages, written_over = {"", "new/", "guide/setup/"}, 2  # moved/ and guide/
    else:
        pages, written_over = {"index.html", "new.html", "moved.html", "guide/setup.html"}, 1
    entries = sitemap(site)
    assert set(entries) == {BASE + path for path in pages}
    assert all(entry.lastmod == "2024-01-01T00:00:00Z" for entry in entries.values())
    [line] = summary_lines(caplog)
    assert f"left out {written_over} ({written_over} redirect stub)" in line
    assert sitemap_warnings(caplog) == []


@pytest.mark.parametrize("use_directory_urls", [True, False])
def test_only_the_top_404_page_is_the_not_found_page(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture, use_directory_urls: bool
) -> None:
    """MkDocs renders a ``404.md`` as any page. The one at the top of docs_dir is the site's
    not-found page (``404.html``, which hosts and ``mkdocs serve`` send for a missing URL);
    one in a folder, about the status code, is a page like any other, in the nav."""
    caplog.set_level(logging.INFO)
    for relpath in ("index.md", "404.md", "http/200.md", "http/404.md"):
        git_repo.write(f"docs/{relpath}", f"# {relpath}\n\nText.\n")
    git_repo.commit("pages", "2024-01-01T00:00:00+00:00")
    nav = ["index.md", {"HTTP": ["http/200.md", "http/404.md"]}]
    write_config(git_repo, plugins=["sitemap"], nav=nav, use_directory_urls=use_directory_urls)
    site = build_site(git_repo.root)
    pages = ["", "http/200/", "http/404/"]
    if not use_directory_urls:
        pages = ["index.html", "http/200.html", "http/404.html"]
    entries = sitemap(site)
    assert set(entries) == {BASE + path for path in pages}
    assert entries[BASE + pages[2]].lastmod == "2024-01-01T00:00:00Z"
    [line] = summary_lines(caplog)
    assert "left out 1 (1 404 page)" in line


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
@pytest.mark.parametrize("structure", ["suffix", "folder"])
def test_with_static_i18n_each_languages_top_404_page_is_left_out(
    git_repo: GitRepo, structure: str
) -> None:
    """mkdocs-static-i18n renders a language's ``404.fr.md`` (``fr/404.md`` in its folder
    form) at ``fr/404/``, the top of that language's site: its not-found page, as ``404.md``
    is the default language's. A ``404`` page in a folder is listed in every language."""
    for name in ("index", "404", "http/404"):
        for locale in ("en", "fr"):
            if structure == "folder":
                relpath = f"docs/{locale}/{name}.md"
            else:
                relpath = f"docs/{name}.md" if locale == "en" else f"docs/{name}.{locale}.md"
            git_repo.write(relpath, f"# {name} ({locale})\n")
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    i18n = english_and_french()[1]
    i18n["i18n"]["docs_structure"] = structure
    write_config(git_repo, plugins=["sitemap", i18n])
    site = build_site(git_repo.root)
    assert (site / "fr/404/index.html").is_file()
    entries = sitemap(site)
    assert set(entries) == {BASE + path for path in ("", "fr/", "http/404/", "fr/http/404/")}
    english, french = BASE + "http/404/", BASE + "fr/http/404/"
    assert entries[english].alternates == {"en": english, "fr": french, "x-default": english}


def test_dirty_rebuilds_keep_every_page_and_its_metadata(git_repo: GitRepo) -> None:
    root = example_repo(git_repo)
    first = sitemap(build_site(root))
    git_repo.write("docs/guide/configure.md", "---\nsitemap:\n  priority: 0.3\n---\n\n# C\n\nT.\n")
    touch_later(git_repo.path("docs/guide/configure.md"))
    second = sitemap(build_site(root, dirty=True))
    assert set(second) == set(first)
    assert second[BASE + "guide/configure/"].priority == "0.3"
    assert second[BASE + "guide/configure/"].lastmod != "2024-03-12"  # uncommitted: its mtime
    for loc in set(first) - {BASE + "guide/configure/"}:
        assert second[loc] == first[loc]
    # Nothing changed at all: a third rebuild gives the same bytes and reuses the git walk.
    config = load(root)
    builder = config.plugins["sitemap"]._builder
    before = (Path(config.site_dir) / "sitemap.xml").read_bytes()
    build(config, dirty=True)
    assert config.plugins["sitemap"]._builder is builder
    assert (Path(config.site_dir) / "sitemap.xml").read_bytes() == before


def test_dirty_build_in_a_fresh_process_reads_unchanged_pages_back(git_repo: GitRepo) -> None:
    root = example_repo(git_repo)
    first = sitemap(build_site(root))
    git_repo.write("docs/guide/configure.md", "# Configure\n\nNew text.\n")
    touch_later(git_repo.path("docs/guide/configure.md"))
    result = mkdocs_build(root, "--dirty", "--strict", check=False)
    # --dirty itself warns that the navigation may be stale, so strict mode aborts after writing.
    assert "sitemap: 6 URLs" in result.stderr, result.stderr
    second = sitemap(root / "site")
    assert set(second) == set(first)
    assert second[BASE + "guide/install/"] == first[BASE + "guide/install/"]
    assert second[BASE + "reference/options/"] == first[BASE + "reference/options/"]


def test_builds_into_new_folders_leave_a_bounded_cache(git_repo: GitRepo, tmp_path: Path) -> None:
    """`mkdocs serve --dirty` builds into a new temporary folder each time it starts, and
    what a --dirty build read of the pages it did not write is kept per folder: the cache keeps
    the folders built last."""
    root = example_repo(git_repo)
    for n in range(KEPT_PER_KIND + 2):
        folder = str(tmp_path / f"mkdocs_{n}")
        build_site(root, site_dir=folder)
        time.sleep(0.1)  # the pages just written settle: a file this fresh is never kept
        assert len(sitemap(build_site(root, dirty=True, site_dir=folder))) == 6
    cache = root / ".cache" / "sitemap-plugins"
    assert len(list(cache.glob("pages-*.json"))) == KEPT_PER_KIND
    assert len(list(cache.glob("sources-*.json"))) == 1
    assert len(list(cache.glob("git-history-*.json"))) == 2  # the answers and the commits


def test_dirty_builds_read_a_skipped_source_again_only_once_it_changed(git_repo: GitRepo) -> None:
    """Fresh --dirty processes, as users run them: the front matter of a page MkDocs did not
    render is read from its source, and a source whose last read found no sitemap key is
    not read again while its size and time stay. What that trusts is shown by the one change
    it cannot see (same size, same time: no editor or checkout makes it); one nanosecond
    later the source is read again. Pages with a sitemap key keep their values throughout."""
    root = example_repo(git_repo)
    cafe = git_repo.path("docs/café.md")
    an_hour_ago = time.time_ns() - 3_600_000_000_000
    os.utime(cafe, ns=(an_hour_ago, an_hour_ago))  # older than its output: MkDocs skips it
    first = sitemap(build_site(root))
    for _ in range(2):  # the first --dirty process reads it and keeps what it found
        mkdocs_build(root, "--dirty")
        assert sitemap(root / "site") == first
    size = cafe.stat().st_size
    head = "---\nsitemap: false\n---\n\n# Café\n\n"
    hidden = head + "x" * (size - len(head.encode())) + "\n"
    cafe.write_bytes(hidden.encode()[: size - 1] + b"\n")
    assert cafe.stat().st_size == size
    os.utime(cafe, ns=(an_hour_ago, an_hour_ago))
    mkdocs_build(root, "--dirty")
    assert set(sitemap(root / "site")) == set(first)  # not read: the kept answer (its date
    # is now its file time: git sees the change)
    os.utime(cafe, ns=(an_hour_ago + 1, an_hour_ago + 1))
    mkdocs_build(root, "--dirty")
    second = sitemap(root / "site")
    assert set(second) == set(first) - {BASE + "caf%C3%A9/"}  # read: sitemap: false
    assert second[BASE + "about/"].lastmod == "2024-05-01"
    assert second[BASE + "guide/install/"].priority == "0.8"


SLOW_FINISH_HOOK = """
import time


def on_post_build(config):
    time.sleep(0.2)  # other plugins' finishing: every page written well before ours runs
"""


def test_a_first_dirty_build_recalls_the_heads_the_clean_build_read_in_memory(
    git_repo: GitRepo,
) -> None:
    """A clean build reads each page's head from the text MkDocs hands over, and keeps what it
    says for the file MkDocs wrote it to: the first --dirty process after it does not read the
    pages it skips back from their files. Shown by the one change that cannot be seen (a
    skipped page's file given a robots noindex at the same size and time: no host makes it);
    one nanosecond later the file is read, and the page leaves the sitemap."""
    git_repo.write("hooks/slow_finish.py", SLOW_FINISH_HOOK)
    root = example_repo(git_repo, plugins=["sitemap"], hooks=["hooks/slow_finish.py"])
    mkdocs_build(root)
    clean = (root / "site/sitemap.xml").read_bytes()
    assert BASE + "about/" in sitemap(root / "site")
    about = root / "site/about/index.html"
    text, info = about.read_text("utf-8"), about.stat()
    title = re.search(r"<title>.*?</title>", text)
    assert title is not None
    noindex = "<meta name=robots content=noindex>".ljust(len(title[0]))
    assert len(noindex) == len(title[0])
    about.write_text(text.replace(title[0], noindex), "utf-8")
    os.utime(about, ns=(info.st_atime_ns, info.st_mtime_ns))
    assert about.stat().st_size == info.st_size
    touch_later(git_repo.path("docs/index.md"))
    mkdocs_build(root, "--dirty")
    assert (root / "site/sitemap.xml").read_bytes() == clean  # not read: what the build kept
    os.utime(about, ns=(info.st_atime_ns, info.st_mtime_ns + 1))
    mkdocs_build(root, "--dirty")
    assert BASE + "about/" not in sitemap(root / "site")  # read: noindex


def test_a_history_cache_an_older_release_wrote_is_not_used(git_repo: GitRepo) -> None:
    """CI restores .cache/ from a build that ran an older release, whose pass answered
    otherwise: with ``log.follow = true`` in a user's git config, releases before that was
    fixed found no page's last change, in the answers and in the commits the next pass adds
    to. This release uses none of it, at the same HEAD or once HEAD moved: the sitemap is the
    one a build without the cache writes."""
    root = example_repo(git_repo)
    cache = root / ".cache" / "sitemap-plugins"

    def no_changes_found(data: dict[str, Any]) -> None:
        if "dates" in data:
            data["dates"] = {}
        for commit in data.get("commits", ()):
            commit[3] = {}  # the paths each commit changed

    mkdocs_build(root)  # each build a fresh process, as CI runs them
    for step in ("same HEAD", "HEAD moved"):
        stored = sorted(cache.glob("git-history-*.json"))
        assert len(stored) == 2  # the answers, and the commits behind them
        for path in stored:
            as_an_older_release_wrote_it(path, no_changes_found)
        if step == "HEAD moved":
            git_repo.write("README.md", "Read me.\n")
            git_repo.commit("a readme, which no page shows", "2024-10-01T09:00:00+00:00")
        mkdocs_build(root)
        with_cache = sitemap(root / "site")
        shutil.rmtree(cache)
        mkdocs_build(root)
        assert with_cache == sitemap(root / "site"), step
        assert with_cache[BASE + "guide/install/"].lastmod == "2024-02-11T09:00:00Z"


ABOUT_PAGE = ("about", "index.html")
ROBOTS_NONE_HOOK = """
def on_post_page(output, page, config):
    # A theme's robots meta that search engines read as noindex, nofollow.
    if page.file.src_uri == "about.md":
        return output.replace("<head>", '<head><meta name="robots" content="none">', 1)
    return output
"""


def test_a_page_memo_an_older_release_wrote_is_not_used(git_repo: GitRepo) -> None:
    """.cache/ restored from a build that ran an older release, which read a robots meta of
    ``none`` as no noindex: what it kept of the page's file, as the file still is, says the page
    is listed. A --dirty build that does not write the page again reads it all the same, and
    leaves it out, as a build without what was kept does."""
    git_repo.write("hooks/slow_finish.py", SLOW_FINISH_HOOK)
    git_repo.write("hooks/robots_none.py", ROBOTS_NONE_HOOK)
    hooks = ["hooks/robots_none.py", "hooks/slow_finish.py"]
    root = example_repo(git_repo, plugins=["sitemap"], hooks=hooks)
    mkdocs_build(root)
    [memo] = (root / ".cache" / "sitemap-plugins").glob("pages-*.json")

    def listed(data: dict[str, Any]) -> None:
        [about] = [name for name in data["files"] if Path(name).parts[-2:] == ABOUT_PAGE]
        assert data["files"][about][4] == "NOINDEX"  # as this release read the page
        data["files"][about][4] = None

    as_an_older_release_wrote_it(memo, listed)
    touch_later(git_repo.path("docs/index.md"))
    mkdocs_build(root, "--dirty")
    with_memo = (root / "site" / "sitemap.xml").read_bytes()
    memo.unlink()
    mkdocs_build(root, "--dirty")
    assert with_memo == (root / "site" / "sitemap.xml").read_bytes()
    assert BASE + "about/" not in sitemap(root / "site")
    assert BASE + "guide/install/" in sitemap(root / "site")


PLUGIN_META_HOOK = """
import datetime as dt

PRIORITY = {priority}


def on_page_markdown(markdown, page, **kwargs):
    # What a plugin adds to a page's metadata, which the page's source does not say.
    if page.file.src_uri.startswith("reference/"):
        page.meta["sitemap"] = {{"priority": PRIORITY, "lastmod": dt.date(2024, 1, 2)}}
    return markdown
"""


def test_fresh_dirty_builds_keep_the_metadata_plugins_gave_each_page(git_repo: GitRepo) -> None:
    """A plugin (here a hook; Material's ``.meta.yml`` files work the same way) sets the sitemap
    metadata of the pages under reference/. A --dirty build in a fresh process does not render
    those pages again, nor read their metadata: it lists them with what they were last rendered
    with, as MkDocs keeps their HTML, so its sitemap is the clean build's, byte for byte. Until
    a page is rendered again, a change to the plugin does not reach it, in its HTML or here."""
    git_repo.write("hooks.py", PLUGIN_META_HOOK.format(priority=0.2))
    root = example_repo(git_repo, hooks=["hooks.py"])
    mkdocs_build(root)
    clean = (root / "site" / "sitemap.xml").read_bytes()
    first = sitemap(root / "site")
    assert first[BASE + "reference/options/"].priority == "0.2"
    assert first[BASE + "reference/options/"].lastmod == "2024-01-02"
    assert first[BASE + "about/"].lastmod == "2024-05-01"  # its own front matter: a YAML date
    touch_later(git_repo.path("docs/index.md"))  # re-rendered; still dated by its commit
    for _ in range(2):  # the first --dirty process reads what the clean build kept, and so on
        mkdocs_build(root, "--dirty")
        assert (root / "site" / "sitemap.xml").read_bytes() == clean
    git_repo.write("hooks.py", PLUGIN_META_HOOK.format(priority=0.9))
    mkdocs_build(root, "--dirty")
    assert (root / "site" / "sitemap.xml").read_bytes() == clean  # not rendered again
    touch_later(git_repo.path("docs/reference/options.md"))
    mkdocs_build(root, "--dirty")
    assert sitemap(root / "site")[BASE + "reference/options/"].priority == "0.9"


def test_fresh_dirty_builds_keep_what_material_meta_files_gave_each_page(
    git_repo: GitRepo,
) -> None:
    """Material's meta plugin merges a folder's ``.meta.yml`` into each of its pages' metadata
    (the page's own front matter wins). A --dirty build in a fresh process lists the pages it
    does not render again with those values, not with their front matter alone."""
    pytest.importorskip(
        "material.plugins.meta.plugin",
        reason="the meta plugin needs Material 9.6+ (this session has an older one)",
    )
    git_repo.write("docs/guide/.meta.yml", "sitemap:\n  changefreq: yearly\n  priority: 0.4\n")
    root = example_repo(git_repo, theme={"name": "material"}, plugins=["meta", "sitemap"])
    mkdocs_build(root)
    clean = (root / "site" / "sitemap.xml").read_bytes()
    first = sitemap(root / "site")
    assert (
        first[BASE + "guide/configure/"].changefreq,
        first[BASE + "guide/configure/"].priority,
    ) == ("yearly", "0.4")
    assert (first[BASE + "guide/install/"].changefreq, first[BASE + "guide/install/"].priority) == (
        "monthly",
        "0.8",
    )
    touch_later(git_repo.path("docs/index.md"))
    mkdocs_build(root, "--dirty")
    assert (root / "site" / "sitemap.xml").read_bytes() == clean


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
def test_static_i18n_alternates(git_repo: GitRepo, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    git_repo.write("docs/index.md", "# Home\n\nEnglish home.\n")
    git_repo.write("docs/index.fr.md", "# Accueil\n\nAccueil en français.\n")
    git_repo.write("docs/guide.md", "# Guide\n\nEnglish only.\n")
    git_repo.write("docs/about.md", "# About\n\nAbout us.\n")
    git_repo.write(
        "docs/about.fr.md", "---\nsitemap:\n  priority: 0.2\n---\n\n# À propos\n\nNous.\n"
    )
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    write_config(
        git_repo,
        plugins=english_and_french(),
    )
    site = build_site(git_repo.root)
    assert not (site / "fr" / "sitemap.xml").exists()
    entries = sitemap(site)
    assert set(entries) == {
        BASE + path for path in ("", "fr/", "guide/", "fr/guide/", "about/", "fr/about/")
    }
    for path, other in [("", "fr/"), ("about/", "fr/about/")]:
        expected = {"en": BASE + path, "fr": BASE + other, "x-default": BASE + path}
        assert entries[BASE + path].alternates == expected
        assert entries[BASE + other].alternates == expected
    assert entries[BASE + "fr/about/"].priority == "0.2"
    assert entries[BASE + "about/"].priority is None
    assert all(entry.lastmod == "2024-03-01T00:00:00Z" for entry in entries.values())
    [line] = summary_lines(caplog)  # one sitemap for all languages, one line
    assert "6 URLs" in line


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
def test_static_i18n_versions_left_out_are_no_alternates(git_repo: GitRepo) -> None:
    """A language version the sitemap leaves out (``sitemap: false``, a robots ``noindex`` the
    theme writes) is named by no other version: alternates name each other back, from
    indexable URLs, and a page left with only itself has none."""
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/index.fr.md", "---\nsitemap: false\n---\n\n# Accueil\n")
    git_repo.write("docs/about.md", "# About\n")
    git_repo.write("docs/about.fr.md", "---\nrobots: noindex\n---\n\n# À propos\n")
    git_repo.write(
        "overrides/main.html",
        '{% extends "base.html" %}{% block extrahead %}{% if page.meta.robots %}'
        '<meta name="robots" content="{{ page.meta.robots }}">{% endif %}{% endblock %}',
    )
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    write_config(
        git_repo,
        theme={"name": "mkdocs", "custom_dir": "overrides"},
        plugins=english_and_french(),
    )
    site = build_site(git_repo.root)
    assert '<meta name="robots" content="noindex">' in (site / "fr/about/index.html").read_text()
    entries = sitemap(site)
    assert set(entries) == {BASE, BASE + "about/"}
    assert all(entry.alternates == {} for entry in entries.values())


def canonical_links(site: Path) -> dict[str, str]:
    """The canonical URL MkDocs wrote into each page of ``site``, by the page's file."""
    found = {}
    for page in site.rglob("*.html"):
        link = re.search(r'<link rel="canonical" href="([^"]*)"', page.read_text("utf-8"))
        if link and page.name != "404.html":
            found[page.relative_to(site).as_posix()] = link.group(1)
    return found


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
@pytest.mark.parametrize("french_url", ["https://example.org/fr/", "https://example.fr/"])
def test_static_i18n_language_site_url(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture, french_url: str
) -> None:
    """A language given a site_url of its own (mkdocs-static-i18n builds it last) moves only
    its pages' canonical URLs: every page is listed at the canonical URL MkDocs gives it, the
    base URL stays the default language's, and a language whose URLs leave the site (another
    host) is left out, named by no alternate, with one warning that says why."""
    caplog.set_level(logging.INFO)
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/index.fr.md", "# Accueil\n")
    git_repo.write("docs/index.de.md", "# Start\n")
    git_repo.write("docs/guide.md", "# Guide\n")
    git_repo.write("docs/guide.fr.md", "# Le guide\n")
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    languages = [
        {"locale": "en", "default": True, "name": "English"},
        {"locale": "de", "name": "Deutsch"},
        {"locale": "fr", "name": "Français", "site_url": french_url},
    ]
    write_config(
        git_repo,
        plugins=["sitemap", {"i18n": {"docs_structure": "suffix", "languages": languages}}],
    )
    site = build_site(git_repo.root)
    canonical = canonical_links(site)
    assert canonical["fr/index.html"].startswith(french_url)  # MkDocs put French there
    inside = {url for url in canonical.values() if url.startswith(BASE)}
    entries = sitemap(site)
    assert set(entries) == inside
    warnings = sitemap_warnings(caplog)
    home = {"en": BASE, "de": canonical["de/index.html"], "x-default": BASE}
    if french_url.startswith(BASE):
        assert len(entries) == 6  # en, de and fr: the home page and the guide
        assert not warnings
        home["fr"] = canonical["fr/index.html"]
    else:
        assert len(entries) == 4
        [warning] = warnings
        assert "'fr'" in warning
        assert repr(french_url) in warning
    assert entries[BASE].alternates == home
    assert entries[canonical["de/index.html"]].alternates == home
    named = {url for entry in entries.values() for url in entry.alternates.values()}
    assert named <= inside


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
def test_static_i18n_language_site_url_under_the_base_url_option(git_repo: GitRepo) -> None:
    """Our ``base_url`` option wins over ``site_url``, for a language's own ``site_url`` too:
    French at ``https://example.org/docs/fr/``, under the option's folder, is listed there,
    and every page of the default language is under the option's URL."""
    docs = BASE + "docs/"
    french_url = docs + "fr/"
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/index.fr.md", "# Accueil\n")
    git_repo.write("docs/guide.md", "# Guide\n")
    git_repo.write("docs/guide.fr.md", "# Le guide\n")
    git_repo.commit("pages", "2024-03-01T00:00:00+00:00")
    languages = [
        {"locale": "en", "default": True, "name": "English"},
        {"locale": "fr", "name": "Français", "site_url": french_url},
    ]
    write_config(
        git_repo,
        site_url=BASE,
        plugins=[
            {"sitemap": {"base_url": docs}},
            {"i18n": {"docs_structure": "suffix", "languages": languages}},
        ],
    )
    site = build_site(git_repo.root)
    canonical = canonical_links(site)
    french = {url for url in canonical.values() if url.startswith(french_url)}
    assert len(french) == 2  # MkDocs put French under the option's folder
    english = {docs + url[len(BASE) :] for url in canonical.values() if url not in french}
    entries = sitemap(site, docs)
    assert set(entries) == english | french
    home = {"en": docs, "fr": canonical["fr/index.html"], "x-default": docs}
    assert entries[docs].alternates == home


UPDATED_POST = """\
---
date:
  created: 2023-01-05
  updated: 2023-02-06
---

# Updated post

Text.
"""
"""A Material blog post updated after it was published (its URL keeps the day it was created)."""


def material_blog_available() -> bool:
    try:
        importlib.metadata.version("mkdocs-material")
    except importlib.metadata.PackageNotFoundError:
        return False
    return True


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_material_blog_post_dates_count_as_explicit(git_repo: GitRepo) -> None:
    git_repo.write("docs/index.md", "# Home\n\nHome.\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/updated.md", UPDATED_POST)
    git_repo.write("docs/blog/posts/plain.md", "---\ndate: 2023-03-07\n---\n\n# Plain\n\nText.\n")
    git_repo.commit("blog", "2024-03-01T00:00:00+00:00")
    write_config(
        git_repo,
        theme={"name": "material"},
        plugins=["sitemap", {"blog": {"categories": False}}],
    )
    site = build_site(git_repo.root)
    entries = sitemap(site)
    by_path = {loc.removeprefix(BASE): entry.lastmod for loc, entry in entries.items()}
    assert by_path[""] == "2024-03-01T00:00:00Z"
    assert by_path["blog/"] == "2024-03-01T00:00:00Z"
    assert by_path["blog/2023/01/05/updated-post/"] == "2023-02-06"
    assert by_path["blog/2023/03/07/plain/"] == "2023-03-07"
    assert by_path["blog/archive/2023/"] == "2023-03-07"  # its newest post


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_a_blog_front_page_is_as_new_as_its_newest_post(git_repo: GitRepo) -> None:
    """The blog's own page shows its newest posts: a new post changes it, though its source
    (blog/index.md) stays as it was; a later edit of that source counts as well."""
    git_repo.write("docs/index.md", "# Home\n\nHome.\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/old.md", "---\ndate: 2023-03-07\n---\n\n# Old\n\nText.\n")
    git_repo.commit("blog", "2024-01-10T10:00:00+00:00")
    write_config(
        git_repo,
        theme={"name": "material"},
        plugins=["sitemap", {"blog": {"categories": False}}],
    )
    by_path = blog_dates(git_repo)
    assert by_path["blog/"] == "2024-01-10T10:00:00Z"  # its source: newer than the post
    git_repo.write("docs/blog/posts/new.md", "---\ndate: 2024-07-01\n---\n\n# New\n\nNews.\n")
    git_repo.commit("a new post", "2024-07-01T12:00:00+00:00", "docs/blog/posts/new.md")
    by_path = blog_dates(git_repo)
    assert by_path["blog/2024/07/01/new/"] == "2024-07-01"
    assert by_path["blog/"] == "2024-07-01"  # as new as the post it now shows
    git_repo.write("docs/blog/index.md", "# Blog\n\nAll our news.\n")
    git_repo.commit("intro", "2024-08-02T08:00:00+00:00", "docs/blog/index.md")
    assert blog_dates(git_repo)["blog/"] == "2024-08-02T08:00:00Z"


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_a_blog_front_page_git_cannot_date_is_not_dated_by_its_posts(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The blog's own page is as new as its source or its newest post. In a copy of the site
    without ``.git`` (a CI artifact, a container's COPY), git cannot date its source, which may
    be the newer: the page gets no lastmod, not its newest post's date, older than its last
    change. A post keeps the date it declares."""
    git_repo.write("docs/index.md", "# Home\n\nHome.\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/new.md", "---\ndate: 2024-07-01\n---\n\n# New\n\nNews.\n")
    git_repo.write(".gitignore", "site/\n.cache/\n")
    write_config(
        git_repo,
        theme={"name": "material"},
        plugins=["sitemap", {"blog": {"categories": False}}],
    )
    git_repo.commit("blog", "2024-07-01T12:00:00+00:00")
    git_repo.write("docs/blog/index.md", "# Blog\n\nAll our news.\n")
    git_repo.commit("intro", "2024-08-02T08:00:00+00:00")
    assert blog_dates(git_repo)["blog/"] == "2024-08-02T08:00:00Z"  # the truth: its source
    copy = git_repo.archive(tmp_path / "copy")
    entries = sitemap(build_site(copy))
    by_path = {loc.removeprefix(BASE): entry.lastmod for loc, entry in entries.items()}
    assert by_path["blog/"] is None
    assert by_path["blog/2024/07/01/new/"] == "2024-07-01"


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_a_blog_post_deleted_moves_the_pages_that_listed_it_forward(git_repo: GitRepo) -> None:
    """Deleting the newest post (or moving it out of the posts folder) changes the blog's
    page, its archive and its category: they are as new as that commit, not as the post now
    newest, which would date them back. A ``--dirty`` build gives what a clean one gives."""
    git_repo.write("docs/index.md", "# Home\n\nHome.\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write(".gitignore", "site/\n.cache/\n")
    write_config(git_repo, theme={"name": "material"}, plugins=["sitemap", "blog"])
    git_repo.commit("blog", "2024-01-01T00:00:00+00:00")
    for number in (1, 2):
        git_repo.write(
            f"docs/blog/posts/p{number}.md",
            f"---\ndate: 2024-0{number}-05\ncategories: [News]\n---\n\n# Post {number}\n",
        )
        git_repo.commit(f"post {number}", f"2024-0{number}-05T12:00:00+00:00")
    listings = ("blog/", "blog/archive/2024/", "blog/category/news/")
    before = blog_dates(git_repo)
    assert {path: before[path] for path in listings} == dict.fromkeys(listings, "2024-02-05")
    git_repo.remove("docs/blog/posts/p2.md")
    git_repo.commit("unpublish post 2", "2024-07-01T12:00:00+00:00")
    dirty = sitemap(build_site(git_repo.root, dirty=True))
    after = blog_dates(git_repo)
    assert {path: after[path] for path in listings} == dict.fromkeys(
        listings, "2024-07-01T12:00:00Z"
    )
    assert {loc.removeprefix(BASE): entry.lastmod for loc, entry in dirty.items()} == after
    assert after["blog/2024/01/05/post-1/"] == "2024-01-05"  # the post keeps its own date


def blog_dates(git_repo: GitRepo) -> dict[str, str | None]:
    entries = sitemap(build_site(git_repo.root))
    return {loc.removeprefix(BASE): entry.lastmod for loc, entry in entries.items()}


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_a_blog_index_material_writes_during_the_build_is_not_dated_by_it(
    git_repo: GitRepo,
) -> None:
    """Material's blog writes ``docs/blog/index.md`` when the site has none (its docs allow
    that): untracked, its file time is the build's, on every CI build. That time dates nothing,
    this build or the next: the page is as new as the post it shows; a page edited (not
    committed) before the build is still dated by its file time."""
    git_repo.write("docs/index.md", "# Home\n\nHome.\n")
    git_repo.write("docs/blog/posts/plain.md", "---\ndate: 2023-03-07\n---\n\n# Plain\n\nText.\n")
    git_repo.write(".gitignore", "site/\n.cache/\n")
    write_config(
        git_repo,
        theme={"name": "material"},
        plugins=[{"blog": {"categories": False}}, "sitemap"],
    )
    git_repo.commit("blog without an index", "2024-03-01T00:00:00+00:00")
    edited = git_repo.write("docs/index.md", "# Home\n\nHome, edited.\n")
    edited_at = dt.datetime.fromtimestamp(int(edited.stat().st_mtime), dt.timezone.utc)
    for run in ("first build", "next build"):
        result = mkdocs_build(git_repo.root)
        assert "?? docs/blog/index.md" in git_repo.git("status", "--short"), run  # Material's
        entries = sitemap(git_repo.root / "site")
        by_path = {loc.removeprefix(BASE): entry.lastmod for loc, entry in entries.items()}
        assert by_path["blog/"] == "2023-03-07", run  # the post it shows, not the build
        assert by_path[""] == edited_at.strftime("%Y-%m-%dT%H:%M:%SZ"), run
        assert by_path["blog/2023/03/07/plain/"] == "2023-03-07", run
        assert "no lastmod" not in result.stderr, result.stderr
        assert not [
            line for line in result.stderr.splitlines() if "WARNING" in line and "sitemap" in line
        ]
    # Committed, the index is dated by its commit like any page.
    git_repo.commit("keep the blog index", "2024-04-01T00:00:00+00:00", "docs/blog/index.md")
    mkdocs_build(git_repo.root)
    assert sitemap(git_repo.root / "site")[BASE + "blog/"].lastmod == "2024-04-01T00:00:00Z"


def material_version() -> tuple[int, ...]:
    return tuple(int(part) for part in importlib.metadata.version("mkdocs-material").split(".")[:2])


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_a_page_material_lists_tagged_pages_in_is_as_new_as_the_pages_it_lists(
    git_repo: GitRepo,
) -> None:
    """Material's tags plugin renders a listing of the tagged pages into a page (where
    ``<!-- material/tags -->`` is, 9.6 on; the ``tags_file``, 9.5 and older): a page tagged
    later changes it, though its source stays as it was, and so does a tagged page deleted.
    Every tagged page counts, for a listing scoped to some tags too (9.6 on). A ``--dirty``
    build, in which MkDocs renders only the new page, dates it as a clean build does, in the
    same process (``serve``) and in a fresh one, which reads back what the pages it does not
    render were."""
    directives = material_version() >= (9, 6)
    git_repo.write("docs/index.md", "# Home\n\nHome.\n")
    git_repo.write(
        "docs/tags.md", "# Tags\n\n" + ("<!-- material/tags -->\n" if directives else "")
    )
    git_repo.write("docs/old.md", "---\ntags: [install]\n---\n\n# Old\n\nText.\n")
    if directives:
        scoped = "# Security\n\n<!-- material/tags { include: [security] } -->\n"
        git_repo.write("docs/security.md", scoped)
    git_repo.write(".gitignore", "site/\n.cache/\n")
    tags = "tags" if directives else {"tags": {"tags_file": "tags.md"}}
    write_config(git_repo, theme={"name": "material"}, plugins=["sitemap", tags])
    git_repo.commit("tags", "2024-01-01T00:00:00+00:00")
    listings = ["tags/", "security/"] if directives else ["tags/"]
    first = blog_dates(git_repo)
    assert {path: first[path] for path in listings} == dict.fromkeys(
        listings, "2024-01-01T00:00:00Z"
    )
    git_repo.write("docs/new.md", "---\ntags: [security, install]\n---\n\n# New\n\nText.\n")
    git_repo.commit("a new tagged page", "2024-06-01T00:00:00+00:00")
    dirty = sitemap(build_site(git_repo.root, dirty=True))
    clean = blog_dates(git_repo)
    assert {loc.removeprefix(BASE): entry.lastmod for loc, entry in dirty.items()} == clean
    assert {path: clean[path] for path in listings} == dict.fromkeys(
        listings, "2024-06-01T00:00:00Z"
    )
    assert clean[""] == "2024-01-01T00:00:00Z"  # no listing in it
    touch_later(git_repo.path("docs/old.md"))  # rendered again; the listings are not
    mkdocs_build(git_repo.root, "--dirty")
    fresh = sitemap(git_repo.root / "site")
    assert {loc.removeprefix(BASE): entry.lastmod for loc, entry in fresh.items()} == clean
    git_repo.remove("docs/new.md")
    git_repo.commit("the new page goes", "2024-07-01T00:00:00+00:00")
    gone = blog_dates(git_repo)
    assert {path: gone[path] for path in listings} == dict.fromkeys(
        listings, "2024-07-01T00:00:00Z"
    )


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_a_tags_page_material_adds_to_the_files_twice_is_listed_once(git_repo: GitRepo) -> None:
    """Material 9.3 to 9.5 append the ``tags_file`` page to MkDocs' files a second time: it was
    listed once, but with a warning that ``mkdocs build --strict`` stopped on. From 9.6, where
    a directive marks the listing, the same site builds as cleanly."""
    directives = material_version() >= (9, 6)
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/a.md", "---\ntags: [a]\n---\n\n# A\n")
    git_repo.write(
        "docs/tags.md", "# Tags\n\n" + ("<!-- material/tags -->\n" if directives else "")
    )
    tags = "tags" if directives else {"tags": {"tags_file": "tags.md"}}
    write_config(git_repo, theme={"name": "material"}, plugins=["search", tags, "sitemap"])
    git_repo.commit("tags", "2024-01-01T00:00:00+00:00")
    done = mkdocs_build(git_repo.root, "--strict", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "already listed" not in done.stdout + done.stderr
    listed = [loc.removeprefix(BASE) for loc in sitemap(git_repo.root / "site")]
    assert sorted(listed) == ["", "a/", "tags/"]


GENERATOR_HOOK = """\
import pathlib
import time

from mkdocs.plugins import event_priority


@event_priority(100)  # before every plugin's on_config, the sitemap's too
def on_config(config):
    page = pathlib.Path(config.docs_dir, "generated.md")
    if not page.is_file():
        page.write_text("# Generated\\n\\nWritten by the build.\\n")
    time.sleep(0.2)  # the rest of its work
"""
"""A hook that writes a page into ``docs_dir`` when it has none, before the sitemap hears of
the build."""


def test_serve_rebuilds_each_begin_with_themselves(git_repo: GitRepo) -> None:
    """As ``mkdocs serve`` runs: ``on_startup`` once, then a build per change, each with its
    config read again. The page a hook wrote before the sitemap's ``on_config`` of the first
    build has no lastmod, in that build and the next; a page edited between the builds is
    dated by its file time in the next one, which began after it."""
    root = example_repo(git_repo, hooks=["hooks.py"])
    git_repo.write("hooks.py", GENERATOR_HOOK)
    git_repo.commit("hook", "2024-10-01T09:00:00+00:00", "hooks.py")
    config = load(root)
    config.plugins.on_startup(command="serve", dirty=False)
    build(config)
    first = sitemap(Path(config.site_dir))
    assert first[BASE + "generated/"].lastmod is None
    assert first[BASE + "guide/configure/"].lastmod == "2024-03-12T09:00:00Z"
    edited = git_repo.write("docs/guide/configure.md", "# Configure\n\nEdited.\n")
    time.sleep(0.1)  # saved before the rebuild begins, as the watcher sees it
    config = load(root)
    build(config)
    second = sitemap(Path(config.site_dir))
    assert second[BASE + "generated/"].lastmod is None
    edited_at = dt.datetime.fromtimestamp(int(edited.stat().st_mtime), dt.timezone.utc)
    assert second[BASE + "guide/configure/"].lastmod == edited_at.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_example_site_builds_from_its_folder_with_the_cli(tmp_path: Path) -> None:
    site = tmp_path / "example"
    shutil.copytree(EXAMPLE, site, ignore=shutil.ignore_patterns("site"))
    mkdocs_build(site, "--strict")
    entries = sitemap(site / "site")
    assert BASE + "internal/" not in entries
    assert BASE + "404/" not in entries
    assert len(entries) == 6
    # A copy outside git (an sdist, a CI artifact): file times record the copy, so only the
    # date the author wrote is written, and --strict passes (an info line, not a warning).
    dated = {loc: entry.lastmod for loc, entry in entries.items() if entry.lastmod}
    assert dated == {BASE + "about/": "2024-05-01"}


def test_the_history_pass_starts_with_the_build_and_is_the_only_one(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """git reads the history while MkDocs renders (started at on_config, the build's first git
    command), and the sitemap takes that pass: one git log and one git status a build, and no
    log at all the next time, at the same HEAD."""
    root = example_repo(git_repo)
    trace = GitTrace(tmp_path / "trace")
    mkdocs_build(root, env=trace.env)
    first = sitemap(root / "site")
    assert first[BASE + "caf%C3%A9/"].lastmod == "2024-06-14T09:00:00Z"
    assert first[BASE + "guide/configure/"].lastmod == "2024-03-12T09:00:00Z"
    started = trace.commands()[0]
    assert (started[0], started[-1]) == ("rev-parse", "HEAD"), trace.commands()
    assert (trace.count("log"), trace.count("status")) == (1, 1), trace.commands()
    trace.clear()
    mkdocs_build(root, env=trace.env)
    assert sitemap(root / "site") == first
    assert (trace.count("log"), trace.count("status")) == (0, 1), trace.commands()


def test_a_page_linked_to_the_readme_is_dated_by_the_readme(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """``docs/readme.md -> ../README.md``, as many sites show their README: MkDocs renders
    README.md, so the page is as new as README.md's last commit, not as the link's; the pass
    begun at on_config covers README.md though it is beyond docs/, so it stays the only one."""
    root = example_repo(git_repo)
    git_repo.write("README.md", "# Read me\n\nFirst words.\n")
    git_repo.path("docs/readme.md").symlink_to("../README.md")
    git_repo.commit("show the readme", "2024-10-01T09:00:00+00:00")
    git_repo.write("README.md", "# Read me\n\nBetter words.\n")
    git_repo.commit("improve the readme", "2024-11-05T09:00:00+00:00")
    trace = GitTrace(tmp_path / "trace")
    mkdocs_build(root, env=trace.env)
    entries = sitemap(root / "site")
    assert entries[BASE + "readme/"].lastmod == "2024-11-05T09:00:00Z"
    assert entries[BASE + "guide/configure/"].lastmod == "2024-03-12T09:00:00Z"
    assert trace.count("log") == 1, trace.commands()
