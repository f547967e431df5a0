"""The Sphinx extension: ``extensions = ["sitemap_plugins.sphinx"]`` in ``conf.py``.

The page list comes from the environment at ``build-finished``: every document, with the metadata
and dependencies that Sphinx itself keeps, purges and merges across incremental and parallel
builds. Listing only the pages written in this run (as sphinx-sitemap does) loses pages on every
build without ``-E``; reading the environment instead makes an incremental or ``-j auto`` build
give the same bytes as a clean one.

Pages written outside the document list (viewcode's ``_modules/``, ``html_additional_pages``,
``html-collect-pages``) are not in the environment: :class:`_ExtraPages` explains how they are
found, kept across builds that do not write them again, and dropped when they stop existing.

Everything else is the core's: the adapter only says which pages exist, their URLs as Sphinx
links them, their source files, their ``sitemap`` field and their translations.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from sphinx.application import Sphinx
from sphinx.config import Config
from sphinx.environment import BuildEnvironment
from sphinx.errors import ConfigError, ExtensionError
from sphinx.util import logging

from sitemap_plugins import __version__
from sitemap_plugins.core import (
    OPTION_SPECS,
    Alternate,
    Code,
    OptionError,
    Options,
    Page,
    SitemapBuilder,
    SitemapError,
    StrictError,
    has_robots_noindex,
)

logger = logging.getLogger(__name__)

PREFIX: Final = "sitemap_"
BASE_URL_SETTING: Final = "html_baseurl in conf.py"

# sphinx-sitemap's options that are not ours under the same name, with "not set" defaults so
# that only what a user wrote takes effect. sitemap_filename and sitemap_indent need no entry:
# they are our own options and mean the same thing.
_INCUMBENT_OPTIONS: Final[Mapping[str, object]] = {
    "sitemap_url_scheme": None,
    "sitemap_excludes": [],
    "sitemap_locales": None,
    "sitemap_show_lastmod": None,
}
_URL_SCHEME_ALLOWED: Final = "a string with {link}, optionally {lang} and {version}"
_LOCALES_ALLOWED: Final = "a list of locale names, or [None] to switch alternates off"

# Builders that produce HTML but not a website (serialised HTML for other tools).
_NOT_A_WEBSITE: Final = frozenset({"json", "pickle"})
_STRAIGHT_QUOTES: Final = str.maketrans(
    {"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'"}
)
_DOCS_LEFT_OUT: Final[Mapping[str, str]] = {"404": "404 page"}

_VIEWCODE: Final = "sphinx.ext.viewcode"
_MODULES: Final = "_modules/"  # viewcode's output folder, where a module's page is _modules/a/b
_MODULES_INDEX: Final = "_modules/index"
_ENV_VIEWCODE: Final = "sitemap_plugins_viewcode"
"""The environment's record, per document, of the viewcode pages its anchors link to."""
_RECORD_VERSION: Final = 1


class _Reporter:
    """Core warnings as Sphinx warnings of type ``sitemap``: ``-W`` and suppress_warnings apply."""

    def warning(self, code: Code, message: str) -> None:
        logger.warning(message, type="sitemap", subtype=code.value)

    def info(self, message: str) -> None:
        logger.info(message)


class _Settings:
    """The configuration of one site, checked once at ``config-inited``."""

    def __init__(self, config: Config, srcdir: Path, source_language: str) -> None:
        self.url_scheme = _url_scheme(config.sitemap_url_scheme)
        self.locales = _locales(config, srcdir)
        self.language: str = config.language or ""
        self.source_language = source_language or self.language
        self.version_prefix = f"{config.version}/" if config.version else ""
        self.values = _our_values(config, lambda link: self.path(link, self.language))
        self.options = _options(self.values)

    def path(self, link: str, language: str) -> str:
        """The served path of a link in ``language`` under the URL scheme."""
        return self.url_scheme.format(
            lang=f"{language}/" if language else "", version=self.version_prefix, link=link
        )

    def alternates(self, link: str) -> tuple[Alternate, ...]:
        if not self.locales or "{lang}" not in self.url_scheme:
            return ()
        languages = sorted({*self.locales, self.source_language, self.language} - {""})
        found = [Alternate(_hreflang(lang), self.path(link, lang)) for lang in languages]
        if self.source_language:
            found.append(Alternate("x-default", self.path(link, self.source_language)))
        return tuple(found)


