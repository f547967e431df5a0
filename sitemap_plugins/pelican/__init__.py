"""Pelican adapter: ``PLUGINS = ["sitemap_plugins.pelican"]`` in ``pelicanconf.py``.

Pelican tells a plugin about every file it renders through ``content_written(path, context)``,
with what the template was given: the article or page, the tag, category or author, and for a
listing its paginator page (``articles_page``). That signal is the one place where the pages of
other generators and plugins are seen too, so the adapter turns each rendered file into a core
:class:`~sitemap_plugins.core.Page` (or says why Pelican keeps it out) right there, and hands them
all to the core at ``finalized``. URLs are rebuilt as Pelican's templates link them
(:mod:`.urls`); dates are the author's, never ``DEFAULT_DATE``'s (:mod:`.dates`).

State: Pelican may import a plugin module more than once and ``--autoreload`` runs many builds in
one process, so the handlers are plain module-level functions and keep nothing in the module
but the time of the last registration (:data:`_registered_at`). A
:class:`_Site` lives in the settings of its Pelican instance (each run's context is a shallow copy
of them, which is how ``content_written`` finds it): the builder, and so the git walk, lasts as
long as the instance, and the files seen are reset at the start of every run. Pelican pickles
settings with its content cache, so the site pickles as an inert placeholder.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import logging
import os
import posixpath
import zoneinfo
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from pelican.plugins import signals

from sitemap_plugins.compat import pelican_sitemap
from sitemap_plugins.core import (
    Article,
    Code,
    LanguageSite,
    LeftOut,
    LoggingReporter,
    OptionError,
    Page,
    Reason,
    SitemapBuilder,
    SitemapError,
    StrictError,
    WrittenFile,
    collector_paused,
    folder_under,
)
from sitemap_plugins.core.html_text import html_text
from sitemap_plugins.core.paths import absolute_path
from sitemap_plugins.core.publish import LaterWrite, record_later_write
from sitemap_plugins.core.urls import is_not_found_file, language_names_folder
from sitemap_plugins.pelican import subsites
from sitemap_plugins.pelican.dates import AuthorDates
from sitemap_plugins.pelican.urls import SiteUrls, UrlSetting, clean, linked_path, served

if TYPE_CHECKING:  # the page for humans is imported by the builds that write it
    from sitemap_plugins.core.human_page import Listing

__all__ = ["SitemapPublishError", "SitemapStrictError", "register"]

logger = logging.getLogger(__name__)

_KEY: Final = "sitemap_plugins.pelican"
"""Where the :class:`_Site` sits in the settings; lower case, so never a template variable."""
_INCUMBENTS: Final = frozenset({"pelican.plugins.sitemap", "sitemap"})
_PAGE_SUFFIXES: Final = ("", ".html", ".htm", ".xhtml")
_CONTEXT_KEYS: Final = (
    *("article", "page", "articles_page", "tag", "category", "author", "page_name"),
    *("period_num", "dates", "articles"),
    *(f"{unit}_ARCHIVE_{what}" for unit in ("YEAR", "MONTH", "DAY") for what in ("SAVE_AS", "URL")),
)
"""What a description reads of a file's template context (:meth:`_Site._describe`,
:class:`.urls.SiteUrls`, :func:`_listing_title`)."""


class SitemapStrictError(RuntimeError):
    """Raised at the end of a build with ``strict`` on when the sitemap reported warnings."""


class SitemapPublishError(RuntimeError):
    """The sitemap could not be written; the previous one is left as it was.

    Pelican logs an exception that ends a build as one line, ``SitemapPublishError: <message>``,
    and exits with status 1.
    """


class _NoTraceback(logging.Filter):
    """Pelican 4.12 logs the exception that ends a build with its traceback; ours say all there
    is to say in their one line (the path and the cause, or the option, its value and what is
    allowed), so their record goes without it. Any other exception, a crash, keeps it."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, (SitemapPublishError, SitemapStrictError, OptionError)):
            record.exc_info = None
            record.exc_text = None
        return True


