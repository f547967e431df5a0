"""MkDocs adapter: ``plugins: [sitemap]`` replaces MkDocs' own ``sitemap.xml`` and ``.gz``.

MkDocs renders its sitemap from a theme template with the build date as every ``lastmod``. This
plugin takes that template out of the build and, once the site is written, hands the pages to the
core, which decides everything else. What stays here is what only MkDocs knows: which pages exist,
their URLs, their front matter, and what the theme and other plugins made of them.

``mkdocs build --dirty`` and ``mkdocs serve --dirty`` only re-read and re-render changed pages, so
what we learn about each page is kept across rebuilds (MkDocs keeps this plugin instance alive
because it defines ``on_startup``), and a page we never saw is read back from its source and its
output on disk. mkdocs-static-i18n builds every further language inside its own ``on_post_build``;
we run after it and write one sitemap for all languages.
"""

from __future__ import annotations

import datetime as dt
import logging
import posixpath
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mkdocs.config.base import BaseConfigOption, Config, ValidationError
from mkdocs.config.config_options import Optional
from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page as MkDocsPage
from mkdocs.utils.meta import get_data

from sitemap_plugins.core import (
    OPTION_SPECS,
    Alternate,
    Code,
    OptionError,
    Options,
    OptionSpec,
    Page,
    SitemapBuilder,
    SitemapError,
    head_exclusion,
)
from sitemap_plugins.core.dates import parse_lastmod
from sitemap_plugins.core.model import Lastmod
from sitemap_plugins.core.options import shown

log = logging.getLogger("mkdocs.plugins.sitemap")
"""Under ``mkdocs``, so that ``mkdocs build --strict`` counts our warnings."""

MKDOCS_DEFAULTS: dict[str, object] = {"gzip": "both"}
"""MkDocs has always written ``sitemap.xml`` and ``sitemap.xml.gz``; whatever reads either keeps
working."""


class _CoreOption(BaseConfigOption[object]):
    """One core option in MkDocs' config: checked at config time, kept raw for the core."""

    def __init__(self, spec: OptionSpec) -> None:
        super().__init__()
        self.default = MKDOCS_DEFAULTS.get(spec.name, spec.default)
        self.spec = spec

    def run_validation(self, value: object, /) -> object:
        try:
            self.spec.check(value)
        except ValueError as error:
            raise ValidationError(f"{shown(value)!r} is not allowed (allowed: {error})") from None
        return value


def _declare_options(namespace: dict[str, Any]) -> None:
    for spec in OPTION_SPECS:
        option = _CoreOption(spec)
        namespace[spec.name] = option if spec.default is not None else Optional(option)


class SitemapConfig(Config):  # type: ignore[no-untyped-call]
    """The core's options under their own names (``base_url`` defaults to ``site_url``)."""

    # Walk the core schema instead of naming the options again, so the hosts cannot drift apart.
    _declare_options(locals())


@dataclass(frozen=True, slots=True)
class _Seen:
    """What one rendered page told us: the page for the core, or why it is left out."""

    page: Page | None
    left_out: str | None = None


class _Reporter:
    def warning(self, code: Code, message: str) -> None:
        log.warning(f"sitemap: {message}")

    def info(self, message: str) -> None:
        log.info(message)


