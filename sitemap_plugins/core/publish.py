"""Putting sitemap files in place so that publishing never hurts the site.

A site owner must be able to trust four things, whatever happens during a build:

- **Readable**: every file gets the mode an ordinary write gets (the umask decides), because a
  web server running as another user must be able to read it; an existing ``robots.txt`` keeps
  its own mode.
- **Whole**: a reader, at any instant and after a kill at any instant, finds an entry point (the
  index, or the single sitemap) whose every child exists and belongs to the same build.
- **Never a user's file**: only files this project wrote are ever removed, known by a record of
  what was published, and only while their bytes are still the ones we wrote.
- **Never a trace**: every failure is one :class:`~.report.PublishError` naming the path and the
  cause; the previous sitemap stays as it was.

The protocol, in order (:data:`step_hook` is called once everything is locked and clean, and
after each step that changes the disk):

1. Lock the output folder, so that two builds into the same folder publish one after the other.
2. Read the record (:data:`RECORD`) and remove the temporary files an interrupted build left
   (their name prefix is in the record, so a file of anyone else is never taken for one). A
   record that cannot be read names nothing: nothing is removed, and it is written anew, even
   by a build that then fails, since putting it back would fail every strict build after.
3. Before the first new file, record this build's temporary-name prefix.
4. Write every file under a temporary name. Shards are then named after their content, so that a
   new shard never replaces one that the live index still lists, and identical input still gives
   identical names and bytes.
5. Record the new set together with the old one: from here on, whatever a kill leaves on disk is
   known to the next build.
6. Rename the shards into place (no index lists them yet), then the entry points (the index is
   the one way in, so it goes last), then ``robots.txt``. Every file these renames replace,
   and the page for humans a host writes after them, is first shown replaceable, before step
   5, so that one that is not (immutable, another user's in a folder with the sticky bit)
   fails the build before any file is put in place (:mod:`.replaceable`).
7. Remove what earlier builds published and this one did not, entry points first, so that no
   index is ever left listing a removed file; and the host's own sitemap this set replaces
   without overwriting it (:meth:`Publication.retire`).
8. Record the new set alone.

Data is not forced to disk (no ``fsync``): a killed process loses nothing the kernel already has,
which is the promise here; surviving a power cut is the file system's business, as for every
other file the host writes.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import gzip
import hashlib
import json
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, Final, Literal, NamedTuple
from urllib.parse import unquote, urlsplit

from sitemap_plugins.core.file_modes import Kept, give, keep_mode, kept_of
from sitemap_plugins.core.replaceable import refusal
from sitemap_plugins.core.report import Code, PublishError, Reporter

if sys.platform != "win32":
    import fcntl

RECORD: Final = ".sitemap-plugins.json"
"""The record of published files, in the output folder: it travels with the files it describes.

A dotfile, because MkDocs keeps dotfiles when it cleans ``site_dir`` and no host publishes
anything under that name.
"""

TEMP_PREFIX: Final = ".sitemap-plugins-"
"""Temporary files are ``.sitemap-plugins-<build token>-<n>.tmp`` next to their final name."""

_RECORD_VERSION: Final = 1
_TOKEN: Final = re.compile(r"^[0-9a-f]{16}$")
_SHA256: Final = re.compile(r"^[0-9a-f]{64}$")
_LOC: Final = re.compile(rb"<loc>\s*([^<\s]+)\s*</loc>")
_CHUNK: Final = 1 << 20

step_hook: Callable[[str], None] | None = None
"""Called with a short description after every step that changes the disk; ``None`` normally.

Tests set it to stop a build between two steps (``kill -9`` of a child process) and check what
a reader, and the next build, find.
"""


def _step(description: str) -> None:
    hook = step_hook
    if hook is not None:
        hook(description)


def _cause(error: OSError) -> str:
    return error.strerror or str(error) or type(error).__name__


@contextlib.contextmanager
def _io(action: str, path: Path) -> Iterator[None]:
    """Turn an ``OSError`` into the one-line :class:`PublishError` hosts show."""
    try:
        yield
    except OSError as error:
        raise PublishError(action, path, _cause(error)) from None


class TempFile:
    """A new file under a temporary name, created as an ordinary write would create it.

    ``tempfile.mkstemp`` creates files readable by their owner only, and renaming keeps that
    mode; ``os.open`` with ``0o666`` lets the umask decide, as for every page the host writes.
    A file that replaces another takes its mode and group before step 5
    (:meth:`Publication._keep_modes`).
    Bytes are counted and hashed on the way, for shard names and for the record. ``label`` is
    the file a user knows (``site/sitemap.xml``), named when a write fails.
    """

    def __init__(self, path: Path, label: Path) -> None:
        self.path = path
        self.label = label
        self.size = 0
        self._hash = hashlib.sha256()
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0)
        with _io("write", label):
            self._stream: BinaryIO = os.fdopen(os.open(path, flags, 0o666), "wb")

    def write(self, data: bytes) -> int:
        with _io("write", self.label):
            self._stream.write(data)
        self._hash.update(data)
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        with _io("write", self.label):
            self._stream.flush()

    def close(self) -> None:
        with _io("write", self.label):
            self._stream.close()

    @property
    def sha256(self) -> str:
        return self._hash.hexdigest()

    def discard(self) -> None:
        with contextlib.suppress(OSError, ValueError):
            self._stream.close()
        with contextlib.suppress(OSError):
            self.path.unlink()


class _Published(NamedTuple):
    """One file in the record: enough to know it is still exactly the file we wrote, and
    whether we wrote it in place of the host's (see :meth:`Publication.in_place_of_host`)."""

    size: int
    sha256: str
    entry: bool
    in_place_of_host: bool = False

    def as_json(self) -> dict[str, Any]:
        about: dict[str, Any] = {"size": self.size, "sha256": self.sha256, "entry": self.entry}
        if self.in_place_of_host:  # a key an older release ignores, written only where true
            about["in_place_of_host"] = True
        return about


