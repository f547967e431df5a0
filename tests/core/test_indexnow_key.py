"""The ``indexnow_key`` option: the key file engines fetch, written with the sitemaps."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from sitemap_plugins.core import (
    Code,
    CollectingReporter,
    OptionError,
    Options,
    Page,
    SitemapBuilder,
    StrictError,
)
from sitemap_plugins.core.indexnow import check_key, masked
from tests.support.publishing import expected_mode, umask

KEY = "a1b2c3d4-e5f6"
BASE = "https://example.org/"
PAGES = [Page(path="docs/", origin="index.md"), Page(path="docs/a/", origin="a.md")]


def build(folder: Path, **options: object) -> None:
    settings = {"base_url": BASE, "lastmod_sources": [], **options}
    builder = SitemapBuilder(Options.from_mapping(settings), CollectingReporter())
    assert builder.build(PAGES, folder).urls == 2


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_the_key_file_is_written_at_the_root_with_the_umask_mode(tmp_path: Path, mask: int) -> None:
    with umask(mask):
        build(tmp_path, indexnow_key=KEY, filename="docs/sitemap.xml")
    key_file = tmp_path / f"{KEY}.txt"
    assert key_file.read_bytes() == KEY.encode()
    assert stat.S_IMODE(key_file.stat().st_mode) == expected_mode(mask)
    assert (tmp_path / "docs" / "sitemap.xml").is_file()
    assert not [p.name for p in tmp_path.rglob(".sitemap-plugins-*.tmp")]


def recorded(folder: Path) -> set[str]:
    return set(json.loads((folder / ".sitemap-plugins.json").read_text())["files"])


def test_the_key_file_is_recorded_and_goes_with_its_option_or_key(tmp_path: Path) -> None:
    """Recorded as the sitemap is, so that a later build knows it for ours: another key
    replaces it, and the option turned off removes it, as a sitemap no longer written. The
    site's own file of that name never goes: one already right (the same bytes harm nothing)
    is left unrecorded, and ours, once the host ships the same file itself, becomes the
    site's."""
    build(tmp_path, indexnow_key=KEY)
    assert f"{KEY}.txt" in recorded(tmp_path)
    other = "z9y8x7w6-v5u4"
    build(tmp_path, indexnow_key=other)
    assert not (tmp_path / f"{KEY}.txt").exists()
    assert (tmp_path / f"{other}.txt").read_bytes() == other.encode()
    build(tmp_path)
    assert not (tmp_path / f"{other}.txt").exists()
    assert recorded(tmp_path) == {"sitemap.xml"}

    shipped = tmp_path / "shipped"
    shipped.mkdir()
    (shipped / f"{KEY}.txt").write_bytes(KEY.encode())
    build(shipped, indexnow_key=KEY)
    assert recorded(shipped) == {"sitemap.xml"}
    build(shipped)
    assert (shipped / f"{KEY}.txt").read_bytes() == KEY.encode()

    copied = tmp_path / "copied"
    build(copied, indexnow_key=KEY)
    options = Options.from_mapping({"base_url": BASE, "lastmod_sources": []})
    host_files = {f"{KEY}.txt": f"docs/{KEY}.txt"}  # the host copied it there this build
    SitemapBuilder(options, CollectingReporter()).build(PAGES, copied, host_files=host_files)
    assert (copied / f"{KEY}.txt").read_bytes() == KEY.encode()
    assert recorded(copied) == {"sitemap.xml"}


def test_a_key_file_of_the_sites_own_with_other_bytes_is_kept_with_one_warning(
    tmp_path: Path,
) -> None:
    """It was written over without a word: a user's file of that name (written by hand, with a
    line end) is the site's, kept, and said so, naming it with the key masked; the sitemap is
    written all the same, and strict mode stops the build with nothing written."""
    key_file = tmp_path / f"{KEY}.txt"
    key_file.write_bytes(b"a note of mine\n")
    with pytest.raises(StrictError):
        build(tmp_path, indexnow_key=KEY, strict=True)
    assert sorted(path.name for path in tmp_path.iterdir()) == [key_file.name]
    reporter = CollectingReporter()
    settings = {"base_url": BASE, "lastmod_sources": [], "indexnow_key": KEY}
    SitemapBuilder(Options.from_mapping(settings), reporter).build(PAGES, tmp_path)
    assert key_file.read_bytes() == b"a note of mine\n"
    assert (tmp_path / "sitemap.xml").is_file()
    assert recorded(tmp_path) == {"sitemap.xml"}
    [(code, message)] = reporter.warnings
    assert code is Code.CONFLICT
    assert message.startswith(f"{tmp_path / masked(KEY)}.txt: a file of the site's own ")
    assert message.endswith("remove it from the site, or turn indexnow_key off")
    assert KEY not in message
    build(tmp_path)  # the option turned off: still the site's
    assert key_file.read_bytes() == b"a note of mine\n"


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
