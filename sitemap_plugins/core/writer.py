"""Streaming sitemap files to disk: split by count and by bytes, index, gzip.

Entries arrive as an iterator and leave as bytes straight away, so memory does not grow with the
number of URLs. Files are written through a :class:`~.publish.Publication`, which keeps them
under temporary names until all are complete and then puts them in place so that the site is
never hurt (see :mod:`.publish`): a build that fails half-way leaves the previous sitemap as it
was, and readers never see an index pointing at missing files.

Shards are named after their content (``sitemap-1-<12 hex digits>.xml``): a new shard then never
takes the name of one the live index still lists, and identical input still gives identical
names and bytes.

With the ``news`` option a second set, the news sitemap (``sitemap-news.xml`` beside the
sitemap, split at 1,000 URLs as Google News asks), is written in the same publication: both sets
are complete before either is put in place, the record lists both, and both entry points are
published last. It is a set of its own, not a child of the main index, because its URLs are
also in the main sitemap and one index tree lists each URL once; ``robots.txt`` names it.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import itertools
import operator
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Final, NamedTuple, Protocol

from sitemap_plugins.core.dates import lastmod_text, utc_day
from sitemap_plugins.core.gzip_stream import GzipStream
from sitemap_plugins.core.model import EMPTY, Entry, IndexEntry, Lastmod
from sitemap_plugins.core.options import (
    CHANGEFREQS,
    MAX_SITEMAPS_PER_INDEX,
    NEWS_FILENAME,
    Options,
)
from sitemap_plugins.core.publish import LaterWrite, Publication, TempFile
from sitemap_plugins.core.render import (
    INDEX_CLOSE,
    INDEX_OPEN,
    URLSET_CLOSE,
    format_priority,
    render_index_entry,
    render_url,
    urlset_open,
    xml_escape,
)
from sitemap_plugins.core.report import Code, Reporter, SitemapError
from sitemap_plugins.core.urls import join_url

_FLUSH_BYTES: Final = 1 << 18
Row = tuple[str, Lastmod | None, str | None, float | None]
"""One URL for :func:`write_sitemap_rows`: ``(loc, lastmod, changefreq, priority)``."""
_DIGITS: Final = 12
"""Hex digits of the content hash in a shard's name: enough that two different shards of the
same number never share a name."""
NEWS_URLS_PER_FILE: Final = 1_000
"""Google News reads at most 1,000 URLs per news sitemap; more go to further files and an index."""


class WriteResult(NamedTuple):
    """What was written: ``top`` is the file to submit (the index when split), or None."""

    top: str | None
    files: tuple[str, ...]
    urls: int
    shards: int
    news_top: str | None = None
    news_urls: int = 0


class _Layout(NamedTuple):
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
                self._streams.append(GzipStream(temp) if variant == ".gz" else temp)
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
            stream.close()  # a GzipStream writes its trailer and leaves our file open
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
        for temp in self.temps.values():  # a GzipStream holds nothing of its own
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
    news: Iterable[Entry] | None = None,
    also: Callable[[], Iterable[tuple[str, bytes]]] | None = None,
    replaces: Sequence[str] = (),
    in_place_of_host: Sequence[str] = (),
    host_files: Mapping[str, str] = EMPTY,
    then_writes: Sequence[LaterWrite] = (),
) -> WriteResult:
    """Write sorted, validated entries as one sitemap, or as shards plus an index.

    ``/sitemap.xml`` stays a plain urlset while everything fits in one file, because themes read
    it; only past ``urls_per_file`` or ``bytes_per_file`` does it become an index. With the
    ``robots_txt`` option, robots.txt is updated in the same publication. ``before_publish`` runs
    once every file is complete and before any is put in place: strict mode raises there, so a
    warning of the writer's own also leaves the previous sitemap as it was.

    ``news`` (with the ``news`` option; sorted entries carrying ``news``) is written as the news
    sitemap in the same publication. None of them means no news file: the one an earlier build
    published goes, and so does its ``robots.txt`` line.

    ``also`` gives more files of ours, as (path relative to ``output_dir``, bytes), to publish
    in the same set (the page for humans, which lists what the entries were): it is called
    once the entries are all written and after ``before_publish``. Each is recorded like a
    shard, so a later build replaces it or, when it no longer publishes it, removes it.

    ``replaces`` names sitemap files the host wrote that this set replaces without
    overwriting them (see :meth:`.Publication.retire`): removed once it is in place, and only
    when there is a set to put in their place. ``in_place_of_host`` names files of this set
    written because the host wrote its own of that name, which they overwrite: the record
    says so (see :meth:`.Publication.in_place_of_host`).

    ``host_files`` are the files the host itself wrote into ``output_dir`` this build (a
    static file, a copied extra file, a page), by path from it, each with the source a
    warning names it by. A set one of whose files would go over such a file is not written
    at all (see :func:`_taken`), with a warning: the site's own file stays.

    ``then_writes`` are the files the caller writes itself once a set is in place (the page
    for humans a host renders): shown writable with the set's own files, before any is put in
    place (see :meth:`.Publication.will_write`).
    """
    rows = _entry_rows(entries)
    return _write(
        rows,
        output_dir,
        base_url,
        options,
        reporter,
        extensions,
        before_publish,
        news,
        also,
        replaces,
        in_place_of_host,
        host_files,
        then_writes,
    )


def _entry_rows(entries: Iterable[Entry]) -> Iterator[Row | Entry]:
    """Entries as the writer's rows: the first four fields, or the whole entry when it has
    alternates, images, videos or news."""
    for entry in entries:
        extended = entry.alternates or entry.images or entry.videos or entry.news
        yield entry if extended else entry[:4]


def write_sitemap_rows(
    rows: Iterable[Row],
    output_dir: Path,
    *,
    base_url: str,
    options: Options,
    reporter: Reporter,
    extensions: Iterable[str] = (),
    before_publish: Callable[[], None] | None = None,
) -> WriteResult:
    """:func:`write_sitemaps` for bulk callers: each URL a plain tuple, not an :class:`Entry`.

    A row is ``(loc, lastmod, changefreq, priority)``, the first four fields of an ``Entry``
    with the same meaning (``None`` for an absent field), and gives the same bytes; making a
    tuple costs a fraction of making an ``Entry``, which counts at a million URLs. Rows are
    checked as entries are: ``loc`` a string (XML-escaped here, otherwise taken as given: a
    URL in RFC 3986's normal form, as :func:`.urls.join_url` makes it), ``lastmod`` a date or
    an aware datetime, ``changefreq`` one of the protocol's words, ``priority`` a number from
    0.0 to 1.0.
    Each distinct value is checked when first seen; a later value equal to it (``1`` after
    ``1.0``) is taken as that value. A bad value raises ``ValueError`` (``TypeError`` for a
    value of the wrong type) naming the URL and the value, before anything is published.
    """
    return _write(rows, output_dir, base_url, options, reporter, extensions, before_publish)


def _write(
    rows: Iterable[Row | Entry],
    output_dir: Path,
    base_url: str,
    options: Options,
    reporter: Reporter,
    extensions: Iterable[str],
    before_publish: Callable[[], None] | None,
    news: Iterable[Entry] | None = None,
    also: Callable[[], Iterable[tuple[str, bytes]]] | None = None,
    replaces: Sequence[str] = (),
    in_place_of_host: Sequence[str] = (),
    host_files: Mapping[str, str] = EMPTY,
    then_writes: Sequence[LaterWrite] = (),
) -> WriteResult:
    layout = _Layout.from_options(options)
    news_options = _news_options(options) if news is not None else None
    news_layout = _Layout.from_options(news_options) if news_options is not None else None
    at_root = options.robots_txt or options.indexnow_key is not None
    folders = (layout.directory, "") if at_root else (layout.directory,)
    label = layout.relpath(layout.stem + layout.suffix)
    with Publication(
        output_dir, reporter, folders=folders, sitemap=label, served_at=base_url
    ) as publication:
        publication.folder(layout.directory)
        _stage_key_file(publication, options, reporter, host_files)
        shards: list[_Shard] = []
        news_shards: list[_Shard] = []

        def new_file(layout: _Layout = layout) -> _PendingFile:
            label = layout.relpath(layout.stem + layout.suffix)
            return _PendingFile(publication, layout.directory, label, layout.variants)

        try:
            urls = _fill_shards(rows, new_file, options, reporter, list(extensions), shards)
            news_urls = 0
            if shards and news is not None and news_options and news_layout:
                news_urls = _fill_shards(
                    news,
                    lambda: new_file(news_layout),
                    news_options,
                    reporter,
                    ["news"],
                    news_shards,
                )
        except BaseException:
            for shard in (*shards, *news_shards):
                shard.file.discard()
            raise
        if not shards:
            reporter.warning(
                Code.EMPTY, f"no sitemap written to {layout.relpath(layout.index_name)}: no pages"
            )
            _publish_nothing(publication, options, before_publish)
            return WriteResult(None, (), 0, 0)
        taken = _taken(publication, _final_names(shards, layout), host_files)
        if taken:
            for shard in (*shards, *news_shards):
                shard.file.discard()
            reporter.warning(Code.CONFLICT, _kept_message(taken, options))
            _publish_nothing(publication, options, before_publish)
            return WriteResult(None, (), urls, 0)  # "N URLs in no file", after the warning
        if news_shards and news_layout is not None:
            taken = _taken(publication, _final_names(news_shards, news_layout), host_files)
            if taken:
                for shard in news_shards:
                    shard.file.discard()
                news_shards = []
                reporter.warning(Code.CONFLICT, _kept_message(taken, options, news=True))
        if before_publish is not None:
            before_publish()
        for relpath, data in also() if also is not None else ():
            publication.stage_file(relpath, data)
        written = _stage(publication, shards, layout, base_url, options)
        top = written[-len(layout.variants)]  # the first variant of the entry point
        news_top = None
        if news_shards and news_options and news_layout:
            news_written = _stage(publication, news_shards, news_layout, base_url, news_options)
            news_top = news_written[-len(news_layout.variants)]
            written += news_written
        if options.robots_txt:
            listed = [join_url(base_url, top, encoded=False)]
            gone: tuple[str, ...] = ()
            if news_top is not None:
                listed.append(join_url(base_url, news_top, encoded=False))
            elif news_options is not None:
                # The line goes with a news sitemap we published, or one that is not there;
                # never from under a user's own file of that name.
                gone = tuple(
                    join_url(base_url, name, encoded=False)
                    for name in (news_options.filename, news_options.filename + ".gz")
                    if name in publication.files or not (output_dir / name).exists()
                )
            publication.stage_robots(*listed, drop=gone)
        for name in replaces:
            publication.retire(name)
        for name in in_place_of_host:
            publication.in_place_of_host(name)
        for later in then_writes:
            publication.will_write(later)
        publication.commit()
    return WriteResult(top, tuple(written), urls, len(shards), news_top, news_urls)


def _taken(
    publication: Publication, names: Iterable[str], host_files: Mapping[str, str]
) -> list[tuple[str, str]]:
    """The files of a set that the host wrote itself this build, as (path, its source): a
    sitemap of the site's own (a static file copied to ``sitemap.xml``, a template page saved
    there). It is the site's, as a page of that name would be, and it is not ours to replace:
    written over, it would be lost without a word, whatever it listed with it. A file the
    record still knows byte for byte is ours, of an earlier build (a host that skips copying
    what looks up to date leaves it there), and is replaced as ever."""
    return [
        (name, source)
        for name in names
        if (source := host_files.get(name)) is not None and not publication.ours(name)
    ]


def _kept_message(taken: list[tuple[str, str]], options: Options, *, news: bool = False) -> str:
    """The one warning for a set not written over the site's own files: which files, which
    setting gave our files those names, and what the user can do."""
    sources = ", ".join(dict.fromkeys(source for _, source in taken))
    names = ", ".join(name for name, _ in taken)
    if news:
        what = f"the news sitemap goes (the news option, beside filename {options.filename!r})"
        fix = "remove that file from the site, or turn news off"
    else:
        setting = f"filename {options.filename!r}"
        if any(name.endswith(".gz") for name, _ in taken):
            setting += f", gzip {options.gzip!r}"
        what = f"the sitemap goes ({setting})"
        fix = "remove that file from the site, or set filename to another name"
    kept = "file is" if len(taken) == 1 else "files are"
    return (
        f"{sources}: already written to {names}, where {what}; the site's {kept} kept and "
        f"no {'news ' if news else ''}sitemap is written: {fix}"
    )


def _final_names(shards: list[_Shard], layout: _Layout) -> list[str]:
    """Every file a set of complete shards is published as: the shards' and the index's,
    or the single sitemap's, each in every gzip variant."""
    variants = layout.variants
    if len(shards) == 1:
        return [layout.relpath(layout.stem + layout.suffix + v) for v in variants]
    names = [*_shard_names(shards, layout), layout.index_name]
    return [layout.relpath(name + v) for name in names for v in variants]


