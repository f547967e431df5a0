"""Last-modified dates for every file of a large history: one pass against one ``git log`` per file.

``FileDates.lookup`` gets all files at once (a fresh instance each time, so nothing is cached);
the baseline is what per-file plugins do, ``git log -1 --format=%cI -- FILE``, timed on a random
sample and extrapolated to all files. Both sides run ``rounds`` times, interleaved, and the
fastest round of each counts. The sample doubles as a correctness check: the one-pass date of
each sampled file must equal what ``git log -1`` says; files that merges changed (conflict
resolutions first) are checked as well, outside the timing, since they are where a one-pass
reading of history most easily goes wrong.
"""

from __future__ import annotations

import datetime as dt
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from synthetic_repo import ODD_NAMES, RepoSpec, ensure_repo, merged_files, tracked_files

from sitemap_plugins.core.git_dates import FileDates
from sitemap_plugins.core.model import FilePath
from sitemap_plugins.core.report import CollectingReporter


@dataclass(frozen=True)
class LastmodFigures:
    files: int
    dated_by_git: int
    one_pass_seconds: float
    per_file_seconds_sampled: float
    one_pass_cpu_seconds: float
    per_file_cpu_seconds_sampled: float
    timed: int
    checked: int
    agreeing: int
    disagreements: tuple[str, ...]

    @property
    def per_file_seconds_extrapolated(self) -> float:
        return self.per_file_seconds_sampled / self.timed * self.files

    @property
    def speedup(self) -> float:
        return self.per_file_seconds_extrapolated / self.one_pass_seconds

    @property
    def cpu_speedup(self) -> float:
        per_file = self.per_file_cpu_seconds_sampled / self.timed * self.files
        return per_file / self.one_pass_cpu_seconds


def _cpu() -> float:
    """CPU seconds of this process and of every child it has waited for (git)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _git_log_1(repo: Path, name: str) -> str:
    done = subprocess.run(
        ["git", "log", "-1", "--format=%cI", "--", name],
        cwd=repo,
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def run(
    files: int,
    commits: int,
    *,
    sample: int = 100,
    extra_checks: int = 40,
    rounds: int = 3,
    log: bool = True,
) -> LastmodFigures:
    repo = ensure_repo(RepoSpec(files, commits, odd_names=True), log=log)
    names = tracked_files(repo)
    paths = [repo / name for name in names]

    rng = random.Random(1)
    sampled = set(rng.sample(names, min(sample, len(names))))
    chosen = sorted(sampled | (set(ODD_NAMES) & set(names)))  # always check the quoted names

    one_pass_times, per_file_times, one_pass_cpu, per_file_cpu = [], [], [], []
    dates: dict[FilePath, tuple[dt.datetime, str]] = {}
    answers: dict[str, str] = {}
    for _ in range(rounds):
        reporter = CollectingReporter()
        file_dates = FileDates(reporter, git_date="committer")  # fresh: nothing cached
        cpu, start = _cpu(), time.perf_counter()
        dates = file_dates.lookup(paths, use_git=True, use_mtime=True).dates
        one_pass_times.append(time.perf_counter() - start)
        one_pass_cpu.append(_cpu() - cpu)
        if reporter.warnings:
            print(f"# FileDates warned: {reporter.warnings[:3]}", file=sys.stderr)
        # Per file, as the popular plugins do it.
        cpu, start = _cpu(), time.perf_counter()
        answers = {name: _git_log_1(repo, name) for name in chosen}
        per_file_times.append(time.perf_counter() - start)
        per_file_cpu.append(_cpu() - cpu)
        if log:
            print(
                f"# lastmod round: one pass {one_pass_times[-1]:.3f}s, "
                f"{len(chosen)} x git log -1 {per_file_times[-1]:.3f}s",
                file=sys.stderr,
            )
    for name in merged_files(repo)[:extra_checks]:
        if name not in answers:
            answers[name] = _git_log_1(repo, name)
    dated_by_git = sum(1 for _, origin in dates.values() if origin == "git")
    agreeing = 0
    disagreements = []
    for name, expected in answers.items():
        got = dates.get(repo / name)
        same = got is not None and got[1] == "git" and _same_moment(got[0], expected)
        if same:
            agreeing += 1
        else:
            shown = "nothing" if got is None else f"{got[0].isoformat()} ({got[1]})"
            disagreements.append(f"{name}: git log -1 says {expected}, one pass says {shown}")
    return LastmodFigures(
        files=len(names),
        dated_by_git=dated_by_git,
        one_pass_seconds=min(one_pass_times),
        per_file_seconds_sampled=min(per_file_times),
        one_pass_cpu_seconds=min(one_pass_cpu),
        per_file_cpu_seconds_sampled=min(per_file_cpu),
        timed=len(chosen),
        checked=len(answers),
        agreeing=agreeing,
        disagreements=tuple(disagreements),
    )


def _same_moment(value: dt.datetime, git_iso: str) -> bool:
    """Same instant and same UTC offset as git printed (the offset decides the calendar day)."""
    expected = dt.datetime.fromisoformat(git_iso)
    return value == expected and value.utcoffset() == expected.utcoffset()


@dataclass(frozen=True)
class CacheFigures:
    """The disk cache of the history pass, each a fastest-of-rounds time in seconds."""

    files: int
    no_cache: float
    first_build: float
    same_head: float
    one_new_commit: float
    agreeing: bool

    def ratio(self, seconds: float) -> float:
        return seconds / self.no_cache


def run_cache(files: int, commits: int, *, rounds: int = 3, log: bool = True) -> CacheFigures:
    """What a build pays for dates with ``FileDates(cache_dir=...)``, each build a fresh
    instance as a fresh process would be: with no cache (the baseline), filling an empty cache,
    at the same HEAD, and after one new commit (``OLD..HEAD`` only). The last must equal a full
    pass made without any cache, or the run fails."""
    repo = ensure_repo(RepoSpec(files, commits, odd_names=True), log=log)
    times: dict[str, list[float]] = {"none": [], "first": [], "same": [], "new": []}
    agreeing = True
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-git-cache-") as scratch:
        clone = Path(scratch, "clone")
        subprocess.run(
            ["git", "clone", "-q", "--local", str(repo), str(clone)],
            check=True,
            capture_output=True,
        )
        identity = ["-c", "user.name=Bench", "-c", "user.email=bench@example.org"]
        names = tracked_files(clone)
        paths = [clone / name for name in names]
        cache = Path(scratch, "cache")

        def timed(kind: str, cache_dir: Path | None) -> dict[FilePath, tuple[dt.datetime, str]]:
            file_dates = FileDates(CollectingReporter(), cache_dir=cache_dir)
            start = time.perf_counter()
            found = file_dates.lookup(paths, use_git=True, use_mtime=True).dates
            times[kind].append(time.perf_counter() - start)
            return found

        for round_number in range(1, rounds + 1):
            shutil.rmtree(cache, ignore_errors=True)
            timed("none", None)
            timed("first", cache)
            timed("same", cache)
            edited = clone / names[len(names) // 2]
            with open(edited, "a", encoding="utf-8") as stream:
                stream.write(f"\nEdited in round {round_number}.\n")
            subprocess.run(
                ["git", *identity, "commit", "-q", "-a", "-m", f"Round {round_number}"],
                cwd=clone,
                check=True,
                capture_output=True,
            )
            cached = timed("new", cache)
            full = FileDates(CollectingReporter()).lookup(paths, use_git=True, use_mtime=True)
            agreeing &= cached == full.dates
            if log:
                shown = ", ".join(f"{kind} {values[-1]:.3f}s" for kind, values in times.items())
                print(f"# git cache round {round_number}: {shown}", file=sys.stderr)
    return CacheFigures(
        files=len(names),
        no_cache=min(times["none"]),
        first_build=min(times["first"]),
        same_head=min(times["same"]),
        one_new_commit=min(times["new"]),
        agreeing=agreeing,
    )
