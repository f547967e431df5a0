"""Two loopback servers for IndexNow tests: a site that serves a built folder, and an IndexNow
endpoint that enforces the protocol as the engines describe it.

Nothing leaves the machine: both listen on 127.0.0.1, and the endpoint fetches a key file only
from 127.0.0.1 (any other location is answered 403, as an engine that cannot fetch it would).

The endpoint checks, in order: a POST with a JSON body (else 400); an object with ``host``,
``key``, ``urlList`` (a non-empty list of strings) and an optional ``keyLocation`` (else 400); at
most 10,000 URLs (else 400); a key of 8 to 128 characters of ``[a-zA-Z0-9-]`` (else 422); every
URL and the key location on ``host``, and every URL under the key file's folder, as a key file
in a folder vouches for those alone (else 422); the key file fetched from its location holding
the key (else 403). ``script`` holds answers given first, one per request, whatever the request
(429 or 503 with a ``Retry-After``, to test throttling); then every valid request is 202.
"""

from __future__ import annotations

import functools
import gzip
import http.server
import json
import re
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

MAX_URLS = 10_000
KEY = re.compile(r"^[A-Za-z0-9-]{8,128}$")


@dataclass
class Endpoint:
    """What the fake endpoint saw, for assertions."""

    url: str = ""
    script: list[tuple[int, str | None]] = field(default_factory=list)
    accepted: list[dict[str, Any]] = field(default_factory=list)
    answers: list[int] = field(default_factory=list)
    key_fetches: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def answer(self, body: bytes, content_type: str) -> tuple[int, str | None]:
        with self.lock:
            if self.script:
                return self.script.pop(0)
        if not content_type.startswith("application/json"):
            return 400, None
        try:
            document = json.loads(body)
        except ValueError:
            return 400, None
        if not isinstance(document, dict):
            return 400, None
        host, key, urls = document.get("host"), document.get("key"), document.get("urlList")
        location = document.get("keyLocation")
        if not isinstance(host, str) or not isinstance(key, str):
            return 400, None
        if not isinstance(urls, list) or not urls or not all(isinstance(u, str) for u in urls):
            return 400, None
        if location is not None and not isinstance(location, str):
            return 400, None
        if len(urls) > MAX_URLS:
            return 400, None
        if not KEY.match(key):
            return 422, None
        location = location or f"https://{host}/{key}.txt"
        if any(urlsplit(u).netloc != host for u in [*urls, location]):
            return 422, None
        folder = urlsplit(location).path.rpartition("/")[0] + "/"
        if any(not (urlsplit(u).path or "/").startswith(folder) for u in urls):
            return 422, None
        if self._fetch_key(location) != key:
            return 403, None
        with self.lock:
            self.accepted.append(document)
        return 202, None

    def _fetch_key(self, location: str) -> str | None:
        self.key_fetches.append(location)
        if urlsplit(location).hostname != "127.0.0.1":
            return None  # never leave the machine
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        try:
            with opener.open(location, timeout=10) as response:
                return str(response.read(4096).decode("utf-8", "replace").strip())
        except (urllib.error.URLError, OSError):
            return None


def _endpoint_handler(endpoint: Endpoint) -> type[http.server.BaseHTTPRequestHandler]:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length)
            status, retry_after = endpoint.answer(body, self.headers.get("Content-Type") or "")
            endpoint.answers.append(status)
            self.send_response(status)
            if retry_after is not None:
                self.send_header("Retry-After", retry_after)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            self.send_response(405)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    return Handler


class _QuietFiles(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class _GzippedText(_QuietFiles):
    """Text files gzipped for clients that accept it, as nginx with ``gzip_types text/plain``
    (and many CDNs) serve them."""

    def do_GET(self) -> None:
        path = Path(self.translate_path(self.path))
        accepts = "gzip" in (self.headers.get("Accept-Encoding") or "")
        if not (accepts and path.is_file() and self.guess_type(str(path)) == "text/plain"):
            super().do_GET()
            return
        body = gzip.compress(path.read_bytes())
        self.send_response(200)
        self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@contextmanager
def _serve(handler: Any) -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@contextmanager
def serve_folder(folder: Path, *, gzip_text: bool = False) -> Iterator[str]:
    """Serve ``folder`` on loopback; yields its base URL (``http://127.0.0.1:PORT/``). With
    ``gzip_text``, text files go gzipped to a client that sends ``Accept-Encoding: gzip``."""
    handler = _GzippedText if gzip_text else _QuietFiles
    with _serve(functools.partial(handler, directory=str(folder))) as url:
        yield url


@contextmanager
def serve_redirect(
    to: str, *, only: dict[str, str] | None = None, folder: Path | None = None
) -> Iterator[str]:
    """A server on loopback answering every GET with a 301 to the same path under ``to`` (a
    base URL): an apex domain sending its visitors to ``www.``, ``http`` sending to ``https``.
    With ``only`` (path -> URL), those paths alone are sent on, and ``folder`` serves the rest:
    a site whose sitemap is kept on a storage host."""

    class Redirect(_QuietFiles):
        def do_GET(self) -> None:
            if only is not None and self.path not in only:
                super().do_GET()
                return
            target = only[self.path] if only is not None else to.rstrip("/") + self.path
            self.send_response(301)
            self.send_header("Location", target)
            self.send_header("Content-Length", "0")
            self.end_headers()

    handler = functools.partial(Redirect, directory=str(folder)) if folder else Redirect
    with _serve(handler) as url:
        yield url


@contextmanager
def indexnow_endpoint(script: list[tuple[int, str | None]] | None = None) -> Iterator[Endpoint]:
    """A fake IndexNow endpoint on loopback; ``Endpoint.url`` is where to POST."""
    endpoint = Endpoint(script=list(script or []))
    with _serve(_endpoint_handler(endpoint)) as url:
        endpoint.url = url + "indexnow"
        yield endpoint
