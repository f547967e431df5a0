"""Whether a file can be replaced by renaming another over it, known before trying.

Publishing puts its files in place one rename after another: the shards, the entry points
(``sitemap.xml``, then ``sitemap.xml.gz``; a text or news sitemap), the page for humans,
``robots.txt``, the IndexNow key file. A rename refused half-way would leave a failed build
with part of its set published: a new ``sitemap.xml`` beside the old ``sitemap.xml.gz``, a new
sitemap beside the ``robots.txt`` that still names the old one. So each rename that replaces a
file is asked about before the first one is made (:meth:`.publish.Publication.commit`).

Trying is the one exact proof, and it costs a second copy of every file (copied over itself,
up to 50 MB for a sitemap at the protocol's limit). Asking costs a ``stat``: a rename over an
existing file needs what removing that file needs, and the kernel checks, on Linux as on the
BSDs and macOS,

- write and search permission on the folder: shown already, since the new file was written
  there under its temporary name;
- in a folder with the sticky bit (a shared web root, ``/var/www`` in mode ``1777``), that
  the process owns the file or the folder, or may act as any owner (root's ``CAP_FOWNER``);
- that the file is neither immutable nor append-only (``chattr +i``, ``+a``; the ``uchg``,
  ``schg``, ``uappnd``, ``sappnd`` and ``nounlink`` flags on the BSDs and macOS), which not
  even root may replace.

On Windows, a file with the read-only attribute is not replaced either. A file written over
in place (opened for writing, as Sphinx and Pelican write the page for humans) needs instead
write permission on itself, the same flags, and, on Linux with ``fs.protected_regular`` on,
not to be another user's in a sticky folder others may write. What no ``stat`` shows is left
to the write itself, which then still fails as one named error: a security module's policy
(SELinux, AppArmor), a file that is a mount point, a file another program holds open on Windows.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
from pathlib import Path
from typing import Final

if sys.platform != "win32":
    import fcntl

__all__ = ["refusal"]

_CAP_FOWNER: Final = 3
# The flags that refuse a rename or a write, by what each system calls them: each has its own
# numbers (Linux's 0x20, append-only, is a compressed file on macOS).
_LINUX_FLAGS: Final = {0x10: "immutable", 0x20: "append-only"}  # FS_IMMUTABLE_FL, FS_APPEND_FL
_BSD_FLAGS: Final = {
    stat.UF_IMMUTABLE | stat.SF_IMMUTABLE: "immutable",
    stat.UF_APPEND | stat.SF_APPEND: "append-only",
    stat.UF_NOUNLINK | stat.SF_NOUNLINK: "nounlink",
}


def refusal(path: Path, *, in_place: bool = False) -> str | None:
    """Why renaming a file over ``path`` would be refused (with ``in_place``: opening it to
    write it over), worded as the error it would give followed by its reason; None where it
    would not be, where nothing is there to replace (a new name needs only the folder), or
    where nothing can be told from here (the write then tells). Raises ``OSError`` when
    ``path`` cannot even be looked at."""
    try:
        info = path.stat() if in_place else path.lstat()  # a write follows a symbolic link
    except FileNotFoundError:
        return None
    denied = os.strerror(errno.EPERM)
    if not in_place and _sticky_and_not_ours(path, info):
        return f"{denied} (another user's file, in a folder with the sticky bit)"
    flags = _flags(path, info)
    for flag in ("immutable", "append-only"):
        if flag in flags:
            return f"{denied} (the file is {flag})"
    if in_place:
        if _protected_regular(path, info):
            return (
                f"{os.strerror(errno.EACCES)} (another user's file, in a folder others may write "
                "with the sticky bit, which Linux's fs.protected_regular keeps even root from "
                "opening to write)"
            )
        effective = os.access in os.supports_effective_ids  # a setuid program's own rights
        if not os.access(path, os.W_OK, effective_ids=effective):
            return f"{os.strerror(errno.EACCES)} (the file is not writable)"
        return None
    if "nounlink" in flags:
        return f"{denied} (the file may not be removed)"
    if getattr(info, "st_file_attributes", 0) & getattr(stat, "FILE_ATTRIBUTE_READONLY", 0):
        return f"{os.strerror(errno.EACCES)} (the file is read-only)"
    return None


def _sticky_and_not_ours(path: Path, info: os.stat_result) -> bool:
    """Whether the sticky bit of ``path``'s folder keeps this process from removing it."""
    if not hasattr(os, "geteuid"):
        return False  # Windows: no sticky bit
    folder = path.parent.stat()
    if not folder.st_mode & stat.S_ISVTX:
        return False
    me = os.geteuid()
    return me not in (info.st_uid, folder.st_uid) and not _acts_as_any_owner()


