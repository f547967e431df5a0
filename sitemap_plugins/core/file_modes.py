"""The mode of a file renamed over another, so that a web server reads it as it reads the pages.

A new file is created with ``0o666`` and the umask decides (see :class:`.publish.TempFile`), as
for every page the host writes. A file written again is different: hosts write their pages over
the old ones in place, which keeps each page's mode and group whatever the umask of the build
that writes it now, while a file we publish is renamed over the old one and would take the new
umask and the build user's group. A site rebuilt under a stricter umask than its first build (a
cron job, a service with ``UMask=0077``), or whose files the owner gave the web server's group
(``chgrp www-data``, mode ``0640``), then served every page and answered 403 for its sitemap.
"""

from __future__ import annotations

import os
import stat
from typing import NamedTuple

__all__ = ["Kept", "give", "keep_mode", "kept_of"]


class Kept(NamedTuple):
    """What a file written again keeps of the one it replaces: its permission bits and group."""

    mode: int
    group: int


def kept_of(path: os.PathLike[str]) -> Kept | None:
    """What the regular file at ``path`` would pass on; None when there is none (a symbolic
    link is replaced, not followed). Raises ``OSError`` but for a missing file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return Kept(stat.S_IMODE(info.st_mode), info.st_gid)


def give(temp: os.PathLike[str], kept: Kept) -> None:
    """Give ``temp`` the group and mode ``kept``. Where the group cannot be given (a build
    user outside it), ``temp`` keeps the mode any new file gets: a mode meant for a group the
    file would no longer have could shut out the very reader it was for. Raises ``OSError``
    for a mode that cannot be set."""
    if os.stat(temp).st_gid != kept.group:  # noqa: PTH116 - paths as the callers hold them
        try:
            os.chown(temp, -1, kept.group)
        except OSError:
            return
    os.chmod(temp, kept.mode)  # noqa: PTH101


def keep_mode(temp: os.PathLike[str], final: os.PathLike[str]) -> None:
    """Give ``temp`` what the regular file at ``final``, which it is about to replace, would
    pass on (:func:`give`); nothing when there is none. Raises ``OSError``."""
    kept = kept_of(final)
    if kept is not None:
        give(temp, kept)
