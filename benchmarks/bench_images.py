"""What the ``images`` option costs: a 1,000-page MkDocs site built with images off and on.

    python benchmarks/run.py --only images       as part of the benchmarks (a table)
    python benchmarks/bench_images.py            alone: 1,000 pages, one figure a line
    python benchmarks/bench_images.py --quick    100 pages, a smoke run

Progress and each round's timings go to stderr. The exit status is 1 if a check fails (the
sitemap with images on must list every content image of every page, and none of the theme's;
off, none).

The site: one page per file, 300 words and three content images each (one of them twice, so
deduplication works too), MkDocs' readthedocs theme with a logo in its navigation, the
``search`` plugin on, one git commit. Three configurations differ only in the plugin line:

* ``plain``: MkDocs alone, with its built-in sitemap;
* ``off``: ``plugins: [search, sitemap]``, which reads each page's head only;
* ``on``: the same with ``images: true``, which reads each page's body too.

Each build is ``mkdocs build -q`` in a fresh process; one untimed warm-up, then rounds that
interleave the three (the order rotates). As in the host benchmarks, a ratio is taken between
builds of the same round and the figure is the median over rounds, in wall time and in CPU time
(MkDocs and every process it waited for). Apart from the builds, the page read itself is timed
in this process on the pages the ``on`` build wrote: ``read_page`` with images off (the head)
and on (head and body), best of 3.

Needs ``mkdocs`` and ``sitemap-plugins`` importable (MkDocs finds the plugin by its entry point,
the child imports the same ``sitemap_plugins`` as this process), and ``git`` on ``PATH``.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

if __name__ == "__main__" and importlib.util.find_spec("sitemap_plugins") is None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # from a checkout

from common import child_env

ROOT: Final = Path(__file__).resolve().parent.parent
SITE_URL: Final = "https://example.org/docs/"
WORDS: Final = ("sitemap", "page", "build", "image", "theme", "plugin", "content", "crawler",
                "render", "markdown", "section", "guide", "option", "value", "release")  # fmt: skip
SVG: Final = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>\n'
VARIANTS: Final = {
    "plain": None,
    "off": "  - sitemap\n",
    "on": "  - sitemap:\n      images: true\n",
}


def figure(name: str, value: float | str) -> None:
    if isinstance(value, float):
        value = f"{value:.3f}" if abs(value) < 10 else f"{value:.2f}"
    print(f"{name}: {value}", flush=True)


def note(text: str) -> None:
    print(f"# {text}", file=sys.stderr, flush=True)


def make_site(folder: Path, pages: int, seed: int = 12) -> None:
    """``pages`` Markdown pages in ``docs/``, each with three images, committed once."""
    rng = random.Random(seed)
    docs = folder / "docs"
    (docs / "img").mkdir(parents=True)
    (docs / "img" / "logo.svg").write_text(SVG)
    for number in range(pages):
        section = f"s{number % 20:02}"
        (docs / section).mkdir(exist_ok=True)
        for name in (f"p{number}-a.svg", f"p{number}-b.svg"):
            (docs / "img" / name).write_text(SVG)
        paragraphs = [" ".join(rng.choice(WORDS) for _ in range(100)) for _ in range(3)]
        (docs / section / f"page-{number}.md").write_text(
            f"# Page {number}\n\n{paragraphs[0]}\n\n![Diagram](../img/p{number}-a.svg)\n\n"
            f"{paragraphs[1]}\n\n![Photo](../img/p{number}-b.svg)\n\n{paragraphs[2]}\n\n"
            f"![Diagram again](../img/p{number}-a.svg) ![Logo](../img/logo.svg)\n",
            encoding="utf-8",
        )
    (docs / "index.md").write_text("# Home\n\nThe home page.\n", encoding="utf-8")
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    for command in (
        ["git", "init", "-q", "-b", "main"],
        ["git", "add", "-A"],
        ["git", "-c", "user.name=Bench", "-c", "user.email=bench@example.org", "commit", "-q",
         "-m", "site", "--date", "2024-05-01T10:00:00+00:00"],
    ):  # fmt: skip
        subprocess.run(command, cwd=folder, env=env, check=True, capture_output=True)


def config(folder: Path, variant: str) -> Path:
    plugin = VARIANTS[variant]
    path = folder / f"mkdocs-{variant}.yml"
    path.write_text(
        "site_name: Images benchmark\n"
        f"site_url: {SITE_URL}\n"
        f"site_dir: site-{variant}\n"
        "theme:\n  name: readthedocs\n  logo: img/logo.svg\n"
        "plugins:\n  - search\n" + (plugin or ""),
        encoding="utf-8",
    )
    return path


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def build(folder: Path, config_file: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``mkdocs build -q`` in a fresh process."""
    cpu, start = _children_cpu(), time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config_file)],
        cwd=folder,
        env=child_env(),
        capture_output=True,
        text=True,
        check=False,
    )
    seconds, cpu = time.perf_counter() - start, _children_cpu() - cpu
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build failed: {(done.stderr or done.stdout).strip()[-500:]}")
    return seconds, cpu