def _protected_regular(path: Path, info: os.stat_result, level: int | None = None) -> bool:
    """Whether Linux's ``fs.protected_regular`` refuses opening ``path`` to write it over.

    Every host opens a page it writes with ``O_CREAT`` (Python's ``open(path, "w")``), and
    with the sysctl at 1 (systemd's default since 2019) the kernel refuses that, to root too,
    for a file in a sticky folder that others may write, owned neither by the process nor by
    the folder's owner; at 2 also where only the folder's group may write. ``level`` is the
    sysctl's value, read from ``/proc`` when not given (0 where it cannot be read)."""
    if not hasattr(os, "geteuid") or not stat.S_ISREG(info.st_mode):
        return False
    if level is None:
        level = _sysctl_level("/proc/sys/fs/protected_regular")
    if level < 1:
        return False
    folder = Path(os.path.realpath(path)).parent.stat()  # the folder of the file opened
    if not folder.st_mode & stat.S_ISVTX or info.st_uid in (folder.st_uid, os.geteuid()):
        return False
    return bool(folder.st_mode & stat.S_IWOTH or (level >= 2 and folder.st_mode & stat.S_IWGRP))


def _sysctl_level(path: str) -> int:
    try:
        with open(path, encoding="ascii") as value:
            return int(value.read().strip() or 0)
    except (OSError, ValueError):
        return 0


def _acts_as_any_owner() -> bool:
    """Whether this process holds ``CAP_FOWNER``, which the sticky bit yields to: root does,
    but root in a container may have been given fewer capabilities, and a program that is not
    root may have been given this one. Where Linux's ``/proc`` does not say, root is taken to."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("CapEff:"):
                    return bool(int(line.split()[1], 16) >> _CAP_FOWNER & 1)
    except (OSError, ValueError, IndexError):
        pass
    return os.geteuid() == 0


def _flags(path: Path, info: os.stat_result) -> set[str]:
    """The file's flags that refuse a rename or a write: in ``st_flags`` on the BSDs and
    macOS; on Linux asked of the file system (what ``lsattr`` does), for a regular file this
    process may open; else none known. A symbolic link, which the rename replaces itself,
    carries none on Linux."""
    bsd = getattr(info, "st_flags", None)
    if bsd is not None:
        return {name for mask, name in _BSD_FLAGS.items() if bsd & mask}
    if not sys.platform.startswith("linux") or not stat.S_ISREG(info.st_mode):
        return set()
    how = os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC  # a link: its file's flags
    try:
        fd = os.open(path, how)
    except OSError:
        return set()  # not readable by this process: the rename will tell
    try:
        answer = fcntl.ioctl(fd, _fs_ioc_getflags(), bytes(8))
    except OSError:
        return set()  # a file system without these flags (NFS, most FUSE file systems)
    finally:
        os.close(fd)
    value = int.from_bytes(answer[:4], sys.byteorder)  # the kernel writes an int
    return {name for mask, name in _LINUX_FLAGS.items() if value & mask}


def _fs_ioc_getflags() -> int:
    """Linux's ``FS_IOC_GETFLAGS``, ``_IOR('f', 1, long)``: the size of a ``long`` is in the
    number, and Alpha, MIPS, PowerPC and SPARC place the direction bits apart."""
    size = 8 if sys.maxsize > 2**32 else 4
    read = 2 << 29 if os.uname().machine.startswith(("alpha", "mips", "ppc", "sparc")) else 2 << 30
    return read | size << 16 | ord("f") << 8 | 1
