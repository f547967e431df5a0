"""The Sphinx extension: ``extensions = ["sitemap_plugins.sphinx"]`` in ``conf.py``.

The page list comes from the environment at ``build-finished``: every document, with the metadata
and dependencies that Sphinx itself keeps, purges and merges across incremental and parallel
builds. Listing only the pages written in this run (as sphinx-sitemap does) loses pages on every
build without ``-E``; reading the environment instead makes an incremental or ``-j auto`` build
give the same bytes as a clean one. Pages written outside the document list (viewcode,
``html_additional_pages``, ``html-collect-pages``) are followed by :mod:`.extra_pages`.

The adapter says which pages exist, their URLs as Sphinx links them, their files, their
``sitemap`` field and their translations; the core decides everything else.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import os
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from sphinx.application import Sphinx
from sphinx.builders.dirhtml import DirectoryHTMLBuilder
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.config import Config
from sphinx.errors import ConfigError, ExtensionError
from sphinx.util import logging
from sphinx.util.i18n import docname_to_domain
from sphinx.util.logging import is_suppressed_warning

from sitemap_plugins import __version__
from sitemap_plugins.compat import sphinx_sitemap
from sitemap_plugins.core import (
    OPTION_SPECS,
    READ_THE_DOCS_URL,
    Code,
    FilePath,
    LeftOut,
    OptionError,
    Options,
    Page,
    Reason,
    SitemapBuilder,
    SitemapError,
    StrictError,
    WrittenFile,
)
from sitemap_plugins.core.ignore_revs import borrowed_commit_ids
from sitemap_plugins.core.publish import LaterWrite, record_later_write
from sitemap_plugins.core.urls import check_base_url, site_and_folder
from sitemap_plugins.sphinx import command_line
from sitemap_plugins.sphinx.canonical import Elsewhere, canonical_elsewhere
from sitemap_plugins.sphinx.extra_files import ExtraFiles
from sitemap_plugins.sphinx.extra_pages import HUMAN_PAGE_MARK, ExtraPages, not_found_pages
from sitemap_plugins.sphinx.forked_writers import ForkedWriters
from sitemap_plugins.sphinx.versions import version_copy

if TYPE_CHECKING:  # the page for humans is imported by the builds that write it
    from sphinx.environment import BuildEnvironment

    from sitemap_plugins.core.human_page import Listing

logger = logging.getLogger(__name__)

PREFIX: Final = "sitemap_"
_NOT_A_WEBSITE: Final = frozenset({"json", "pickle"})  # HTML serialised for other tools
_STRAIGHT_QUOTES: Final = str.maketrans(
    {"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'"}
)


class _Reporter:
    """Core warnings as Sphinx warnings of type ``sitemap``: ``-W`` and suppress_warnings apply.

    A kind the user suppressed is not logged, and said to be silenced, so that strict mode (ours,
    or -W, which Sphinx leaves to us from 8.1) does not count what Sphinx does not."""

    def __init__(self) -> None:
        self.suppressed: list[str] = []

    def warning(self, code: Code, message: str) -> bool:
        if is_suppressed_warning("sitemap", code.value, self.suppressed):
            return False
        logger.warning("%s", message, type="sitemap", subtype=code.value)
        return True

    def info(self, message: str) -> None:
        logger.info("%s", message)


class _Site:
    """The extension's state for one Sphinx application: its settings and one core builder.

    The builder is kept across builds of the same application (sphinx-autobuild, tests) so that
    the git history is walked once; it is replaced only when the options change.
    """

    def __init__(self, source_language: str) -> None:
        self.began = dt.datetime.now(dt.timezone.utc)
        """When the build began, as far as the extension can know: made in ``setup``, before
        any event, where an extension listed earlier (sphinx-autoapi, at ``builder-inited``)
        may write pages into the source folder (see :meth:`.SitemapBuilder.start`)."""
        self.source_language = source_language
        self.reporter = _Reporter()
        self.options: Options | None = None
        self.scheme: sphinx_sitemap.UrlScheme | None = None
        self.served: sphinx_sitemap.UrlScheme | None = None
        """The scheme this build's pages are listed with (see :meth:`_served_scheme`)."""
        self.excludes = sphinx_sitemap.LinkExcludes()
        self.site_url: str | None = None
        """sphinx-sitemap's ``site_url``, which comes before ``html_baseurl``."""
        self.builder: SitemapBuilder | None = None
        self.extra = ExtraPages()
        self.strict_by = "sitemap_strict"
        """What made warnings fail the build, for the line that says so."""

    def config_inited(self, app: Sphinx, config: Config) -> None:
        """Check every option now: a bad value stops the build naming it, before any reading."""
        self.reporter.suppressed = [str(kind) for kind in config.suppress_warnings or ()]
        ours = {
            spec.name: _value(config, PREFIX + spec.name, spec.default) for spec in OPTION_SPECS
        }
        settings = {
            name: _value(config, name, sphinx_sitemap.DEFAULTS[name])
            for name in sphinx_sitemap.SETTINGS
        }
        inherited = _excluded_commits(config, ours)
        if inherited is not None:
            ours["git_ignore_commits"] = inherited
        try:
            values, self.scheme, self.excludes = sphinx_sitemap.translate(
                settings,
                ours,
                language=config.language or "",
                version=config.version or "",
                source_language=self.source_language,
                locale_dirs=[Path(app.srcdir, folder) for folder in config.locale_dirs or ()],
                reporter=self.reporter,
                folders=config[sphinx_sitemap.LANGUAGE_FOLDERS],
            )
            self.site_url = sphinx_sitemap.site_url(config[sphinx_sitemap.SITE_URL])
            note = sphinx_sitemap.footer_dates_note(
                settings["sitemap_show_lastmod"], app.extensions
            )
            if note is not None:
                self.reporter.info(note)
            if _fails_on_warnings(app):  # decided before anything is written, as ours
                values["strict"], self.strict_by = True, "sphinx-build -W"
            self.options = Options.from_mapping(values, prefix=PREFIX, folder=Path(app.confdir))
            if self.options.base_url is None:  # when set, our option is the base URL
                note = sphinx_sitemap.base_url_note(self.site_url, config.html_baseurl)
                if note is not None:
                    self.reporter.info(note)
        except OptionError as error:
            raise ConfigError(str(error)) from None

    def builder_inited(self, app: Sphinx) -> None:
        """Start the history pass now, so that git reads it while Sphinx reads and writes; in
        a version sphinx-multiversion or sphinx-polyversion builds, at that version's commit.
        The pass covers this build's catalogs (``.po``) where they are kept beside the source
        folder (``locale_dirs = ["../locales"]``) as it covers those inside it: no second pass
        over them once Sphinx is done."""
        builder = self._core_builder(app)
        if builder is not None:
            srcdir = Path(app.srcdir)
            copy = version_copy(app.config, Path(app.confdir), srcdir)
            if copy is not None:
                builder.exported(copy.folder, copy.repository, copy.commit, within=copy.within)
            catalogs = _Catalogs(app.config, srcdir).folders
            builder.start(srcdir, began=self.began, beside=catalogs, ending=".po")

    def env_before_read_docs(self, app: Sphinx, env: BuildEnvironment, docnames: Any) -> None:
        """Every build of the application reads (or finds nothing to read) here: a second build
        of the same application, which has no ``builder-inited``, begins here; the first one
        began earlier, in ``setup``, which the builder keeps."""
        builder = self._core_builder(app)
        if builder is not None:
            builder.begin()

    def env_updated(self, app: Sphinx, env: BuildEnvironment) -> None:
        """Every document is read: the files beyond the source folder they depend on (autodoc's
        modules, includes from the project root) are known now, and the history pass covers
        them while Sphinx writes, rather than in a second pass at the end. A compiled catalog
        (``.mo``), which Sphinx names for every translated document, dates nothing (see
        :class:`_Catalogs`): git is not asked about it, nor the pass begun again over it."""
        builder = self._core_builder(app)
        if builder is not None:
            srcdir = os.fspath(app.srcdir)
            compiled = _Catalogs(app.config, Path(srcdir)).compiled
            paths = (
                _in_source_folder(srcdir, dependency)
                for dependencies in env.dependencies.values()
                for dependency in dependencies
            )
            builder.widen(path for path in paths if not compiled(path))

    def _core_builder(self, app: Sphinx) -> SitemapBuilder | None:
        """The core builder for this application's options, for a builder that writes a site."""
        if self.options is None or not _is_website(app.builder):
            return None
        if self.builder is None or self.builder.options != self.options:
            self.builder = SitemapBuilder(
                self.options,
                self.reporter,
                base_url_setting="html_baseurl in conf.py",
                cache_dir=Path(app.doctreedir) / "sitemap-plugins",
                source_folders=_source_folders(app),
            )
        return self.builder

    def build_finished(self, app: Sphinx, exception: Exception | None) -> None:
        builder = self._core_builder(app) if exception is None else None
        if builder is None:
            return
        self.served = self._served_scheme(app)
        copied = ExtraFiles(
            app.confdir, list(app.config.html_extra_path), list(app.config.exclude_patterns)
        )
        host_files: Mapping[str, str] = copied
        page_for_humans = None
        if builder.options.html_page:
            from sitemap_plugins.core.human_page import html_page_relpath  # with html_page only

            # The page for humans is checked where the builder writes it: _write_listing.
            relpath = html_page_relpath(builder.options.filename)
            host_files = _Except(copied, relpath)
            # Sphinx writes a page over the file there (dirhtml: at sitemap/index.html).
            html: Any = app.builder
            target = html.get_outfilename(relpath.removesuffix(".html"))
            written = Path(target).relative_to(app.outdir).as_posix()
            page_for_humans = LaterWrite(written, in_place=True)
        try:
            summary = builder.build(
                self._written(app),  # described inside, with the collector paused
                Path(app.outdir),
                # sphinx-sitemap's order; the sitemap_base_url option comes before both.
                host_base_urls=[
                    (sphinx_sitemap.SITE_URL, self.site_url),
                    ("html_baseurl", app.config.html_baseurl),
                ],
                output_url_path=self.served.folder() if self.served else "",
                host_files=host_files,
                page_for_humans=page_for_humans,
            )
        except StrictError as error:
            _fail(
                app,
                f"{error.warnings} warning(s) and {self.strict_by} is on (see above)"
                + ("" if error.written else "; no sitemap written"),
            )
            return
        except SitemapError as error:
            _fail(app, str(error))
            return
        self.reporter.info(summary.line())
        if summary.listing is not None:
            self._write_listing(app, summary.listing, copied)

    def _write_listing(self, app: Sphinx, listing: Listing, copied: ExtraFiles) -> None:
        """The page for humans as one more page of the HTML builder, in the theme's
        ``page.html``: Sphinx's own context (navigation, sidebars, styles, search) with the
        listing as the body, written where the builder writes a page of that name
        (``sitemap.html``; ``sitemap/index.html`` with dirhtml, the links adjusted). Rendered
        at ``build-finished`` from what the sitemap lists, so it is not itself in the sitemap,
        and kept out of the pages followed for it. A page of the site's own written there wins
        (a document, one dirhtml writes to that file, an ``html_additional_pages`` entry): the
        page is then not written, with a warning.

        Why not a document: a document is read before anything is written, while what the page
        lists is known only from the whole build (the environment after every read, the heads
        themes render); a document would also need a toctree entry and join the search index.
        ``handle_page`` gives the page the same template and context as any document.
        A file ``html_extra_path`` copied where the page goes (``copied``) wins as well.
        """
        builder: Any = app.builder
        pagename = listing.relpath.removesuffix(".html")
        # Where the builder writes a page of that name, and so how deep its links start.
        target = builder.get_outfilename(pagename)
        written = Path(target).relative_to(app.outdir).as_posix()
        # A page of the site's own written there: a document of that name, or one dirhtml
        # writes to the same file (sitemap/index), or an html_additional_pages entry.
        for name in (pagename, f"{pagename}/index"):
            if name in app.env.all_docs and builder.get_outfilename(name) == target:
                self.reporter.warning(
                    Code.CONFLICT,
                    f"{app.env.doc2path(name, False)}: a document is already written to "
                    f"{written}, where the sitemap page goes; sitemap_html_page left it as it is",
                )
                return
            template = (app.config.html_additional_pages or {}).get(name)
            if template is not None and builder.get_outfilename(name) == target:
                self.reporter.warning(
                    Code.CONFLICT,
                    f"conf.py: html_additional_pages {name!r} ({template}) is already written to "
                    f"{written}, where the sitemap page goes; sitemap_html_page left it as it is",
                )
                return
        source = copied.get(written)
        if source is not None:
            self.reporter.warning(
                Code.CONFLICT,
                f"{source}: already written to {written} (html_extra_path), where the sitemap "
                "page goes; sitemap_html_page left it as it is",
            )
            return
        up = "../" * (written.count("/") - listing.relpath.count("/"))
        context = {
            "title": "Sitemap",
            "body": "<h1>Sitemap</h1>\n" + listing.body(up=up),
            "sourcename": "",
            "display_toc": False,
            "meta": {},
            "metatags": "",
            "rellinks": [],
            "parents": [],
            HUMAN_PAGE_MARK: True,
        }
        try:
            if not hasattr(builder, "globalcontext"):
                # Sphinx 7.0-7.1 skip the writing phase when no document is out of date, and
                # with it what every page's template is given; the page still follows the
                # sitemap, whose dates may have changed (a commit, a dependency).
                builder.prepare_writing(set())
            builder.handle_page(pagename, context, "page.html")
        except Exception as error:  # a theme's template may fail in any way
            _fail(app, f"cannot write {listing.relpath}: {error}")
            return
        try:
            # Recorded, so that a build with sitemap_html_page off removes it: Sphinx keeps
            # its output folder.
            record_later_write(Path(app.outdir), written)
        except SitemapError as error:
            _fail(app, str(error))

    def _written(self, app: Sphinx) -> Iterator[Page | LeftOut]:
        """Every document the builder publishes, then every page it writes beside them."""
        builder: Any = app.builder
        env = app.env
        srcdir = os.fspath(app.srcdir)
        catalogs = _Catalogs(app.config, Path(srcdir))
        sources_of = _Sources(env, srcdir, catalogs.compiled, _git_excluded(app.config))
        html_file = _html_files(builder)
        excluded = self._excluded_by_sphinx_sitemap(app)
        root = app.config.root_doc
        if builder.name == "singlehtml":
            docs = [root, *sorted(env.found_docs - {root})]
            sources = tuple(path for doc in docs for path in (*sources_of(doc), *catalogs(doc)))
            link = root + builder.link_suffix
            elsewhere = self._canonical_elsewhere(app, link, html_file(root), encoded=False)
            page = self._page(
                app, root, link, sources, html_file, encoded=False, origin=sources_of.own(root)
            )
            yield _unless_elsewhere(excluded(root, page), elsewhere)
        else:
            encoded = _links_are_encoded(builder)
            target_uri = _target_uris(builder)
            not_found = not_found_pages(app)
            # Decided on one page, the root document where it is one: alike for every page.
            pages = env.found_docs - not_found
            example = root if root in pages else min(pages, default=None)
            elsewhere = (
                None
                if example is None
                else self._canonical_elsewhere(
                    app, target_uri(example), html_file(example), encoded=encoded
                )
            )
            for docname in sorted(env.found_docs):
                if docname in not_found:
                    yield LeftOut(Reason.NOT_FOUND_PAGE, str(env.doc2path(docname, False)))
                    continue
                own = sources_of.own(docname)
                sources = (*sources_of(docname, own), *catalogs(docname))
                page = self._page(
                    app, docname, target_uri(docname), sources, html_file, encoded=encoded,
                    origin=own,
                )  # fmt: skip
                yield _unless_elsewhere(excluded(docname, page), elsewhere)
        encoded = _links_are_encoded(builder)
        for item in self.extra.pages(app):
            if isinstance(item, LeftOut):
                yield item
                continue
            pagename, extra_sources, listed = item
            link = builder.get_target_uri(pagename)
            yield excluded(
                pagename,
                self._page(
                    app, pagename, link, extra_sources, html_file, encoded=encoded, listed=listed
                ),
            )

    def _canonical_elsewhere(
        self, app: Sphinx, link: str, written: WrittenFile, *, encoded: bool
    ) -> Elsewhere | None:
        """Whether the documents' canonical links, which Sphinx writes from ``html_baseurl``,
        name other URLs than the sitemap's (see :mod:`.canonical`), judged on the page at
        ``link``, written to ``written``; said once, naming both settings."""
        if self.options is None or self.served is None or self.builder is None:
            return None
        html_baseurl = app.config.html_baseurl
        base_url = self.options.base_url or self.site_url
        found = canonical_elsewhere(
            html_baseurl, base_url, self.served, link, written, encoded=encoded
        )
        if found is not None:
            self.builder.reporter.warning(
                Code.CONFLICT,
                f"html_baseurl {html_baseurl!r} and sitemap_url_scheme {self.served.template!r} "
                f"put the pages in two places: the sitemap would list {found.listed}, and Sphinx "
                f"writes {found.canonical} into that page as its canonical link (from "
                "html_baseurl); the documents are left out as canonical elsewhere (set "
                "html_baseurl to the URL this build is served at, "
                f"-D html_baseurl={found.served})",
            )
        return found

    def _served_scheme(self, app: Sphinx) -> sphinx_sitemap.UrlScheme | None:
        """``sitemap_url_scheme``, unless Read the Docs' URL of this build is the base URL (none
        other is set) and does not end with the folder the scheme puts the pages in.

        Read the Docs serves the output folder at that URL (``.../en/latest/``), whatever
        ``language`` and ``version`` say (``version = "1.0"``): the scheme would list every page
        in a folder of it where nothing is served (``.../en/latest/en/1.0/about.html``). The
        pages are listed there as Sphinx links them then, and one warning names both."""
        scheme = self.scheme
        options = self.options
        if (
            scheme is None
            or options is None
            or not scheme.folder()
            or options.base_url
            or self.site_url
            or app.config.html_baseurl
        ):
            return scheme
        read_the_docs = os.environ.get(READ_THE_DOCS_URL)
        try:
            served = check_base_url(read_the_docs or "")
        except ValueError:
            return scheme  # unset, or the core says why it writes no sitemap
        if site_and_folder(served, scheme.folder())[1] == served:
            return scheme  # it ends with the folder, which is not given twice
        self.reporter.warning(
            Code.CONFLICT,
            f"sitemap_url_scheme {scheme.template!r} puts the pages in {scheme.folder()!r}, "
            f"where Read the Docs serves none: it serves this build at {READ_THE_DOCS_URL} "
            f"{read_the_docs!r}, the sitemap's base URL while html_baseurl is unset; the pages "
            "are listed there as Sphinx links them (on Read the Docs, set sitemap_url_scheme "
            'to "{link}", or html_baseurl)',
        )
        return dataclasses.replace(scheme, template="{link}")

    def _excluded_by_sphinx_sitemap(self, app: Sphinx) -> Callable[[str, Page], Page | LeftOut]:
        """The page, or left out when one of ``sitemap_excludes`` matches it as sphinx-sitemap
        matched (by a link of its own making: see :class:`.sphinx_sitemap.LinkExcludes`)."""
        excludes = self.excludes
        if not excludes.patterns:
            return lambda pagename, page: page
        # sphinx-sitemap knew dirhtml by its class's name: it gave a subclass html's links.
        directories = type(app.builder).__name__ == "DirectoryHTMLBuilder"
        suffix = app.config.html_file_suffix

        def excluded(pagename: str, page: Page) -> Page | LeftOut:
            if excludes.match(pagename, directories=directories, file_suffix=suffix):
                return LeftOut(Reason.BY_CONFIG, page.origin, page.path, page.encoded)
            return page

        return excluded

    def _page(
        self,
        app: Sphinx,
        pagename: str,
        link: str,
        sources: tuple[FilePath, ...],
        html_file: Callable[[str], WrittenFile],
        *,
        encoded: bool,
        listed: tuple[FilePath, ...] = (),
        origin: str | None = None,
    ) -> Page:
        """One page as Sphinx wrote it: a document (with its ``sitemap`` field) or another.
        ``origin`` is a document's source as Sphinx names it, under the source folder."""
        env = app.env
        scheme = self.served
        if scheme is None:  # config-inited always comes first
            raise RuntimeError("sitemap_plugins.sphinx: build-finished before config-inited")
        html = html_file(pagename)
        document = pagename in env.all_docs
        # Only the page for humans shows titles: not made into text for nothing.
        wants_title = document and self.options is not None and self.options.html_page
        title = env.titles.get(pagename) if wants_title else None
        if not document:
            origin = Path(html).relative_to(app.outdir).as_posix()
        elif origin is None:
            origin = str(env.doc2path(pagename, False))
        return Page(
            path=scheme.path(link),
            origin=origin,
            sources=sources,
            sitemap=_field_value(env.metadata.get(pagename, {}).get("sitemap"))
            if document
            else None,
            translations=scheme.translations(link),
            default_locale=scheme.source_language,
            listed_sources=listed,
            html=html,
            encoded=encoded,
            title=title.astext() if title is not None else None,
        )


