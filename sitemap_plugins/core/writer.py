"""Streaming sitemap files to disk: split by count and by bytes, index, gzip, atomic replace.

Entries arrive as an iterator and leave as bytes straight away, so memory does not grow with the
number of URLs. Every file is first written under a temporary name in the target directory and only
renamed into place once all of them are complete: a build that fails half-way leaves the previous
sitemap as it was, and readers never see an index pointing at missing files.
"""

from __future__ import annotations

import contextlib
import gzip
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO, Final

from sitemap_plugins.core.dates import sort_key, utc_day
from sitemap_plugins.core.model import Entry, IndexEntry, Lastmod
from sitemap_plugins.core.options import Options
from sitemap_plugins.core.render import (
    INDEX_CLOSE,
    INDEX_OPEN,
    SITEMAP_NS,
    URLSET_CLOSE,
    render_index_entry,
    render_text_line,
    render_url,
    urlset_open,
)
from sitemap_plugins.core.report import Code, Reporter
from sitemap_plugins.core.urls import join_url

_FLUSH_BYTES: Final = 1 << 18


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

    def shard_name(self, number: int) -> str:
        return f"{self.stem}-{number}{self.suffix}"


class _PendingFile:
    """One file under a temporary name, written plain and/or gzipped in the same pass."""

    def __init__(self, directory: Path, variants: tuple[str, ...]) -> None:
        self.temps: dict[str, Path] = {}
        self._streams: list[BinaryIO] = []
        self._raw: list[BinaryIO] = []
        try:
            for variant in variants:
                handle, name = tempfile.mkstemp(dir=directory, prefix=".sitemap-", suffix=".tmp")
                self.temps[variant] = Path(name)
                raw = os.fdopen(handle, "wb")
                self._raw.append(raw)
                if variant == ".gz":
                    # mtime=0 and no file name in the header: identical input, identical bytes.
                    self._streams.append(
                        gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0)  # type: ignore[arg-type]
                    )
                else:
                    self._streams.append(raw)
        except BaseException:
            self.discard()
            raise

    def write(self, data: bytes) -> None:
        for stream in self._streams:
            stream.write(data)

    def close(self) -> None:
        for stream in self._streams:
            stream.close()
        for raw in self._raw:
            raw.close()

    def discard(self) -> None:
        # Close the gzip layers too: left open, they try to flush into a closed file when
        # collected later (an "unraisable" error on Python 3.12+).
        for stream in (*self._streams, *self._raw):
            with contextlib.suppress(OSError, ValueError):
                stream.close()
        for temp in self.temps.values():
            temp.unlink(missing_ok=True)


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
) -> WriteResult:
    """Write sorted, validated entries as one sitemap, or as shards plus an index.

    ``/sitemap.xml`` stays a plain urlset while everything fits in one file, because themes read
    it; only past ``urls_per_file`` or ``bytes_per_file`` does it become an index.
    """
    layout = _Layout.from_options(options)
    target = output_dir / layout.directory if layout.directory else output_dir
    target.mkdir(parents=True, exist_ok=True)
    shards: list[_Shard] = []
    try:
        urls = _fill_shards(entries, target, layout, options, reporter, list(extensions), shards)
        if not shards:
            reporter.warning(
                Code.EMPTY, f"no sitemap written to {layout.relpath(layout.index_name)}: no pages"
            )
            return WriteResult(None, (), 0, 0)
        written = _publish(shards, target, layout, base_url, options)
    except BaseException:
        for shard in shards:
            shard.file.discard()
        raise
    _remove_stale(target, layout, {Path(name).name for name in written})
    top = layout.relpath(
        (layout.index_name if len(shards) > 1 else layout.stem + layout.suffix) + layout.variants[0]
    )
    return WriteResult(top, tuple(written), urls, len(shards))


def _fill_shards(
    entries: Iterable[Entry],
    target: Path,
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
            shard = _Shard(_PendingFile(target, layout.variants))
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


def _publish(
    shards: list[_Shard], target: Path, layout: _Layout, base_url: str, options: Options
) -> list[str]:
    """Rename complete shards into place, then write the index last, so it never dangles."""
    if len(shards) == 1:
        names = [layout.stem + layout.suffix]
    else:
        names = [layout.shard_name(number) for number in range(1, len(shards) + 1)]
    index: _PendingFile | None = None
    if len(shards) > 1:
        index = _PendingFile(target, layout.variants)
        try:
            _write_index(index, shards, names, layout, base_url, options)
        except BaseException:
            index.discard()
            raise
    written: list[str] = []
    for shard, name in zip(shards, names, strict=True):
        for variant, temp in shard.file.temps.items():
            temp.replace(target / (name + variant))
            written.append(layout.relpath(name + variant))
    if index is not None:
        for variant, temp in index.temps.items():
            temp.replace(target / (layout.index_name + variant))
            written.append(layout.relpath(layout.index_name + variant))
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
        loc = join_url(base_url, layout.relpath(name + suffix))
        child = IndexEntry(loc=loc, lastmod=shard.newest)
        index.write(
            render_index_entry(
                child, lastmod_style=options.lastmod_format, indent=options.indent
            ).encode()
        )
    index.write(INDEX_CLOSE.encode())
    index.close()


def _remove_stale(target: Path, layout: _Layout, keep: set[str]) -> None:
    """Delete shards and indexes of an earlier, larger build, but only files that are ours."""
    pattern = re.compile(
        rf"^{re.escape(layout.stem)}-(\d+){re.escape(layout.suffix)}(\.gz)?$"
        rf"|^{re.escape(layout.stem)}-index\.xml(\.gz)?$"
    )
    for path in _listdir(target):
        if path.name in keep or not pattern.match(path.name) or not path.is_file():
            continue
        if _looks_like_ours(path):
            path.unlink(missing_ok=True)


def _listdir(directory: Path) -> Iterator[Path]:
    try:
        yield from directory.iterdir()
    except OSError:
        return


def _looks_like_ours(path: Path) -> bool:
    """A sitemap we could have written: a urlset or index in the 0.9 namespace, or a URL list."""
    try:
        if path.suffix == ".gz":
            with gzip.open(path, "rb") as stream:
                head = stream.read(512)
        else:
            with open(path, "rb") as stream:
                head = stream.read(512)
    except (OSError, EOFError, gzip.BadGzipFile):
        return False
    if b"<urlset" in head or b"<sitemapindex" in head:
        return SITEMAP_NS.encode() in head
    first = head.split(b"\n", 1)[0]
    return first.startswith((b"http://", b"https://"))
