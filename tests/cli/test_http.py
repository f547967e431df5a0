"""validate on http(s) URLs, against a server on 127.0.0.1 that records every request.

No test here reaches the network: every URL is on the loopback server, and the one URL on
another host (``elsewhere.invalid``) must never be fetched, which the report would show as a
read failure if it were tried.
"""

from __future__ import annotations

import datetime as dt
import gzip
import http.server
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from sitemap_plugins.core.options import MAX_BYTES_PER_FILE
from sitemap_plugins.validate import validate
from tests.cli.helpers import codes, index, line_of, only, urlset

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


@dataclass
class Reply:
    body: bytes = b""
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    hold: bool = False  # answer only once the test ends (for timeouts)


@dataclass
class Server:
    origin: str
    routes: dict[str, Reply]
    requests: Counter[str]

    def url(self, path: str) -> str:
        return self.origin + path


@pytest.fixture(autouse=True)
def _no_proxies(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback requests must not be sent to a proxy the environment names."""
    for name in ("http_proxy", "https_proxy", "all_proxy", "HTTP_PROXY", "HTTPS_PROXY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.delenv("ALL_PROXY", raising=False)


@contextmanager
def serve(routes: dict[str, Reply]) -> Iterator[Server]:
    requests: Counter[str] = Counter()
    release = threading.Event()

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            requests[self.path] += 1
            reply = routes.get(self.path, Reply(b"not found", 404))
            if reply.hold:
                release.wait(30)
            try:
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client stopped reading: what a size cap or a timeout does

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02})
    thread.start()
    try:
        yield Server(f"http://127.0.0.1:{server.server_address[1]}", routes, requests)
    finally:
        release.set()
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def xml(text: str) -> Reply:
    return Reply(text.encode(), headers={"Content-Type": "application/xml"})


def test_a_urlset_over_http_has_its_url_as_source_and_scope() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        text = urlset(server.url("/docs/a/"), server.url("/blog/b/"))
        routes["/docs/sitemap.xml"] = xml(text)
        report = validate([server.url("/docs/sitemap.xml")], now=NOW)
    finding = only(report, "E305")
    assert finding.source == server.url("/docs/sitemap.xml")
    assert finding.line == line_of(text, "/blog/b/")
    assert report.documents[0].url == server.url("/docs/sitemap.xml")


def test_gzip_in_every_way_servers_send_it() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        text = urlset(server.url("/a/"), server.url("/b/")).encode()
        packed = gzip.compress(text, mtime=0)
        routes["/encoded.xml"] = Reply(packed, headers={"Content-Encoding": "gzip"})
        routes["/file.xml.gz"] = Reply(packed, headers={"Content-Type": "application/gzip"})
        twice = gzip.compress(packed, mtime=0)
        routes["/twice.xml.gz"] = Reply(twice, headers={"Content-Encoding": "gzip"})
        targets = [server.url(p) for p in ("/encoded.xml", "/file.xml.gz", "/twice.xml.gz")]
        report = validate(targets, now=NOW)
    assert report.findings == []
    assert [d.entries for d in report.documents] == [2, 2, 2]


def test_an_index_is_followed_and_each_child_fetched_once() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        routes["/sitemap-1.xml"] = xml(urlset(server.url("/a/"), server.url("/b/")))
        routes["/sitemap-2.xml.gz"] = Reply(
            gzip.compress(urlset(server.url("/c/"), server.url("/a/")).encode(), mtime=0)
        )
        routes["/nested.xml"] = xml(index(server.url("/sitemap-1.xml")))
        text = index(
            server.url("/sitemap-1.xml"),
            server.url("/sitemap-2.xml.gz"),
            server.url("/sitemap-1.xml"),
            "http://elsewhere.invalid/sitemap.xml",
            server.url("/nested.xml"),
        )
        routes["/sitemap.xml"] = xml(text)
        other = xml(urlset(server.url("/z/")))
        routes["/other.xml"] = other

        report = validate([server.url("/sitemap.xml"), server.url("/sitemap-1.xml")], now=NOW)

    assert server.requests == Counter(
        {"/sitemap.xml": 1, "/sitemap-1.xml": 1, "/sitemap-2.xml.gz": 1, "/nested.xml": 1}
    )
    assert sorted(codes(report)) == ["E305", "E307", "E307", "E602"]
    on_index = {f.code: f.line for f in report.findings if f.source == server.url("/sitemap.xml")}
    assert on_index["E305"] == line_of(text, "elsewhere.invalid")
    assert on_index["E602"] == line_of(text, "nested.xml")
    across = [f for f in report.findings if f.source == server.url("/sitemap-2.xml.gz")]
    assert [f.code for f in across] == ["E307"]
    assert server.url("/sitemap-1.xml") in across[0].message


def test_not_found_and_server_errors() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        routes["/broken.xml"] = Reply(b"oops", 500)
        text = index(server.url("/sitemap-1.xml"))
        routes["/sitemap.xml"] = xml(text)

        missing = validate([server.url("/missing.xml")], now=NOW)
        broken = validate([server.url("/broken.xml")], now=NOW)
        child = validate([server.url("/sitemap.xml")], now=NOW)

    assert "HTTP 404" in only(missing, "R001").message
    assert missing.exit_status == 2
    assert "HTTP 500" in only(broken, "R002").message
    assert broken.exit_status == 2
    finding = only(child, "E601")
    assert (finding.source, finding.line) == (server.url("/sitemap.xml"), line_of(text, "-1"))
    assert "HTTP 404" in finding.message
    assert child.exit_status == 1


def test_a_server_that_does_not_answer_times_out() -> None:
    routes = {"/sitemap.xml": Reply(b"<urlset/>", hold=True)}
    with serve(routes) as server:
        report = validate([server.url("/sitemap.xml")], timeout=0.3, now=NOW)
    assert "timed out after 0.3 s" in only(report, "R002").message
    assert report.exit_status == 2


def test_the_size_cap_applies_to_what_the_server_sends() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        head = urlset(server.url("/a/")).split("</urlset>")[0].encode()
        huge = head + b" " * (MAX_BYTES_PER_FILE + 1024) + b"</urlset>\n"
        bomb = gzip.compress(head + b" " * (300 * 1024 * 1024), compresslevel=9, mtime=0)
        routes["/huge.xml"] = Reply(huge)
        routes["/bomb.xml"] = Reply(bomb, headers={"Content-Encoding": "gzip"})
        report = validate([server.url("/huge.xml"), server.url("/bomb.xml")], now=NOW)
    assert codes(report) == ["E502", "E502"]
    assert [d.bytes for d in report.documents] == [MAX_BYTES_PER_FILE + 1] * 2


def test_a_site_root_url_reads_robots_txt() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        routes["/robots.txt"] = Reply(
            f"User-agent: *\nSitemap: {server.url('/docs/sitemap.xml')}\n".encode()
        )
        routes["/docs/sitemap.xml"] = xml(urlset(server.url("/docs/a/"), server.url("/blog/")))
        report = validate([server.url("/")], now=NOW)
    # Reached through robots.txt: any path of the host is in scope.
    assert report.findings == []
    assert [d.url for d in report.documents] == [server.url("/docs/sitemap.xml")]


def test_robots_txt_listing_a_missing_sitemap() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        routes["/robots.txt"] = Reply(
            f"Sitemap: {server.url('/gone.xml')}\nSitemap: {server.url('/here.xml')}\n".encode()
        )
        routes["/here.xml"] = xml(urlset(server.url("/a/")))
        report = validate([server.url("/")], now=NOW)
    finding = only(report, "E601")
    assert (finding.source, finding.line) == (server.url("/robots.txt"), 1)
    assert "HTTP 404" in finding.message
    assert [d.url for d in report.documents] == [server.url("/here.xml")]
    assert report.exit_status == 1


def test_a_site_root_without_robots_txt_falls_back_to_sitemap_xml() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        routes["/sitemap.xml"] = xml(urlset(server.url("/a/")))
        found = validate([server.url("")], now=NOW)
        del routes["/sitemap.xml"]
        routes["/robots.txt"] = Reply(b"User-agent: *\nDisallow:\n")
        nothing = validate([server.url("/")], now=NOW)
    assert [d.url for d in found.documents] == [server.url("/sitemap.xml")]
    assert found.findings == []
    assert only(nothing, "R004").source == server.url("/sitemap.xml")
    assert nothing.exit_status == 2


def test_redirects_are_followed_to_http_only() -> None:
    routes: dict[str, Reply] = {}
    with serve(routes) as server:
        routes["/moved.xml"] = Reply(status=301, headers={"Location": "/sitemap.xml"})
        routes["/sitemap.xml"] = xml(urlset(server.url("/a/")))
        routes["/file.xml"] = Reply(status=302, headers={"Location": "file:///etc/passwd"})
        routes["/ftp.xml"] = Reply(status=302, headers={"Location": "ftp://127.0.0.1/x.xml"})
        targets = [server.url(path) for path in ("/moved.xml", "/file.xml", "/ftp.xml")]
        report = validate(targets, now=NOW)
    assert [(f.code, f.source) for f in report.findings] == [
        ("R002", server.url("/file.xml")),
        ("R002", server.url("/ftp.xml")),
    ]
    assert "'file:///etc/passwd' is not allowed" in report.findings[0].message
    assert "'ftp://127.0.0.1/x.xml', which is not http(s)" in report.findings[1].message
    assert [(d.url, d.entries) for d in report.documents] == [(server.url("/moved.xml"), 1)]


def test_an_encoding_we_did_not_ask_for_is_refused() -> None:
    routes = {"/sitemap.xml": Reply(b"\x00\x01", headers={"Content-Encoding": "br"})}
    with serve(routes) as server:
        report = validate([server.url("/sitemap.xml")], now=NOW)
    assert "Content-Encoding 'br'" in only(report, "R002").message


def test_nothing_listening() -> None:
    with serve({}) as server:
        gone = server.url("/sitemap.xml")
    report = validate([gone], timeout=5, now=NOW)
    assert "cannot connect" in only(report, "R002").message
