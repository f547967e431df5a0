"""Streaming sitemap files to disk: split by count and by bytes, index, gzip.

Entries arrive as an iterator and leave as bytes straight away, so memory does not grow with the
number of URLs. Files are written through a :class:`~.publish.Publication`, which keeps them
under temporary names until all are complete and then puts them in place so that the site is
never hurt (see :mod:`.publish`): a build that fails half-way leaves the previous sitemap as it
was, and readers never see an index pointing at missing files.

Shards are named after their content (``sitemap-1-<12 hex digits>.xml``): a new shard then never
takes the name of one the live index still lists, and identical input still gives identical
names and bytes.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, Protocol

from sitemap_plugins.core.dates import sort_key, utc_day
from sitemap_plugins.core.indexnow import key_file_bytes, key_file_name
from sitemap_plugins.core.model import Entry, IndexEntry, Lastmod
from sitemap_plugins.core.options import Options
from sitemap_plugins.core.publish import Publication, TempFile
from sitemap_plugins.core.render import (
    INDEX_CLOSE,
    INDEX_OPEN,
    URLSET_CLOSE,
    render_index_entry,
    render_text_line,
    render_url,
    urlset_open,
)
from sitemap_plugins.core.report import Code, Reporter
from sitemap_plugins.core.urls import join_url

_FLUSH_BYTES: Final = 1 << 18
_DIGITS: Final = 12
"""Hex digits of the content hash in a shard's name: enough that two different shards of the
same number never share a name."""


@dataclass(frozen=True, slots=True)
class WriteResult:
    """What was written: ``top`` is the file to submit (the index when split), or None."""

    top: str | None
    files: tuple[str, ...]
    urls: int
    shards: int


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where each file goes, derived once from the options."""

    directory: str
    stem: str
    suffix: str
    index_name: str
    variants: tuple[str, ...]

    @classmethod
    def from_options(cls, options: Options) -> _Layout:
        directory, _, name = options.filename.rpartition("/")
        stem, dot, ext = name.rpartition(".")
        if not dot or not stem:
            stem, ext = name, options.format
        suffix = "." + ext
        index_name = name if options.format == "xml" else f"{stem}-index.xml"
        variants = {"off": ("",), "on": (".gz",), "both": ("", ".gz")}[options.gzip]
        return cls(directory, stem, suffix, index_name, variants)

    def relpath(self, name: str) -> str:
        return f"{self.directory}/{name}" if self.directory else name

    def shard_name(self, number: int, digest: str) -> str:
        return f"{self.stem}-{number}-{digest[:_DIGITS]}{self.suffix}"


class _Stream(Protocol):
    def write(self, data: bytes, /) -> object: ...

    def close(self) -> None: ...


class _PendingFile:
    """One file under a temporary name, written plain and/or gzipped in the same pass."""

    def __init__(
        self, publication: Publication, folder: str, label: str, variants: tuple[str, ...]
    ) -> None:
        self.publication = publication
        self.temps: dict[str, TempFile] = {}
        self._streams: list[_Stream] = []
        # The name comes from the uncompressed bytes; the plain file's own hash is that already.
        self._content = None if "" in variants else hashlib.sha256()
        try:
            for variant in variants:
                temp = publication.new_file(folder, label + variant)
                self.temps[variant] = temp
                if variant == ".gz":
                    # mtime=0 and no file name in the header: identical input, identical bytes.
                    self._streams.append(
                        gzip.GzipFile(filename="", mode="wb", fileobj=temp, mtime=0)
                    )
                else:
                    self._streams.append(temp)
        except BaseException:
            self.discard()
            raise

    def write(self, data: bytes) -> None:
        if self._content is not None:
            self._content.update(data)
        for stream in self._streams:
            stream.write(data)

    def close(self) -> None:
        for stream in self._streams:
            stream.close()  # a GzipFile writes its trailer and leaves our file open
        for temp in self.temps.values():
            temp.close()
            self.publication.written(temp)

    @property
    def digest(self) -> str:
        """SHA-256 of the uncompressed content, in hex."""
        if self._content is not None:
            return self._content.hexdigest()
        return self.temps[""].sha256

    def discard(self) -> None:
        # Close the gzip layers too: left open, they try to flush into a closed file when
        # collected later (an "unraisable" error on Python 3.12+).
        for stream in self._streams:
            with contextlib.suppress(Exception):
                stream.close()
        for temp in self.temps.values():
            temp.discard()


class _Shard:
    """A sitemap file being filled, with the newest lastmod it holds for the index."""

    def __init__(self, pending: _PendingFile) -> None:
        self.file = pending
        self.count = 0
        self.newest: Lastmod | None = None


