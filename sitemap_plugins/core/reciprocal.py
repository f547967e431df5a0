"""Alternates that name each other back, where each page tells its own versions.

The plugins take a page's language versions from the host, which knows them as one set for all
of them. ``generate`` reads them from each page's head, and heads can disagree: ``en/a/`` links
``de/a/``, whose head links nothing. Search engines ignore an ``hreflang`` link that is not
returned, so an entry keeps as alternates only the pages it names that name it back, itself
included, and ``x-default`` only where it names one of those; a page left with only itself has
none. A version outside the build's site (``/de/`` beside a site at ``/en/``) has no page here to
ask, and stays, as :mod:`.alternates` keeps it.

Streamed as the entries are: every link goes into a sorted spill twice, under the page that
names it and under the page it names, and the spill is read in URL order beside the sorted
entries, so memory holds one page's links at a time, whatever the site's size.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Final

from sitemap_plugins.core.model import Entry
from sitemap_plugins.core.report import Reporter
from sitemap_plugins.core.spill import DEFAULT_CHUNK, SortedSpill
from sitemap_plugins.core.urls import in_scope

__all__ = ["NamedBack"]

_X_DEFAULT: Final = "x-default"

_Link = tuple[str, str, bool]
"""(a page's URL, another's, whether the page names the other: else it is named by it)."""


class NamedBack:
    """Every ``hreflang`` link between the pages of one build's site, to keep those returned.

    ``site`` is the folder URL the build lists every page of; links out of it are not checked.
    Entries are told to :meth:`add` as they are resolved, in any order, then to :meth:`prune`
    in URL order. :meth:`say` tells the reporter what was left out, once.
    """

    def __init__(
        self, site: str, chunk: int = DEFAULT_CHUNK, spill_dir: Path | None = None
    ) -> None:
        self.site = site
        self._links = SortedSpill[_Link](chunk, spill_dir)
        self._read: Iterator[_Link] | None = None
        self._next: _Link | None = None
        self.one_sided = 0
        """Links left out because the page they name does not name their page back."""
        self.example: tuple[str, str, str, str] | None = None
        """The first such link: its page's origin and URL, its hreflang, the URL it names."""

    def __enter__(self) -> NamedBack:
        return self

    def __exit__(self, *exc: object) -> None:
        self._links.close()

    def add(self, entry: Entry) -> None:
        """The links of a listed page's entry, itself and ``x-default`` apart."""
        loc = entry.loc
        for tag, url in entry.alternates:
            if tag != _X_DEFAULT and url != loc and in_scope(url, self.site):
                self._links.add((loc, url, True), (loc, url, True))
                self._links.add((url, loc, False), (url, loc, False))

    def prune(self, entry: Entry, origin: str) -> Entry:
        """``entry`` (from ``origin``) without the alternates that do not name it back, nor an
        ``x-default`` naming one of them; with none when fewer than two versions stay. Asked in
        URL order (links of the entries between are passed over), each entry once."""
        if not entry.alternates:
            return entry
        names, named_by = self._links_of(entry.loc)
        if names <= named_by:
            return entry
        kept: list[tuple[str, str]] = []
        for tag, url in entry.alternates:
            if tag == _X_DEFAULT or url not in names or url in named_by:
                kept.append((tag, url))
                continue
            self.one_sided += 1
            if self.example is None:
                self.example = (origin, entry.loc, tag, url)
        versions = {url for tag, url in kept if tag != _X_DEFAULT}
        kept = [(tag, url) for tag, url in kept if tag != _X_DEFAULT or url in versions]
        if len(versions) < 2:
            kept = []
        return entry._replace(alternates=tuple(kept))

    def say(self, reporter: Reporter) -> None:
        """One line of information, if any link was left out: the site's own heads say so,
        nothing the user set is wrong, so it is no warning."""
        if not self.one_sided or self.example is None:
            return
        count = self.one_sided
        origin, loc, tag, url = self.example
        reporter.info(
            f"sitemap: {count} hreflang link{'s' if count != 1 else ''} left out of the "
            "alternates: the page linked does not link back "
            f'({"such as " if count != 1 else ""}{origin}: hreflang="{tag}" to {url}, which '
            f"does not name {loc} back)"
        )

    def _links_of(self, loc: str) -> tuple[set[str], set[str]]:
        """The URLs the page at ``loc`` names, and those naming it, read from the sorted links
        up to ``loc`` (the links of URLs before it are passed over: no entry asks for them)."""
        if self._read is None:
            self._read = self._links.merged()
            self._next = next(self._read, None)
        names: set[str] = set()
        named_by: set[str] = set()
        while self._next is not None and self._next[0] <= loc:
            page, other, naming = self._next
            if page == loc:
                (names if naming else named_by).add(other)
            self._next = next(self._read, None)
        return names, named_by
