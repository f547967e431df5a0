"""What one build keeps of a file for the next (core/file_memo.py): kept while the file stays as
it was, and never a value the build could no longer vouch for."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from sitemap_plugins.core import file_memo
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
