"""Peak memory of ``sitemap-plugins generate``: a URL list and a built site, each in a child.

    python benchmarks/bench_generate.py [--urls N] [--pages N]

Writes a shuffled URL list of ``--urls`` lines (every third with a lastmod, one duplicate) and a
built site of ``--pages`` small HTML files to a temporary folder, runs ``sitemap-plugins
generate`` on each in a child process, and prints the child's peak resident memory (RSS, from
``getrusage``) and wall time, one ``name: value`` per line. Memory, not time, is the claim: it
must stay flat as the input grows (run with 1,000,000 and 10,000,000 URLs and compare), since
entries are never all in memory (sorted runs of 50,000 on disk, then a streaming merge).
Linux and macOS (``resource`` module).
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BASE = "https://example.org/"


# A fresh parent for each measurement: RUSAGE_CHILDREN is the largest child a process has had,
# so each run gets a parent of its own that reports its one child's peak.
_MEASURE = """
import resource, subprocess, sys
done = subprocess.run(sys.argv[1:], capture_output=True, text=True)
if done.returncode:
    sys.exit(done.stderr[-2000:])
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(peak / 1024 / (1024 if sys.platform == "darwin" else 1))  # bytes on macOS, KiB on Linux
"""


def _run(args: list[str], cwd: Path) -> tuple[float, float]:
    """Wall seconds and the peak RSS (MiB) of one child run of the command."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "sitemap_plugins", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"generate failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return time.perf_counter() - started, float(done.stdout)


def url_list(path: Path, count: int) -> None:
    order = list(range(count))
    random.Random(1).shuffle(order)
    with open(path, "w", encoding="utf-8") as stream:
        for number in order:
            date = f"\t2024-{number % 12 + 1:02d}-{number % 28 + 1:02d}" if number % 3 == 0 else ""
            stream.write(f"{BASE}products/{number:08d}/{date}\n")
        stream.write(f"{BASE}products/00000000/\n")


def site(folder: Path, count: int) -> None:
    for number in range(count):
        page = folder / f"section-{number % 100:02d}" / f"page-{number:06d}" / "index.html"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(
            f"<!DOCTYPE html><html><head><title>{number}</title></head><body>x</body></html>\n"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", type=int, default=1_000_000)
    parser.add_argument("--pages", type=int, default=100_000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sitemap-bench-generate-") as name:
        root = Path(name)
        site(root / "site", args.pages)
        seconds, peak = _run(["generate", "site", "--base-url", BASE], root)
        print(f"generate_site_pages: {args.pages}")
        print(f"generate_site_seconds: {seconds:.1f}")
        print(f"generate_site_peak_rss_mib: {peak:.0f}")
        url_list(root / "urls.txt", args.urls)
        seconds, peak = _run(
            ["generate", "out", "--urls", "urls.txt", "--base-url", BASE, "--gzip", "both"], root
        )
        print(f"generate_urls: {args.urls}")
        print(f"generate_urls_seconds: {seconds:.1f}")
        print(f"generate_urls_peak_rss_mib: {peak:.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