def _shard_names(shards: list[_Shard], layout: _Layout) -> list[str]:
    """The names of a split set's shards, from their content."""
    return [layout.shard_name(n, shard.file.digest) for n, shard in enumerate(shards, 1)]


def _publish_nothing(
    publication: Publication, options: Options, before_publish: Callable[[], None] | None
) -> None:
    """A build with no page to list publishes an empty set, as a clean build of the site has
    no sitemap: the files the last build published go (only ours, only as we wrote them), and
    so do our ``Sitemap:`` lines, which would name them. Strict mode still decides first, and
    the IndexNow key file, staged first, stays where its option keeps it."""
    if before_publish is not None:
        before_publish()
    if options.robots_txt and publication.robots:
        publication.stage_robots(drop=publication.robots)
    publication.commit()


def _stage_key_file(
    publication: Publication, options: Options, reporter: Reporter, host_files: Mapping[str, str]
) -> None:
    """The IndexNow key file, with every set while the option names a key; said before strict
    mode decides, so that a key file not written fails a strict build. A recorded file the
    host wrote again this build (the site ships the key file itself) is the site's from now
    on, and no later build removes it."""
    for name in publication.files:
        if host_files.get(name) is not None:
            publication.spare(name)
    if options.indexnow_key is None:
        return
    from sitemap_plugins.core.indexnow import holds_key, key_file_bytes, key_file_name, masked

    key = options.indexnow_key
    served = publication.stage_extra(
        key_file_name(key), key_file_bytes(key), lambda held: holds_key(held, key)
    )
    if not served:
        shown = publication.root / key_file_name(masked(key))
        reporter.warning(
            Code.CONFLICT,
            f"{shown}: a file of the site's own is where the IndexNow key file goes "
            "(indexnow_key), holding something else; it is kept and no key file is written: "
            "remove it from the site, or turn indexnow_key off",
        )