def write_sitemaps(
    entries: Iterable[Entry],
    output_dir: Path,
    *,
    base_url: str,
    options: Options,
    reporter: Reporter,
    extensions: Iterable[str] = (),
    before_publish: Callable[[], None] | None = None,
) -> WriteResult:
    """Write sorted, validated entries as one sitemap, or as shards plus an index.

    ``/sitemap.xml`` stays a plain urlset while everything fits in one file, because themes read
    it; only past ``urls_per_file`` or ``bytes_per_file`` does it become an index. With the
    ``robots_txt`` option, robots.txt is updated in the same publication. ``before_publish`` runs
    once every file is complete and before any is put in place: strict mode raises there, so a
    warning of the writer's own also leaves the previous sitemap as it was.
    """
    layout = _Layout.from_options(options)
    at_root = options.robots_txt or options.indexnow_key is not None
    folders = (layout.directory, "") if at_root else (layout.directory,)
    label = layout.relpath(layout.stem + layout.suffix)
    with Publication(output_dir, reporter, folders=folders, sitemap=label) as publication:
        publication.folder(layout.directory)
        shards: list[_Shard] = []

        def new_file() -> _PendingFile:
            return _PendingFile(publication, layout.directory, label, layout.variants)

        try:
            urls = _fill_shards(
                entries, new_file, layout, options, reporter, list(extensions), shards
            )
        except BaseException:
            for shard in shards:
                shard.file.discard()
            raise
        if not shards:
            reporter.warning(
                Code.EMPTY, f"no sitemap written to {layout.relpath(layout.index_name)}: no pages"
            )
            return WriteResult(None, (), 0, 0)
        if before_publish is not None:
            before_publish()
        written = _stage(publication, shards, layout, base_url, options)
        top = written[-len(layout.variants)]  # the first variant of the entry point
        if options.robots_txt:
            publication.stage_robots(join_url(base_url, top, encoded=False))
        if options.indexnow_key is not None:
            key = options.indexnow_key
            publication.stage_extra(key_file_name(key), key_file_bytes(key))
        publication.commit()
    return WriteResult(top, tuple(written), urls, len(shards))


def _fill_shards(
    entries: Iterable[Entry],
    new_file: Callable[[], _PendingFile],
    layout: _Layout,
    options: Options,
    reporter: Reporter,
    extensions: list[str],
    shards: list[_Shard],
) -> int:
    """Render and write every entry, starting a new shard at either limit.

    This is the per-URL hot path of a million-URL site, so the state of the shard being filled
    lives in local variables and bytes are batched before they reach the file (and gzip).
    """
    xml = options.format == "xml"
    head = (urlset_open(extensions) if xml else "").encode()
    tail = (URLSET_CLOSE if xml else "").encode()
    room = options.bytes_per_file - len(head) - len(tail)  # entry bytes one file can hold
    per_file = options.urls_per_file
    style, indent = options.lastmod_format, options.indent
    by_day = style == "date"
    urls = count = used = batched = 0
    batch: list[bytes] = []
    shard: _Shard | None = None
    newest: Lastmod | None = None
    newest_key: Any = None
    for entry in entries:
        data = (
            render_url(entry, lastmod_style=style, indent=indent)
            if xml
            else render_text_line(entry)
        ).encode()
        size = len(data)
        if size > room:
            reporter.warning(
                Code.BAD_URL,
                f"{entry.loc}: left out, its entry alone is {size:,} bytes, more than "
                f"bytes_per_file allows ({options.bytes_per_file:,})",
            )
            continue
        if shard is None or count == per_file or used + size > room:
            if shard is not None:
                shard.count, shard.newest = count, newest
                shard.file.write(b"".join(batch) + tail)
                shard.file.close()
            shard = _Shard(new_file())
            shards.append(shard)
            batch, batched, used, count, newest, newest_key = [head], 0, 0, 0, None, None
        batch.append(data)
        batched += size
        used += size
        count += 1
        if batched >= _FLUSH_BYTES:
            shard.file.write(b"".join(batch))
            batch, batched = [], 0
        lastmod = entry.lastmod
        if lastmod is not None:
            # The index names the newest lastmod *as written*: with dates only, that is the day
            # in the value's own offset, not always the day of the newest instant.
            if by_day:
                key: Any = utc_day(lastmod)
            else:
                key = sort_key(lastmod)
            if newest_key is None or key > newest_key:
                newest, newest_key = lastmod, key
        urls += 1
    if shard is not None:
        shard.count, shard.newest = count, newest
        shard.file.write(b"".join(batch) + tail)
        shard.file.close()
    return urls


def _stage(
    publication: Publication,
    shards: list[_Shard],
    layout: _Layout,
    base_url: str,
    options: Options,
) -> list[str]:
    """Give every complete file its final name; the entry points (the index, or the single
    sitemap) come last in the list, as they are published last."""
    written: list[str] = []
    if len(shards) == 1:
        for variant, temp in shards[0].file.temps.items():
            relpath = layout.relpath(layout.stem + layout.suffix + variant)
            publication.stage(relpath, temp, entry=True)
            written.append(relpath)
        return written
    names = [layout.shard_name(n, shard.file.digest) for n, shard in enumerate(shards, 1)]
    for shard, name in zip(shards, names, strict=True):
        for variant, temp in shard.file.temps.items():
            publication.stage(layout.relpath(name + variant), temp, entry=False)
            written.append(layout.relpath(name + variant))
    index = _PendingFile(
        publication, layout.directory, layout.relpath(layout.index_name), layout.variants
    )
    try:
        _write_index(index, shards, names, layout, base_url, options)
    except BaseException:
        index.discard()
        raise
    for variant, temp in index.temps.items():
        relpath = layout.relpath(layout.index_name + variant)
        publication.stage(relpath, temp, entry=True)
        written.append(relpath)
    return written


def _write_index(
    index: _PendingFile,
    shards: list[_Shard],
    names: list[str],
    layout: _Layout,
    base_url: str,
    options: Options,
) -> None:
    # Both variants get the same bytes, so a gzipped index names the plain shards when both are
    # written; with gzip "on" only .gz shards exist and the index names those.
    suffix = ".gz" if layout.variants == (".gz",) else ""
    index.write(INDEX_OPEN.encode())
    for shard, name in zip(shards, names, strict=True):
        loc = join_url(base_url, layout.relpath(name + suffix), encoded=False)
        child = IndexEntry(loc=loc, lastmod=shard.newest)
        index.write(
            render_index_entry(
                child, lastmod_style=options.lastmod_format, indent=options.indent
            ).encode()
        )
    index.write(INDEX_CLOSE.encode())
    index.close()
