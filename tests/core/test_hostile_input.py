"""No input can break the XML: hostile strings in every field still give valid, readable files."""

from __future__ import annotations

import datetime as dt
import posixpath
import tempfile
from pathlib import Path
from urllib.parse import unquote, urlsplit

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sitemap_plugins.core import Article, CollectingReporter, Options, Page, SitemapBuilder
from sitemap_plugins.core.urls import MAX_URL_LENGTH
from tests.support.sitemap_checks import check_sitemap_file

BASE = "https://example.org/docs/"
NASTY = st.sampled_from(
    [
        *("&", "<", ">", '"', "'", "]]>", "<!--", "%", "%zz", "%41", "?", "#", "..", "./"),
        *(" ", "\n", "\x00", "\x1f", "\ufffe", "\u202e", "\ud800", "\udce9", "é", "日本"),
    ]
)
HOSTILE = st.lists(st.one_of(NASTY, st.text(max_size=8)), max_size=12).map("".join)
VALUES = st.one_of(HOSTILE, st.integers(), st.floats(allow_nan=True), st.booleans(), st.none())
PATHS = st.one_of(HOSTILE, st.builds(lambda s: s * 300, st.sampled_from(["ab/", "é", "&"])))


@st.composite
def pages(draw: st.DrawFn) -> Page:
    path = draw(PATHS)
    meta = draw(
        st.one_of(
            st.none(),
            st.booleans(),
            HOSTILE,
            st.dictionaries(
                st.sampled_from(["priority", "changefreq", "lastmod", "exclude", "x"]), VALUES
            ),
        )
    )
    return Page(
        path=path,
        origin=draw(HOSTILE),
        sitemap=meta,
        updated=draw(VALUES),
        translations=draw(st.dictionaries(HOSTILE, PATHS, max_size=3)),
        default_locale=draw(st.one_of(st.none(), HOSTILE)),
        listed_dates=tuple(draw(st.lists(VALUES, max_size=2))),
        html=draw(st.one_of(st.none(), HOSTILE)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(pages(), min_size=1, max_size=6))
def test_hostile_pages_give_valid_round_tripping_sitemaps(drawn: list[Page]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        reporter = CollectingReporter()
        builder = SitemapBuilder(
            Options.from_mapping({"base_url": BASE, "lastmod_sources": ["metadata"]}), reporter
        )
        summary = builder.build(drawn, out)
        if summary.top is None:
            # Every page was refused: each one is counted under its reason, and no file is
            # written (an empty urlset would not be valid).
            assert summary.urls == 0
            assert sum(summary.left_out.values()) == len(drawn), summary.left_out
            assert sorted(path.name for path in out.glob("sitemap*")) == []
        else:
            entries = check_sitemap_file(out / summary.top, BASE + summary.top)
            assert len(entries) == summary.urls
            asked = {_decoded(p.path) for p in drawn}
            for entry in entries:
                assert len(entry.loc) <= MAX_URL_LENGTH
                # Every loc names a path some page asked for, encoded once.
                assert _decoded(urlsplit(entry.loc).path[len("/docs/") :]) in asked


def _decoded(path: str) -> str:
    """A path as a comparable value: decoded, dot segments resolved, no edge slashes."""
    decoded = unquote(path, errors="surrogateescape")
    return posixpath.normpath("/" + decoded).strip("/")


NOW = dt.datetime(2024, 6, 10, 12, tzinfo=dt.timezone.utc)
URLISH = st.one_of(HOSTILE, st.sampled_from(["a.png", "/v.mp4", "https://cdn.example.net/x"]))
VIDEO_VALUES = st.one_of(
    VALUES,
    URLISH,
    st.lists(HOSTILE, max_size=3),
    st.dictionaries(
        st.sampled_from(["allow", "deny", "name", "info"]),
        st.one_of(HOSTILE, st.lists(st.sampled_from(["IE", "web", "", "<"]), max_size=2)),
        max_size=2,
    ),
)
VIDEO_REQUIRED = ("thumbnail_loc", "title", "description", "content_loc", "player_loc")
VIDEO_OPTIONAL = ("duration", "rating", "view_count", "publication_date", "tag", "restriction",
                  "platform", "uploader", "live", "category")  # fmt: skip


@st.composite
def media_pages(draw: st.DrawFn) -> Page:
    """Pages with hostile images, videos and articles, at plain paths (paths are above)."""
    videos = draw(
        st.lists(
            st.fixed_dictionaries(
                dict.fromkeys(VIDEO_REQUIRED, URLISH),
                optional=dict.fromkeys(VIDEO_OPTIONAL, VIDEO_VALUES),
            ),
            max_size=2,
        )
    )
    sources = draw(st.lists(URLISH, max_size=4))
    images = "".join(f"<img src='{source}'><img src=\"{source}\">" for source in sources)
    published = draw(st.one_of(VALUES, st.just(NOW), st.just(NOW - dt.timedelta(hours=3)).map(str)))
    return Page(
        path=f"p{draw(st.integers(0, 99))}/",
        origin=draw(HOSTILE),
        sitemap=draw(st.sampled_from([{"video": videos}, {"video": videos[:1]}])),
        html=f"<html><head></head><body><main>{images}{draw(HOSTILE)}</main></body></html>",
        article=Article(published, draw(HOSTILE), draw(st.one_of(st.none(), HOSTILE))),
    )


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(media_pages(), min_size=1, max_size=5))
def test_hostile_images_videos_and_articles_give_valid_files(drawn: list[Page]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        options = {
            "base_url": BASE,
            "lastmod_sources": [],
            "images": True,
            "news": {"name": '<The & "Times">', "language": "en"},
        }
        builder = SitemapBuilder(
            Options.from_mapping(options), CollectingReporter(), clock=lambda: NOW
        )
        summary = builder.build(drawn, out)
        assert summary.top is not None
        entries = check_sitemap_file(out / summary.top, BASE + summary.top)
        assert len(entries) == summary.urls
        if summary.news:
            news = check_sitemap_file(out / "sitemap-news.xml", BASE + "sitemap-news.xml")
            assert len(news) == summary.news
            assert {entry.news["name"] for entry in news if entry.news} == {'<The & "Times">'}
        else:
            assert not (out / "sitemap-news.xml").exists()
