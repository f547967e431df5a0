"""Images, videos and news in real Pelican builds (default theme), checked and read back."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.pelican.helpers import BASE, log_of, page, plain_repo, post, sitemap
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp

pytestmark = pytest.mark.pelican

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>\n'
VIDEO = {
    "thumbnail_loc": "/images/thumb.svg",
    "title": "Salt & pepper, <live>",
    "description": "How much of each.",
    "content_loc": "https://cdn.example.org/salt.mp4",
}


def served_file(output: Path, url: str) -> Path:
    """The file in the output folder that serves ``url`` (under the base URL)."""
    assert url.startswith(BASE), url
    return output / unquote(url.removeprefix(BASE))


def test_images_of_the_content_only_as_absolute_urls_that_exist(git_repo: GitRepo) -> None:
    files = {
        "content/images/diagram.svg": SVG,
        "content/images/photo one.svg": SVG,
        "content/a.md": post("A", "2024-01-01")
        + "\n![A diagram]({static}/images/diagram.svg)\n\n![Again]({static}/images/diagram.svg)"
        + '\n\n<img src="data:image/png;base64,AAAA" alt="inline">\n',
        "content/pages/about.md": page("About") + "\n![Photo](../images/photo one.svg)\n",
        "content/b.md": post("B", "2024-01-02"),
    }
    site = plain_repo(git_repo, files, 'STATIC_PATHS = ["images"]\nSITEMAP = {"images": True}\n')
    proc = pelican_build(site, "-v")
    entries = sitemap(site)
    assert entries["a.html"].images == (BASE + "images/diagram.svg",)
    assert entries["pages/about.html"].images == (BASE + "images/photo%20one.svg",)
    assert entries["b.html"].images == ()
    output = site / "output"
    every = {url for entry in entries.values() for url in entry.images}
    assert every == {BASE + "images/diagram.svg", BASE + "images/photo%20one.svg"}
    assert all(served_file(output, url).is_file() for url in every)
    read = parse_with_usp(output, "sitemap.xml", base_url=BASE)
    assert read[BASE + "a.html"].images == (BASE + "images/diagram.svg",)
    assert f"; {sum(len(e.images) for e in entries.values())} images" in log_of(proc)


def test_without_the_option_no_image_is_listed(git_repo: GitRepo) -> None:
    files = {
        "content/images/diagram.svg": SVG,
        "content/a.md": post("A", "2024-01-01") + "\n![A diagram]({static}/images/diagram.svg)\n",
    }
    site = plain_repo(git_repo, files, 'STATIC_PATHS = ["images"]\n')
    pelican_build(site)
    assert all(entry.images == () for entry in sitemap(site).values())
    assert "xmlns:image" not in (site / "output" / "sitemap.xml").read_text("utf-8")


def test_a_video_in_the_sitemap_metadata(git_repo: GitRepo) -> None:
    files = {
        "content/images/thumb.svg": SVG,
        "content/a.md": post("A", "2024-01-01", Sitemap=json.dumps({"video": [VIDEO]})),
    }
    site = plain_repo(git_repo, files, 'STATIC_PATHS = ["images"]\nSITEMAP = {"strict": True}\n')
    pelican_build(site)
    [video] = sitemap(site)["a.html"].videos
    assert video == {
        "thumbnail_loc": BASE + "images/thumb.svg",
        "title": "Salt & pepper, <live>",
        "description": "How much of each.",
        "content_loc": "https://cdn.example.org/salt.mp4",
    }
    assert served_file(site / "output", video["thumbnail_loc"]).is_file()


def test_a_bad_video_warns_naming_file_and_field_and_fails_strict(git_repo: GitRepo) -> None:
    bad = {key: value for key, value in VIDEO.items() if key != "description"}
    files = {"content/a.md": post("A", "2024-01-01", Sitemap=json.dumps({"video": [bad]}))}
    site = plain_repo(git_repo, files)
    log = log_of(pelican_build(site))
    assert "content/a.md: sitemap.video #1: no description" in log
    assert "that video is left out" in log
    assert sitemap(site)["a.html"].videos == ()  # the page stays, without the video
    git_repo.write("pelicanconf.py", (site / "pelicanconf.py").read_text("utf-8")
                   + 'SITEMAP = {"strict": True}\n')  # fmt: skip
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    assert "no description" in log_of(proc)
    assert "SITEMAP['strict'] is on" in log_of(proc)


def test_news_lists_the_articles_of_the_last_two_days(git_repo: GitRepo) -> None:
    now = dt.datetime.now(dt.timezone.utc).replace(second=0, microsecond=0)
    recent = (now - dt.timedelta(hours=3)).strftime("%Y-%m-%d %H:%M")
    files = {
        "content/recent.md": post("Fresh &amp; new", recent, Slug="recent"),
        "content/recent-fr.md": post(
            "Tout frais", recent, Slug="recent", Lang="fr", Translation="true"
        ),
        "content/old.md": post("Old", "2020-01-01"),
        "content/undated.md": "Title: Undated\nCategory: News\n\nNo date of its own.\n",
        "content/pages/about.md": page("About"),
    }
    settings = (
        'DEFAULT_DATE = "fs"\n'
        'SITEMAP = {"news": {"name": "The Example", "language": "en"}, "robots_txt": True}\n'
    )
    site = plain_repo(git_repo, files, settings)
    proc = pelican_build(site, "-v")
    output = site / "output"
    news = check_sitemap_file(
        output / "sitemap-news.xml", BASE + "sitemap-news.xml", site_dir=output, base_url=BASE
    )
    assert [(entry.loc, entry.news) for entry in news] == [
        (
            BASE + "recent-fr.html",
            {
                "name": "The Example",
                "language": "fr",
                "publication_date": (now - dt.timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:00Z"),
                "title": "Tout frais",
            },
        ),
        (
            BASE + "recent.html",
            {
                "name": "The Example",
                "language": "en",
                "publication_date": (now - dt.timedelta(hours=3)).strftime("%Y-%m-%dT%H:%M:00Z"),
                "title": "Fresh & new",
            },
        ),
    ]
    main = sitemap(site)
    assert {"recent.html", "old.html", "undated.html", "pages/about.html"} <= set(main)
    robots = (output / "robots.txt").read_text("utf-8").splitlines()
    assert robots == [f"Sitemap: {BASE}sitemap.xml", f"Sitemap: {BASE}sitemap-news.xml"]
    read = parse_with_usp(output, "sitemap-news.xml", base_url=BASE)
    assert {info.news[3] for info in read.values() if info.news} == {"Fresh & new", "Tout frais"}
    assert "news: 2 articles of the last two days" in log_of(proc)