_registered_at: dt.datetime | None = None
"""When Pelican last registered this plugin, for the instance it is making: it registers every
plugin before any hears ``initialized``, where a plugin may write articles into the content
folder, so the first run of that instance began here (see :meth:`_Site.start_run`). The one
value the module keeps: the instance it is for does not exist yet."""


def register() -> None:
    """Pelican's plugin entry point."""
    global _registered_at  # see _registered_at
    _registered_at = dt.datetime.now(dt.timezone.utc)
    main_logger = logging.getLogger("pelican")  # where pelican's main() logs what ended a build
    if not any(isinstance(f, _NoTraceback) for f in main_logger.filters):
        main_logger.addFilter(_NoTraceback())
    signals.initialized.connect(_initialized)
    signals.get_generators.connect(_run_started)
    signals.content_written.connect(_content_written)
    signals.page_writer_finalized.connect(_page_writer_finalized)
    signals.static_generator_finalized.connect(_static_generator_finalized)
    signals.finalized.connect(_finalized)


def _initialized(pelican: Any) -> None:
    # An i18n_subsites subsite's settings are a copy of its main site's, ours included.
    main = pelican.settings.get(_KEY)
    site = _Site(pelican)
    pelican.settings[_KEY] = site
    if isinstance(main, _Site):
        site.join(main)


def _run_started(pelican: Any) -> None:
    site = pelican.settings.get(_KEY)
    if site is not None:
        site.start_run()


def _content_written(path: str, context: Mapping[str, Any] | None = None, **_: Any) -> None:
    site = (context or {}).get(_KEY)
    if site is not None:
        site.written(path, context)


def _page_writer_finalized(generator: Any, writer: Any = None, **_: Any) -> None:
    site = generator.settings.get(_KEY)
    if site is not None:
        site.page_writer = (generator, writer)


def _static_generator_finalized(generator: Any, **_: Any) -> None:
    site = generator.settings.get(_KEY)
    if site is not None:
        site.copying(getattr(generator, "staticfiles", ()))


def _finalized(pelican: Any) -> None:
    site = pelican.settings.get(_KEY)
    if site is not None:
        site.finish()