def _same_offset(value: dt.datetime, tz: dt.tzinfo) -> bool:
    """Whether ``value`` is written as a time in ``tz`` is: the text depends on the offset
    alone, and each parsed date carries a time zone object of its own, equal offsets or not."""
    return value.utcoffset() == tz.utcoffset(value)


def _news_options(options: Options) -> Options:
    """The main options, as they apply to the news sitemap: XML, beside the sitemap, at most
    1,000 URLs a file."""
    directory = options.filename.rpartition("/")[0]
    return dataclasses.replace(
        options,
        filename=f"{directory}/{NEWS_FILENAME}" if directory else NEWS_FILENAME,
        format="xml",
        urls_per_file=min(options.urls_per_file, NEWS_URLS_PER_FILE),
        robots_txt=False,
        news=None,
    )


_PLAIN_LOC: Final = re.compile(r"[!#-%(-;=?-~]*").fullmatch
"""Printable ASCII but for the characters XML escapes: a URL that matches is written as it is.
Anything else (rare: a space, ``&``, a quote, non-ASCII) goes through :func:`xml_escape`."""
_NOT_PLAIN: Final = bytes(range(0x21)) + b"\"&'<>\x7f"
"""The ASCII bytes :data:`_PLAIN_LOC` refuses, for checking a whole chunk's URLs at once."""
_CHUNK: Final = 1024
_FIRST: Final = operator.itemgetter(0)
_NO_KEY: Final = float("-inf")
"""The order key of "no lastmod": older than any date."""
_DAY_MICROSECONDS: Final = 86_400_000_000
_CACHED: Final = 8192
"""Distinct values each fragment cache holds before it starts again."""