def _unless_elsewhere(item: Page | LeftOut, elsewhere: Elsewhere | None) -> Page | LeftOut:
    """A document, or left out when the documents' canonical links name other URLs."""
    if elsewhere is None or isinstance(item, LeftOut):
        return item
    return LeftOut(Reason.CANONICAL_ELSEWHERE, item.origin, item.path, item.encoded)


class _Except(Mapping[str, str]):
    """``files`` without ``name``: a name the adapter checks itself."""

    def __init__(self, files: Mapping[str, str], name: str) -> None:
        self.files = files
        self.name = name

    def __getitem__(self, relpath: str) -> str:
        if relpath == self.name:
            raise KeyError(relpath)
        return self.files[relpath]

    def __iter__(self) -> Iterator[str]:
        return (relpath for relpath in self.files if relpath != self.name)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _fail(app: Sphinx, message: str) -> None:
    """Fail the build with one error line, as Sphinx reports a build that went wrong.

    Raising is no way to do it: since Sphinx 8.1, sphinx-build shows every exception from an
    extension, SphinxError included, as a crash report with a traceback that asks for a bug
    report. An error logged through Sphinx and a failing exit status read as what they are;
    with -W (Sphinx 7) the error stops the build at once, as any warning does.
    """
    logger.error("sitemap: %s", message)
    app.statuscode = 1


