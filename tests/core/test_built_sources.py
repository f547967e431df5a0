"""Sources a build wrote itself: no date from their file time, in this build or a later one.

Files are real, in real git repositories; their times are set where a test needs a time on a
given side of the moment the build began.
"""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from sitemap_plugins.core.built_sources import BuildWindow
from sitemap_plugins.core.git_dates import FileDates, Why
from sitemap_plugins.core.report import CollectingReporter
from tests.support.gitrepo import GitRepo, have_git

pytestmark = pytest.mark.skipif(not have_git(), reason="git is not installed")

UTC = dt.timezone.utc
BEGAN = dt.datetime(2025, 6, 1, 12, 0, 7, 500_000, tzinfo=UTC)  # 12:00:07.5, an odd second
LATEST = BEGAN + dt.timedelta(minutes=20)
SECOND = 1_000_000_000
BEGAN_NS = int(dt.datetime(2025, 6, 1, 12, 0, 7, tzinfo=UTC).timestamp()) * SECOND + SECOND // 2


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


def set_time(path: Path, moment: dt.datetime) -> None:
    os.utime(path, (moment.timestamp(), moment.timestamp()))


def test_a_file_time_from_the_start_of_the_build_to_now_is_the_builds() -> None:
    window = BuildWindow(BEGAN, LATEST)
    assert window.holds(BEGAN_NS + 1)
    assert window.holds(BEGAN_NS + 60 * SECOND)
    assert not window.holds(BEGAN_NS - SECOND // 10 - 1)  # saved before the build began
    # A time past the window is not the build's: it is in the future, said elsewhere.
    assert not window.holds(BEGAN_NS + 30 * 60 * SECOND + 1)


def test_a_file_time_is_compared_at_the_precision_its_file_system_keeps() -> None:
    """A file written just after the build began can carry a time just before it: the
    file system's clock moves by ticks, and some keep whole seconds (ext3, HFS+) or every
    other second (FAT), cut down."""
    window = BuildWindow(BEGAN, LATEST)
    assert window.holds(BEGAN_NS - 5_000_000)  # a clock tick behind: 5 ms
    assert window.holds(BEGAN_NS - SECOND // 2)  # 12:00:07, the second the build began in
    assert window.holds(BEGAN_NS - 3 * SECOND // 2)  # 12:00:06, FAT's step holding 07.5
    assert not window.holds(BEGAN_NS - 5 * SECOND // 2)  # 12:00:05: before
    assert not window.holds(BEGAN_NS - 7 * SECOND // 2)  # 12:00:04: before, even for FAT
    assert not window.holds(BEGAN_NS - SECOND // 2 - 1)  # 12:00:06.999999999: before


def test_lookup_leaves_a_file_the_build_wrote_undated_and_dates_an_earlier_edit(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    git_repo.write("docs/page.md", "# Page\n")
    git_repo.write("docs/edited.md", "# Edited\n")
    git_repo.commit("pages", "2024-01-10T09:00:00+00:00")
    edited = git_repo.write("docs/edited.md", "# Edited\n\nNot committed.\n")
    generated = git_repo.write("docs/generated.md", "# Generated\n")
    changed = git_repo.write("docs/page.md", "# Page\n\nRewritten by the build.\n")
    began = dt.datetime.now(UTC) - dt.timedelta(seconds=30)
    saved = (began - dt.timedelta(minutes=5)).replace(microsecond=0)
    set_time(edited, saved)
    files = [edited, generated, changed]
    dates = FileDates(CollectingReporter(), cache_dir=tmp_path / "cache")
    found = dates.lookup(files, within=files, built=BuildWindow(began, dt.datetime.now(UTC)))
    assert found.dates == {edited: (saved, "mtime")}
    assert {path: item.reason for path, item in found.undated.items()} == {
        generated: Why.WRITTEN_BY_BUILD,
        changed: Why.WRITTEN_BY_BUILD,  # tracked, but changed by the build
    }
    # generate runs after the build and knows no window: every file time dates, as before.
    assert set(dates.lookup(files, within=files).dates) == set(files)


def test_a_later_build_finds_the_file_as_a_build_left_it_and_leaves_it_undated(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """sphinx-autoapi leaves a page it wrote as it is when its text is the same: the next
    build (another process, the record read back from the cache folder) still knows it for a
    build's. Edited since, its new time dates it; committed, git does."""
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.commit("home", "2024-01-10T09:00:00+00:00")
    generated = git_repo.write("docs/generated.md", "# Generated\n")
    cache = tmp_path / "cache"
    now = dt.datetime.now(UTC)
    first = FileDates(CollectingReporter(), cache_dir=cache)
    window = BuildWindow(now - dt.timedelta(seconds=30), now)
    assert first.lookup([generated], built=window).undated[generated].reason is Why.WRITTEN_BY_BUILD

    later = dt.datetime.now(UTC) + dt.timedelta(hours=1)  # as if an hour had passed
    next_window = BuildWindow(later, later + dt.timedelta(minutes=10))
    again = FileDates(CollectingReporter(), cache_dir=cache)
    assert again.lookup([generated], built=next_window).undated[generated].reason is (
        Why.WRITTEN_BY_BUILD
    )
    assert (
        generated
        not in FileDates(CollectingReporter()).lookup([generated], built=next_window).undated
    )  # no cache folder: nothing known of an earlier build

    hand = now - dt.timedelta(minutes=1)
    set_time(generated, hand)  # edited by hand since
    edited = FileDates(CollectingReporter(), cache_dir=cache).lookup([generated], built=next_window)
    assert edited.dates[generated] == (hand.replace(microsecond=0), "mtime")
    git_repo.commit("keep it", "2024-02-01T00:00:00+00:00", "docs/generated.md")
    committed = FileDates(CollectingReporter(), cache_dir=cache).lookup(
        [generated], built=next_window
    )
    assert committed.dates[generated][1] == "git"


def test_a_file_the_build_wrote_has_no_date_with_source_date_epoch_nor_without_git(
    git_repo: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``SOURCE_DATE_EPOCH`` caps a file time; it does not make the build's own one a change.
    Without git (``lastmod_sources`` without it) file times are asked for, but not this one."""
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.commit("home", "2024-01-10T09:00:00+00:00")
    generated = git_repo.write("docs/generated.md", "# Generated\n")
    now = dt.datetime.now(UTC)
    window = BuildWindow(now - dt.timedelta(seconds=30), now)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    dates = FileDates(CollectingReporter())
    assert dates.lookup([generated], built=window).undated[generated].reason is (
        Why.WRITTEN_BY_BUILD
    )
    without_git = dates.lookup([generated], use_git=False, built=window)
    assert without_git.undated[generated].reason is Why.WRITTEN_BY_BUILD
    assert dates.lookup([generated], use_git=False).dates[generated][1] == "mtime"
