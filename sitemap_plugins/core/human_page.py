"""The sitemap for people (the ``html_page`` option): the site's pages by section, as HTML.

A crawler reads ``sitemap.xml``; a visitor looking for a page wants a page of links. Styling the
XML with XSLT is no answer any more, as browsers are switching XSLT off, so the same list is
written as HTML: the pages the XML sitemap lists (no others, so both always agree), grouped by
the first folder of their URL, each with its title and the lastmod the sitemap carries, shown as
a day inside ``<time datetime>``.

The core owns the list and its order (:func:`listing`), the fragment that goes into a page
(:meth:`Listing.body`), and a complete plain page (:meth:`Listing.document`) with ``lang``, one
``<main>``, a heading per section and a list of links, for where no theme can frame it. Adapters
put the fragment into their host's theme where the host allows, and write the plain page
otherwise (:func:`write_html_page`).

Links are relative to the page itself, so it also works on a local preview (``mkdocs serve``, a
folder opened in the browser), and the page is not listed in the XML sitemap: it repeats what
the sitemap says, and its links are there for any crawler that finds it.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import glob
import html
import os
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final, NamedTuple
from urllib.parse import unquote

from sitemap_plugins.core.dates import format_lastmod, utc_day
from sitemap_plugins.core.file_modes import keep_mode
from sitemap_plugins.core.model import Lastmod
from sitemap_plugins.core.report import PublishError

__all__ = [
    "HTML_PAGE_NAME",
    "Listed",
    "Listing",
    "Section",
    "holds_a_listing",
    "html_page_relpath",
    "listing",
    "write_html_page",
]

HTML_PAGE_NAME: Final = "sitemap.html"
"""The page's file name, in the folder of the XML sitemap (whose scope it shares)."""
PAGE_TITLE: Final = "Sitemap"
CONTAINER_ID: Final = "sitemap-pages"
"""The ``id`` of the element that holds the listing, in themed and plain pages alike, so that
styles, scripts and tests can find it."""
_INDEX_NAMES: Final = ("", "index.html", "index.htm")


class Listed(NamedTuple):
    """One page of the listing: its sitemap URL, its title (plain text, escaped when written),
    its lastmod as the sitemap has it."""

    loc: str
    title: str | None
    lastmod: Lastmod | None


@dataclass(frozen=True, slots=True)
class Section:
    """A first-level folder of the site (``""`` for pages at the top), with its pages in order."""

    folder: str
    title: str
    pages: tuple[tuple[str, Listed], ...]
    """Each page with its path relative to the sitemap's folder, in display order."""


@dataclass(frozen=True, slots=True)
class Listing:
    """Everything the page shows, and where it goes.

    ``relpath`` is the page's file relative to the output folder (``sitemap.html``, or
    ``docs/sitemap.html`` beside ``docs/sitemap.xml``); links in :meth:`body` are relative to it.
    """

    relpath: str
    sections: tuple[Section, ...]
    lastmod_style: str

    @property
    def count(self) -> int:
        return sum(len(section.pages) for section in self.sections)

    def headings(self) -> list[tuple[str, str]]:
        """Each section's heading as (``id``, plain text), for a host's table of contents
        (which escapes it where the host takes HTML)."""
        return [(_heading_id(n), section.title) for n, section in enumerate(self.sections)]

    def body(self, *, up: str = "") -> str:
        """The listing as an HTML fragment: a heading and a list of links per section.

        ``up`` goes before every link, for a host that serves the page one folder deeper than
        :attr:`relpath` (Sphinx ``dirhtml`` writes ``sitemap/index.html``: ``up="../"``).
        """
        parts = [f'<div id="{CONTAINER_ID}" class="sitemap-pages">\n']
        for number, section in enumerate(self.sections):
            heading = _heading_id(number)
            parts.append(
                f'<section aria-labelledby="{heading}">\n'
                f'<h2 id="{heading}">{html.escape(section.title)}</h2>\n<ul>\n'
            )
            for relative, page in section.pages:
                href = html.escape(_reference(up + relative), quote=True)
                title = html.escape(page.title or unquote(relative) or "/")
                parts.append(f'<li><a href="{href}">{title}</a>{self._date(page.lastmod)}</li>\n')
            parts.append("</ul>\n</section>\n")
        parts.append("</div>\n")
        return "".join(parts)

    def _date(self, lastmod: Lastmod | None) -> str:
        if lastmod is None:
            return ""
        # The day a reader sees is the day the sitemap states: its own offset, or with the
        # date style the UTC day it writes.
        if isinstance(lastmod, dt.datetime) and self.lastmod_style != "date":
            day = lastmod.date()
        else:
            day = utc_day(lastmod)
        stamp = format_lastmod(lastmod, self.lastmod_style)
        return f' <time datetime="{stamp}">{day.isoformat()}</time>'

    def document(self, *, lang: str = "en", site_name: str = "") -> str:
        """A complete, plain and accessible page, for where no theme frames the listing."""
        title = f"{PAGE_TITLE} · {site_name}" if site_name else PAGE_TITLE
        return (
            "<!DOCTYPE html>\n"
            f'<html lang="{html.escape(lang or "en", quote=True)}">\n<head>\n'
            '<meta charset="utf-8">\n'
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{html.escape(title)}</title>\n"
            "<style>body{font-family:system-ui,sans-serif;max-width:48rem;margin:2rem auto;"
            "padding:0 1rem;line-height:1.5}time{color:#555;margin-left:.5em}</style>\n"
            "</head>\n<body>\n<main>\n"
            f"<h1>{html.escape(title)}</h1>\n{self.body()}</main>\n</body>\n</html>\n"
        )


