"""The Sphinx extension: ``extensions = ["sitemap_plugins.sphinx"]`` in ``conf.py``.

The page list comes from the environment at ``build-finished``: every document, with the metadata
and dependencies that Sphinx itself keeps, purges and merges across incremental and parallel
builds. Listing only the pages written in this run (as sphinx-sitemap does) loses pages on every
build without ``-E``; reading the environment instead makes an incremental or ``-j auto`` build
give the same bytes as a clean one, and leaves this extension no per-document state of its own.

Everything else is the core's: the adapter only says which pages exist, their URLs as Sphinx
links them, their source files, their ``sitemap`` field and their translations.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

from sphinx.application import Sphinx
from sphinx.config import Config
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
        pages, left_out = _pages(app, self.settings)
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


def _pages(app: Sphinx, settings: _Settings) -> tuple[list[Page], Counter[str]]:
    """Every document the builder publishes, as core pages, and what was left out and why."""
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
        return ([page] if page else []), left_out
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
    return pages, left_out


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
    app.connect("build-finished", site.build_finished)
    return {"version": __version__, "parallel_read_safe": True, "parallel_write_safe": True}
