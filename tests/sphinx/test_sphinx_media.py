"""Images and videos in real sphinx-build runs: the themes' own markup, strict mode with -W."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.sphinx.helpers import (
    BASE_CONF,
    BASE_URL,
    page,
    read_entries,
    write_project,
)
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, sphinx_build
from tests.support.sitemap_checks import parse_with_usp

pytestmark = pytest.mark.sphinx

SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>\n'
DATE = "2024-03-01T12:00:00+00:00"
IMAGES = """\
Guide
=====

.. image:: /img/diagram.svg
   :alt: A diagram

.. figure:: /img/photo-café.svg

   A caption.

Text with |icon| inline, and the diagram again:

.. image:: /img/diagram.svg

.. |icon| image:: /img/icon.svg
"""
VIDEO = {
    "thumbnail_loc": "/media/thumb.jpg",
    "title": "Five minutes",
    "description": "It's short, and shows the plugin.",
    "content_loc": "https://cdn.example.org/intro.mp4",
}


def project(git_repo: GitRepo, conf_extra: str, pages: dict[str, str]) -> Path:
    for name in ("diagram.svg", "photo-café.svg", "icon.svg", "logo.svg"):
        git_repo.write(f"docs/img/{name}", SVG)
    srcdir = write_project(git_repo, pages, conf=BASE_CONF + conf_extra)
    git_repo.commit("project", DATE)
    return srcdir


@pytest.mark.parametrize("theme", ["alabaster", "classic", "basic"])
def test_images_of_the_body_only_never_the_logo(
    git_repo: GitRepo, tmp_path: Path, theme: str
) -> None:
    conf = f'html_theme = "{theme}"\nhtml_logo = "img/logo.svg"\nsitemap_images = True\n'
    srcdir = project(git_repo, conf, {"guide.rst": IMAGES, "plain.rst": page("Plain")})
    out = tmp_path / "out"
    sphinx_build(srcdir, out, "-W")
    entries = read_entries(out)
    images = entries[BASE_URL + "guide/"].images
    assert images == (
        BASE_URL + "_images/diagram.svg",
        BASE_URL + "_images/photo-caf%C3%A9.svg",
        BASE_URL + "_images/icon.svg",
    )
    assert all((out / unquote(url.removeprefix(BASE_URL))).is_file() for url in images)
    assert entries[BASE_URL + "plain/"].images == ()
    assert entries[BASE_URL].images == ()  # the home page shows only the logo, in the sidebar
    assert "logo" in (out / "guide" / "index.html").read_text("utf-8")
    read = parse_with_usp(out, "sitemap.xml", base_url=BASE_URL)
    assert read[BASE_URL + "guide/"].images == images


def test_images_with_the_html_builder_resolve_from_the_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = project(git_repo, "sitemap_images = True\n", {"sub/guide.rst": IMAGES})
    out = tmp_path / "out"
    sphinx_build(srcdir, out, "-W", builder="html")
    images = read_entries(out)[BASE_URL + "sub/guide.html"].images
    assert images[0] == BASE_URL + "_images/diagram.svg"
    assert all((out / unquote(url.removeprefix(BASE_URL))).is_file() for url in images)


def field(value: object) -> str:
    return f":sitemap: {json.dumps(value)}"


def test_a_video_in_a_field_list(git_repo: GitRepo, tmp_path: Path) -> None:
    pages = {"guide.rst": page("Guide", fields=field({"video": [VIDEO]}))}
    srcdir = project(git_repo, "", pages)
    sphinx_build(srcdir, tmp_path / "out", "-W")
    [video] = read_entries(tmp_path / "out")[BASE_URL + "guide/"].videos
    assert video == {**VIDEO, "thumbnail_loc": "https://example.org/media/thumb.jpg"}


def test_a_bad_video_is_a_warning_naming_it_and_fails_with_w(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    bad = {key: value for key, value in VIDEO.items() if key != "thumbnail_loc"}
    pages = {"guide.rst": page("Guide", fields=field({"video": [bad]}))}
    srcdir = project(git_repo, "", pages)
    result = sphinx_build(srcdir, tmp_path / "out")
    assert "guide.rst: sitemap.video #1: no thumbnail_loc" in output(result)
    entries = read_entries(tmp_path / "out")
    assert entries[BASE_URL + "guide/"].videos == ()  # the page stays, without the video
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", check=False)
    assert strict.returncode != 0
    assert "no thumbnail_loc" in output(strict)
    # Its own warning subtype: silenced, -W passes.
    suppressed = ("-W", "-D", "suppress_warnings=sitemap.video")
    sphinx_build(srcdir, tmp_path / "suppressed", *suppressed)