class _Site:
    """The sitemap of one Pelican instance: its settings, builder, and the current run's files."""

    def __init__(self, pelican: Any) -> None:
        settings = pelican.settings
        self.siteurl = str(settings.get("SITEURL") or "")
        self.output_path = Path(pelican.output_path).absolute()
        self.content_path = Path(settings.get("PATH") or ".").absolute()
        self.project = _project_folder(self.content_path, self.output_path)
        options, self.legacy = pelican_sitemap.translate(settings.get("SITEMAP"), self.project)
        self.project_prefix = _prefix(self.project)  # where origins are named from
        self.output_prefix = _prefix(self.output_path)  # where written files are
        self.default_lang = str(settings.get("DEFAULT_LANG") or "")
        self.template_pages = {
            str(dest): self.content_path / str(source)
            for source, dest in (settings.get("TEMPLATE_PAGES") or {}).items()
        }
        self.urls = SiteUrls(settings)
        self.article_folders = tuple(
            os.path.join(self.content_path, str(folder))  # noqa: PTH118
            for folder in settings.get("ARTICLE_PATHS") or [""]
        )
        """Where Pelican reads articles from: an article deleted there left the listings."""
        self.author_dates = AuthorDates(settings, self.content_path, _timezone(settings))
        names = {getattr(plugin, "__name__", str(plugin)) for plugin in pelican.plugins}
        self.incumbent = _incumbent_named(names)
        self.languages = (
            subsites.Languages.of(settings) if subsites.loaded(names, settings) else None
        )
        self.main: _Site | None = None  # the main site, for an i18n_subsites subsite
        self.folder = ""  # where this subsite is served under the main site
        self.builder = SitemapBuilder(
            options,
            LoggingReporter(logger),
            base_url_setting="SITEURL in the Pelican settings",
            cache_dir=_cache_dir(settings, self.project),
            naive_tz=_timezone(settings),
            rewrites_pages=True,
            source_folders=[self.content_path],
        )
        self.first_began = _registered_at
        """When the first run began: when Pelican registered the plugins, before it made this
        instance. Later runs (``--autoreload``) begin with themselves."""
        self.contexts: list[tuple[str, Mapping[str, Any]]] = []
        """Each file this run wrote, with the context Pelican wrote it with, in order."""
        self.done = False
        self.warned_settings: set[UrlSetting] = set()
        """The URL settings of listings said this run not to serve their files."""
        self.settings = settings
        self.page_writer: tuple[Any, Any] | None = None
        """Pelican's pages generator and writer of this run, for the page for humans."""
        self.statics: list[Any] = []
        """The static files this run copies: Pelican says nothing of them in
        ``content_written``. Where each goes is asked only once the run is over (see
        :class:`_HostFiles`)."""

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (dict, ())  # pickled with Pelican's content cache: nothing of ours is kept

    def __repr__(self) -> str:  # shown by ``pelican --print-settings``
        return f"<sitemap_plugins.pelican site writing to {self.output_path}>"

    def start_run(self) -> None:
        # A second call in one run (another copy of the module's handler) begins it at most
        # as early as the first: the builder keeps the earliest.
        began, self.first_began = self.first_began, None
        self.builder.start(self.content_path, began=began)
        self.contexts = []
        self.done = False
        self.warned_settings = set()
        self.page_writer = None
        self.statics = []
        self.author_dates.forget()
        if self.languages is not None:
            self.languages.finished = []

    def join(self, main: _Site) -> None:
        """Be one of ``main``'s i18n_subsites subsites: this language's pages go into its
        sitemap, and this subsite writes none of its own. Warnings count towards main's
        ``strict``, and the git walk is main's."""
        if main.languages is None or self.default_lang not in main.languages.subsites:
            return
        folder = folder_under(main.siteurl, self.siteurl)
        if folder is None and folder_under(main.siteurl, main.siteurl) is not None:
            main.builder.reporter.warning(
                Code.BAD_URL,
                f"i18n_subsites: the {self.default_lang!r} subsite's SITEURL {self.siteurl!r} "
                f"is not under the main SITEURL {main.siteurl!r}; it gets a sitemap of its own, "
                "in its folder, without the other languages",
            )
            # Its languages are main's still: the others' content it writes is a copy of
            # theirs, and neither its sitemap nor main's names a version in the other.
            main.languages.apart.add(self.default_lang)
            self.languages = main.languages
            return
        self.main, self.folder, self.builder = main, folder or "", main.builder
        self.languages = main.languages

    def copying(self, statics: Iterable[Any]) -> None:
        """The static files Pelican copies into the output this run: neither the sitemap nor
        the page for humans goes over one of them (a ``sitemap.xml`` of the site's own).

        Only kept here: asked for its ``save_as`` now, before the articles are written, a
        static file would count as linked to where it is, and an article's ``{attach}``
        could no longer move it next to the article (Pelican warns and leaves it)."""
        self.statics = list(statics)

    def written(self, path: str, context: Mapping[str, Any]) -> None:
        """Only kept here, not even its path made relative: described all at once when the run
        ends, where it costs a fraction of what it costs between two pages' rendering (whose
        work pushed ours out of the caches). Pelican gives each file its own context, and the
        contents stay as they are.

        Of the context, only the entries a description reads are kept: each context is a copy
        of all the settings, and keeping them all until the end held 14 MB more on a
        3,000-article site, for the collector to walk while Pelican writes."""
        if not self.done:  # after the sitemap (the page for humans): not a page it lists
            kept = {key: context[key] for key in _CONTEXT_KEYS if key in context}
            self.contexts.append((path, kept))

    def _written_here(self) -> dict[str, Mapping[str, Any]]:
        """The files written in the site's folder, by path from it: a file written twice is
        described by its last context."""
        found: dict[str, Mapping[str, Any]] = {}
        for path, context in self.contexts:
            rel = _under(path, self.output_prefix)
            if rel is not None:  # else written outside the site
                found[rel] = context
        return found

    def finish(self) -> None:
        """Write the sitemap once per run; an extra copy of the handler finds it done."""
        if self.done:
            return
        self.done = True
        with collector_paused():
            self._finish()

    def _finish(self) -> None:
        """The sitemap of this run, with the collector paused from the first description to
        the last file written, and every object made on the way freed before it resumes.

        Resumed in between (as it was), the collector made one more pass over Pelican's whole
        heap on its way out of the build, triggered by the descriptions still alive: 21 ms on
        1,000 pages, growing with the site.
        """
        here = self._written_here()
        described = {rel: self._describe(rel, context) for rel, context in here.items()}
        if self.main is not None and self.main.languages is not None:  # an i18n subsite
            own = LanguageSite(self.default_lang, self.folder, tuple(described.values()))
            self.main.languages.finished.append(own)
            self.contexts = []
            return
        if self.incumbent:
            self.builder.reporter.warning(
                Code.CONFLICT,
                f"pelican-sitemap is active too ({self.incumbent} in PLUGINS) and writes its own "
                "sitemap over the same file; remove it from PLUGINS",
            )
        written, self.contexts = list(described.values()), []
        if self.languages is not None and self.languages.main == self.default_lang:
            written = self.languages.join(written)  # the main site's, not one served apart
        page_for_humans = None
        if self.builder.options.html_page and self.page_writer is not None:
            from sitemap_plugins.core.human_page import html_page_relpath  # with html_page only

            # Pelican's writer writes a page over the file there (see _write_listing).
            relpath = html_page_relpath(self.builder.options.filename)
            page_for_humans = LaterWrite(relpath, in_place=True)
        try:
            summary = self.builder.build(
                written,
                self.output_path,
                host_base_urls=[("SITEURL", self.siteurl)],
                host_files=_HostFiles(self, described),
                page_for_humans=page_for_humans,
            )
        except StrictError as error:
            raise SitemapStrictError(
                f"sitemap: {error.warnings} warning(s) and SITEMAP['strict'] is on"
                + ("" if error.written else "; no sitemap written")
            ) from None
        except SitemapError as error:
            raise SitemapPublishError(f"sitemap: {error}") from None
        self.builder.reporter.info(summary.line())
        if summary.listing is not None:
            self._write_listing(summary.listing)

    def _write_listing(self, listing: Listing) -> None:
        """The page for humans through the theme's ``page`` template, as Pelican writes a page:
        a Pelican ``Page`` holding the listing, written by this run's writer with the context
        every page gets (menu, site name, styles). A theme without a page template gets the
        core's plain page. Written after the sitemap, so the sitemap does not list it.
        """
        text: str | None = None
        if self.page_writer is not None:
            generator, writer = self.page_writer
            try:
                self._write_themed(listing, generator, writer)
            except Exception as error:  # a theme's template may fail in any way
                logger.info(
                    "sitemap: %s written plain (the theme could not render it: %s)",
                    listing.relpath,
                    error,
                )
            else:
                self._record_listing(listing)
                return
        text = listing.document(
            lang=self.default_lang, site_name=str(self.settings.get("SITENAME") or "")
        )
        from sitemap_plugins.core.human_page import write_html_page  # with html_page only

        try:
            # Written over in place, as the themed page would be: the rule it was checked by.
            write_html_page(self.output_path, listing.relpath, text, in_place=True)
        except SitemapError as error:
            raise SitemapPublishError(f"sitemap: {error}") from None
        self._record_listing(listing)

    def _record_listing(self, listing: Listing) -> None:
        """Record the page for humans just written, so that a build with ``html_page`` off
        removes it: Pelican keeps its output folder by default."""
        try:
            record_later_write(self.output_path, listing.relpath)
        except SitemapError as error:
            raise SitemapPublishError(f"sitemap: {error}") from None

    def _write_themed(self, listing: Listing, generator: Any, writer: Any) -> None:
        from pelican.contents import Page as PelicanPage

        template = generator.get_template("page")
        page = PelicanPage(
            listing.body(),
            metadata={
                "title": "Sitemap",
                "slug": listing.relpath.removesuffix(".html"),
                "save_as": listing.relpath,
                "url": listing.relpath,
                "status": "hidden",
            },
            settings=self.settings,
            context=generator.context,
        )
        writer.write_file(
            listing.relpath,
            template,
            generator.context,
            page=page,
            relative_urls=self.settings.get("RELATIVE_URLS", False),
            override_output=True,
            url=listing.relpath,
        )

    def _describe(self, rel: str, context: Mapping[str, Any]) -> Page | LeftOut:
        """One written file, as the core needs it: Pelican's paths are file names, so a ``%``
        in them is a percent sign (``encoded=False``)."""
        if posixpath.splitext(rel)[1].lower() not in _PAGE_SUFFIXES:
            return LeftOut(Reason.NOT_A_PAGE, self._origin(self.output_path / rel))
        content = context.get("article") or context.get("page")
        # Not a page saved as pages/404.html; fr/404.html, a French page's (see the function).
        lang = getattr(content, "lang", None)
        language = lang if isinstance(lang, str) else None
        if is_not_found_file(rel, lambda folder: language_names_folder(language, folder)):
            return LeftOut(Reason.NOT_FOUND_PAGE, self._origin(self.output_path / rel))
        link = getattr(content, "url", None)  # a plugin may pass any "page" (a number, a name)
        if link is not None:
            # Its own file when its URL serves this file, or Pelican saved it here all the
            # same; save_as is asked only then, since each of the two formats Pelican's URL
            # settings anew (half the time Pelican takes to describe a page to us).
            url = str(link)
            found, serves = served(url, rel)
            if serves or getattr(content, "save_as", None) == rel:
                kind = "articles" if "article" in context else "pages"
                return self._content(rel, content, kind, url, (found, serves))
        origin = self._origin(self.output_path / rel)  # not a content: named by its file
        if self.urls.is_search(rel, context):
            return LeftOut(Reason.SEARCH_PAGE, origin)
        # Pelican's URL of it is a link, as it writes it into href (TAG_URL = "my%20tags/..."
        # is one escape, CATEGORY_URL = "café/" none), and names this file only as it reads
        # decoded once: listed as names, encoded once, and where its file is served when the
        # two disagree, as an article is.
        url = self.urls.of(rel, context)
        found, serves = served(url, rel)
        path = clean(found)
        if not serves:
            self._listing_url(rel, context, url, path)
        if self.legacy.excluded(path):
            return LeftOut(Reason.BY_CONFIG, origin)
        source = self.template_pages.get(rel)
        listed = None if source else self.urls.lists_articles(rel, context)
        dates = [self.author_dates.listed(article) for article in listed or ()]
        return Page(
            path=path,
            origin=origin,
            sources=(source,) if source else (),
            sitemap=dict(self.legacy.kind_defaults["indexes"]) or None,
            title=_listing_title(context),
            listed_dates=tuple(date for date in dates if date is not None),
            listed_sources=tuple(
                sorted(
                    Path(article.source_path)
                    for article, date in zip(listed or (), dates, strict=True)
                    if date is None and getattr(article, "source_path", None)
                )
            ),
            listed_folders=self.article_folders if listed is not None else (),
            html=WrittenFile(self.output_prefix + rel),
            encoded=False,
        )

    def _content(
        self, rel: str, content: Any, kind: str, url: str, served_at: tuple[str, bool]
    ) -> Page | LeftOut:
        """An article or a page: its status first, then its URL, metadata and translations.

        ``url`` is Pelican's URL of it, and ``served_at`` where its file ``rel`` is served (as
        names, see :func:`~sitemap_plugins.pelican.urls.served`) and whether ``url`` serves it.
        """
        origin = self._origin(content.source_path)
        found, serves = served_at
        status = str(getattr(content, "status", "published"))
        # Where its file is served goes with what is left out: its translations must not name
        # it as an alternate (the URL it should have is checked, and warned about, for a
        # page listed only).
        if status in ("draft", "hidden"):
            reason = Reason.DRAFT if status == "draft" else Reason.HIDDEN
            return LeftOut(reason, origin, clean(found), encoded=False)
        if str(content.metadata.get("private", "")).strip().lower() in ("true", "yes", "1"):
            return LeftOut(Reason.PRIVATE, origin, clean(found), encoded=False)
        # A copy of a version whose own language has a site of its own (i18n_subsites'
        # "keep") is the same content as that version, not a translation: itself alone, at its
        # file, since its URL is i18n_subsites' link to that version, none the author could set.
        copy = self._in_another_site(content)
        path = clean(found if copy else self._content_url(rel, content, url, found, serves=serves))
        if self.legacy.excluded(path):
            return LeftOut(Reason.BY_CONFIG, origin, path, encoded=False)
        return Page(
            path=path,
            origin=origin,
            sources=(content.source_path,),
            sitemap=self.legacy.page_sitemap(kind, content.metadata, origin, self.builder.reporter),
            updated=self.author_dates.explicit(content),
            translations=self._versions(content, path, copy=copy),
            default_locale=self.default_lang or None,
            html=WrittenFile(self.output_prefix + rel),
            encoded=False,
            # Only the news sitemap reads what an article is.
            article=self._article(content)
            if kind == "articles" and self.builder.options.news is not None
            else None,
            title=_title(content) if self.builder.options.html_page else None,
        )

    def _article(self, content: Any) -> Article:
        """An article, for the news sitemap: the date its author gave it, its title, and its
        language when it is not the site's default."""
        lang = str(getattr(content, "lang", "") or "")
        return Article(
            self.author_dates.published(content),
            getattr(content, "title", None),
            lang if lang and lang != self.default_lang else None,
        )

    def _content_url(self, rel: str, content: Any, url: str, found: str, *, serves: bool) -> str:
        """An article's or page's URL, or where its file is served when its URL does not serve it.

        ``Save_as: contact.html`` without ``URL:`` leaves Pelican linking ``pages/contact.html``
        (``PAGE_URL``), where nothing is written: the sitemap lists the file's own URL instead,
        and says so once for the source.
        """
        if not serves:
            self.builder.reporter.warning(
                Code.BAD_URL,
                f"{self._origin(content.source_path)}: URL {url!r} does not serve the file "
                f"Pelican writes, save_as {rel!r}; listed at {clean(found)!r}, where that "
                "file is served (set URL and Save_as to agree, and Pelican's links will too)",
            )
        return found

    def _listing_url(self, rel: str, context: Mapping[str, Any], url: str, path: str) -> None:
        """A listing whose URL does not serve its file is listed where it is served, as an
        article is, and the setting that made that URL is named once a build (every tag
        shares ``TAG_URL``), with one file's two URLs."""
        setting = self.urls.setting(rel, context)
        warned = (self.main or self).warned_settings
        if setting is None or setting in warned:
            return
        warned.add(setting)
        self.builder.reporter.warning(
            Code.BAD_URL,
            f"{setting.name} {setting.value} does not serve the files Pelican writes, "
            f"{setting.saved_by}: {url!r} for {rel!r}; each is listed where its file is "
            f"served ({path!r}; {setting.advice}, and Pelican's links will too)",
        )

    def _in_another_site(self, content: Any) -> bool:
        """Whether the page of ``content`` is in another site: i18n_subsites builds its
        language as a site of its own. Here it is a link there, or, where i18n_subsites keeps
        a group with no version in this site's language (``"keep"``), a copy of that page."""
        lang = str(content.lang)
        return (
            self.languages is not None
            and lang != self.default_lang
            and self.languages.has_site(lang)
        )

    def _versions(self, content: Any, path: str, *, copy: bool) -> dict[str, str]:
        """The language versions of ``content`` this sitemap lists, by language, itself at
        ``path``, the URL it is listed at (asking Pelican again formats its URL settings twice
        more: a third of the time the sitemap takes on a cached build of thousands of articles).

        Itself alone when it has no translation, or is a ``copy``: such an article or page has
        no language versions, which the join of i18n_subsites' builds must not take for a
        listing's (the same path in another subsite: a kept copy of the same content).
        """
        versions = {str(content.lang): path}
        for item in () if copy else getattr(content, "translations", ()) or ():
            found = self._translation_path(item)
            if found is not None:
                versions[str(item.lang)] = found
        return versions

    def _translation_path(self, content: Any) -> str | None:
        """Where a version of an article or page is served: i18n_subsites links a version in
        another language's subsite by its URL there, relative to this site (``../hello.html``),
        where its ``save_as`` here means nothing. None for a version this site's sitemap does
        not list: one in a subsite served apart, or, for that subsite, in any other; and one
        Pelican writes nowhere (``ARTICLE_LANG_SAVE_AS = ""``, Pelican's way of not publishing
        translations), which fires no ``content_written`` the core could leave out."""
        languages, lang = self.languages, str(content.lang)
        if languages is not None and not languages.in_one_sitemap(self.default_lang, lang):
            return None
        if self._in_another_site(content):
            return clean(linked_path(str(content.url)))
        save_as = str(getattr(content, "save_as", "") or "")
        if not save_as:
            return None
        return clean(served(str(content.url), save_as)[0])

    def _origin(self, path: str | Path) -> str:
        """Paths as the user sees them from the project: ``content/pages/about.md``."""
        inside = _under(path, self.project_prefix)
        if inside is not None:
            return inside
        return Path(os.path.relpath(path, self.project)).as_posix()