class _Site:
    """The extension's state for one Sphinx application: its settings and one core builder.

    The builder is kept across builds of the same application (sphinx-autobuild, tests) so that
    the git history is walked once; it is replaced only when the options change.
    """

    def __init__(self, source_language: str) -> None:
        self.source_language = source_language
        self.reporter = _Reporter()
        self.settings: _Settings | None = None
        self.builder: SitemapBuilder | None = None
        self.extra = _ExtraPages()

    def config_inited(self, app: Sphinx, config: Config) -> None:
        self.settings = _Settings(config, Path(app.srcdir), self.source_language)
        explicit_locales = config.sitemap_locales not in (None, [], ())
        if explicit_locales and self.settings.locales and "{lang}" not in self.settings.url_scheme:
            self.reporter.warning(
                Code.CONFLICT,
                f"sitemap_locales {config.sitemap_locales!r} has no effect: the URL scheme "
                f"{self.settings.url_scheme!r} has no {{lang}} (set sitemap_url_scheme, "
                "for example to '{lang}{link}', to list hreflang alternates)",
            )

    def build_finished(self, app: Sphinx, exception: Exception | None) -> None:
        if exception is not None or self.settings is None or not _is_website(app.builder):
            return
        options = self.settings.options
        pages, left_out = _pages(app, self.settings, self.extra)
        if self.builder is None or self.builder.options != options:
            self.builder = SitemapBuilder(options, self.reporter, base_url_setting=BASE_URL_SETTING)
        try:
            summary = self.builder.build(
                pages,
                Path(app.outdir),
                left_out=left_out,
                host_base_url=self._host_base_url(app.config),
            )
        except StrictError as error:
            _fail(
                app,
                f"{error.warnings} warning(s) and sitemap_strict is on (see above)"
                + ("" if error.written else "; no sitemap written"),
            )
            return
        except SitemapError as error:
            _fail(app, str(error))
            return
        self.reporter.info(summary.line())

    @staticmethod
    def _host_base_url(config: Config) -> tuple[str, str | None]:
        """The host's base URL, for when ``sitemap_base_url`` is unset, as (setting, value).

        ``html_baseurl`` first, then Read the Docs' canonical URL; the core checks the value.
        """
        if config.html_baseurl:
            return ("html_baseurl", config.html_baseurl)
        return ("READTHEDOCS_CANONICAL_URL", os.environ.get("READTHEDOCS_CANONICAL_URL"))


def _fail(app: Sphinx, message: str) -> None:
    """Fail the build with one error line, as Sphinx reports a build that went wrong.

    Raising is no way to do it: since Sphinx 8.1, sphinx-build shows every exception from an
    extension, SphinxError included, as a crash report with a traceback that asks for a bug
    report. An error logged through Sphinx and a failing exit status read as what they are;
    with -W (Sphinx 7) the error stops the build at once, as any warning does.
    """
    logger.error("sitemap: %s", message)
    app.statuscode = 1


def _our_values(config: Config, link_path: Callable[[str], str]) -> dict[str, object]:
    """Our options as the user set them, with sphinx-sitemap's equivalents mapped in.

    This is the one place where sphinx-sitemap's configuration is translated into ours.
    Its exclude patterns match the link before the URL scheme adds a language or version
    prefix; ours match the served path, so the prefix is put in front of each pattern.
    """
    values: dict[str, object] = {}
    for spec in OPTION_SPECS:
        name = PREFIX + spec.name
        value = config[name]
        if name in config.overrides and isinstance(value, str):
            value = _command_line_value(value, spec.default)
        values[spec.name] = value
    excludes = config.sitemap_excludes
    if excludes:
        _check("sitemap_excludes", excludes, _is_string_list, "a list of URL patterns")
        if isinstance(values["exclude"], (list, tuple)):  # else the core reports it
            values["exclude"] = [*values["exclude"], *map(link_path, excludes)]
    show_lastmod = config.sitemap_show_lastmod
    if show_lastmod is not None:
        _check("sitemap_show_lastmod", show_lastmod, _is_bool, "True or False")
        if not show_lastmod:
            values["lastmod_sources"] = []
    return values


