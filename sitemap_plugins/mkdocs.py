"""MkDocs adapter: ``plugins: [sitemap]`` replaces MkDocs' own ``sitemap.xml`` and ``.gz``.

MkDocs renders its sitemap from a theme template with the build date as every ``lastmod``. This
plugin takes that template out of the build and, once the site is written, tells the core what
only MkDocs knows: which pages exist, their URLs, their front matter, their translations, and
what the theme and other plugins rendered. The core decides everything else.

``mkdocs build --dirty`` and ``mkdocs serve --dirty`` only re-render changed pages, so what each
page told us is kept across rebuilds (MkDocs keeps this plugin instance alive because it defines
``on_startup``), and a page this process never saw is read back from its output, with the
``sitemap`` metadata it had when MkDocs last rendered it (kept on disk, as MkDocs keeps the HTML).
mkdocs-static-i18n builds every further language inside its own ``on_post_build``; we run after
it and write one sitemap for all languages, whose base URL is the default language's
``site_url``. A language with a ``site_url`` of its own has its pages' canonical URLs there,
so its pages are listed there: under the base URL, or not at all (one host per sitemap).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import logging
import os
import posixpath
from collections.abc import Iterable, Iterator, Mapping
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final, Literal

from mkdocs.config import config_options as c
from mkdocs.config.base import BaseConfigOption, Config, ValidationError
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.utils.meta import get_data

from sitemap_plugins.core import (
    EMPTY,
    OPTION_SPECS,
    Article,
    Code,
    LeftOut,
    LoggingReporter,
    OptionError,
    Options,
    Page,
    Reason,
    SitemapBuilder,
    SitemapError,
    WrittenFile,
    WrittenText,
    collector_paused,
    shown,
)
from sitemap_plugins.core.file_memo import FileMemo
from sitemap_plugins.core.html import head_of
from sitemap_plugins.core.ignore_revs import read_borrowed_ignore_revs
from sitemap_plugins.core.json_values import CANNOT_KEEP, from_json, to_json
from sitemap_plugins.core.publish import record_later_write
from sitemap_plugins.core.urls import encode_path
from sitemap_plugins.include_sources import IncludeSources
from sitemap_plugins.macros_sources import MacrosSources
from sitemap_plugins.material_sitemap import material_misses_sitemap
from sitemap_plugins.material_tags import MaterialTags
from sitemap_plugins.mkdocstrings_sources import MkdocstringsSources
from sitemap_plugins.monorepo_sources import MonorepoSources
from sitemap_plugins.other_plugins import loaded
from sitemap_plugins.snippet_sources import SnippetSources, snippets_enabled

if TYPE_CHECKING:  # the page for humans is imported by the builds that write it
    from sitemap_plugins.core.human_page import Listing

log = logging.getLogger("mkdocs.plugins.sitemap")
"""Under ``mkdocs``, so that ``mkdocs build --strict`` counts our warnings."""

MKDOCS_DEFAULTS: Mapping[str, object] = {"gzip": "both"}
"""MkDocs has always written ``sitemap.xml`` and ``sitemap.xml.gz``; whatever reads either keeps
working."""

_SOURCES_FORMAT: Final = 3
"""The format of what is kept of a source between builds (the "sources" memo of
:mod:`~sitemap_plugins.core.file_memo`). It must change whenever a source would be kept or read
back otherwise (:func:`_kept`, :func:`_last_rendered`, or the JSON form of metadata values in
:mod:`~sitemap_plugins.core.json_values`): a source as it was would keep the old value.
2: whether the page is tagged and holds a listing of Material's tags plugin. 3: the page's
title as MkDocs rendered it."""

_TagState = tuple[bool, bool]
"""Whether a page is tagged, and whether Material's tags plugin renders a listing into it (see
:mod:`~sitemap_plugins.material_tags`)."""


class _CoreOption(BaseConfigOption[object]):
    """One option of the core's schema, checked by it when MkDocs reads ``mkdocs.yml``."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self.spec = next(spec for spec in OPTION_SPECS if spec.name == name)
        self.default = MKDOCS_DEFAULTS.get(name, self.spec.default)

    def run_validation(self, value: object, /) -> object:
        try:
            self.spec.check(value)
        except ValueError as error:
            raise ValidationError(
                f"{shown(value, error)!r} is not allowed (allowed: {error})"
            ) from None
        return value


class SitemapConfig(Config):  # type: ignore[no-untyped-call]
    """The core's options under their own names; a test holds this list to the schema."""

    base_url = c.Optional(_CoreOption("base_url"))
    filename = c.Optional(_CoreOption("filename"))
    format = _CoreOption("format")
    gzip = _CoreOption("gzip")
    urls_per_file = _CoreOption("urls_per_file")
    bytes_per_file = _CoreOption("bytes_per_file")
    lastmod_sources = _CoreOption("lastmod_sources")
    git_date = _CoreOption("git_date")
    git_fetch_history = _CoreOption("git_fetch_history")
    git_ignore_commits = _CoreOption("git_ignore_commits")
    git_ignore_commits_file = c.Optional(_CoreOption("git_ignore_commits_file"))
    lastmod_format = _CoreOption("lastmod_format")
    changefreq = c.Optional(_CoreOption("changefreq"))
    priority = c.Optional(_CoreOption("priority"))
    rules = _CoreOption("rules")
    exclude = _CoreOption("exclude")
    images = _CoreOption("images")
    news = c.Optional(_CoreOption("news"))
    robots_txt = _CoreOption("robots_txt")
    indexnow_key = c.Optional(_CoreOption("indexnow_key"))
    html_page = _CoreOption("html_page")
    indent = _CoreOption("indent")
    strict = _CoreOption("strict")


