"""Getting the bytes of a target: local files, HTTP(S) with a timeout and a size cap, gzip.

Everything is an iterator of chunks, so a file is read once, as it is checked, and reading can
stop at any point (the 50 MiB limit, a fatal finding). gzip is recognised by its content, not by
the file name or a header, because servers send ``.gz`` files both with and without
``Content-Encoding: gzip``; decompression hands out bounded pieces, so a compression bomb costs no
more memory than an honest file. Every failure becomes one :class:`ReadError` naming the problem.
"""

from __future__ import annotations

import http.client
import socket
import ssl
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Generator, Iterable, Iterator
from pathlib import Path
from typing import Final

from sitemap_plugins import __version__
from sitemap_plugins.core.robots import sitemap_urls
from sitemap_plugins.validate.findings import Check

CHUNK: Final = 1 << 16
GZIP_MAGIC: Final = b"\x1f\x8b"
MAX_GZIP_LAYERS: Final = 2
"""A ``.gz`` file served with ``Content-Encoding: gzip`` arrives compressed twice."""
MAX_RAW_BYTES: Final = 64 * 1024 * 1024
"""Transferred bytes read from one URL at most (more than any 50 MiB sitemap needs, gzip or not)."""
MAX_ROBOTS_BYTES: Final = 500 * 1024
"""Google reads the first 500 KiB of robots.txt; so do we."""
USER_AGENT: Final = f"sitemap-plugins/{__version__} (validate)"


class ReadError(Exception):
    """A target that cannot be read; ``check`` is the code to report it under."""

    def __init__(self, check: Check, message: str) -> None:
        super().__init__(message)
        self.check = check
        self.message = message


# --------------------------------------------------------------------------------------------
# Local files


def file_chunks(path: Path) -> Generator[bytes, None, None]:
    """The raw bytes of a file, in chunks."""
    try:
        stream = open(path, "rb")  # noqa: SIM115 - closed by the with below, after the checks
    except FileNotFoundError:
        raise ReadError(Check.NOT_FOUND, "no such file") from None
    except IsADirectoryError:
        raise ReadError(Check.UNREADABLE, "is a folder, not a file") from None
    except OSError as error:
        raise ReadError(Check.UNREADABLE, f"cannot be read: {error.strerror or error}") from None
    with stream:
        while True:
            try:
                chunk = stream.read(CHUNK)
            except OSError as error:
                raise ReadError(Check.UNREADABLE, f"read failed: {error.strerror}") from None
            if not chunk:
                return
            yield chunk


def starts_with_gzip_magic(path: Path) -> bool:
    """Whether a file's first bytes are gzip's (False when it cannot be read)."""
    try:
        with open(path, "rb") as stream:
            return stream.read(2) == GZIP_MAGIC
    except OSError:
        return False


# --------------------------------------------------------------------------------------------
# HTTP


class _HttpOnlyRedirects(urllib.request.HTTPRedirectHandler):
    """Follow redirects to http(s) only: never to ``file:`` or ``ftp:``."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: object,
        code: int,
        msg: str,
        headers: object,
        newurl: str,
    ) -> urllib.request.Request | None:
        if not newurl.lower().startswith(("http://", "https://")):
            raise ReadError(Check.UNREADABLE, f"redirected to {newurl!r}, which is not http(s)")
        return super().redirect_request(req, fp, code, msg, headers, newurl)  # type: ignore[arg-type]


def _opener() -> urllib.request.OpenerDirector:
    """HTTP and HTTPS only, proxies from the environment as usual, redirects to http(s) only."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        _HttpOnlyRedirects(),
        urllib.request.HTTPDefaultErrorHandler(),
        urllib.request.HTTPErrorProcessor(),
        urllib.request.UnknownHandler(),
    ):
        opener.add_handler(handler)
    return opener


def url_chunks(
    url: str,
    *,
    timeout: float,
    limit: int = MAX_RAW_BYTES,
    answered: Callable[[str], None] | None = None,
) -> Generator[bytes, None, None]:
    """The body of ``url``, in chunks; at most ``limit`` bytes, within about ``timeout`` seconds.

    ``timeout`` bounds the connection and each read, and the whole transfer may take at most
    twice as long, so a server that sends a byte now and then cannot hold a run forever.
    ``answered`` is told the URL that answered, once redirects are followed, before any chunk.
    """
    deadline = time.monotonic() + 2 * timeout
    request = urllib.request.Request(
        url, headers={"User-Agent": USER_AGENT, "Accept-Encoding": "gzip"}
    )
    try:
        response = _opener().open(request, timeout=timeout)
    except urllib.error.HTTPError as error:
        error.close()
        check = Check.NOT_FOUND if error.code in (404, 410) else Check.UNREADABLE
        raise ReadError(check, f"HTTP {error.code} {error.reason}") from None
    except urllib.error.URLError as error:
        raise _network_error(error.reason, timeout) from None
    except (OSError, http.client.HTTPException, ValueError) as error:
        raise _network_error(error, timeout) from None
    with response:
        if answered is not None:
            answered(response.geturl())
        encoding = (response.headers.get("Content-Encoding") or "").strip().lower()
        if encoding not in ("", "identity", "gzip", "x-gzip"):
            raise ReadError(Check.UNREADABLE, f"unsupported Content-Encoding {encoding!r}")
        total = 0
        while True:
            try:
                chunk = response.read(CHUNK)
            except (OSError, http.client.HTTPException) as error:
                raise _network_error(error, timeout) from None
            if not chunk:
                return
            total += len(chunk)
            if total > limit:
                raise ReadError(
                    Check.UNREADABLE, f"the response is larger than {limit:,} bytes; stopped"
                )
            if time.monotonic() > deadline:
                raise ReadError(
                    Check.UNREADABLE, f"timed out: the transfer took longer than {2 * timeout:g} s"
                )
            yield chunk


