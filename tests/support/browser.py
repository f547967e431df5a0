"""A real headless Chromium, driven as a command: a screenshot of a page and its rendered DOM.

The page for humans is checked the way a visitor sees it: the browser loads it from a loopback
server (with the theme's styles and scripts), and the test counts the links in the DOM the
browser built and looks at the picture it painted. No Python dependency: Chromium's own
``--screenshot`` and ``--dump-dom`` switches, each run with a new empty profile.

Where no Chromium is found (the ``CHROMIUM`` environment variable, then ``chromium``,
``chromium-browser``, ``google-chrome`` on ``PATH``), :func:`chromium_or_skip` skips the test
saying what to install: it never passes without a browser.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin

import pytest

__all__ = ["Anchor", "Png", "anchors_in", "chromium_or_skip", "dump_dom", "read_png", "screenshot"]

_NAMES = ("chromium", "chromium-browser", "google-chrome")
_TIMEOUT = 120
_SWITCHES = (
    "--headless",
    "--no-sandbox",  # root in a container has no user namespaces for the sandbox
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
)


def find_chromium() -> str | None:
    """The browser to use: ``$CHROMIUM``, else the first of the usual names on ``PATH``."""
    named = os.environ.get("CHROMIUM")
    if named:
        return shutil.which(named) or (named if Path(named).is_file() else None)
    return next((found for name in _NAMES if (found := shutil.which(name))), None)


def chromium_or_skip() -> str:
    """The browser, or skip the calling test with what to install."""
    found = find_chromium()
    if found is None:
        pytest.skip(
            "no Chromium: install Debian's chromium (apt-get install chromium) or set CHROMIUM "
            "to a Chromium or Chrome executable for the browser check"
        )
    return found


def _run(browser: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    with tempfile.TemporaryDirectory(prefix="chromium-profile-") as profile:
        result = subprocess.run(
            [browser, *_SWITCHES, f"--user-data-dir={profile}", *args],
            capture_output=True,
            timeout=_TIMEOUT,
            check=False,
            env={**os.environ, "HOME": profile},  # no dot-folders in the real home
        )
    if result.returncode != 0:
        raise AssertionError(
            f"chromium {' '.join(args)} failed ({result.returncode}): "
            + result.stderr.decode(errors="replace")[-2000:]
        )
    return result


def dump_dom(browser: str, url: str) -> str:
    """The DOM Chromium built for ``url`` once loaded (scripts run), serialised as HTML."""
    return _run(browser, "--dump-dom", url).stdout.decode("utf-8")


def screenshot(browser: str, url: str, target: Path, *, size: str = "1200,2000") -> Path:
    """A PNG of ``url`` as Chromium paints it in a window of ``size`` (width,height)."""
    _run(browser, f"--screenshot={target}", f"--window-size={size}", url)
    if not target.is_file():
        raise AssertionError(f"chromium wrote no screenshot to {target}")
    return target


@dataclass(frozen=True)
class Png:
    """What the checks need of a PNG: its size and how many colours its first rows hold."""

    width: int
    height: int
    colours: int


def read_png(path: Path, *, rows: int = 400) -> Png:
    """Decode a PNG's header, and its first ``rows`` rows (8-bit RGB or RGBA) for colours.

    Only the filter types are undone that decide the colours; that is all of PNG's five.
    """
    data = path.read_bytes()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise AssertionError(f"{path} is not a PNG")
    width, height, depth, colour_type = struct.unpack(">IIBB", data[16:26])
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at : at + 4])
        kind = data[at + 4 : at + 8]
        if kind == b"IDAT":
            chunks.append(data[at + 8 : at + 8 + length])
        at += 12 + length
    channels = {2: 3, 6: 4}.get(colour_type)
    if depth != 8 or channels is None:
        return Png(width, height, colours=-1)  # a layout Chromium does not write; not counted
    raw = zlib.decompressobj().decompress(b"".join(chunks), (width * channels + 1) * rows)
    stride = width * channels
    previous = bytearray(stride)
    colours: set[bytes] = set()
    for row in range(min(rows, height, len(raw) // (stride + 1))):
        start = row * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        _unfilter(kind, line, previous, channels)
        colours.update(bytes(line[i : i + channels]) for i in range(0, stride, channels * 7))
        previous = line
    return Png(width, height, len(colours))


def _unfilter(kind: int, line: bytearray, previous: bytearray, bpp: int) -> None:
    for i in range(len(line)):
        left = line[i - bpp] if i >= bpp else 0
        up = previous[i]
        corner = previous[i - bpp] if i >= bpp else 0
        if kind == 1:
            line[i] = (line[i] + left) & 0xFF
        elif kind == 2:
            line[i] = (line[i] + up) & 0xFF
        elif kind == 3:
            line[i] = (line[i] + (left + up) // 2) & 0xFF
        elif kind == 4:
            p = left + up - corner
            pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
            predictor = left if pa <= pb and pa <= pc else up if pb <= pc else corner
            line[i] = (line[i] + predictor) & 0xFF


@dataclass(frozen=True)
class Anchor:
    """A link of the rendered DOM: its absolute URL (read against the page) and its text."""

    url: str
    text: str


class _Anchors(HTMLParser):
    """The links inside the element with ``id=container`` (or the whole page without one)."""

    def __init__(self, base: str, container: str | None) -> None:
        super().__init__(convert_charrefs=True)
        self.base = base
        self.container = container
        self.depth = 0 if container else 1  # >0: inside the container
        self.found: list[Anchor] = []
        self._href: str | None = None
        self._text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.container and self.depth == 0 and values.get("id") == self.container:
            self.depth = 1
            return
        if self.container and self.depth and tag not in _VOID:
            self.depth += 1
        if tag == "a" and self.depth and values.get("href") is not None:
            self._href, self._text = values["href"], []

    def handle_endtag(self, tag: str) -> None:
        if tag == "a" and self._href is not None:
            self.found.append(Anchor(urljoin(self.base, self._href), "".join(self._text).strip()))
            self._href = None
        if self.container and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self._href is not None:
            self._text.append(data)


_VOID = frozenset(
    {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "wbr"}
)


def anchors_in(dom: str, base: str, container: str | None = None) -> list[Anchor]:
    """Every ``<a href>`` in ``dom`` (inside the element whose id is ``container``)."""
    parser = _Anchors(base, container)
    parser.feed(dom)
    parser.close()
    return parser.found


@dataclass(frozen=True)
class BrowserView:
    """The page for humans as Chromium showed it: the rendered DOM and the screenshot."""

    dom: str
    png: Png
    links: list[Anchor]


def check_in_browser(
    site_dir: Path,
    relpath: str,
    *,
    base_url: str,
    sitemap_relpath: str,
    titles: dict[str, str],
    shot: Path,
) -> BrowserView:
    """Load ``relpath`` of the built site in Chromium over loopback, and check what it shows.

    The sitemap is read back by the independent parser over the same server, and the listing's
    links in the rendered DOM (those inside ``#sitemap-pages``), read against the page's URL and
    moved back onto ``base_url``, must be exactly its URLs, each once, each showing the title
    ``titles`` gives for it. The screenshot must be a real picture: the window's size, and more
    than one colour.
    """
    from tests.support.sitemap_checks import parse_with_usp, serve_rebased

    browser = chromium_or_skip()
    with serve_rebased(site_dir, base_url) as site:
        listed = parse_with_usp(site_dir, sitemap_relpath, base_url=base_url, site=site)
        url = site.url(relpath)
        dom = dump_dom(browser, url)
        png = read_png(screenshot(browser, url, shot))
        links = anchors_in(dom, url, container="sitemap-pages")
        moved = [
            base_url + link.url[len(site.base_url) :]
            if link.url.startswith(site.base_url)
            else link.url
            for link in links
        ]
    assert (png.width, png.height) == (1200, 2000), png
    assert png.colours > 1, f"{shot}: a blank screenshot"
    assert len(links) == len(listed), (len(links), sorted(listed), moved)
    assert sorted(moved) == sorted(listed)
    assert set(titles) == set(listed), "the test's titles do not cover the sitemap"
    shown = {loc: link.text for loc, link in zip(moved, links, strict=True)}
    assert shown == titles
    return BrowserView(dom, png, links)


@dataclass(frozen=True)
class Item:
    """One page of the listing as a reader gets it: link, title, and the date's ``datetime``."""

    url: str
    title: str
    datetime: str | None


class _Sections(HTMLParser):
    """The listing's sections: each ``<h2>`` and the items of the list under it."""

    def __init__(self, base: str) -> None:
        super().__init__(convert_charrefs=True)
        self.base = base
        self.sections: list[tuple[str, list[Item]]] = []
        self.depth = 0
        self._in: str | None = None
        self._text: list[str] = []
        self._href: str | None = None
        self._title = ""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if self.depth == 0:
            if values.get("id") == "sitemap-pages":
                self.depth = 1
            return
        if tag not in _VOID:
            self.depth += 1
        if tag in ("h2", "a"):
            self._in, self._text = tag, []
            if tag == "a":
                self._href = values.get("href")
        elif tag == "time" and self.sections and self.sections[-1][1]:
            last = self.sections[-1][1][-1]
            self.sections[-1][1][-1] = Item(last.url, last.title, values.get("datetime"))

    def handle_endtag(self, tag: str) -> None:
        if self.depth == 0:
            return
        self.depth -= 1
        if tag == "h2" and self._in == "h2":
            self.sections.append(("".join(self._text).strip(), []))
        elif tag == "a" and self._in == "a" and self._href is not None and self.sections:
            url = urljoin(self.base, self._href)
            self.sections[-1][1].append(Item(url, "".join(self._text).strip(), None))
        if tag == self._in:
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self._text.append(data)


def sections_in(page: str, base: str) -> list[tuple[str, list[Item]]]:
    """The listing of a page for humans (``#sitemap-pages``), links read against ``base``."""
    parser = _Sections(base)
    parser.feed(page)
    parser.close()
    return parser.sections


def stylesheets(page: str, base: str) -> set[str]:
    """The stylesheets a page links, as absolute URLs: what frames it in the site's theme."""
    found: set[str] = set()

    class _Links(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            values = dict(attrs)
            rel = (values.get("rel") or "").lower().split()
            if tag == "link" and "stylesheet" in rel and values.get("href"):
                found.add(urljoin(base, str(values["href"])))

    parser = _Links()
    parser.feed(page)
    parser.close()
    return found
