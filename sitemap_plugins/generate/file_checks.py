"""Whether a file is there, asked of a site whose folders the run may not all enter.

``Path.is_file`` answers False for a missing file, but raises ``PermissionError`` for one in
a folder the user may not search (Python before 3.14): a site built by another user under umask
077 stopped ``generate`` with a traceback. A file that cannot be looked at is taken as absent;
the walk of the site names each folder it cannot read.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["is_file"]


def is_file(path: Path) -> bool:
    """Whether ``path`` is a file (or a link to one) this process can see."""
    try:
        return path.is_file()
    except OSError:
        return False
