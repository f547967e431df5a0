"""The mode of a file renamed over another, so that a web server reads it as it reads the pages.

A new file is created with ``0o666`` and the umask decides (see :class:`.publish.TempFile`), as
for every page the host writes. A file written again is different: hosts write their pages over
the old ones in place, which keeps each page's mode whatever the umask of the build that writes
it now, while a file we publish is renamed over the old one and would take the new umask. A site
rebuilt under a stricter umask than its first build (a cron job, a service with ``UMask=0077``)
then served every page and answered 403 for its sitemap alone.
"""

from __future__ import annotations

import os
import stat

__all__ = ["keep_mode", "regular_mode"]


def regular_mode(path: os.PathLike[str]) -> int | None:
    """The permission bits of the regular file at ``path``; None when there is none (a
    symbolic link is replaced, not followed). Raises ``OSError`` but for a missing file."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(info.st_mode) if stat.S_ISREG(info.st_mode) else None


def keep_mode(temp: os.PathLike[str], final: os.PathLike[str]) -> None:
    """Give ``temp`` the mode of the regular file at ``final``, which it is about to replace;
    nothing when there is none. Raises ``OSError``."""
    mode = regular_mode(final)
    if mode is not None:
        os.chmod(temp, mode)  # noqa: PTH101 - paths as the callers hold them