class _Fragments:
    """The parts of a ``<url>`` element that repeat, each rendered and checked once.

    ``lastmods`` maps a lastmod to its element, its order key for the index (an int: the
    ordinal of the day written, or the instant in microseconds) and the ``tzinfo`` it was
    rendered with. Equal instants in different offsets are one key of a dict but are written
    differently, so the hot loop takes a hit only for the same ``tzinfo`` object and asks
    :meth:`lastmod` otherwise, which keys by the offset too. Each cache is emptied when it
    grows past :data:`_CACHED` values, so memory stays flat however many distinct values come.
    """

    def __init__(self, style: str, indent: int) -> None:
        pad1, pad2, nl = (" " * indent, " " * indent * 2, "\n") if indent else ("", "", "")
        self.url_open = f"{pad1}<url>{nl}{pad2}<loc>"
        self.loc_close = f"</loc>{nl}"
        self.url_close = f"{pad1}</url>\n"
        self.style, self.pad2, self.nl = style, pad2, nl
        # None (no such field) is in each cache from the start, and stays.
        self.lastmods: dict[object, tuple[str, float, dt.tzinfo | None]] = {
            None: ("", _NO_KEY, None)
        }
        self.changefreqs: dict[object, str] = {None: ""}
        self.priorities: dict[object, str] = {None: ""}
        self._exact: dict[tuple[Lastmod, dt.timedelta | None], tuple[str, float]] = {}

    def lastmod(self, value: Lastmod | None) -> tuple[str, float]:
        """The element and order key of a checked lastmod, as written in its own offset."""
        if value is None:
            return "", _NO_KEY
        offset = value.utcoffset() if isinstance(value, dt.datetime) else None
        exact = (value, offset)
        found = self._exact.get(exact)
        if found is None:
            found = self._render(value, offset)
            if len(self._exact) >= _CACHED:
                self._exact.clear()
            self._exact[exact] = found
            self._keep(value, found, value.tzinfo if isinstance(value, dt.datetime) else None)
        return found

    def fresh_lastmod(self, value: object) -> tuple[str, float]:
        """The fast path's :meth:`lastmod` for a value not in :attr:`lastmods`: a date, or a
        datetime with an offset, as :func:`_checked_row` requires; ``KeyError`` for anything
        else, which sends the chunk row by row, where :func:`_checked_row` names the fault.

        No equal value is cached, so none in another offset either: :attr:`lastmods` alone
        takes it, not the by-offset cache as well (most of a site's dates are seen once).
        """
        tz: dt.tzinfo | None = None
        offset: dt.timedelta | None = None
        if isinstance(value, dt.datetime):
            tz, offset = value.tzinfo, value.utcoffset()
            if offset is None:
                raise KeyError(value)
        elif not isinstance(value, dt.date):
            raise KeyError(value)
        found = self._render(value, offset)
        self._keep(value, found, tz)
        return found

    def _keep(self, value: Lastmod, found: tuple[str, float], tz: dt.tzinfo | None) -> None:
        """Remember ``value`` for the fast path, unless an equal instant is already there
        (the first offset seen keeps the place; the others go by the by-offset cache)."""
        if len(self.lastmods) >= _CACHED:
            self.lastmods.clear()
            self.lastmods[None] = ("", _NO_KEY, None)
        self.lastmods.setdefault(value, (*found, tz))

    def _render(self, value: Lastmod, offset: dt.timedelta | None) -> tuple[str, float]:
        """The element, and the order key: with ``date`` the ordinal of the day written, else
        the instant in microseconds (from the proleptic calendar's first day), reckoned from the
        value's fields and its offset; a date is the start of its day in UTC. Computed here,
        not by subtracting datetimes, which asks each side for its offset again."""
        # Formatted here, not through format_lastmod's cache: the callers' are one.
        text = f"{self.pad2}<lastmod>{lastmod_text(value, self.style)}</lastmod>{self.nl}"
        if self.style == "date":
            return text, utc_day(value).toordinal()
        if offset is None or not isinstance(value, dt.datetime):  # a date
            return text, value.toordinal() * _DAY_MICROSECONDS
        seconds = value.hour * 3600 + value.minute * 60 + value.second
        seconds -= offset.days * 86400 + offset.seconds
        key = (value.toordinal() * 86400 + seconds) * 1_000_000
        return text, key + value.microsecond - offset.microseconds

    def changefreq(self, value: str | None) -> str:
        if value is None:
            return ""
        return self.changefreqs.setdefault(
            value, f"{self.pad2}<changefreq>{value}</changefreq>{self.nl}"
        )

    def priority(self, value: float | None) -> str:
        if value is None:
            return ""
        if len(self.priorities) >= _CACHED:
            self.priorities.clear()
            self.priorities[None] = ""
        return self.priorities.setdefault(
            value, f"{self.pad2}<priority>{format_priority(value)}</priority>{self.nl}"
        )