class LaterWrite(NamedTuple):
    """A file the caller writes into the output folder itself once the set is in place (the
    page for humans, which a host renders through its theme): renamed over the file there, as
    :func:`~.human_page.write_html_page` does, or, ``in_place``, opened and written over, as
    Sphinx and Pelican write a page. Once written, :func:`record_later_write` records it."""

    relpath: str
    in_place: bool = False


class _Staged(NamedTuple):
    relpath: str
    temp: TempFile
    entry: bool
    recorded: bool = True
    verb: str = "replace"  # what a failure to put it in place says it could not do


def _safe_relpath(name: object) -> bool:
    """A path the record may name: relative, inside the output folder, in POSIX form."""
    if not isinstance(name, str) or not name or name.startswith("/") or "\\" in name:
        return False
    return all(part not in ("", ".", "..") for part in name.split("/"))


class Publication:
    """One build's publishing into ``output_dir``; use as a context manager.

    Leaving the block with an exception removes this build's temporary files and changes
    nothing else (but a record that could not be read, which is written anew: see
    :meth:`_renew_record`): only :meth:`commit` puts files in place.
    """

    def __init__(
        self,
        output_dir: Path,
        reporter: Reporter,
        *,
        folders: tuple[str, ...],
        sitemap: str,
        record: str = RECORD,
        served_at: str | None = None,
    ) -> None:
        self.root = output_dir
        # The URL the output folder is served at, where the caller knows it: a record of a
        # release that kept no robots_txt list is read with it (see _read_record).
        self.served_at = served_at
        # A tool that publishes into a folder some build also writes (``sitemap-plugins index``
        # at a site's root) keeps a record of its own, so that neither takes the other's files
        # for an earlier set of its own.
        self.record = record
        self.reporter = reporter
        # What a failure before anything is in place names: the sitemap the user knows, even
        # when the file that could not be written was the record (the cause is the same).
        self.sitemap = output_dir / sitemap
        self.token = os.urandom(8).hex()  # what secrets.token_hex does, without its import
        # Every folder this build may write temporary files in, for step 3.
        mine = f"{TEMP_PREFIX}{self.token}-"
        self.prefixes = tuple(
            sorted({f"{folder}/{mine}" if folder else mine for folder in folders})
        )
        self.files: dict[str, _Published] = {}
        # The Sitemap: URLs of the robots.txt lines earlier builds wrote (see stage_robots),
        # and those this build leaves there once it has staged robots.txt.
        self.robots: tuple[str, ...] = ()
        self._robots_now: tuple[str, ...] | None = None
        self._leftover_prefixes: list[str] = []
        self._unclean: set[str] = set()
        self._temps: list[TempFile] = []
        self._staged: list[_Staged] = []
        self._retired: list[str] = []
        self._later: list[LaterWrite] = []
        self._in_place_of_host: set[str] = set()
        self._kept: dict[str, _Published] = {}  # see stage_extra
        self._spared: set[str] = set()  # see spare
        self._counter = 0
        self._announced = False
        self._committing = False
        self._original: bytes | None = None
        self._distrusted = False  # the record is to be written anew (see _distrust)
        self._renew = False  # and is not put back after a failure (see _renew_record)
        self._lock_fd: int | None = None

    # -- 1 and 2: lock, read the record, clean up after an interrupted build -------------------

    def __enter__(self) -> Publication:
        self.folder("")
        self._lock_fd = _lock(self.root)
        try:
            self._read_record()
            self._remove_leftovers()
            _step("start")
        except BaseException:
            # A host may raise on a warning (Sphinx before 8.1 under -W): the record's own too.
            self._fail()
            raise
        return self

    def __exit__(self, kind: object, error: object, traceback: object) -> None:
        if error is not None:
            self._fail()
        else:
            self._unlock()

    def _fail(self) -> None:
        """Leave the folder as the build found it (but for a record to renew), and unlock."""
        try:
            for temp in self._temps:
                temp.discard()
            if self._renew and not self._committing:
                self._renew_record()
            elif self._announced and not self._committing:
                self._restore_record()
        finally:
            self._unlock()

    def _restore_record(self) -> None:
        """After a failure before anything was put in place, the record goes back to what it
        was, so that a failed build leaves the folder exactly as it found it. Best effort: if
        that fails too, the record still names every file correctly."""
        path = self.root / self.record
        with contextlib.suppress(OSError):
            if self._original is None:
                path.unlink(missing_ok=True)
            else:
                self._replace_record(self._original)

    def _renew_record(self) -> None:
        """After a failure, a record that could not be read is not put back but written anew,
        naming no earlier file, as the warning said (:meth:`_distrust`). It held nothing this
        release can use (damaged bytes, or a file it may not read), so nothing is lost; put
        back, it would make every later build warn again, and strict mode stop each of them,
        until the user removed it by hand. Best effort, as restoring is."""
        prefixes = self.prefixes if self._announced else ()
        with contextlib.suppress(OSError):
            self._write_record(self.files, prefixes + tuple(sorted(self._unclean)), self.robots)

    def _unlock(self) -> None:
        if self._lock_fd is not None:
            with contextlib.suppress(OSError):
                os.close(self._lock_fd)  # closing the descriptor releases the lock
            self._lock_fd = None

    def _read_record(self) -> None:
        path = self.root / self.record
        try:
            self._original = path.read_bytes()
        except FileNotFoundError:
            return  # a first build: nothing is known to be ours, so nothing will be removed
        except OSError as error:
            self._distrust(path, _cause(error))
            return
        try:
            data = json.loads(self._original)
        except ValueError:
            self._distrust(path, "not valid JSON")
            return
        version = data.get("version") if isinstance(data, dict) else None
        if isinstance(version, int) and not isinstance(version, bool) and version > _RECORD_VERSION:
            self._distrust_newer(path, version)
            return
        files = data.get("files") if isinstance(data, dict) else None
        temporary = data.get("temporary") if isinstance(data, dict) else None
        if (
            version != _RECORD_VERSION
            or not isinstance(files, dict)
            or not isinstance(temporary, list)
        ):
            self._distrust(path, "not a record of this version")
            return
        self.files.update(_recorded_files(files))
        robots = data.get("robots_txt")
        if isinstance(robots, list):
            self.robots = tuple(url for url in robots if isinstance(url, str))
        elif "robots_txt" not in data:
            self.robots = self._lines_of_older_release()
        for prefix in temporary:
            folder, _, base = str(prefix).rpartition("/")
            token = base.removeprefix(TEMP_PREFIX).removesuffix("-")
            if (
                isinstance(prefix, str)
                and (not folder or _safe_relpath(folder))
                and base == f"{TEMP_PREFIX}{token}-"
                and _TOKEN.match(token)
            ):
                self._leftover_prefixes.append(prefix)

    def _lines_of_older_release(self) -> tuple[str, ...]:
        """The ``Sitemap:`` URLs a release that kept no ``robots_txt`` list in its record may
        have written: with its ``robots_txt`` option, one line for its entry point (and its
        news sitemap's), at the URL the folder is served at; of an entry point published plain
        and gzipped, for the plain file alone. Read as none, that line stayed for good beside
        the new one after an upgrade that renamed the sitemap, naming a file the same build
        removed; only a line with exactly such a URL is taken for ours, and only the lines the
        file holds are recorded (:meth:`stage_robots`)."""
        if self.served_at is None:
            return ()
        from sitemap_plugins.core.urls import join_url  # upgrades only

        entries = {name for name, about in self.files.items() if about.entry}
        named = sorted(name for name in entries if name.removesuffix(".gz") not in entries - {name})
        return tuple(join_url(self.served_at, name, encoded=False) for name in named)

    def _distrust(self, path: Path, reason: str) -> None:
        """A record that cannot be read, or is damaged: nothing is known to be ours, so nothing
        is removed, and the record is written anew, even by a build that fails (strict mode
        stops it on this very warning), so that one build alone warns."""
        self._distrusted = self._renew = True
        self.reporter.warning(
            Code.PUBLISH,
            f"{path} is not readable as the record of published sitemap files ({reason}); "
            "no earlier sitemap file is removed this time, and the record is written anew, "
            "also by a build that strict mode stops, so that the next one does not warn again",
        )

    def _distrust_newer(self, path: Path, version: int) -> None:
        """A record of a newer release (one going back to an older release): this one cannot
        read it, but the newer release can, and it alone knows which earlier files were its own.
        A build that goes on writes its own record, as over a damaged one; a build that fails
        (strict mode stops it on this warning) puts it back, for the user to choose."""
        self._distrusted = True
        self.reporter.warning(
            Code.PUBLISH,
            f"{path} is a record of published sitemap files written by a newer release of "
            f"sitemap-plugins (record version {version}; this release reads version "
            f"{_RECORD_VERSION}): no earlier sitemap file is removed this time, and the record "
            "is written anew in this release's version, but a build that stops (strict mode "
            "stops on this warning) leaves it as it is: upgrade sitemap-plugins, or remove the "
            "file",
        )

    def _remove_leftovers(self) -> None:
        """Temporary files of interrupted builds: the lock proves their writer is gone.

        Best effort: a prefix whose files cannot all be removed stays in the record, and the
        next build tries again (a read-only folder then fails this build at its first write).
        """
        own = re.compile(rf"^{re.escape(self.record)}(?:\.[0-9a-f]{{16}})?\.tmp$")
        # The record's temporary names: see _replace_record.
        for stale in _listdir(self.root, own.match):
            if stale.is_file():
                with contextlib.suppress(OSError):
                    stale.unlink()
                    _step(f"clean {stale.name}")
        for prefix in self._leftover_prefixes:
            folder, _, base = prefix.rpartition("/")
            directory = self.root / folder if folder else self.root
            for path in _listdir(directory, functools.partial(_leftover, base=base)):
                try:
                    path.unlink(missing_ok=True)
                except OSError:
                    self._unclean.add(prefix)
                    continue
                _step(f"clean {path.name}")

    # -- 3 and 4: temporary files ---------------------------------------------------------------

    def folder(self, relpath: str) -> Path:
        """The folder ``relpath`` under the output folder, made if needed."""
        path = self.root / relpath if relpath else self.root
        with _io("create the folder", path):
            path.mkdir(parents=True, exist_ok=True)
        return path

    def new_file(self, folder: str, label: str) -> TempFile:
        """A temporary file in ``folder`` that a later :meth:`stage` gives its final name."""
        if not self._announced:
            # Step 3: the record names our temporary files before the first one exists.
            with _io("write", self.sitemap):
                self._write_record(
                    self.files, self.prefixes + tuple(sorted(self._unclean)), self.robots
                )
            self._announced = True
        temp = TempFile(self.root / self._temp_relpath(folder), self.root / label)
        self._temps.append(temp)
        return temp

    def _temp_relpath(self, folder: str) -> str:
        """A new temporary name in ``folder``, under this build's recorded prefix."""
        self._counter += 1
        prefix = f"{folder}/{TEMP_PREFIX}" if folder else TEMP_PREFIX
        return f"{prefix}{self.token}-{self._counter}.tmp"

    def written(self, temp: TempFile) -> None:
        """Tell the publication that ``temp`` is complete (for :data:`step_hook`)."""
        _step(f"write {temp.path.name}")

    def stage(self, relpath: str, temp: TempFile, *, entry: bool) -> None:
        """Give a complete temporary file its final name, to be put in place at commit."""
        self._staged.append(_Staged(relpath, temp, entry))

    def ours(self, relpath: str) -> bool:
        """Whether ``relpath`` is a file an earlier build published, still exactly as the
        record describes it: a host that says it wrote a file of that name (and did not, its
        copy skipped as up to date) leaves ours there, which this build may replace."""
        about = self.files.get(relpath)
        return about is not None and _unchanged(self.root / relpath, about)

    def stage_robots(self, *listed: str, drop: tuple[str, ...] = ()) -> None:
        """Prepare ``robots.txt`` now, so that a file we cannot read stops the build before any
        sitemap is replaced; it is renamed into place right after the entry points, once
        :meth:`commit` has shown, before them, that it can be.

        Each sitemap URL gets its ``Sitemap:`` line, and every other line of ours goes: the
        line of one of the ``drop`` URLs (a sitemap this build no longer publishes), and each
        line the record says an earlier build wrote that this one does not list, since the
        file it named goes with the earlier set (another ``filename``, ``gzip`` or format, a
        news sitemap no longer written, another ``--output``). Only lines of ours are ever
        changed: a line naming the URL itself, or one the record says an earlier build wrote
        (for a file of the same name, it is the sitemap under an old base URL, and is
        updated); see :mod:`.robots`. The record then names the lines of ours the file
        holds, for the next build."""
        path = self.root / "robots.txt"
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            data = b""
        except OSError as error:
            raise PublishError("update", path, _cause(error)) from None
        try:
            current = data.decode("utf-8")  # not read_text: keep CRLF line endings
        except UnicodeDecodeError as error:
            bad = data[error.start]
            raise PublishError(
                "update",
                path,
                f"not UTF-8 text (byte 0x{bad:02x} at offset {error.start}); save it as UTF-8",
            ) from None
        from sitemap_plugins.core.robots import (  # robots.txt only
            robots_text,
            robots_without,
            sitemaps_named,
        )

        text = current
        for url in listed:
            text = robots_text(text, url, previous=self.robots)
        for url in drop:
            text = robots_without(text, url, previous=self.robots)
        for url in self.robots:
            if url not in listed:  # a line of the same file name was updated above
                text = robots_without(text, url)
        self._robots_now = tuple(sitemaps_named(text, {*listed, *self.robots}))
        if text == current:
            return
        temp = self.new_file("", "robots.txt")
        temp.write(text.encode("utf-8"))
        temp.close()
        self.written(temp)
        robots = _Staged("robots.txt", temp, entry=False, recorded=False, verb="update")
        self._staged.append(robots)

    def stage_extra(
        self, relpath: str, data: bytes, serves: Callable[[bytes], bool] | None = None
    ) -> bool:
        """Publish a small file the site needs (the IndexNow key file) with this set, and record
        it, as the set's own files are, so that a later build tells ours from the site's: it
        replaces ours, removes it once it is no longer published (another key, the option
        off), and never takes the site's for ours.

        A file already there that no record names is the site's own: one that ``serves`` as
        ``data`` would (by default, one holding exactly ``data``; the key file, the key with a
        line end) is left as it is, unrecorded (it harms nothing, and no build ever removes
        it); one holding anything else is not written over, and False says so, for the caller
        to warn: nothing is staged. Ours, still exactly ``data``, stays recorded and is not
        written again.
        """
        path = self.root / relpath
        try:
            held = path.read_bytes() if path.is_file() else None
        except OSError as error:
            raise PublishError("write", path, _cause(error)) from None
        ours = self.ours(relpath)
        if held is not None and not ours:
            return held == data if serves is None else serves(held)
        if ours and held == data:
            self._kept[relpath] = self.files[relpath]
            return True
        self.stage_file(relpath, data)
        return True

    def spare(self, relpath: str) -> None:
        """Say that the host wrote ``relpath`` itself this build: if an earlier build of ours
        published a file of that name, with the same bytes (the key file, now shipped by the
        site itself), it is the site's now, never removed, and forgotten by the record."""
        self._spared.add(relpath)

    def stage_file(self, relpath: str, data: bytes) -> None:
        """Publish a file of ours beside the sitemap with this set (the page for humans):
        written under a temporary name now, put in place with the shards, and recorded, so
        that the next build replaces it, or removes it when it no longer publishes it, as it
        does a shard. ``relpath`` lies in one of the publication's ``folders``."""
        temp = self.new_file(relpath.rpartition("/")[0], relpath)
        temp.write(data)
        temp.close()
        self.written(temp)
        self.stage(relpath, temp, entry=False)

    def will_write(self, later: LaterWrite) -> None:
        """Say that the caller writes ``later`` once this set is in place: it is shown writable
        with the set's own files, before any is put in place, so that it cannot fail with the
        new set already published beside the file an earlier build wrote."""
        self._later.append(later)

    def retire(self, relpath: str) -> None:
        """Remove ``relpath``, a sitemap the host wrote itself, once this set is in place:
        MkDocs' ``sitemap.xml`` (dated the build day) beside a set that is ``sitemap.xml.gz``
        alone would go on being what crawlers read first. It was never ours, so the record
        cannot vouch for it: the caller has checked that it is the host's sitemap."""
        self._retired.append(relpath)

    def in_place_of_host(self, relpath: str) -> None:
        """Record ``relpath``, a file of this set, as written in place of the host's own file
        of that name, which it overwrites: ``generate`` writes ``sitemap.xml.gz`` because
        MkDocs wrote one, and the next run, which finds only ours there, asks
        :func:`written_in_place_of_host` to know that it still stands for the host's."""
        self._in_place_of_host.add(relpath)

    # -- 5 to 8: put in place, remove the old set, record -------------------------------------

    def commit(self) -> None:
        """Publish everything staged; see the module's protocol, steps 5 to 8."""
        if self._changes_nothing():
            return
        for staged in self._staged:
            final = self.root / staged.relpath
            if final.is_dir() and not final.is_symlink():
                raise PublishError("write", final, os.strerror(errno.EISDIR))
        for staged in self._staged:
            self._check_replaceable(staged.relpath, staged.verb)
        for later in self._later:
            self._check_replaceable(later.relpath, "write", in_place=later.in_place)
        self._keep_modes()
        new = {
            staged.relpath: _Published(
                staged.temp.size,
                staged.temp.sha256,
                staged.entry,
                staged.relpath in self._in_place_of_host,
            )
            for staged in self._staged
            if staged.recorded
        }
        new.update(self._kept)
        for later in self._later:
            # Ours from an earlier build, and written again once the set is in place: it stays
            # recorded (not removed at step 7), and record_later_write records its new bytes.
            if later.relpath not in new and self.ours(later.relpath):
                new[later.relpath] = self.files[later.relpath]
        unclean = tuple(sorted(self._unclean))
        # Until robots.txt is in place, a kill leaves either file: the record names the lines of
        # both, as it names the files of both sets.
        now = self.robots if self._robots_now is None else self._robots_now
        both = tuple(dict.fromkeys((*self.robots, *now)))
        # With no sitemap staged (a build with no page to list), the record is written to
        # remove the earlier set: a failure names that, not a sitemap this build never writes.
        step5 = ("write", self.sitemap) if new else ("remove the earlier sitemap from", self.root)
        with _io(*step5):
            self._write_record({**self.files, **new}, self.prefixes + unclean, both)  # step 5
        self._committing = True  # from here on, the record must keep naming the new files
        order = sorted(self._staged, key=lambda s: (not s.recorded, s.entry))  # shards first
        for staged in order:  # step 6
            final = self.root / staged.relpath
            with _io(staged.verb, final):
                staged.temp.path.replace(final)
            self._temps.remove(staged.temp)
            _step(f"publish {staged.relpath}")
        kept = self._remove_old(new)  # step 7
        for name in self._retired:
            self._remove_retired(name)
        try:
            self._write_record({**kept, **new}, unclean, now)  # step 8
        except OSError as error:
            # Everything is in place and the record still names every file (step 5): the next
            # build finds the old files and removes them then.
            self.reporter.warning(
                Code.PUBLISH,
                f"cannot write {self.root / self.record}, the record of published sitemap files: "
                f"{_cause(error)}; the next build completes it",
            )

    def _keep_modes(self) -> None:
        """Give each staged file the mode and group of the file it replaces (see
        :mod:`.file_modes`), and a new file of the set (a shard named by its content) those of
        the set it replaces, its entry point's first: the index must not list a part that the
        web server cannot read. Files of no earlier set keep the umask's mode, as new pages do."""
        kept: dict[str, Kept | None] = {}
        for staged in self._staged:
            with _io(staged.verb, self.root / staged.relpath):
                kept[staged.relpath] = kept_of(self.root / staged.relpath)
        in_order = sorted(self._staged, key=lambda staged: not staged.entry)
        of_set = next(
            (kept[s.relpath] for s in in_order if s.recorded and kept[s.relpath] is not None),
            None,
        )
        for staged in self._staged:
            passed_on = kept[staged.relpath]
            if passed_on is None and staged.recorded:
                passed_on = of_set
            if passed_on is not None:
                with _io(staged.verb, self.root / staged.relpath):
                    give(staged.temp.path, passed_on)

    def _check_replaceable(self, relpath: str, verb: str, *, in_place: bool = False) -> None:
        """Fail now if the file at ``relpath`` cannot be replaced (``in_place``: written over),
        before step 5; ``verb`` is what the error says could not be done.

        Step 6 renames one file after another, and the caller may write one more after them
        (:meth:`will_write`); one refused there would leave a failed build with part of its set
        in place (a new ``sitemap.xml`` beside the old ``sitemap.xml.gz``, a sitemap beside a
        ``robots.txt`` that still names the old one). Each file is asked about, not copied over
        itself: see :mod:`.replaceable`.
        """
        final = self.root / relpath
        with _io(verb, final):
            cause = refusal(final, in_place=in_place)
        if cause is not None:
            raise PublishError(verb, final, cause)

    def _changes_nothing(self) -> bool:
        """Whether the set is empty and the record names nothing (or is not there): nothing
        is staged, nothing is to be removed, no record needs bringing up to date. Nothing is then
        written, not even a record of nothing, so that a build with no page to list into a
        folder it may not write in says just that (``no pages``), not that it cannot write a
        sitemap it was never going to write."""
        return not (
            self._announced
            or self._staged
            or self._retired
            or self._in_place_of_host
            or self.files
            or self.robots
            or self._leftover_prefixes
            or self._distrusted
        )

    def _remove_old(self, new: dict[str, _Published]) -> dict[str, _Published]:
        """Remove the files earlier builds published that this one did not; return the ones
        that are still ours but could not be removed, to try again next time."""
        old = {
            name: about
            for name, about in self.files.items()
            if name not in new and name not in self._spared
        }
        kept: dict[str, _Published] = {}
        entries = [name for name, about in old.items() if about.entry]
        for name in sorted(entries):
            if self._remove_if_ours(name, old[name]):
                kept[name] = old[name]
        # An entry point that stays on disk (no longer ours, or not removable) may still list
        # files: never take those away from under it.
        listed = set()
        for name in entries:
            if (self.root / name).exists():
                listed |= _listed_files(self.root / name, name)
        for name in sorted(set(old) - set(entries)):
            if name in listed:
                continue
            if self._remove_if_ours(name, old[name]):
                kept[name] = old[name]
        return kept

    def _remove_if_ours(self, name: str, about: _Published) -> bool:
        """Remove ``name`` if it is still the file we wrote; True when it should stay recorded."""
        path = self.root / name
        if not _unchanged(path, about):
            return False  # gone, or someone else's file now: not ours to remove, forget it
        try:
            path.unlink()
        except FileNotFoundError:
            return False
        except OSError as error:
            self.reporter.warning(
                Code.PUBLISH,
                f"cannot remove {path}, a sitemap file of an earlier build: {_cause(error)}; "
                "no index lists it, and the next build tries again",
            )
            return True
        _step(f"remove {name}")
        return False

    def _remove_retired(self, name: str) -> None:
        """Remove the host's sitemap ``name`` (see :meth:`retire`); a failure is a warning,
        since the new set is already in place."""
        path = self.root / name
        try:
            path.unlink()
        except FileNotFoundError:
            return
        except OSError as error:
            self.reporter.warning(
                Code.PUBLISH,
                f"cannot remove {path}, the host's own sitemap this one replaces: "
                f"{_cause(error)}; remove it, or crawlers may read it first",
            )
            return
        _step(f"remove {name}")

    def _write_record(
        self, files: dict[str, _Published], prefixes: tuple[str, ...], robots: tuple[str, ...]
    ) -> None:
        """Replace the record; raises ``OSError``, which each caller words for its step.

        ``robots_txt`` is a key a record of an older release lacks and ignores: the version
        stays, and either release reads the other's record."""
        record = {
            "about": "sitemap files published here by sitemap-plugins; it removes only these, "
            "and only while their bytes are unchanged; robots_txt: its Sitemap: lines there",
            "version": _RECORD_VERSION,
            "files": {name: files[name].as_json() for name in sorted(files)},
            "robots_txt": list(robots),
            "temporary": list(prefixes),
        }
        self._replace_record(_record_bytes(record))
        _step("record")

    def _replace_record(self, data: bytes) -> None:
        _replace_record(self.root, self.record, self.token, data)


