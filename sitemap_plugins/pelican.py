"""Pelican adapter: ``PLUGINS = ["sitemap_plugins.pelican"]`` in ``pelicanconf.py``.

Pelican tells a plugin about every file it renders through ``content_written(path, context)``,
with what the template was given: the article or page, the tag, category or author, and for a
listing its paginator page (``articles_page``). That signal is the one place where the pages of
other generators and plugins are seen too, so the adapter turns each rendered file into a core
:class:`~sitemap_plugins.core.Page` right there, and hands them all to the core at ``finalized``.

State: Pelican may import a plugin module more than once and ``--autoreload`` runs many builds in
one process, so the handlers are plain module-level functions and keep nothing in the module. A
:class:`_Site` lives in the settings of its Pelican instance (each run's context is a shallow copy
of them, which is how ``content_written`` finds it): the builder, and so the git walk, lasts as
long as the instance (autoreload makes a new one when the settings file changes), and the pages
collected are reset at the start of every run. Pelican pickles settings with its content cache,
so the site pickles as an inert placeholder.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import posixpath
import re
import zoneinfo
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote

from pelican.plugins import signals
from pelican.readers import parse_path_metadata, path_metadata
from pelican.utils import get_date

from sitemap_plugins.core import (
    Alternate,
    Code,
    Lastmod,
    OptionError,
    Options,
    Page,
    SitemapBuilder,
    SitemapError,
    StrictError,
    head_exclusion,
)
from sitemap_plugins.core.dates import parse_lastmod
from sitemap_plugins.core.options import check_changefreq, check_priority

__all__ = ["SitemapPublishError", "SitemapStrictError", "register"]

logger = logging.getLogger(__name__)

_KEY: Final = "sitemap_plugins.pelican"
"""Where the :class:`_Site` sits in the settings; lower case, so never a template variable."""

_LEGACY_KEYS: Final = frozenset({"priorities", "changefreqs", "exclude"})
"""pelican-sitemap's keys of ``SITEMAP`` that are not core options (``format`` is both)."""
_KINDS: Final = ("articles", "indexes", "pages")
_LEGACY_PRIORITIES: Final = {"articles": 0.5, "indexes": 0.5, "pages": 0.5}
_LEGACY_CHANGEFREQS: Final = {"articles": "monthly", "indexes": "daily", "pages": "monthly"}
_INCUMBENTS: Final = frozenset({"pelican.plugins.sitemap", "sitemap"})
_PAGE_SUFFIXES: Final = ("", ".html", ".htm", ".xhtml")
_INDEX_FILE: Final = re.compile(r"(^|/)index\.html?$")
_NOT_FOUND: Final = re.compile(r"(^|/)404(\.html?|/index\.html?)$")
_BASE_URL_SETTING: Final = "SITEURL in the Pelican settings"


class SitemapStrictError(RuntimeError):
    """Raised at the end of a build with ``strict`` on when the sitemap reported warnings."""


class SitemapPublishError(RuntimeError):
    """The sitemap could not be written; the previous one is left as it was.

    Pelican logs an exception that ends a build as one line, ``SitemapPublishError: <message>``,
    and exits with status 1.
    """


class _NoTraceback(logging.Filter):
    """Pelican 4.12 logs the exception that ends a build with its traceback; ours say all there
    is to say in their one line (the path and the cause), so their record goes without it."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, (SitemapPublishError, SitemapStrictError)):
            record.exc_info = None
            record.exc_text = None
        return True


def register() -> None:
    """Pelican's plugin entry point."""
    main_logger = logging.getLogger("pelican")  # where pelican's main() logs what ended a build
    if not any(type(f).__name__ == "_NoTraceback" for f in main_logger.filters):
        main_logger.addFilter(_NoTraceback())
    signals.initialized.connect(_initialized)
    signals.get_generators.connect(_run_started)
    signals.content_written.connect(_content_written)
    signals.finalized.connect(_finalized)


def _initialized(pelican: Any) -> None:
    pelican.settings[_KEY] = _Site(pelican)