_EXCLUDE_PATTERNS: Final = "git_exclude_patterns"
"""sphinx-last-updated-by-git's patterns of files that date no page (see :func:`_git_excluded`)."""
_EXCLUDE_COMMITS: Final = "git_exclude_commits"
"""sphinx-last-updated-by-git's list of commits that date no page, declared only where that
extension is loaded."""


def _excluded_commits(config: Config, ours: Mapping[str, object]) -> object | None:
    """sphinx-last-updated-by-git's ``git_exclude_commits``, where neither of our own
    ``git_ignore_commits`` options is set: a site switching keeps the dates that extension
    gave its sitemap and still gives its footers."""
    if ours["git_ignore_commits"] or ours["git_ignore_commits_file"]:
        return None
    if _EXCLUDE_COMMITS not in config:
        return None
    return borrowed_commit_ids(config[_EXCLUDE_COMMITS]) or None


def _value(config: Config, name: str, default: object) -> object:
    """A setting as the user gave it: ``-D name=value`` arrives as the text given (see
    :mod:`.command_line`), read by the type of ``default``."""
    value = config[name]
    if name not in config.overrides or not isinstance(value, str):
        return value
    return command_line.read(value, default)


def _fails_on_warnings(app: Sphinx) -> bool:
    """Whether sphinx-build ``-W`` is on: Sphinx 7 says so publicly; from 8.1 a warning no
    longer stops the build where it is logged, only its exit status, so a sitemap would be
    written and the build fail after it, and only a private attribute tells.

    ``-W --keep-going`` before 8.1 is that same late failure: Sphinx then clears
    ``warningiserror`` and sets ``keep_going``, which it sets only under ``-W`` (from 8.1
    ``keep_going`` is kept equal to ``-W``)."""
    return bool(
        getattr(app, "warningiserror", False)
        or getattr(app, "keep_going", False)
        or getattr(app, "_fail_on_warnings", False)
    )