class SitemapPlugin(BasePlugin[SitemapConfig]):  # type: ignore[no-untyped-call]
    """Hands what each build wrote to one :class:`~sitemap_plugins.core.SitemapBuilder`."""

    def __init__(self) -> None:
        self._builder: SitemapBuilder | None = None
        self._builder_docs_dir: Path | None = None  # the docs_dir _builder was made for
        self._seen: dict[tuple[str, str], Page | LeftOut] = {}
        self._rendered: dict[tuple[str, str], tuple[MkDocsPage, str | None]] = {}
        self._files: list[File] = []
        self._outputs: dict[str, str] = {}  # every file written, see on_env
        self._built_in: dict[tuple[str, str], str] = {}  # each page's language build
        self._site_urls: dict[str, str | None] = {}  # each language build's site_url
        self._folders: dict[str, str | None] = {}  # each language's, under the base URL
        self._redirected: frozenset[str] = frozenset()  # mkdocs-redirects' stubs, see _stub_path
        self._i18n: Any = None
        self._default_locale: str | None = None  # mkdocs-static-i18n's, for x-default
        self._dirs = ("", "")
        self._origins = ""  # what a page's origin starts with: the docs folder's name
        self._project_dir = ""  # the folder of mkdocs.yml, which names a monorepo's pages
        self._nav: Any = None
        self._snippet_sources = SnippetSources()
        self._include_sources: IncludeSources | None = None  # with mkdocs-include-markdown
        self._macros_sources: MacrosSources | None = None  # with mkdocs-macros-plugin
        self._macros_read: tuple[str, ...] = ()  # what macros includes in the page it renders
        self._mkdocstrings: MkdocstringsSources | None = None  # with mkdocstrings
        self._monorepo: MonorepoSources | None = None  # with mkdocs-monorepo-plugin
        self._generators: tuple[str, ...] = ()  # the scripts mkdocs-gen-files runs
        self._blogs: tuple[tuple[str, str], ...] = ()  # Material blogs' folders, posts' folders
        self._tags: MaterialTags | None = None  # with Material's tags plugin rendering listings
        self._tag_state: dict[tuple[str, str], _TagState] = {}  # each page's, last rendered
        self._tag_listings: dict[tuple[str, str], bool] = {}  # rendered pages holding a listing
        self._read_in: dict[tuple[str, str], tuple[str, ...]] = {}  # what each page read in
        self._offered: set[str] = set()  # files read in this build's history pass was told of
        self._started_at: dt.datetime | None = None  # see on_startup
        self._material_unread: str | None = None  # why Material finds no sitemap.xml of ours

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance across ``serve`` rebuilds (see module).

        The first build of the command begins here: before any plugin's ``on_config``, where a
        plugin listed before this one may already write a page into ``docs_dir``. Each later
        ``serve`` rebuild begins at its ``on_config``."""
        self._started_at = dt.datetime.now(dt.timezone.utc)

    def on_config(self, config: MkDocsConfig) -> None:
        # MkDocs' own sitemap template would be written with the build date as lastmod.
        config.theme.static_templates.discard("sitemap.xml")
        extensions = config.markdown_extensions
        if snippets_enabled(extensions) and self._snippet_sources not in extensions:
            extensions.append(self._snippet_sources)  # last: after snippets has registered
        if not self._nested_build():
            config_dir = Path(config.config_file_path or ".").parent
            self._mkdocstrings = MkdocstringsSources.of(config.plugins.values(), config_dir)
        if self._mkdocstrings is not None and self._mkdocstrings not in extensions:
            extensions.append(self._mkdocstrings)
        if self._nested_build():
            return  # the same plugins: the includes' list is read on from where it was
        self._include_sources = IncludeSources.of(config.plugins.values())
        self._macros_sources = MacrosSources.of(config.plugins.values())
        self._monorepo = MonorepoSources.of(config.plugins.values())
        self._generators = _generator_scripts(config.plugins.values())
        self._blogs = _material_blogs(config.plugins.values(), config.docs_dir)
        self._tags = MaterialTags.of(config.plugins.values())
        self._tag_listings = {}
        self._i18n = _find_i18n(config)
        self._files = []
        self._outputs = {}
        self._built_in = {}
        self._site_urls = {}
        self._rendered = {}
        self._offered = set()
        if self._dirs != (config.site_dir, config.docs_dir):
            self._seen = {}  # MkDocs keeps one instance per process, even across sites
            self._read_in = {}
            self._tag_state = {}
        self._dirs = (config.site_dir, config.docs_dir)
        docs_dir_named = (
            config.docs_dir if self._monorepo is None else self._monorepo.docs_dir(config.docs_dir)
        )
        self._origins = posixpath.join(posixpath.basename(docs_dir_named), "")
        config_file = os.path.abspath(config.config_file_path or "mkdocs.yml")  # noqa: PTH100
        self._project_dir = os.path.dirname(config_file)  # noqa: PTH120 - a str is kept
        maps = getattr(config.plugins.get("redirects"), "config", {}).get("redirect_maps") or {}
        urls = config.use_directory_urls
        self._redirected = frozenset(_stub_path(str(key), urls) for key in maps)
        values = dict(self.config)
        if not values.get("git_ignore_commits") and not values.get("git_ignore_commits_file"):
            inherited = _ignored_commits_file(config.plugins.values())
            if inherited is not None:
                values["git_ignore_commits"] = read_borrowed_ignore_revs(
                    Path(self._project_dir, inherited)
                )
        if config.strict:  # mkdocs build --strict: decided before anything is written, as ours
            values["strict"] = True
        try:
            options = Options.from_mapping(
                values, defaults=MKDOCS_DEFAULTS, folder=Path(self._project_dir)
            )
        except OptionError as error:  # a combination no single option could check
            raise PluginError(f"sitemap: {error}") from None
        # Said once the files are known (on_env): a sitemap.xml of the site's own is what
        # Material reads.
        self._material_unread = _sitemap_material_misses(config, options, self.config)
        docs_dir = Path(config.docs_dir)
        if (
            self._builder is None
            or self._builder.options != options
            or self._builder_docs_dir != docs_dir
        ):
            self._builder = SitemapBuilder(
                options,
                LoggingReporter(log),
                base_url_setting="site_url in mkdocs.yml",
                cache_dir=Path(config.config_file_path or ".").parent
                / ".cache"
                / "sitemap-plugins",
                source_folders=[docs_dir],
            )
            self._builder_docs_dir = docs_dir
        # The first build after on_startup began there; a serve rebuild begins now.
        began, self._started_at = self._started_at, None
        self._builder.start(docs_dir, began=began)

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> None:
        # No longer a template, the theme's sitemap.xml would be copied as a static file.
        # Only the theme's: one the site made itself (a mkdocs-gen-files script, a hook) is
        # the site's own, written like any file of docs_dir.
        template = files.get_file_from_path("sitemap.xml")
        if template is not None and _is_theme_file(template, config):
            files.remove(template)

    def _nested_build(self) -> bool:
        """Whether mkdocs-static-i18n is building a further language inside its post_build."""
        return bool(getattr(self._i18n, "building", False))

    def on_nav(self, nav: Any, /, *, config: MkDocsConfig, files: Files) -> None:
        if not self._nested_build():
            self._nav = nav  # the site's navigation, for the page for humans

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> None:
        # Every build (one per language with i18n) adds its files; the last post_build writes.
        # Each language's build has that language's site_url, which its pages' canonical URLs
        # start with: mkdocs-static-i18n puts a language's own in the config before it builds.
        language = str(getattr(self._i18n, "current_language", "") or "")
        self._site_urls.setdefault(language, config.site_url)
        # Once every plugin and hook has added its files: one may be a sitemap.xml of the site's.
        unread = self._material_unread
        if unread and not self._nested_build() and not _published(files, "sitemap.xml"):
            log.warning("sitemap: %s", unread)
        # Once each: Material 9.3 to 9.5 append their tags_file's File to the files a second
        # time, and the page was listed twice, with a warning that --strict stopped on.
        pages = list({id(file): file for file in files if file.is_documentation_page()}.values())
        self._files.extend(pages)
        if self._i18n is not None:
            self._built_in.update((_key(file), language) for file in pages)
        self._outputs.update(self._written_files(files, config))

    def _written_files(self, files: Files, config: MkDocsConfig) -> Iterator[tuple[str, str]]:
        """Each file this build writes (pages, and the files it copies: a ``sitemap.xml`` or
        ``sitemap.html`` in docs_dir, a theme's), by path from the site's folder, with its
        source as a warning names it: neither the sitemap nor the page for humans goes over
        one of them. (The theme's ``sitemap.xml`` is no longer among them, see on_files.) A
        language build of mkdocs-static-i18n writes into a folder of the site's, so paths
        are taken from the site's own folder, not the build's ``dest_uri``. Made at every
        build: about 6 microseconds a file (15 ms for the 2,500 files of a 2,000-page site
        whose build takes two minutes)."""
        site = os.path.join(self._dirs[0], "")  # noqa: PTH118
        docs = os.path.join(config.docs_dir, "")  # noqa: PTH118
        for file in files:
            inclusion = getattr(file, "inclusion", None)
            if inclusion is not None and inclusion.is_excluded():
                continue  # not written by mkdocs build
            dest = file.abs_dest_path
            if not dest.startswith(site):
                continue
            source = file.abs_src_path or ""
            made_by = getattr(file, "generated_by", None)
            if made_by:  # its source, if any, is a temporary file gone once the build ends
                origin = f"{file.src_uri} (made by {made_by})"
            elif source.startswith(docs) or not source:
                origin = self._origin(file)
            else:
                origin = source
            yield dest[len(site) :].replace(os.sep, "/"), origin

    # After mkdocs-include-markdown-plugin (100), whose includes may hold macros' own, and before
    # mkdocs-macros-plugin (0), which replaces its includes with what they hold.
    @event_priority(50)
    def on_page_markdown(
        self, markdown: str, /, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> None:
        self._snippet_sources.take()  # whatever was read outside a page's rendering
        if self._mkdocstrings is not None:
            self._mkdocstrings.take()
        self._macros_read = (
            ()
            if self._macros_sources is None
            else self._macros_sources.included(markdown, page.meta, page.file.src_path)
        )
        if self._tags is not None:  # before the tags plugin replaces its directives
            self._tag_listings[_key(page.file)] = self._tags.lists(page.file.src_uri, markdown)

    @event_priority(1000)  # the first handler once MkDocs has rendered the page
    def on_page_content(
        self, html: str, /, *, page: MkDocsPage, config: MkDocsConfig, files: Files
    ) -> None:
        # Included before rendering (mkdocs-include-markdown-plugin, then macros), snippets during.
        included = () if self._include_sources is None else self._include_sources.take()
        macros, self._macros_read = self._macros_read, ()
        documented = () if self._mkdocstrings is None else self._mkdocstrings.take()
        read = tuple(
            dict.fromkeys((*included, *macros, *self._snippet_sources.take(), *documented))
        )
        if not read:
            self._read_in.pop(_key(page.file), None)
            return
        self._read_in[_key(page.file)] = read
        fresh = [path for path in read if path not in self._offered]
        if fresh and self._builder is not None:
            # A file beyond docs_dir joins the history pass begun in on_config now, while
            # MkDocs renders, rather than in a second pass once it is done.
            self._offered.update(fresh)
            self._builder.widen(fresh)

    @event_priority(-100)  # after plugins that still change the HTML
    def on_post_page(self, output: str, /, *, page: MkDocsPage, config: MkDocsConfig) -> None:
        # Only kept here: described all at once after the build, where it costs a fifth of what
        # it costs between two pages' rendering (whose work has pushed ours out of the caches).
        # Of the HTML only the head waits, where noindex, redirects and titles are read: themes
        # put the whole navigation in every page, and a 3,000-page site's pages held in memory
        # until the end made the build's peak memory grow with the square of the site. The
        # images option reads the body too: from the file MkDocs writes, once, at the end.
        images = self._builder is not None and self._builder.options.images
        self._rendered[_key(page.file)] = (page, None if images else head_of(output))

    @event_priority(-150)  # after mkdocs-static-i18n (-100) has built the other languages
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self._nested_build() or self._builder is None:
            return
        self._default_locale = str(getattr(self._i18n, "default_language", "") or "") or None
        base_url = self._site_urls.get(self._default_locale or "", config.site_url)
        folders = self._language_folders(base_url)
        if folders != self._folders:
            self._seen = {}  # pages described with other languages' URLs
            self._folders = folders
        # mkdocs-monorepo-plugin builds from a new temporary folder in each process: what is
        # kept of the sources is kept for the docs folder the configuration names.
        docs_dir = config.docs_dir
        if self._monorepo is not None:
            docs_dir = self._monorepo.docs_dir(docs_dir)
        with collector_paused():
            sources = FileMemo(
                self._builder.cache_dir, "sources", str(Path(docs_dir).absolute()), _SOURCES_FORMAT
            )
            for key, (page, head) in self._rendered.items():
                dest = page.file.abs_dest_path
                html = WrittenFile(dest) if head is None else WrittenText(head, dest)
                read_in = self._read_in.get(key, ())
                left_out = self._left_out(page.file)
                self._seen[key] = (
                    left_out
                    if left_out is not None
                    else self._described(page.file, page.meta, html, page, read_in)
                )
                state = None
                if self._tags is not None:
                    state = (self._tags.tagged(page.meta), self._tag_listings.get(key, False))
                    self._tag_state[key] = state
                _keep_rendered(page.file, page.meta, read_in, sources, state, _shown_title(page))
            self._rendered = {}
            self._tag_listings = {}
            written = [self._seen_or_read(file, sources) for file in self._files]
            if self._tags is not None:
                self._list_tagged_pages(written, docs_dir)
            sources.save()
            self._files = []
        try:
            summary = self._builder.build(
                written,
                Path(config.site_dir),
                host_base_urls=[("site_url in mkdocs.yml", base_url)],
                host_files=self._outputs,
            )
        except SitemapError as error:
            # MkDocs logs a PluginError as one error line and fails the build (serve goes on).
            raise PluginError(f"sitemap: {error}") from None
        log.info("%s", summary.line())
        if summary.listing is not None:
            self._write_listing(summary.listing, config)

    def _language_folders(self, base_url: str | None) -> dict[str, str | None]:
        """Where each language's pages are under the sitemap's base URL (our ``base_url``
        option, else ``base_url``, the default language's ``site_url``), for languages whose own
        ``site_url`` (a mkdocs-static-i18n setting) moves their canonical URLs: ``"fr/"`` for
        ``https://example.org/fr/`` under ``https://example.org/``, as ``file.url``s are
        encoded; None for one on another host, scheme or folder, which this sitemap cannot
        list (it says so, once per language). A language that keeps the base URL, or the
        default language's ``site_url``, is not named.
        """
        folders: dict[str, str | None] = {}
        # Our base_url option first, then site_url, as the core chooses the sitemap's base URL.
        option = self._builder.options.base_url if self._builder else None
        reference = option or base_url
        if self._i18n is None or not reference:
            return folders
        from sitemap_plugins.core.languages import folder_under  # translated sites only

        if folder_under(reference, reference) is None:
            return folders  # no base URL: the core says so, and lists nothing
        for language, site_url in self._site_urls.items():
            if not site_url or (base_url and folder_under(base_url, site_url) == ""):
                continue  # the default language's site_url: its pages are at the base URL
            folder = folder_under(reference, site_url)
            if folder == "":
                continue
            folders[language] = None if folder is None else encode_path(folder, encoded=False)
            if folder is None and self._builder is not None:
                self._builder.reporter.warning(
                    Code.BAD_URL,
                    f"the {language!r} pages are left out, and no page names them as its "
                    f"translation: their site_url {site_url!r} (mkdocs-static-i18n's languages) "
                    f"is outside {reference}, the folder this sitemap lists (one host and "
                    "folder per sitemap)",
                )
        return folders

    def _url(self, language: str, url: str) -> str | None:
        """A page's URL in the form of :attr:`Page.path`, built by ``language``'s build: under
        its own ``site_url``'s folder where it has one, None where that is outside the site."""
        folder = self._folders.get(language, "")
        return None if folder is None else folder + url

    def _write_listing(self, listing: Listing, config: MkDocsConfig) -> None:
        """The page for humans through the theme's ``main.html``, as MkDocs renders any page:
        a page object of MkDocs' own with the listing as its content, in MkDocs' own context,
        so the site's header, navigation and styles frame it. A theme without ``main.html``
        (or one that fails on a page that has no Markdown source) gets the core's plain page.
        Written after the sitemap, so it is not one of the pages the sitemap lists.

        With mkdocs-static-i18n, in the default language's config, as the root's other pages.

        Why not a generated Markdown page added in ``on_files``: what it lists is known only
        once every page is rendered (a theme's ``noindex``, each page's title, the dates), after
        MkDocs has rendered its pages; a page added early would also join the navigation and
        the search index, which a list of links has no place in.
        """
        with _default_language(self._i18n, config):
            try:
                text = _themed(listing, config, self._nav)
            except Exception as error:  # a theme's template may fail in any way
                log.info(
                    "sitemap: %s written plain (the theme could not render it: %s)",
                    listing.relpath,
                    error,
                )
                text = None
            if text is None:
                text = listing.document(lang=_language(config), site_name=config.site_name)
        from sitemap_plugins.core.human_page import write_html_page  # with html_page only

        try:
            write_html_page(Path(config.site_dir), listing.relpath, text)
            # Recorded, so that a --dirty build with html_page off removes it.
            record_later_write(Path(config.site_dir), listing.relpath)
        except SitemapError as error:
            raise PluginError(f"sitemap: {error}") from None

    def _seen_or_read(self, file: File, sources: FileMemo) -> Page | LeftOut:
        """A page MkDocs did not render this build: what an earlier build saw of it, unless
        the configuration now leaves it out (exclude_docs, draft_docs, a redirect), which MkDocs
        renders no page for; or left out then and not now, when it is read back."""
        left_out = self._left_out(file)
        if left_out is not None:
            self._seen[_key(file)] = left_out
            return left_out
        seen = self._seen.get(_key(file))
        if seen is None or isinstance(seen, LeftOut):
            # A --dirty build skipped this unchanged page: read it back from its output, with
            # the metadata it was last rendered with and the files it read in then.
            meta, read_in, state, title = _last_rendered(
                file, self._source(file), sources, self._tags
            )
            html = WrittenFile(file.abs_dest_path)
            seen = self._described(file, meta, html, file.page, read_in, title)
            self._seen[_key(file)] = seen
            if state is not None:
                self._tag_state[_key(file)] = state
        return seen

    def _list_tagged_pages(self, written: list[Page | LeftOut], docs_dir: str) -> None:
        """Each page Material's tags plugin renders a listing into (in ``written``, the pages
        of this build in the order of ``self._files``) made a page that lists every tagged page
        and takes them from ``docs_dir`` (see :mod:`~sitemap_plugins.material_tags`): as new as
        its own source, the newest tagged page, and the last time a file left ``docs_dir`` (a
        tagged page deleted). A page the configuration leaves out is not rendered: neither
        tagged nor a listing."""
        tagged: list[str] = []
        holders: list[tuple[int, Page]] = []
        for index, file in enumerate(self._files):
            state = self._tag_state.get(_key(file))
            if state is None or self._left_out(file) is not None:
                continue
            if state[0]:
                tagged.append(self._source(file))
            page = written[index]
            if state[1] and isinstance(page, Page):
                holders.append((index, page))
        folders = (os.path.abspath(docs_dir),)  # noqa: PTH100 - a str is kept
        for index, page in holders:
            own = page.sources[0] if page.sources else None
            items = tuple(source for source in tagged if source != own)
            written[index] = dataclasses.replace(page, listed_sources=items, listed_folders=folders)

    def _left_out(self, file: File) -> LeftOut | None:
        """Why the site's configuration keeps ``file`` out, whatever its page says: excluded or
        a draft (MkDocs 1.6), the not-found page, or a page mkdocs-redirects replaces."""
        inclusion = getattr(file, "inclusion", None)
        if inclusion is not None and inclusion.is_excluded():
            draft = inclusion.name == "DRAFT"
            return LeftOut(Reason.DRAFT if draft else Reason.HOST_EXCLUDED, self._origin(file))
        if _is_not_found_page(file):
            return LeftOut(Reason.NOT_FOUND_PAGE, self._origin(file))
        if self._redirected and self._from_site(file) in self._redirected:
            return LeftOut(Reason.REDIRECT_STUB, self._origin(file))
        return None

    def _from_site(self, file: File) -> str:
        """Where ``file`` is written, by path from the site's folder (a language build of
        mkdocs-static-i18n writes into a folder of it, see :meth:`_written_files`)."""
        site = os.path.join(self._dirs[0], "")  # noqa: PTH118
        dest = file.abs_dest_path
        return dest[len(site) :].replace(os.sep, "/") if dest.startswith(site) else file.dest_uri

    def _origin(self, file: File) -> str:
        if self._monorepo is not None and file.abs_src_path:
            # Not the temporary folder the plugin merged the docs into: the file a user edits.
            source = os.path.abspath(self._source(file))  # noqa: PTH100 - a str is kept
            inside = os.path.commonpath((source, self._project_dir)) == self._project_dir
            if inside:
                return os.path.relpath(source, self._project_dir).replace(os.sep, "/")
        return self._origins + file.src_uri

    def _source(self, file: File) -> str:
        """The file a page is rendered from: its own, or with mkdocs-monorepo-plugin the one
        copied to it, which MkDocs is told of only for the pages it renders (see
        :mod:`~sitemap_plugins.monorepo_sources`)."""
        path = file.abs_src_path or ""
        return self._monorepo.original(path) if self._monorepo is not None and path else path

    def _described(
        self,
        file: File,
        meta: Mapping[str, Any],
        html: WrittenText | WrittenFile,
        page: MkDocsPage | None,
        read_in: tuple[str, ...] = (),
        last_title: str | None = None,
    ) -> Page | LeftOut:
        """What the core needs of a page the configuration keeps in (the callers have asked
        :meth:`_left_out` first), or why it is left out all the same. ``last_title`` is the
        title of a page MkDocs did not read this build (see :func:`_last_rendered`): it holds
        none of its own then, but a title from ``nav``."""
        origin = self._origin(file)
        path = self._url(self._built_in.get(_key(file), ""), file.url)
        if path is None:  # its language's site_url is elsewhere (warned once, above)
            return LeftOut(Reason.CANONICAL_ELSEWHERE, origin)
        generated = getattr(file, "generated_by", None) is not None or not file.abs_src_path
        # A post's news fields and a page's title are looked up only for the features that
        # use them (the news sitemap, the page for humans): on every page, every build.
        options = self._builder.options if self._builder is not None else None
        posts = getattr(page, "posts", None)  # a Material blog index's
        return Page(
            path=path,
            origin=origin,
            sources=self._generated_sources(file, read_in)
            if generated
            else (self._source(file), *read_in),
            sitemap=meta.get("sitemap"),
            updated=_post_date(page),
            translations=self._translations(file),
            default_locale=self._default_locale,
            listed_dates=tuple(_post_date(post) for post in posts) if posts else (),
            listed_folders=self._posts_folders(file.src_uri) if posts is not None else (),
            html=html,
            article=self._article(file, page) if options and options.news is not None else None,
            title=_title(_shown_title(page) or last_title)
            if options and options.html_page
            else None,
        )

    def _posts_folders(self, src_uri: str) -> tuple[str, ...]:
        """The posts folder of the Material blog a view of ``src_uri`` belongs to (its own page,
        an archive, a category, an author's): a post deleted there left the view. The blog
        whose folder holds the view, the innermost; else every blog's."""
        holding = [
            (blog, posts)
            for blog, posts in self._blogs
            if not blog or src_uri.startswith(blog + "/")
        ]
        if not holding:
            return tuple(posts for _, posts in self._blogs)
        return (max(holding, key=lambda item: len(item[0]))[1],)

    def _generated_sources(self, file: File, read_in: tuple[str, ...]) -> tuple[str, ...]:
        """A page mkdocs-gen-files writes has no source of its own, and what its scripts read
        is unknown: undated. One that shows files it reads in (the modules of mkdocstrings'
        ``::: mypkg.models``, the usual API reference pages) is made of them and of the lines
        the scripts wrote: it is as new as the newest of those files and scripts."""
        if not read_in or not self._generators or getattr(file, "generated_by", None) != _GEN_FILES:
            return ()
        return (*self._generators, *read_in)

    def _article(self, file: File, page: MkDocsPage | None) -> Article | None:
        """A Material blog post, for the news sitemap: its ``date.created``, its title, and its
        language when mkdocs-static-i18n built it in another than the default."""
        created = _post_date(page, "created")
        if created is None or page is None:
            return None
        locale = str(getattr(file, "locale", "") or "")
        default = str(getattr(self._i18n, "default_language", "") or "")
        return Article(created, page.title, locale if locale and locale != default else None)

    def _translations(self, file: File) -> dict[str, str]:
        """Each language version of the page as mkdocs-static-i18n links them, itself included."""
        locale = getattr(file, "locale", None)
        others: Mapping[str, File] = getattr(file, "alternates", None) or {}
        if self._i18n is None or not locale or not others:
            return {}
        urls = {str(lang): self._url(str(lang), alt.url) for lang, alt in others.items()}
        # A page the i18n plugin copied from another language as a fallback keeps that
        # language's locale: the plugin's own links say which URL each language has.
        urls.setdefault(str(locale), self._url(self._built_in.get(_key(file), ""), file.url))
        return {lang: url for lang, url in urls.items() if url is not None}


_GEN_FILES: Final = "mkdocs-gen-files"
"""What mkdocs-gen-files sets a file's ``generated_by`` to."""


def _ignored_commits_file(plugins: Iterable[object]) -> str | None:
    """The ``ignored_commits_file`` of mkdocs-git-revision-date-localized-plugin among MkDocs'
    ``plugins`` (relative to mkdocs.yml's folder, as that plugin reads it), or None: a site
    switching keeps the dates that plugin gave its pages, in the sitemap too."""
    plugin = loaded(plugins, "mkdocs_git_revision_date_localized_plugin")
    settings = getattr(plugin, "config", None)
    found = settings.get("ignored_commits_file") if isinstance(settings, Mapping) else None
    return found if isinstance(found, str) and found else None


def _generator_scripts(plugins: Iterable[object]) -> tuple[str, ...]:
    """The scripts of the first mkdocs-gen-files among MkDocs' ``plugins``, absolute (its
    ``scripts`` setting, which MkDocs checked exist); none without it."""
    plugin = loaded(plugins, "mkdocs_gen_files")
    settings = getattr(plugin, "config", None)
    scripts = settings.get("scripts") if isinstance(settings, Mapping) else None
    if not isinstance(scripts, list):
        return ()
    return tuple(os.path.abspath(str(script)) for script in scripts)  # noqa: PTH100


def _stub_path(key: str, use_directory_urls: bool) -> str:
    """Where mkdocs-redirects writes the stub of a ``redirect_maps`` key, from the site's
    folder: where MkDocs writes a page of that name (its ``get_html_path``), in every build,
    mkdocs-static-i18n's language builds too. The stub replaces the page written there
    whatever that page's own name: ``moved/index.md`` the page of ``moved.md``,
    ``guide/README.md`` that of ``guide/index.md``."""
    return File(key, "", "", use_directory_urls).dest_uri


def _is_not_found_page(file: File) -> bool:
    """Whether ``file`` is the site's not-found page: ``404.md`` at the top of docs_dir
    (``404.html``, the file hosts and ``mkdocs serve`` send for a missing URL, or ``404/``
    with use_directory_urls), and with mkdocs-static-i18n each language's (``404.fr.md``, or
    ``fr/404.md`` in its folder form, at ``fr/404/``). MkDocs renders a ``404.md`` as any
    page, wherever it is: one in a folder (``http/404.md``, about the status code) is a page
    like any other."""
    source = str(getattr(file, "norm_src_uri", "") or file.src_uri)  # i18n's, without the language
    return ("/" not in source and source.split(".")[0] == "404") or file.dest_uri == "404.html"


def _sitemap_material_misses(
    config: MkDocsConfig, options: Options, given: Mapping[str, object]
) -> str | None:
    """Why Material would find no ``sitemap.xml`` where it reads one, or None (see
    :mod:`.material_sitemap`, whose wording ``generate`` shares). ``given`` is the plugin's
    own settings in ``mkdocs.yml``: a file named by ``format`` alone is said to be the
    format's."""
    theme = config.theme
    if theme is None:
        return None
    extra: Any = config.extra  # whatever mkdocs.yml holds under extra
    version = extra.get("version") if isinstance(extra, Mapping) else None
    return material_misses_sitemap(
        theme.name,
        theme.get("features") or (),
        isinstance(version, Mapping) and bool(version.get("provider")),
        options,
        lambda option, value: _named_in_mkdocs_yml(option, value, options, given),
    )


def _named_in_mkdocs_yml(
    option: str, value: str, options: Options, given: Mapping[str, object]
) -> str:
    """A sitemap option's value as ``mkdocs.yml`` sets it: ``format`` where ``filename`` is
    the name the format gives (``format: txt`` writes ``sitemap.txt``)."""
    if option == "filename" and given.get("filename") is None:
        return f"the sitemap option format {options.format!r} in mkdocs.yml ({value})"
    return f"the sitemap option {option} {value!r} in mkdocs.yml"


def _material_blogs(plugins: Iterable[object], docs_dir: str) -> tuple[tuple[str, str], ...]:
    """Each Material blog among MkDocs' ``plugins`` that is on (the plugin may be loaded more
    than once): its folder in ``docs_dir`` (``blog``; ``""`` for the whole site) and the
    absolute folder of its posts, as the blog plugin finds them (``post_dir``, where
    ``{blog}`` is the blog's folder)."""
    blogs: list[tuple[str, str]] = []
    for plugin in plugins:
        if not type(plugin).__module__.startswith("material.plugins.blog."):
            continue
        settings = getattr(plugin, "config", None)
        if not isinstance(settings, Mapping) or not settings.get("enabled", True):
            continue
        try:
            blog = posixpath.normpath(str(settings.get("blog_dir", "blog")))
            posts = posixpath.normpath(
                str(settings.get("post_dir", "{blog}/posts")).format(blog=blog)
            )
        except (KeyError, IndexError, ValueError):  # a post_dir naming other fields
            continue
        folder = os.path.normpath(os.path.join(docs_dir, posts))  # noqa: PTH118
        blogs.append(("" if blog == "." else blog, folder))
    return tuple(blogs)


def _find_i18n(config: MkDocsConfig) -> Any:
    plugin = config.plugins.get("i18n")
    return plugin if hasattr(plugin, "building") and hasattr(plugin, "default_language") else None


def _under(path: str | None, directory: str) -> bool:
    """Whether ``path`` lies in ``directory``, both made absolute and normal: MkDocs joins
    ``custom_dir`` to the config's folder as it is written (``proj/../overrides``), while a
    file's ``abs_src_path`` is normalised."""
    if path is None:
        return False
    return Path(os.path.abspath(directory)) in Path(os.path.abspath(path)).parents  # noqa: PTH100


def _published(files: Files, path: str) -> bool:
    """Whether the build writes the file at ``path`` (``exclude_docs`` and, in a build,
    ``draft_docs`` keep a file of docs_dir out)."""
    file = files.get_file_from_path(path)
    inclusion = getattr(file, "inclusion", None)
    return file is not None and not (inclusion is not None and inclusion.is_excluded())


def _is_theme_file(file: File, config: MkDocsConfig) -> bool:
    """Whether MkDocs took ``file`` from the theme's folders (its ``custom_dir`` among them),
    not from the site: ``docs_dir``, or a file a plugin or hook made."""
    theme = config.theme
    return theme is not None and any(_under(file.abs_src_path, folder) for folder in theme.dirs)


def _key(file: File) -> tuple[str, str]:
    # With i18n the same source can be published once per language, so the URL is part of the key.
    return (file.src_uri, file.url)


def _keep_rendered(
    file: File,
    meta: Mapping[str, Any],
    read_in: tuple[str, ...],
    memo: FileMemo,
    state: _TagState | None = None,
    title: str | None = None,
) -> None:
    """Keep the ``sitemap`` metadata MkDocs rendered the page with, the files it read in
    (snippets, includes), what Material's tags plugin made of it and its title, for a later
    ``--dirty``
    build in a fresh process that does not render it again: what the page's source says, plus
    what other plugins added (Material's ``.meta.yml`` files, hooks), which its source alone
    does not tell."""
    name = file.abs_src_path
    if not name:
        return
    stamp, known = memo.recall(name)
    if stamp is None:
        return
    kept = _kept(file, meta, read_in, state, title)
    if kept is None:
        memo.forget(name)
    elif kept != known:
        memo.remember(name, stamp, kept)


def _last_rendered(
    file: File, name: str, memo: FileMemo, tags: MaterialTags | None = None
) -> tuple[Mapping[str, Any], tuple[str, ...], _TagState | None, str | None]:
    """The metadata of a page MkDocs did not render in this build from its source ``name``, the
    files it read in (snippets, includes), with Material's ``tags`` plugin what it made of the
    page, and its title: as it was last rendered while its source stays as it was then, else
    its source's front matter, read as MkDocs reads it (without what plugins would add), no
    files read in, and the title MkDocs gives a page it has not rendered
    (:func:`_source_title`). MkDocs holds no title for such a page: the page for humans showed
    its HTML ``<title>`` instead (``Guide - Example``, the site's name for the home page)."""
    stamp, known = memo.recall(name)
    if known is not None and len(known) == 5 and known[0] == file.url:
        state = _tag_state(known[3])
        title = known[4] if isinstance(known[4], str) else None
        if tags is None or state is not None:  # else kept without the tags plugin
            if known[1] is None and not known[2]:  # most pages: no sitemap value, nothing read in
                return EMPTY, (), state, title
            try:
                value = from_json(known[1])
                read_in = tuple(str(path) for path in known[2])
            except (ValueError, TypeError):
                pass  # kept by another version: read the source
            else:
                return ({} if value is None else {"sitemap": value}), read_in, state, title
    try:
        with open(name, encoding="utf-8-sig") as source:
            text = source.read()
        markdown, meta = get_data(text)
    except (OSError, ValueError):
        return {}, (), None, None
    state = None if tags is None else (tags.tagged(meta), tags.lists(file.src_uri, text))
    title = _source_title(file, meta, markdown)
    kept = _kept(file, meta, (), state, title)
    if stamp is not None and kept is not None:
        memo.remember(name, stamp, kept)
    return meta, (), state, title


def _kept(
    file: File,
    meta: Mapping[str, Any],
    read_in: tuple[str, ...],
    state: _TagState | None,
    title: str | None,
) -> list[Any] | None:
    """What is kept of a rendered page (its URL, as one source can be published under two with
    mkdocs-static-i18n, its ``sitemap`` value, the files it read in, what Material's tags
    plugin made of it, and its title as MkDocs holds it), or None when that value would not
    come back as it is (see :mod:`~sitemap_plugins.core.json_values`)."""
    value = to_json(meta.get("sitemap"))
    if value is CANNOT_KEEP:
        return None
    return [file.url, value, list(read_in), None if state is None else list(state), title]


def _source_title(file: File, meta: Mapping[str, Any], markdown: str) -> str | None:
    """The title MkDocs gives a page from its source alone, in the order its ``Page.title``
    takes before the page is rendered: front matter ``title``, a first line ``# heading``,
    ``Home`` for the home page, else the file's name. Only where nothing of a render is kept
    (a memo of another format, or none): a rendered page's first heading may lie lower."""
    title = meta.get("title")
    if isinstance(title, str) and title:
        return title
    for line in markdown.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if line.strip():
            if line.strip().startswith("# "):
                return line.strip().lstrip("# ") or None
            break
    if getattr(file.page, "is_homepage", False):
        return "Home"
    name = file.name.replace("-", " ").replace("_", " ")
    return name.capitalize() if name.lower() == name else name


def _tag_state(kept: object) -> _TagState | None:
    """What :func:`_kept` kept of the tags plugin, as it was; None if nothing was kept."""
    if isinstance(kept, list) and len(kept) == 2 and all(isinstance(one, bool) for one in kept):
        return kept[0], kept[1]
    return None


def _post_date(page: object, which: Literal["updated", "created"] = "updated") -> object:
    """A Material blog post's own date, ``date.updated`` else ``date.created`` (or only
    ``date.created`` when asked), from the dates Material read for the post
    (``page.config.date``); other pages' ``date`` often means when they were first written, so
    they have none here.

    Material turns a day written without a time into midnight UTC; that is the day written.
    """
    dates = getattr(getattr(page, "config", None), "date", None)
    if not isinstance(dates, Mapping) or "created" not in dates:
        return None
    date = (
        dates.get("created") if which == "created" else dates.get("updated") or dates.get("created")
    )
    if isinstance(date, dt.datetime) and not date.utcoffset() and date.time() == dt.time():
        return date.date()
    return date


def _shown_title(page: MkDocsPage | None) -> str | None:
    """The title MkDocs shows for the page (nav title, front matter, first heading), as MkDocs
    holds it; None for a page it did not read this build and that ``nav`` gives no title."""
    try:
        title = getattr(page, "title", None)
    except Exception:  # MkDocs 1.6 may compute it from a source it no longer holds
        return None
    return str(title) if title else None


def _title(title: str | None) -> str | None:
    """A title MkDocs holds, as text.

    MkDocs holds it as HTML: themes put it into the page unescaped, and MkDocs 1.6 renders a
    heading's title (``Tom &amp; "Jerry" &lt;3``). The core wants the text a reader sees.
    """
    if not title:
        return None
    from sitemap_plugins.core.html_text import html_text  # the page for humans' only

    return html_text(title) or None


@contextlib.contextmanager
def _default_language(i18n: Any, config: MkDocsConfig) -> Iterator[None]:
    """The config as mkdocs-static-i18n sets it for its default language, for the page at the
    site root, framed like the rest of the root.

    The plugin builds the other languages inside its ``post_build``, before ours, changing the
    one config in place for each (the theme's locale and language, each language's own
    overrides such as ``site_name``), and leaves it as the last language had it. Its own
    reconfiguration, run for the default language, puts back what the default build had: what
    it does at the start of every language's build. Without the plugin, or with a version that
    reconfigures otherwise, the config is used as it is.
    """
    reconfigure = getattr(i18n, "reconfigure_mkdocs_config", None)
    default = getattr(i18n, "default_language", None)
    if not callable(reconfigure) or not default or i18n.current_language == default:
        yield
        return
    built_last = i18n.current_language
    i18n.current_language = default
    try:
        try:
            reconfigure(config)
        except Exception as error:  # the plugin's own method, not an API it promises
            log.info("sitemap: the page for humans framed as %s was (%s)", built_last, error)
        yield
    finally:
        # The next build starts from the language the plugin expects; it reconfigures anyway.
        i18n.current_language = built_last


def _language(config: MkDocsConfig) -> str:
    theme_language = config.theme.get("language") if config.theme else None
    return str(theme_language or "en")


def _themed(listing: Listing, config: MkDocsConfig, nav: Any) -> str | None:
    """The listing inside the theme's ``main.html``, or None when the theme has none."""
    import jinja2
    from mkdocs.commands.build import get_context
    from mkdocs.structure.toc import get_toc

    env = config.theme.get_env()
    try:
        template = env.get_template("main.html")
    except jinja2.TemplateNotFound:
        return None
    source = listing.relpath[: -len(".html")] + ".md"
    file = File(source, config.docs_dir, config.site_dir, use_directory_urls=False)
    page = MkDocsPage("Sitemap", file, config)
    page.edit_url = None  # there is no source to edit
    page.content = "<h1>Sitemap</h1>\n" + listing.body()
    # The sections as the page's table of contents, which themes show beside the content.
    page.toc = get_toc(
        [
            # Themes put a contents entry's name into the page as HTML, as MkDocs makes it.
            {"level": 2, "id": anchor, "name": escape(title), "children": []}
            for anchor, title in listing.headings()
        ]
    )
    context = get_context(nav, [], config, page)
    return str(template.render(context))