class _HostFiles(Mapping[str, str]):
    """What a run wrote into the site's folder, by path from it, each with the source a
    warning names it by: a page (a template page by its template), a static file Pelican
    copied. Neither the sitemap nor the page for humans goes over one of them.

    Looked up, not made: the core asks only for the few names it writes. A name with no file
    there is none of the run's. A static file is asked for its ``save_as`` (Pelican formats
    its URL settings each time, 15 to 35 microseconds) only when it has the size of the file
    at that name, as a copy or link of it has: a site of thousands of images would otherwise
    pay for each of them at every build that finds a sitemap of ours in the output."""

    def __init__(self, site: _Site, described: Mapping[str, Page | LeftOut]) -> None:
        self.site = site
        self.described = described
        self._by_size: dict[int, list[Any]] | None = None

    def __getitem__(self, rel: str) -> str:
        try:
            size = os.stat(self.site.output_prefix + rel).st_size  # noqa: PTH116
        except OSError:
            raise KeyError(rel) from None  # written by the run, it would be there
        template = self.site.template_pages.get(rel)
        if template is not None and rel in self.described:
            return self.site._origin(template)  # named by its template, not by its file
        for static in self.statics_of_size(size):
            if str(static.save_as).replace(os.sep, "/") == rel:
                return self.site._origin(static.source_path)
        return self.described[rel].origin

    def statics_of_size(self, size: int) -> list[Any]:
        """The static files as big as ``size`` bytes (strings, not pathlib: one per file)."""
        if self._by_size is None:
            self._by_size = {}
            for static in self.site.statics:
                with contextlib.suppress(OSError):
                    found = os.stat(static.source_path).st_size  # noqa: PTH116
                    self._by_size.setdefault(found, []).append(static)
        return self._by_size.get(size, [])

    def __iter__(self) -> Iterator[str]:
        copied = (str(static.save_as).replace(os.sep, "/") for static in self.site.statics)
        return (rel for rel in dict.fromkeys([*self.described, *copied]) if rel in self)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _under(path: str | Path, prefix: str) -> str | None:
    """``path`` relative to the folder ``prefix`` names (with a separator at its end, see
    :func:`_prefix`), with ``/`` separators, or None when it is not inside.

    Strings, not pathlib: this runs for every file Pelican writes.
    """
    absolute = absolute_path(path)
    if not absolute.startswith(prefix):
        return None
    return absolute[len(prefix) :].replace(os.sep, "/")