def _source_language(config: Config) -> str:
    """The language the project is written in, for x-default and the full set of languages,
    which a translation build overrides (-D language=ja).

    conf.py's own value is kept nowhere public: Sphinx holds it only in the raw namespace, and
    only until config-inited (Sphinx 7 then overwrites it). Where conf.py sets none, the project
    is in Sphinx's default language (``en``), as every build that sets none says it is.
    """
    raw_config = getattr(config, "_raw_config", {})
    if raw_config.get("language"):
        return str(raw_config["language"])
    declared = Config.config_values.get("language")
    default = getattr(declared, "default", None)  # Sphinx 7.3 and later
    if default is None and isinstance(declared, tuple):
        default = declared[0]
    return str(default or "")


def _field_value(value: object) -> Any:
    """A ``:sitemap:`` field as JSON text: undo the curly quotes of Sphinx's smart quotes.

    reST typography turns ``{"priority": 0.8}`` into ``{“priority”: 0.8}``; the mapping's keys
    and values never hold quotes of their own, so straightening them is safe. MyST hands a
    front matter mapping over as JSON, but a YAML ``sitemap: false`` as Python spells it,
    ``False``, which is no JSON.
    """
    if not isinstance(value, str):
        return value
    if value in ("False", "True"):
        return value == "True"
    return value.translate(_STRAIGHT_QUOTES)