def _run_started(pelican: Any) -> None:
    site = pelican.settings.get(_KEY)
    if site is not None:
        site.start_run()


def _content_written(path: str, context: Mapping[str, Any] | None = None, **_: Any) -> None:
    site = (context or {}).get(_KEY)
    if site is not None:
        site.written(path, context)


def _finalized(pelican: Any) -> None:
    site = pelican.settings.get(_KEY)
    if site is not None:
        site.finish()


class _Reporter:
    """Logs through Pelican's logging (so ``--fatal warnings`` counts ours) and counts warnings."""

    def __init__(self) -> None:
        self.count = 0

    def warning(self, code: Code, message: str) -> None:
        self.count += 1
        logger.warning("sitemap: %s", message)

    def info(self, message: str) -> None:
        logger.info("%s", message)


@dataclass(frozen=True, slots=True)
class _Settings:
    """Everything the adapter reads from Pelican's settings, checked once per Pelican instance."""

    options: Options
    siteurl: str
    exclude: tuple[re.Pattern[str], ...]
    kind_defaults: Mapping[str, Mapping[str, object]]
    timezone: dt.tzinfo


def _read_settings(settings: Mapping[str, Any]) -> _Settings:
    """Map ``SITEMAP`` (core options plus pelican-sitemap's keys) and ``SITEURL`` to the core.

    The one place where Pelican settings become core options. A ``SITEMAP`` dict that uses only
    pelican-sitemap's keys, or sets its ``priorities``/``changefreqs``, keeps writing priority and
    changefreq per kind as pelican-sitemap did; ``exclude`` keeps meaning its regular expressions.
    Raises :class:`OptionError` naming ``SITEMAP[...]`` for a bad value.
    """
    raw = settings.get("SITEMAP")
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        raise OptionError("SITEMAP", raw, "a dict of sitemap options")
    values = {name: value for name, value in raw.items() if name not in _LEGACY_KEYS}
    try:
        options = Options.from_mapping(values)
    except OptionError as error:
        raise OptionError(f"SITEMAP[{error.option!r}]", error.value, error.allowed) from None
    legacy = bool(raw) and set(raw) <= _LEGACY_KEYS | {"format"}
    legacy = legacy or "priorities" in raw or "changefreqs" in raw
    kind_defaults: dict[str, dict[str, object]] = {kind: {} for kind in _KINDS}
    if legacy:
        priorities = _per_kind(raw, "priorities", _LEGACY_PRIORITIES, check_priority)
        changefreqs = _per_kind(raw, "changefreqs", _LEGACY_CHANGEFREQS, check_changefreq)
        for kind in _KINDS:
            kind_defaults[kind] = {"priority": priorities[kind], "changefreq": changefreqs[kind]}
    siteurl = str(settings.get("SITEURL") or "")
    exclude = _exclude_patterns(raw.get("exclude", []))
    return _Settings(options, siteurl, exclude, kind_defaults, _timezone(settings))


def _timezone(settings: Mapping[str, Any]) -> dt.tzinfo:
    """The site's ``TIMEZONE``, in which Pelican reads naive times; UTC when Pelican would
    refuse the name itself (it reports that, not us)."""
    try:
        return zoneinfo.ZoneInfo(str(settings.get("TIMEZONE") or "UTC"))
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def _per_kind(
    raw: Mapping[str, Any],
    key: str,
    defaults: Mapping[str, object],
    check: Callable[[object], object],
) -> dict[str, object]:
    given = raw.get(key, {})
    allowed = f"a dict with keys {', '.join(_KINDS)}"
    if not isinstance(given, Mapping):
        raise OptionError(f"SITEMAP[{key!r}]", given, allowed)
    result = dict(defaults)
    for kind, value in given.items():
        if kind not in _KINDS:
            raise OptionError(f"SITEMAP[{key!r}]", kind, allowed)
        try:
            result[kind] = check(value)
        except ValueError as error:
            raise OptionError(f"SITEMAP[{key!r}][{kind!r}]", value, str(error)) from None
    return result


