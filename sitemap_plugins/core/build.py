"""Turning the pages an adapter describes into written sitemap files.

This is the one entry point adapters call: they describe pages with :class:`~.model.Page` values
and get back a :class:`Summary`. Every decision that is not about the host itself lives here, so
that the three hosts behave the same: what is left out, where each lastmod comes from, which
metadata is valid, and what the URLs are.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import json
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.core.dates import as_written, format_lastmod, parse_lastmod, sort_key
from sitemap_plugins.core.git_dates import DateLookup, FileDate, FileDates, Undated, Why
from sitemap_plugins.core.model import Entry, Lastmod, Page
from sitemap_plugins.core.options import Options, check_changefreq, check_priority, shown
from sitemap_plugins.core.report import Code, Reporter, StrictError
from sitemap_plugins.core.urls import (
    MAX_URL_LENGTH,
    check_base_url,
    directory_url,
    in_scope,
    join_url,
)
from sitemap_plugins.core.writer import write_sitemaps

_HREFLANG: Final = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")
_META_KEYS: Final = frozenset({"priority", "changefreq", "lastmod", "exclude"})
CLOCK_SKEW: Final = dt.timedelta(minutes=10)
"""How far ahead of this machine's clock a time may be and still count as now.

A commit made on a laptop whose clock runs a few minutes fast and built at once by CI is not a
date in the future; a time zone set wrong (hours) or a typo in a year is."""
_AHEAD_OF_UTC: Final = dt.timedelta(hours=14)
"""The most any time zone is ahead of UTC (Kiribati): a bare date is in the future only when no
one on Earth has reached that day yet."""


@dataclass
class Summary:
    """What one build did, for the one summary line and for adapters' strict modes."""

    urls: int = 0
    files: tuple[str, ...] = ()
    top: str | None = None
    sitemap_url: str | None = None
    left_out: Counter[str] = field(default_factory=Counter)
    lastmod_from: Counter[str] = field(default_factory=Counter)
    warnings: int = 0

    def line(self) -> str:
        """One line for the build log: URLs, files, what was left out, where lastmod came from."""
        files = ", ".join(self.files) if self.files else "no file"
        text = f"sitemap: {self.urls} URL{'s' if self.urls != 1 else ''} in {files}"
        if self.left_out:
            reasons = ", ".join(f"{n} {why}" for why, n in sorted(self.left_out.items()))
            text += f"; left out {sum(self.left_out.values())} ({reasons})"
        if self.lastmod_from:
            origins = ", ".join(f"{why} {n}" for why, n in sorted(self.lastmod_from.items()))
            text += f"; lastmod from {origins}"
        return text


class _CountingReporter:
    """Passes warnings on and counts them, so hosts without a strict mode can add one."""

    def __init__(self, inner: Reporter) -> None:
        self.inner = inner
        self.count = 0

    def warning(self, code: Code, message: str) -> None:
        self.count += 1
        self.inner.warning(code, message)

    def info(self, message: str) -> None:
        self.inner.info(message)


@dataclass(frozen=True, slots=True)
class _Resolved:
    entry: Entry
    origin: str
    lastmod_from: str
    undated: Undated | None = None