def _network_error(reason: object, timeout: float) -> ReadError:
    if isinstance(reason, (TimeoutError, socket.timeout)):
        return ReadError(Check.UNREADABLE, f"timed out after {timeout:g} s")
    if isinstance(reason, ReadError):
        return reason
    if isinstance(reason, ssl.SSLError):
        return ReadError(Check.UNREADABLE, f"TLS failed: {reason.reason or reason}")
    if isinstance(reason, socket.gaierror):
        return ReadError(Check.UNREADABLE, f"cannot resolve the host ({reason.strerror})")
    if isinstance(reason, OSError) and reason.strerror:
        return ReadError(Check.UNREADABLE, f"cannot connect: {reason.strerror}")
    if isinstance(reason, http.client.IncompleteRead):
        return ReadError(Check.UNREADABLE, "the connection closed before the whole body arrived")
    return ReadError(Check.UNREADABLE, f"cannot fetch: {reason}")


# --------------------------------------------------------------------------------------------
# gzip


def uncompressed(
    chunks: Iterable[bytes], *, layers: int = MAX_GZIP_LAYERS
) -> Generator[bytes, None, None]:
    """The chunks, gunzipped when (and as often as) they start with gzip's magic bytes."""
    stream = iter(chunks)
    head = b""
    for chunk in stream:
        head += chunk
        if len(head) >= len(GZIP_MAGIC):
            break
    if not head.startswith(GZIP_MAGIC) or layers == 0:
        if head:
            yield head
        yield from stream
        return
    yield from uncompressed(_gunzip(_prepend(head, stream)), layers=layers - 1)


def _prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    yield first
    yield from rest


def _gunzip(chunks: Iterable[bytes]) -> Iterator[bytes]:
    """Decompress gzip members in pieces of at most :data:`CHUNK` bytes."""
    decompressor = zlib.decompressobj(wbits=31)
    for chunk in chunks:
        data = chunk
        while data:
            if decompressor.eof:
                if not data.strip(b"\0"):
                    break  # zero padding after the last member, as tape archives leave it
                if not GZIP_MAGIC.startswith(data[:2]):
                    raise ReadError(Check.BAD_GZIP, "data after the end of the gzip stream")
                decompressor = zlib.decompressobj(wbits=31)
            try:
                piece = decompressor.decompress(data, CHUNK)
                while True:
                    if piece:
                        yield piece
                    data = decompressor.unconsumed_tail
                    if decompressor.eof or data or len(piece) < CHUNK:
                        break
                    piece = decompressor.decompress(b"", CHUNK)
            except zlib.error as error:
                raise ReadError(Check.BAD_GZIP, f"corrupt gzip data ({error})") from None
            if decompressor.eof:
                data = decompressor.unused_data
    if not decompressor.eof:
        raise ReadError(Check.BAD_GZIP, "the gzip data ends early (truncated)")


# --------------------------------------------------------------------------------------------
# robots.txt and comparing twins


def sitemap_lines(chunks: Iterable[bytes]) -> list[tuple[int, str]]:
    """The ``Sitemap:`` lines of a robots.txt as ``(line number, URL)``, from its first 500 KiB.

    ``Sitemap:`` stands outside user-agent groups and may repeat; bytes that are not UTF-8 are
    replaced, as crawlers do, rather than failing the whole file. Lines are read by the core's
    reader, the one that updates robots.txt, so that the two never disagree on a line.
    """
    data = b""
    for chunk in chunks:
        data += chunk
        if len(data) >= MAX_ROBOTS_BYTES:
            data = data[:MAX_ROBOTS_BYTES]
            break
    return sitemap_urls(data.decode("utf-8", errors="replace"))


def first_difference(left: Iterable[bytes], right: Iterable[bytes]) -> tuple[int, int] | None:
    """``(byte offset, line)`` where two streams first differ, or None when they are equal."""
    left_bytes, right_bytes = _Stream(iter(left)), _Stream(iter(right))
    offset = 0
    line = 1
    while True:
        a, b = left_bytes.take(CHUNK), right_bytes.take(CHUNK)
        if a != b:
            same = next(
                (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                min(len(a), len(b)),
            )
            return offset + same, line + a[:same].count(b"\n")
        if not a:
            return None
        offset += len(a)
        line += a.count(b"\n")


class _Stream:
    """Re-chunk an iterator of byte strings into pieces of an exact size."""

    def __init__(self, chunks: Iterator[bytes]) -> None:
        self._chunks = chunks
        self._buffer = b""

    def take(self, size: int) -> bytes:
        while len(self._buffer) < size:
            chunk = next(self._chunks, None)
            if chunk is None:
                break
            self._buffer += chunk
        piece, self._buffer = self._buffer[:size], self._buffer[size:]
        return piece