def _exclude_patterns(value: object) -> tuple[re.Pattern[str], ...]:
    allowed = "a list of regular expressions, searched in each URL path"
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise OptionError("SITEMAP['exclude']", value, allowed)
    patterns = []
    for item in value:
        if not isinstance(item, str):
            raise OptionError("SITEMAP['exclude']", item, allowed)
        try:
            patterns.append(re.compile(item))
        except re.error as error:
            raise OptionError("SITEMAP['exclude']", item, f"{allowed} ({error})") from None
    return tuple(patterns)


@dataclass(frozen=True, slots=True)
class _Seen:
    """One rendered file: the page for the core, or why it stays out."""

    page: Page | None
    left_out: str | None = None


class _Site:
    """The sitemap of one Pelican instance: its settings, builder, and the current run's pages."""

    def __init__(self, pelican: Any) -> None:
        settings = pelican.settings
        self.read = _read_settings(settings)
        self.output_path = Path(pelican.output_path).absolute()
        self.content_path = Path(settings.get("PATH") or ".").absolute()
        self.default_lang = str(settings.get("DEFAULT_LANG") or "")
        self.template_pages = {
            str(dest): self.content_path / str(source)
            for source, dest in (settings.get("TEMPLATE_PAGES") or {}).items()
        }
        self.direct_urls = _direct_template_urls(settings)
        self.author_dates = _AuthorDates(settings, self.content_path)
        names = {getattr(plugin, "__name__", str(plugin)) for plugin in pelican.plugins}
        self.incumbent = sorted(names & _INCUMBENTS)
        self.reporter = _Reporter()
        self.builder = SitemapBuilder(
            self.read.options, self.reporter, base_url_setting=_BASE_URL_SETTING
        )
        self.seen: dict[str, _Seen] = {}
        self.done = False

    def __reduce__(self) -> tuple[Any, tuple[()]]:
        return (dict, ())  # pickled with Pelican's content cache: nothing of ours is kept

    def __repr__(self) -> str:  # shown by ``pelican --print-settings``
        return f"<sitemap_plugins.pelican site writing to {self.output_path}>"

    def start_run(self) -> None:
        self.seen = {}
        self.done = False
        self.reporter.count = 0
        self.author_dates.forget()

    def written(self, path: str, context: Mapping[str, Any]) -> None:
        try:
            rel = Path(path).absolute().relative_to(self.output_path).as_posix()
        except ValueError:
            return  # written outside the site
        self.seen[rel] = self._inspect(rel, context)

    def finish(self) -> None:
        """Write the sitemap once per run; an extra copy of the handler finds it done."""
        if self.done:
            return
        self.done = True
        reporter = self.reporter
        if self.incumbent:
            reporter.warning(
                Code.CONFLICT,
                f"pelican-sitemap is active too ({', '.join(self.incumbent)} in PLUGINS) and "
                "writes its own sitemap over the same file; remove it from PLUGINS",
            )
        pages = [seen.page for seen in self.seen.values() if seen.page is not None]
        left_out = Counter(seen.left_out for seen in self.seen.values() if seen.left_out)
        self.seen = {}
        try:
            summary = self.builder.build(
                pages,
                self.output_path,
                left_out=left_out,
                host_base_url=("SITEURL", self.read.siteurl),
                earlier_warnings=reporter.count,
            )
        except StrictError as error:
            raise SitemapStrictError(
                f"sitemap: {error.warnings} warning(s) and SITEMAP['strict'] is on"
                + ("" if error.written else "; no sitemap written")
            ) from None
        except SitemapError as error:
            raise SitemapPublishError(f"sitemap: {error}") from None
        reporter.info(summary.line())

    # -- one rendered file --------------------------------------------------------------------

    def _inspect(self, rel: str, context: Mapping[str, Any]) -> _Seen:
        if posixpath.splitext(rel)[1].lower() not in _PAGE_SUFFIXES:
            return _Seen(None, "not a page")
        content = context.get("article") or context.get("page")
        if getattr(content, "save_as", None) != rel:
            content = None
        reason = self._host_reason(rel, content)
        if reason is None:
            reason = _html_reason(self.output_path / rel)
        if reason is not None:
            return _Seen(None, reason)
        path = _clean(self._url(rel, context, content))
        if any(p.search(path) or p.search("/" + path) for p in self.read.exclude):
            return _Seen(None, "excluded by config")
        if content is not None:
            kind = "articles" if "article" in context else "pages"
            return _Seen(
                Page(
                    path=path,
                    origin=self._origin(content.source_path),
                    sources=(Path(content.source_path),),
                    sitemap=self._sitemap_meta(content, self.read.kind_defaults[kind]),
                    updated=self.author_dates.explicit(content),
                    alternates=self._alternates(content),
                    encoded=False,  # Pelican's URLs are its file paths: a % is a percent sign
                )
            )
        source = self.template_pages.get(rel)
        listed_dates, listed_sources = ((), ()) if source else self._listed(rel, context)
        return _Seen(
            Page(
                path=path,
                origin=self._origin(self.output_path / rel),
                sources=(source,) if source else (),
                sitemap=dict(self.read.kind_defaults["indexes"]) or None,
                listed_dates=listed_dates,
                listed_sources=listed_sources,
                encoded=False,
            )
        )

    @staticmethod
    def _host_reason(rel: str, content: Any) -> str | None:
        if _NOT_FOUND.search(rel):
            return "404 page"
        if content is None:
            return None
        status = str(getattr(content, "status", "published"))
        if status in ("draft", "hidden"):
            return status
        if str(content.metadata.get("private", "")).strip().lower() in ("true", "yes", "1"):
            return "private"
        return None

    def _url(self, rel: str, context: Mapping[str, Any], content: Any) -> str:
        """Pelican's own URL for the file: what its templates link to, not where it is saved."""
        if content is not None:
            return self._content_url(rel, content)
        listing = context.get("articles_page")
        if listing is not None and getattr(listing, "save_as", None) == rel:
            # Page 1 is the listing itself (tag.url, INDEX_URL...); later pages follow
            # PAGINATION_PATTERNS.
            if listing.number == 1 and listing.base_url:
                return str(listing.base_url)
            return str(listing.url)
        for key in ("tag", "category", "author"):
            item = context.get(key)
            if item is not None and getattr(item, "save_as", None) == rel:
                return str(item.url)
        if rel in self.direct_urls:
            return self.direct_urls[rel]
        period = _period_url(rel, context)
        return rel if period is None else period

    def _content_url(self, rel: str, content: Any) -> str:
        """An article's or page's URL, or where its file is served when its URL does not serve it.

        ``Save_as: contact.html`` without ``URL:`` leaves Pelican linking ``pages/contact.html``
        (``PAGE_URL``), where nothing is written: the sitemap lists the file's own URL instead,
        and says so once for the source.
        """
        url = str(content.url)
        served = _served(url, rel)
        if served != url:
            self.reporter.warning(
                Code.BAD_URL,
                f"{self._origin(content.source_path)}: URL {url!r} does not serve the file "
                f"Pelican writes, save_as {rel!r}; listed at {_clean(served)!r}, where that "
                "file is served (set URL and Save_as to agree, and Pelican's links will too)",
            )
        return served

    def _origin(self, path: str | Path) -> str:
        """Paths as the user sees them from the project: ``content/pages/about.md``."""
        return Path(os.path.relpath(path, self.content_path.parent)).as_posix()

    def _sitemap_meta(self, content: Any, kind_defaults: Mapping[str, object]) -> Any:
        """The ``sitemap`` metadata, completed with pelican-sitemap's Priority and ChangeFreq."""
        meta = content.metadata
        raw: object = meta.get("sitemap")
        if isinstance(raw, str):
            try:
                raw = json.loads(raw)
            except ValueError:
                return raw  # the core names the file and the value
        extra = dict(kind_defaults)
        for key, check in (("priority", check_priority), ("changefreq", check_changefreq)):
            if meta.get(key) is None:
                continue
            try:
                extra[key] = check(meta[key])
            except ValueError as error:
                self.reporter.warning(
                    Code.BAD_PRIORITY if key == "priority" else Code.BAD_CHANGEFREQ,
                    f"{self._origin(content.source_path)}: {key} {meta[key]!r} is not allowed "
                    f"(allowed: {error}); ignored",
                )
        if raw is None or raw is True:
            return extra or None
        if isinstance(raw, Mapping):
            return {**extra, **self._localised(raw)}
        return raw

    def _localised(self, meta: Mapping[str, Any]) -> Mapping[str, Any]:
        """A naive ``lastmod`` time is read in the site's ``TIMEZONE``, as Pelican reads
        ``Date`` and ``Modified``; a bare date stays a day, and an unreadable value is left
        for the core to report."""
        value = meta.get("lastmod")
        if value is None or value == "":
            return meta
        try:
            parsed = parse_lastmod(value, naive_tz=self.read.timezone)
        except ValueError:
            return meta
        return {**meta, "lastmod": parsed}

    def _alternates(self, content: Any) -> tuple[Alternate, ...]:
        translations = list(getattr(content, "translations", ()) or ())
        if not translations:
            return ()
        group = [content, *translations]
        alternates = [Alternate(_hreflang(item.lang), _served_path(item)) for item in group]
        default = next((item for item in group if item.lang == self.default_lang), None)
        if default is not None:
            alternates.append(Alternate("x-default", _served_path(default)))
        return tuple(alternates)

    def _listed(
        self, rel: str, context: Mapping[str, Any]
    ) -> tuple[tuple[Lastmod, ...], tuple[Path, ...]]:
        """What a listing lists: the dates its authors wrote, and the sources of undated items."""
        listing = context.get("articles_page")
        if listing is not None and getattr(listing, "save_as", None) == rel:
            articles = listing.object_list
        elif rel in self.direct_urls or "period_num" in context:
            articles = context.get("dates") or context.get("articles") or ()
        else:
            return (), ()  # a page another plugin wrote: we do not know what it lists
        dates = []
        sources = set()
        for article in articles:
            explicit = self.author_dates.explicit(article)
            source = getattr(article, "source_path", None)
            if explicit is None and source:
                sources.add(Path(source))
                continue
            try:
                dates.append(parse_lastmod(explicit))
            except ValueError:
                continue
        return tuple(dates), tuple(sorted(sources))


