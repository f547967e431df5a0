"""Streaming a million URLs to disk: throughput, peak memory, and cost over raw byte writing.

Both contenders run in their own child process (this file, run with ``--child``), so the figures
cover only the writing: the peak RSS is the child's high-water mark, and the parent's memory
(which verifies the output) never counts.

* ``rows``: plain tuples ``(loc, lastmod, changefreq, priority)`` made one at a time by a
  generator go through ``write_sitemap_rows``, the bulk path (20 shards plus an index);
* ``entries``: the same values as ``Entry`` named tuples through ``write_sitemaps``, the path
  the builder takes;
* ``raw``: the same bytes made by a plain f-string loop over the same values and written with
  ordinary buffered file writes, each shard hashed on the way and renamed to its content name
  (``sitemap-1-<12 hex digits>.xml``) as the writer names it: the floor any Python sitemap writer
  that publishes safely could reach.

Every output is compared byte for byte with the raw loop's, so the ratios compare equal work;
the raw loop formats its timestamps with ``strftime`` on its own, so a change in how the writer
writes dates shows up as files that differ.
"""

from __future__ import annotations

import argparse
import datetime as dt
import hashlib
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from common import child_env

from sitemap_plugins.core.model import Entry
from sitemap_plugins.core.options import Options
from sitemap_plugins.core.render import INDEX_CLOSE, INDEX_OPEN, URLSET_CLOSE, urlset_open
from sitemap_plugins.core.report import CollectingReporter
from sitemap_plugins.core.writer import write_sitemap_rows, write_sitemaps

BASE_URL: Final = "https://example.org/docs/"
SHARDS: Final = 20
CHANGEFREQS: Final = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
PRIORITIES: Final = tuple(k / 10 for k in range(1, 11))
_DAY0: Final = dt.datetime(2016, 1, 1, 9, 30, tzinfo=dt.timezone.utc)
MOMENTS: Final = tuple(_DAY0 + dt.timedelta(days=d, minutes=7 * d) for d in range(3_287))


def entries(count: int) -> Iterator[Entry]:
    """The benchmark's entries, made lazily: memory stays flat however many are asked for."""
    moments, freqs, priorities = MOMENTS, CHANGEFREQS, PRIORITIES
    for number in range(count):
        yield Entry(
            loc=f"{BASE_URL}section-{number % 97:02d}/page-{number:07d}/",
            lastmod=moments[number % len(moments)],
            changefreq=freqs[number % len(freqs)],
            priority=priorities[number % len(priorities)],
        )


def rows(count: int) -> Iterator[tuple[str, dt.datetime, str, float]]:
    """The same values as :func:`entries`, as the plain tuples of the bulk path."""
    moments, freqs, priorities = MOMENTS, CHANGEFREQS, PRIORITIES
    n_moments, n_freqs, n_priorities = len(moments), len(freqs), len(priorities)
    for number in range(count):
        yield (
            f"{BASE_URL}section-{number % 97:02d}/page-{number:07d}/",
            moments[number % n_moments],
            freqs[number % n_freqs],
            priorities[number % n_priorities],
        )


def _peak_rss_mb() -> float:
    """This process's peak resident set size (VmHWM), in MiB."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024 if sys.platform == "darwin" else 1024)


def _child_writer(kind: str, count: int, per_file: int, out: Path) -> dict[str, float]:
    options = Options.from_mapping({"base_url": BASE_URL, "urls_per_file": per_file})
    reporter = CollectingReporter()
    make, write = (rows, write_sitemap_rows) if kind == "rows" else (entries, write_sitemaps)
    before = _peak_rss_mb()
    cpu = time.process_time()
    start = time.perf_counter()
    result = write(
        make(count),  # type: ignore[arg-type]
        out,
        base_url=BASE_URL,
        options=options,
        reporter=reporter,
    )
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    if reporter.warnings:
        raise SystemExit(f"writer warned: {reporter.warnings[:3]}")
    # How much of that the caller's side (making the values) took, measured separately.
    start = time.perf_counter()
    for _ in make(count):
        pass
    making = time.perf_counter() - start
    return {
        "cpu_seconds": cpu,
        "entry_seconds": making,
        "seconds": seconds,
        "peak_rss_mb": _peak_rss_mb(),
        "rss_before_mb": before,
        "urls": result.urls,
        "shards": result.shards,
    }


def _child_raw(count: int, per_file: int, out: Path) -> dict[str, float]:
    """The same bytes as the writer, by the shortest plain loop: the speed floor."""
    head, tail = urlset_open().encode(), URLSET_CLOSE.encode()
    # Every moment is in UTC: the W3C timestamp with "Z", compared as text for the newest.
    days = [moment.strftime("%Y-%m-%dT%H:%M:%SZ") for moment in MOMENTS]
    freqs, prios = CHANGEFREQS, [f"{p:.1f}" for p in PRIORITIES]
    n_days, n_freqs, n_prios = len(days), len(freqs), len(prios)
    cpu = time.process_time()
    start = time.perf_counter()
    newest: list[str] = []
    number = 0
    shard = 0
    names: list[str] = []
    while number < count:
        shard += 1
        last = min(count, number + per_file)
        top = ""
        digest = hashlib.sha256(head)
        with open(out / f"shard-{shard}.tmp", "wb") as stream:
            stream.write(head)
            for i in range(number, last):
                day = days[i % n_days]
                if day > top:
                    top = day
                line = (
                    f"<url><loc>{BASE_URL}section-{i % 97:02d}/page-{i:07d}/</loc>"
                    f"<lastmod>{day}</lastmod><changefreq>{freqs[i % n_freqs]}</changefreq>"
                    f"<priority>{prios[i % n_prios]}</priority></url>\n".encode()
                )
                digest.update(line)
                stream.write(line)
            digest.update(tail)
            stream.write(tail)
        name = f"sitemap-{shard}-{digest.hexdigest()[:12]}.xml"
        (out / f"shard-{shard}.tmp").replace(out / name)
        names.append(name)
        newest.append(top)
        number = last
    with open(out / "sitemap.xml", "wb") as stream:
        stream.write(INDEX_OPEN.encode())
        for name, day in zip(names, newest, strict=True):
            stream.write(
                f"<sitemap><loc>{BASE_URL}{name}</loc><lastmod>{day}</lastmod></sitemap>\n".encode()
            )
        stream.write(INDEX_CLOSE.encode())
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    return {
        "seconds": seconds,
        "cpu_seconds": cpu,
        "peak_rss_mb": _peak_rss_mb(),
        "urls": count,
        "shards": shard,
    }


def _run_child(kind: str, count: int, per_file: int, out: Path) -> dict[str, float]:
    command = [sys.executable, str(Path(__file__).resolve()), "--child", kind]
    command += ["--urls", str(count), "--per-file", str(per_file), "--out", str(out)]
    done = subprocess.run(command, env=child_env(), check=True, capture_output=True, text=True)
    result: dict[str, float] = json.loads(done.stdout)
    return result


def _count(path: Path, needle: bytes) -> int:
    """Occurrences of ``needle`` in a file, read in chunks so memory stays flat."""
    total, carry = 0, b""
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            block = carry + chunk
            total += block.count(needle)
            carry = block[-(len(needle) - 1) :]
    return total


def _digest(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as stream:
        while chunk := stream.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


@dataclass(frozen=True)
class Contender:
    """One writer path's best round, and what its output held."""

    seconds: float
    cpu_seconds: float
    making_seconds: float
    peak_rss_mb: float
    rss_before_mb: float
    files: int
    locs: int
    index_children: int
    identical_files: int