class SitemapBuilder:
    """Builds the sitemap for one site; keep one per process to reuse the git walk across builds.

    ``base_url_setting`` names the host setting users should fill in when no base URL is known
    (``site_url in mkdocs.yml``), so the warning tells them exactly what to do. ``cache_dir`` is
    the host's cache place, where the git history pass is kept for the next build.
    """

    def __init__(
        self,
        options: Options,
        reporter: Reporter,
        *,
        file_dates: FileDates | None = None,
        base_url_setting: str = "base_url",
        cache_dir: Path | None = None,
        clock: Callable[[], dt.datetime] | None = None,
    ) -> None:
        self.options = options
        self.reporter = reporter
        self.file_dates = file_dates or FileDates(
            reporter,
            git_date=options.git_date,
            fetch_history=options.git_fetch_history,
            cache_dir=cache_dir,
        )
        self.base_url_setting = base_url_setting
        self._clock = clock or (lambda: dt.datetime.now(dt.timezone.utc))

    def build(
        self,
        pages: Iterable[Page],
        output_dir: Path,
        *,
        left_out: Mapping[str, int] = {},
        host_base_url: tuple[str, str | None] | None = None,
        earlier_warnings: int = 0,
    ) -> Summary:
        """Resolve every page into an entry and write the files; warnings go to the reporter.

        ``host_base_url`` is the host's own idea of the site's URL, as (setting, value): MkDocs
        ``site_url``, Sphinx ``html_baseurl``, Pelican ``SITEURL``. It stands in when the
        ``base_url`` option is unset. Hosts allow values a sitemap cannot use (a relative ``/``
        for local previews), so an unusable one is a warning and no sitemap, not a config error.

        With the ``strict`` option, any warning (``earlier_warnings`` counts those an adapter
        reported itself) raises :class:`~.report.StrictError` before a file is replaced. Files
        that cannot be written raise :class:`~.report.PublishError`; either way the previous
        sitemap stays as it was.
        """
        reporter = _CountingReporter(self.reporter)
        reporter.count = earlier_warnings
        summary = Summary(left_out=Counter(left_out))
        try:
            self._build(pages, output_dir, host_base_url, reporter, summary)
        finally:
            summary.warnings = reporter.count
        # Reached with warnings only when nothing was to be written (no base URL), or when
        # removing an earlier build's file failed after publishing.
        self._check_strict(reporter, written=summary.top is not None)
        return summary

    def _check_strict(self, reporter: _CountingReporter, *, written: bool = False) -> None:
        if self.options.strict and reporter.count:
            raise StrictError(reporter.count, written=written)

    def _build(
        self,
        pages: Iterable[Page],
        output_dir: Path,
        host_base_url: tuple[str, str | None] | None,
        reporter: _CountingReporter,
        summary: Summary,
    ) -> None:
        base_url = self.options.base_url
        setting, value = host_base_url or ("", None)
        if base_url is None and value:
            try:
                base_url = check_base_url(value)
            except ValueError as error:
                reporter.warning(
                    Code.BAD_URL,
                    f"no sitemap written: {setting} {shown(value)!r} is not usable as the site's "
                    f"base URL (allowed: {error})",
                )
                return
        if base_url is None:
            reporter.warning(
                Code.NO_BASE_URL,
                f"no sitemap written: the site's base URL is not set (set {self.base_url_setting})",
            )
            return
        pages = list(pages)
        dates = self._file_dates(pages)
        scope = directory_url(join_url(base_url, self.options.filename, encoded=False))
        now = self._clock()
        resolved: list[_Resolved] = []
        for page in pages:
            result = self._resolve(page, base_url, scope, dates, now, reporter, summary.left_out)
            if result is not None:
                resolved.append(result)
        kept = self._deduplicate(resolved, reporter)
        summary.lastmod_from.update(item.lastmod_from for item in kept)
        _say_why_undated(kept, reporter)
        entries = [item.entry for item in kept]
        extensions = {"xhtml"} if any(entry.alternates for entry in entries) else set()
        self._check_strict(reporter)  # decided before a single file is written
        written = write_sitemaps(
            entries,
            output_dir,
            base_url=base_url,
            options=self.options,
            reporter=reporter,
            extensions=extensions,
            before_publish=lambda: self._check_strict(reporter),
        )
        summary.urls, summary.files, summary.top = written.urls, written.files, written.top
        if written.top is not None:
            summary.sitemap_url = join_url(base_url, written.top, encoded=False)

    def _file_dates(self, pages: list[Page]) -> DateLookup:
        sources = self.options.lastmod_sources
        if "git" not in sources and "mtime" not in sources:
            return DateLookup({}, {})
        files = {path for page in pages for path in (*page.sources, *page.listed_sources)}
        own = {page.sources[0] for page in pages if page.sources}
        own.update(path for page in pages for path in page.listed_sources)
        return self.file_dates.lookup(
            files, within=own, use_git="git" in sources, use_mtime="mtime" in sources
        )

    def _resolve(
        self,
        page: Page,
        base_url: str,
        scope: str,
        dates: DateLookup,
        now: dt.datetime,
        reporter: Reporter,
        left_out: Counter[str],
    ) -> _Resolved | None:
        meta = self._read_meta(page, reporter)
        if meta is None:
            left_out["excluded by metadata"] += 1
            return None
        names = (page.path.lstrip("/"), page.origin)
        if any(fnmatch.fnmatchcase(n, glob) for glob in self.options.exclude for n in names):
            left_out["excluded by config"] += 1
            return None
        rule = next(
            (r for r in self.options.rules for n in names if fnmatch.fnmatchcase(n, r.pattern)),
            None,
        )
        if rule is not None and rule.exclude:
            left_out["excluded by rule"] += 1
            return None
        try:
            loc = join_url(base_url, page.path, encoded=page.encoded)
        except ValueError as error:
            reporter.warning(Code.BAD_URL, f"{page.origin}: URL path {error}; left out")
            left_out["bad URL"] += 1
            return None
        if not self._check_url(page, loc, scope, reporter):
            left_out["bad URL"] += 1
            return None
        priority = self._meta_value(page, meta, "priority", check_priority, reporter)
        changefreq = self._meta_value(page, meta, "changefreq", check_changefreq, reporter)
        if rule is not None:
            priority = rule.priority if priority is None else priority
            changefreq = rule.changefreq if changefreq is None else changefreq
        priority = self.options.priority if priority is None else priority
        changefreq = self.options.changefreq if changefreq is None else changefreq
        lastmod, origin, undated = self._lastmod(page, meta, dates, now, reporter)
        if lastmod is not None:
            declared = origin in ("metadata", "listed pages")
            lastmod = as_written(lastmod, self.options.lastmod_format, declared=declared)
        entry = Entry(
            loc=loc,
            lastmod=lastmod,
            changefreq=changefreq,
            priority=priority,
            alternates=self._alternates(page, base_url, scope, reporter),
        )
        return _Resolved(entry, page.origin, origin, undated)

    def _read_meta(self, page: Page, reporter: Reporter) -> Mapping[str, Any] | None:
        """The page's sitemap metadata as a mapping, or None when it asks to be left out."""
        raw: object = page.sitemap
        if isinstance(raw, str):
            # MyST and reST field lists hand nested values over as JSON text.
            try:
                raw = json.loads(raw)
            except ValueError:
                reporter.warning(
                    Code.BAD_METADATA,
                    f"{page.origin}: sitemap metadata {page.sitemap!r} is not readable "
                    "(expected false or a mapping of priority, changefreq, lastmod, exclude); "
                    "ignored",
                )
                return {}
        if raw is None or raw is True:
            return {}
        if raw is False:
            return None
        if not isinstance(raw, Mapping):
            reporter.warning(
                Code.BAD_METADATA,
                f"{page.origin}: sitemap metadata {raw!r} is not allowed "
                "(expected false or a mapping of priority, changefreq, lastmod, exclude); ignored",
            )
            return {}
        for key in sorted(set(raw) - _META_KEYS, key=str):
            reporter.warning(
                Code.BAD_METADATA,
                f"{page.origin}: unknown sitemap metadata key {key!r} "
                f"(allowed: {', '.join(sorted(_META_KEYS))}); ignored",
            )
        exclude = raw.get("exclude", False)
        if exclude is True:
            return None
        if exclude is not False:
            reporter.warning(
                Code.BAD_METADATA,
                f"{page.origin}: sitemap.exclude {exclude!r} is not allowed (true or false); "
                "ignored",
            )
        return raw

    @staticmethod
    def _meta_value(
        page: Page,
        meta: Mapping[str, Any],
        key: str,
        check: Callable[[object], Any],
        reporter: Reporter,
    ) -> Any:
        if meta.get(key) is None:
            return None
        try:
            return check(meta[key])
        except ValueError as error:
            code = Code.BAD_PRIORITY if key == "priority" else Code.BAD_CHANGEFREQ
            reporter.warning(
                code,
                f"{page.origin}: sitemap.{key} {meta[key]!r} is not allowed "
                f"(allowed: {error}); ignored",
            )
            return None

    def _lastmod(
        self,
        page: Page,
        meta: Mapping[str, Any],
        dates: DateLookup,
        now: dt.datetime,
        reporter: Reporter,
    ) -> tuple[Lastmod | None, str, Undated | None]:
        """The first date the sources give, in ``lastmod_sources`` order, and which it was.

        A date in the future is no modification date: it is reported, naming the page, and
        the next source is asked instead. When the files cannot date the page, the third value
        says why (a shallow clone, no git), for the one line per build that tells the user how
        to fix it.
        """
        files_done = False
        undated: Undated | None = None
        for source in self.options.lastmod_sources:
            if source == "metadata":
                explicit = self._explicit_lastmod(page, meta, reporter)
                if explicit is not None and not self._future(
                    page, explicit, "metadata", now, reporter
                ):
                    return explicit, "metadata", None
            elif source in ("git", "mtime") and not files_done:
                files_done = True
                dated, undated = _from_files(page, dates)
                if dated is not None and not self._future(page, dated[0], dated[1], now, reporter):
                    return dated[0], dated[1], None
            elif source == "build":
                return now, "build time", None
            if not page.sources and (page.listed_dates or page.listed_sources):
                # A generated page is as new as what it lists, whichever step dated those. A
                # listed date in the future was reported with its own page: it is not spread.
                listed = [(date, "listed pages") for date in page.listed_dates]
                listed += [dates.dates[path] for path in page.listed_sources if path in dates.dates]
                listed = [item for item in listed if not _is_future(item[0], now)]
                if listed:
                    date, origin = max(listed, key=lambda item: sort_key(item[0]))
                    return date, origin, None
        return None, "none", undated

    @staticmethod
    def _future(
        page: Page, value: Lastmod, origin: str, now: dt.datetime, reporter: Reporter
    ) -> bool:
        if not _is_future(value, now):
            return False
        reporter.warning(
            Code.BAD_LASTMOD,
            f"{page.origin}: lastmod {format_lastmod(value, 'datetime')} (from {origin}) is in "
            "the future; not written",
        )
        return True

    @staticmethod
    def _explicit_lastmod(
        page: Page, meta: Mapping[str, Any], reporter: Reporter
    ) -> Lastmod | None:
        for label, value in (("sitemap.lastmod", meta.get("lastmod")), ("date", page.updated)):
            if value is None or value == "":
                continue
            try:
                return parse_lastmod(value)
            except ValueError as error:
                reporter.warning(
                    Code.BAD_LASTMOD,
                    f"{page.origin}: {label} {value!r} is not a date (allowed: {error}); ignored",
                )
        return None

    def _check_url(self, page: Page, loc: str, scope: str, reporter: Reporter) -> bool:
        if len(loc) > MAX_URL_LENGTH:
            reporter.warning(
                Code.BAD_URL,
                f"{page.origin}: URL is {len(loc):,} characters, over the protocol's limit of "
                f"2,048; left out: {loc[:80]}…",
            )
            return False
        if not in_scope(loc, scope):
            reporter.warning(
                Code.BAD_URL,
                f"{page.origin}: URL {loc} is outside {scope}, which a sitemap there may not "
                "list; left out",
            )
            return False
        return True

    @staticmethod
    def _alternates(
        page: Page, base_url: str, scope: str, reporter: Reporter
    ) -> tuple[tuple[str, str], ...]:
        found: dict[str, str] = {}
        for alternate in page.alternates:
            try:
                url = join_url(base_url, alternate.path, encoded=page.encoded)
            except ValueError as error:
                reporter.warning(Code.BAD_URL, f"{page.origin}: alternate URL path {error}")
                continue
            if not _HREFLANG.match(alternate.hreflang):
                reporter.warning(
                    Code.BAD_METADATA,
                    f"{page.origin}: hreflang {alternate.hreflang!r} is not a language tag; "
                    "alternate left out",
                )
            elif not in_scope(url, scope) or len(url) > MAX_URL_LENGTH:
                reporter.warning(
                    Code.BAD_URL,
                    f"{page.origin}: alternate URL {url[:200]} is outside {scope}; left out",
                )
            else:
                found.setdefault(alternate.hreflang, url)
        if len(found) < 2:
            return ()  # a page with only itself as "alternate" has no alternates
        return tuple(sorted(found.items(), key=lambda item: (item[0] == "x-default", item[0])))

    def _deduplicate(self, resolved: list[_Resolved], reporter: Reporter) -> list[_Resolved]:
        resolved.sort(key=lambda item: (item.entry.loc, item.origin))
        kept: list[_Resolved] = []
        previous: _Resolved | None = None
        for item in resolved:
            if previous is not None and item.entry.loc == previous.entry.loc:
                reporter.warning(
                    Code.DUPLICATE,
                    f"{item.origin}: URL {item.entry.loc} is already listed for "
                    f"{previous.origin}; listed once",
                )
                continue
            kept.append(item)
            previous = item
        return kept