class _Sources:
    """Each document's source, then what it includes (include, literalinclude, autodoc...).

    Sources are joined to ``srcdir`` rather than asked of Sphinx whole: the same path, without
    Sphinx parsing the source folder's path per page. Strings, not pathlib: making a ``Path``
    per page cost more than the core's reading of an unchanged page. For the same reason a
    document's own file is taken from where Sphinx 8 and later keep it, per document, in the
    project (``doc2path`` wraps it in a new path object per call); any other Sphinx is asked.

    A translation build records each document's compiled catalog (``.mo``) as a dependency,
    so that a newer one has the document read again; the record stays for every document it
    does not read again. ``compiled`` says which dependency is such a catalog: it is written
    at build time (by Sphinx, or by ``sphinx-intl build``), and its ``.po`` dates the page
    instead (:class:`_Catalogs`).

    ``excluded`` says which files, named relative to the source folder, date no page
    (sphinx-last-updated-by-git's ``git_exclude_patterns``, see :func:`_git_excluded`): a
    document whose own file matches has no sources at all, as that extension dates it not at
    all; a matching dependency is left out."""

    def __init__(
        self,
        env: Any,
        srcdir: str,
        compiled: Callable[[str], bool],
        excluded: Callable[[str], bool] | None = None,
    ) -> None:
        self.env = env
        self.srcdir = srcdir
        self.compiled = compiled
        self.excluded = excluded
        known = getattr(getattr(env, "project", None), "_docname_to_path", None)
        self.known: dict[str, os.PathLike[str]] = known if isinstance(known, dict) else {}

    def own(self, docname: str) -> str:
        """The document's file, relative to the source folder, as ``doc2path`` names it."""
        found = self.known.get(docname)
        if found is None:
            return str(self.env.doc2path(docname, False))
        return os.fspath(found)

    def __call__(self, docname: str, own: str | None = None) -> tuple[str, ...]:
        """The document's files; ``own`` is :meth:`own`'s answer, where the caller has it."""
        named = self.own(docname) if own is None else own
        excluded = self.excluded
        if excluded is not None and excluded(named):
            return ()
        own = os.path.join(self.srcdir, named)  # noqa: PTH118
        dependencies = self.env.dependencies.get(docname)
        if not dependencies:
            return (own,)
        if excluded is not None:  # named as the patterns are: Sphinx 9 keeps them absolute
            srcdir = self.srcdir
            dependencies = [
                dep
                for dep in dependencies
                if not excluded(os.path.relpath(_in_source_folder(srcdir, dep), srcdir))
            ]
        listed = sorted(_in_source_folder(self.srcdir, dep) for dep in dependencies)
        return (own, *(path for path in listed if not self.compiled(path)))