def listing(pages: Iterable[Listed], *, scope: str, sitemap_relpath: str, style: str) -> Listing:
    """Group the sitemap's pages by the first folder of their URL below ``scope``.

    ``scope`` is the folder URL of the XML sitemap, under which every listed URL lies. Pages at
    the top come first, then each folder in URL order; a folder holding only its own index page
    joins the top (a lone ``about/`` is a page, not a section). Within a section, its index page
    first, then by URL. A section is named after its index page's title, else its folder name.
    """
    folders: dict[str, list[tuple[str, Listed]]] = {}
    for page in pages:
        relative = page.loc[len(scope) :] if page.loc.startswith(scope) else page.loc
        # A URL list's query may hold a "/" (``q?next=/a``): only the path has folders.
        folder, slash, _ = relative.partition("?")[0].partition("/")
        folders.setdefault(folder if slash else "", []).append((relative, page))
    top = folders.pop("", [])
    for folder in list(folders):
        members = folders[folder]
        if len(members) == 1 and _is_index(members[0][0], folder):
            top.extend(folders.pop(folder))
    sections: list[Section] = []
    if top:
        home = next((page for rel, page in top if rel in _INDEX_NAMES), None)
        sections.append(Section("", (home and home.title) or "Pages", _ordered(top, "")))
    for folder in sorted(folders):
        ordered = _ordered(folders[folder], folder)
        index = ordered[0][1] if _is_index(ordered[0][0], folder) else None
        name = (index and index.title) or unquote(folder).replace("-", " ").replace("_", " ")
        sections.append(Section(folder, name[:1].upper() + name[1:], ordered))
    return Listing(html_page_relpath(sitemap_relpath), tuple(sections), style)


def html_page_relpath(sitemap_relpath: str) -> str:
    """Where the page goes: ``sitemap.html`` in the folder of the sitemap (whose scope it has)."""
    directory = posixpath.dirname(sitemap_relpath)
    return posixpath.join(directory, HTML_PAGE_NAME) if directory else HTML_PAGE_NAME


def _heading_id(number: int) -> str:
    return f"sitemap-section-{number}"


def _is_index(relative: str, folder: str) -> bool:
    return relative[len(folder) + 1 :] in _INDEX_NAMES if folder else relative in _INDEX_NAMES


def _ordered(members: list[tuple[str, Listed]], folder: str) -> tuple[tuple[str, Listed], ...]:
    return tuple(sorted(members, key=lambda item: (not _is_index(item[0], folder), item[0])))


def _reference(link: str) -> str:
    """``link``, a path relative to the page's folder, as a reference that resolves to it:
    ``./`` before one that is empty, starts with a query (``?page=2`` alone would be this page's
    own query) or with a slash (an empty segment: ``/double`` would be the site's top), or holds
    a colon in its first segment (``Category:Foo`` would read as a URL of the scheme
    ``category``, RFC 3986 section 4.2)."""
    if not link or link.startswith(("?", "/")) or ":" in link.partition("/")[0].partition("?")[0]:
        return "./" + link
    return link


def holds_a_listing(path: Path) -> bool:
    """Whether the file at ``path`` is a page for humans this package wrote (themed or plain:
    both hold the listing's container), for a run that finds one no record names: a run killed
    after publishing it and before recording it left it so, and it is still ours to replace."""
    try:
        return f'<div id="{CONTAINER_ID}" '.encode() in path.read_bytes()
    except OSError:
        return False


def write_html_page(output_dir: Path, relpath: str, text: str, *, in_place: bool = False) -> Path:
    """Write the page whole or not at all, with the mode any page gets (the umask decides).

    Raises :class:`~.report.PublishError` naming the file when it cannot be written; the page
    that was there stays as it was. A build killed between writing and renaming leaves its
    temporary file (``.sitemap.html.<pid>.tmp``) in the served folder: the next one removes it,
    where it may.
    With ``in_place`` the page is written over where it stands, as the host writes its pages,
    because publishing then checked that file by the rule of a write, not of a rename (a
    writable file of another user's in a folder with the sticky bit can be written, not
    renamed over).
    """
    target = output_dir / relpath
    if in_place:
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(text.encode("utf-8"))
        except OSError as error:
            raise PublishError("write", target, error.strerror or str(error)) from None
        return target
    temp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        for left in target.parent.glob(f".{glob.escape(target.name)}.*.tmp"):
            if left.name[len(target.name) + 2 : -4].isdigit():
                # Another user's, in a folder with the sticky bit, may stay: it is written around.
                with contextlib.suppress(OSError):
                    left.unlink(missing_ok=True)
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
        with os.fdopen(os.open(temp, flags, 0o666), "wb") as stream:
            stream.write(text.encode("utf-8"))
        keep_mode(temp, target)
        temp.replace(target)
    except OSError as error:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise PublishError("write", target, error.strerror or str(error)) from None
    return target
