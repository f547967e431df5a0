"""The values that cross from an adapter into the core, and the validated entries the core writes.

Adapters describe pages with plain, frozen values so that no host object (an MkDocs ``Page``, a
Sphinx environment, a Pelican ``Content``) ever reaches the core: the core can then be tested, and
reasoned about, without any host installed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

Lastmod = dt.date | dt.datetime
"""A modification time: an aware ``datetime``, or a plain ``date`` when only that is known."""


@dataclass(frozen=True, slots=True)
class Alternate:
    """One language version of a page, for ``xhtml:link rel="alternate"``.

    ``path`` is served-path relative to the site root, exactly like :attr:`Page.path`.
    ``hreflang`` is a BCP 47 tag or ``x-default``.
    """

    hreflang: str
    path: str


@dataclass(frozen=True, slots=True)
class Page:
    """What an adapter knows about one published page.

    ``path`` is the URL path as the host serves it, relative to the site root and without a leading
    slash (``""`` for the home page, ``"guide/"``, ``"guide/install.html"``). ``encoded`` says
    which form it has, and the core encodes it exactly once: ``True`` for a link the host already
    percent-encoded (MkDocs' ``file.url``, Sphinx's html links), where a ``%`` starts an escape;
    ``False`` for a path made from file names (Sphinx dirhtml, Pelican), where ``100%.html`` means
    a literal percent sign. The same holds for the paths of ``alternates``.

    ``origin`` names the page in messages (the source file relative to the project, or the output
    file for generated pages), so that a warning tells the user where to look.

    ``sources`` are the files whose modification makes the page change: the page's own source first,
    then includes and other dependencies. A generated page (index, tag, category, pagination) has
    none and instead carries ``listed_dates``: the lastmod of every item it lists, when the host
    tells us; the page then takes the newest. A listed item whose date the host does not know (it
    has no date of its own) is given by its source files in ``listed_sources`` instead: the core
    dates those files as it dates any source, and the page takes the newest of both.

    ``sitemap`` is the page's own ``sitemap`` metadata as the author wrote it: a mapping with
    ``priority``, ``changefreq``, ``lastmod``, ``exclude``; ``False`` to leave the page out;
    ``None``; or JSON text of either, as MyST and field lists pass nested values. ``updated`` is
    the host's own explicit modification date field (raw, as written), used when
    ``sitemap.lastmod`` is absent. Both are validated by the core, which warns and drops what it
    cannot use.
    """

    path: str
    origin: str
    sources: tuple[Path, ...] = ()
    sitemap: Mapping[str, Any] | bool | str | None = None
    updated: object = None
    alternates: tuple[Alternate, ...] = ()
    listed_dates: tuple[Lastmod, ...] = ()
    listed_sources: tuple[Path, ...] = ()
    encoded: bool = True

    def __post_init__(self) -> None:
        if isinstance(self.sitemap, Mapping) and not isinstance(self.sitemap, MappingProxyType):
            object.__setattr__(self, "sitemap", MappingProxyType(dict(self.sitemap)))


class Entry(NamedTuple):
    """One validated ``<url>``: every field is already known to be protocol-valid.

    ``loc`` and the alternate URLs are absolute and percent-encoded but not XML-escaped; the
    renderer escapes. ``images`` holds absolute image URLs (image sitemap 1.1). A named tuple
    rather than a frozen dataclass: as immutable, and twice as cheap to make, which counts when a
    site streams a million of them.
    """

    loc: str
    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: float | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    images: tuple[str, ...] = ()


class IndexEntry(NamedTuple):
    """One ``<sitemap>`` child of a sitemap index."""

    loc: str
    lastmod: Lastmod | None = None
