"""Images, videos and news in real MkDocs builds: the built-in themes and Material."""

from __future__ import annotations

import datetime as dt
import logging
import textwrap
from pathlib import Path
from urllib.parse import unquote

import pytest
from mkdocs.exceptions import Abort

from tests.mkdocs.helpers import (
    BASE,
    build_site,
    sitemap,
    sitemap_warnings,
    summary_lines,
    write_config,
)
from tests.mkdocs.test_mkdocs import material_blog_available
from tests.support.gitrepo import GitRepo
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp

pytestmark = pytest.mark.mkdocs

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>\n'
GUIDE = """\
# Guide

![A diagram](../img/diagram.svg)

Text, then the same diagram again ![again](../img/diagram.svg) and a photo:

![A photo](../img/photo café.svg)

<img src="data:image/png;base64,AAAA" alt="inline">
"""
VIDEO = """\
---
sitemap:
  video:
    - thumbnail_loc: ../img/diagram.svg
      title: Five minutes & a <demo>
      description: It's short.
      player_loc: https://player.example.net/embed/5
      publication_date: 2024-05-01
      tag: [sitemap, demo]
---

# Watch

Text.
"""


def site_with_images(repo: GitRepo, **settings: object) -> Path:
    for name in ("diagram.svg", "photo café.svg", "logo.svg"):
        repo.write(f"docs/img/{name}", SVG)
    repo.write("docs/index.md", "# Home\n\nNo image here.\n")
    repo.write("docs/guide/index.md", GUIDE)
    repo.commit("site", "2024-03-01T00:00:00+00:00")
    write_config(repo, **settings)
    return build_site(repo.root)


THEMES = [
    pytest.param({"name": "mkdocs"}, id="mkdocs"),
    pytest.param({"name": "readthedocs", "logo": "img/logo.svg"}, id="readthedocs"),
    pytest.param(
        {"name": "material", "logo": "img/logo.svg"},
        id="material",
        marks=pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material"),
    ),
]


@pytest.mark.parametrize("theme", THEMES)
def test_images_of_the_content_only_as_absolute_urls_that_exist(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture, theme: dict[str, str]
) -> None:
    caplog.set_level(logging.INFO)
    site = site_with_images(git_repo, theme=theme, plugins=[{"sitemap": {"images": True}}])
    entries = sitemap(site)
    guide = entries[BASE + "guide/"].images
    assert guide == (BASE + "img/diagram.svg", BASE + "img/photo%20caf%C3%A9.svg")
    assert all((site / unquote(url.removeprefix(BASE))).is_file() for url in guide)
    assert entries[BASE].images == ()  # the logo and the theme's chrome are no content
    if "logo" in theme:
        assert "img/logo.svg" in (site / "index.html").read_text("utf-8")
    read = parse_with_usp(site, "sitemap.xml", base_url=BASE)
    assert read[BASE + "guide/"].images == guide
    [line] = summary_lines(caplog)
    assert line.endswith("; 2 images")
    assert sitemap_warnings(caplog) == []


def test_without_the_option_the_sitemap_has_no_image(git_repo: GitRepo) -> None:
    site = site_with_images(git_repo, plugins=["sitemap"])
    assert all(entry.images == () for entry in sitemap(site).values())


@pytest.mark.parametrize("images", [False, True])
def test_rendered_pages_wait_for_the_sitemap_as_their_heads_only(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch, images: bool
) -> None:
    """Pages wait in memory for the end of the build; themes put the whole navigation in
    each, so keeping them whole grew the build's memory with the square of the site. Only
    the head waits (where a page's noindex, redirect and title are read); the images option
    reads the body from the written file instead, and nothing waits."""
    from sitemap_plugins.mkdocs import SitemapPlugin

    kept: dict[str, str | None] = {}
    post_build = SitemapPlugin.on_post_build

    def watched(self: SitemapPlugin, *, config: object) -> None:
        kept.update({key[1]: output for key, (_, output) in self._rendered.items()})
        post_build(self, config=config)  # type: ignore[arg-type]

    monkeypatch.setattr(SitemapPlugin, "on_post_build", watched)
    site = site_with_images(git_repo, plugins=[{"sitemap": {"images": images}}])
    written = {  # keyed as MkDocs links them
        url: (site / unquote(url) / "index.html").read_text(encoding="utf-8")
        for url in ("./", "guide/")
    }
    assert set(written) <= set(kept)
    for url, page in written.items():
        head = kept[url]
        if images:
            assert head is None
        else:
            assert head is not None
            assert page.startswith(head)
            assert "<title>" in head
            assert "</head>" not in head
            assert "<body" not in head
    entries = sitemap(site)
    assert set(entries) == {BASE, BASE + "guide/"}
    assert len(entries[BASE + "guide/"].images) == (2 if images else 0)