def _from_files(page: Page, lookup: DateLookup) -> tuple[FileDate | None, Undated | None]:
    """The newest date of the page's files, unless a file git cannot date may be newer.

    In a shallow clone, a file traced to a boundary commit changed at the latest then; if some
    other file of the page changed after that, the page's date is still exact.
    """
    known = [lookup.dates[path] for path in page.sources if path in lookup.dates]
    missing = [lookup.undated[path] for path in page.sources if path in lookup.undated]
    bounds = [item.bound for item in missing if item.bound is not None]
    if known:
        date, origin = max(known, key=lambda item: sort_key(item[0]))
        if not bounds or sort_key(date) >= max(bounds):
            return (date, origin), None
    shallow = [item for item in missing if item.reason is Why.SHALLOW]
    if shallow:
        return None, shallow[0]
    own = lookup.undated.get(page.sources[0]) if page.sources else None
    return None, own


_WHY_UNDATED: Final[Mapping[Why, str]] = {
    Why.SHALLOW: (
        "{pages} no lastmod: {roots} is a shallow clone, so git cannot see when they last "
        "changed (before the oldest commit the clone holds). Fetch the whole history: "
        "'fetch-depth: 0' for actions/checkout on GitHub Actions, 'GIT_DEPTH: 0' on GitLab CI, "
        "'git fetch --unshallow' in build.jobs.post_checkout on Read the Docs (or before the "
        "build elsewhere), or set the git_fetch_history option"
    ),
    Why.NO_GIT: (
        "{pages} no lastmod: {roots} is a git work tree but git was not found on PATH, so "
        "its history cannot be read; install git where the site is built"
    ),
}