class _AuthorDates:
    """The dates a content's author wrote, not those Pelican filled in from ``DEFAULT_DATE``.

    Pelican merges ``DEFAULT_DATE`` into every content's metadata before the reader's own: a fixed
    value (a tuple or a string) becomes ``date``, ``'fs'`` makes ``date`` and ``modified`` the
    source file's time. The content keeps no trace of where a value came from, so a value counts
    as filled in when it is exactly what ``DEFAULT_DATE`` gives for that file (worked out the way
    Pelican does), and neither ``FILENAME_METADATA``/``PATH_METADATA`` nor
    ``EXTRA_PATH_METADATA``, which the author writes and which take precedence, gave the field.
    A filled-in date is no date at all: the page is dated like a page without one (git...), and
    a listing counts it by its source file.
    """

    def __init__(self, settings: Mapping[str, Any], content_path: Path) -> None:
        self.default: object = settings.get("DEFAULT_DATE")
        self.settings = settings
        self.extra_path_metadata = {"EXTRA_PATH_METADATA": settings.get("EXTRA_PATH_METADATA")}
        self.content_path = content_path
        self.known: dict[str, object] = {}

    def forget(self) -> None:
        """A new run: sources may have changed (``'fs'`` follows their file times)."""
        self.known = {}

    def explicit(self, content: Any) -> object:
        """``modified``, else ``date``, as the author wrote it; None when there is neither."""
        key = str(getattr(content, "source_path", "") or id(content))
        if key not in self.known:
            filled = self._filled_in(content)
            self.known[key] = next(
                (
                    value
                    for name in ("modified", "date")
                    if name not in filled and (value := getattr(content, name, None))
                ),
                None,
            )
        return self.known[key]

    def _filled_in(self, content: Any) -> frozenset[str]:
        default = self.default
        source = getattr(content, "source_path", None)
        if not default or not source:
            return frozenset()
        path = Path(source)
        try:
            relative = path.relative_to(self.content_path).as_posix()
        except ValueError:
            relative = path.name
        declared = set(parse_path_metadata(relative, settings=self.settings))
        declared.update(path_metadata(str(path), relative, settings=self.extra_path_metadata))
        try:
            if default == "fs":
                value = dt.datetime.fromtimestamp(path.stat().st_mtime)
                fields: tuple[str, ...] = ("date", "modified")
            elif isinstance(default, str):
                value = get_date(default)
                fields = ("date",)
            elif isinstance(default, (tuple, list)):
                value = dt.datetime(*default)
                fields = ("date",)
            else:
                return frozenset()
        except (OSError, TypeError, ValueError):
            return frozenset()  # Pelican itself refuses such a DEFAULT_DATE
        return frozenset(
            name
            for name in fields
            if name not in declared and _same_time(getattr(content, name, None), value)
        )


