"""Streaming a million URLs to disk: throughput, peak memory, and cost over raw byte writing.

Both contenders run in their own child process (this file, run with ``--child``), so the figures
cover only the writing: the peak RSS is the child's high-water mark, and the parent's memory
(which verifies the output) never counts.

* ``writer``: ``Entry`` values made one at a time by a generator go through ``write_sitemaps``
  (20 shards plus an index).
* ``raw``: the same bytes made by a plain f-string loop over the same values and written with
  ordinary buffered file writes, each shard hashed on the way and renamed to its content name
  (``sitemap-1-<12 hex digits>.xml``) as the writer names it: the floor any Python sitemap writer
  that publishes safely could reach.

The two outputs are compared byte for byte, so the ratio compares equal work.
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
from sitemap_plugins.core.writer import write_sitemaps

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


def _child_writer(count: int, per_file: int, out: Path) -> dict[str, float]:
    options = Options.from_mapping({"base_url": BASE_URL, "urls_per_file": per_file})
    reporter = CollectingReporter()
    before = _peak_rss_mb()
    cpu = time.process_time()
    start = time.perf_counter()
    result = write_sitemaps(
        entries(count),
        out,
        base_url=BASE_URL,
        options=options,
        reporter=reporter,
    )
    seconds = time.perf_counter() - start
    cpu = time.process_time() - cpu
    if reporter.warnings:
        raise SystemExit(f"writer warned: {reporter.warnings[:3]}")
    # How much of that the caller's side (making the Entry values) took, measured separately.
    start = time.perf_counter()
    for _ in entries(count):
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
    days = [moment.date().isoformat() for moment in MOMENTS]
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
class WriterFigures:
    urls_per_s: float
    peak_rss_mb: float
    rss_before_mb: float
    seconds: float
    raw_seconds: float
    cpu_seconds: float
    raw_cpu_seconds: float
    entry_seconds: float
    files: int
    locs: int
    index_children: int
    identical_files: int

    @property
    def ratio(self) -> float:
        return self.seconds / self.raw_seconds

    @property
    def cpu_ratio(self) -> float:
        return self.cpu_seconds / self.raw_cpu_seconds


def run(count: int, *, rounds: int = 2, log: bool = True) -> WriterFigures:
    """Best of ``rounds`` for each side, alternating, then verify and compare the outputs."""
    per_file = -(-count // SHARDS)
    writer_runs, raw_runs = [], []
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-writer-") as scratch:
        ours, raw = Path(scratch, "writer"), Path(scratch, "raw")
        ours.mkdir()
        raw.mkdir()
        for round_number in range(1, rounds + 1):
            # Every round writes into the same directory, as a rebuild would.
            writer_runs.append(_run_child("writer", count, per_file, ours))
            raw_runs.append(_run_child("raw", count, per_file, raw))
            if log:
                print(
                    f"# writer round {round_number}: {writer_runs[-1]['seconds']:.2f}s, "
                    f"raw {raw_runs[-1]['seconds']:.2f}s",
                    file=sys.stderr,
                )
        # The record of published files (a dotfile) is the writer's own bookkeeping.
        files = sorted(p.name for p in ours.iterdir() if not p.name.startswith("."))
        shard_names = [name for name in files if name != "sitemap.xml"]
        locs = sum(_count(ours / name, b"<loc>") for name in shard_names)
        children = _count(ours / "sitemap.xml", b"<sitemap>") if "sitemap.xml" in files else 0
        identical = sum(
            1
            for name in files
            if (raw / name).is_file() and _digest(ours / name) == _digest(raw / name)
        )
    best = min(writer_runs, key=lambda r: r["seconds"])
    best_raw = min(raw_runs, key=lambda r: r["seconds"])
    return WriterFigures(
        urls_per_s=count / best["seconds"],
        peak_rss_mb=max(r["peak_rss_mb"] for r in writer_runs),
        rss_before_mb=best["rss_before_mb"],
        seconds=best["seconds"],
        raw_seconds=best_raw["seconds"],
        cpu_seconds=min(r["cpu_seconds"] for r in writer_runs),
        raw_cpu_seconds=min(r["cpu_seconds"] for r in raw_runs),
        entry_seconds=best["entry_seconds"],
        files=len(files),
        locs=locs,
        index_children=children,
        identical_files=identical,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--child", choices=("writer", "raw"), required=True)
    parser.add_argument("--urls", type=int, required=True)
    parser.add_argument("--per-file", type=int, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    work = _child_writer if args.child == "writer" else _child_raw
    print(json.dumps(work(args.urls, args.per_file, args.out)))


if __name__ == "__main__":
    main()
