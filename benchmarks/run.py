"""Run the benchmarks and print one ``name: value`` figure per line, all measured in this run.

    python benchmarks/run.py            full sizes (a few minutes)
    python benchmarks/run.py --quick    small sizes, a smoke run of every code path

Progress and details go to stderr; stdout holds only the figures. The exit status is 1 if a
check failed (a date that disagrees with ``git log -1``, a sitemap with the wrong number of URLs
or files) or a benchmark could not run at all; a plugin that is not installed is reported as
``unavailable (...)`` and does not fail the run. See benchmarks/README.md for each figure.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import platform
import subprocess
import sys
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ("lastmod", "writer", "mkdocs")


@dataclass(frozen=True)
class Sizes:
    files: int
    commits: int
    urls: int
    pages: int
    page_commits: int


FULL = Sizes(files=5_000, commits=20_000, urls=1_000_000, pages=1_000, page_commits=6_000)
QUICK = Sizes(files=500, commits=2_000, urls=100_000, pages=100, page_commits=600)


def fmt(value: float | str) -> str:
    """Two or three decimals for small figures, whole numbers for large ones."""
    if isinstance(value, (str, int)):
        return str(value)
    if abs(value) >= 1000:
        return f"{value:.0f}"
    return f"{value:.2f}" if abs(value) >= 10 else f"{value:.3f}"


def figure(name: str, value: float | str) -> None:
    print(f"{name}: {fmt(value)}", flush=True)


def note(text: str) -> None:
    print(f"# {text}", file=sys.stderr, flush=True)


class Run:
    """Collects failures so that every benchmark still runs and prints what it can."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def fail(self, message: str) -> None:
        self.failures.append(message)
        note(f"FAILED: {message}")

    def guarded(self, name: str, body: Callable[[], None], figures: tuple[str, ...]) -> None:
        start = time.perf_counter()
        note(f"{name} benchmark...")
        try:
            body()
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            reason = f"{type(error).__name__}: {error}".splitlines()[0]
            for line in figures:
                figure(line, f"unavailable ({reason})")
            self.fail(f"{name} benchmark: {reason}")
        note(f"{name} benchmark took {time.perf_counter() - start:.1f}s")


def bench_lastmod(run: Run, sizes: Sizes) -> None:
    import bench_lastmod

    result = bench_lastmod.run(sizes.files, sizes.commits)
    figure("lastmod_speedup_vs_per_file_git", result.speedup)
    figure("lastmod_one_pass_seconds", result.one_pass_seconds)
    figure("lastmod_per_file_git_seconds_extrapolated", result.per_file_seconds_extrapolated)
    figure("lastmod_sample_agreement", f"{result.agreeing}/{result.checked}")
    figure("lastmod_speedup_vs_per_file_git_cpu", result.cpu_speedup)
    note(
        f"{result.dated_by_git} of {result.files} files dated by git; git log -1 timed on "
        f"{result.timed} files, compared on {result.checked} (with files merges changed)"
    )
    for line in result.disagreements:
        note(line)
    if result.agreeing != result.checked:
        run.fail(f"lastmod: {result.checked - result.agreeing} files disagree with git log -1")
    if result.dated_by_git != result.files:
        run.fail(f"lastmod: only {result.dated_by_git} of {result.files} files dated by git")


def bench_writer(run: Run, sizes: Sizes) -> None:
    import bench_writer

    result = bench_writer.run(sizes.urls)
    figure("writer_urls_per_s", result.urls_per_s)
    figure("writer_peak_rss_mb", result.peak_rss_mb)
    figure("writer_time_vs_raw_write", result.ratio)
    figure("writer_files", result.files)
    figure("writer_seconds", result.seconds)
    figure("writer_raw_write_seconds", result.raw_seconds)
    figure("writer_cpu_time_vs_raw_write", result.cpu_ratio)
    note(
        f"writer: {result.locs:,} <loc> in the shards, {result.index_children} shards in the "
        f"index, {result.identical_files}/{result.files} files byte-identical to the raw loop; "
        f"RSS before writing {result.rss_before_mb:.1f} MiB; making the Entry values alone "
        f"took {result.entry_seconds:.2f}s of the {result.seconds:.2f}s"
    )
    expected = bench_writer.SHARDS + 1
    if result.files != expected or result.index_children != bench_writer.SHARDS:
        run.fail(f"writer: {result.files} files, {result.index_children} in the index")
    if result.locs != sizes.urls:
        run.fail(f"writer: {result.locs} <loc> written for {sizes.urls} entries")
    if result.identical_files != result.files:
        run.fail(f"writer: only {result.identical_files} files match the raw loop's bytes")


def bench_mkdocs(run: Run, sizes: Sizes) -> None:
    import bench_mkdocs

    result = bench_mkdocs.run(sizes.pages, sizes.page_commits)
    figure("mkdocs_overhead_vs_plain", result.ratio("ours", "plain"))
    figure("mkdocs_vs_git_revision_plugin", result.ratio("ours", "git-revision"))
    for variant, seconds in result.seconds.items():
        figure(f"mkdocs_{variant.replace('-', '_')}_build_seconds", seconds)
    figure("mkdocs_overhead_vs_plain_cpu", result.ratio("ours", "plain", cpu=True))
    figure("mkdocs_vs_git_revision_plugin_cpu", result.ratio("ours", "git-revision", cpu=True))
    for variant, problem in result.unavailable.items():
        note(f"mkdocs {variant}: {problem}")
    if "ours" not in result.unavailable:
        note(f"our sitemap: {result.sitemap_urls} URLs, {result.sitemap_lastmods} with lastmod")
        if result.sitemap_urls != sizes.pages or result.sitemap_lastmods != sizes.pages:
            run.fail(
                f"mkdocs: the plugin's sitemap has {result.sitemap_urls} URLs and "
                f"{result.sitemap_lastmods} lastmods for {sizes.pages} pages"
            )


def _environment() -> None:
    git = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False)
    load = os.getloadavg() if hasattr(os, "getloadavg") else ()
    note(
        f"Python {platform.python_version()}, {git.stdout.strip() or 'no git'}, "
        f"{os.cpu_count()} CPUs, load average {' '.join(f'{x:.2f}' for x in load)}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmarks for sitemap-plugins.")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument(
        "--only", action="append", choices=BENCHMARKS, help="run only this benchmark (repeatable)"
    )
    args = parser.parse_args(argv)
    if importlib.util.find_spec("sitemap_plugins") is None:
        sys.path.insert(0, str(ROOT))  # run from a checkout without installing
    sizes = QUICK if args.quick else FULL
    chosen = args.only or list(BENCHMARKS)
    run = Run()
    _environment()
    start = time.perf_counter()
    if "lastmod" in chosen:
        run.guarded(
            "lastmod",
            lambda: bench_lastmod(run, sizes),
            ("lastmod_speedup_vs_per_file_git", "lastmod_one_pass_seconds"),
        )
    if "writer" in chosen:
        run.guarded(
            "writer",
            lambda: bench_writer(run, sizes),
            ("writer_urls_per_s", "writer_peak_rss_mb", "writer_time_vs_raw_write"),
        )
    if "mkdocs" in chosen:
        run.guarded(
            "mkdocs",
            lambda: bench_mkdocs(run, sizes),
            ("mkdocs_overhead_vs_plain", "mkdocs_vs_git_revision_plugin"),
        )
    note(f"all benchmarks took {time.perf_counter() - start:.1f}s")
    for failure in run.failures:
        note(f"FAILED: {failure}")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