def test_a_video_in_front_matter(git_repo: GitRepo) -> None:
    git_repo.write("docs/img/diagram.svg", SVG)
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/watch.md", VIDEO)
    git_repo.commit("site", "2024-03-01T00:00:00+00:00")
    write_config(git_repo)
    site = build_site(git_repo.root, strict=True)
    [video] = sitemap(site)[BASE + "watch/"].videos
    assert video == {
        "thumbnail_loc": BASE + "img/diagram.svg",
        "title": "Five minutes & a <demo>",
        "description": "It's short.",
        "player_loc": "https://player.example.net/embed/5",
        "publication_date": "2024-05-01",
        "tag": "sitemap|demo",
    }


def test_a_bad_video_warns_naming_page_and_field_and_fails_strict(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/watch.md", VIDEO.replace("      title: Five minutes & a <demo>\n", ""))
    git_repo.commit("site", "2024-03-01T00:00:00+00:00")
    write_config(git_repo)
    entries = sitemap(build_site(git_repo.root))
    assert entries[BASE + "watch/"].videos == ()  # the page stays, without the video
    [warning] = sitemap_warnings(caplog)
    assert warning.startswith("sitemap: docs/watch.md: sitemap.video #1: no title (required: ")
    caplog.clear()
    with pytest.raises(Abort):
        build_site(git_repo.root, strict=True)
    assert "sitemap: 1 warning in strict mode; no sitemap written" in caplog.text


def post(title: str, created: dt.date) -> str:
    return f"---\ndate: {created.isoformat()}\n---\n\n# {title}\n\nExcerpt.\n"


@pytest.mark.skipif(not material_blog_available(), reason="needs mkdocs-material")
def test_news_lists_the_blog_posts_of_the_last_two_days(git_repo: GitRepo) -> None:
    today = dt.datetime.now(dt.timezone.utc).date()
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/blog/index.md", "# Blog\n")
    git_repo.write("docs/blog/posts/fresh.md", post("Fresh & new", today))
    git_repo.write("docs/blog/posts/old.md", post("Old", dt.date(2023, 3, 7)))
    git_repo.commit("blog", "2024-03-01T00:00:00+00:00")
    news = {"name": "The Example", "language": "en"}
    write_config(
        git_repo,
        theme={"name": "material"},
        plugins=[{"sitemap": {"news": news, "robots_txt": True}}, {"blog": {"categories": False}}],
    )
    site = build_site(git_repo.root, strict=True)
    [fresh] = [loc for loc in sitemap(site) if loc.startswith(f"{BASE}blog/{today:%Y/%m/%d}/")]
    entries = check_sitemap_file(site / "sitemap-news.xml", BASE + "sitemap-news.xml")
    assert [(e.loc, e.news) for e in entries] == [
        (
            fresh,
            {
                "name": "The Example",
                "language": "en",
                "publication_date": today.isoformat(),
                "title": "Fresh & new",
            },
        )
    ]
    robots = (site / "robots.txt").read_text("utf-8").splitlines()
    assert robots == [f"Sitemap: {BASE}sitemap.xml", f"Sitemap: {BASE}sitemap-news.xml"]
    gzipped = check_sitemap_file(site / "sitemap-news.xml.gz", BASE + "sitemap-news.xml.gz")
    assert gzipped == entries
    read = parse_with_usp(site, "sitemap-news.xml", base_url=BASE)
    assert read[fresh].news == ("The Example", "en", dt.datetime.combine(today, dt.time()),
                                "Fresh & new")  # fmt: skip


def test_the_news_option_is_checked_when_mkdocs_reads_its_config(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.commit("site", "2024-03-01T00:00:00+00:00")
    write_config(git_repo, plugins=[{"sitemap": {"news": {"name": "The Example"}}}])
    with pytest.raises(Abort):
        build_site(git_repo.root)
    errors = textwrap.shorten(caplog.text, 10_000)
    assert "Plugin 'sitemap' option 'news': {'name': 'The Example'} is not allowed" in errors
