"""A built site, page by page: what ``generate`` tells the core about each HTML file.

Any generator's output is a folder of HTML files. Each is served at a URL (``guide/index.html``
at ``guide/``, unless the server does not strip ``index.html``), and says in its head what no
other place tells: a robots ``noindex``, a redirect stub, a canonical URL elsewhere, a date the
page declares. Its lastmod then comes, in the core's order, from that declared date, else from
the git date of its source (found by a layout in a source folder), else from the git date of
the HTML file itself when the built site is committed (a GitHub Pages branch).

The walk is a generator over a sorted folder tree, so a site is never held in memory whole; a
site larger than what ``generate`` holds is walked a second time (see :mod:`.run`).
"""

from __future__ import annotations

import os
import posixpath
import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urljoin, urlsplit

from sitemap_plugins.core.html import HeadScan, read_head, scan_head
from sitemap_plugins.core.model import LeftOut, Page, Reason
from sitemap_plugins.core.urls import (
    encode_path,
    is_not_found_file,
    join_url,
    quote_file_path,
    web_origin,
)
from sitemap_plugins.generate.blog import View
from sitemap_plugins.generate.build_tops import BuildTops
from sitemap_plugins.generate.file_checks import is_file
from sitemap_plugins.generate.front_matter import Problem, read_front_matter
from sitemap_plugins.generate.generator_pages import GeneratorPages
from sitemap_plugins.generate.layouts import SourceFinder

__all__ = ["HTML_SUFFIXES", "BuiltFile", "SiteReader", "served_path", "walk_site"]

