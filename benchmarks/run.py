"""Run the benchmarks and print their tables (Markdown), every ratio measured in this run.

    python benchmarks/run.py            full sizes (1.5 to 2 hours on 2 cores)
    python benchmarks/run.py --quick    small sizes, a smoke run of every code path
    python benchmarks/run.py --only hosts --hosts sphinx --sizes 100,1000
    python benchmarks/run.py --only images       what the images option costs
    python benchmarks/run.py --only after        generate after an MkDocs build, and the plugin

Progress and details go to stderr; stdout holds only the tables, ready to paste into the README.
The exit status is 1 if a check failed (a date that disagrees with ``git log -1``, a cached pass
that disagrees with a full one, a sitemap with the wrong number of URLs, writer output that is
not byte-identical to the raw loop's, an image sitemap that does not list exactly the content
images, a sitemap from ``generate`` that differs from the plugin's) or a benchmark could not run
at all. A host or plugin that
is not installed is shown as ``unavailable (reason)`` and does not fail the run; nor does an aim
that is missed (it is shown as missed). See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import compileall
import dataclasses
import importlib.util
import os
import platform
import statistics
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench_hosts import Outcome
    from stats import Spread

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = ("lastmod", "writer", "hosts", "after", "images")
EN_DASH = "\N{EN DASH}"
"""Between the ends of an interval, as in print."""


@dataclass(frozen=True)
class Sizes:
    files: int
    commits: int
    urls: int
    pages: tuple[int, ...]
    rounds: int
    image_pages: int = 1_000
    mode_seconds: float = 0.0
    """A host's mode runs more rounds, until its median is precise, while its builds have run
    less than this (short builds)."""
    after_seconds: float = 0.0
    """``after`` runs more rounds while its builds have run less than this."""


FULL = Sizes(
    files=5_000,
    commits=20_000,
    urls=1_000_000,
    pages=(100, 1_000, 5_000),
    rounds=3,
    mode_seconds=120.0,
    after_seconds=30.0,
)
QUICK = Sizes(files=500, commits=2_000, urls=100_000, pages=(30,), rounds=1, image_pages=30)
LARGE_SITE = 3_000
"""From this many pages on, a host is measured with two rounds instead of three."""


def fmt(value: float | str | None, digits: int = 2) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    if abs(value) >= 1000:
        return f"{value:,.0f}"
    return f"{value:.{digits}f}"


def note(text: str) -> None:
    print(f"# {text}", file=sys.stderr, flush=True)


def table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "|".join(" --- " for _ in header) + "|")
    for row in rows:
        print("| " + " | ".join(row) + " |")
    sys.stdout.flush()


def with_interval(value: Spread | str) -> str:
    """A median and its 95 % interval, ``1.15 (1.09-1.21)`` with an en dash; ``(—)`` where
    there are too few rounds for one."""
    if isinstance(value, str):
        return value
    if value.low is None or value.high is None:
        return f"{fmt(value.median)} (—)"
    return f"{fmt(value.median)} ({fmt(value.low)}{EN_DASH}{fmt(value.high)})"


def verdict(value: Spread | str, limit: float, *, strict: bool = False) -> str:
    """Whether an aim of at most ``limit`` (below it, if ``strict``) is met, judged on the
    median's interval: met when the whole interval is, missed when none of it is, and not
    decided when the interval holds the limit, as more rounds could place the median on
    either side. The large sites' few rounds give no interval: their verdict is the median's
    alone, and says so (the clean builds at 3,000 pages differ from their incumbent by far
    more than a build's noise, and take minutes a round)."""
    if isinstance(value, str):
        return "not measured"
    low, high = value.low, value.high
    if low is None or high is None:
        inside = value.median < limit or (value.median == limit and not strict)
        return (
            f"{'met' if inside else 'MISSED'} by the median alone "
            f"({value.rounds} rounds, too few for an interval)"
        )
    if high < limit or (high == limit and not strict):
        return "met"
    if low > limit:
        return "MISSED"
    return f"not decided (interval {low:.3f}{EN_DASH}{high:.3f} holds {limit:.2f})"


class Run:
    """Collects failures so that every benchmark still runs and prints what it can."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def fail(self, message: str) -> None:
        self.failures.append(message)
        note(f"FAILED: {message}")

    def guarded(self, name: str, body: Callable[[], None]) -> None:
        start = time.perf_counter()
        note(f"{name} benchmark...")
        try:
            body()
        except Exception as error:
            traceback.print_exc(file=sys.stderr)
            reason = f"{type(error).__name__}: {error}".splitlines()[0]
            print(f"\n{name}: unavailable ({reason})")
            self.fail(f"{name} benchmark: {reason}")
        note(f"{name} benchmark took {time.perf_counter() - start:.1f}s")


def bench_lastmod(run: Run, sizes: Sizes) -> None:
    import bench_lastmod

    result = bench_lastmod.run(sizes.files, sizes.commits)
    cache = bench_lastmod.run_cache(sizes.files, sizes.commits)
    where = f"{sizes.files:,} files, {sizes.commits:,} commits"
    table(
        f"Lastmod, {where}: one pass against one `git log -1` per file (fastest of 3)",
        ["figure", "value", "aim"],
        [
            ["one pass, seconds", fmt(result.one_pass_seconds, 3), "well under 1 s"],
            [
                "one `git log -1` per file, seconds (sampled)",
                fmt(result.per_file_seconds_extrapolated),
                "",
            ],
            [
                "speed-up, wall (CPU)",
                f"{fmt(result.speedup, 0)}x ({fmt(result.cpu_speedup, 0)}x)",
                f"≥ 100x: {'met' if result.speedup >= 100 else 'MISSED'}",
            ],
            ["dates equal to `git log -1`", f"{result.agreeing}/{result.checked}", "all"],
        ],
    )
    table(
        f"Lastmod, {where}: the disk cache of the pass (a fresh `FileDates` each time)",
        ["build", "seconds", "/ no cache"],
        [
            ["no cache (full pass)", fmt(cache.no_cache, 3), "1.00"],
            ["first build (full pass, cache written)", fmt(cache.first_build, 3),
             fmt(cache.ratio(cache.first_build))],
            ["same HEAD (cache reused)", fmt(cache.same_head, 3),
             fmt(cache.ratio(cache.same_head))],
            ["one new commit (`OLD..HEAD` only)", fmt(cache.one_new_commit, 3),
             fmt(cache.ratio(cache.one_new_commit))],
        ],
    )  # fmt: skip
    note(
        f"{result.dated_by_git} of {result.files} files dated by git; git log -1 timed on "
        f"{result.timed} files, compared on {result.checked} (with files merges changed); "
        f"cached pass after a new commit equal to a full pass: {cache.agreeing}"
    )
    for line in result.disagreements:
        note(line)
    if result.agreeing != result.checked:
        run.fail(f"lastmod: {result.checked - result.agreeing} files disagree with git log -1")
    if result.dated_by_git != result.files:
        run.fail(f"lastmod: only {result.dated_by_git} of {result.files} files dated by git")
    if not cache.agreeing:
        run.fail("lastmod: the cached pass after a new commit differs from a full pass")


def bench_writer(run: Run, sizes: Sizes) -> None:
    import bench_writer

    result = bench_writer.run(sizes.urls)
    rows = []
    for label, path in (
        ("`write_sitemap_rows` (tuples)", result.rows),
        ("`write_sitemaps` (`Entry`)", result.entries),
    ):
        rate = result.urls_per_s(path)
        ratio = result.ratio(path)
        rows.append(
            [
                label,
                f"{rate:,.0f}",
                f"{fmt(ratio)} ({fmt(result.cpu_ratio(path))})",
                f"{path.making_seconds:.2f} of {path.seconds:.2f}",
                fmt(path.peak_rss_mb, 1),
                f"{path.identical_files}/{path.files}",
            ]
        )
    table(
        f"Writer: {sizes.urls:,} URLs with lastmod, changefreq and priority, "
        f"{bench_writer.SHARDS} shards and an index (best of 3)",
        ["path", "URLs/s", "time / raw bytes, wall (CPU)", "making the input, s",
         "peak RSS, MiB", "files identical to raw"],
        rows,
    )  # fmt: skip
    bulk = result.rows
    print(
        f"\nAims (bulk path, full size only): ≥ 700,000 URLs/s: "
        f"{'met' if result.urls_per_s(bulk) >= 700_000 else 'MISSED'}; ≤ 2x raw: "
        f"{'met' if result.ratio(bulk) <= 2 else 'MISSED'}; peak RSS ≤ 100 MiB: "
        f"{'met' if bulk.peak_rss_mb <= 100 else 'MISSED'}. The raw loop: "
        f"{result.raw_seconds:.2f} s."
    )
    for name, path in (("rows", result.rows), ("entries", result.entries)):
        if path.files != bench_writer.SHARDS + 1 or path.index_children != bench_writer.SHARDS:
            run.fail(f"writer ({name}): {path.files} files, {path.index_children} in the index")
        if path.locs != sizes.urls:
            run.fail(f"writer ({name}): {path.locs} <loc> written for {sizes.urls} URLs")
        if path.identical_files != path.files:
            run.fail(f"writer ({name}): {path.identical_files} files match the raw loop's")


HOST_TITLES = {"sphinx": "Sphinx", "mkdocs": "MkDocs", "pelican": "Pelican"}


def _aims(
    host: str,
    mode: str,
    pages: int,
    ours: Spread | str,
    versus: Spread | str,
    faster: tuple[int, int],
) -> str:
    """The issue's aims that apply to this row, judged on the intervals of the wall-time ratios;
    ``faster`` is in how many paired rounds ours beat the incumbent, of how many."""
    found = []
    if host == "sphinx":
        if not isinstance(versus, str):
            found.append(
                f"faster than incumbent: {verdict(versus, 1.0, strict=True)}, "
                f"ours faster in {faster[0]} of {faster[1]} rounds"
            )
        if mode == "incremental":
            found.append(f"≤ 1.10x: {verdict(ours, 1.10)}")
    elif host == "mkdocs" and mode == "clean" and pages in (100, 1_000):
        limit = 1.05 if pages == 100 else 1.02
        found.append(f"≤ {limit:.2f}x: {verdict(ours, limit)}")
    elif host == "pelican" and pages >= LARGE_SITE:
        found.append(f"≤ 1.05x (aim set at 3,000): {verdict(ours, 1.05)}")
    return "; ".join(found) or "—"  # fmt: skip


def bench_hosts(run: Run, sizes: Sizes, hosts: Sequence[str]) -> None:
    import bench_hosts

    growth: list[list[str]] = []
    memory: list[list[str]] = []
    for host in hosts:
        rows: list[list[str]] = []
        by_size = []
        for pages in sizes.pages:
            rounds = sizes.rounds if pages < LARGE_SITE else min(sizes.rounds, 2)
            outcome = bench_hosts.run(host, pages, rounds=rounds, mode_seconds=sizes.mode_seconds)
            by_size.append(outcome)
            labels = bench_hosts.HOSTS[host].labels
            for mode in bench_hosts.HOSTS[host].modes:
                ours = outcome.spread(mode.name, "ours", "none")
                ours_cpu = outcome.spread(mode.name, "ours", "none", cpu=True)
                incumbent = outcome.spread(mode.name, "incumbent", "none")
                versus = outcome.spread(mode.name, "ours", "incumbent")
                listed = outcome.listed.get(mode.name, {})
                plain = outcome.seconds(mode.name, "none")
                rows.append(
                    [
                        f"{pages:,} / {outcome.commits:,}",
                        mode.name,
                        str(outcome.rounds_run.get(mode.name, 0)),
                        f"1.00 ({fmt(plain)} s)" if plain else fmt(
                            outcome.ratio(mode.name, "none", "none")),
                        with_interval(incumbent),
                        with_interval(ours),
                        with_interval(ours_cpu),
                        with_interval(versus),
                        " / ".join(str(listed.get(v, (0, 0))[0]) for v in ("incumbent", "ours")),
                        _aims(host, mode.name, pages, ours, versus,
                              outcome.rounds_faster(mode.name, "ours", "incumbent")),
                    ]
                )  # fmt: skip
                _check_listing(run, host, mode.name, outcome)
                peaks = {v: outcome.peak_memory(mode.name, v) for v in bench_hosts.VARIANTS}
                none, ours_peak = peaks["none"], peaks["ours"]
                full = [outcome.full_collections(mode.name, v) for v in bench_hosts.VARIANTS]
                memory.append(
                    [
                        HOST_TITLES[host],
                        f"{pages:,}",
                        mode.name,
                        *(fmt(peaks[v], 0) for v in bench_hosts.VARIANTS),
                        fmt(ours_peak - none if ours_peak is not None and none else None, 0),
                        " / ".join(fmt(count, 1) for count in full),
                    ]
                )
        title = HOST_TITLES[host]
        table(
            f"{title}: build time / build time with no sitemap, median of the paired rounds "
            "and its 95 % interval (—: under 6 rounds, too few for one), wall time but where "
            f"CPU is named; the aims are judged on the interval. Rounds: at least {sizes.rounds}"
            f", {min(sizes.rounds, 2)} from {LARGE_SITE:,} pages, "
            f"{bench_hosts.INCREMENTAL_ROUNDS} times as many for the incremental builds"
            + (
                f"; then more until the interval of ours is within "
                f"±{bench_hosts.PRECISION:.2f}, while a mode's builds have run less than "
                f"{sizes.mode_seconds:.0f} s, at most {bench_hosts.MAX_ROUNDS_FACTOR} times the "
                "rounds asked"
                if sizes.mode_seconds
                else ""
            ),
            ["pages / commits", "build", "rounds", f"{labels['none']} (median s)",
             f"{labels['incumbent']} (95 % interval)", "ours (95 % interval)",
             "ours, CPU (95 % interval)", "ours / incumbent (95 % interval)",
             "URLs listed (incumbent / ours)", "aim"],
            rows,
        )  # fmt: skip
        for mode in bench_hosts.HOSTS[host].modes:
            for variant, label in (("ours", "ours"), ("incumbent", labels["incumbent"])):
                cells = [fmt(o.ratio(mode.name, variant, "none")) for o in by_size]
                growth.append([f"{title}, {mode.name}, {label}", *cells])
    table(
        "Growth: build time / build time with no sitemap, by number of pages (flat is the aim)",
        ["host, build, sitemap", *(f"{pages:,}" for pages in sizes.pages)],
        growth,
    )
    table(
        "Memory: peak resident memory of one build's own process (not of the git processes "
        "it runs), MiB, and the full collections of its garbage collector (each walks every "
        "object the build holds), median over the same rounds",
        ["host", "pages", "build", "no sitemap (the host's own)", "incumbent", "ours",
         "ours - no sitemap", "full collections (none / incumbent / ours)"],
        memory,
    )  # fmt: skip


def _check_listing(run: Run, host: str, mode: str, outcome: Outcome) -> None:
    """Our sitemap must list every page, in every mode: as many URLs as after the first (clean)
    build, and at least one a page (Sphinx and Pelican add pages of their own)."""
    if "ours" in outcome.unavailable or (mode, "ours") in outcome.failed:
        return
    urls, lastmods = outcome.listed.get(mode, {}).get("ours", (0, 0))
    clean = next(iter(outcome.listed.values())).get("ours", (0, 0))[0]
    pages = outcome.pages
    note(f"{host} {pages} pages, {mode}: ours lists {urls} URLs, {lastmods} with lastmod")
    if urls != clean:
        run.fail(f"{host} {pages} pages, {mode}: our sitemap lists {urls} URLs, {clean} when clean")
    if urls < pages - 1:  # the root document of the repository is not a Pelican article
        run.fail(f"{host} {pages} pages, {mode}: our sitemap lists {urls} URLs for {pages} pages")


def bench_after(run: Run, sizes: Sizes) -> None:
    import bench_after

    rows = []
    for pages in sizes.pages:
        if pages > LARGE_SITE:  # two MkDocs builds a round: the full run stays within an hour
            skipped = f"unavailable (not run above {LARGE_SITE:,} pages)"
            rows.append([f"{pages:,} / —", "0", skipped, "—", "—", "—", "—"])
            continue
        rounds = sizes.rounds if pages < LARGE_SITE else min(sizes.rounds, 2)
        outcome = bench_after.run(pages, rounds=rounds, mode_seconds=sizes.after_seconds)
        if outcome.unavailable is not None:
            print(f"\nAfter the build: unavailable ({outcome.unavailable})")
            return
        build = statistics.median(outcome.build) if outcome.build else None
        generate = statistics.median(outcome.generate) if outcome.generate else None
        rows.append(
            [
                f"{pages:,} / {outcome.commits:,}",
                str(len(outcome.build)),
                f"1.00 ({fmt(build)} s)",
                fmt(generate),
                fmt(outcome.after_ratio()),
                fmt(outcome.ratio(outcome.plugin)),
                "yes" if not outcome.problems else "NO",
            ]
        )
        for problem in outcome.problems:
            run.fail(f"after the build, {pages} pages: {problem}")
    table(
        "After the build: `sitemap-plugins generate` on the site MkDocs built alone (a fresh "
        "process with no cache, as a CI step runs it), and the same site built with the plugin; "
        "clean builds, time / MkDocs alone, median of the paired rounds",
        ["pages / commits", "rounds", "MkDocs alone", "generate, seconds",
         "MkDocs, then generate", "MkDocs with the plugin", "same URLs and lastmods"],
        rows,
    )  # fmt: skip


def bench_images(run: Run, sizes: Sizes) -> None:
    import bench_images

    if importlib.util.find_spec("mkdocs") is None:
        print("\nImages: unavailable (MkDocs is not installed)")
        return
    result = bench_images.run(sizes.image_pages, rounds=sizes.rounds)
    plain = result.seconds("plain")
    table(
        f"Images: a {result.pages:,}-page MkDocs site (readthedocs theme, three images a page), "
        f"build time / build time of MkDocs alone, median of {result.rounds} paired rounds",
        ["sitemap", "wall", "CPU", "/ images off, wall (CPU)"],
        [
            ["none (MkDocs' own)", f"1.00 ({fmt(plain)} s)", "1.00", "—"],
            ["ours, images off", fmt(result.ratio("off", "plain")),
             fmt(result.ratio("off", "plain", cpu=True)), "1.00"],
            ["ours, `images: true`", fmt(result.ratio("on", "plain")),
             fmt(result.ratio("on", "plain", cpu=True)),
             f"{fmt(result.ratio('on', 'off'))} ({fmt(result.ratio('on', 'off', cpu=True))})"],
        ],
    )  # fmt: skip
    print(
        f"\nThe page read alone, in one process over the {result.pages_read:,} pages written: "
        f"{fmt(result.read_head * 1000, 3)} ms a page for the head (images off), "
        f"{fmt(result.read_whole * 1000, 3)} ms for head and body (images on): "
        f"{fmt(result.read_added_per_1000, 3)} s more per 1,000 pages."
    )
    for problem in result.problems:
        run.fail(f"images: {problem}")


def _versions() -> str:
    names = ["sphinx", "sphinx-sitemap", "sphinx-last-updated-by-git", "mkdocs",
             "mkdocs-git-revision-date-localized-plugin", "pelican", "pelican-sitemap"]  # fmt: skip
    shown = []
    for name in names:
        try:
            shown.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            shown.append(f"{name} not installed")
    return ", ".join(shown)


def _code() -> str:
    """Which sitemap_plugins this run measures: where it is imported from, and its commit."""
    import sitemap_plugins

    folder = Path(sitemap_plugins.__file__).resolve().parent.parent

    def git(*args: str) -> str:
        done = subprocess.run(
            ["git", "-C", str(folder), *args], capture_output=True, text=True, check=False
        )
        return done.stdout.strip() if done.returncode == 0 else ""

    commit = git("rev-parse", "--short", "HEAD")
    if not commit:
        return f"sitemap_plugins from {folder} (not a git checkout)"
    changed = git("status", "--porcelain", "--", "sitemap_plugins")
    return f"sitemap_plugins from {folder}, commit {commit}" + (
        " with uncommitted changes" if changed else ""
    )


def _load() -> str:
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "n/a"


def _machine() -> str:
    git = subprocess.run(["git", "--version"], capture_output=True, text=True, check=False)
    return (
        f"{os.cpu_count()} CPUs ({platform.machine()}, {platform.system()}), "
        f"Python {platform.python_version()}, {git.stdout.strip() or 'no git'}; "
        f"load average at the start {_load()}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmarks for sitemap-plugins.")
    parser.add_argument("--quick", action="store_true", help="small sizes, for a smoke run")
    parser.add_argument(
        "--only", action="append", choices=BENCHMARKS, help="run only this benchmark (repeatable)"
    )
    parser.add_argument("--hosts", help="comma-separated: sphinx,mkdocs,pelican (default: all)")
    parser.add_argument("--sizes", help="comma-separated page counts for the host benchmarks")
    args = parser.parse_args(argv)
    # The checkout this script belongs to is what is measured, installed or not: an older copy
    # installed in the same Python (a virtualenv made for an earlier commit) would otherwise be
    # the one imported here and by every build, and its figures reported as this checkout's.
    sys.path.insert(0, str(ROOT))
    # Compiled once, as pip compiles the package it installs. Where PYTHONDONTWRITEBYTECODE is
    # set (CI images, many containers) Python writes no bytecode, and every build of ours would
    # compile the checkout's package from source again, which no installed copy does: tens of
    # milliseconds a build, a few hundredths of the ratio of a half-second build.
    compileall.compile_dir(ROOT / "sitemap_plugins", quiet=1)
    sizes = QUICK if args.quick else FULL
    if args.sizes:
        pages = tuple(int(n) for n in args.sizes.split(","))
        sizes = dataclasses.replace(sizes, pages=pages)
    hosts = args.hosts.split(",") if args.hosts else list(HOST_TITLES)
    chosen = args.only or list(BENCHMARKS)
    run = Run()
    start = time.perf_counter()
    print(f"Machine: {_machine()}.")
    print(f"Code: {_code()}.")
    print(f"Hosts: {_versions()}.")
    if "lastmod" in chosen:
        run.guarded("lastmod", lambda: bench_lastmod(run, sizes))
    if "writer" in chosen:
        run.guarded("writer", lambda: bench_writer(run, sizes))
    if "hosts" in chosen:
        run.guarded("hosts", lambda: bench_hosts(run, sizes, hosts))
    if "after" in chosen:
        run.guarded("after", lambda: bench_after(run, sizes))
    if "images" in chosen:
        run.guarded("images", lambda: bench_images(run, sizes))
    minutes = (time.perf_counter() - start) / 60
    print(f"\nThe run took {minutes:.0f} min; load average at the end {_load()}.")
    for failure in run.failures:
        note(f"FAILED: {failure}")
    return 1 if run.failures else 0


if __name__ == "__main__":
    sys.exit(main())