@dataclass(frozen=True)
class WriterFigures:
    urls: int
    rows: Contender
    entries: Contender
    raw_seconds: float
    raw_cpu_seconds: float

    def urls_per_s(self, path: Contender) -> float:
        return self.urls / path.seconds

    def ratio(self, path: Contender) -> float:
        return path.seconds / self.raw_seconds

    def cpu_ratio(self, path: Contender) -> float:
        return path.cpu_seconds / self.raw_cpu_seconds


def _inspect(directory: Path, raw: Path) -> tuple[int, int, int, int]:
    """Files, ``<loc>`` in the shards, children of the index, files identical to the raw loop's."""
    # The record of published files (a dotfile) is the writer's own bookkeeping.
    files = sorted(p.name for p in directory.iterdir() if not p.name.startswith("."))
    shard_names = [name for name in files if name != "sitemap.xml"]
    locs = sum(_count(directory / name, b"<loc>") for name in shard_names)
    children = _count(directory / "sitemap.xml", b"<sitemap>") if "sitemap.xml" in files else 0
    identical = sum(
        1
        for name in files
        if (raw / name).is_file() and _digest(directory / name) == _digest(raw / name)
    )
    return len(files), locs, children, identical


def run(count: int, *, rounds: int = 3, log: bool = True) -> WriterFigures:
    """Best of ``rounds`` for each path, interleaved, then verify and compare the outputs."""
    per_file = -(-count // SHARDS)
    kinds = ("rows", "entries", "raw")
    runs: dict[str, list[dict[str, float]]] = {kind: [] for kind in kinds}
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-writer-") as scratch:
        folders = {kind: Path(scratch, kind) for kind in kinds}
        for folder in folders.values():
            folder.mkdir()
        order = list(kinds)
        for round_number in range(1, rounds + 1):
            # Every round writes into the same directory, as a rebuild would.
            for kind in order:
                runs[kind].append(_run_child(kind, count, per_file, folders[kind]))
            order = order[1:] + order[:1]
            if log:
                shown = ", ".join(f"{kind} {runs[kind][-1]['seconds']:.2f}s" for kind in kinds)
                print(f"# writer round {round_number}: {shown}", file=sys.stderr)
        paths = {}
        for kind in ("rows", "entries"):
            best = min(runs[kind], key=lambda r: r["seconds"])
            files, locs, children, identical = _inspect(folders[kind], folders["raw"])
            paths[kind] = Contender(
                seconds=best["seconds"],
                cpu_seconds=min(r["cpu_seconds"] for r in runs[kind]),
                making_seconds=best["entry_seconds"],
                peak_rss_mb=max(r["peak_rss_mb"] for r in runs[kind]),
                rss_before_mb=best["rss_before_mb"],
                files=files,
                locs=locs,
                index_children=children,
                identical_files=identical,
            )
    return WriterFigures(
        urls=count,
        rows=paths["rows"],
        entries=paths["entries"],
        raw_seconds=min(r["seconds"] for r in runs["raw"]),
        raw_cpu_seconds=min(r["cpu_seconds"] for r in runs["raw"]),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", choices=("rows", "entries", "raw"), required=True)
    parser.add_argument("--urls", type=int, required=True)
    parser.add_argument("--per-file", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.child == "raw":
        figures = _child_raw(args.urls, args.per_file, args.out)
    else:
        figures = _child_writer(args.child, args.urls, args.per_file, args.out)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