class SitemapPlugin(BasePlugin[SitemapConfig]):  # type: ignore[no-untyped-call]
    """Hands the pages of each build to one :class:`~sitemap_plugins.core.SitemapBuilder`."""

    def __init__(self) -> None:
        self._builder: SitemapBuilder | None = None
        self._seen: dict[tuple[str, str], _Seen] = {}
        self._files: list[File] = []
        self._redirected: frozenset[str] = frozenset()
        self._i18n: Any = None
        self._site_dir = ""
        self._docs_dir = ""

    def on_startup(self, *, command: Literal["build", "gh-deploy", "serve"], dirty: bool) -> None:
        """Defined so that MkDocs keeps this instance across ``serve`` rebuilds (see module)."""

    def on_config(self, config: MkDocsConfig) -> None:
        # MkDocs' own sitemap template would be written with the build date as lastmod.
        config.theme.static_templates.discard("sitemap.xml")
        if self._nested_build():
            return
        self._i18n = _find_i18n(config)
        self._files = []
        if (self._site_dir, self._docs_dir) != (config.site_dir, config.docs_dir):
            self._seen = {}  # MkDocs keeps one instance per process, even across sites
        self._site_dir, self._docs_dir = config.site_dir, config.docs_dir
        redirects = config.plugins.get("redirects")
        maps = getattr(redirects, "config", {}).get("redirect_maps") or {}
        self._redirected = frozenset(str(key).replace("\\", "/") for key in maps)
        self._configure(config)

    def _configure(self, config: MkDocsConfig) -> None:
        values = {spec.name: self.config[spec.name] for spec in OPTION_SPECS}
        try:
            options = Options.from_mapping(values, defaults=MKDOCS_DEFAULTS)
        except OptionError as error:  # pragma: no cover - each option was checked by MkDocs
            raise PluginError(f"sitemap: {error}") from None
        if self._builder is None or self._builder.options != options:
            self._builder = SitemapBuilder(
                options, _Reporter(), base_url_setting="site_url in mkdocs.yml"
            )

    def on_files(self, files: Files, /, *, config: MkDocsConfig) -> None:
        # No longer a template, the theme's sitemap.xml would be copied as a static file.
        template = files.get_file_from_path("sitemap.xml")
        if template is not None and not _under(template.abs_src_path, config.docs_dir):
            files.remove(template)

    def _nested_build(self) -> bool:
        """Whether mkdocs-static-i18n is building a further language inside its post_build."""
        return bool(getattr(self._i18n, "building", False))

    def on_env(self, env: Any, /, *, config: MkDocsConfig, files: Files) -> None:
        # Every build (one per language with i18n) adds its files; the last post_build writes.
        self._files.extend(file for file in files if file.is_documentation_page())

    @event_priority(-100)  # after plugins that still change the HTML
    def on_post_page(self, output: str, /, *, page: MkDocsPage, config: MkDocsConfig) -> None:
        self._seen[_key(page.file)] = self._inspect(page.file, page.meta, output, page)

    @event_priority(-150)  # after mkdocs-static-i18n (-100) has built the other languages
    def on_post_build(self, *, config: MkDocsConfig) -> None:
        if self._nested_build() or self._builder is None:
            return
        pages: list[Page] = []
        left_out: Counter[str] = Counter()
        for file in self._files:
            seen = self._page_of(file)
            if seen.page is not None:
                pages.append(seen.page)
            elif seen.left_out is not None:
                left_out[seen.left_out] += 1
        self._files = []
        try:
            summary = self._builder.build(
                pages,
                Path(self._site_dir),
                left_out=left_out,
                host_base_url=("site_url in mkdocs.yml", config.site_url),
            )
        except SitemapError as error:
            # MkDocs logs a PluginError as one error line and fails the build (serve goes on).
            raise PluginError(f"sitemap: {error}") from None
        log.info(summary.line())

    def _page_of(self, file: File) -> _Seen:
        reason = _host_reason(file)
        if reason is not None:
            return _Seen(None, reason)
        seen = self._seen.get(_key(file))
        if seen is None:
            # A --dirty build skipped this unchanged page: read it back from source and output.
            seen = self._inspect(file, _front_matter(file), _output(file), file.page)
            self._seen[_key(file)] = seen
        return seen

    def _inspect(
        self, file: File, meta: Mapping[str, Any], html: str, page: MkDocsPage | None
    ) -> _Seen:
        reason = _host_reason(file)
        if reason is None and file.src_uri in self._redirected:
            reason = "redirect stub"
        if reason is None:
            reason = head_exclusion(html)
        if reason is not None:
            return _Seen(None, reason)
        return _Seen(
            Page(
                path=file.url,
                origin=posixpath.join(posixpath.basename(self._docs_dir), file.src_uri),
                sources=_sources(file),
                sitemap=meta.get("sitemap"),
                updated=_blog_date(page, meta),
                alternates=self._alternates(file),
                listed_dates=_listed_dates(page) if not _sources(file) else (),
            )
        )

    def _alternates(self, file: File) -> tuple[Alternate, ...]:
        """Translations as mkdocs-static-i18n links them: each language, then ``x-default``."""
        locale = getattr(file, "locale", None)
        others: Mapping[str, File] = getattr(file, "alternates", None) or {}
        if self._i18n is None or not locale or not others:
            return ()
        urls = {str(lang): alt.url for lang, alt in others.items()}
        urls.setdefault(str(locale), file.url)
        found = [Alternate(_hreflang(lang), url) for lang, url in sorted(urls.items())]
        default = urls.get(str(getattr(self._i18n, "default_language", "")))
        if default is not None:
            found.append(Alternate("x-default", default))
        return tuple(found)


