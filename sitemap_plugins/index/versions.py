"""Which folder is which version: mike's ``versions.json``, and choosing versions by name.

mike deploys each version of a MkDocs site into a folder named after it (``1.0/``, ``2.0/``) and
each alias into a folder of its own (``latest/``): a symbolic link to the version's folder, a copy
of it, or redirect pages, as ``alias_type`` says. ``versions.json`` at the root lists every
version with its aliases. A sitemap index lists each version once, at the folder its URLs belong
to; the aliases only help choose (``--only latest``).
"""

from __future__ import annotations

import fnmatch
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path


class VersionsError(ValueError):
    """``versions.json`` cannot be read, or is not mike's list of versions."""


class OtherToolsVersions(VersionsError):
    """``versions.json`` is another tool's (sphinx-polyversion writes one): no entry of it has
    mike's ``version``, so it is no damaged list of mike's either."""


@dataclass(frozen=True, slots=True)
class Version:
    """One entry of ``versions.json``: the version's folder name and its aliases."""

    name: str
    aliases: tuple[str, ...] = ()


def read_versions(path: Path) -> tuple[Version, ...]:
    """The versions listed in mike's ``versions.json``; raises :class:`VersionsError`."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise VersionsError(f"cannot be read: {error.strerror or error}") from None
    except ValueError as error:
        raise VersionsError(f"is not JSON ({error})") from None
    shape = 'a list of {"version": ..., "aliases": [...]} objects, as mike writes it'
    if not isinstance(data, list) or (
        data and not any(isinstance(item, dict) and "version" in item for item in data)
    ):
        raise OtherToolsVersions(f"is not {shape}")
    versions = []
    for item in data:
        if not isinstance(item, dict) or not isinstance(item.get("version"), str):
            raise VersionsError(f"is not {shape}")
        aliases = item.get("aliases", [])
        if not isinstance(aliases, list) or not all(isinstance(a, str) for a in aliases):
            raise VersionsError(f"is not {shape}")
        versions.append(Version(item["version"], tuple(aliases)))
    return tuple(versions)


def names_of(folder: str, versions: Sequence[Version]) -> tuple[str, ...]:
    """Every name a sitemap in ``folder`` (relative, POSIX) answers to for ``--only``.

    The folder's path (``en/latest``), each of its segments (``en``, ``latest``), and, for a
    folder that ``versions.json`` names, the version and all its aliases, whichever of them the
    folder is named after.
    """
    parts = [part for part in folder.split("/") if part]
    names = [folder, *parts] if parts else [""]
    if parts:
        for version in versions:
            if parts[0] == version.name or parts[0] in version.aliases:
                names += [version.name, *version.aliases]
    return tuple(dict.fromkeys(names))


def matches(names: Iterable[str], patterns: Iterable[str]) -> list[str]:
    """The patterns (globs, ``fnmatch`` rules, case-sensitive) that any of ``names`` matches."""
    listed = list(names)
    return [p for p in patterns if any(fnmatch.fnmatchcase(name, p) for name in listed)]


def alias_of(folder: str, versions: Sequence[Version]) -> Version | None:
    """The version whose alias ``folder``'s first segment is, per ``versions.json``."""
    top = folder.split("/", 1)[0]
    for version in versions:
        if top in version.aliases and top != version.name:
            return version
    return None