def _same_time(actual: object, filled: dt.datetime) -> bool:
    """Whether a content's date is the filled-in value: Pelican gives a naive one the content's
    time zone, keeping its wall-clock time."""
    if not isinstance(actual, dt.datetime):
        return False
    if filled.tzinfo is None:
        return actual.replace(tzinfo=None) == filled
    return actual == filled


def _served(url: str, save_as: str) -> str:
    """The URL that serves the file written at ``save_as``: ``url`` when it does.

    ``url`` serves it when both name the same file (``contact.html``; ``contact/`` and
    ``contact/index.html``), and as a pretty URL without extension for ``url + ".html"``
    (``contact`` for ``contact.html``: web servers and hosts serve it so). Anything else is a
    disagreement, and ``save_as`` is where the file is.
    """
    if not save_as:
        return url
    link = unquote(url).lstrip("/")
    file = save_as.lstrip("/")
    if _clean(link) == _clean(file):
        return url
    pretty = link and not link.endswith("/") and not posixpath.splitext(link)[1]
    return url if pretty and file == link + ".html" else file


def _served_path(content: Any) -> str:
    return _clean(_served(str(content.url), str(getattr(content, "save_as", "") or "")))


def _direct_template_urls(settings: Mapping[str, Any]) -> dict[str, str]:
    """``DIRECT_TEMPLATES`` by output file: ``{NAME}_SAVE_AS`` to ``{NAME}_URL``."""
    urls = {}
    for name in settings.get("DIRECT_TEMPLATES") or ():
        save_as = settings.get(f"{name.upper()}_SAVE_AS", f"{name}.html")
        if save_as:
            urls[str(save_as)] = str(settings.get(f"{name.upper()}_URL", f"{name}.html"))
    return urls


def _period_url(rel: str, context: Mapping[str, Any]) -> str | None:
    """A period archive's URL from ``{YEAR,MONTH,DAY}_ARCHIVE_URL``, as Pelican formats it."""
    period = context.get("period_num")
    dates = context.get("dates")
    if not period or not dates:
        return None
    granularity = ("YEAR", "MONTH", "DAY")[min(len(period), 3) - 1]
    date = dates[0].date
    save_as = context.get(f"{granularity}_ARCHIVE_SAVE_AS") or ""
    url = context.get(f"{granularity}_ARCHIVE_URL")
    if save_as.format(date=date) != rel or not url:
        return None
    return str(url.format(date=date))


def _html_reason(path: Path) -> str | None:
    """Why the rendered HTML keeps the page out (robots noindex, a redirect stub), if it does."""
    try:
        html = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    return head_exclusion(html)


def _clean(url: str) -> str:
    """``blog/index.html`` is served as ``blog/``: list the directory, as Pelican's links do."""
    return _INDEX_FILE.sub(r"\1", url.lstrip("/"))


def _hreflang(lang: str) -> str:
    return str(lang).replace("_", "-")