def _git_excluded(config: Config) -> Callable[[str], bool] | None:
    """Whether a file, named relative to the source folder, matches sphinx-last-updated-by-git's
    ``git_exclude_patterns`` (declared only where that extension is loaded): such a file dates
    no page there, nor here. None where there are no such patterns."""
    patterns = getattr(config, _EXCLUDE_PATTERNS, None)
    if not patterns:
        return None
    from sphinx.util.matching import Matcher  # with that extension's patterns only

    return Matcher(list(patterns))


def _in_source_folder(srcdir: str, dependency: str | os.PathLike[str]) -> str:
    """A dependency as Sphinx records it (relative to the source folder), as a normal path."""
    return os.path.normpath(os.path.join(srcdir, dependency))  # noqa: PTH118


def _html_files(builder: Any) -> Callable[[str], WrittenFile]:
    """Where the builder writes each page: ``get_outfilename``, or the same path made here
    when the builder writes pages as Sphinx's html or dirhtml builder does.

    Asking the builder costs, on Sphinx 9, two parses of the whole output path per page (the
    path is made, then wrapped in Sphinx's own class), as much as the rest of a page's
    description. The layouts are those of every Sphinx from 7 to 9; a builder that places files
    its own way (an override of either method, in any subclass) is always asked.
    """
    methods = _file_methods(type(builder))
    outdir = os.path.join(os.fspath(builder.outdir), "")  # noqa: PTH118
    suffix = str(builder.out_suffix)
    if methods == _file_methods(StandaloneHTMLBuilder):
        return lambda pagename: WrittenFile(outdir + pagename + suffix)
    if methods == _file_methods(DirectoryHTMLBuilder):

        def in_folder(pagename: str) -> WrittenFile:
            if pagename == "index" or pagename.endswith("/index"):
                return WrittenFile(outdir + pagename + suffix)
            return WrittenFile(f"{outdir}{pagename}/index{suffix}")

        return in_folder
    return lambda pagename: WrittenFile(os.fspath(builder.get_outfilename(pagename)))


