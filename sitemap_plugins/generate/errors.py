"""What stops ``generate`` before anything is written: one line naming the file and the problem.

:class:`InputError` is input that cannot be read (a missing folder, a URL list that is not a
file, a config file that is not TOML); :class:`UsageError` is a request that does not make sense
(no base URL, an option value the schema refuses). Both are exit status 2 on the command line.
"""

from __future__ import annotations

__all__ = ["GenerateError", "InputError", "UsageError"]


class GenerateError(Exception):
    """Stops ``generate``; ``str()`` is one line fit for the terminal."""


class InputError(GenerateError):
    """A file or folder ``generate`` was asked to read cannot be read."""


class UsageError(GenerateError):
    """The options given do not make a sitemap possible."""
