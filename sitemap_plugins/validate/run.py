"""From targets to a report: which files a target stands for, each read once, checked as a set.

A target is a local file, a local folder (its robots.txt ``Sitemap:`` lines, else its
``sitemap.xml``), or an http(s) URL. An index's children are followed: over HTTP by fetching them
(each URL once, on the index's own host only); on disk by finding them under the index's folder,
so that a built site can be validated before it is deployed, with no network at all.

On disk a file has no URL of its own. ``base_url`` gives it one (the URL the target folder, or the
folder holding the target file, is served at); without it, an index's folder is taken to stand for
the URL folder its children share or a parent of it (:mod:`.ondisk`), and a robots.txt's folder
for the host root or whichever parent folder of the listed URL holds the file. Where no URL is
known, the scope rule is reduced to "one scheme and host".
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import os
import posixpath
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Final
from urllib.parse import SplitResult, unquote, urlsplit

from sitemap_plugins.core.urls import (
    check_given_base_url,
    directory_url,
    encode_path,
    has_dot_segment,
)
from sitemap_plugins.defaults import DEFAULT_TIMEOUT
from sitemap_plugins.validate import values
from sitemap_plugins.validate.documents import DocumentChecker
from sitemap_plugins.validate.findings import Check, Document, Finding, Report
from sitemap_plugins.validate.ondisk import (
    FOLDER_SITEMAPS,
    LocalSite,
    children_site,
    folder_sitemap,
)
from sitemap_plugins.validate.ondisk import is_web_url as _is_web_url
from sitemap_plugins.validate.ondisk import origin as _origin
from sitemap_plugins.validate.reading import (
    ReadError,
    file_chunks,
    first_difference,
    sitemap_lines,
    starts_with_gzip_magic,
    uncompressed,
    url_chunks,
)
from sitemap_plugins.validate.xmldoc import Entry

SAME_DAY_MIN: Final = 3
"""Fewer dated URLs than this can honestly share a day; more all on one day is a build date."""

Progress = Callable[[str], None]


def validate(
    targets: Iterable[str | os.PathLike[str]],
    *,
    base_url: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    now: dt.datetime | None = None,
    progress: Progress | None = None,
) -> Report:
    """Check every target and return the findings; nothing is printed.

    A ``str`` starting with ``http://`` or ``https://`` is a URL, anything else a local path.
    ``base_url`` is the URL a local target folder (or the folder holding a target file) is served
    at. ``now`` is the time lastmod values must not pass (default: this machine's clock).
    ``progress`` is called with the name of each file as its reading starts.

    Raises ``ValueError`` for a ``base_url`` that is not an absolute http(s) URL, or that names
    a page (``https://example.org/docs/index.html``), as the command line refuses it.
    """
    site_url = check_given_base_url(base_url) if base_url else None
    run = _Run(
        base_url=site_url,
        timeout=timeout,
        now=now or dt.datetime.now(dt.timezone.utc),
        progress=progress,
    )
    for target in targets:
        run.target(target)
    return run.report.finish()


@dataclass(frozen=True, slots=True)
class _Source:
    """One document to read: ``label`` names it in findings."""

    label: str
    path: Path | None = None
    url: str | None = None
    scope: str | None = None
    site: LocalSite | None = None
    host_wide: bool = False
    fallback: bool = False  # the sitemap.xml looked for because robots.txt listed none
    robots_line: tuple[str, int] | None = None  # the robots.txt (and line) that lists it

    @property
    def key(self) -> str:
        return str(self.path.resolve()) if self.path is not None else str(self.url)

    @property
    def name(self) -> str:
        if self.path is not None:
            return self.path.name
        return posixpath.basename(urlsplit(self.url or "").path)


@dataclass(slots=True)
class _Result:
    kind: str | None
    children: list[Entry] = field(default_factory=list)
    newest: dt.datetime | None = None
    newest_text: str = ""  # the newest lastmod as written


class _SetTracker:
    """What a sitemap set (one file, or an index and its children) promises as a whole."""

    def __init__(self) -> None:
        self._labels: list[str] = []
        self._seen: dict[bytes, tuple[int, int]] = {}
        self.days: set[str] = set()
        self.dated = 0
        self.priorities: set[str] = set()
        self.with_priority = 0
        self.urls = 0

    def first_seen(self, label: str, line: int, origin: str, rest: str) -> tuple[str, int] | None:
        """Where a URL was listed before in this set, or None (and remember it).

        URLs are compared as :func:`~.values.web_parts` gives them (the site's origin and the
        rest as RFC 3986 compares them), and kept as 16-byte digests so that a set of millions
        of URLs stays small.
        """
        key = f"{origin}{rest}".encode("utf-8", "surrogatepass")
        digest = hashlib.blake2b(key, digest_size=16).digest()
        seen = self._seen.get(digest)
        if seen is not None:
            return self._labels[seen[0]], seen[1]
        if not self._labels or self._labels[-1] != label:
            self._labels.append(label)
        self._seen[digest] = (len(self._labels) - 1, line)
        return None

    def count(self, entry: Entry) -> None:
        self.urls += 1
        if entry.lastmod is not None:  # only valid values reach the tracker
            self.dated += 1
            if len(self.days) < 2:
                self.days.add(entry.lastmod[:10])
        if entry.priority is not None:
            self.with_priority += 1
            if len(self.priorities) < 2:
                self.priorities.add(_decimal_text(entry.priority))


class _DocumentSink:
    """Where one document's checker reports: findings, scope, duplicates, dates."""

    def __init__(self, run: _Run, source: _Source, tracker: _SetTracker) -> None:
        self._run = run
        self._source = source
        self._tracker = tracker
        self._origin: str | None = None
        self._children_seen: dict[str, int] = {}
        self._scope = values.web_parts(source.scope) if source.scope else None
        self.result = _Result(None)

    def emit(self, check: Check, message: str, line: int | None, column: int | None) -> None:
        self._run.report.add(Finding(check, message, self._source.label, line, column))

    def entry(self, entry: Entry) -> None:
        loc = entry.loc
        if loc is None:
            return
        self._tracker.count(entry)
        if entry.lastmod is not None:
            instant = values.instant_of(entry.lastmod)
            if instant is not None and (self.result.newest is None or instant > self.result.newest):
                self.result.newest = instant
                self.result.newest_text = entry.lastmod
        parts = values.web_parts(loc)
        if parts is None:
            return  # reported as not absolute already
        self._check_scope(loc, parts, entry.line)
        earlier = self._tracker.first_seen(self._source.label, entry.line, *parts)
        if earlier is not None:
            where = "above" if earlier[0] == self._source.label else f"in {earlier[0]}"
            self.emit(Check.DUPLICATE, f"{loc} is listed twice (also {where}, line {earlier[1]})",
                      entry.line, None)  # fmt: skip

    def child(self, entry: Entry) -> None:
        self.result.children.append(entry)
        loc = entry.loc
        parts = values.web_parts(loc) if loc is not None else None
        if loc is None or parts is None:
            return
        self._check_scope(loc, parts, entry.line)
        key = "".join(parts)
        if key in self._children_seen:
            self.emit(
                Check.DUPLICATE,
                f"{loc} is listed twice (also line {self._children_seen[key]})",
                entry.line,
                None,
            )
        else:
            self._children_seen[key] = entry.line

    def _check_scope(self, loc: str, parts: tuple[str, str], line: int) -> None:
        """The rule of :func:`sitemap_plugins.core.urls.in_scope`, on parts split once per URL."""
        scope = self._source.scope
        if scope is not None and self._scope is not None:
            origin, rest = parts
            if origin != self._scope[0] or not rest.startswith(self._scope[1]):
                where = "host" if self._source.host_wide else "folder"
                named = ""
                if has_dot_segment(loc):
                    named = f" (its dot segments resolved: {origin}{rest})"
                self.emit(
                    Check.OUT_OF_SCOPE,
                    f"{loc}{named} is outside {scope}, the {where} this sitemap may list "
                    "(same scheme and host, under the sitemap's own folder)",
                    line,
                    None,
                )
            return
        origin = parts[0]
        if self._origin is None:
            self._origin = origin
        elif origin != self._origin:
            self.emit(
                Check.MIXED_HOSTS,
                f"{loc} is on {origin}, the URLs before it on {self._origin}; "
                "a sitemap lists the URLs of one scheme and host",
                line,
                None,
            )


@dataclass
class _Run:
    base_url: str | None
    timeout: float
    now: dt.datetime
    progress: Progress | None
    report: Report = field(default_factory=Report)
    _done: dict[str, str | None] = field(default_factory=dict)
    _compared: set[frozenset[str]] = field(default_factory=set)

    # ---------------------------------------------------------------------------------------
    # Targets

    def target(self, target: str | os.PathLike[str]) -> None:
        if isinstance(target, str) and target.lower().startswith(("http://", "https://")):
            sources = list(self._url_target(target))
        else:
            sources = list(self._path_target(Path(target), target))
        for source in sources:
            self._check_set(source)

    def _path_target(self, path: Path, given: str | os.PathLike[str]) -> Iterator[_Source]:
        label = os.fspath(given)
        if path.is_dir():
            yield from self._folder(path)
        elif path.exists() or path.is_symlink():
            site = LocalSite(path.parent, self.base_url) if self.base_url else None
            url = self.base_url + encode_path(path.name) if self.base_url else None
            scope = directory_url(url) if url else None
            yield _Source(label, path=path, url=url, scope=scope, site=site)
        else:
            self._problem(Check.NOT_FOUND, "no such file or folder", label)

    def _folder(self, folder: Path) -> Iterator[_Source]:
        robots = folder / "robots.txt"
        lines: list[tuple[int, str]] = []
        if robots.is_file():
            try:
                lines = sitemap_lines(file_chunks(robots))
            except ReadError as error:
                self._problem(error.check, error.message, str(robots))
        seen: set[str] = set()
        for number, url in lines:
            if url in seen:
                continue
            seen.add(url)
            if not _is_web_url(url):
                self._problem(
                    Check.NOT_ABSOLUTE,
                    f"Sitemap: {url!r} is not an absolute http(s) URL",
                    str(robots),
                    number,
                )
                continue
            located = self._locate(url, folder)
            if located is None:
                self._problem(
                    Check.CHILD_MISSING,
                    f"robots.txt lists {url}, {self._not_in(url, folder)}",
                    str(robots),
                    number,
                )
                continue
            path, site = located
            host_scope = _origin(url) + "/"
            yield _Source(str(path), path, url, host_scope, site, host_wide=True)
        if lines:
            return
        candidate = folder_sitemap(folder)
        if candidate is not None:
            if self.base_url is None:
                yield _Source(str(candidate), candidate)
            else:
                site = LocalSite(folder, self.base_url)
                url = self.base_url + candidate.name
                yield _Source(str(candidate), candidate, url, self.base_url, site)
            return
        self._problem(
            Check.NO_SITEMAP,
            f"no robots.txt with a Sitemap: line, and no {' or '.join(FOLDER_SITEMAPS)}",
            str(folder),
        )

    def _locate(self, url: str, folder: Path) -> tuple[Path, LocalSite] | None:
        """The file under ``folder`` that ``url`` names, and the URL the folder is served at."""
        if self.base_url is not None:
            site = LocalSite(folder, self.base_url)
            path = site.path_of(url)
            return (path, site) if path is not None and path.is_file() else None
        for candidate, base in _placements(url, folder):
            if candidate.is_file():
                return candidate, LocalSite(folder, base)
        return None

    def _not_in(self, url: str, folder: Path) -> str:
        """Why :meth:`_locate` found no file for ``url``: the places it looked (no base URL
        would find it elsewhere), or the ``--base-url`` it is not under."""
        if self.base_url is None:
            looked = [str(candidate) for candidate, _ in _placements(url, folder)]
        else:
            path = LocalSite(folder, self.base_url).path_of(url)
            if path is None:
                return f"which is not under {self.base_url} (--base-url, the URL of {folder})"
            looked = [str(path)]
        if not looked:
            return f"which names no file in {folder}"
        return f"which does not exist (looked for {', '.join(looked)})"

    def _url_target(self, url: str) -> Iterator[_Source]:
        parts = _split(url)
        if parts is None or not parts.hostname:
            self._problem(Check.UNREADABLE, "not a valid http(s) URL", url)
            return
        if not parts.path.endswith("/") and parts.path:
            yield _Source(url, url=url, scope=directory_url(url))
            return
        folder = url if parts.path else url + "/"
        if urlsplit(folder).path == "/":
            robots_url = f"{_origin(folder)}/robots.txt"
            lines: list[tuple[int, str]] = []
            try:
                lines = sitemap_lines(uncompressed(url_chunks(robots_url, timeout=self.timeout)))
            except ReadError as error:
                if error.check is not Check.NOT_FOUND:
                    self._problem(error.check, error.message, robots_url)
            found = False
            seen: set[str] = set()
            for number, listed in lines:
                if listed in seen:
                    continue
                seen.add(listed)
                if not _is_web_url(listed):
                    self._problem(
                        Check.NOT_ABSOLUTE,
                        f"Sitemap: {listed!r} is not an absolute http(s) URL",
                        robots_url,
                        number,
                    )
                    continue
                found = True
                yield _Source(
                    listed,
                    url=listed,
                    scope=_origin(folder) + "/",
                    host_wide=True,
                    robots_line=(robots_url, number),
                )
            if found:
                return
        sitemap = folder + "sitemap.xml"
        yield _Source(sitemap, url=sitemap, scope=folder, fallback=True)

    # ---------------------------------------------------------------------------------------
    # Sets and documents

    def _check_set(self, source: _Source) -> None:
        tracker = _SetTracker()
        result = self._check_document(source, tracker)
        if result is not None and result.kind == "index":
            self._check_children(source, result, tracker)
        self._finish_set(source, tracker)

    def _check_document(
        self, source: _Source, tracker: _SetTracker, listed_by: tuple[_Source, Entry] | None = None
    ) -> _Result | None:
        """Read and check one document; None when it was read before or could not be read.

        ``listed_by`` is the index (and its entry) that lists the document: a child that does not
        exist is an error of that index, not a target that could not be read.
        """
        if source.key in self._done:
            return None
        self._done[source.key] = None
        if self.progress is not None:
            self.progress(source.label)
        sink = _DocumentSink(self, source, tracker)
        checker = DocumentChecker(sink, name=source.name, now=self.now)
        raw = (
            file_chunks(source.path)
            if source.path is not None
            else url_chunks(source.url or "", timeout=self.timeout)
        )
        chunks = uncompressed(raw)
        try:
            for chunk in chunks:
                if not checker.feed(chunk):
                    break
            checker.close()
        except ReadError as error:
            self._unreadable(source, error, listed_by)
            return None
        finally:
            chunks.close()
            raw.close()
        sink.result.kind = checker.kind
        self._done[source.key] = checker.kind
        self.report.documents.append(
            Document(source.label, source.url, checker.kind, checker.entries, checker.size)
        )
        if source.path is not None:
            self._check_gzip_files(source)
        return sink.result

    def _check_children(self, index: _Source, result: _Result, tracker: _SetTracker) -> None:
        site = index.site
        if site is None and index.path is not None:
            if index.url is not None:
                site = LocalSite(index.path.parent, directory_url(index.url))
            else:
                site = children_site(index.path, [e.loc for e in result.children if e.loc])
        for entry in result.children:
            loc = entry.loc
            if loc is None or not _is_web_url(loc):
                continue
            child = self._child_source(index, loc, site)
            if child is None:
                continue
            if isinstance(child, str):
                self._problem(Check.CHILD_MISSING, child, index.label, entry.line)
                continue
            if child.key in self._done:
                kind = self._done[child.key]
                if kind == "index":
                    self._nested(index, entry)
                continue
            child_result = self._check_document(child, tracker, (index, entry))
            if child_result is None:
                continue
            if child_result.kind == "index":
                self._nested(index, entry)
            elif entry.lastmod is not None and _older(entry.lastmod, child_result.newest_text):
                self._problem(
                    Check.INDEX_LASTMOD,
                    f"lastmod {entry.lastmod} of {loc} is older than the newest lastmod in "
                    f"it ({child_result.newest_text}); crawlers may skip the changed file",
                    index.label,
                    entry.line,
                )

    def _unreadable(
        self, source: _Source, error: ReadError, listed_by: tuple[_Source, Entry] | None
    ) -> None:
        if error.check is Check.NOT_FOUND and listed_by is not None:
            index, entry = listed_by
            where = f"looked for {source.label}" if source.path is not None else error.message
            self._problem(
                Check.CHILD_MISSING,
                f"lists {entry.loc}, which does not exist ({where})",
                index.label,
                entry.line,
            )
        elif error.check is Check.NOT_FOUND and source.robots_line is not None:
            robots, number = source.robots_line
            self._problem(
                Check.CHILD_MISSING,
                f"robots.txt lists {source.label}, which does not exist ({error.message})",
                robots,
                number,
            )
        elif error.check is Check.NOT_FOUND and source.fallback:
            self._problem(
                Check.NO_SITEMAP,
                f"robots.txt has no Sitemap: line, and {source.label} does not exist "
                f"({error.message})",
                source.label,
            )
        else:
            self._problem(error.check, error.message, source.label)

    def _child_source(
        self, index: _Source, loc: str, site: LocalSite | None
    ) -> _Source | str | None:
        """Where an index entry is read from: a source, a message why not, or None (skip).

        On disk, ``site`` maps the entry's URL to its file (see :mod:`.ondisk`); a URL it does
        not map is not looked for by its bare name beside the index, which may be the index.
        """
        child_scope = index.scope if index.host_wide else directory_url(loc)
        if index.path is None:
            if index.url is None or _origin(loc) != _origin(index.url):
                return None  # another host: out of scope (reported), never fetched
            return _Source(loc, url=loc, scope=child_scope, host_wide=index.host_wide)
        path = site.path_of(loc) if site is not None else None
        if path is None:
            if site is not None and self.base_url is not None:  # the site --base-url gives
                return (
                    f"lists {loc}, which is not under {site.base_url} (--base-url, the URL of "
                    f"{site.root}), so it cannot be found on disk"
                )
            where = (
                f"which is not under {site.base_url}"
                if site is not None
                else "whose file the children's URLs do not place beside the index"
            )
            return (
                f"lists {loc}, {where}, so it cannot be found on disk (pass --base-url with "
                "the URL of the folder)"
            )
        return _Source(str(path), path, loc, child_scope, site, index.host_wide)

    def _nested(self, index: _Source, entry: Entry) -> None:
        self._problem(
            Check.NESTED_INDEX,
            f"lists {entry.loc}, which is itself a sitemap index; an index may list only "
            "sitemaps (urlsets or text sitemaps)",
            index.label,
            entry.line,
        )

    def _check_gzip_files(self, source: _Source) -> None:
        path = source.path
        if path is None:  # read over HTTP: no file beside it to compare
            return
        gzipped = starts_with_gzip_magic(path)
        if path.name.endswith(".gz") and not gzipped:
            self._problem(
                Check.GZIP_NAME,
                "named .gz but not gzip-compressed; compress it, or drop .gz from its name",
                source.label,
            )
        twin = path.with_name(path.name[:-3]) if path.name.endswith(".gz") else None
        twin = twin or path.with_name(path.name + ".gz")
        if not twin.is_file():
            return
        pair = frozenset({str(path.resolve()), str(twin.resolve())})
        if pair in self._compared:
            return
        self._compared.add(pair)
        try:
            difference = first_difference(
                uncompressed(file_chunks(path)), uncompressed(file_chunks(twin))
            )
        except ReadError as error:
            self._problem(error.check, error.message, str(twin))
            return
        if difference is not None:
            offset, line = difference
            self._problem(
                Check.GZIP_TWIN,
                f"differs from its twin {twin} at byte {offset:,} (line {line}); the .gz "
                "file must hold exactly the plain file's content",
                source.label,
            )

    def _finish_set(self, source: _Source, tracker: _SetTracker) -> None:
        if tracker.dated >= SAME_DAY_MIN and len(tracker.days) == 1:
            day = next(iter(tracker.days))
            today = " (today)" if day == self.now.date().isoformat() else ""
            self._problem(
                Check.SAME_LASTMOD,
                f"every lastmod ({tracker.dated:,} of them) is on {day}{today}: engines distrust "
                "lastmod when every page has the same date, which is usually the build date",
                source.label,
            )
        every = tracker.urls >= 2 and tracker.with_priority == tracker.urls
        if every and len(tracker.priorities) == 1:
            value = next(iter(tracker.priorities))
            self._problem(
                Check.SAME_PRIORITY,
                f"priority {value} on every URL: priority only ranks a site's pages against "
                "each other, and Google ignores it; vary it or leave it out",
                source.label,
            )

    def _problem(self, check: Check, message: str, source: str, line: int | None = None) -> None:
        self.report.add(Finding(check, message, source, line))


def _placements(url: str, folder: Path) -> Iterator[tuple[Path, str]]:
    """Where a robots.txt in ``folder`` may find the file of ``url`` when no base URL is given:
    ``(file, the URL the folder is then served at)``, the folder served at the host root
    first, then at each deeper URL folder of the path (``/docs/``...)."""
    origin = _origin(url)
    raw_segments = urlsplit(url).path.lstrip("/").split("/")
    for start in range(len(raw_segments)):
        tail = [unquote(segment) for segment in raw_segments[start:]]
        if any(part in ("", ".", "..") for part in tail):
            continue
        prefix = "/".join(raw_segments[:start])
        yield folder.joinpath(*tail), f"{origin}/{prefix}/" if prefix else f"{origin}/"


def _older(listed: str, newest: str) -> bool:
    """Whether an index's lastmod for a child is older than the newest lastmod in the child.

    A plain date stands for its whole day, so against a date only the day counts: an index that
    says 2024-05-03 is not older than a child entry of 2024-05-03T10:00:00+02:00.
    """
    if not newest:
        return False  # no dated entry in the child
    listed_parsed, newest_parsed = values.parse_xsd_date(listed), values.parse_xsd_date(newest)
    if isinstance(listed_parsed, str) or isinstance(newest_parsed, str):
        return False
    if not listed_parsed[1] or not newest_parsed[1]:
        return values.trim(listed)[:10] < values.trim(newest)[:10]
    listed_at, newest_at = values.instant_of(listed), values.instant_of(newest)
    return listed_at is not None and newest_at is not None and listed_at < newest_at


@functools.lru_cache(maxsize=256)
def _decimal_text(text: str) -> str:
    """One spelling per number (``.5``, ``0.50`` and ``0.5`` alike), for the same-priority check."""
    return str(Decimal(text).normalize())


def _split(url: str) -> SplitResult | None:
    """``urlsplit``, or None for text it refuses (``http://[bad``): input is never trusted."""
    try:
        return urlsplit(values.trim(url))
    except ValueError:
        return None