HTML_SUFFIXES: Final = (".html", ".htm")
_PAGE_MARKERS: Final = re.compile(r"<(?:!doctype\s+html|html|head|title|meta|body)\b", re.I)
_OFFSET: Final = re.compile(r"(?<=\d) ?([+-]\d{2}):?(\d{2})$")
_EXCERPT: Final = "md-post--excerpt"
_EXCERPTS: Final = re.compile(
    r"<article\b[^>]*\bmd-post--excerpt\b[^>]*>(.*?)</article\s*>", re.IGNORECASE | re.DOTALL
)
"""A post's excerpt in a Material or Zensical blog view (index, archive, category, page 2...)."""
_HREF: Final = re.compile(r"<a\b[^>]*?\bhref=[\"']([^\"'#]+)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BuiltFile:
    """One HTML file of the built site: its path relative to the site (posix) and on disk."""

    relpath: str
    path: Path


def walk_site(
    site_dir: Path, unreadable: Callable[[str, OSError], None] | None = None
) -> Iterator[BuiltFile]:
    """Every HTML file under ``site_dir``, in sorted order, one folder listing at a time.

    Names starting with a dot (``.git``, ``.well-known``, our own record) are skipped, and links
    to folders are not followed (a link back up would never end). A folder that cannot be
    listed, or an HTML file that cannot be looked at (a link that loops), is handed to
    ``unreadable`` with its path relative to ``site_dir`` (a folder's ending in ``/``, the
    site's own ``""``): its pages cannot be listed, and the user must hear of it.
    """
    stack: list[tuple[str, Path]] = [("", site_dir)]
    while stack:
        prefix, folder = stack.pop()
        try:
            with os.scandir(folder) as scan:
                entries = sorted(scan, key=lambda entry: entry.name)
        except OSError as error:
            if unreadable is not None:
                unreadable(prefix, error)
            continue
        folders: list[tuple[str, Path]] = []
        for entry in entries:
            if entry.name.startswith("."):
                continue
            relpath = prefix + entry.name
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append((relpath + "/", Path(entry.path)))
                elif entry.name.lower().endswith(HTML_SUFFIXES) and entry.is_file():
                    yield BuiltFile(relpath, Path(entry.path))
            except OSError as error:
                if unreadable is not None:
                    unreadable(relpath, error)
        stack.extend(reversed(folders))


def served_path(relpath: str, *, keep_index: bool = False) -> str:
    """The URL path a file is served at: ``guide/index.html`` is ``guide/`` (and ``index.html``
    is the home page, ``""``), unless the server does not strip ``index.html``."""
    if keep_index:
        return relpath
    folder, name = posixpath.split(relpath)
    if name.lower() in ("index.html", "index.htm"):
        return folder + "/" if folder else ""
    return relpath


class SiteReader:
    """Turns each built file into a :class:`Page` (or a :class:`LeftOut`) for the core.

    ``finder`` finds a page's source by a layout; without one, or for a page it finds nothing
    for, the HTML file itself is the page's only file (``html_sources`` records which, since a
    built file is dated by git only: its file time is the build's). ``label`` is how messages
    name the site folder. With ``images`` (the option), each page hands its file to the core,
    which reads it whole for the images of its main content; without, only heads are read.
    A source the finder found gives the page its ``sitemap`` front matter, merged over its
    folders' defaults by ``folder_sitemap`` where the host has them (see :mod:`.folder_meta`);
    ``warn`` is told what in it cannot be read, naming the source as ``show`` shows paths. The
    ``hreflang`` links of a page's head give its language versions. A built file or folder
    that cannot be read is told to ``warn_unreadable`` (see :meth:`unreadable`).
    ``generator_pages`` leaves out the pages of the generator's own that its plugin leaves out
    (see :mod:`.generator_pages`); ``build_tops`` are folders known for a build's top, whose
    404 page is none (see :mod:`.build_tops`). A page whose canonical link names its file
    (``x/index.html``) is listed so; not in a Sphinx ``dirhtml`` build (``in_dirhtml_build``
    says which built files are: the site's, or a language's or version's folder of it), whose
    links in Sphinx 7.0 to 8.0 name ``x.html`` (Sphinx issue 9730), ``index.html`` for the
    home page; an ``x.html`` the site does not hold is taken for the page itself (see
    :meth:`_names_its_html_url`).
    """

    def __init__(
        self,
        site_dir: Path,
        base_url: str,
        *,
        finder: SourceFinder | None = None,
        keep_index: bool = False,
        label: str | None = None,
        images: bool = False,
        warn: Callable[[str], None] | None = None,
        show: Callable[[Path], str] = str,
        read_in: Callable[[Path], tuple[Path, ...]] | None = None,
        folder_sitemap: Callable[[Path, object], object] | None = None,
        warn_unreadable: Callable[[str], None] | None = None,
        generator_pages: GeneratorPages | None = None,
        in_dirhtml_build: Callable[[str], bool] | None = None,
        build_tops: Iterable[str] = (),
    ) -> None:
        self.site_dir = site_dir
        self.in_dirhtml_build = in_dirhtml_build
        self.tops = BuildTops(site_dir, build_tops)
        """The folders a build was written to, whose 404 page is none (see :mod:`.build_tops`)."""
        self.generator_pages = generator_pages
        self.warn_unreadable = warn_unreadable
        self.read_in = read_in
        self.folder_sitemap = folder_sitemap
        self.base_url = base_url
        self.finder = finder
        self.keep_index = keep_index
        self.label = label if label is not None else str(site_dir)
        self.images = images
        self.warn = warn
        self.show = show
        self._source_label: str | None = None
        """The source folder as :meth:`_source_origin` names it, once asked."""
        self.foreign_canonicals: Counter[str] = Counter()
        """Pages left out for a canonical URL on another origin, by that origin."""
        self.outside_canonicals = 0
        """Pages left out for a canonical URL on the base URL's site but outside its folder."""
        self.outside_canonical: str | None = None
        """The first such canonical URL, for the message to show where the links point."""
        self._base_path = _normal(base_url)[1]
        self.foreign_alternates: Counter[str] = Counter()
        """Language versions on another origin, left out of their pages' alternates, by origin."""
        self._views: dict[View, tuple[object, ...]] = {}  # each blog view's posts' dates
        self.langless_alternates = 0
        """Pages whose hreflang links name other versions but not the page itself, and whose
        ``<html lang>`` is missing: with no language to add the page under, no alternates (each
        version must name itself)."""
        self.langless_example: str | None = None
        """The first such page's built file, for the message to name."""
        self.own_language_elsewhere = 0
        """Pages whose hreflang link for their own ``<html lang>`` names another URL, as a
        language selector's links to each language's home page do (Material's
        ``extra.alternate``): the links are no versions of the page, so no alternates."""
        self.own_language_example: tuple[str, str, str] | None = None
        """The first such page's built file, its ``lang`` and the URL its link points to."""

    def source_of(self, file: BuiltFile) -> tuple[Path, bool]:
        """The file that dates the page, and whether it is the built HTML file itself."""
        if self.finder is not None:
            found = self.finder.find(file.relpath)
            if found is not None:
                return found, False
        return file.path, True

    def sources(self, found: Path, is_built: bool) -> tuple[Path, ...]:
        """The files that date a page whose source is ``found``: itself, and the files it reads
        in (``read_in``, see :mod:`.snippets`) when it is a source, not the built file."""
        if is_built or self.read_in is None:
            return (found,)
        return (found, *self.read_in(found))

    def page(self, file: BuiltFile, *, source: tuple[Path, bool] | None = None) -> Page | LeftOut:
        """What the built file is: a page with its source, declared date and front matter, or
        why not. ``source`` is what :meth:`source_of` gave for it, when the caller asked
        already."""
        origin = self._origin(file)
        if is_not_found_file(file.relpath, lambda folder: self.tops.holds(folder, file.path)):
            return LeftOut(Reason.NOT_FOUND_PAGE, origin)  # at the top of a build's folder
        reason = self.generator_pages(file.relpath) if self.generator_pages else None
        if reason is not None:
            path = served_path(file.relpath, keep_index=self.keep_index)
            return LeftOut(reason, origin, *_linked_path(path))
        try:
            head = read_head(file.path)
        except OSError as error:
            self.unreadable(file.relpath, error)
            return LeftOut(Reason.UNREADABLE, origin)
        if not _PAGE_MARKERS.search(head[:4096]):
            return LeftOut(Reason.NOT_A_PAGE, origin)  # a verification token, a fragment
        if self.finder is not None and self.finder.copied_as_is(file.relpath):
            return LeftOut(Reason.NOT_A_PAGE, origin)  # a static file MkDocs copied, no page
        scan = scan_head(head)
        path = served_path(file.relpath, keep_index=self.keep_index)
        if scan.reason is not None:
            # Where it is served goes with it: no other page may name it as an alternate.
            return LeftOut(scan.reason, origin, *_linked_path(path))
        if scan.canonical is not None:
            if not self._is_canonical(path, scan.canonical) and not self._names_its_html_url(
                file, path, scan.canonical
            ):
                return LeftOut(Reason.CANONICAL_ELSEWHERE, origin, *_linked_path(path))
            if (
                path != file.relpath
                and self._names_its_file(path, scan.canonical, file.relpath)
                and (self.in_dirhtml_build is None or not self.in_dirhtml_build(file.relpath))
            ):
                path = file.relpath  # Sphinx's html builder: the page names itself index.html
        found, is_built = self.source_of(file) if source is None else source
        if not is_built:
            origin = self._source_origin(found)
        sitemap = declared = None
        listed: tuple[object, ...] = ()
        folders: tuple[Path, ...] = ()  # where the posts a blog view lists come from
        if not is_built:
            front, problems = read_front_matter(found)
            if front is not None:
                sitemap, problems = front.sitemap(
                    any_case=self.finder is not None and self.finder.any_case
                )
                if self.finder is not None:
                    declared = self.finder.declared_date(found, front)
            self._report(found, problems)
            if self.folder_sitemap is not None:
                sitemap = self.folder_sitemap(found, sitemap)
            if self.finder is not None and self.finder.blog_index(found):
                listed = self._listed_posts(file)  # the blog's own page: its newest posts too
                folders = self._posts_folder(file)
        elif self.finder is not None and self.finder.layout in ("mkdocs", "zensical"):
            listed = self._listed_posts(file)  # a blog's archive or category page
            folders = self._posts_folder(file) if listed else ()
        in_head = _declared(scan.modified)
        translations, default = (
            self._translations(path, scan, file) if scan.alternates else ({}, None)
        )
        path, translations, encoded = _as_linked(path, translations)
        return Page(
            path=path,
            origin=origin,
            # A view without a source is as new as its newest post; the blog's own page, as
            # the newer of its source and its newest post, as the core dates such a page.
            sources=() if is_built and listed else self.sources(found, is_built),
            listed_dates=listed,
            listed_folders=folders,
            sitemap=sitemap,
            updated=in_head if in_head is not None else _declared(declared),
            translations=translations,
            default_locale=default,
            encoded=encoded,
            html=file.path if self.images else None,
            title=scan.title,
        )

    def unreadable(self, relpath: str, error: OSError) -> None:
        """Say that the built file or folder at ``relpath`` (see :func:`walk_site`) cannot be
        read, and why: a page or folder a user cannot read (a site built by another user, files
        of mode 0600) would otherwise be left out unseen, or taken for a file that is no page."""
        if self.warn_unreadable is None:
            return
        where = posixpath.join(self.label.replace(os.sep, "/"), relpath)
        why = error.strerror or str(error)
        if not relpath or relpath.endswith("/"):
            self.warn_unreadable(f"{where}: cannot read the folder ({why}); its pages are left out")
        else:
            self.warn_unreadable(f"{where}: cannot read it ({why}); left out")

    def _posts_folder(self, file: BuiltFile) -> tuple[Path, ...]:
        """The posts folder of the blog whose view ``file`` is, as the core is told of a
        listing's folders: a post deleted there left the view, as the MkDocs plugin dates it."""
        folder = self.finder.posts_folder(file.relpath) if self.finder is not None else None
        return () if folder is None else (folder,)

    def _listed_posts(self, file: BuiltFile) -> tuple[object, ...]:
        """The dates of the posts of the Material or Zensical blog view that the page belongs
        to (the blog's own page and its later pages, an archive's or a category's page): the
        post excerpts of all the view's pages, as the MkDocs plugin dates each page of a view
        by the newest post of the whole view. Each view's pages are read once, when the first
        of them is met."""
        view = View.of(file.relpath)
        known = self._views.get(view)
        if known is not None:
            return known
        try:
            text = file.path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return ()
        if self.finder is None or _EXCERPT not in text:
            return ()  # no blog view
        dates: list[object] = []
        for relpath in view.pages(lambda relpath: is_file(self.site_dir / relpath)):
            dates += self._excerpt_dates(relpath, text if relpath == file.relpath else None)
        self._views[view] = listed = tuple(dates)
        return listed

    def _excerpt_dates(self, relpath: str, text: str | None) -> tuple[object, ...]:
        """The own dates of the posts whose excerpts the built page at ``relpath`` (with the
        ``text`` when read already) shows, each as the post's own page is dated. (A post always
        has a date: the blog plugin makes its URL from it, and a post is found by its URL.)"""
        finder = self.finder
        if finder is None:
            return ()
        if text is None:
            try:
                text = (self.site_dir / relpath).read_text(encoding="utf-8", errors="replace")
            except OSError:
                return ()
        own = join_url(
            self.base_url, served_path(relpath, keep_index=self.keep_index), encoded=False
        )
        base = urlsplit(self.base_url).path
        dates: list[object] = []
        for excerpt in _EXCERPTS.findall(text):
            for href in _HREF.findall(excerpt):  # a category link may come before the post's
                linked = unquote(urlsplit(urljoin(own, href)).path)
                if not linked.startswith(base):
                    continue
                post = linked[len(base) :]
                date = finder.post_date(post + "index.html" if linked.endswith("/") else post)
                if date is not None:
                    dates.append(_declared(date))
                    break
        return tuple(dates)

    def _translations(
        self, path: str, scan: HeadScan, file: BuiltFile
    ) -> tuple[dict[str, str], str | None]:
        """The page's language versions, from its ``hreflang`` links, as paths from the base
        URL's folder (``../de/x/`` for a sibling folder), and which one ``x-default`` names.

        A version on another origin cannot be written as such a path and is left out (counted);
        the page itself is added under its ``<html lang>`` when its links leave it out, as some
        themes do. Where it has no ``lang``, or its links name another URL in that language,
        the page has no alternates, and each case is counted with the first page it met, for
        the message to say which holds. The core checks the language tags, as for the plugins.
        """
        own = join_url(self.base_url, path, encoded=False)
        mine, base = _normal(own), _normal(self.base_url)
        versions: dict[str, str] = {}
        listed: dict[tuple[str, str, str], str] = {}  # a version's URL -> its hreflang
        linked_urls: dict[str, str] = {}  # a version's hreflang -> its URL, as linked
        default_url = None
        for hreflang, href in scan.alternates:
            try:
                url = urljoin(own, href)
                target = _normal(url)
            except ValueError:
                continue  # an unreadable link says nothing
            if target[2]:
                continue  # a query string: no page of the site
            if hreflang.lower() == "x-default":
                default_url = default_url or target
            elif target[0] != base[0]:
                self.foreign_alternates[target[0]] += 1
            elif hreflang not in versions:
                linked = unquote(urlsplit(url).path or "/")  # as linked: x/ or x/index.html
                relative = posixpath.relpath(linked, unquote(base[1]))
                if linked.endswith("/"):
                    versions[hreflang] = relative + "/"
                else:  # x/index.html is listed as x/: its alternates name it so too
                    versions[hreflang] = served_path(relative, keep_index=self.keep_index)
                listed.setdefault(target, hreflang)
                linked_urls[hreflang] = url
        if mine not in listed and versions:
            if scan.lang is None:
                self.langless_alternates += 1
                self.langless_example = self.langless_example or self._origin(file)
                return {}, None
            if scan.lang in versions:
                self.own_language_elsewhere += 1
                if self.own_language_example is None:
                    elsewhere = linked_urls[scan.lang]
                    self.own_language_example = (self._origin(file), scan.lang, elsewhere)
                return {}, None
            versions[scan.lang] = path
            listed[mine] = scan.lang
        default = listed.get(default_url) if default_url is not None else None
        return versions, default

    def _report(self, source: Path, problems: list[Problem]) -> None:
        for line, problem in problems:
            if self.warn is not None:
                where = self.show(source) if line is None else f"{self.show(source)}:{line}"
                self.warn(f"{where}: {problem}")

    def _origin(self, file: BuiltFile) -> str:
        return posixpath.join(self.label.replace(os.sep, "/"), file.relpath)

    def _source_origin(self, found: Path) -> str:
        """How a page whose source the layout found is named: by that source, as the plugins
        name a page (the MkDocs plugin ``docs/guide/install.md``), relative to the current
        folder as messages show paths. ``exclude`` and ``rules`` globs match it beside the
        served path, so globs written against source files keep their meaning here."""
        finder = self.finder
        if finder is not None:
            try:
                inside = found.relative_to(finder.source_dir).as_posix()
            except ValueError:
                pass  # not below the source folder: named as any other path
            else:
                if self._source_label is None:
                    self._source_label = self.show(finder.source_dir).replace(os.sep, "/")
                return posixpath.normpath(posixpath.join(self._source_label, inside))
        return posixpath.normpath(self.show(found).replace(os.sep, "/"))

    def _names_its_file(self, path: str, canonical: str, relpath: str) -> bool:
        """Whether the canonical link of the page served at ``path`` names its file
        (``x/index.html``, as Sphinx's html builder and its plugin write it) rather than its
        folder (``x/``, as MkDocs and Zensical do): the sitemap then lists it so."""
        try:
            own = join_url(self.base_url, path, encoded=False)
            target = unquote(urlsplit(urljoin(own, canonical.strip())).path)
        except ValueError:
            return False
        return posixpath.basename(target).lower() == posixpath.basename(relpath).lower()

    def _names_its_html_url(self, file: BuiltFile, path: str, canonical: str) -> bool:
        """Whether the canonical link of ``P/index.html`` names ``P.html`` under the base URL
        where that link is Sphinx issue 9730: Sphinx 7.0 to 8.0 write it for every page of a
        ``dirhtml`` build, the ``html`` builder's URL, whatever the site holds there (nothing,
        or a redirect stub left from the site's ``html`` days). The page is then its own
        canonical, as the extension lists it. Outside a Sphinx ``dirhtml`` build only a link to
        a ``P.html`` the site does not hold is taken so; one that exists is another page.

        Sphinx joins ``html_baseurl`` and the document's name as they are: a name holding ``#``
        or ``?`` is not escaped, and no URL parser reads that link as a path. It is compared as
        Sphinx wrote it too.
        """
        folder, _, name = file.relpath.rpartition("/")
        if not folder or name != "index.html":
            return False
        link = canonical.strip()
        written = folder + ".html"
        try:
            own = join_url(self.base_url, path, encoded=False)
            html_url = _normal(join_url(self.base_url, written, encoded=False))
            names_it = _normal(urljoin(own, link)) == html_url or (
                link.endswith("/" + written)
                and _normal(link[: -len(written)]) == _normal(self.base_url)
            )
        except ValueError:
            return False
        if not names_it:
            return False
        if self.in_dirhtml_build is not None and self.in_dirhtml_build(file.relpath):
            return True
        return not os.path.lexists(file.path.parent.parent / (file.path.parent.name + ".html"))

    def _is_canonical(self, path: str, canonical: str) -> bool:
        """Whether the page's canonical link names the page's own URL.

        A relative link is read against the page's URL; ``x/`` and ``x/index.html`` are one
        page, and percent-encoding differences do not count, nor does a link naming the page's
        URL unescaped.
        """
        link = canonical.strip()
        try:
            own = join_url(self.base_url, path, encoded=False)
            # What most generators write, and what Sphinx writes for a name holding "#" or
            # "?": the URL unescaped, which no parser reads as this path.
            if link in (own, unquote(own)):
                return True
            target = urljoin(own, link)
        except ValueError:
            return True  # an unreadable link says nothing; the page stays
        mine, theirs = _normal(own), _normal(target)
        if mine == theirs:
            return True
        if mine[0] != theirs[0]:
            self.foreign_canonicals[theirs[0]] += 1
        elif not theirs[1].startswith(self._base_path):
            # A base URL deeper than the site's (a folder too many, a page's index.html
            # taken for a folder): every page points above it, and the user must see why.
            self.outside_canonicals += 1
            self.outside_canonical = self.outside_canonical or target
        return False


def _as_linked(path: str, translations: dict[str, str]) -> tuple[str, dict[str, str], bool]:
    """A page's path and its versions' paths spelled as the MkDocs plugin spells them (see
    :func:`~sitemap_plugins.core.urls.quote_file_path`), so that ``generate`` and the plugin
    write the same URL for the same file; and whether they are encoded. A name with no UTF-8
    form stays raw, for the core to name it and leave the page out."""
    try:
        quoted = {lang: quote_file_path(other) for lang, other in translations.items()}
        return quote_file_path(path), quoted, True
    except ValueError:
        return path, translations, False


def _linked_path(path: str) -> tuple[str, bool]:
    """A left-out page's path as :func:`_as_linked` spells a listed one's, and whether it is
    encoded: the alternates naming it are spelled the same way."""
    spelled, _, encoded = _as_linked(path, {})
    return spelled, encoded


def _normal(url: str) -> tuple[str, str, str]:
    """A URL as pages are compared: its origin as every "same site?" question compares it (see
    :func:`~sitemap_plugins.core.urls.web_origin`: ``https://bücher.example:443`` is
    ``https://xn--bcher-kva.example``, the base URL's own spelling), its path decoded and
    encoded again (so escapes do not count) without a final ``index.html``, and its query."""
    parts = urlsplit(url)
    try:
        path = encode_path(unquote(parts.path or "/"), encoded=False)
    except ValueError:
        path = parts.path
    for index in ("index.html", "index.htm"):
        if path.endswith("/" + index):
            path = path[: -len(index)]
    return web_origin(parts.scheme, parts.netloc), path, parts.query


def _declared(value: object) -> object:
    """A date as pages and sources declare it, made readable: an offset written ``+0000`` (Open
    Graph tags often have it) or after a space (Jekyll's ``2024-03-15 10:00:00 -0500``) becomes
    ``+00:00``; the core reads and checks the rest, and values TOML has already read."""
    if not isinstance(value, str):
        return value
    text = value.strip()
    if "T" in text or " " in text:
        text = _OFFSET.sub(r"\1:\2", text)
    return text or None
