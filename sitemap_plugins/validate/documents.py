"""One document, whatever it holds: the byte limit, UTF-8, then an XML or a text sitemap.

Bytes arrive in chunks (from a file, a gzip stream or an HTTP body) and are checked as they come,
so a file is read once and never held whole. What the document is, is decided by its content, as
crawlers do: XML starts with ``<``; anything else is a text sitemap (one URL per line) unless its
name promises XML.
"""

from __future__ import annotations

import codecs
import datetime as dt
import re
from typing import Final

from sitemap_plugins.core.options import MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE
from sitemap_plugins.validate import values
from sitemap_plugins.validate.findings import Check
from sitemap_plugins.validate.xmldoc import Entry, Sink, XmlChecker

_BOM: Final = b"\xef\xbb\xbf"
_WHITESPACE: Final = b" \t\r\n"
_DECLARED_ENCODING: Final = re.compile(
    rb"""^<\?xml[^>]*?\sencoding\s*=\s*["'](?P<encoding>[^"']*)["']"""
)
MAX_LINE: Final = 65_536
"""A text line longer than this is not a URL; it is measured, not kept."""


class TextChecker:
    """A text sitemap: one absolute URL per line, UTF-8, the same limits as XML."""

    def __init__(self, sink: Sink) -> None:
        self.entries = 0
        self._sink = sink
        self._pending = ""
        self._pending_length = 0
        self._line = 0

    def feed(self, text: str) -> None:
        lines = text.split("\n")
        if len(lines) == 1:
            self._extend(text)
            return
        self._extend(lines[0])
        self._finish_line()
        for line in lines[1:-1]:
            self._extend(line)
            self._finish_line()
        self._extend(lines[-1])

    def close(self) -> None:
        if self._pending_length:
            self._finish_line()
        if self.entries == 0:
            self._sink.emit(
                Check.EMPTY, "no URL at all (a text sitemap lists one per line)", 1, None
            )

    def _extend(self, part: str) -> None:
        self._pending_length += len(part)
        if len(self._pending) < MAX_LINE:
            self._pending += part[: MAX_LINE - len(self._pending)]

    def _finish_line(self) -> None:
        self._line += 1
        text, length = self._pending.rstrip("\r"), self._pending_length
        self._pending, self._pending_length = "", 0
        if not values.trim(text):
            return
        self.entries += 1
        if self.entries == MAX_URLS_PER_FILE + 1:
            self._sink.emit(
                Check.TOO_MANY_ENTRIES,
                f"more than {MAX_URLS_PER_FILE:,} URLs in one file; split it into several files "
                "listed by a sitemap index",
                self._line,
                None,
            )
        problems = values.url_problems(text, "URL")
        stripped = len(values.trim(text)) if length <= MAX_LINE else length
        if stripped > values.SCHEMA_MIN_LOC:  # the schema's 12-character minimum is XML's only
            problems += values.loc_length_problems(stripped)
        for check, message in problems:
            self._sink.emit(check, message, self._line, None)
        self._sink.entry(Entry(self._line, loc=values.trim(text)))


class DocumentChecker:
    """Feed uncompressed chunks; :meth:`feed` returns False once reading should stop."""

    def __init__(self, sink: Sink, *, name: str, now: dt.datetime | None) -> None:
        self.size = 0
        self._sink = sink
        self._name = name
        self._now = now
        self._decoder = codecs.getincrementaldecoder("utf-8")()
        self._newlines = 0
        self._head = b""
        self._head_text = ""
        self._xml: XmlChecker | None = None
        self._text: TextChecker | None = None
        self._done = False

    @property
    def kind(self) -> str | None:
        """``urlset``, ``index`` or ``text``; None when the content never showed which."""
        if self._xml is not None:
            return self._xml.kind
        return "text" if self._text is not None else None

    @property
    def entries(self) -> int:
        checker = self._xml or self._text
        return checker.entries if checker is not None else 0

    def feed(self, chunk: bytes) -> bool:
        if self._done:
            return False
        self.size += len(chunk)
        if self.size > MAX_BYTES_PER_FILE:
            keep = len(chunk) - (self.size - MAX_BYTES_PER_FILE)
            self.size = MAX_BYTES_PER_FILE + 1  # all that is known: more than the limit
            self._take(chunk[:keep])
            self._sink.emit(
                Check.TOO_LARGE,
                f"more than {MAX_BYTES_PER_FILE:,} bytes uncompressed (50 MiB; read up to the "
                "limit and stopped); split it into several files listed by a sitemap index",
                None,
                None,
            )
            self._done = True
            return False
        self._take(chunk)
        return not self._done

    def close(self) -> None:
        if self._done:
            return
        self._done = True
        if self._xml is None and self._text is None:
            self._sink.emit(Check.EMPTY, "the file is empty (or only whitespace)", None, None)
            return
        try:
            tail = self._decoder.decode(b"", final=True)
        except UnicodeDecodeError as error:
            self._not_utf8(error)
            return
        if self._text is not None:
            self._text.feed(tail)
            self._text.close()
        elif self._xml is not None:
            self._xml.close()

    def _take(self, chunk: bytes) -> None:
        if not chunk or self._done:
            return
        try:
            text = self._decoder.decode(chunk)
        except UnicodeDecodeError as error:
            self._not_utf8(error)
            return
        self._newlines += chunk.count(b"\n")
        if self._xml is None and self._text is None:
            self._head += chunk
            self._head_text += text
            if not self._head.removeprefix(_BOM).lstrip(_WHITESPACE):
                return
            self._choose()
            if self._done:
                return
            chunk, text = self._head, self._head_text.removeprefix("\ufeff")
            self._head, self._head_text = b"", ""
        if self._xml is not None:
            self._xml.feed(chunk)
            if self._xml.stopped:
                self._done = True
        elif self._text is not None:
            self._text.feed(text)

    def _choose(self) -> None:
        start = self._head.removeprefix(_BOM).lstrip(_WHITESPACE)
        if start.startswith(b"<"):
            self._check_declared_encoding()
            self._xml = XmlChecker(self._sink, now=self._now)
            return
        if self._name.removesuffix(".gz").endswith(".xml"):
            first = start[:20].decode("utf-8", errors="replace")
            self._sink.emit(
                Check.NOT_A_SITEMAP,
                f"named {self._name} but holds no XML (it starts with {first!r}); a text "
                "sitemap is named .txt",
                1,
                None,
            )
            self._done = True
            return
        self._text = TextChecker(self._sink)

    def _check_declared_encoding(self) -> None:
        match = _DECLARED_ENCODING.match(self._head.removeprefix(_BOM))
        if match is None:
            return
        declared = match["encoding"].decode("ascii", errors="replace")
        if declared.lower().replace("_", "-") not in ("utf-8", "utf8"):
            self._sink.emit(
                Check.ENCODING,
                f'declares encoding="{declared}"; sitemaps are UTF-8: save the file as UTF-8 '
                'and declare encoding="UTF-8"',
                1,
                None,
            )

    def _not_utf8(self, error: UnicodeDecodeError) -> None:
        # The decoder's buffer holds at most a partial character before this chunk: no newline.
        line = self._newlines + error.object[: error.start].count(b"\n") + 1
        bad = bytes(error.object[error.start : error.start + 4])
        self._sink.emit(
            Check.ENCODING,
            f"not UTF-8: bytes {bad!r} cannot be decoded; sitemaps must be UTF-8",
            line,
            None,
        )
        self._done = True