def _checked_row(row: Sequence[object]) -> Row:
    """The first four fields of a row, or the error that names the URL and its bad value."""
    if not isinstance(row, (tuple, list)) or len(row) < 4:
        raise TypeError(f"a sitemap row is (loc, lastmod, changefreq, priority), not {row!r}")
    loc, lastmod, changefreq, priority = row[:4]
    if not isinstance(loc, str):
        raise TypeError(f"a sitemap row starts with its URL as a string, not {loc!r}")
    if lastmod is not None:
        if not isinstance(lastmod, dt.date):
            raise TypeError(f"{loc}: lastmod {lastmod!r} is not a date or datetime")
        if isinstance(lastmod, dt.datetime) and lastmod.utcoffset() is None:
            raise ValueError(f"{loc}: lastmod {lastmod!r} has no UTC offset")
    if changefreq is not None and not (isinstance(changefreq, str) and changefreq in CHANGEFREQS):
        raise ValueError(f"{loc}: changefreq {changefreq!r} is not one of {', '.join(CHANGEFREQS)}")
    if priority is not None:
        if not isinstance(priority, (int, float)) or isinstance(priority, bool):
            raise TypeError(f"{loc}: priority {priority!r} is not a number")
        if not 0.0 <= priority <= 1.0:  # NaN fails this too
            raise ValueError(f"{loc}: priority {priority!r} is not from 0.0 to 1.0")
    return loc, lastmod, changefreq, priority


