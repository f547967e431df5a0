"""Checks for what publishing promises: readable, whole, never a user's file, never a trace.

Used by the core's writer tests and by every host's publishing tests, on real folders written by
real builds. The hostile conditions themselves (a kill between two steps, a full disk, a
read-only folder) are set up in the child build by :mod:`tests.support.steps`.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import os
import shutil
import subprocess
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from pathlib import Path
from urllib.parse import unquote, urlsplit

from tests.support.sitemap_checks import SITEMAP_NS
from tests.support.steps import FILLER, make_read_only

__all__ = [
    "FILLER",
    "RECORD",
    "REFUSED_AS_IMMUTABLE",
    "TEMPORARY",
    "expected_mode",
    "files_of",
    "make_unreplaceable",
    "make_writable",
    "mount_tmpfs",
    "published_set",
    "read_only_unavailable",
    "recorded_files",
    "snapshot",
    "temporary_files",
    "umask",
    "unmount",
    "whole_set_problems",
]

RECORD = ".sitemap-plugins.json"
TEMPORARY = (".sitemap-plugins-", ".sitemap-plugins.json.")
"""Name starts of the temporary files publishing makes (none may outlive the next build)."""
REFUSED_AS_IMMUTABLE = f"{os.strerror(errno.EPERM)} (the file is immutable)"
"""Why publishing refuses to replace a file :func:`make_unreplaceable` made: the error a
rename over it gives, and the reason."""


@contextlib.contextmanager
def umask(mask: int) -> Iterator[None]:
    """Set the process umask for a build (child processes inherit it), then restore it."""
    previous = os.umask(mask)
    try:
        yield
    finally:
        os.umask(previous)


def expected_mode(mask: int) -> int:
    """The mode an ordinary ``open(path, "w")`` gives a new file under ``mask``."""
    return 0o666 & ~mask


def files_of(folder: Path) -> list[str]:
    """Every file under ``folder``, as sorted POSIX paths relative to it."""
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` with its bytes."""
    return {name: (folder / name).read_bytes() for name in files_of(folder)}


def temporary_files(folder: Path) -> list[str]:
    """Temporary files of publishing found anywhere under ``folder``."""
    return [name for name in files_of(folder) if Path(name).name.startswith(TEMPORARY)]


def recorded_files(folder: Path) -> set[str]:
    """The files the record in ``folder`` says were published."""
    import json

    record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    return set(record["files"])


def record_as_older_releases_wrote_it(folder: Path, record: str = RECORD) -> None:
    """Rewrite the record in ``folder`` as releases before it kept its robots.txt lines wrote
    it (the format of 662e80b's ``_write_record``): the same files, no ``robots_txt`` key."""
    import json

    path = folder / record
    files = json.loads(path.read_text(encoding="utf-8"))["files"]
    older = {
        "about": "sitemap files published here by sitemap-plugins; it removes only these, "
        "and only while their bytes are unchanged",
        "version": 1,
        "files": {
            name: {"size": about["size"], "sha256": about["sha256"], "entry": about["entry"]}
            for name, about in sorted(files.items())
        },
        "temporary": [],
    }
    path.write_bytes((json.dumps(older, indent=1) + "\n").encode("utf-8"))


def _children(folder: Path, entry: str) -> list[str]:
    """The files an index lists (relative to ``folder``), or [] for a urlset or a text file."""
    path = folder / entry
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if b"<sitemapindex" not in data[:2048]:
        return []
    base = entry.rpartition("/")[0]
    # Read the locs only: right after a kill between renaming sitemap.xml and sitemap.xml.gz the
    # two twins are whole but from two builds, which the full checks (validate) rightly flag.
    locs = [loc.text or "" for loc in ET.fromstring(data).iter(f"{{{SITEMAP_NS}}}loc")]
    names = [unquote(urlsplit(loc.strip()).path.rpartition("/")[2]) for loc in locs]
    return [f"{base}/{name}" if base else name for name in names]