def _target_uris(builder: Any) -> Callable[[str], str]:
    """``get_target_uri``, without its ``quote`` for a name it would leave as it is.

    Sphinx's html builder links a document as its quoted name and ``link_suffix``; quoting
    costs most of it, and a name of letters, digits and ``_.-~/`` comes out of it unchanged.
    Any other name, and any builder that links its own way, is asked.
    """
    ask: Callable[[str], str] = builder.get_target_uri
    if type(builder).get_target_uri is not StandaloneHTMLBuilder.get_target_uri:
        return ask
    suffix = str(builder.link_suffix)
    if ask(_SAMPLE_NAME) != _SAMPLE_NAME + suffix:  # a Sphinx that links otherwise
        return ask

    def target_uri(docname: str) -> str:
        return docname + suffix if _UNQUOTED(docname) else ask(docname)

    return target_uri


_UNQUOTED: Final = re.compile(r"[A-Za-z0-9_.~/-]*").fullmatch
"""A name ``urllib.parse.quote`` returns as it is (its safe characters and ``/``)."""
_SAMPLE_NAME: Final = "a/Z_0.9-~"
"""A name of every kind of character :data:`_UNQUOTED` lets through, asked once a build."""


def _file_methods(cls: type) -> tuple[object, object]:
    """The methods that decide where a page goes (``get_output_path``: Sphinx 9, not 7 or 8.1)."""
    return getattr(cls, "get_outfilename", None), getattr(cls, "get_output_path", None)


