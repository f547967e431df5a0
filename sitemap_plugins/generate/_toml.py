"""TOML files, read with the standard library's ``tomllib`` (Python 3.11+) or ``tomli`` (3.10).

``tomli`` is the library ``tomllib`` was made from, with the same API; the package depends on
it only where ``tomllib`` is missing (``tomli; python_version < "3.11"`` in ``pyproject.toml``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from sitemap_plugins.generate.errors import InputError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on Python 3.10 only
    import tomli as tomllib

__all__ = ["load_toml", "parse_toml"]


def load_toml(path: Path) -> dict[str, Any]:
    """The document in ``path``; an unreadable file or bad TOML is one :class:`InputError`."""
    try:
        with open(path, "rb") as stream:
            return tomllib.load(stream)
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(f"{path}: not valid TOML: {error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not valid TOML: not UTF-8 text") from None


def parse_toml(text: str) -> dict[str, Any]:
    """The document ``text`` holds; bad TOML is tomllib's own :class:`ValueError`."""
    return tomllib.loads(text)