def scan_times(site: Path) -> tuple[float, float, int]:
    """Seconds per page of ``read_page`` with images off and on, best of 3, and pages read."""
    from sitemap_plugins.core.html import read_page

    pages = sorted(site.rglob("index.html"))
    best = {False: float("inf"), True: float("inf")}
    for _ in range(3):
        for images in (False, True):
            start = time.perf_counter()
            for page in pages:
                read_page(page, images=images)
            best[images] = min(best[images], time.perf_counter() - start)
    return best[False] / len(pages), best[True] / len(pages), len(pages)


def check(folder: Path, pages: int) -> list[str]:
    """What the sitemaps must hold: with images on, three per page; off, none."""
    problems = []
    on = (folder / "site-on" / "sitemap.xml").read_text("utf-8")
    off = (folder / "site-off" / "sitemap.xml").read_text("utf-8")
    wanted = 3 * pages  # the diagram (shown twice, listed once), the photo, the logo
    if on.count("<image:loc>") != wanted:
        problems.append(f"images on: {on.count('<image:loc>')} images for {pages} pages")
    if "img/logo.svg" in on.split("<loc>" + SITE_URL + "</loc>", 1)[-1].split("</url>", 1)[0]:
        problems.append("images on: the theme's logo is listed for the home page")
    if "<image:" in off:
        problems.append("images off: the sitemap lists images")
    return problems


@dataclass
class ImagesFigures:
    """What one run measured: each variant's build times by round, the page read, the checks."""

    pages: int
    rounds: int
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    read_head: float = 0.0
    """Seconds per page of ``read_page`` without images (the head only)."""
    read_whole: float = 0.0
    """Seconds per page of ``read_page`` with images (head and body)."""
    pages_read: int = 0
    problems: list[str] = field(default_factory=list)

    def ratio(self, variant: str, baseline: str, *, cpu: bool = False) -> float:
        """Median over rounds of ``variant``'s build time / ``baseline``'s in the same round."""
        times = self.cpu if cpu else self.wall
        pairs = zip(times[variant], times[baseline], strict=True)
        return statistics.median(ours / base for ours, base in pairs if base > 0)

    def seconds(self, variant: str) -> float:
        return statistics.median(self.wall[variant])

    @property
    def read_added_per_1000(self) -> float:
        """Seconds the body read adds per 1,000 pages, in this process."""
        return (self.read_whole - self.read_head) * 1000


def run(
    pages: int,
    *,
    rounds: int = 3,
    log: Callable[[str], None] = lambda text: print(f"# {text}", file=sys.stderr, flush=True),
) -> ImagesFigures:
    """Build the site ``rounds`` times with each variant (after one warm-up) and time the read."""
    figures = ImagesFigures(pages, rounds)
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-images-") as scratch:
        folder = Path(scratch)
        make_site(folder, pages)
        configs = {variant: config(folder, variant) for variant in VARIANTS}
        build(folder, configs["plain"])  # warm-up: page cache and bytecode, not timed
        order = list(VARIANTS)
        for number in range(1, rounds + 1):
            for variant in order:
                seconds, used = build(folder, configs[variant])
                figures.wall.setdefault(variant, []).append(seconds)
                figures.cpu.setdefault(variant, []).append(used)
            order = order[1:] + order[:1]
            shown = ", ".join(f"{v} {figures.wall[v][-1]:.2f}s" for v in VARIANTS)
            log(f"images {pages} pages, round {number}: {shown}")
        figures.problems = check(folder, pages)
        figures.read_head, figures.read_whole, figures.pages_read = scan_times(folder / "site-on")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="100 pages, a smoke run")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    if importlib.util.find_spec("mkdocs") is None:
        note("MkDocs is not installed")
        return 1
    pages = 100 if args.quick else 1_000
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    note(f"{pages} pages, {os.cpu_count()} CPUs, load average {load}")
    result = run(pages, rounds=args.rounds)
    figure("images_build_on_vs_off", result.ratio("on", "off"))
    figure("images_build_on_vs_off_cpu", result.ratio("on", "off", cpu=True))
    figure("images_build_on_vs_plain", result.ratio("on", "plain"))
    figure("images_build_off_vs_plain", result.ratio("off", "plain"))
    for variant in VARIANTS:
        figure(f"images_build_{variant}_seconds", result.seconds(variant))
    figure("images_read_ms_per_page_head_only", result.read_head * 1000)
    figure("images_read_ms_per_page_head_and_body", result.read_whole * 1000)
    figure("images_read_ms_added_per_1000_pages", result.read_added_per_1000 * 1000)
    note(f"page read timed on {result.pages_read} pages written by the 'on' build")
    for problem in result.problems:
        note(f"FAILED: {problem}")
    return 1 if result.problems else 0


if __name__ == "__main__":
    sys.exit(main())