def _loc_text(loc: str) -> str:
    return loc if _PLAIN_LOC(loc) else xml_escape(loc)


def _fill_shards(
    rows: Iterable[Row | Entry],
    new_file: Callable[[], _PendingFile],
    options: Options,
    reporter: Reporter,
    extensions: list[str],
    shards: list[_Shard],
) -> int:
    """Render and write every row, starting a new shard at either limit.

    This is the per-URL hot path of a million-URL site. Rows are taken a chunk at a time. A
    chunk ends where the shard's count ends. A chunk of plain rows (four fields, every URL
    printable ASCII with nothing to escape: one check over the chunk's URLs joined) whose
    changefreqs and priorities are cached (:class:`_Fragments`) and that fits in the current
    shard, or else whole in a new one, is rendered with one f-string a row and no other per-row
    work than tracking the newest lastmod by its integer key. A lastmod not seen yet is checked
    and rendered on the way, since a site built from git has nearly one a page. Any other chunk
    (a value that is no lastmod, a changefreq or priority not seen yet, a URL to escape, the
    byte limit reached inside it, an :class:`Entry` with more than the four fields) goes row by
    row, with every check. Both give the same bytes.
    """
    if options.format != "xml":
        return _fill_text_shards(rows, new_file, options, reporter, shards)
    head = urlset_open(extensions).encode()
    tail = URLSET_CLOSE.encode()
    room = options.bytes_per_file - len(head) - len(tail)  # entry bytes one file can hold
    per_file = options.urls_per_file
    style, indent = options.lastmod_format, options.indent
    parts = _Fragments(style, indent)
    lastmods, changefreqs, priorities = parts.lastmods, parts.changefreqs, parts.priorities
    url_open, loc_close, url_close = parts.url_open, parts.loc_close, parts.url_close
    fresh_lastmod = parts.fresh_lastmod
    count = used = 0
    flush_at = _FLUSH_BYTES
    batch: list[str] = []
    shard: _Shard | None = None
    newest: Lastmod | None = None
    top: float = _NO_KEY
    key: float
    source = iter(rows)
    while True:
        # Chunks end where a shard's count ends, so that a whole chunk fits in one shard.
        left = per_file - count if shard is not None and count < per_file else per_file
        chunk = list(itertools.islice(source, min(left, _CHUNK)))
        if not chunk:
            break
        if _plain_chunk(chunk):
            texts: list[str] = []
            append = texts.append
            chunk_newest: Lastmod | None = None
            chunk_top: float = _NO_KEY
            try:
                for loc, lastmod, changefreq, priority in chunk:  # type: ignore[misc]
                    try:
                        lastmod_part, key, tz = lastmods[lastmod]
                    except KeyError:
                        # A date not seen yet (most of a site's are: one a commit) is checked
                        # and rendered here; one that is no lastmod sends the chunk row by row.
                        lastmod_part, key = fresh_lastmod(lastmod)
                    else:
                        # An equal instant in another offset is written otherwise.
                        if (
                            tz is not None
                            and lastmod.tzinfo is not tz  # type: ignore[union-attr]
                            and not _same_offset(lastmod, tz)  # type: ignore[arg-type]
                        ):
                            lastmod_part, key = parts.lastmod(lastmod)
                    append(
                        f"{url_open}{loc}{loc_close}{lastmod_part}"
                        f"{changefreqs[changefreq]}{priorities[priority]}{url_close}"
                    )
                    if key > chunk_top:
                        chunk_newest, chunk_top = lastmod, key
            except (KeyError, TypeError, ValueError):
                pass  # not a lastmod, a new changefreq or priority, a longer row: row by row
            else:
                text = "".join(texts)
                size = len(text)  # ASCII: one byte a character
                fits = shard is not None and count + len(chunk) <= per_file
                fits = fits and used + size <= room
                if not fits and (shard is None or count == per_file) and size <= room:
                    # A new shard holds the whole chunk: start it now, as its first row would.
                    if shard is not None:
                        shard.count, shard.newest = count, newest
                        shard.file.write(_encode(batch) + tail)
                        shard.file.close()
                    if len(shards) == MAX_SITEMAPS_PER_INDEX:
                        raise _too_many_files(shards, len(chunk), source, options)
                    shard = _Shard(new_file())
                    shards.append(shard)
                    shard.file.write(head)
                    batch, used, count, newest, top = [], 0, 0, None, _NO_KEY
                    flush_at, fits = _FLUSH_BYTES, True
                if fits:
                    assert shard is not None
                    batch.append(text)
                    used += size
                    count += len(chunk)
                    if chunk_top > top:
                        newest, top = chunk_newest, chunk_top
                    if used >= flush_at:
                        shard.file.write(_encode(batch))
                        batch, flush_at = [], used + _FLUSH_BYTES
                    continue
        for position, row in enumerate(chunk):
            loc, lastmod, changefreq, priority = _checked_row(row)
            lastmod_part, key = parts.lastmod(lastmod)
            if len(row) > 4:  # an Entry with alternates, images, videos or news
                text = render_url(Entry(*row), lastmod_style=style, indent=indent)
            else:
                text = (
                    f"{url_open}{_loc_text(loc)}{loc_close}{lastmod_part}"
                    f"{parts.changefreq(changefreq)}{parts.priority(priority)}{url_close}"
                )
            size = len(text) if text.isascii() else len(text.encode())
            if size > room:
                reporter.warning(
                    Code.BAD_URL,
                    f"{loc}: left out, its entry alone is {size:,} bytes, more than "
                    f"bytes_per_file allows ({options.bytes_per_file:,})",
                )
                continue
            if shard is None or count == per_file or used + size > room:
                if shard is not None:
                    shard.count, shard.newest = count, newest
                    shard.file.write(_encode(batch) + tail)
                    shard.file.close()
                if len(shards) == MAX_SITEMAPS_PER_INDEX:
                    raise _too_many_files(shards, len(chunk) - position, source, options)
                shard = _Shard(new_file())
                shards.append(shard)
                shard.file.write(head)
                batch, used, count, newest, top, flush_at = [], 0, 0, None, _NO_KEY, _FLUSH_BYTES
            batch.append(text)
            used += size
            count += 1
            if key > top:
                # The index names the newest lastmod *as written*: with dates only, that is
                # the day in the value's own offset, not always the day of the newest instant.
                newest, top = lastmod, key
            if used >= flush_at:
                shard.file.write(_encode(batch))
                batch, flush_at = [], used + _FLUSH_BYTES
    if shard is not None:
        shard.count, shard.newest = count, newest
        shard.file.write(_encode(batch) + tail)
        shard.file.close()
    return sum(s.count for s in shards)


