"""Videos declared in a page's metadata: checked like every field, written in XSD order."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest

from sitemap_plugins.core import (
    Code,
    CollectingReporter,
    Options,
    Page,
    SitemapBuilder,
    StrictError,
)
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp

BASE = "https://example.org/docs/"
GOOD: dict[str, Any] = {
    "thumbnail_loc": "../media/intro.jpg",
    "title": "Five minutes with <the> plugin & friends",
    "description": 'It says "hello" and it\'s short.',
    "content_loc": "https://cdn.example.net/intro.mp4",
}


def build(
    out: Path, sitemap: object, *, strict: bool = False, path: str = "guide/"
) -> tuple[CollectingReporter, dict[str, Any]]:
    reporter = CollectingReporter()
    options = Options.from_mapping({"base_url": BASE, "strict": strict})
    pages = [
        Page(path=path, origin="docs/guide.md", sitemap=sitemap),
        Page(path="other/", origin="docs/other.md"),
    ]
    SitemapBuilder(options, reporter).build(pages, out)
    entries = {e.loc: e for e in check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml")}
    return reporter, entries


def test_a_video_is_written_with_every_field_checked_valid_and_escaped(tmp_path: Path) -> None:
    video = {
        **GOOD,
        "player_loc": "player?v=intro&autoplay=0",
        "duration": 300,
        "expiration_date": "2030-01-01",
        "rating": 4.5,
        "view_count": 12_345,
        "publication_date": dt.datetime(2024, 5, 1, 10, tzinfo=dt.timezone.utc),
        "tag": ["sitemap", "how-to"],
        "family_friendly": True,
        "restriction": {"allow": ["IE", "GB"]},
        "requires_subscription": False,
        "uploader": {"name": "Ada & co", "info": "/about/"},
        "platform": {"deny": "tv"},
        "live": False,
    }
    reporter, entries = build(tmp_path, {"video": [video]})
    assert reporter.warnings == []
    [written] = entries[BASE + "guide/"].videos
    assert written == {
        "thumbnail_loc": BASE + "media/intro.jpg",
        "title": GOOD["title"],
        "description": GOOD["description"],
        "content_loc": GOOD["content_loc"],
        "player_loc": BASE + "guide/player?v=intro&autoplay=0",
        "duration": "300",
        "expiration_date": "2030-01-01",
        "rating": "4.5",
        "view_count": "12345",
        "publication_date": "2024-05-01T10:00:00Z",
        "tag": "sitemap|how-to",
        "family_friendly": "yes",
        "restriction": "IE GB",
        "restriction@relationship": "allow",
        "requires_subscription": "no",
        "uploader": "Ada & co",
        "uploader@info": "https://example.org/about/",
        "platform": "tv",
        "platform@relationship": "deny",
        "live": "no",
    }
    assert entries[BASE + "other/"].videos == ()
    text = (tmp_path / "sitemap.xml").read_text("utf-8")
    assert 'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1"' in text
    assert "xmlns:image" not in text
    assert set(parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE)) == set(entries)


def test_json_text_metadata_and_a_single_mapping_are_read_too(tmp_path: Path) -> None:
    reporter, entries = build(tmp_path, json.dumps({"video": GOOD}))
    assert reporter.warnings == []
    assert [v["title"] for v in entries[BASE + "guide/"].videos] == [GOOD["title"]]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"thumbnail_loc": None}, "sitemap.video #2: no thumbnail_loc (required: "),
        ({"title": None}, "sitemap.video #2: no title (required: "),
        ({"description": None}, "sitemap.video #2: no description (required: "),
        ({"content_loc": None}, "sitemap.video #2: neither content_loc nor player_loc"),
        ({"title": "x" * 101}, "sitemap.video #2: title 'xxxxx"),
        ({"title": 42}, "sitemap.video #2: title 42 is not allowed (allowed: text of 1 to 100"),
        ({"description": "   "}, "description '   ' is not allowed (allowed: text of 1 to 2,048"),
        ({"thumbnail_loc": "javascript:alert(1)"}, "thumbnail_loc 'javascript:alert(1)' is not"),
        ({"content_loc": "data:video/mp4;base64,AA"}, "content_loc 'data:video/mp4;base64,AA'"),
        ({"content_loc": "./"}, "content_loc is the page's own URL"),
    ],
)
def test_a_missing_or_bad_required_field_leaves_that_video_out_and_names_it(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    bad = {key: value for key, value in {**GOOD, **change}.items() if value is not None}
    reporter, entries = build(tmp_path, {"video": [GOOD, bad]})
    [(code, warning)] = reporter.warnings
    assert code is Code.BAD_VIDEO
    assert warning.startswith("docs/guide.md: ")
    assert message in warning
    assert warning.endswith("that video is left out")
    assert [v["title"] for v in entries[BASE + "guide/"].videos] == [GOOD["title"]]
    assert set(entries) == {BASE + "guide/", BASE + "other/"}  # the page stays


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"duration": 0}, "duration 0 is not allowed (allowed: a whole number from 1 to 28,800)"),
        ({"duration": "300"}, "duration '300' is not allowed"),
        ({"rating": 5.5}, "rating 5.5 is not allowed (allowed: a number from 0.0 to 5.0)"),
        ({"view_count": -1}, "view_count -1 is not allowed"),
        ({"expiration_date": "soon"}, "expiration_date 'soon' is not allowed"),
        ({"tag": ["a"] * 33}, "is not allowed (allowed: a word or a list of at most 32 words)"),
        ({"family_friendly": "yes"}, "family_friendly 'yes' is not allowed (allowed: true or"),
        ({"restriction": {"allow": ["ie"]}}, "restriction {'allow': ['ie']} is not allowed"),
        ({"platform": {"allow": ["phone"]}}, "platform {'allow': ['phone']} is not allowed"),
        ({"uploader": {"name": "A", "info": "ftp://x"}}, "uploader 'ftp://x' is not allowed"),
    ],
)
def test_a_bad_optional_field_is_dropped_and_the_video_kept(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    reporter, entries = build(tmp_path, {"video": [{**GOOD, **change}]})
    [(code, warning)] = reporter.warnings
    assert code is Code.BAD_VIDEO
    assert warning.startswith("docs/guide.md: sitemap.video #1: ")
    assert message in warning
    assert warning.endswith("; ignored")
    [video] = entries[BASE + "guide/"].videos
    assert set(change) & set(video) == set()


def test_tags_google_no_longer_reads_are_named_and_not_written(tmp_path: Path) -> None:
    reporter, entries = build(tmp_path, {"video": [{**GOOD, "category": "Cooking"}]})
    assert reporter.warnings == [
        (
            Code.BAD_VIDEO,
            "docs/guide.md: sitemap.video #1: unknown key 'category' "
            "(Google stopped reading it in 2022); ignored",
        )
    ]
    [video] = entries[BASE + "guide/"].videos
    assert "category" not in video


def test_video_that_is_not_a_list_is_a_warning(tmp_path: Path) -> None:
    reporter, entries = build(tmp_path, {"video": "intro.mp4"})
    assert reporter.codes() == [Code.BAD_VIDEO]
    assert (
        "sitemap.video 'intro.mp4' is not allowed (allowed: a list of mappings"
        in (reporter.warnings[0][1])
    )
    assert entries[BASE + "guide/"].videos == ()


def test_strict_mode_fails_on_a_bad_video_and_writes_nothing(tmp_path: Path) -> None:
    reporter = CollectingReporter()
    options = Options.from_mapping({"base_url": BASE, "strict": True})
    page = Page(path="guide/", origin="docs/guide.md", sitemap={"video": [{"title": "t"}]})
    with pytest.raises(StrictError, match=r"^1 warning in strict mode; no sitemap written$"):
        SitemapBuilder(options, reporter).build([page], tmp_path)
    assert reporter.codes() == [Code.BAD_VIDEO]
    assert not (tmp_path / "sitemap.xml").exists()
