"""Sorting more items than memory should hold: sorted runs on disk, merged lazily.

A sitemap is sorted by URL and lists each URL once, and a site of a million pages (or a URL list
of ten million) must not be held in memory to get there. :class:`SortedSpill` keeps at most
``chunk`` items in memory; each full chunk is sorted and written to a temporary file as one run,
and :meth:`SortedSpill.merged` reads the runs back together in order (a k-way merge that holds one
batch per run). A site that fits in one chunk never touches the disk.

The runs are pickled: they are this process's own temporary files, written and read back by the
same code, and removed when the spill is closed (also when the build fails or is interrupted).
A process killed outright cannot remove them: their folder names the process, and the next spill
that goes to disk removes the folders of processes that are gone (:func:`_remove_left_behind`).

A run that cannot be written (a full temporary folder, a file size limit) is the one-line
:class:`~.report.PublishError` a sitemap that cannot be written is, naming the runs' folder: the
build stops before anything is published, and the user learns where the room was missing.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

from sitemap_plugins.core.report import PublishError

__all__ = ["DEFAULT_CHUNK", "SortedSpill"]

DEFAULT_CHUNK: Final = 20_000
"""Items held in memory before a sorted run goes to disk: about ten megabytes."""
_FAN_IN: Final = 32
"""Runs merged at once: past this many runs of one size, they become one run of the next size,
so a merge never holds more than this many files open (and one record of each)."""
_BATCH: Final = 100
"""Items per pickle record in a run: a merge holds one record of each run it reads."""
_PREFIX: Final = "sitemap-plugins-sort-"

T = TypeVar("T")


class SortedSpill(Generic[T]):
    """Collects ``(key, item)`` pairs in any order; gives the items back sorted by key.

    Equal keys come back in the order they were added only within one run, so callers that
    care make the key total (the page's origin after its URL, for instance).
    """

    def __init__(self, chunk: int = DEFAULT_CHUNK, directory: Path | None = None) -> None:
        if chunk < 1:
            raise ValueError(f"chunk must be at least 1, not {chunk}")
        self._chunk = chunk
        self._directory = directory
        self._buffer: list[tuple[Any, T]] = []
        self._runs: list[tuple[int, Path]] = []  # (level, file): level n holds 32**n chunks
        self._tempdir: tempfile.TemporaryDirectory[str] | None = None
        self.count = 0
        self._written = 0

    def __enter__(self) -> SortedSpill[T]:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def runs(self) -> int:
        """How many sorted runs are on disk now (at most 31 of each size)."""
        return len(self._runs)

    def add(self, key: Any, item: T) -> None:
        self._buffer.append((key, item))
        self.count += 1
        if len(self._buffer) >= self._chunk:
            self._spill()

    def _spill(self) -> None:
        self._buffer.sort(key=_first)
        self._write_run(0, iter(self._buffer))
        self._buffer = []
        level = 0
        while sum(1 for run in self._runs if run[0] == level) >= _FAN_IN:
            import heapq  # only a site bigger than one chunk merges: most builds never do

            merging = [path for lvl, path in self._runs if lvl == level]
            self._runs = [run for run in self._runs if run[0] != level]
            self._write_run(level + 1, heapq.merge(*map(_read_run, merging), key=_first))
            for path in merging:
                path.unlink()
            level += 1

    def _write_run(self, level: int, pairs: Iterator[tuple[Any, T]]) -> None:
        folder = self._folder()
        self._written += 1
        path = folder / f"run-{self._written}.pickle"
        try:
            with open(path, "wb") as stream:
                batch: list[tuple[Any, T]] = []
                for pair in pairs:
                    batch.append(pair)
                    if len(batch) >= _BATCH:
                        pickle.dump(batch, stream, pickle.HIGHEST_PROTOCOL)
                        batch = []
                if batch:
                    pickle.dump(batch, stream, pickle.HIGHEST_PROTOCOL)
        except OSError as error:
            raise self._cannot_write(folder, error) from None
        self._runs.append((level, path))

    def _folder(self) -> Path:
        """The runs' folder, made by the first run that goes to disk."""
        if self._tempdir is None:
            parent = Path(self._directory or tempfile.gettempdir())
            _remove_left_behind(parent)
            try:
                self._tempdir = tempfile.TemporaryDirectory(
                    prefix=f"{_PREFIX}{os.getpid()}-", dir=self._directory
                )
            except OSError as error:
                raise self._cannot_write(parent, error) from None
        return Path(self._tempdir.name)

    def _cannot_write(self, folder: Path, error: OSError) -> PublishError:
        """What the user can do about it: a run takes disk space in the system's temporary
        folder, which ``TMPDIR`` moves, unless the caller chose the folder."""
        cause = error.strerror or str(error)
        fix = "make room, or set TMPDIR to a folder with room" if self._directory is None else ""
        return PublishError(
            "write",
            folder,
            f"{cause} (more than {self._chunk:,} URLs are sorted through files there, about "
            f"100 bytes a URL{': ' + fix if fix else ''})",
        )

    def merged(self) -> Iterator[T]:
        """Every item added, in key order (the runs are streamed from disk, not held; they
        can be read again until the spill is closed)."""
        self._buffer.sort(key=_first)
        if not self._runs:
            for _, item in self._buffer:
                yield item
            return
        import heapq

        sources = [_read_run(path) for _, path in self._runs]
        sources.append(iter(self._buffer))
        for _, item in heapq.merge(*sources, key=_first):
            yield item

    def close(self) -> None:
        """Remove the runs on disk; the spill is empty afterwards."""
        self._buffer = []
        self._runs = []
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None


def _first(pair: tuple[Any, object]) -> Any:
    return pair[0]


def _read_run(path: Path) -> Iterator[tuple[Any, Any]]:
    with open(path, "rb") as stream:
        while True:
            try:
                batch = pickle.load(stream)  # our own temporary file
            except EOFError:
                return
            yield from batch
            del batch


def _remove_left_behind(directory: Path) -> None:
    """Remove the run folders in ``directory`` of processes that are gone (a build killed while
    it sorted), which nothing else would remove before the system's next clean-up: tens of
    megabytes each. Only on POSIX, where asking after a process is harmless, and only folders
    of this user; a folder whose process number is alive again stays, as one in use does."""
    if os.name != "posix":
        return
    with contextlib.suppress(OSError), os.scandir(directory) as entries:
        for entry in entries:
            pid = entry.name[len(_PREFIX) :].partition("-")[0]
            if not entry.name.startswith(_PREFIX) or not pid.isdigit():
                continue
            with contextlib.suppress(OSError):
                if entry.stat(follow_symlinks=False).st_uid != os.getuid() or _alive(int(pid)):
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True  # another user's process holds that number
    return True