def _plain_chunk(chunk: list[Row | Entry]) -> bool:
    """Whether every URL of the chunk is written as it is (no escaping), checked on all of
    them joined. (A row of another length than four is found when the fast path unpacks it.)"""
    try:
        locs = "".join(map(_FIRST, chunk))
    except (TypeError, IndexError, KeyError):
        return False  # not sequences, or a URL that is not a string: row by row says which
    if not locs.isascii():
        return False
    data = locs.encode("ascii")
    return len(data.translate(None, _NOT_PLAIN)) == len(data)


def _fill_text_shards(
    rows: Iterable[Row | Entry],
    new_file: Callable[[], _PendingFile],
    options: Options,
    reporter: Reporter,
    shards: list[_Shard],
) -> int:
    """A text sitemap: one URL a line (already encoded, so no spaces or newlines)."""
    room, per_file = options.bytes_per_file, options.urls_per_file
    count = used = 0
    batch: list[str] = []
    shard: _Shard | None = None
    source = iter(rows)
    for row in source:
        loc = row[0]
        if not isinstance(loc, str):
            raise TypeError(f"a sitemap row starts with its URL as a string, not {loc!r}")
        text = loc + "\n"
        size = len(text) if text.isascii() else len(text.encode())
        if size > room:
            reporter.warning(
                Code.BAD_URL,
                f"{loc}: left out, its entry alone is {size:,} bytes, more than "
                f"bytes_per_file allows ({options.bytes_per_file:,})",
            )
            continue
        if shard is None or count == per_file or used + size > room:
            if shard is not None:
                shard.count = count
                shard.file.write(_encode(batch))
                shard.file.close()
            if len(shards) == MAX_SITEMAPS_PER_INDEX:
                raise _too_many_files(shards, 1, source, options)
            shard = _Shard(new_file())
            shards.append(shard)
            batch, used, count = [], 0, 0
        batch.append(text)
        used += size
        count += 1
        if len(batch) >= 4096:
            shard.file.write(_encode(batch))
            batch = []
    if shard is not None:
        shard.count = count
        shard.file.write(_encode(batch))
        shard.file.close()
    return sum(s.count for s in shards)


def _too_many_files(
    shards: list[_Shard], unwritten: int, rest: Iterator[object], options: Options
) -> SitemapError:
    """The error for a set that needs more files than one index may list, raised before the
    file past the limit is begun: nothing is published, so the last build's set stays whole.

    The limits are the user's choice and the number of URLs is only known here, streaming: the
    rest of the rows are counted (not written) so that the message gives the real number.
    """
    urls = sum(shard.count for shard in shards) + unwritten + sum(1 for _ in rest)
    return SitemapError(
        f"{urls:,} URLs need more than {MAX_SITEMAPS_PER_INDEX:,} files at urls_per_file "
        f"{options.urls_per_file:,} and bytes_per_file {options.bytes_per_file:,}, and a "
        f"sitemap index lists at most {MAX_SITEMAPS_PER_INDEX:,}; raise urls_per_file or "
        "bytes_per_file; no sitemap written"
    )


def _encode(batch: list[str]) -> bytes:
    return "".join(batch).encode()


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
    names = _shard_names(shards, layout)
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