def published_set(folder: Path, entry: str) -> dict[str, bytes]:
    """The entry point and every file it lists, with their bytes; fails on a missing child."""
    files = {entry: (folder / entry).read_bytes()}
    for child in _children(folder, entry):
        assert (folder / child).is_file(), f"{entry} lists {child}, which does not exist"
        files[child] = (folder / child).read_bytes()
    return files


def whole_set_problems(
    folder: Path, entries: list[str], builds: Mapping[str, Mapping[str, bytes]]
) -> list[str]:
    """What a reader would find wrong: for each entry point, it and every file it lists must be
    exactly as one of ``builds`` (name -> that build's files) wrote them."""
    problems = []
    for entry in entries:
        if not (folder / entry).is_file():
            problems.append(f"{entry} is missing")
            continue
        try:
            found = published_set(folder, entry)
        except AssertionError as error:
            problems.append(str(error))
            continue
        owners = [
            name
            for name, files in builds.items()
            if all(files.get(path) == data for path, data in found.items())
        ]
        if not owners:
            problems.append(f"{entry} and the files it lists are not one build's: {sorted(found)}")
    return problems


def mount_tmpfs(target: Path, size: str) -> Path | None:
    """Mount a small tmpfs at ``target`` (made if needed), or return None where the machine does
    not allow it (not root, no mount). Unmount with ``umount`` when done."""
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("mount") is None:
        return None
    target.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(
        [
            "mount",
            "-t",
            "tmpfs",
            "-o",
            f"size={size},mode=0755",
            f"sitemap-{uuid.uuid4().hex}",
            target,
        ],
        capture_output=True,
        check=False,
    )
    return target if done.returncode == 0 else None


def unmount(target: Path) -> None:
    subprocess.run(["umount", str(target)], capture_output=True, check=True)


def read_only_unavailable(folder: Path) -> str | None:
    """Why a read-only folder cannot be made here, or None when it can (see
    :func:`tests.support.steps.make_read_only`; :func:`make_writable` undoes it).

    Permissions do not stop root; the immutable attribute (``chattr +i``) does, where the file
    system supports it. This checks that a folder really refuses a new file before the test
    relies on it.
    """
    probe = folder / ".read-only-probe"
    folder.mkdir(parents=True, exist_ok=True)
    if os.name != "posix":
        return "read-only folders are made with POSIX permissions or chattr"
    if os.geteuid() == 0 and shutil.which("chattr") is None:
        return "running as root, and chattr is not installed to make a folder read-only"
    try:
        make_read_only(folder)
    except (OSError, subprocess.CalledProcessError) as error:
        return f"cannot make a folder read-only here: {error}"
    try:
        probe.write_text("x")
    except OSError:
        return None
    finally:
        make_writable(folder)
    probe.unlink()
    return "a folder made read-only still accepted a new file here"


def make_unreplaceable(path: Path) -> str | None:
    """Make ``path`` a file that a rename cannot replace, whatever its mode (the immutable
    attribute, as root), or say why that cannot be done here; :func:`make_writable` undoes it.
    A file of another user's in a folder with the sticky bit is alike."""
    if os.name != "posix" or os.geteuid() != 0 or shutil.which("chattr") is None:
        return "needs root and chattr to make a file that its folder's owner cannot replace"
    try:
        make_read_only(path)  # chattr +i, as root
    except subprocess.CalledProcessError as error:
        return f"cannot make a file immutable here: {error.stderr.decode().strip()}"
    probe = path.with_name("probe.tmp")
    probe.write_bytes(b"")
    try:
        probe.replace(path)
    except OSError:
        probe.unlink()
        return None
    return "a file made immutable was replaced all the same here"


def make_writable(folder: Path) -> None:
    """Undo :func:`tests.support.steps.make_read_only`."""
    if os.geteuid() == 0 and shutil.which("chattr") is not None:
        subprocess.run(["chattr", "-i", str(folder)], capture_output=True, check=False)
    else:
        folder.chmod(0o755)
