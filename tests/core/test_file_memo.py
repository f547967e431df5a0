"""What one build keeps of a file for the next (core/file_memo.py): kept while the file stays as
it was, and never a value the build could no longer vouch for."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sitemap_plugins.core import file_memo
from sitemap_plugins.core.cache_file import KEPT_PER_KIND
from sitemap_plugins.core.file_memo import FileMemo
from tests.support.older_caches import as_an_older_release_wrote_it

AN_HOUR_AGO = time.time_ns() - 3_600_000_000_000


def settled_file(tmp_path: Path, text: str = "text") -> str:
    path = tmp_path / "docs" / "page.md"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, ns=(AN_HOUR_AGO, AN_HOUR_AGO))
    return str(path)


def build(tmp_path: Path, format_number: int = 1) -> FileMemo:
    """The memo as one build opens it; ``format_number``: its kind's values' format."""
    return FileMemo(tmp_path / "cache", "sources", str(tmp_path / "docs"), format_number)


def kept_by_a_build(tmp_path: Path, value: list[str]) -> tuple[str, tuple[int, int]]:
    """A settled file, and its stamp, for which one build kept ``value``."""
    name = settled_file(tmp_path)
    first = build(tmp_path)
    stamp, _ = first.recall(name)
    assert stamp is not None
    first.remember(name, stamp, value)
    first.save()
    return name, stamp


def test_a_value_is_kept_while_the_file_stays_as_it_was(tmp_path: Path) -> None:
    name = settled_file(tmp_path)
    first = build(tmp_path)
    stamp, known = first.recall(name)
    assert stamp is not None
    assert known is None
    first.remember(name, stamp, ["value"])
    first.save()
    assert build(tmp_path).recall(name) == (stamp, ["value"])
    os.utime(name, ns=(AN_HOUR_AGO + 1, AN_HOUR_AGO + 1))
    assert build(tmp_path).recall(name)[1] is None


def test_a_forgotten_value_is_not_there_for_the_next_build(tmp_path: Path) -> None:
    name, stamp = kept_by_a_build(tmp_path, ["old"])
    second = build(tmp_path)
    assert second.recall(name)[1] == ["old"]
    second.forget(name)  # the file as it is says something that cannot be kept
    second.save()
    assert build(tmp_path).recall(name) == (stamp, None)


def test_a_file_too_fresh_to_vouch_for_keeps_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file changed within the last 50 ms may change again unseen: a new value for it is not
    kept, and neither is one kept earlier for the same size and time (a clock set back)."""
    name, stamp = kept_by_a_build(tmp_path, ["old"])
    monkeypatch.setattr(file_memo.time, "time_ns", lambda: AN_HOUR_AGO)
    second = build(tmp_path)
    assert second.recall(name)[1] == ["old"]
    second.remember(name, stamp, ["new"])
    second.save()
    monkeypatch.undo()
    assert build(tmp_path).recall(name) == (stamp, None)


def test_a_memo_of_another_format_or_release_is_not_used(tmp_path: Path) -> None:
    """What a kind keeps is decided by its module (how a page's head is read, what is kept of a
    source): values kept in another format of the kind, or by another release of the package,
    which may have decided otherwise for a file that is as it was, are read again."""
    name, stamp = kept_by_a_build(tmp_path, ["listed"])
    assert build(tmp_path).recall(name) == (stamp, ["listed"])
    assert build(tmp_path, format_number=2).recall(name) == (stamp, None)
    [memo] = (tmp_path / "cache").glob("sources-*.json")
    as_an_older_release_wrote_it(memo, lambda data: None)
    assert build(tmp_path).recall(name) == (stamp, None)


def test_a_folder_keeps_the_memos_of_one_kind_written_last(tmp_path: Path) -> None:
    """One memo per output folder, and `mkdocs serve` builds into a new temporary folder each
    time it starts: the cache folder keeps the memos written last, not one for each of them."""
    name = settled_file(tmp_path)
    scopes = [str(tmp_path / f"site-{n}") for n in range(KEPT_PER_KIND + 3)]
    other = FileMemo(tmp_path / "cache", "sources", str(tmp_path / "docs"), 1)
    stamp, _ = other.recall(name)
    assert stamp is not None
    other.remember(name, stamp, ["another kind"])
    other.save()
    for n, scope in enumerate(scopes):
        memo = FileMemo(tmp_path / "cache", "pages", scope, 1)
        memo.recall(name)
        memo.remember(name, stamp, [scope])
        memo.save()
        for written in (tmp_path / "cache").glob("pages-*.json"):  # older ones, in order
            if written.stat().st_mtime_ns > AN_HOUR_AGO + n:
                os.utime(written, ns=(AN_HOUR_AGO + n, AN_HOUR_AGO + n))
    assert len(list((tmp_path / "cache").glob("pages-*.json"))) == KEPT_PER_KIND
    for scope in scopes[-KEPT_PER_KIND:]:  # the last ones still answer
        assert FileMemo(tmp_path / "cache", "pages", scope, 1).recall(name) == (stamp, [scope])
    assert FileMemo(tmp_path / "cache", "pages", scopes[0], 1).recall(name)[1] is None
    assert build(tmp_path).recall(name) == (stamp, ["another kind"])  # another kind stays
