"""The writer benchmark compares equal work: its raw floor writes the writer's bytes exactly.

No time is asserted here; this keeps the benchmark's ratio honest (a floor that wrote other
bytes, such as dates where the writer writes timestamps, would make any ratio meaningless).
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from tests.support.sitemap_checks import check_sitemap_file

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


@pytest.fixture
def bench_writer() -> Iterator[ModuleType]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import bench_writer

        yield bench_writer
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_both_writer_paths_write_the_raw_loops_bytes(bench_writer: ModuleType) -> None:
    figures = bench_writer.run(4_000, rounds=1, log=False)
    for path in (figures.rows, figures.entries):
        assert path.files == bench_writer.SHARDS + 1
        assert path.identical_files == path.files
        assert path.locs == 4_000
        assert path.index_children == bench_writer.SHARDS


def test_the_benchmark_sitemaps_are_valid(bench_writer: ModuleType, tmp_path: Path) -> None:
    from sitemap_plugins.core.options import Options
    from sitemap_plugins.core.report import CollectingReporter
    from sitemap_plugins.core.writer import write_sitemap_rows

    base = bench_writer.BASE_URL
    options = Options.from_mapping({"base_url": base, "urls_per_file": 1_500})
    reporter = CollectingReporter()
    rows = sorted(bench_writer.rows(4_000))  # the benchmark's URLs, in the order a site lists
    write_sitemap_rows(iter(rows), tmp_path, base_url=base, options=options, reporter=reporter)
    assert reporter.warnings == []
    entries = check_sitemap_file(tmp_path / "sitemap.xml", sitemap_url=base + "sitemap.xml")
    assert len(entries) == 4_000