def _prefix(folder: Path) -> str:
    """What every path inside ``folder`` starts with, for :func:`_under`."""
    return os.path.join(folder, "")  # noqa: PTH118


def _title(content: Any) -> str | None:
    """A content's title as text: Pelican holds it as HTML, which themes put into the page as
    it is (a reST title's ``&amp;`` and inline markup such as ``<em>``)."""
    return html_text(str(getattr(content, "title", "") or "")) or None


def _listing_title(context: Mapping[str, Any]) -> str | None:
    """What a generated page lists, as its title: a tag, category or author, or the direct
    template's page (``archives``, ``tags``; ``index``, the list of articles, or the folder
    it is saved in), and its page number."""
    title = None
    for key, label in (("tag", "Tag"), ("category", "Category"), ("author", "Author")):
        if context.get(key) is not None:
            title = f"{label}: {context[key]}"
            break
    name = context.get("page_name")  # the direct template's save_as, without its suffix
    if title is None and isinstance(name, str):
        words = [part for part in name.split("/") if part and part != "index"]
        title = words[-1].replace("_", " ").capitalize() if words else "Articles"
    number = getattr(context.get("articles_page"), "number", 1)
    if title is not None and isinstance(number, int) and number > 1:
        title += f" (page {number})"
    return title


def _incumbent_named(loaded: set[str]) -> str:
    """pelican-sitemap as a settings file names it in ``PLUGINS`` where Pelican loaded it
    (empty where it did not). Pelican replaces each entry of ``PLUGINS`` with the name of the
    module it loaded, ``pelican.plugins.sitemap`` for the usual ``"sitemap"``, which no search
    of the file finds: both spellings are named."""
    names = {
        "pelican.plugins.sitemap": "'sitemap' or 'pelican.plugins.sitemap'",
        "sitemap": "'sitemap'",
    }
    return ", ".join(names[name] for name in sorted(loaded & _INCUMBENTS))