def _options(values: Mapping[str, object]) -> Options:
    try:
        return Options.from_mapping(values, prefix=PREFIX)
    except OptionError as error:
        raise ConfigError(str(error)) from None


def _url_scheme(value: object) -> str:
    """sphinx-sitemap's URL template; unset means no language or version prefix."""
    if value is None:
        return "{link}"
    _check("sitemap_url_scheme", value, _is_url_scheme, _URL_SCHEME_ALLOWED)
    assert isinstance(value, str)
    return value


def _locales(config: Config, srcdir: Path) -> tuple[str, ...]:
    """sitemap_locales, or when unset the translations found in locale_dirs (as sphinx-sitemap)."""
    value = config.sitemap_locales
    if value == [None]:
        return ()
    if value not in (None, [], ()):
        _check("sitemap_locales", value, _is_string_list, _LOCALES_ALLOWED)
        return tuple(value)
    found: set[str] = set()
    for folder in config.locale_dirs or ():
        directory = srcdir / folder
        if directory.is_dir():
            found.update(child.name for child in directory.iterdir() if child.is_dir())
    return tuple(sorted(found))


def _pages(app: Sphinx, settings: _Settings, extra: _ExtraPages) -> tuple[list[Page], Counter[str]]:
    """Every page the builder publishes, as core pages, and what was left out and why."""
    builder: Any = app.builder
    env = app.env
    left_out: Counter[str] = Counter()
    srcdir = Path(app.srcdir)
    if builder.name == "singlehtml":
        root = app.config.root_doc
        docnames = [root, *sorted(env.found_docs - {root})]
        sources = tuple(path for doc in docnames for path in _sources(env, doc, srcdir))
        link = root + builder.link_suffix
        page = _page(app, settings, root, link, sources, encoded=False)
        return ([page] if page else []) + extra.pages(app, settings, left_out), left_out
    encoded = _links_are_encoded(builder)
    pages = []
    for docname in sorted(env.found_docs):
        if docname in _DOCS_LEFT_OUT:
            left_out[_DOCS_LEFT_OUT[docname]] += 1
            continue
        link = builder.get_target_uri(docname)
        page = _page(app, settings, docname, link, _sources(env, docname, srcdir), encoded=encoded)
        if page is None:
            left_out["robots noindex"] += 1
        else:
            pages.append(page)
    pages.extend(extra.pages(app, settings, left_out))
    return pages, left_out


