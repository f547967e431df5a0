"""Linux's ``fs.protected_regular``: a page a host writes over in place (Sphinx's and
Pelican's page for humans) is refused before anything is published where the kernel would
refuse opening it, with real files of two owners in a sticky folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sitemap_plugins.core import replaceable
from sitemap_plugins.core.replaceable import refusal

NOBODY = 65534

needs_root = pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() != 0,
    reason="needs root, to give a file to another user",
)


def _others_file(tmp_path: Path, folder_mode: int) -> Path:
    folder = tmp_path / "shared"
    folder.mkdir()
    folder.chmod(folder_mode)
    page = folder / "sitemap.html"
    page.write_text("old page\n", "utf-8")
    page.chmod(0o666)  # writable by anyone: only the sysctl stands in the way
    os.chown(page, NOBODY, NOBODY)
    return page


@needs_root
@pytest.mark.parametrize(
    ("folder_mode", "level", "refused"),
    [
        (0o1777, 0, False),  # the sysctl off
        (0o1777, 1, True),  # /tmp's and a shared web root's mode
        (0o1777, 2, True),
        (0o1775, 1, False),  # only the group may write: level 2 alone protects it
        (0o1775, 2, True),
        (0o0777, 2, False),  # no sticky bit
    ],
)
def test_another_users_file_in_a_shared_sticky_folder_is_refused_by_the_sysctls_rule(
    tmp_path: Path, folder_mode: int, level: int, refused: bool
) -> None:
    page = _others_file(tmp_path, folder_mode)
    assert replaceable._protected_regular(page, page.stat(), level) is refused


@needs_root
def test_the_folders_owner_is_refused_too_and_the_files_owner_is_not(tmp_path: Path) -> None:
    """The kernel spares the file's owner and a file the folder's owner owns, not the folder's
    owner opening another user's file: root owns this folder and is refused all the same."""
    page = _others_file(tmp_path, 0o1777)
    assert replaceable._protected_regular(page, page.stat(), 1)
    os.chown(page, os.geteuid(), os.getegid())
    assert not replaceable._protected_regular(page, page.stat(), 1)


@needs_root
def test_the_kernel_agrees_with_the_refusal_at_this_machines_setting(tmp_path: Path) -> None:
    """What ``refusal`` foresees for a write in place, with the sysctl as this machine has it,
    is what opening the file as every host does gives."""
    page = _others_file(tmp_path, 0o1777)
    foreseen = refusal(page, in_place=True)
    try:
        with open(page, "w", encoding="utf-8") as stream:
            stream.write("new page\n")
        opened = True
    except PermissionError:
        opened = False
    assert opened is (foreseen is None), foreseen
    if foreseen is not None:
        assert "fs.protected_regular" in foreseen
        assert page.read_text("utf-8") == "old page\n"
