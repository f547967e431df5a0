"""Alternates name only what the sitemap lists.

Search engines read ``hreflang`` alternates as a set that every member names back, each an
indexable URL. A language version the sitemap leaves out (a robots ``noindex``, ``sitemap:
false``, a private page) names no one back from the sitemap, and its siblings must not name it:
Google then ignores the set. So once a build knows what it leaves out, each entry's alternates
lose every URL left out, ``x-default`` too; a page left with only itself has no alternates.

What is kept is the set of URLs left out, not the set listed: it grows with what a site leaves
out, not with the site (a streamed build of millions of pages holds no list of its URLs), and an
alternate outside this sitemap's folder (a language built and listed apart, ``/de/`` beside
``/en/sitemap.xml``) stays, since this build cannot know it is not listed elsewhere.
"""

from __future__ import annotations

from typing import Final

from sitemap_plugins.core.model import Entry, LeftOut, Page, Reason
from sitemap_plugins.core.urls import encode_query, join_url

__all__ = ["LeftOutURLs"]

_X_DEFAULT: Final = "x-default"


class LeftOutURLs:
    """The URLs of one build's pages that the sitemap leaves out, to prune alternates by."""

    def __init__(self, base_url: str) -> None:
        self.base_url = base_url
        self.urls: set[str] = set()

    def add_page(self, page: Page, reason: Reason) -> None:
        """A page the core left out for ``reason``. One left out for its URL (outside the
        sitemap's folder, too long) may be listed by another sitemap and stays nameable."""
        if reason is not Reason.BAD_URL:
            self._add(page.path, encoded=page.encoded, query=page.query)

    def add_left_out(self, item: LeftOut) -> None:
        """A file the host left out, when the adapter says where it is served."""
        if item.path is not None:
            self._add(item.path, encoded=item.encoded)

    def _add(self, path: str, *, encoded: bool, query: str = "") -> None:
        try:
            url = join_url(self.base_url, path, encoded=encoded)
            if query:
                url += "?" + encode_query(query, encoded=encoded)
        except ValueError:
            return  # no URL: no alternate can name it either
        self.urls.add(url)

    def prune(self, entry: Entry) -> Entry:
        """``entry`` without alternates that name a URL left out; with none at all when fewer
        than two language versions stay."""
        if not entry.alternates or not self.urls:
            return entry
        kept = tuple(pair for pair in entry.alternates if pair[1] not in self.urls)
        if len(kept) == len(entry.alternates):
            return entry
        if sum(1 for tag, _ in kept if tag != _X_DEFAULT) < 2:
            kept = ()
        return entry._replace(alternates=kept)
