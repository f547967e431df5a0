"""The one entry point adapters call: what the host wrote in, sitemap files and a summary out.

An adapter says, for each file its host wrote, either what it knows about the page (a
:class:`~.model.Page`) or why the host itself keeps it out (a :class:`~.model.LeftOut`), and
calls :meth:`SitemapBuilder.build`. Everything else is decided below the adapters, the same way
for every host: the base URL, which pages are left out and in what words, each page's values
(:mod:`~sitemap_plugins.core.resolve`, :mod:`~sitemap_plugins.core.lastmod`), duplicates, strict
mode, and the files written (:mod:`~sitemap_plugins.core.writer`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

from sitemap_plugins.core.alternates import LeftOutURLs
from sitemap_plugins.core.built_sources import BuildWindow
from sitemap_plugins.core.collector import collector_paused
from sitemap_plugins.core.git_dates import DateLookup, FileDates, Undated, Why
from sitemap_plugins.core.lastmod import CLOCK_SKEW, LastmodRules, say_why_undated
from sitemap_plugins.core.model import EMPTY, Entry, FilePath, LeftOut, News, Page, Reason
from sitemap_plugins.core.options import Options, shown
from sitemap_plugins.core.page_reads import PageReads
from sitemap_plugins.core.publish import LaterWrite
from sitemap_plugins.core.report import Code, Reporter, StrictError
from sitemap_plugins.core.resolve import Resolved, Resolver
from sitemap_plugins.core.urls import check_base_url, directory_url, join_url, site_and_folder
from sitemap_plugins.core.writer import write_sitemaps

if TYPE_CHECKING:  # the page for humans is imported by the builds that write it
    from sitemap_plugins.core.human_page import Listed, Listing
    from sitemap_plugins.core.reciprocal import NamedBack

__all__ = ["READ_THE_DOCS_URL", "SitemapBuilder", "Summary"]


READ_THE_DOCS_URL: Final = "READTHEDOCS_CANONICAL_URL"
"""The variable in which Read the Docs gives every build the URL its output is served at (the
project, language and version included): the base URL of a site that sets none of its own, on
every host, as Read the Docs means it to be used."""


@dataclass
class Summary:
    """What one build did: the one summary line, and what the adapter may want to show."""

    urls: int = 0
    files: tuple[str, ...] = ()
    top: str | None = None
    sitemap_url: str | None = None
    left_out: Counter[str] = field(default_factory=Counter)
    lastmod_from: Counter[str] = field(default_factory=Counter)
    undated: Counter[Why] = field(default_factory=Counter)
    """The listed pages without lastmod, by why their files have no date: for an adapter to
    say what the core has no words for (``generate``'s :attr:`~.git_dates.Why.NOT_LOOKED_UP`),
    counting only what the sitemap lists, which the adapter cannot know."""
    warnings: int = 0
    images: int | None = None
    videos: int = 0
    news: int | None = None
    news_url: str | None = None
    listing: Listing | None = None
    """With the ``html_page`` option, the page for humans to write: what the sitemap lists."""

    def line(self) -> str:
        """One line for the build log: URLs, files, what was left out, where lastmod came from,
        and the images, videos and news articles listed when those are on."""
        files = ", ".join(self.files) if self.files else "no file"
        text = f"sitemap: {self.urls} URL{'s' if self.urls != 1 else ''} in {files}"
        if self.left_out:
            reasons = ", ".join(f"{n} {why}" for why, n in sorted(self.left_out.items()))
            text += f"; left out {sum(self.left_out.values())} ({reasons})"
        if self.lastmod_from:
            origins = ", ".join(f"{why} {n}" for why, n in sorted(self.lastmod_from.items()))
            text += f"; lastmod from {origins}"
        if self.images is not None:
            text += f"; {self.images} image{'s' if self.images != 1 else ''}"
        if self.videos:
            text += f"; {self.videos} video{'s' if self.videos != 1 else ''}"
        if self.news is not None:
            text += (
                f"; news: {self.news} article{'s' if self.news != 1 else ''} of the last two days"
                if self.news
                else "; news: no article of the last two days, no news sitemap"
            )
            if self.news and self.news_url is None:  # a file of the site's own is there
                text += ", no news sitemap written"
        return text


class _CountingReporter:
    """Passes everything on and counts warnings: the ``strict`` option fails on any the host
    did not silence."""

    def __init__(self, inner: Reporter) -> None:
        self.inner = inner
        self.count = 0

    def warning(self, code: Code, message: str) -> None:
        if self.inner.warning(code, message) is not False:
            self.count += 1

    def info(self, message: str) -> None:
        self.inner.info(message)


class SitemapBuilder:
    """Builds the sitemap of one site; keep one per process to reuse the git walk across builds.

    ``base_url_setting`` names the host setting users should fill in when no base URL is known
    (``site_url in mkdocs.yml``), so the warning tells them exactly what to do. ``cache_dir`` is
    the host's cache place, where the git history pass is kept for the next build. ``naive_tz`` is
    the zone a date written without one is read in (Pelican's ``TIMEZONE``; UTC elsewhere).
    ``rewrites_pages`` says the host writes every page anew each build (Pelican): each page is
    then read, and nothing is kept of the reads for a next build, where none would be used.
    ``source_folders`` are the folders the host reads sources and translations from (Sphinx's
    source folder and ``locale_dirs``): a git repository nested in the sources' one under them
    (a clone of the translations that repository ignores) dates the files it holds; elsewhere,
    only a registered submodule does (see :mod:`.nested_repos`). They are given here, not
    with :meth:`start`, because they decide answers and :meth:`start` is only a head start.

    Warnings an adapter reports about its host's own input go through :attr:`reporter`, which
    counts them towards the next build's ``strict`` check.
    """

    def __init__(
        self,
        options: Options,
        reporter: Reporter,
        *,
        base_url_setting: str = "base_url",
        cache_dir: Path | None = None,
        naive_tz: dt.tzinfo = dt.timezone.utc,
        file_dates: FileDates | None = None,
        clock: Callable[[], dt.datetime] | None = None,
        rewrites_pages: bool = False,
        source_folders: Iterable[Path] = (),
    ) -> None:
        self.options = options
        self.cache_dir = cache_dir
        self.rewrites_pages = rewrites_pages
        self.reporter = _CountingReporter(reporter)
        self.file_dates = file_dates or FileDates(
            self.reporter,
            git_date=options.git_date,
            fetch_history=options.git_fetch_history,
            cache_dir=cache_dir,
            ignored_commits=options.git_ignore_commits,
        )
        self.file_dates.source_folders(source_folders)
        self.base_url_setting = base_url_setting
        self.naive_tz = naive_tz
        self._clock = clock or (lambda: dt.datetime.now(dt.timezone.utc))
        self._began: dt.datetime | None = None

    def start(
        self,
        source_dir: Path,
        *,
        began: dt.datetime | None = None,
        beside: Iterable[Path] = (),
        ending: str = "",
    ) -> None:
        """Call when the host has read its configuration: the history pass of the sources'
        repository then runs while the host renders, instead of after it, and the build is
        known to have begun at ``began`` (now, if not given), the earliest moment the adapter
        knows of: a source file whose time is that or later was written by the build (a
        plugin's generated page) and gets no date from it (see :mod:`.built_sources`).

        Several calls before one :meth:`build` (a Pelican i18n subsite starting its run inside
        the main site's) keep the earliest; a build that never reaches :meth:`build` (it
        failed) is still going on for the next one, which then leaves undated rather than
        dates a file changed since. Without a call, a file's time dates it as before.

        ``beside``: folders beyond ``source_dir`` whose files named ``*ending`` date pages as
        its own do (Sphinx's catalogs kept outside its source folder, ``.po``): the pass covers
        them from the start (see :meth:`.FileDates.start`).
        """
        self.begin(began)
        if "git" in self.options.lastmod_sources:
            self.file_dates.start(source_dir, beside=beside, ending=ending)

    def begin(self, began: dt.datetime | None = None) -> None:
        """:meth:`start` without the history pass: for a host that builds again in the same
        process without starting anew (a Sphinx application built twice)."""
        began = began or self._clock()
        if self._began is None or began < self._began:
            self._began = began

    def exported(
        self, folder: Path, repository: Path, revision: str, *, within: bool = False
    ) -> None:
        """Call before :meth:`start` when the host builds from a copy of a commit's tree (made
        by a tool that builds every version of a site): its files are dated by that commit's
        history in the repository holding ``repository`` (see :meth:`.FileDates.exported`)."""
        if "git" in self.options.lastmod_sources:
            self.file_dates.exported(folder, repository, revision, within=within)

    def widen(self, sources: Iterable[FilePath]) -> None:
        """Call as soon as the host knows files beyond its source folder that date pages
        (includes, documented modules, snippets): a pass :meth:`start` began without them is
        begun again over them too, while the host goes on, and not once it is done. Each call
        that names a committed file the pass leaves out begins it again: a host that finds
        such files page by page names each once. ``sources`` is read only when a pass runs."""
        if "git" in self.options.lastmod_sources:
            self.file_dates.widen(sources)

    def build(
        self,
        written: Iterable[Page | LeftOut],
        output_dir: Path,
        *,
        host_base_urls: Sequence[tuple[str, str | None]] = (),
        output_url_path: str = "",
        host_files: Mapping[str, str] = EMPTY,
        page_for_humans: LaterWrite | None = None,
    ) -> Summary:
        """Resolve every page into an entry and write the files; warnings go to the reporter.

        ``host_base_urls`` are the host's own ideas of the site's URL, as (setting, value), in
        the host's order: MkDocs ``site_url``, Sphinx ``html_baseurl`` (after sphinx-sitemap's
        ``site_url``), Pelican ``SITEURL``; Read the Docs' canonical URL
        (:data:`READ_THE_DOCS_URL`) comes after them. The first one set stands in when the
        ``base_url`` option is unset. Hosts allow values a sitemap cannot use (a relative ``/``
        for local previews), so an unusable one is a warning and no sitemap, not a config error.

        ``output_url_path`` is where ``output_dir`` is served, relative to the base URL, when
        that is not the base URL itself: a build of one language whose pages' paths start with
        its folder (``"de/"``, as Sphinx's ``sitemap_url_scheme = "{lang}{link}"`` makes them).
        The sitemap's own URL, and so its scope, its parts' URLs in an index and its line in
        ``robots.txt``, are then under that folder. A base URL that already ends with the
        folder is that folder's URL, and the site's base URL is above it
        (:func:`~.urls.site_and_folder`).

        ``host_files`` are the files the host wrote into ``output_dir`` this build (pages,
        copied static and extra files), by path from it with ``/`` separators, each with the
        source a warning names it by. Each is the site's own: a file of the host's where the
        sitemap goes (its ``.gz``, a shard, the index; the news sitemap) stays, and that set
        is not written, with a warning (see :func:`~.writer.write_sitemaps`); one at the page
        for humans' path leaves :attr:`Summary.listing` None, with a warning, and the adapter
        writes nothing over it. Only the names the sitemap takes are looked up, so a host may
        pass a mapping that finds its files when asked.

        ``page_for_humans`` says where and how the adapter writes the page for humans once the
        sitemap is published, when that is not at the page's relpath and renamed over, as
        :func:`~.human_page.write_html_page` writes it: the file there is shown writable with
        the sitemap's own, so that the page cannot fail once a new sitemap is published.

        With the ``strict`` option, any warning since the last build raises
        :class:`~.report.StrictError` before a file is replaced. Files that cannot be written
        raise :class:`~.report.PublishError`; either way the previous sitemap stays as it was.
        """
        summary = Summary()
        try:
            with collector_paused():
                self._build(
                    written,
                    output_dir,
                    host_base_urls,
                    summary,
                    output_url_path,
                    host_files,
                    page_for_humans,
                )
            # Reached with warnings only when nothing was to be written (no base URL), or when
            # removing an earlier build's file failed after publishing.
            self._check_strict(written=summary.top is not None)
        finally:
            summary.warnings = self.reporter.count
            self.reporter.count = 0
            self._began = None  # the next build begins at its own start
        return summary

    def _check_strict(self, *, written: bool = False) -> None:
        if self.options.strict and self.reporter.count:
            raise StrictError(self.reporter.count, written=written)

    def _base_url(self, host_base_urls: Sequence[tuple[str, str | None]]) -> str | None:
        """The ``base_url`` option, else the first host setting that is set, else Read the
        Docs' URL of this build, or None (warned)."""
        if self.options.base_url is not None:
            return self.options.base_url
        read_the_docs = (READ_THE_DOCS_URL, os.environ.get(READ_THE_DOCS_URL))
        for setting, value in (*host_base_urls, read_the_docs):
            if not value:
                continue
            try:
                return check_base_url(value)
            except ValueError as error:
                self.reporter.warning(
                    Code.BAD_URL,
                    f"no sitemap written: {setting} {shown(value)!r} is not usable as the site's "
                    f"base URL (allowed: {error})",
                )
                return None
        self.reporter.warning(
            Code.NO_BASE_URL,
            f"no sitemap written: the site's base URL is not set (set {self.base_url_setting})",
        )
        return None

    def _build(
        self,
        written: Iterable[Page | LeftOut],
        output_dir: Path,
        host_base_urls: Sequence[tuple[str, str | None]],
        summary: Summary,
        output_url_path: str = "",
        host_files: Mapping[str, str] = EMPTY,
        page_for_humans: LaterWrite | None = None,
    ) -> None:
        items = list(written)
        pages = [item for item in items if isinstance(item, Page)]
        dropped = [item for item in items if isinstance(item, LeftOut)]  # by the host
        summary.left_out.update(item.reason.value for item in dropped)
        base_url = self._base_url(host_base_urls)
        if base_url is None:
            return
        base_url, output_url = site_and_folder(base_url, output_url_path)
        scope = directory_url(join_url(output_url, self.options.filename, encoded=False))
        now = self._clock()
        rules = LastmodRules(
            self.options, self.reporter, self._file_dates(pages, now), now, self.naive_tz
        )
        reads = PageReads(None if self.rewrites_pages else self.cache_dir, output_dir)
        resolver = Resolver(
            self.options,
            self.reporter,
            base_url,
            scope,
            rules,
            now=now,
            naive_tz=self.naive_tz,
            read=reads.read,
        )
        left_out = LeftOutURLs(base_url)
        for item in dropped:
            left_out.add_left_out(item)
        resolved: list[Resolved] = []
        for page in pages:
            outcome = resolver.resolve(page)
            if isinstance(outcome, Reason):
                summary.left_out[outcome.value] += 1
                left_out.add_page(page, outcome)
            else:
                resolved.append(outcome)
        reads.save()
        kept = self._deduplicate(resolved)
        summary.lastmod_from.update(item.lastmod_from for item in kept)
        summary.undated.update(item.undated.reason for item in kept if item.undated is not None)
        say_why_undated(
            (item.undated for item in kept),
            self.reporter,
            fetch_history=self.options.git_fetch_history,
        )
        entries = [item.entry for item in kept]
        if left_out.urls:  # most builds of a site without languages: nothing to prune by
            # A URL one file leaves out and another lists stays nameable.
            left_out.urls.difference_update(entry.loc for entry in entries)
            entries = [left_out.prune(entry) for entry in entries]
        news = None
        if self.options.news is not None:
            news = [Entry(item.entry.loc, news=item.news) for item in kept if item.news]
        listing_free = self.options.html_page and self._page_for_humans_free(host_files)
        then_writes: list[LaterWrite] = []
        if listing_free:
            from sitemap_plugins.core.human_page import html_page_relpath  # with html_page only

            relpath = html_page_relpath(self.options.filename)
            then_writes.append(page_for_humans or LaterWrite(relpath))
        self._check_strict()  # decided before a single file is written
        result = write_sitemaps(
            entries,
            output_dir,
            base_url=output_url,
            options=self.options,
            reporter=self.reporter,
            extensions=_extensions(entries),
            before_publish=self._check_strict,
            news=news,
            host_files=host_files,
            then_writes=then_writes,
        )
        summary.urls, summary.files, summary.top = result.urls, result.files, result.top
        if result.top is not None:
            summary.sitemap_url = join_url(output_url, result.top, encoded=False)
            if self.options.images:
                summary.images = sum(len(entry.images) for entry in entries)
            summary.videos = sum(len(entry.videos) for entry in entries)
            if news is not None:
                summary.news = result.news_urls
            if listing_free:
                from sitemap_plugins.core.human_page import Listed, listing

                # The pages the sitemap lists, and no other: both always agree.
                summary.listing = listing(
                    (Listed(item.entry.loc, item.title, item.entry.lastmod) for item in kept),
                    scope=scope,
                    sitemap_relpath=self.options.filename,
                    style=self.options.lastmod_format,
                )
        if result.news_top is not None:
            summary.news_url = join_url(output_url, result.news_top, encoded=False)

    def _page_for_humans_free(self, host_files: Mapping[str, str]) -> bool:
        """Whether the page for humans may be written: not when the host wrote a file at its
        path (a page of the user's named ``sitemap``, a copied ``sitemap.html``). That file is
        the site's own, listed as the page it is: writing over it would lose it and leave the
        sitemap listing a page that is no longer there. Said once, as a conflict."""
        from sitemap_plugins.core.human_page import html_page_relpath

        relpath = html_page_relpath(self.options.filename)
        source = host_files.get(relpath)
        if source is None:
            return True
        self.reporter.warning(
            Code.CONFLICT,
            f"{source}: already written to {relpath}, the name of the sitemap page; "
            "html_page left it as it is",
        )
        return False

    def _file_dates(self, pages: list[Page], now: dt.datetime) -> DateLookup:
        """The dates of every file that can date a page, in one lookup for the whole build.

        A page's own source (and a listing's items) decides which repositories count: a
        dependency anywhere else never dates a page. A file time from :meth:`start` to ``now``
        (with the clock skew any date is allowed) is the build's own, and dates nothing. The
        folders listings take their items from are asked when a file last left them.
        """
        sources = self.options.lastmod_sources
        if "git" not in sources and "mtime" not in sources:
            return DateLookup({}, {})
        files = {path for page in pages for path in (*page.sources, *page.listed_sources)}
        own = {page.sources[0] for page in pages if page.sources}
        own.update(path for page in pages for path in page.listed_sources)
        built = None if self._began is None else BuildWindow(self._began, now + CLOCK_SKEW)
        return self.file_dates.lookup(
            files,
            within=own,
            use_git="git" in sources,
            use_mtime="mtime" in sources,
            built=built,
            removals_in={folder for page in pages for folder in page.listed_folders},
        )

    def _deduplicate(self, resolved: list[Resolved]) -> list[Resolved]:
        """Sorted by URL, each URL once: the first page (by origin) keeps it, with a warning."""
        resolved.sort(key=lambda item: (item.entry.loc, item.origin))
        kept: list[Resolved] = []
        for item in resolved:
            if kept and item.entry.loc == kept[-1].entry.loc:
                self.reporter.warning(
                    Code.DUPLICATE,
                    f"{item.origin}: URL {item.entry.loc} is already listed for "
                    f"{kept[-1].origin}; listed once",
                )
                continue
            kept.append(item)
        return kept

    def build_stream(
        self,
        written: Iterable[Page | LeftOut],
        output_dir: Path,
        *,
        dates: DateLookup,
        host_base_urls: Sequence[tuple[str, str | None]] = (),
        chunk: int | None = None,
        spill_dir: Path | None = None,
        html_page: Callable[[Listing], str] | None = None,
        replaces: Sequence[str] = (),
        in_place_of_host: Sequence[str] = (),
        host_files: Mapping[str, str] = EMPTY,
        named_back: bool = False,
    ) -> Summary:
        """:meth:`build` for more pages than memory should hold: the same rules, streamed.

        ``written`` is read once, one page at a time; no list of it is made. The pages' file
        dates come from the caller, looked up beforehand for every file the pages name
        (``self.file_dates.lookup``), since one git pass needs all the files at once and
        ``written`` cannot be read twice. Resolved entries are sorted and deduplicated through
        :class:`~.spill.SortedSpill` (at most ``chunk`` in memory, by default
        :data:`~.spill.DEFAULT_CHUNK`; sorted runs on disk in
        ``spill_dir``, the system's temporary folder by default) and stream into the writer.
        Strict mode is still decided before a file is put in place.

        ``html_page`` renders the page for humans (with the ``html_page`` option) from its
        :class:`~.human_page.Listing`; the page is then published with the sitemap, in the
        same set and recorded as one of its files, so that a later build knows it for ours:
        it replaces it, or removes it once the option is off. Without it, the adapter writes
        :attr:`Summary.listing` itself.

        ``replaces`` names sitemap files the host wrote that this set replaces without
        overwriting them (``generate --gzip on`` after MkDocs' ``sitemap.xml``), removed once
        the set is in place (see :func:`~.writer.write_sitemaps`); ``in_place_of_host`` names
        files of the set written because the host wrote its own of that name, so recorded.
        ``host_files`` are as for :meth:`build`: a file there where the sitemap or the page for
        humans goes is the site's own, and nothing of ours is written over it.

        ``named_back``: the pages' translations come from each page alone (its head, for
        ``generate``), not from a host that knows each set whole, so they may disagree; each
        entry then keeps only the alternates that name it back (see :mod:`.reciprocal`).
        """
        summary = Summary()
        try:
            self._build_stream(
                written,
                output_dir,
                dates,
                host_base_urls,
                summary,
                chunk,
                spill_dir,
                html_page,
                replaces,
                in_place_of_host,
                host_files,
                named_back,
            )
            self._check_strict(written=summary.top is not None)
        finally:
            summary.warnings = self.reporter.count
            self.reporter.count = 0
        return summary

    def _build_stream(
        self,
        written: Iterable[Page | LeftOut],
        output_dir: Path,
        dates: DateLookup,
        host_base_urls: Sequence[tuple[str, str | None]],
        summary: Summary,
        chunk: int | None,
        spill_dir: Path | None,
        html_page: Callable[[Listing], str] | None = None,
        replaces: Sequence[str] = (),
        in_place_of_host: Sequence[str] = (),
        host_files: Mapping[str, str] = EMPTY,
        named_back: bool = False,
    ) -> None:
        base_url = self._base_url(host_base_urls)
        if base_url is None:
            return
        scope = directory_url(join_url(base_url, self.options.filename, encoded=False))
        now = self._clock()
        rules = LastmodRules(self.options, self.reporter, dates, now, self.naive_tz)
        resolver = Resolver(
            self.options, self.reporter, base_url, scope, rules, now=now, naive_tz=self.naive_tz
        )
        used: set[str] = set()  # the extension namespaces the entries use
        articles: dict[str, tuple[str, News]] = {}  # few: the articles of two days
        left_out = LeftOutURLs(base_url)
        with_alternates = _Alternated()
        from sitemap_plugins.core.reciprocal import NamedBack  # generate's only
        from sitemap_plugins.core.spill import DEFAULT_CHUNK, SortedSpill

        links = NamedBack(base_url, chunk or DEFAULT_CHUNK, spill_dir) if named_back else None
        with (
            SortedSpill[_Spilled](chunk or DEFAULT_CHUNK, spill_dir) as spill,
            links or contextlib.nullcontext(),
        ):
            for item in written:
                if isinstance(item, LeftOut):
                    summary.left_out[item.reason.value] += 1
                    left_out.add_left_out(item)
                    continue
                outcome = resolver.resolve(item)
                if isinstance(outcome, Reason):
                    summary.left_out[outcome.value] += 1
                    left_out.add_page(item, outcome)
                    continue
                entry = outcome.entry
                used.update(_extensions([entry]))
                with_alternates.add(entry)
                if links is not None and entry.alternates:
                    links.add(entry)
                if outcome.news is not None:
                    known = articles.get(entry.loc)
                    if known is None or outcome.origin < known[0]:  # as _unique keeps it
                        articles[entry.loc] = (outcome.origin, outcome.news)
                spill.add(
                    (entry.loc, outcome.origin),
                    (entry, outcome.origin, outcome.lastmod_from, outcome.undated, outcome.title),
                )
            if "xhtml" in used and left_out.urls:
                # A URL one file leaves out and another lists stays nameable: one more read of
                # the sorted runs, only for a site with alternates that leaves pages out.
                left_out.urls.difference_update(item[0].loc for item in spill.merged())
            if "xhtml" in used and not with_alternates.any_kept(left_out):
                used.discard("xhtml")  # every alternate named a page left out
            free = self.options.html_page and self._page_for_humans_free(host_files)
            listed: list[Listed] | None = [] if free else None
            page_for_humans = None
            if listed is not None and html_page is not None:
                page_for_humans = self._page_for_humans(listed, scope, html_page, summary)
            result = write_sitemaps(
                self._unique(spill.merged(), summary, listed, left_out, links),
                output_dir,
                base_url=base_url,
                options=self.options,
                reporter=self.reporter,
                extensions=used,
                before_publish=self._check_strict,
                news=None
                if self.options.news is None
                else [Entry(loc, news=articles[loc][1]) for loc in sorted(articles)],
                also=page_for_humans,
                replaces=replaces,
                in_place_of_host=in_place_of_host,
                host_files=host_files,
            )
        if links is not None:
            links.say(self.reporter)
        summary.urls, summary.files, summary.top = result.urls, result.files, result.top
        if result.top is not None:
            summary.sitemap_url = join_url(base_url, result.top, encoded=False)
            if self.options.news is not None:
                summary.news = result.news_urls
            if listed is not None and summary.listing is None:
                from sitemap_plugins.core.human_page import listing

                summary.listing = listing(
                    listed,
                    scope=scope,
                    sitemap_relpath=self.options.filename,
                    style=self.options.lastmod_format,
                )
        else:
            summary.images, summary.videos = None, 0
        if result.news_top is not None:
            summary.news_url = join_url(base_url, result.news_top, encoded=False)

    def _page_for_humans(
        self,
        listed: list[Listed],
        scope: str,
        render: Callable[[Listing], str],
        summary: Summary,
    ) -> Callable[[], list[tuple[str, bytes]]]:
        """What the writer publishes with the sitemap when ``render`` makes the page for
        humans: asked once every entry is written, so ``listed`` holds what the sitemap lists
        (no other page, so both always agree). The listing also goes to ``summary``."""

        def page() -> list[tuple[str, bytes]]:
            from sitemap_plugins.core.human_page import listing

            made = listing(
                listed,
                scope=scope,
                sitemap_relpath=self.options.filename,
                style=self.options.lastmod_format,
            )
            summary.listing = made
            return [(made.relpath, render(made).encode("utf-8"))]

        return page

    def _unique(
        self,
        items: Iterator[_Spilled],
        summary: Summary,
        listed: list[Listed] | None = None,
        left_out: LeftOutURLs | None = None,
        links: NamedBack | None = None,
    ) -> Iterator[Entry]:
        """Sorted entries, each URL once (the first page by origin keeps it, with a warning);
        once the last is out, the one line per cause of undated pages. With ``listed``, each
        entry's URL, title and lastmod are kept there too, for the page for humans (one short
        record per page: a site that big is not read page by page by a person anyway). Each
        entry's alternates lose the URLs ``left_out`` holds, then, with ``links``, those that
        do not name it back."""
        undated: Counter[Undated] = Counter()  # by cause and repository: a few keys at most
        if listed is not None:
            from sitemap_plugins.core.human_page import Listed
        previous: _Spilled | None = None
        for item in items:
            entry, origin, lastmod_from, why, title = item
            if previous is not None and entry.loc == previous[0].loc:
                self.reporter.warning(
                    Code.DUPLICATE,
                    f"{origin}: URL {entry.loc} is already listed for {previous[1]}; listed once",
                )
                continue
            previous = item
            summary.lastmod_from[lastmod_from] += 1
            if self.options.images:
                summary.images = (summary.images or 0) + len(entry.images)
            summary.videos += len(entry.videos)
            if why is not None:
                undated[Undated(why.reason, why.root, said=why.said)] += 1
                summary.undated[why.reason] += 1
            if listed is not None:
                listed.append(Listed(entry.loc, title, entry.lastmod))
            if left_out is not None:
                entry = left_out.prune(entry)
            yield entry if links is None or not entry.alternates else links.prune(entry, origin)
        say_why_undated(
            (why for why, count in undated.items() for _ in range(count)),
            self.reporter,
            fetch_history=self.options.git_fetch_history,
        )


class _Alternated:
    """Whether a streamed build still writes an alternate once every left-out URL is known,
    decided before the first entry is written (its namespace is declared at the top), from the
    first :data:`_SAMPLE` entries with alternates rather than a list of them all. Past those, a
    site whose sampled alternates all name pages left out declares the namespace all the same:
    harmless, where leaving it out would not be."""

    def __init__(self) -> None:
        self.sample: list[Entry] = []
        self.more = False

    def add(self, entry: Entry) -> None:
        if entry.alternates:
            if len(self.sample) < _SAMPLE:
                self.sample.append(entry)
            else:
                self.more = True

    def any_kept(self, left_out: LeftOutURLs) -> bool:
        return self.more or any(left_out.prune(entry).alternates for entry in self.sample)


_SAMPLE: Final = 1_000


_Spilled = tuple[Entry, str, str, "Undated | None", "str | None"]
"""What a resolved page keeps on its way through the sort: entry, origin, lastmod origin, why
it has no lastmod, title."""


def _extensions(entries: list[Entry]) -> set[str]:
    """The extension namespaces the entries use: declared only then."""
    used = set()
    if any(entry.alternates for entry in entries):
        used.add("xhtml")
    if any(entry.images for entry in entries):
        used.add("image")
    if any(entry.videos for entry in entries):
        used.add("video")
    return used