class _ExtraPages:
    """Pages Sphinx writes outside the document list, which the environment does not hold.

    Three kinds: viewcode's highlighted modules (``_modules/a/b``) and its ``_modules/index``,
    ``html_additional_pages``, and whatever an ``html-collect-pages`` handler yields. The HTML
    builder renders all of them in its ``finish()``, in the main process even under ``-j``, and
    each one passes ``html-page-context`` with no doctree: that is where they are seen.

    Seeing them is not enough for an incremental build to equal a clean one, for two reasons.

    - viewcode does not write a module's page again while the page is newer than the module
      (``should_generate_module_page``), so a rebuild sees only the modules that changed. Which
      modules have a page is known from the documents instead: viewcode marks every object it
      links with a ``viewcode_anchor`` node whose target is the module's page. The extension
      keeps, per document, the targets of its anchors in the environment
      (``doctree-read``, purged with ``env-purge-doc``, merged from ``-j`` readers with
      ``env-merge-info``, as Sphinx's own domains keep theirs), so a module stays listed while a
      document links it, whether or not its page was written again, and goes when the last
      document that linked it is removed or edited, while its stale HTML file stays behind.
    - Some Sphinx releases (7.0, for one) skip ``finish()`` when no document is out of date.
      The pages seen by the last build that did write them are therefore recorded in the
      doctree directory (``sitemap-pages-<builder>.json``, next to the pickled environment),
      and a build that wrote nothing lists what that record says. Every build that writes
      replaces the record with exactly what it wrote, so a page that is no longer produced
      (an additional page taken out of ``conf.py``, a handler that stops yielding one) leaves
      the sitemap with the first build that no longer writes it.

    The usual rules leave pages out: search, the general index, domain indices (``py-modindex``),
    a ``404`` page, files that are not HTML pages (OpenSearch's XML) and pages whose written head
    asks robots not to index them. A module's page is dated by the module's file, the index of
    modules as a listing (the newest of the modules it lists, by their files), an additional
    page by its template where ``templates_path`` holds it; other pages have no file to date.
    """

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}
        self.wrote = False

    def start(self, app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
        """``env-before-read-docs``: a new build of this application begins."""
        self.seen = {}
        self.wrote = False

    def page_context(
        self, app: Sphinx, pagename: str, templatename: str, context: object, doctree: object
    ) -> None:
        """``html-page-context``: remember every page that is not a document."""
        self.wrote = True
        if doctree is None and pagename not in app.env.all_docs:
            self.seen[pagename] = templatename

    def collect(self, app: Sphinx) -> list[tuple[str, dict[str, Any], str]]:
        """``html-collect-pages``: only a sign that this build writes its extra pages."""
        self.wrote = True
        return []

    @staticmethod
    def doctree_read(app: Sphinx, doctree: Any) -> None:
        """After viewcode's own handler: keep the module pages this document's anchors link."""
        if _VIEWCODE not in app.extensions:
            return
        from sphinx.ext.viewcode import viewcode_anchor  # imported only when viewcode is on

        links = _viewcode_links(app.env)
        for node in doctree.findall(viewcode_anchor):
            links.setdefault(node["refdoc"], set()).add(node["reftarget"])

    @staticmethod
    def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        _viewcode_links(env).pop(docname, None)

    @staticmethod
    def merge(app: Sphinx, env: BuildEnvironment, docnames: Any, other: BuildEnvironment) -> None:
        links, theirs = _viewcode_links(env), _viewcode_links(other)
        links.update((docname, theirs[docname]) for docname in docnames if docname in theirs)

    def pages(self, app: Sphinx, settings: _Settings, left_out: Counter[str]) -> list[Page]:
        """The extra pages this build publishes; reasons for leaving some out go to left_out."""
        builder: Any = app.builder
        outdir = Path(app.outdir)
        record = Path(app.doctreedir) / f"sitemap-pages-{builder.name}.json"
        if self.wrote:
            found = dict(self.seen)
            _save_record(record, outdir, found)
        else:
            found = _load_record(record, outdir)
        viewcode = _VIEWCODE in app.extensions and builder.name != "singlehtml"
        if viewcode:
            for links in _viewcode_links(app.env).values():
                found.update((target, found.get(target, "page.html")) for target in links)
        encoded = _links_are_encoded(builder)
        pages: list[Page] = []
        module_files: set[Path] = set()
        index: tuple[str, str] | None = None  # viewcode's list of modules, dated last
        for pagename in sorted(found):
            reason = _extra_reason(pagename, found[pagename])
            html_file = Path(builder.get_outfilename(pagename))
            if reason is None and not html_file.is_file():
                reason = "not a page"  # written elsewhere (OpenSearch), or no longer there
            if reason is None and _asks_noindex(html_file):
                reason = "robots noindex"
            if reason is not None:
                left_out[reason] += 1
                continue
            link = builder.get_target_uri(pagename)
            origin = html_file.relative_to(outdir).as_posix()
            if viewcode and pagename == _MODULES_INDEX:
                index = (link, origin)
                continue
            sources: tuple[Path, ...] = ()
            if viewcode and pagename.startswith(_MODULES):
                sources = _module_file(app, pagename[len(_MODULES) :].replace("/", "."))
                module_files.update(sources)
            elif pagename in app.config.html_additional_pages:
                sources = _template_file(app, app.config.html_additional_pages[pagename])
            pages.append(_extra_page(settings, link, origin, encoded, sources))
        if index is not None:
            link, origin = index
            listed = tuple(sorted(module_files))
            pages.append(_extra_page(settings, link, origin, encoded, listed=listed))
        return pages


def _extra_page(
    settings: _Settings,
    link: str,
    origin: str,
    encoded: bool,
    sources: tuple[Path, ...] = (),
    *,
    listed: tuple[Path, ...] = (),
) -> Page:
    return Page(
        path=settings.path(link, settings.language),
        origin=origin,
        sources=sources,
        alternates=settings.alternates(link),
        listed_sources=listed,
        encoded=encoded,
    )


def _extra_reason(pagename: str, template: str) -> str | None:
    """Why a page outside the document list stays out of the sitemap, if it does."""
    if pagename == "404":
        return "404 page"
    if pagename == "search":
        return "search page"
    if pagename == "genindex" or pagename.startswith("genindex-"):
        return "general index"
    if template == "domainindex.html":
        return "domain index"
    return None


def _viewcode_links(env: BuildEnvironment) -> dict[str, set[str]]:
    links: dict[str, set[str]] | None = getattr(env, _ENV_VIEWCODE, None)
    if links is None:
        links = {}
        setattr(env, _ENV_VIEWCODE, links)
    return links


def _module_file(app: Sphinx, modname: str) -> tuple[Path, ...]:
    """The file viewcode highlighted for a module, found the way viewcode finds it.

    Nothing when a ``viewcode-find-source`` handler gave the code: then no file is known.
    """
    from sphinx.ext.viewcode import get_module_filename  # imported only when viewcode is on

    filename = get_module_filename(app, modname)
    return (Path(os.path.normpath(filename)),) if filename else ()


def _template_file(app: Sphinx, template: str) -> tuple[Path, ...]:
    """An additional page's template, where Sphinx looks first: ``templates_path``."""
    for folder in app.config.templates_path:
        candidate = Path(app.confdir, folder, template)
        if candidate.is_file():
            return (Path(os.path.normpath(candidate)),)
    return ()  # a theme's template: not the site's own file


def _save_record(path: Path, outdir: Path, pages: Mapping[str, str]) -> None:
    """Keep what this build wrote, for a later build that writes nothing (see _ExtraPages)."""
    data = {"version": _RECORD_VERSION, "outdir": str(outdir.resolve()), "pages": pages}
    text = json.dumps(data, sort_keys=True, indent=1)
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return
        partial = path.with_name(path.name + ".tmp")
        partial.write_text(text, encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        logger.info(
            "sitemap: could not record the pages outside the document list in %s: %s", path, error
        )


def _load_record(path: Path, outdir: Path) -> dict[str, str]:
    """The pages the last writing build of this builder and output folder recorded."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("version") != _RECORD_VERSION
        or data.get("outdir") != str(outdir.resolve())
        or not isinstance(data.get("pages"), dict)
    ):
        return {}
    return {str(name): str(template) for name, template in data["pages"].items()}


def _links_are_encoded(builder: Any) -> bool:
    """Whether ``get_target_uri`` percent-encodes document names.

    The html builder quotes them (``100%25.html``); dirhtml returns the name as it is
    (``100%/``). Asking the builder, rather than testing its name, also covers builders that
    subclass either one.
    """
    return str(builder.get_target_uri("%")).startswith("%25")


def _page(
    app: Sphinx,
    settings: _Settings,
    docname: str,
    link: str,
    sources: tuple[Path, ...],
    *,
    encoded: bool,
) -> Page | None:
    """One document as a core page, or None when its HTML asks robots not to index it."""
    builder: Any = app.builder
    if _asks_noindex(Path(builder.get_outfilename(docname))):
        return None
    env = app.env
    return Page(
        path=settings.path(link, settings.language),
        origin=str(env.doc2path(docname, False)),
        sources=sources,
        sitemap=_field_value(env.metadata.get(docname, {}).get("sitemap")),
        alternates=settings.alternates(link),
        encoded=encoded,
    )


def _field_value(value: object) -> Any:
    """A ``:sitemap:`` field as JSON text: undo the curly quotes of Sphinx's smart quotes.

    reST typography turns ``{"priority": 0.8}`` into ``{“priority”: 0.8}``; the mapping's keys
    and values never hold quotes of their own, so straightening them is safe.
    """
    return value.translate(_STRAIGHT_QUOTES) if isinstance(value, str) else value


def _sources(env: Any, docname: str, srcdir: Path) -> tuple[Path, ...]:
    """The document's source, then what it includes (include, literalinclude, autodoc...)."""
    own = Path(env.doc2path(docname))
    dependencies = sorted(str(dep) for dep in env.dependencies.get(docname, ()))
    return (own, *(Path(os.path.normpath(srcdir / dep)) for dep in dependencies))


def _asks_noindex(html_file: Path) -> bool:
    """Themes and ``.. meta:: :robots: noindex`` both end up in the written page's head."""
    try:
        return has_robots_noindex(html_file.read_text(encoding="utf-8", errors="replace"))
    except OSError:
        return False


def _is_website(builder: Any) -> bool:
    """HTML for a web server: not epub or help files (embedded), not serialised HTML."""
    return (
        builder.format == "html"
        and not getattr(builder, "embedded", False)
        and builder.name not in _NOT_A_WEBSITE
        and hasattr(builder, "get_outfilename")
    )


def _hreflang(locale: str) -> str:
    """Locale folders are named like pt_BR; hreflang wants a BCP 47 tag, pt-BR."""
    return locale.replace("_", "-")


def _command_line_value(text: str, default: object) -> object:
    """``-D name=value`` arrives as text: read it the way Sphinx reads its own typed options."""
    if isinstance(default, bool):
        return {"0": False, "1": True}.get(text, text)
    if isinstance(default, int) and text.isdigit():
        return int(text)
    if isinstance(default, (list, tuple)):
        return text.split(",") if text else []
    return text


def _check(name: str, value: object, ok: Callable[[object], bool], allowed: str) -> None:
    if not ok(value):
        raise ConfigError(str(OptionError(name, value, allowed)))


def _is_bool(value: object) -> bool:
    return isinstance(value, bool)


def _is_string_list(value: object) -> bool:
    return (
        isinstance(value, Sequence)
        and not isinstance(value, str)
        and all(isinstance(item, str) and item for item in value)
    )


def _is_url_scheme(value: object) -> bool:
    if not isinstance(value, str) or "{link}" not in value:
        return False
    try:
        value.format(lang="", version="", link="")
    except (KeyError, IndexError, ValueError):
        return False
    return True


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
        # sitemap_gzip = True, so it is switched off with Any.
        app.add_config_value(PREFIX + spec.name, default, "", types=Any)
    for name, default in _INCUMBENT_OPTIONS.items():
        app.add_config_value(name, default, "", types=Any)
    # x-default and the full set of languages need the source language, which a translation
    # build overrides (-D language=ja). conf.py's own value is the source language; Sphinx keeps
    # it only in the raw namespace, and only until config-inited (Sphinx 7 then overwrites it).
    raw_config = getattr(app.config, "_raw_config", {})
    site = _Site(str(raw_config.get("language") or ""))
    app.connect("config-inited", site.config_inited)
    app.connect("env-before-read-docs", site.extra.start)
    # After viewcode's own doctree-read (priority 500), which adds the anchors read here.
    app.connect("doctree-read", site.extra.doctree_read, priority=900)
    app.connect("env-purge-doc", site.extra.purge)
    app.connect("env-merge-info", site.extra.merge)
    app.connect("html-page-context", site.extra.page_context)
    app.connect("html-collect-pages", site.extra.collect)
    app.connect("build-finished", site.build_finished)
    return {
        "version": __version__,
        # 1: the environment holds each document's viewcode links; older ones are read again.
        "env_version": 1,
        "parallel_read_safe": True,
        "parallel_write_safe": True,
    }
