"""The values that cross from an adapter into the core, and the validated entries the core writes.

Adapters describe what their host wrote with plain values the core never changes, a
:class:`Page` for each page and a :class:`LeftOut` for each file the host itself keeps out (a
draft, the 404 page), so that no host object (an MkDocs ``Page``, a Sphinx environment, a
Pelican ``Content``) ever reaches the core: the core can then be tested, and reasoned about,
without any host installed.

No ``from __future__ import annotations`` here, unlike the other modules: with it, typing
compiles each named tuple field's annotation from its text when the class is made (42 of them,
a fifth of this module's import, which every build pays), and nothing here names a later class.
"""

import datetime as dt
import enum
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Final, NamedTuple, TypeAlias

Lastmod = dt.date | dt.datetime
"""A modification time: an aware ``datetime``, or a plain ``date`` when only that is known."""

FilePath: TypeAlias = "str | os.PathLike[str]"
"""A file's path: a plain string, a :class:`~pathlib.Path`, or anything else ``os.fspath`` takes.
Adapters may pass strings where they have them: making a ``Path`` costs more per page than
the core's whole reading of an unchanged page."""


class WrittenFile(NamedTuple):
    """The file a page was written to, as :attr:`Page.html`: a plain string path that reads as
    a file, not as the page's text (which a bare ``str`` there is). ``open`` and ``os.fspath``
    take it as they take a ``Path``, at a tenth of the cost of making one."""

    path: str

    def __fspath__(self) -> str:
        return self.path


class WrittenText(NamedTuple):
    """A page's text (or its head, all that is read of it without the ``images`` option) as the
    host holds it in memory, and the file the host wrote it to, as :attr:`Page.html`. The text
    is read, not the file; what it says is kept for the file (:mod:`.page_reads`), so that a
    later build that does not write the page again (``mkdocs build --dirty``) need not read the
    file back."""

    text: str
    path: str


class Reason(str, enum.Enum):
    """Why a page stays out of the sitemap: the same words in every host's summary line."""

    NOT_FOUND_PAGE = "404 page"
    DRAFT = "draft"
    HIDDEN = "hidden"
    PRIVATE = "private"
    HOST_EXCLUDED = "excluded by the host"
    NOT_A_PAGE = "not a page"
    UNREADABLE = "unreadable"
    SEARCH_PAGE = "search page"
    GENERAL_INDEX = "general index"
    DOMAIN_INDEX = "domain index"
    NOINDEX = "noindex"
    REDIRECT_STUB = "redirect stub"
    CANONICAL_ELSEWHERE = "canonical elsewhere"
    BY_METADATA = "excluded by metadata"
    BY_CONFIG = "excluded by config"
    BY_RULE = "excluded by rule"
    BAD_URL = "bad URL"


# LeftOut and Article are named tuples rather than frozen dataclasses, as immutable and a
# quarter of the cost to define: every build imports this module, and that time is most of what
# the package adds to a small site's build.
class LeftOut(NamedTuple):
    """A file the host wrote that is no page of the sitemap, for the reason the host knows.

    ``path`` is where the host serves it, in the form of :attr:`Page.path` (``encoded`` as
    there), when it is served at all (a private or ``noindex`` page): the core then keeps the
    page's language versions from naming it as an alternate (see :mod:`.alternates`).
    """

    reason: Reason
    origin: str = ""
    path: str | None = None
    encoded: bool = True


class Article(NamedTuple):
    """What a host knows of a page that is a dated article (a Pelican article, a Material blog
    post), for the news sitemap: values raw, as the host holds them; the core checks them.

    ``published`` is the date the author gave the article (never one the host filled in by
    default), ``title`` its title as the host holds it (HTML, such as ``Fresh &amp; new``),
    ``language`` its own language where the host knows it (a translation's), else None and the
    ``news`` option's language applies.
    """

    published: object
    title: object
    language: str | None = None