def _project_folder(content_path: Path, output_path: Path) -> Path:
    """The project's folder, where the cache goes and from which messages name files.

    Usually the folder holding the content folder (``content/`` beside ``pelicanconf.py``).
    With ``PATH = "."`` (which Pelican reads from the settings file's folder) or ``PATH`` unset
    (the folder Pelican runs in) the content folder is the project's own: its parent is a
    folder of other projects, outside the checkout. Pelican keeps no record of the settings
    file, so the content folder counts as the project's when Pelican runs in it or writes its
    output inside it, as it does with either setting run from the project's folder or with
    ``OUTPUT_PATH`` set beside ``PATH = "."``.
    """
    content = content_path.resolve()
    if content == Path.cwd().resolve() or output_path.resolve().is_relative_to(content):
        return content_path
    return content_path.parent


def _cache_dir(settings: Mapping[str, Any], project: Path) -> Path:
    """Pelican's ``CACHE_PATH`` when the site uses Pelican's own caches; otherwise ``.cache``
    in the project's folder, as for MkDocs, rather than a ``cache`` folder the user never
    asked for."""
    if settings.get("CACHE_CONTENT") or settings.get("LOAD_CONTENT_CACHE"):
        return Path(settings.get("CACHE_PATH") or "cache").absolute() / "sitemap-plugins"
    return project / ".cache" / "sitemap-plugins"


def _timezone(settings: Mapping[str, Any]) -> dt.tzinfo:
    """The site's ``TIMEZONE``, in which Pelican reads naive times (and so do we); UTC when
    Pelican would refuse the name itself (it reports that, not us)."""
    try:
        return zoneinfo.ZoneInfo(str(settings.get("TIMEZONE") or "UTC"))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc
