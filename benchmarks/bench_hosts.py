"""Every host side by side: no sitemap, its incumbent sitemap plugin, and ours.

One synthetic site per host and size (a clone of a cached synthetic repository, so that edits
never touch the cache), built in fresh processes as a user builds it. For each host:

* **Sphinx** (reST, ``html`` builder): no sitemap; ``sphinx-sitemap`` with
  ``sphinx-last-updated-by-git`` (``sitemap_show_lastmod``, the pair that gives it dates); ours.
  Modes: clean ``-j 1``, clean ``-j 2``, and incremental (no ``-E``, after editing one document).
* **MkDocs** (Markdown, theme ``mkdocs``, ``search`` on): MkDocs alone, whose built-in sitemap
  dates every page with the build date; ``mkdocs-git-revision-date-localized-plugin``; ours.
  Modes: clean (``mkdocs build``), and ``mkdocs build --dirty`` after editing one page.
* **Pelican** (reST articles, feeds off): no plugin; ``pelican-sitemap``; ours. Modes: clean
  without the content cache, and with a warm content cache after editing one article.

"Clean" starts from an empty output folder with no cache of the variant's own. Each round edits
one source file first (incremental modes), then builds every variant once, the order rotating
from round to round, so that the variants share the machine's state; the ratio of a round is
taken between builds of the same round, and the figure is the median over rounds with its 95 %
interval (``stats.py``); three times as many rounds for the incremental modes, whose short builds
vary most, and more for any mode until the interval of ours / none is within ``PRECISION`` either
side, while its builds have run less than ``mode_seconds``, up to ``MAX_ROUNDS_FACTOR`` times the
rounds asked. Wall time is
the figure; the CPU time of each build (and of every process it waited for, git included) is
kept as a steadier check on a busy machine. Each build's peak resident memory is kept too, as
the kernel counts it for the build's process: a sitemap that holds what the host renders until
the end costs memory that grows with the site faster than its time does.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import ClassVar, Final, NamedTuple

from common import child_env
from stats import Spread, median_interval
from synthetic_repo import RepoSpec, ensure_repo

SITE_URL: Final = "https://example.org/docs/"
VARIANTS: Final = ("none", "incumbent", "ours")
COMMITS_PER_PAGE: Final = 6
INCREMENTAL_ROUNDS: Final = 3
"""Incremental modes run this many times the rounds: a build that does little is short, and a
short build's time varies most from run to run (a tenth of a second is a tenth of the build)."""
PRECISION: Final = 0.02
"""A mode runs more rounds than asked until the 95 % interval of ours / none (wall time) is at
most this much either side: a short build's time varies by a tenth from one process to the
next, and the aims (1.05x, 1.02x) cannot be told from a median that moves by as much."""
MAX_ROUNDS_FACTOR: Final = 20
"""Nor more than this many times the rounds asked, however wide the interval still is."""
TIMEOUT: Final = 1_800
LAUNCHER: Final = Path(__file__).with_name("launch.py")


@dataclass(frozen=True)
class Mode:
    name: str
    incremental: bool = False
    jobs: int = 1
    cache: bool = False
    up_to: int | None = None
    """The largest site measured in this mode (None: every size), to keep the run in time."""


@dataclass
class Outcome:
    """What one host at one size gave: times per mode and variant, and what was listed."""

    host: str
    pages: int
    commits: int
    rounds: int
    rounds_run: dict[str, int] = field(default_factory=dict)
    """How many paired rounds each mode ran (more than ``rounds`` for short builds)."""
    wall: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    cpu: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    memory: dict[str, dict[str, list[float]]] = field(default_factory=dict)
    """Peak resident memory of each build, MiB."""
    collections: dict[str, dict[str, list[int]]] = field(default_factory=dict)
    """Full garbage collections of each build's own process."""
    listed: dict[str, dict[str, tuple[int, int]]] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    failed: dict[tuple[str, str], str] = field(default_factory=dict)

    def ratios(
        self, mode: str, variant: str, against: str, *, cpu: bool = False
    ) -> list[float] | str:
        """Each paired round's ratio of ``variant``'s time over ``against``'s in that round, or
        why there is none."""
        for name in (variant, against):
            if name in self.unavailable:
                return f"unavailable ({self.unavailable[name]})"
            if (mode, name) in self.failed:
                return f"unavailable ({self.failed[mode, name]})"
        times = (self.cpu if cpu else self.wall).get(mode, {})
        pairs = list(zip(times.get(variant, []), times.get(against, []), strict=False))
        if not pairs:
            return "unavailable (not measured)"
        return [a / b for a, b in pairs]

    def ratio(self, mode: str, variant: str, against: str, *, cpu: bool = False) -> float | str:
        """Median over rounds of ``variant``'s time over ``against``'s in the same round."""
        found = self.ratios(mode, variant, against, cpu=cpu)
        return found if isinstance(found, str) else statistics.median(found)

    def spread(self, mode: str, variant: str, against: str, *, cpu: bool = False) -> Spread | str:
        """That median with its 95 % interval: how far the rounds pin it down."""
        found = self.ratios(mode, variant, against, cpu=cpu)
        return found if isinstance(found, str) else median_interval(found)

    def rounds_faster(self, mode: str, variant: str, than: str) -> tuple[int, int]:
        """In how many of the paired rounds ``variant`` built faster than ``than``, of how many:
        a median ratio near 1.00 is a tie that the count shows."""
        times = self.wall.get(mode, {})
        pairs = list(zip(times.get(variant, []), times.get(than, []), strict=False))
        return sum(a < b for a, b in pairs), len(pairs)

    def seconds(self, mode: str, variant: str) -> float | None:
        times = self.wall.get(mode, {}).get(variant)
        return statistics.median(times) if times else None

    def peak_memory(self, mode: str, variant: str) -> float | None:
        """Median over rounds of the build's peak resident memory, MiB."""
        peaks = self.memory.get(mode, {}).get(variant)
        return statistics.median(peaks) if peaks else None

    def full_collections(self, mode: str, variant: str) -> float | None:
        """Median over rounds of the full collections the build's own process made."""
        counts = self.collections.get(mode, {}).get(variant)
        return statistics.median(counts) if counts else None


class Host:
    """A host's configurations and commands; subclasses fill in the details."""

    name: str = ""
    markup: str = "md"
    words: int = 300
    modes: tuple[Mode, ...] = ()
    labels: ClassVar[dict[str, str]] = {}
    needs: ClassVar[dict[str, tuple[str, ...]]] = {}
    """For each variant, the modules that must be importable (the host's first)."""

    def __init__(self, scratch: Path, source: Path) -> None:
        self.scratch = scratch
        self.source = source

    def problem(self, variant: str) -> str | None:
        for module in self.needs.get(variant, ()):
            if importlib.util.find_spec(module) is None:
                return f"{module.split('.')[0]} is not installed"
        return None

    def folder(self, variant: str) -> Path:
        return self.scratch / variant

    def configure(self, variant: str) -> None:
        raise NotImplementedError

    def clean(self, variant: str) -> None:
        """Remove everything the variant built or cached, keeping its configuration."""
        for path in self.folder(variant).iterdir():
            if path.name.startswith("config"):
                continue
            if path.is_dir():
                shutil.rmtree(path)
            else:
                path.unlink()

    def command(self, variant: str, mode: Mode) -> list[str]:
        raise NotImplementedError

    def sitemap(self, variant: str) -> Path:
        raise NotImplementedError

    def edit_target(self) -> Path:
        """The page every incremental round edits: one in the middle of the site."""
        pages = sorted(self.source.glob(f"docs/section-*/page-*.{self.markup}"))
        return pages[len(pages) // 2]


class Sphinx(Host):
    name = "sphinx"
    markup = "rst"
    words = 150
    modes = (
        Mode("clean -j 1"),
        Mode("clean -j 2", jobs=2, up_to=1_000),
        Mode("incremental", incremental=True),
    )
    labels: ClassVar[dict[str, str]] = {
        "none": "no sitemap",
        "incumbent": "sphinx-sitemap + sphinx-last-updated-by-git",
        "ours": "sitemap-plugins",
    }
    needs: ClassVar[dict[str, tuple[str, ...]]] = {
        "none": ("sphinx",),
        "incumbent": ("sphinx", "sphinx_sitemap", "sphinx_last_updated_by_git"),
        "ours": ("sphinx",),
    }
    EXTENSIONS: Final = {
        "none": [],
        "incumbent": ["sphinx_sitemap", "sphinx_last_updated_by_git"],
        "ours": ["sitemap_plugins.sphinx"],
    }

    def configure(self, variant: str) -> None:
        conf = self.folder(variant) / "config"
        conf.mkdir(parents=True, exist_ok=True)
        (conf / "conf.py").write_text(
            'project = "Synthetic"\n'
            f"extensions = {self.EXTENSIONS[variant]!r}\n"
            f"html_baseurl = {SITE_URL!r}\n"
            "sitemap_show_lastmod = True\n"
            # The root's toctree lists every page; a sidebar listing them all on every page
            # would make the build quadratic, which no real site of that size does.
            'html_sidebars = {"**": ["relations.html", "searchbox.html"]}\n',
            "utf-8",
        )

    def command(self, variant: str, mode: Mode) -> list[str]:
        out = self.folder(variant)
        return [
            sys.executable, "-m", "sphinx", "-b", "html", "-q", "-j", str(mode.jobs),
            "-c", str(out / "config"), "-d", str(out / "doctrees"),
            str(self.source / "docs"), str(out / "html"),
        ]  # fmt: skip

    def sitemap(self, variant: str) -> Path:
        return self.folder(variant) / "html" / "sitemap.xml"


class MkDocs(Host):
    name = "mkdocs"
    modes = (Mode("clean"), Mode("--dirty after one edit", incremental=True))
    labels: ClassVar[dict[str, str]] = {
        "none": "MkDocs' built-in sitemap",
        "incumbent": "git-revision-date-localized",
        "ours": "sitemap-plugins",
    }
    PLUGINS: Final = {
        "none": None,
        "incumbent": "git-revision-date-localized",
        "ours": "sitemap",
    }

    def problem(self, variant: str) -> str | None:
        if importlib.util.find_spec("mkdocs") is None:
            return "mkdocs is not installed"
        name = self.PLUGINS[variant]
        if name is None:
            return None
        found = [ep for ep in entry_points(group="mkdocs.plugins") if ep.name == name]
        if not found:
            return f"no MkDocs plugin named {name!r} is installed"
        try:
            found[0].load()
        except Exception as error:
            return f"plugin {name!r} does not load: {type(error).__name__}: {error}"
        return None

    def configure(self, variant: str) -> None:
        folder = self.folder(variant)
        folder.mkdir(parents=True, exist_ok=True)
        plugins = ["search"] + ([self.PLUGINS[variant]] if self.PLUGINS[variant] else [])
        (folder / "config.yml").write_text(
            "site_name: Synthetic documentation\n"
            f"site_url: {SITE_URL}\n"
            f"docs_dir: '{self.source / 'docs'}'\n"
            f"site_dir: '{folder / 'site'}'\n"
            "theme:\n  name: mkdocs\n"
            "plugins:\n" + "".join(f"  - {name}\n" for name in plugins),
            "utf-8",
        )

    def command(self, variant: str, mode: Mode) -> list[str]:
        dirty = ["--dirty"] if mode.incremental else []
        config = self.folder(variant) / "config.yml"
        return [sys.executable, "-m", "mkdocs", "build", "-q", *dirty, "-f", str(config)]

    def sitemap(self, variant: str) -> Path:
        return self.folder(variant) / "site" / "sitemap.xml"


class Pelican(Host):
    name = "pelican"
    markup = "rst"
    words = 150
    modes = (Mode("clean, no cache"), Mode("content cache, one edit", incremental=True, cache=True))
    labels: ClassVar[dict[str, str]] = {
        "none": "no sitemap",
        "incumbent": "pelican-sitemap",
        "ours": "sitemap-plugins",
    }
    needs: ClassVar[dict[str, tuple[str, ...]]] = {
        "none": ("pelican",),
        "incumbent": ("pelican", "pelican.plugins.sitemap"),
        "ours": ("pelican",),
    }
    PLUGINS: Final = {
        # Set in every variant: with PLUGINS unset, Pelican loads every namespace plugin
        # installed, pelican-sitemap included.
        "none": [],
        "incumbent": ["pelican.plugins.sitemap"],
        "ours": ["sitemap_plugins.pelican"],
    }

    def configure(self, variant: str) -> None:
        folder = self.folder(variant)
        folder.mkdir(parents=True, exist_ok=True)
        for cache in (False, True):
            (folder / f"config-{'cache' if cache else 'clean'}.py").write_text(
                'AUTHOR = "Bench"\nSITENAME = "Synthetic"\n'
                f"SITEURL = {SITE_URL.rstrip('/')!r}\n"
                'TIMEZONE = "UTC"\nDEFAULT_LANG = "en"\n'
                f"PLUGINS = {self.PLUGINS[variant]!r}\n"
                # docs/index.rst is the Sphinx root document of the shared repository.
                'IGNORE_FILES = [".#*", "index.rst"]\n'
                "FEED_ALL_ATOM = None\nCATEGORY_FEED_ATOM = None\n"
                "TRANSLATION_FEED_ATOM = None\nAUTHOR_FEED_ATOM = None\nAUTHOR_FEED_RSS = None\n"
                f"CACHE_CONTENT = {cache}\nLOAD_CONTENT_CACHE = {cache}\n"
                f"CACHE_PATH = {str(folder / 'cache')!r}\n",
                "utf-8",
            )

    def command(self, variant: str, mode: Mode) -> list[str]:
        folder = self.folder(variant)
        config = folder / f"config-{'cache' if mode.cache else 'clean'}.py"
        return [
            sys.executable, "-m", "pelican", str(self.source / "docs"),
            "-s", str(config), "-o", str(folder / "output"), "-q",
        ]  # fmt: skip

    def sitemap(self, variant: str) -> Path:
        return self.folder(variant) / "output" / "sitemap.xml"


HOSTS: Final[dict[str, type[Host]]] = {"sphinx": Sphinx, "mkdocs": MkDocs, "pelican": Pelican}


class Build(NamedTuple):
    """One build: wall and CPU seconds, peak resident memory in MiB, why it failed if it did,
    and its process's full garbage collections (None where not known)."""

    seconds: float
    cpu: float
    peak_mib: float
    problem: str | None
    full_collections: int | None = None


def timed_build(command: list[str], cwd: Path) -> Build:
    """Run one build through ``launch.py`` and measure it there: wall and CPU time around the
    build alone (the launcher's own start is not counted), and the build's own peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        output = Path(folder, "output.txt")
        done = subprocess.run(
            [sys.executable, str(LAUNCHER), json.dumps([command, str(cwd), str(output), TIMEOUT])],
            cwd=cwd, env=child_env(), capture_output=True, text=True, check=False,
        )  # fmt: skip
        if done.returncode != 0:
            lines = done.stderr.strip().splitlines()
            return Build(
                0.0, 0.0, 0.0, f"launcher failed: {lines[-1] if lines else done.returncode}"
            )
        seconds, cpu, peak_bytes, returncode, timed_out, full = json.loads(done.stdout)
        peak = peak_bytes / 1_048_576
        if timed_out:
            return Build(seconds, cpu, peak, f"no result after {TIMEOUT} s")
        if returncode != 0:
            lines = output.read_text("utf-8", "replace").strip().splitlines()
            return Build(seconds, cpu, peak, f"build failed: {lines[-1] if lines else returncode}")
    return Build(seconds, cpu, peak, None, full)


def _listed(sitemap: Path) -> tuple[int, int]:
    """``<loc>`` and ``<lastmod>`` in a sitemap file (0, 0 when there is none)."""
    try:
        text = sitemap.read_text("utf-8")
    except OSError:
        return 0, 0
    return text.count("<loc>"), text.count("<lastmod>")


def _imprecise(outcome: Outcome, mode: Mode) -> bool:
    """Whether more rounds would still narrow the interval of ours / none that the aims are
    judged on (a variant that did not build gives nothing more to measure)."""
    spread = outcome.spread(mode.name, "ours", "none")
    return not isinstance(spread, str) and spread.half_width > PRECISION


def run(
    host_name: str,
    pages: int,
    *,
    rounds: int,
    mode_seconds: float = 0.0,
    log: Callable[[str], None] = lambda text: print(f"# {text}", file=sys.stderr, flush=True),
) -> Outcome:
    cls = HOSTS[host_name]
    commits = pages * COMMITS_PER_PAGE
    outcome = Outcome(host_name, pages, commits, rounds)
    for variant in VARIANTS:
        probe = cls(Path(), Path())
        problem = probe.problem(variant)
        if problem:
            outcome.unavailable[variant] = problem
    if "none" in outcome.unavailable:  # no host: nothing to measure
        for variant in VARIANTS:
            outcome.unavailable[variant] = outcome.unavailable["none"]
        return outcome
    spec = RepoSpec(pages, commits, body_words=cls.words, markup=cls.markup)
    repo = ensure_repo(spec, log=True)
    with tempfile.TemporaryDirectory(prefix=f"sitemap-bench-{host_name}-") as scratch:
        source = Path(scratch, "source")
        # A clone (objects shared by hard links): the rounds edit it, the cache stays as made.
        subprocess.run(
            ["git", "clone", "-q", "--local", str(repo), str(source)],
            check=True,
            capture_output=True,
        )
        host = cls(Path(scratch), source)
        variants = [v for v in VARIANTS if v not in outcome.unavailable]
        for variant in variants:
            host.configure(variant)
        target = host.edit_target()
        timed_build(host.command("none", host.modes[0]), Path(scratch))  # warm-up, not timed
        host.clean("none")
        for mode in host.modes:
            if mode.up_to is not None and pages > mode.up_to:
                for variant in variants:
                    outcome.failed[mode.name, variant] = f"not run above {mode.up_to:,} pages"
                continue
            wall = outcome.wall.setdefault(mode.name, {})
            cpu = outcome.cpu.setdefault(mode.name, {})
            memory = outcome.memory.setdefault(mode.name, {})
            collections = outcome.collections.setdefault(mode.name, {})
            if mode.cache:
                # The state a cached build starts from: one full build that fills the cache.
                # (Other incremental modes start from the previous mode's last build.)
                for variant in variants:
                    host.clean(variant)
                    timed_build(host.command(variant, mode), Path(scratch))
            order = list(variants)
            mode_rounds = rounds * INCREMENTAL_ROUNDS if mode.incremental else rounds
            round_number, spent = 0, 0.0
            while round_number < mode_rounds or (
                _imprecise(outcome, mode)
                and spent < mode_seconds
                and round_number < rounds * MAX_ROUNDS_FACTOR
            ):
                round_number += 1
                if mode.incremental:
                    with open(target, "a", encoding="utf-8") as stream:
                        stream.write(f"\n\nEdited in round {round_number}.\n")
                for variant in order:
                    if (mode.name, variant) in outcome.failed:
                        continue
                    if not mode.incremental:
                        host.clean(variant)
                    build = timed_build(host.command(variant, mode), Path(scratch))
                    if build.problem:
                        outcome.failed[mode.name, variant] = build.problem
                        log(f"{host_name} {pages} {mode.name} {variant}: {build.problem}")
                        continue
                    wall.setdefault(variant, []).append(build.seconds)
                    spent += build.seconds
                    cpu.setdefault(variant, []).append(build.cpu)
                    memory.setdefault(variant, []).append(build.peak_mib)
                    if build.full_collections is not None:
                        collections.setdefault(variant, []).append(build.full_collections)
                order = order[1:] + order[:1]
                shown = ", ".join(f"{v} {t[-1]:.2f}s" for v, t in wall.items() if t)
                log(f"{host_name} {pages} pages, {mode.name}, round {round_number}: {shown}")
            outcome.rounds_run[mode.name] = round_number
            outcome.listed[mode.name] = {
                variant: _listed(host.sitemap(variant)) for variant in ("incumbent", "ours")
            }
    return outcome
