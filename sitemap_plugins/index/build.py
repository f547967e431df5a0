"""One root ``<sitemapindex>`` over the sitemaps of several builds in one folder.

The steps, each saying what it did in a :class:`Note`:

1. **Find** the children: files under the folder matching the globs, or named one by one; the
   output itself and temporary files are never children.
2. **Choose**: ``--only`` and ``--exclude`` match a child's folder, its segments, and with mike's
   ``versions.json`` the version and its aliases.
3. **Read** each child once for its kind, its newest lastmod and whether its URLs lie in the
   folder it is served from. Identical files (a mike alias, a symbolic link or a copy of a
   version's folder) are one sitemap: it is listed at the folder its URLs belong to.
4. **Check** each child with ``validate``'s rules, at its own URL: a child that breaks them
   (URLs outside its folder, a build made for another base URL...) is *refused*, left out with
   its findings, and the exit status says so. A child that is itself an index is followed: its
   children are listed instead (the protocol forbids nesting), each dated by its own newest
   lastmod.
5. **Write** through the core's publisher: a temporary file, checked with ``validate`` together
   with every child it lists, then put in place (with ``robots.txt`` when asked), with a record of
   its own (:data:`INDEX_RECORD`), so that it never takes a site build's files for its own.
   An existing file at the output name is replaced only when it is such an index: one the
   record names with its bytes unchanged, or else one that lists no file beside it. Never a
   site's own urlset, nor the index of a split sitemap (which lists files beside it, as our
   own index does when the latest version sits at the root: hence the record first).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import hashlib
import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemap_plugins.core.dates import parse_lastmod
from sitemap_plugins.core.model import IndexEntry, Lastmod
from sitemap_plugins.core.options import MAX_URLS_PER_FILE
from sitemap_plugins.core.publish import TEMP_PREFIX, Publication, is_ours
from sitemap_plugins.core.render import INDEX_CLOSE, INDEX_OPEN, render_index_entry
from sitemap_plugins.core.report import Code, PublishError, counted
from sitemap_plugins.core.urls import (
    check_given_base_url,
    directory_url,
    has_dot_segment,
    in_scope,
    join_url,
)
from sitemap_plugins.defaults import DEFAULT_GLOB, VERSIONS_FILE
from sitemap_plugins.index.versions import (
    OtherToolsVersions,
    Version,
    VersionsError,
    alias_of,
    matches,
    names_of,
    read_versions,
)
from sitemap_plugins.validate import Finding, Report, Severity, validate
from sitemap_plugins.validate.collect import Listed, Listing, ListingError, read_listing

INDEX_RECORD: Final = ".sitemap-plugins-index.json"
"""The record of what ``sitemap-plugins index`` published in a folder (see :mod:`.publish`)."""
SHOWN_FINDINGS: Final = 5
"""Findings shown per refused child; the rest are counted."""

Progress = Callable[[str], None]


class Level(str, enum.Enum):
    """How a note counts: ``fatal`` (exit 2), ``error`` (exit 1), ``warning`` and ``info`` (0)."""

    INFO = "info"
    WARNING = "warning"
    ERROR = "error"
    FATAL = "fatal"


@dataclass(frozen=True, slots=True)
class Note:
    """One line of what happened: ``source`` is the file or option concerned."""

    level: Level
    source: str
    message: str


@dataclass(slots=True)
class IndexResult:
    """What :func:`build_index` did; ``written`` is the index file, or None."""

    notes: list[Note] = field(default_factory=list)
    children: list[IndexEntry] = field(default_factory=list)
    written: Path | None = None
    url: str | None = None
    refused: int = 0

    @property
    def exit_status(self) -> int:
        """0 written and clean, 1 a child was refused or the index broke a rule, 2 stopped."""
        levels = {note.level for note in self.notes}
        if Level.FATAL in levels:
            return 2
        return 1 if Level.ERROR in levels else 0

    def note(self, level: Level, source: str, message: str) -> None:
        self.notes.append(Note(level, source, message))


class _Stop(Exception):
    """Ends the run after a fatal note."""


class _Refused(Exception):
    """The written index failed ``validate``: leave the publication without putting it in place."""


@dataclass(slots=True)
class _Child:
    """One candidate sitemap under the folder."""

    relpath: str
    path: Path
    url: str
    names: tuple[str, ...]
    digest: str = ""
    listing: Listing | None = None
    outside: int = 0
    first_outside: str | None = None


def build_index(
    folder: Path,
    *,
    base_url: str,
    patterns: Sequence[str] = (),
    names: Sequence[str] = (),
    output: str = "sitemap.xml",
    only: Sequence[str] = (),
    exclude: Sequence[str] = (),
    versions: Path | None = None,
    robots_txt: bool | None = None,
    now: dt.datetime | None = None,
    progress: Progress | None = None,
) -> IndexResult:
    """Write ``folder/output``, an index of the sitemaps found under ``folder``; prints nothing.

    ``base_url`` is the URL ``folder`` is served at. ``patterns`` are globs relative to the folder
    (default :data:`DEFAULT_GLOB` when no ``names`` are given); ``names`` are sitemap files named
    one by one, relative to the folder. ``versions`` is mike's ``versions.json`` (default: the
    folder's own, when there is one). ``robots_txt`` adds the index to the folder's
    ``robots.txt``; by default only when ``base_url`` is a host's root, the one place crawlers
    read it. Every problem is a note of the result; nothing raises for bad input.
    """
    result = IndexResult()
    with contextlib.suppress(_Stop):  # the fatal note says why
        _Run(result, folder, now, progress).run(
            base_url, patterns, names, output, only, exclude, versions, robots_txt
        )
    return result


class _Run:
    def __init__(
        self,
        result: IndexResult,
        folder: Path,
        now: dt.datetime | None,
        progress: Progress | None,
    ) -> None:
        self.result = result
        self.folder = folder
        self.now = now
        self.progress = progress

    def fatal(self, source: str, message: str) -> _Stop:
        self.result.note(Level.FATAL, source, message)
        return _Stop()

    # ---------------------------------------------------------------------------------------

    def run(
        self,
        base_url: str,
        patterns: Sequence[str],
        names: Sequence[str],
        output: str,
        only: Sequence[str],
        exclude: Sequence[str],
        versions_file: Path | None,
        robots_txt: bool | None,
    ) -> None:
        if not self.folder.is_dir():
            what = "is not a folder" if self.folder.exists() else "no such folder"
            raise self.fatal(str(self.folder), what)
        try:
            base = check_given_base_url(base_url)  # a folder's, as the command line takes it
        except ValueError as error:
            raise self.fatal("--base-url", f"{base_url!r}: expected {error}") from None
        if not _relative_name(output) or not output.endswith(".xml"):
            raise self.fatal(
                "--output",
                f"{output!r}: expected a file name ending in .xml inside the folder, such as "
                "sitemap.xml or sitemap-index.xml",
            )
        index_url = join_url(base, output, encoded=False)
        scope = directory_url(index_url)
        versions = self._versions(versions_file)
        children = self._find(patterns or (() if names else (DEFAULT_GLOB,)), names, output, base)
        for child in children:
            child.names = names_of(posixpath.dirname(child.relpath), versions)
        children = self._choose(children, only, exclude)
        entries = self._survey(children, scope, versions, base)
        if not entries:
            raise self.fatal(str(self.folder), "no sitemap left to index; nothing written")
        if len(entries) > MAX_URLS_PER_FILE:
            raise self.fatal(
                str(self.folder),
                f"{len(entries):,} sitemaps to list, more than the {MAX_URLS_PER_FILE:,} one "
                "index may hold (and an index may not list another); nothing written",
            )
        self._check_output(output, scope)
        use_robots = urlsplit(base).path == "/" if robots_txt is None else robots_txt
        self._write(entries, output, base, scope, use_robots)

    def _versions(self, given: Path | None) -> list[Version]:
        path = given if given is not None else self.folder / VERSIONS_FILE
        if given is None and not path.is_file():
            return []
        try:
            found = list(read_versions(path))
        except OtherToolsVersions as error:
            if given is not None:
                raise self.fatal(str(path), str(error)) from None
            self.result.note(
                Level.INFO, str(path), f"{error}: another tool's file, so not read for versions"
            )
            return []
        except VersionsError as error:
            raise self.fatal(str(path), str(error)) from None
        self.result.note(
            Level.INFO,
            str(path),
            f"mike's list of versions: {', '.join(_describe(v) for v in found) or 'none'}",
        )
        return found

    # -- 1. find -----------------------------------------------------------------------------

    def _find(
        self, patterns: Sequence[str], names: Sequence[str], output: str, base: str
    ) -> list[_Child]:
        found: dict[str, Path] = {}
        for name in names:
            relpath = name.replace("\\", "/").strip("/")
            path = self.folder / relpath
            if not _relative_name(relpath):
                raise self.fatal(name, "expected a path inside the folder, without '..'")
            if not path.is_file():
                raise self.fatal(str(path), "no such file")
            found.setdefault(relpath, path)
        for pattern in patterns:
            if not _relative_name(pattern.strip("/")):
                raise self.fatal(
                    "--glob", f"{pattern!r}: expected a pattern inside the folder, without '..'"
                )
            matched = 0
            for path in self.folder.glob(pattern.strip("/")):
                relpath = path.relative_to(self.folder).as_posix()
                if relpath == output or path.name.startswith(TEMP_PREFIX) or not path.is_file():
                    continue
                found.setdefault(relpath, path)
                matched += 1
            if not matched:
                self.result.note(Level.WARNING, "--glob", f"{pattern!r} matches no file")
        if not found:
            raise self.fatal(str(self.folder), "no sitemap found; nothing written")
        return [
            _Child(relpath, path, join_url(base, relpath, encoded=False), ())
            for relpath, path in sorted(found.items())  # by URL: the index is sorted
        ]

    # -- 2. choose ---------------------------------------------------------------------------

    def _choose(
        self, children: list[_Child], only: Sequence[str], exclude: Sequence[str]
    ) -> list[_Child]:
        if only:
            unmatched = [p for p in only if not any(matches(c.names, [p]) for c in children)]
            if unmatched:
                known = sorted({name for c in children for name in c.names if name})
                raise self.fatal(
                    "--only",
                    f"{', '.join(map(repr, unmatched))} matches no version or folder "
                    f"(found: {', '.join(known)}); nothing written",
                )
        chosen = []
        for child in children:
            if only and not matches(child.names, only):
                continue
            if matches(child.names, exclude):
                self.result.note(Level.INFO, str(child.path), "left out (--exclude)")
                continue
            chosen.append(child)
        if not chosen:
            raise self.fatal("--exclude", "leaves no sitemap to index; nothing written")
        return chosen

    # -- 3 and 4. read, group, check -------------------------------------------------------

    def _survey(
        self, children: list[_Child], scope: str, versions: list[Version], base: str
    ) -> list[IndexEntry]:
        for child in children:
            self._read(child)
        groups: dict[str, list[_Child]] = {}
        for child in children:
            if child.listing is not None:
                groups.setdefault(child.digest, []).append(child)
        entries: list[IndexEntry] = []
        for child in children:
            if child.listing is None:
                continue
            group = groups[child.digest]
            kept = next((c for c in group if not c.outside), None)
            if kept is not None and kept is not child:
                why = _alias_reason(child, kept, versions)
                self.result.note(
                    Level.INFO, str(child.path), f"{why}; listed once, as {kept.relpath}"
                )
                continue
            if not in_scope(child.url, scope):
                self._refuse(
                    child,
                    f"served at {child.url}, outside {scope}, the folder an index there may list",
                )
                continue
            entries += self._check(child, base)
        seen: set[str] = set()
        unique = []
        for entry in entries:
            if entry.loc not in seen:
                seen.add(entry.loc)
                unique.append(entry)
        return unique

    def _read(self, child: _Child) -> None:
        if self.progress is not None:
            self.progress(child.relpath)
        folder_url = directory_url(child.url)

        def count(listed: Listed) -> None:
            if not in_scope(listed.loc, folder_url):
                child.outside += 1
                if child.first_outside is None:
                    child.first_outside = listed.loc

        try:
            child.listing = read_listing(child.path, label=str(child.path), on_url=count)
            child.digest = _digest(child.path)
        except (ListingError, OSError) as error:
            if isinstance(error, ListingError) and error.check.severity is not Severity.UNREADABLE:
                # Read, but against the protocol (Google's 0.84 namespace, XML that is not
                # well-formed): refused as any other child, its code counted as validate counts it.
                self._refuse(child, _cause(error))
                return
            self.result.refused += 1
            self.result.note(Level.FATAL, str(child.path), f"refused: {_cause(error)}")
            return
        for listed in child.listing.children:
            count(listed)

    def _refuse(self, child: _Child, why: str, findings: Sequence[Finding] = ()) -> None:
        self.result.refused += 1
        for finding in findings[:SHOWN_FINDINGS]:
            level = Level.FATAL if finding.severity is Severity.UNREADABLE else Level.ERROR
            where = f"{finding.source}:{finding.line}" if finding.line else finding.source
            self.result.note(level, where, f"{finding.code}: {finding.message}")
        if len(findings) > SHOWN_FINDINGS:
            more = len(findings) - SHOWN_FINDINGS
            self.result.note(Level.ERROR, str(child.path), f"... and {more:,} more like these")
        self.result.note(Level.ERROR, str(child.path), f"refused, not listed: {why}")

    def _check(self, child: _Child, base: str) -> list[IndexEntry]:
        """The entries ``child`` gives the index (itself, or an index's children), or none."""
        listing = child.listing
        if listing is None:  # not read: refused already
            return []
        folder_url = directory_url(child.url)
        report = validate([child.path], base_url=folder_url, now=self.now)
        bad = [f for f in report.findings if f.severity is not Severity.WARNING]
        if bad:
            self._refuse(child, _why(child, folder_url, bad), bad)
            return []
        for finding in report.findings:
            where = f"{finding.source}:{finding.line}" if finding.line else finding.source
            self.result.note(Level.WARNING, where, f"{finding.code}: {finding.message}")
        if listing.kind != "index":
            entry = IndexEntry(child.url, _as_lastmod(listing.newest))
            self.result.note(Level.INFO, str(child.path), _listed(listing))
            return [entry]
        entries = []
        for grandchild in listing.children:
            path = _path_under(self.folder, base, grandchild.loc)
            if path is None:  # validate found it on disk under the same rule: not reached
                continue
            try:
                inner = read_listing(path, label=str(path))
            except ListingError as error:
                self._refuse(child, f"lists {grandchild.loc}, which cannot be read: {error}")
                return []
            entry = IndexEntry(grandchild.loc, _as_lastmod(inner.newest))
            entries.append(entry)
        self.result.note(
            Level.INFO,
            str(child.path),
            f"an index: its {counted(len(entries), 'sitemap')} "
            f"{'is' if len(entries) == 1 else 'are'} listed in its place (an index may not list "
            "another index)",
        )
        return entries

    # -- 5. write ----------------------------------------------------------------------------

    def _check_output(self, output: str, scope: str) -> None:
        path = self.folder / output
        if not path.exists() and not path.is_symlink():
            return
        if path.is_dir():
            raise self.fatal(str(path), "is a folder; name the index with --output")
        if is_ours(self.folder, output, record=INDEX_RECORD):
            # Written by an earlier run and unchanged since: our own index, whatever it lists.
            # An index of ours lists the site's sitemap beside it when the latest version is at
            # the root (README's ``--output sitemap-index.xml``), which alone would look like a
            # split sitemap's index; only the record tells them apart.
            return
        try:
            current = read_listing(path)
        except ListingError as error:
            raise self.fatal(
                str(path),
                f"exists and is not a sitemap index ({error.message}); not replaced: name the "
                "index with --output, or remove the file",
            ) from None
        if current.kind != "index":
            raise self.fatal(
                str(path),
                f"is the site's own sitemap ({counted(current.entries, 'URL')}), not an index; not "
                "replaced: name the index with --output (for example sitemap-index.xml)",
            )
        beside = [c.loc for c in current.children if directory_url(c.loc) == scope]
        if beside:
            raise self.fatal(
                str(path),
                f"is the index of a split sitemap (it lists {beside[0]} beside it), not an index "
                "of other builds; not replaced: name the index with --output",
            )

    def _write(
        self, entries: list[IndexEntry], output: str, base: str, scope: str, robots: bool
    ) -> None:
        index_url = join_url(base, output, encoded=False)
        out_dir = posixpath.dirname(output)
        folders = (out_dir, "") if robots else (out_dir,)
        reporter = _NoteReporter(self.result)
        final = self.folder / output
        try:
            with Publication(
                self.folder,
                reporter,
                folders=folders,
                sitemap=output,
                record=INDEX_RECORD,
                served_at=base,
            ) as publication:
                publication.folder(out_dir)
                temp = publication.new_file(out_dir, output)
                temp.write(INDEX_OPEN.encode())
                for entry in entries:
                    temp.write(render_index_entry(entry, lastmod_style="datetime").encode())
                temp.write(INDEX_CLOSE.encode())
                temp.close()
                publication.written(temp)
                publication.stage(output, temp, entry=True)
                if robots:
                    publication.stage_robots(index_url)
                if self.progress is not None:
                    self.progress(f"checking {output}")
                report = validate([temp.path], base_url=scope, now=self.now)
                if self._report(report, str(temp.path), str(final)):
                    raise _Refused
                publication.commit()
        except _Refused:
            self.result.note(
                Level.ERROR, str(final), "the index breaks the rules above; nothing written"
            )
            return
        except PublishError as error:
            raise self.fatal(str(final), str(error)) from None
        self.result.children = entries
        self.result.written = final
        self.result.url = index_url

    def _report(self, report: Report, temp: str, final: str) -> bool:
        """Notes for what ``validate`` found in the new index; True when it found errors."""
        failed = False
        shown = {(note.source, note.message) for note in self.result.notes}
        for finding in report.findings:
            source = final if finding.source == temp else finding.source
            where = f"{source}:{finding.line}" if finding.line else source
            if finding.severity is Severity.WARNING:
                level = Level.WARNING
            else:
                level, failed = Level.ERROR, True
            message = f"{finding.code}: {finding.message}"
            if (where, message) not in shown:  # a child's own warning, said when it was read
                self.result.note(level, where, message)
        return failed


class _NoteReporter:
    """The publisher's warnings (an unreadable record...) as notes."""

    def __init__(self, result: IndexResult) -> None:
        self.result = result

    def warning(self, code: Code, message: str) -> None:
        self.result.note(Level.WARNING, "publish", message)

    def info(self, message: str) -> None:
        self.result.note(Level.INFO, "publish", message)


def _why(child: _Child, folder_url: str, findings: Sequence[Finding]) -> str:
    if child.outside:
        first = child.first_outside or ""
        said = (
            f"its URLs are not under {folder_url}, the folder it is served from (it lists {first}"
        )
        if first.startswith(folder_url) and has_dot_segment(first):
            # Written under the folder, resolved out of it: another base URL would not mend it.
            return f"{said}, whose dot segments lead out of it)"
        return (
            f"{said}): it was built for another base URL; build it with {folder_url} as its site "
            "URL (mike sets it from site_url by itself)"
        )
    codes = sorted({finding.code for finding in findings})
    return f"it breaks the sitemap rules ({', '.join(codes)}; see sitemap-plugins validate)"


def _alias_reason(child: _Child, kept: _Child, versions: Sequence[Version]) -> str:
    version = alias_of(posixpath.dirname(child.relpath), versions)
    if version is not None:
        alias = child.relpath.split("/")[0]
        return f"the same file as {kept.relpath}: {alias} is an alias of {version.name}"
    return f"the same file as {kept.relpath} (an alias: a link to it or a copy)"


def _listed(listing: Listing) -> str:
    urls = counted(listing.entries, "URL")
    newest = f", newest lastmod {listing.newest}" if listing.newest else ", no lastmod"
    return f"listed ({urls}{newest})"


def _describe(version: Version) -> str:
    return version.name + (f" ({', '.join(version.aliases)})" if version.aliases else "")


def _as_lastmod(text: str | None) -> Lastmod | None:
    """The newest lastmod of a child, as the index writes it: never earlier than the child's.

    The index is written in whole seconds; a fraction is rounded up, not down, so that the
    index never says a child is older than what it holds.
    """
    if text is None:
        return None
    try:
        value = parse_lastmod(text)
    except ValueError:
        return None
    if isinstance(value, dt.datetime) and value.microsecond:
        value = value.replace(microsecond=0) + dt.timedelta(seconds=1)
    return value


def _path_under(folder: Path, base: str, loc: str) -> Path | None:
    if not loc.startswith(base):
        return None
    relative = unquote(urlsplit(loc[len(base) :]).path)
    if not _relative_name(relative):
        return None
    return folder / relative


def _relative_name(name: str) -> bool:
    if not name or name.startswith("/") or "\\" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def _cause(error: Exception) -> str:
    if isinstance(error, ListingError):
        return f"{error.check.value}: {error.message}"
    if isinstance(error, OSError):
        return f"cannot be read: {error.strerror or error}"
    return str(error)