def _find_i18n(config: MkDocsConfig) -> Any:
    plugin = config.plugins.get("i18n")
    return plugin if hasattr(plugin, "building") and hasattr(plugin, "default_language") else None


def _under(path: str | None, directory: str) -> bool:
    return path is not None and Path(directory).absolute() in Path(path).absolute().parents


def _key(file: File) -> tuple[str, str]:
    # With i18n the same source can be published once per language, so the URL is part of the key.
    return (file.src_uri, file.url)


def _host_reason(file: File) -> str | None:
    """Pages MkDocs itself keeps out of a sitemap: the 404 page, drafts, exclude_docs."""
    inclusion = getattr(file, "inclusion", None)
    if inclusion is not None and inclusion.is_excluded():
        return "draft" if inclusion.name == "DRAFT" else "exclude_docs"
    # docs/404.md (404.fr.md with i18n suffixes) is the not-found page themes render to 404.html.
    if file.name.split(".")[0] == "404" or posixpath.basename(file.dest_uri) == "404.html":
        return "404 page"
    return None


def _sources(file: File) -> tuple[Path, ...]:
    if getattr(file, "generated_by", None) is not None or not file.abs_src_path:
        return ()
    return (Path(file.abs_src_path),)


def _front_matter(file: File) -> Mapping[str, Any]:
    try:
        with open(file.abs_src_path or "", encoding="utf-8-sig") as source:
            return get_data(source.read())[1]
    except (OSError, ValueError):
        return {}


def _output(file: File) -> str:
    try:
        with open(file.abs_dest_path, encoding="utf-8", errors="replace") as output:
            return output.read()
    except OSError:
        return ""


def _is_blog_post(page: object) -> bool:
    kind = type(page)
    return kind.__name__ == "Post" and kind.__module__.startswith("material.plugins.blog")


def _blog_date(page: MkDocsPage | None, meta: Mapping[str, Any]) -> object:
    """A Material blog post's own date: ``date.updated``, else ``date.created``, else ``date``.

    Only blog posts: elsewhere ``date`` often means when a page was first written.
    """
    if not _is_blog_post(page):
        return None
    date = meta.get("date")
    if isinstance(date, Mapping):
        date = date.get("updated") or date.get("created")
    if isinstance(date, dt.datetime) and not date.utcoffset() and date.time() == dt.time():
        return date.date()  # Material turns a written day into midnight UTC: keep the day
    return date


def _listed_dates(page: MkDocsPage | None) -> tuple[Lastmod, ...]:
    """A generated Material blog view (archive, category) is as new as its newest post."""
    dates = []
    for post in getattr(page, "posts", None) or ():
        try:
            dates.append(parse_lastmod(_blog_date(post, post.meta)))
        except ValueError:
            continue  # the post's own entry warns about its date
    return tuple(dates)


def _hreflang(locale: str) -> str:
    return locale.replace("_", "-")
