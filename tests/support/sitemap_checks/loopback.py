"""Layer 3b: an independent parser, ultimate-sitemap-parser (usp), over HTTP on loopback.

This is how a crawler sees the site (:func:`parse_with_usp`).

How the independent parser is driven (usp 1.x)
----------------------------------------------
usp's public entry point ``usp.tree.sitemap_tree_for_homepage`` always strips the URL to the
domain root and probes ``/robots.txt`` plus about fifteen "known" paths: useless for a site served
under ``/docs/`` and noisy. ``usp.tree.sitemap_from_str`` parses one string and deliberately turns
every child of an index into an ``InvalidSitemap``. So we use the class both of them are built on,
``usp.fetch_parse.SitemapFetcher(url=..., recursion_level=0, web_client=...)``: it fetches exactly
one URL and follows a ``<sitemapindex>`` to its children through the same web client.

The web client is ours (:class:`usp.web_client.abstract_client.AbstractWebClient` wrapping usp's
own ``RequestsWebClient``), for two reasons:

* **No network, ever.** The requests session has ``trust_env = False`` (no proxy variables, no
  ``.netrc``), and every URL that is neither on the loopback server nor under the site's declared
  base URL is refused without a request and reported as a test failure.
* **Real URLs in the sitemap.** A site is built with its real base URL (``https://example.org/
  docs/``), so an index names its children at ``https://example.org/docs/sitemap-1.xml``. The client
  routes requests for URLs under ``base_url`` to the loopback server serving the built folder under
  the same path (like ``curl --resolve``): no byte of any file is rewritten and usp reports the real
  URLs. Alternatively, :func:`serve_rebased` serves the folder first and hands out the loopback base
  URL, so a test can build the site *with* that base URL and pass the running server as ``site=``.

usp is lenient: it logs and carries on where a strict reader would fail (a truncated document, a
priority out of range, an unknown changefreq), so :func:`parse_with_usp` captures usp's log records
of level WARNING and above and fails on them by default, and fails on any sitemap usp could not
fetch or parse.
"""

from __future__ import annotations

import datetime as dt
import http.server
import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import requests
from usp.fetch_parse import SitemapFetcher
from usp.objects.sitemap import AbstractIndexSitemap, AbstractSitemap, InvalidSitemap
from usp.web_client.abstract_client import (
    AbstractWebClient,
    AbstractWebClientResponse,
    AbstractWebClientSuccessResponse,
)
from usp.web_client.requests_client import RequestsWebClient, RequestsWebClientErrorResponse

from tests.support.sitemap_checks.model import MAX_REPORTED

__all__ = ["LoopbackSite", "PageInfo", "parse_with_usp", "serve_rebased"]


@dataclass(frozen=True)
class PageInfo:
    """One page as ultimate-sitemap-parser reports it (its types, its defaults).

    ``lastmod`` is usp's ``datetime``: on Python 3.11+ ``datetime.fromisoformat`` (dateutil before),
    so a date-only value becomes a *naive* midnight, and a timestamp keeps its own offset (``Z``
    becomes UTC). ``priority`` is a ``Decimal`` and is ``Decimal("0.5")`` when the element is absent
    (usp cannot tell "absent" from "0.5"). ``changefreq`` is the lower-cased enum value, or None.
    ``sitemap_url`` is the file the page was found in. ``images`` are the image locs usp read;
    ``news`` is usp's news story as (publication name, language, publication date, title).
    """

    loc: str
    lastmod: dt.datetime | None
    priority: Decimal
    changefreq: str | None
    alternates: tuple[tuple[str, str], ...]
    sitemap_url: str
    images: tuple[str, ...] = ()
    news: tuple[str | None, str | None, dt.datetime, str] | None = None