def _say_why_undated(resolved: Iterable[_Resolved], reporter: Reporter) -> None:
    """One line per cause for the pages listed without lastmod: never one line per page."""
    pages: Counter[Why] = Counter()
    roots: dict[Why, set[str]] = {}
    for item in resolved:
        if item.undated is not None:
            pages[item.undated.reason] += 1
            if item.undated.root is not None:
                roots.setdefault(item.undated.reason, set()).add(str(item.undated.root))
    for why, count in sorted(pages.items()):
        text = f"{count} page has" if count == 1 else f"{count} pages have"
        where = ", ".join(sorted(roots.get(why, ()))) or "the sources"
        if why in _WHY_UNDATED:
            reporter.warning(Code.GIT, _WHY_UNDATED[why].format(pages=text, roots=where))
        elif why is Why.NOT_TRACKED:
            reporter.info(
                f"sitemap: {text} no lastmod: their sources are not tracked by git, and a "
                "file time there records a copy, checkout or unpack, not a change; build from a "
                "git clone, or set lastmod in their metadata"
            )


def _is_future(value: Lastmod, now: dt.datetime) -> bool:
    """Whether ``value`` lies ahead of ``now``, allowing for clock skew and time zones.

    A bare date names a calendar day without a zone, so it is in the future only once it is
    ahead of the day in the zone furthest ahead; a time is, past :data:`CLOCK_SKEW`.
    """
    if isinstance(value, dt.datetime):
        return value > now + CLOCK_SKEW
    return value > (now.astimezone(dt.timezone.utc) + _AHEAD_OF_UTC).date()
