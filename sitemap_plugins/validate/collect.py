"""Reading a sitemap for what it lists, for the commands that act on sitemaps (index, submit).

The same streaming reader as the checks (:class:`~.documents.DocumentChecker`, with DTDs and
entities refused, the 50 MiB limit, gzip recognised by content), handing on each entry instead of
judging it. A document whose reading stopped early (not XML, not UTF-8, over 50 MiB...) lists
only part of what it holds, so it counts as unreadable here: acting on half a list (submitting
"removed" URLs that were never read) would be worse than stopping.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from sitemap_plugins.validate import values
from sitemap_plugins.validate.documents import DocumentChecker
from sitemap_plugins.validate.findings import Check, Finding
from sitemap_plugins.validate.reading import ReadError, file_chunks, uncompressed, url_chunks
from sitemap_plugins.validate.xmldoc import Entry

STOPPING: Final = frozenset(
    {
        Check.ENCODING,
        Check.XML_SYNTAX,
        Check.DOCTYPE,
        Check.LEGACY_NAMESPACE,
        Check.NOT_A_SITEMAP,
        Check.TOO_LARGE,
    }
)
"""Findings after which a document's entries are not all known."""


class ListingError(Exception):
    """A sitemap that cannot be read in full; ``str()`` is one line naming it and the cause."""

    def __init__(self, label: str, check: Check, message: str) -> None:
        super().__init__(f"{label}: {message}")
        self.label = label
        self.check = check
        self.message = message


@dataclass(frozen=True, slots=True)
class Listed:
    """One ``<url>``, text line or ``<sitemap>`` as written: its loc and lastmod text."""

    loc: str
    lastmod: str | None = None


@dataclass(slots=True)
class Listing:
    """What one document holds: its kind, an index's children, the newest lastmod written."""

    label: str
    kind: str | None = None
    entries: int = 0
    children: list[Listed] = field(default_factory=list)
    newest: str | None = None
    findings: list[Finding] = field(default_factory=list)
    _newest_at: dt.datetime | None = None


class _Sink:
    def __init__(self, listing: Listing, on_url: Callable[[Listed], None] | None) -> None:
        self.listing = listing
        self.on_url = on_url

    def emit(self, check: Check, message: str, line: int | None, column: int | None) -> None:
        self.listing.findings.append(Finding(check, message, self.listing.label, line, column))

    def entry(self, entry: Entry) -> None:
        if entry.loc is None:
            return
        lastmod = entry.lastmod
        if lastmod is not None:
            instant = values.instant_of(lastmod)
            if instant is None:
                lastmod = None  # reported as a finding; an unreadable date dates nothing
            elif self.listing._newest_at is None or instant > self.listing._newest_at:
                self.listing._newest_at = instant
                self.listing.newest = values.trim(lastmod)
        if self.on_url is not None:
            self.on_url(Listed(values.trim(entry.loc), values.trim(lastmod) if lastmod else None))

    def child(self, entry: Entry) -> None:
        if entry.loc is not None:
            lastmod = values.trim(entry.lastmod) if entry.lastmod else None
            self.listing.children.append(Listed(values.trim(entry.loc), lastmod))


def read_listing(
    source: Path | str,
    *,
    label: str | None = None,
    timeout: float = 30.0,
    on_url: Callable[[Listed], None] | None = None,
    answered: Callable[[str], None] | None = None,
) -> Listing:
    """Read one sitemap file (a ``Path``) or URL (a ``str``) and say what it lists.

    ``on_url`` is called with each URL entry (``<url>`` or text line) as it is read, so that a
    caller keeps only what it needs; before any, a URL's ``answered`` is told the URL that
    answered it (see :func:`.reading.url_chunks`). An index's ``<sitemap>`` children are in the
    result, not followed. Raises :class:`ListingError` when the document cannot be read in full.
    """
    name = str(source) if label is None else label
    listing = Listing(name)
    checker = DocumentChecker(
        _Sink(listing, on_url), name=_basename(source), now=dt.datetime.now(dt.timezone.utc)
    )
    raw = (
        file_chunks(source)
        if isinstance(source, Path)
        else url_chunks(source, timeout=timeout, answered=answered)
    )
    chunks = uncompressed(raw)
    try:
        for chunk in chunks:
            if not checker.feed(chunk):
                break
        checker.close()
    except ReadError as error:
        raise ListingError(name, error.check, error.message) from None
    finally:
        chunks.close()
        raw.close()
    listing.kind = checker.kind
    listing.entries = checker.entries
    for finding in listing.findings:
        if finding.check in STOPPING:
            where = f"line {finding.line}: " if finding.line else ""
            raise ListingError(name, finding.check, f"{where}{finding.message}")
    if listing.kind is None:
        raise ListingError(name, Check.EMPTY, "holds no sitemap (the file is empty)")
    return listing


def _basename(source: Path | str) -> str:
    if isinstance(source, Path):
        return source.name
    return source.split("?", 1)[0].rstrip("/").rpartition("/")[2]