# Not frozen: a frozen dataclass sets each of the 15 fields through object.__setattr__, three
# times what making a Page costs otherwise, and one is made per page, every build (a fifth of the
# Sphinx adapter's work at the end of an incremental build). Nothing changes a Page once made.
@dataclass(slots=True)
class Page:
    """What an adapter knows about one published page; the core decides everything else.

    ``path`` is the URL path as the host serves it, relative to the site root and without a leading
    slash (``""`` for the home page, ``"guide/"``, ``"guide/install.html"``). ``encoded`` says
    which form it has, and the core encodes it exactly once: ``True`` for a link the host already
    percent-encoded (MkDocs' ``file.url``, Sphinx's html links), where a ``%`` starts an escape;
    ``False`` for a path made from file names (Sphinx dirhtml, Pelican), where ``100%.html`` means
    a literal percent sign. The same holds for the paths of ``translations``.

    ``origin`` names the page in messages (the source file relative to the project, or the output
    file for generated pages), so that a warning tells the user where to look.

    ``sources`` are the files whose modification makes the page change: the page's own source first,
    then includes and other dependencies (each a :data:`FilePath`; one file named two ways is
    looked up twice, with the same answer). A generated page (index, tag, category, pagination) has
    none and instead carries ``listed_dates``: the dates (raw, as the host holds them) of the items
    it lists; the page then takes the newest. A listed item without a date of its own is given by
    its source files in ``listed_sources`` instead, which the core dates as it dates any source.
    A page with sources of its own may list items too (a blog's front page, which shows the newest
    posts): it is then as new as the newer of the two.

    ``listed_folders`` are the folders a listing's items come from (a blog's posts folder, a
    site's article paths; each a :data:`FilePath`): an item that left one (its file deleted, or
    renamed away) changed every listing that may have shown it, though nothing it lists now
    changed, so the listing is also as new as the last time a file left one of them. That
    date may be newer than the listing's last change (the file was not one it showed), never
    older, as its newest item's alone would be.

    ``sitemap`` is the page's own ``sitemap`` metadata as the author wrote it: a mapping with
    ``priority``, ``changefreq``, ``lastmod``, ``exclude``; ``False`` to leave the page out;
    ``None``; or JSON text of either, as MyST and field lists pass nested values. ``updated`` is
    the host's own explicit modification date (raw, as written), used when ``sitemap.lastmod`` is
    absent. The core validates both, and warns and drops what it cannot use.

    ``translations`` maps each language version of the page, itself included, to its path
    (``{"en": "guide/", "pt_BR": "pt-br/guide/"}``), and ``default_locale`` names the one for
    ``x-default``; the core writes the ``hreflang`` alternates from them.

    ``title`` is the page's title as the host shows it, as plain text (``Tom & Jerry``, not
    ``Tom &amp; Jerry``), for the page for humans (:mod:`~sitemap_plugins.core.human_page`),
    which escapes it once; the XML sitemap has no use for it. An adapter whose host holds titles
    as HTML converts them with :func:`~sitemap_plugins.core.html_text.html_text`.

    ``html`` is the page as rendered: its text (a ``str``), the file it was written to (a
    :class:`WrittenFile`, a ``Path`` or another path-like object), or both (a
    :class:`WrittenText`). The core reads
    its head for a robots ``noindex`` or a redirect, which themes and plugins add where no host
    API tells, and, with the ``images`` option, its body for the images of its main content.

    ``article`` is set for a page the host knows as a dated article (see :class:`Article`),
    which the ``news`` option lists while it is recent.

    ``query`` is the text after ``?`` in a URL that names a page with a query string
    (``search?q=x&page=2``), encoded as ``path`` is. Only a URL list has such pages: a page a
    host writes to a file has none, and a ``?`` in a file's name is part of its name.
    """

    path: str
    origin: str
    sources: tuple[FilePath, ...] = ()
    sitemap: object = None
    updated: object = None
    translations: Mapping[str, str] = field(default_factory=dict)
    default_locale: str | None = None
    listed_dates: tuple[object, ...] = ()
    listed_sources: tuple[FilePath, ...] = ()
    listed_folders: tuple[FilePath, ...] = ()
    html: str | WrittenText | os.PathLike[str] | None = None
    encoded: bool = True
    article: Article | None = None
    title: str | None = None
    query: str = ""

    def __post_init__(self) -> None:
        sitemap = self.sitemap
        if isinstance(sitemap, Mapping) and not isinstance(sitemap, MappingProxyType):
            self.sitemap = MappingProxyType(dict(sitemap))
        translations = self.translations
        if not isinstance(translations, MappingProxyType):
            self.translations = MappingProxyType(dict(translations)) if translations else EMPTY


EMPTY: Final[Mapping[str, Any]] = MappingProxyType({})
"""An empty, read-only mapping: most pages' translations, metadata and front matter for the
sitemap, one shared value rather than a new one per page."""


class Video(NamedTuple):
    """One ``<video:video>`` (video sitemap 1.1), every value checked; URLs absolute and encoded,
    texts not yet XML-escaped. Only the tags Google still reads are kept (see
    :mod:`~sitemap_plugins.core.video`).

    ``restriction`` and ``platform`` are ``(relationship, values)``: ``("allow", ("IE", "GB"))``.
    """

    thumbnail_loc: str
    title: str
    description: str
    content_loc: str | None = None
    player_loc: str | None = None
    duration: int | None = None
    expiration_date: Lastmod | None = None
    rating: float | None = None
    view_count: int | None = None
    publication_date: Lastmod | None = None
    tags: tuple[str, ...] = ()
    family_friendly: bool | None = None
    restriction: tuple[str, tuple[str, ...]] | None = None
    requires_subscription: bool | None = None
    uploader: str | None = None
    uploader_info: str | None = None
    platform: tuple[str, tuple[str, ...]] | None = None
    live: bool | None = None


class News(NamedTuple):
    """One ``<news:news>`` (news sitemap 0.9): the publication, the article's date and title."""

    name: str
    language: str
    publication_date: Lastmod
    title: str


class Entry(NamedTuple):
    """One validated ``<url>``: every field is already known to be protocol-valid.

    ``loc`` and the alternate URLs are absolute and percent-encoded but not XML-escaped; the
    renderer escapes. ``images`` holds absolute image URLs (image sitemap 1.1), ``videos`` the
    page's videos (video sitemap 1.1); ``news`` is set only on the entries of the news sitemap.
    A named tuple rather than a frozen dataclass: as immutable, and twice as cheap to make,
    which counts when a site streams a million of them.
    """

    loc: str
    lastmod: Lastmod | None = None
    changefreq: str | None = None
    priority: float | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    images: tuple[str, ...] = ()
    videos: tuple[Video, ...] = ()
    news: News | None = None


class IndexEntry(NamedTuple):
    """One ``<sitemap>`` child of a sitemap index."""

    loc: str
    lastmod: Lastmod | None = None