class _Catalogs:
    """The message catalogs (``.po``) a translation build takes a document's text from: the
    translated page changes with them, so they date it too. Sphinx records no dependency on
    them; it looks them up as below (``locale_dirs``, the language and its base language,
    ``gettext_compact``). The compiled ``.mo`` never dates a page (:meth:`compiled`): it is
    written at build time, so its file time is a build's and git ignores it or dates a copy."""

    def __init__(self, config: Config, srcdir: Path) -> None:
        language = str(config.language or "")
        base = language.replace("-", "_").split("_")[0]
        languages = [language, base] if base != language else [language]
        # Only folders that exist: most sites have none, and then no document asks.
        self.folders = [
            path
            for folder in config.locale_dirs or ()
            for lang in languages
            if lang and (path := srcdir / folder / lang / "LC_MESSAGES").is_dir()
        ]
        self.compact = config.gettext_compact
        self.found: dict[str, tuple[str, ...]] = {}
        # The folders as normal paths ending with a separator, for compiled() to match.
        self._within = tuple(os.path.join(os.path.normpath(path), "") for path in self.folders)  # noqa: PTH118

    def compiled(self, path: str) -> bool:
        """Whether ``path`` (normal, as :func:`_in_source_folder` gives it) is a compiled
        catalog of this build's languages, where Sphinx and sphinx-intl write them."""
        return path.endswith(".mo") and path.startswith(self._within)

    def __call__(self, docname: str) -> tuple[str, ...]:
        if not self.folders:
            return ()
        domain = docname_to_domain(docname, self.compact)
        if domain not in self.found:
            files = (folder / f"{domain}.po" for folder in self.folders)
            self.found[domain] = tuple(str(path) for path in files if path.is_file())
        return self.found[domain]


def _links_are_encoded(builder: Any) -> bool:
    """Whether ``get_target_uri`` percent-encodes names: html does (``100%25.html``), dirhtml
    does not (``100%/``). Asking the builder also covers builders that subclass either one."""
    return str(builder.get_target_uri("%")).startswith("%25")


def _is_website(builder: Any) -> bool:
    """HTML for a web server: not epub or help files (embedded), not serialised HTML."""
    return (
        builder.format == "html"
        and not getattr(builder, "embedded", False)
        and builder.name not in _NOT_A_WEBSITE
        and hasattr(builder, "get_outfilename")
    )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register every core option as ``sitemap_<name>``, plus sphinx-sitemap's own names."""
    if "sphinx_sitemap" in app.extensions or "sphinx_sitemap" in app.config.extensions:
        raise ExtensionError(
            "sitemap_plugins.sphinx and sphinx_sitemap both write sitemap.xml: remove "
            "'sphinx_sitemap' from extensions in conf.py (sitemap_plugins.sphinx reads its "
            "sitemap_* settings)"
        )
    for spec in OPTION_SPECS:
        default = list(spec.default) if isinstance(spec.default, tuple) else spec.default
        # The core schema checks every value at config-inited and names the option in its
        # error; Sphinx's own type check would only warn, and wrongly for values such as
        # sitemap_gzip = True, so it is switched off with Any. Declared as a function, so that
        # Sphinx hands -D's text over as given (see command_line).
        app.add_config_value(PREFIX + spec.name, command_line.declared(default), "", types=Any)
    for name, default in sphinx_sitemap.SETTINGS.items():
        app.add_config_value(name, command_line.declared(default), "", types=Any)
    app.add_config_value(sphinx_sitemap.LANGUAGE_FOLDERS, None, "", types=Any)
    if sphinx_sitemap.SITE_URL not in app.config:  # else another extension declared it first
        app.add_config_value(sphinx_sitemap.SITE_URL, None, "", types=Any)
    site = _Site(_source_language(app.config))
    # After other extensions' config-inited (at 500): one that sets the version it builds
    # (sphinx-multiversion, from each version's own conf.py) has set it when the URL scheme's
    # {version} is read.
    app.connect("config-inited", site.config_inited, priority=800)
    app.connect("builder-inited", site.builder_inited)
    app.connect("env-before-read-docs", site.env_before_read_docs)
    app.connect("env-updated", site.env_updated)
    site.extra.connect(app)
    app.connect("build-finished", site.build_finished)
    ForkedWriters().connect(app)
    return {
        "version": __version__,
        # 1: the environment holds each document's viewcode links; older ones are read again.
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }


def _source_folders(app: Sphinx) -> list[Path]:
    """The source folder and the folders translations are read from, where a clone of the
    translations nested in the sources' repository dates the catalogs it holds."""
    srcdir = Path(app.srcdir)
    return [srcdir, *(srcdir / folder for folder in app.config.locale_dirs or ())]
