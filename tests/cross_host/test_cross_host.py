"""The three hosts agree: same pages and metadata give the same sitemap entries, and the same
option names mean the same thing everywhere.

The example sites are copied into one real git repository, committed at chosen dates, edited
once more, and built with each host's real command line.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from sitemap_plugins.core import Reason
from tests.support import hosts
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, pelican_build, sphinx_build
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp

EXAMPLES = Path(__file__).resolve().parents[2] / "example_sites"
BASE = "https://example.org/"
FIRST = "2024-02-01T10:00:00+00:00"
EDIT = "2024-04-20T16:45:00+00:00"

# How each example is built (the real command line, from its folder, as the README says), where
# its sitemap lands, and its source for guide/configure.
HOSTS: dict[str, tuple[Callable[[Path], subprocess.CompletedProcess[str]], str, str]] = {
    "mkdocs": (lambda folder: mkdocs_build(folder, "--strict"), "site", "docs/guide/configure.md"),
    "sphinx": (
        lambda folder: sphinx_build(folder, folder / "_build" / "dirhtml", "-W"),
        "_build/dirhtml",
        "guide/configure.rst",
    ),
    "pelican": (
        lambda folder: pelican_build(folder, "-v"),  # -v: the summary line is an info line
        "output",
        "content/pages/guide/configure.md",
    ),
}
SHARED = {"", "guide/install/", "guide/configure/", "reference/options/", "caf%C3%A9/", "about/"}
LEFT_OUT = {"internal/", "404/", "404.html"}

Row = tuple[str, str | None, str | None, str | None]


@dataclass(frozen=True)
class Built:
    """One example site after its real build: where it was written, and its sitemap by path."""

    site_dir: Path
    rows: dict[str, Row]
    left_out: dict[str, int]  # the summary line's reasons, word for word, and their counts
    images: dict[str, tuple[str, ...]]  # the images listed, by page path


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Built]:
    """Every example site built once in a repository with two dated commits."""
    repo = GitRepo(tmp_path_factory.mktemp("cross") / "repo")
    for host in HOSTS:
        shutil.copytree(
            EXAMPLES / host,
            repo.root / host,
            ignore=shutil.ignore_patterns("site", "_build", "output", "__pycache__"),
        )
    repo.commit("the three example sites", FIRST)
    for host, (_, _, configure) in HOSTS.items():
        source = repo.root / host / configure
        source.write_text(source.read_text("utf-8") + "\nOne more paragraph.\n", "utf-8")
    repo.commit("edit guide/configure everywhere", EDIT)

    results: dict[str, Built] = {}
    for host, (build, output, _) in HOSTS.items():
        folder = repo.root / host
        done = build(folder)  # fails the test, with the build's output, if the build fails
        sitemap = folder / output / "sitemap.xml"
        entries = check_sitemap_file(sitemap, BASE + "sitemap.xml")
        rows = {}
        images = {}
        for entry in entries:
            assert entry.loc.startswith(BASE)
            path = entry.loc[len(BASE) :]
            rows[path] = (path, entry.lastmod, entry.priority, entry.changefreq)
            images[path] = entry.images
        log = hosts.output(done)
        results[host] = Built(folder / output, rows, _left_out(log), images)
    return results


def _left_out(log: str) -> dict[str, int]:
    """The reasons of the one summary line, ``left out 3 (1 404 page, 2 draft)``, as counts."""
    [line] = [line for line in log.splitlines() if "sitemap: " in line and " URLs in " in line]
    match = re.search(r"; left out \d+ \(([^)]*)\)", line)
    assert match is not None, line
    counts = {}
    for part in match.group(1).split(", "):
        number, _, reason = part.partition(" ")
        counts[reason] = int(number)
    return counts


def test_every_host_says_why_in_the_same_words(built: dict[str, Built]) -> None:
    """A reason is one of the core's words whatever the host, and the pages the example sites
    share are left out for the same reasons everywhere."""
    words = {reason.value for reason in Reason}
    for host, site in built.items():
        assert set(site.left_out) <= words, (host, site.left_out)
    shared = {"404 page": 1, "excluded by metadata": 1}  # 404.md, internal.md
    for host, site in built.items():
        assert {reason: site.left_out.get(reason) for reason in shared} == shared, host


def test_every_host_lists_the_shared_pages_and_leaves_out_the_same(
    built: dict[str, Built],
) -> None:
    for host, site in built.items():
        assert set(site.rows) >= SHARED, host
        assert not set(site.rows) & LEFT_OUT, host
    assert set(built["mkdocs"].rows) == SHARED
    assert set(built["sphinx"].rows) == SHARED


def test_hosts_agree_on_path_lastmod_priority_changefreq(
    built: dict[str, Built],
) -> None:
    shared = {host: {site.rows[path] for path in SHARED} for host, site in built.items()}
    assert shared["mkdocs"] == shared["sphinx"] == shared["pelican"]
    by_path = {row[0]: row for row in shared["mkdocs"]}
    assert by_path["guide/configure/"][1] == "2024-04-20T16:45:00Z"  # the later commit
    assert by_path[""][1] == "2024-02-01T10:00:00Z"
    assert by_path["about/"][1] == "2024-05-01"  # explicit sitemap.lastmod
    assert by_path["guide/install/"][2:] == ("0.8", "monthly")
    assert by_path["reference/options/"][3] == "weekly"


def test_an_independent_parser_reads_each_host_alike(built: dict[str, Built]) -> None:
    """ultimate-sitemap-parser, fetching over loopback, sees the same shared pages everywhere."""
    seen = {}
    for host, site in built.items():
        pages = parse_with_usp(site.site_dir, "sitemap.xml", base_url=BASE)
        seen[host] = {
            (loc, page.lastmod.date() if page.lastmod else None)
            for loc, page in pages.items()
            if loc[len(BASE) :] in SHARED
        }
    assert seen["mkdocs"] == seen["sphinx"] == seen["pelican"]
    assert len(seen["mkdocs"]) == len(SHARED)


def test_hosts_list_the_same_image_of_the_shared_page(built: dict[str, Built]) -> None:
    """Each example shows one image on guide/install (each host serves it at its own place):
    listed there and only there, at a URL that serves the file, and read back by usp."""
    for host, site in built.items():
        [image] = site.images["guide/install/"]
        assert image.startswith(BASE), host
        assert image.endswith("/where-it-goes.svg"), host
        assert (site.site_dir / image[len(BASE) :]).is_file(), host
        assert {path for path, found in site.images.items() if found} == {"guide/install/"}
        pages = parse_with_usp(site.site_dir, "sitemap.xml", base_url=BASE)
        assert pages[BASE + "guide/install/"].images == (image,), host
