"""The collector is paused while a build describes and resolves its pages, and only then."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_plugins.core import (
    Code,
    CollectingReporter,
    Options,
    Page,
    SitemapBuilder,
    collector_paused,
)

BASE = "https://example.org/"


class _SeesCollector(CollectingReporter):
    """Notes, at each warning, whether the collector runs."""

    def __init__(self) -> None:
        super().__init__()
        self.collecting: list[bool] = []

    def warning(self, code: Code, message: str) -> None:
        self.collecting.append(gc.isenabled())
        super().warning(code, message)


def _pages(seen: list[bool]) -> Iterator[Page]:
    """Pages as an adapter yields them, noting whether the collector runs meanwhile."""
    for name in ("a", "b"):
        seen.append(gc.isenabled())
        yield Page(path=f"{name}.html", origin=f"{name}.md", sitemap={"priority": 7})


@pytest.fixture
def collecting() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_a_build_describes_and_resolves_with_the_collector_paused_then_resumes_it(
    tmp_path: Path, collecting: None
) -> None:
    reporter = _SeesCollector()
    builder = SitemapBuilder(Options.from_mapping({"base_url": BASE}), reporter)
    seen: list[bool] = []
    summary = builder.build(_pages(seen), tmp_path)
    assert summary.urls == 2
    assert seen == [False, False]  # described inside the build
    assert reporter.collecting == [False, False]  # each bad priority, while resolving
    assert gc.isenabled()


def test_a_failed_build_resumes_the_collector(tmp_path: Path, collecting: None) -> None:
    def broken() -> Iterator[Page]:
        yield Page(path="a.html", origin="a.md")
        raise RuntimeError("the host failed half-way")

    builder = SitemapBuilder(Options.from_mapping({"base_url": BASE}), CollectingReporter())
    with pytest.raises(RuntimeError):
        builder.build(broken(), tmp_path)
    assert gc.isenabled()


def test_a_collector_paused_by_the_host_stays_paused(collecting: None) -> None:
    gc.disable()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the inner block does not resume what the outer paused
    assert not gc.isenabled()  # nor the outer one what the host paused
    gc.enable()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