@dataclass(frozen=True)
class LoopbackSite:
    """A built site served on 127.0.0.1: ``base_url`` is where ``root`` is served."""

    root: Path
    origin: str
    base_url: str

    def url(self, relpath: str) -> str:
        """The loopback URL of a file given relative to the site root."""
        return self.base_url + relpath.lstrip("/")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files under a path prefix only; keeps the test output clean."""

    prefix = "/"

    def _strip_prefix(self) -> bool:
        if not urlsplit(self.path).path.startswith(self.prefix):
            self.send_error(404, "outside the served prefix")
            return False
        self.path = "/" + self.path[len(self.prefix) :]
        return True

    def do_GET(self) -> None:
        if self._strip_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._strip_prefix():
            super().do_HEAD()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_rebased(site_dir: Path, base_url: str = "/") -> Iterator[LoopbackSite]:
    """Serve ``site_dir`` on 127.0.0.1 (free port) under the path of ``base_url``; always stops.

    ``base_url`` may be the site's real base URL (``https://example.org/docs/``) or just a path
    (``/docs/``): only its path is kept, so the loopback site has the same shape as the real one and
    a sitemap built for it keeps its scope. Build the site with ``site.base_url`` to get a sitemap
    whose every URL (index children included) points at this server.
    """
    prefix = urlsplit(base_url).path or "/"
    if not prefix.endswith("/"):
        prefix += "/"
    handler = type("Handler", (_QuietHandler,), {"prefix": prefix})
    directory = str(Path(site_dir).resolve())

    def make_handler(*args: Any, **kwargs: Any) -> http.server.SimpleHTTPRequestHandler:
        return handler(*args, directory=directory, **kwargs)  # type: ignore[no-any-return]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler)
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": 0.02},  # shutdown() waits for one poll: keep it short
        name="sitemap-loopback",
        daemon=True,
    )
    thread.start()
    try:
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        yield LoopbackSite(root=Path(directory), origin=origin, base_url=origin + prefix)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _RenamedResponse(AbstractWebClientSuccessResponse):
    """A loopback response that reports the URL usp asked for, so usp keeps the real URLs."""

    def __init__(self, inner: AbstractWebClientSuccessResponse, url: str) -> None:
        self._inner = inner
        self._url = url

    def status_code(self) -> int:
        return self._inner.status_code()

    def status_message(self) -> str:
        return self._inner.status_message()

    def header(self, case_insensitive_name: str) -> str | None:
        return self._inner.header(case_insensitive_name)

    def raw_data(self) -> bytes:
        return self._inner.raw_data()

    def url(self) -> str:
        return self._url


class _LoopbackClient(AbstractWebClient):
    """usp's requests client, confined to the loopback server; routes ``base_url`` there."""

    def __init__(self, site: LoopbackSite, route_from: str | None) -> None:
        self._session = requests.Session()
        self._session.trust_env = False  # no proxies from the environment, no .netrc
        self._inner = RequestsWebClient(session=self._session)
        self._inner.set_timeout((5, 30))
        self._site = site
        self._route_from = route_from
        self.refused: list[str] = []

    def set_max_response_data_length(self, max_response_data_length: int | None) -> None:
        if max_response_data_length is not None:
            self._inner.set_max_response_data_length(max_response_data_length)

    def _target(self, url: str) -> str | None:
        if url.startswith(self._site.origin + "/"):
            return url
        if self._route_from is not None and url.startswith(self._route_from):
            return self._site.base_url + url[len(self._route_from) :]
        return None

    def get(self, url: str) -> AbstractWebClientResponse:
        target = self._target(url)
        if target is None:
            self.refused.append(url)
            return RequestsWebClientErrorResponse(
                message=f"refused: {url} is neither on the loopback server nor under the base URL",
                retryable=False,
            )
        response = self._inner.get(target)
        if target != url and isinstance(response, AbstractWebClientSuccessResponse):
            return _RenamedResponse(response, url)
        return response

    def close(self) -> None:
        self._session.close()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


def parse_with_usp(
    site_dir: Path,
    sitemap_relpath: str,
    *,
    base_url: str | None = None,
    site: LoopbackSite | None = None,
    strict: bool = True,
) -> dict[str, PageInfo]:
    """Fetch a sitemap over loopback HTTP with ultimate-sitemap-parser and return every page.

    ``sitemap_relpath`` is the file's path relative to ``site_dir``. ``base_url`` is the site's
    base URL the sitemap was built with: requests under it are routed to the loopback server, and
    the page URLs come back unchanged. Without ``base_url`` the locs of an index's children must
    already be loopback URLs (build with ``serve_rebased(...).base_url`` and pass that server as
    ``site``); a plain urlset's locs can be anything, as nothing is fetched from them.

    Fails (AssertionError) when usp cannot fetch or parse a sitemap in the tree, when it would
    have left the loopback server, when a loc appears twice across the tree, and, with ``strict``,
    when usp logged a warning or an error (it recovers silently from truncated XML and bad values).
    """
    route_from = base_url if base_url and urlsplit(base_url).netloc else None
    if route_from is not None and not route_from.endswith("/"):
        route_from += "/"
    with _served(site_dir, base_url or "/", site) as served:
        client = _LoopbackClient(served, route_from)
        top = (route_from or served.base_url) + sitemap_relpath.lstrip("/")
        collector = _Collect()
        usp_log = logging.getLogger("usp")
        usp_log.addHandler(collector)
        try:
            tree = SitemapFetcher(url=top, recursion_level=0, web_client=client).sitemap()
            return _pages(tree, client, collector, strict)
        finally:
            usp_log.removeHandler(collector)
            client.close()


@contextmanager
def _served(site_dir: Path, base_url: str, site: LoopbackSite | None) -> Iterator[LoopbackSite]:
    if site is not None:
        yield site
        return
    with serve_rebased(site_dir, base_url) as started:
        yield started


def _pages(
    tree: AbstractSitemap, client: _LoopbackClient, collector: _Collect, strict: bool
) -> dict[str, PageInfo]:
    failures: list[str] = []
    if client.refused:
        failures.append(f"usp tried to leave the loopback server: {client.refused}")
    sitemaps = [tree, *tree.all_sitemaps()]
    failures += [
        f"usp could not read {sm.url}: {sm.reason}"
        for sm in sitemaps
        if isinstance(sm, InvalidSitemap)
    ]
    pages: dict[str, PageInfo] = {}
    for sm in sitemaps:
        if isinstance(sm, (InvalidSitemap, AbstractIndexSitemap)):
            continue
        for page in sm.pages:
            if page.url in pages:
                failures.append(
                    f"usp found {page.url} twice ({pages[page.url].sitemap_url}, {sm.url})"
                )
            story = page.news_story
            pages[page.url] = PageInfo(
                loc=page.url,
                lastmod=page.last_modified,
                priority=page.priority,
                changefreq=page.change_frequency.value if page.change_frequency else None,
                alternates=tuple(page.alternates or ()),
                sitemap_url=sm.url,
                images=tuple(image.loc for image in page.images or ()),
                news=None
                if story is None
                else (
                    story.publication_name,
                    story.publication_language,
                    story.publish_date,
                    story.title,
                ),
            )
    if strict and collector.messages:
        failures += [f"usp logged: {message}" for message in collector.messages]
    if failures:
        raise AssertionError("ultimate-sitemap-parser:\n  " + "\n  ".join(failures[:MAX_REPORTED]))
    return pages
