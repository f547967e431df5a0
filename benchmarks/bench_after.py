"""After the build: ``sitemap-plugins generate`` on a site MkDocs built alone, beside the same
site built with the plugin.

The MkDocs family is moving to hosts without Python plugins (MkDocs 2.0, Zensical), where the
sitemap is written after the build by ``generate``. On the MkDocs site of the host benchmarks
(the same synthetic repository and configuration, :mod:`bench_hosts`), each round:

1. builds the site clean with MkDocs alone (its built-in sitemap);
2. runs ``generate`` on that built site as a CI step does: a fresh process, no cache of its
   own (``--no-host-config``), the sources found by ``--layout mkdocs``;
3. builds the site clean with the plugin.

The order of the plugin's build and the pair rotates from round to round. Figures are medians
over rounds of ratios taken within a round: (MkDocs alone + ``generate``) / MkDocs alone, and
the plugin's build / MkDocs alone, with ``generate``'s own seconds. Both ways must give the same
sitemap, every URL with the same lastmod: the run fails otherwise.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from bench_hosts import COMMITS_PER_PAGE, SITE_URL, MkDocs, Mode, timed_build
from synthetic_repo import RepoSpec, ensure_repo

CLEAN: Final = Mode("clean")
_NS: Final = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
MAX_ROUNDS_FACTOR: Final = 5
"""More rounds than asked while the builds have run less than ``mode_seconds``, up to this many
times the rounds asked: the median of three rounds of a short build moves by a tenth."""


@dataclass
class AfterOutcome:
    """One size's rounds: seconds of each step, and whether both sitemaps agreed."""

    pages: int
    commits: int
    build: list[float] = field(default_factory=list)
    generate: list[float] = field(default_factory=list)
    plugin: list[float] = field(default_factory=list)
    urls: int = 0
    problems: list[str] = field(default_factory=list)
    unavailable: str | None = None

    def ratio(self, times: list[float]) -> float | None:
        pairs = list(zip(times, self.build, strict=False))
        return statistics.median(a / b for a, b in pairs) if pairs else None

    def after_ratio(self) -> float | None:
        steps = list(zip(self.build, self.generate, strict=False))
        return statistics.median((b + g) / b for b, g in steps) if steps else None


def listed(sitemap: Path) -> dict[str, str | None]:
    """Each ``<loc>`` of a sitemap with its ``<lastmod>`` (None without)."""
    found: dict[str, str | None] = {}
    for url in ET.parse(sitemap).getroot().iter(f"{_NS}url"):
        loc, lastmod = url.findtext(f"{_NS}loc"), url.findtext(f"{_NS}lastmod")
        if loc is not None:
            found[loc] = lastmod
    return found


def run(pages: int, *, rounds: int, mode_seconds: float = 0.0) -> AfterOutcome:
    commits = pages * COMMITS_PER_PAGE
    outcome = AfterOutcome(pages, commits)
    probe = MkDocs(Path(), Path())
    for variant in ("none", "ours"):
        problem = probe.problem(variant)
        if problem:
            outcome.unavailable = problem
            return outcome
    repo = ensure_repo(RepoSpec(pages, commits, body_words=MkDocs.words, markup=MkDocs.markup))
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-after-") as name:
        scratch = Path(name)
        source = scratch / "source"
        subprocess.run(
            ["git", "clone", "-q", "--local", str(repo), str(source)],
            check=True,
            capture_output=True,
        )
        host = MkDocs(scratch, source)
        for variant in ("none", "ours"):
            host.configure(variant)
        site = host.folder("none") / "site"
        generate = [
            sys.executable, "-m", "sitemap_plugins", "generate", str(site), "--base-url",
            SITE_URL, "--source", str(source / "docs"), "--layout", "mkdocs", "--no-host-config",
        ]  # fmt: skip
        timed_build(host.command("none", CLEAN), scratch)  # warm-up, not timed
        round_number, spent, plugin_first = 0, 0.0, False
        while round_number < rounds or (
            spent < mode_seconds and round_number < rounds * MAX_ROUNDS_FACTOR
        ):
            round_number += 1
            steps: dict[str, float] = {}
            order = ["plugin", "after"] if plugin_first else ["after", "plugin"]
            for step in order:
                if step == "plugin":
                    host.clean("ours")
                    done = timed_build(host.command("ours", CLEAN), scratch)
                    steps["plugin"] = done.seconds
                else:
                    host.clean("none")
                    done = timed_build(host.command("none", CLEAN), scratch)
                    steps["build"] = done.seconds
                    if done.problem is None:
                        done = timed_build(generate, scratch)
                        steps["generate"] = done.seconds
                if done.problem is not None:
                    outcome.problems.append(f"{step}: {done.problem}")
                    return outcome
            plugin_first = not plugin_first
            outcome.build.append(steps["build"])
            outcome.generate.append(steps["generate"])
            outcome.plugin.append(steps["plugin"])
            spent += sum(steps.values())
            print(
                f"# after {pages} pages, round {round_number}: MkDocs {steps['build']:.2f}s, "
                f"generate {steps['generate']:.2f}s, plugin {steps['plugin']:.2f}s",
                file=sys.stderr,
                flush=True,
            )
        after, plugin = listed(site / "sitemap.xml"), listed(host.sitemap("ours"))
        outcome.urls = len(after)
        if after != plugin:
            differ = sorted(set(after.items()) ^ set(plugin.items()))[:3]
            outcome.problems.append(
                f"generate's sitemap ({len(after)} URLs) differs from the plugin's "
                f"({len(plugin)}): {differ}"
            )
        elif len(after) != pages:
            outcome.problems.append(f"{len(after)} URLs listed for {pages} pages")
    return outcome