def _record_bytes(record: dict[str, Any]) -> bytes:
    return (json.dumps(record, indent=1) + "\n").encode("utf-8")


def _replace_record(root: Path, record: str, token: str, data: bytes) -> None:
    """Replace the record ``record`` in ``root`` by ``data``, under the lock; raises
    ``OSError``."""
    path, temp = root / record, root / (record + ".tmp")
    # One fixed temporary name: under the lock no other build writes it, and a copy left by
    # a kill is simply overwritten (or removed at step 2). A copy that can be neither
    # (another user's, in a folder with the sticky bit) would fail every later build, so
    # this build's own name is taken then, created new; step 2 removes it if it is left.
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(temp, flags, 0o666)
    except OSError:
        temp = root / f"{record}.{token}.tmp"
        fd = os.open(temp, flags | os.O_EXCL, 0o666)
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
        keep_mode(temp, path)
        temp.replace(path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def record_later_write(output_dir: Path, relpath: str, *, record: str = RECORD) -> None:
    """Record ``relpath``, a file the caller has just written once the set was in place (the
    page for humans a host renders through its theme: :class:`LaterWrite`), as a file of ours
    with the bytes it now holds.

    Unrecorded, it was never removed: a build with ``html_page`` turned off left the last
    page for humans published, out of date, for good. Recorded, a build that writes it again
    keeps it recorded until it is written (:meth:`Publication.commit`), and one that no longer
    writes it removes it as it removes a shard: only while its bytes are still these. Without
    a record of this version to add it to (one a newer release wrote), it stays unrecorded,
    as before. Raises :class:`~.report.PublishError` naming the record when it cannot be
    written.
    """
    path = output_dir / record
    fd = _lock(output_dir)
    try:
        try:
            data = json.loads(path.read_bytes())
        except (OSError, ValueError):
            return
        if not isinstance(data, dict) or data.get("version") != _RECORD_VERSION:
            return
        files = data.get("files")
        if not isinstance(files, dict):
            return
        with _io("write", path):
            size, digest = _size_and_digest(output_dir / relpath)
            files[relpath] = _Published(size, digest, entry=False).as_json()
            data["files"] = dict(sorted(files.items()))
            _replace_record(output_dir, record, os.urandom(8).hex(), _record_bytes(data))
    finally:
        if fd is not None:
            with contextlib.suppress(OSError):
                os.close(fd)


def _recorded_files(files: dict[Any, Any]) -> dict[str, _Published]:
    """The well-formed file entries of a record's ``files``; any other entry is ignored."""
    found: dict[str, _Published] = {}
    for name, about in files.items():
        if _safe_relpath(name) and isinstance(about, dict):
            size, digest, entry = about.get("size"), about.get("sha256"), about.get("entry")
            if (
                isinstance(size, int)
                and isinstance(digest, str)
                and _SHA256.match(digest)
                and isinstance(entry, bool)
            ):
                in_place = about.get("in_place_of_host") is True
                found[name] = _Published(size, digest, entry, in_place)
    return found


def is_ours(output_dir: Path, relpath: str, *, record: str = RECORD) -> bool:
    """Whether ``relpath`` is a file an earlier build published into ``output_dir`` and no one
    has changed since: the record names it, with exactly its bytes. The test that decides
    what a build may remove, for a caller that must not take such a file for the site's own
    (``generate`` walking a site where it wrote the page for humans). Read without the lock:
    a build running meanwhile at worst makes the answer one build old."""
    return _still_ours(output_dir, relpath, record) is not None


def written_in_place_of_host(output_dir: Path, relpath: str, *, record: str = RECORD) -> bool:
    """Whether ``relpath`` is ours (:func:`is_ours`) and was written in place of the host's
    own file of that name (:meth:`Publication.in_place_of_host`): then it stands for the
    host's, which the host has not written again since (that would have changed its bytes)."""
    about = _still_ours(output_dir, relpath, record)
    return about is not None and about.in_place_of_host


def recorded_state(
    output_dir: Path, relpath: str, *, record: str = RECORD
) -> Literal["ours", "theirs", "interrupted", ""]:
    """What the record says of ``relpath`` against what the file holds: ``"ours"`` as
    :func:`is_ours`; ``"theirs"``, named by a publication that finished, changed since by
    someone (theirs now, never to be written over); ``"interrupted"``, named with other bytes
    by a publication a kill stopped (the record still names its temporary files), which may
    be the previous build's file, not yet replaced; ``""``, not named."""
    found = _recorded(output_dir, relpath, record)
    if found is None:
        return ""
    about, interrupted = found
    if _unchanged(output_dir / relpath, about):
        return "ours"
    return "interrupted" if interrupted else "theirs"


def _still_ours(output_dir: Path, relpath: str, record: str) -> _Published | None:
    """What the record says of ``relpath``, while the file on disk is the one it describes."""
    found = _recorded(output_dir, relpath, record)
    return found[0] if found is not None and _unchanged(output_dir / relpath, found[0]) else None


def _recorded(output_dir: Path, relpath: str, record: str) -> tuple[_Published, bool] | None:
    """What the record says of ``relpath``, and whether the record is one a kill left
    mid-publication; None where it names no such file."""
    try:
        data = json.loads((output_dir / record).read_bytes())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("version") != _RECORD_VERSION:
        return None
    files = data.get("files")
    about = _recorded_files(files).get(relpath) if isinstance(files, dict) else None
    return None if about is None else (about, bool(data.get("temporary")))


def _lock(directory: Path) -> int | None:
    """An exclusive lock on the output folder, held until the descriptor is closed.

    Without ``fcntl`` (Windows), or on a file system without locks, builds are not serialised;
    everything else still holds.
    """
    if sys.platform == "win32":
        return None
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
    except OSError:
        os.close(fd)
        return None
    return fd


def _listdir(directory: Path, wanted: Callable[[str], object]) -> list[Path]:
    """The entries of ``directory`` whose names ``wanted`` accepts, in order of name (none if
    it cannot be read).

    Names are matched before any path is made: the output folder may be a flat one of
    thousands of pages (Pelican's articles), listed on every build, where a path for each and
    a sort of them all took ten times as long as the listing itself.
    """
    try:
        with os.scandir(directory) as entries:
            names = sorted(entry.name for entry in entries if wanted(entry.name))
    except OSError:
        return []
    return [directory / name for name in names]


def _leftover(name: str, base: str) -> bool:
    """Whether ``name`` is a temporary file of ours whose final name starts with ``base``."""
    return name.startswith(base) and name.endswith(".tmp")


def _unchanged(path: Path, about: _Published) -> bool:
    """Whether ``path`` is a regular file with exactly the bytes the record describes."""
    try:
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or info.st_size != about.size:
            return False
        return _size_and_digest(path) == (about.size, about.sha256)
    except OSError:
        return False


def _size_and_digest(path: Path) -> tuple[int, str]:
    """The size and SHA-256 of the file at ``path``; raises ``OSError``."""
    digest = hashlib.sha256()
    size = 0
    with open(path, "rb") as stream:
        while chunk := stream.read(_CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def _listed_files(index: Path, relpath: str) -> set[str]:
    """The files next to ``index`` that its ``<loc>`` elements name (gzip or plain)."""
    try:
        with open(index, "rb") as raw:
            head = raw.read(2)
            raw.seek(0)
            if head == b"\x1f\x8b":
                with gzip.GzipFile(fileobj=raw) as unzipped:
                    data = unzipped.read(64 * _CHUNK)
            else:
                data = raw.read(64 * _CHUNK)
    except (OSError, EOFError):
        return set()
    folder = relpath.rpartition("/")[0]
    names = set()
    for match in _LOC.finditer(data):
        name = unquote(urlsplit(match.group(1).decode("utf-8", "replace")).path.rpartition("/")[2])
        names.add(f"{folder}/{name}" if folder else name)
    return names
