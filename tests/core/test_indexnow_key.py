"""The ``indexnow_key`` option: the key file engines fetch, written with the sitemaps."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from sitemap_plugins.core import CollectingReporter, OptionError, Options, Page, SitemapBuilder
from sitemap_plugins.core.indexnow import check_key, masked
from tests.support.publishing import expected_mode, umask

KEY = "a1b2c3d4-e5f6"
BASE = "https://example.org/"


def build(folder: Path, **options: object) -> None:
    settings = {"base_url": BASE, "lastmod_sources": [], **options}
    builder = SitemapBuilder(Options.from_mapping(settings), CollectingReporter())
    pages = [Page(path="docs/", origin="index.md"), Page(path="docs/a/", origin="a.md")]
    assert builder.build(pages, folder).urls == 2


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_the_key_file_is_written_at_the_root_with_the_umask_mode(tmp_path: Path, mask: int) -> None:
    with umask(mask):
        build(tmp_path, indexnow_key=KEY, filename="docs/sitemap.xml")
    key_file = tmp_path / f"{KEY}.txt"
    assert key_file.read_bytes() == KEY.encode()
    assert stat.S_IMODE(key_file.stat().st_mode) == expected_mode(mask)
    assert (tmp_path / "docs" / "sitemap.xml").is_file()
    assert not [p.name for p in tmp_path.rglob(".sitemap-plugins-*.tmp")]


def test_the_key_file_is_not_recorded_so_no_build_removes_it(tmp_path: Path) -> None:
    build(tmp_path, indexnow_key=KEY)
    record = json.loads((tmp_path / ".sitemap-plugins.json").read_text())
    assert f"{KEY}.txt" not in record["files"]
    build(tmp_path)  # the option turned off: the file stays, a user may ship it too
    assert (tmp_path / f"{KEY}.txt").read_bytes() == KEY.encode()


def test_a_key_file_already_right_is_left_untouched(tmp_path: Path) -> None:
    key_file = tmp_path / f"{KEY}.txt"
    key_file.write_bytes(KEY.encode())
    key_file.chmod(0o600)
    build(tmp_path, indexnow_key=KEY)
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


@pytest.mark.parametrize(
    "value",
    # A key pasted into a CI secret with its line end: "$" in a pattern matches before a
    # final newline, and the file written would be named "KEY\n.txt".
    ["short", "x" * 129, "has space-1234", "under_score1", KEY + "\n", KEY + "\r\n"],
)
def test_a_key_the_protocol_does_not_allow_fails_at_config_time(value: str) -> None:
    with pytest.raises(OptionError, match=r"option 'indexnow_key'.*allowed: 8 to 128 characters"):
        Options.from_mapping({"indexnow_key": value})


def test_a_refused_key_is_shown_masked_too() -> None:
    with pytest.raises(OptionError) as caught:
        Options.from_mapping({"indexnow_key": "a1b2c3d4_e5f6"})  # one character off a key
    assert "'a1b2*********'" in str(caught.value)
    assert "c3d4" not in str(caught.value)


def test_check_key_takes_the_whole_value() -> None:
    assert check_key(KEY) == KEY
    for value in (KEY + "\n", "\n" + KEY, KEY + " "):
        with pytest.raises(ValueError, match="8 to 128 characters") as caught:
            check_key(value)
        assert KEY not in str(caught.value)


def test_messages_show_the_key_masked() -> None:
    assert masked(KEY) == "a1b2*********"
    assert KEY not in masked(KEY)
