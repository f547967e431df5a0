"""Every build imports the package; the features most builds leave off are imported only by the
builds that use them. On a small site the import is most of what the sitemap costs: about 4 ms
of its 24 ms went to the first five modules below, in every build, and about 3 ms of 22 to the
rest (dates written as text, translations, an IndexNow key, a title read from a page, a build
streamed through a spill)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import sitemap_plugins

OPTIONAL = {
    "sitemap_plugins.core.human_page": "html_page",
    "sitemap_plugins.core.images": "images",
    "sitemap_plugins.core.news": "news",
    "sitemap_plugins.core.video": "a page's video",
    "sitemap_plugins.core.robots": "robots_txt",
    "sitemap_plugins.core.date_syntax": "a date written as text",
    "sitemap_plugins.core.language_tags": "a page's translations",
    "sitemap_plugins.core.indexnow": "indexnow_key",
    "sitemap_plugins.core.html_text": "a title read from the page (html_page)",
    "sitemap_plugins.core.spill": "build_stream",
}

BUILD = """
import json, sys
from pathlib import Path
from sitemap_plugins.core import CollectingReporter, Options, Page, SitemapBuilder
from sitemap_plugins.core.model import Article
site = Path(sys.argv[1])
options = json.loads(sys.argv[2])
page = site / "a.html"
page.write_text("<html><head><title>A</title></head><body><main><img src='a.png'></main>")
video = json.loads(sys.argv[3])
more = json.loads(sys.argv[4])  # more of the page: its date as text, its translations
sitemap = {"video": [video]} if video else None
article = Article("2024-05-01T00:00:00+00:00", "A") if options.get("news") else None
pages = [Page(path="a.html", origin="a.md", html=page, sitemap=sitemap, article=article, **more)]
stream = options.pop("stream", False)
options = Options.from_mapping({"base_url": "https://example.org/", **options})
builder = SitemapBuilder(options, CollectingReporter())
if stream:
    builder.build_stream(pages, site, dates=builder.file_dates.lookup([]))
else:
    builder.build(pages, site)
print(json.dumps(sorted(name for name in sys.modules if name.startswith("sitemap_plugins"))))
"""


def imported(
    tmp_path: Path,
    options: dict[str, object],
    video: object = None,
    page: dict[str, object] | None = None,
) -> set[str]:
    """The package's modules a fresh process holds after one build with ``options`` (and
    ``stream``: through ``build_stream``) of a page with more fields ``page``."""
    site = tmp_path / "site"
    site.mkdir()
    env = {**os.environ, "PYTHONPATH": str(Path(sitemap_plugins.__file__).parent.parent)}
    done = subprocess.run(
        [sys.executable, "-c", BUILD, str(site), json.dumps(options), json.dumps(video),
         json.dumps(page or {})],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert (site / "sitemap.xml").is_file()
    return set(json.loads(done.stdout))


def test_a_build_with_its_defaults_imports_no_optional_feature(tmp_path: Path) -> None:
    assert imported(tmp_path, {}).isdisjoint(OPTIONAL)


def test_a_build_that_uses_them_imports_them(tmp_path: Path) -> None:
    options = {
        "html_page": True,
        "images": True,
        "news": {"name": "Example News", "language": "en"},
        "robots_txt": True,
        "indexnow_key": "a1b2c3d4e5f6a7b8",
        "stream": True,
    }
    page = {"updated": "2024-05-01", "translations": {"en": "a.html", "fr": "fr/a.html"}}
    video = {
        "thumbnail_loc": "https://example.org/t.jpg",
        "title": "A",
        "description": "A video",
        "content_loc": "https://example.org/a.mp4",
    }
    assert set(OPTIONAL) <= imported(tmp_path, options, video, page)


STANDARD_LIBRARY = """
import json, sys
import sitemap_plugins.core
print(json.dumps(sorted(name for name in sys.modules if not name.startswith("sitemap_plugins"))))
"""

COUNT_COLLECTIONS = """
import gc, importlib, json, sys
for name in json.loads(sys.argv[1]):  # what a host has imported before it imports us
    importlib.import_module(name)
gc.enable()
before = [generation["collections"] for generation in gc.get_stats()]
import sitemap_plugins.core
after = [generation["collections"] for generation in gc.get_stats()]
print(json.dumps([gc.isenabled(), sum(after) - sum(before)]))
"""


def test_importing_the_core_makes_no_young_collection_but_when_the_collector_resumes() -> None:
    """The import's objects all live on: with the collector running they cost the host some
    six young collections, each moving its older generations nearer a full one (one before the
    import starts, one when the collector resumes, may still fall due)."""
    env = {**os.environ, "PYTHONPATH": str(Path(sitemap_plugins.__file__).parent.parent)}

    def run(*args: str) -> object:
        done = subprocess.run(
            [sys.executable, "-c", *args], capture_output=True, text=True, env=env, check=False
        )
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)

    standard_library = run(STANDARD_LIBRARY)
    enabled, made = run(COUNT_COLLECTIONS, json.dumps(standard_library))  # type: ignore[misc]
    assert enabled  # resumed once imported
    assert made <= 2
