"""A large MkDocs site built three ways: plain, with our plugin, with the popular per-file plugin.

The site is a synthetic git repository (one page per file, a few hundred words each). The three
configurations are identical but for one plugin line:

* ``plain``: MkDocs alone, with its built-in sitemap (every lastmod is the build date);
* ``ours``: ``plugins: [search, sitemap]``;
* ``git-revision``: ``plugins: [search, git-revision-date-localized]`` with its defaults,
  which asks git once per page.

Each build is ``mkdocs build -q`` in a fresh process, the rounds interleave the three, and the
fastest build of each counts (the least disturbed by the rest of the machine); the order rotates
from round to round. Besides wall time,
the CPU time of each build (MkDocs and every process it waited for, git included) is kept: on a
busy machine it is the steadier measure, though it cannot credit the per-file plugin for running
git in parallel.
"""

from __future__ import annotations

import importlib.util
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from importlib.metadata import entry_points
from pathlib import Path
from typing import Final

from common import child_env
from synthetic_repo import RepoSpec, ensure_repo

SITE_URL: Final = "https://example.org/docs/"
PLUGINS: Final = {
    "plain": None,
    "ours": "sitemap",
    "git-revision": "git-revision-date-localized",
}


@dataclass
class MkDocsFigures:
    pages: int
    seconds: dict[str, float] = field(default_factory=dict)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    unavailable: dict[str, str] = field(default_factory=dict)
    sitemap_urls: int = 0
    sitemap_lastmods: int = 0

    def ratio(self, variant: str, against: str, *, cpu: bool = False) -> float | str:
        """``variant``'s build time over ``against``'s, or why it could not be measured."""
        for name in (variant, against):
            if name in self.unavailable:
                return f"unavailable ({self.unavailable[name]})"
        times = self.cpu_seconds if cpu else self.seconds
        return times[variant] / times[against]


def _plugin_problem(name: str) -> str | None:
    """Why MkDocs could not load the plugin registered as ``name``, or None if it can."""
    found = [ep for ep in entry_points(group="mkdocs.plugins") if ep.name == name]
    if not found:
        return f"no MkDocs plugin named {name!r} is installed"
    try:
        found[0].load()
    except Exception as error:
        return f"plugin {name!r} does not load: {type(error).__name__}: {error}"
    return None


def _config(repo: Path, site: Path, plugin: str | None) -> str:
    plugins = ["search"] + ([plugin] if plugin else [])
    return (
        "site_name: Synthetic documentation\n"
        f"site_url: {SITE_URL}\n"
        f"docs_dir: '{repo / 'docs'}'\n"
        f"site_dir: '{site}'\n"
        "theme:\n  name: mkdocs\n"
        "plugins:\n" + "".join(f"  - {name}\n" for name in plugins)
    )


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _build(config: Path, cwd: Path) -> tuple[float, float, str | None]:
    """Wall and CPU seconds of one ``mkdocs build -q``, and why it failed if it did."""
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-f", str(config)]
    cpu = _children_cpu()
    start = time.perf_counter()
    done = subprocess.run(
        command, cwd=cwd, env=child_env(), capture_output=True, text=True, check=False
    )
    seconds = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    if done.returncode != 0:
        lines = (done.stderr or done.stdout).strip().splitlines()
        return seconds, cpu, f"mkdocs build failed: {lines[-1] if lines else done.returncode}"
    return seconds, cpu, None


def run(
    pages: int, commits: int, *, rounds: int = 3, words: int = 300, log: bool = True
) -> MkDocsFigures:
    figures = MkDocsFigures(pages=pages)
    if importlib.util.find_spec("mkdocs") is None:
        for variant in PLUGINS:
            figures.unavailable[variant] = "MkDocs is not installed"
        return figures
    for variant, plugin in PLUGINS.items():
        problem = _plugin_problem(plugin) if plugin else None
        if problem:
            figures.unavailable[variant] = problem
    repo = ensure_repo(RepoSpec(pages, commits, body_words=words), log=log)
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-mkdocs-") as scratch:
        configs = {}
        for variant, plugin in PLUGINS.items():
            if variant in figures.unavailable:
                continue
            config = Path(scratch, f"mkdocs-{variant}.yml")
            config.write_text(_config(repo, Path(scratch, f"site-{variant}"), plugin), "utf-8")
            configs[variant] = config
        _build(configs["plain"], Path(scratch))  # warm-up: page cache, bytecode; not timed
        times: dict[str, list[float]] = {variant: [] for variant in configs}
        cpu_times: dict[str, list[float]] = {variant: [] for variant in configs}
        order = list(configs)
        for round_number in range(1, rounds + 1):
            for variant in order:
                config = configs[variant]
                if variant in figures.unavailable:
                    continue
                seconds, cpu, problem = _build(config, Path(scratch))
                if problem:
                    figures.unavailable[variant] = problem
                    continue
                times[variant].append(seconds)
                cpu_times[variant].append(cpu)
            order = order[1:] + order[:1]  # no variant always follows the same neighbour
            if log:
                shown = ", ".join(f"{v} {t[-1]:.2f}s" for v, t in times.items() if t)
                print(f"# mkdocs round {round_number}: {shown}", file=sys.stderr)
        figures.seconds = {variant: min(t) for variant, t in times.items() if t}
        figures.cpu_seconds = {variant: min(t) for variant, t in cpu_times.items() if t}
        sitemap = Path(scratch, "site-ours", "sitemap.xml")
        if "ours" not in figures.unavailable and sitemap.is_file():
            text = sitemap.read_text("utf-8")
            figures.sitemap_urls = text.count("<loc>")
            figures.sitemap_lastmods = text.count("<lastmod>")
    return figures
