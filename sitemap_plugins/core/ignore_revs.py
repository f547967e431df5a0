"""The commits a project leaves out of dates, as its options and its ignore-revs file name them.

A mass reformat or a licence-header sweep touches every file without changing what a page
says; projects already keep such commits in a ``.git-blame-ignore-revs`` file (git's
``blame.ignoreRevsFile``), which mkdocs-git-revision-date-localized-plugin reads as its
``ignored_commits_file``, and sphinx-last-updated-by-git takes them as ``git_exclude_commits``.
The same list, read the same way, keeps the dates a site had under those plugins.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path
from typing import Final

__all__ = [
    "COMMIT_ID",
    "borrowed_commit_ids",
    "check_commit_ids",
    "read_borrowed_ignore_revs",
    "read_ignore_revs",
]

COMMIT_ID: Final = "a commit id of 4 to 64 hex digits (matched as the start of the full id)"
_HEX: Final = re.compile(r"[0-9a-fA-F]{4,64}")


def check_commit_ids(value: object) -> tuple[str, ...]:
    """A list of commit ids, lowered: an abbreviated one matches every commit it starts."""
    allowed = "a list of commit ids, each " + COMMIT_ID
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise ValueError(allowed)
    ids = list(value)
    if any(isinstance(one, int) and not isinstance(one, bool) for one in ids):
        # YAML and TOML read an unquoted id of digits alone as a number, 0123456 as 42798.
        raise ValueError(allowed + ", in quotes where it is digits alone ('1494996')")
    if not all(isinstance(one, str) and _HEX.fullmatch(one.strip()) for one in ids):
        raise ValueError(allowed)
    return _as_listed(ids)


def _as_listed(ids: Iterable[str]) -> tuple[str, ...]:
    """Commit ids as every list of them is kept and compared: once each, lowered, sorted."""
    return tuple(sorted({one.strip().lower() for one in ids}))


def borrowed_commit_ids(value: object) -> tuple[str, ...]:
    """Another plugin's list of commits (sphinx-last-updated-by-git's ``git_exclude_commits``),
    read as that plugin matches it: an entry that is no commit id matches no commit there and
    is left out here, rather than stopping a build that plugin lets through."""
    if isinstance(value, str) or not isinstance(value, Iterable):
        return ()
    return _as_listed(one for one in value if isinstance(one, str) and _HEX.fullmatch(one.strip()))


def read_borrowed_ignore_revs(path: Path) -> tuple[str, ...]:
    """Another plugin's ignore-revs file (git-revision-date-localized's
    ``ignored_commits_file``), read as that plugin reads it: one that cannot be read names no
    commit (that plugin reports it, and builds), a line that is no commit id matches none."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return ()
    return borrowed_commit_ids(line.partition("#")[0] for line in text.splitlines())


def read_ignore_revs(path: Path) -> tuple[str, ...]:
    """The ids a file in ``.git-blame-ignore-revs``' format names: one a line, ``#`` starting a
    comment, blank lines skipped (as git reads it). Raises :class:`ValueError` saying what is
    wrong with the file, naming the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ValueError(f"an existing file ({path} is not there)") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"a readable UTF-8 file ({path}: {error})") from None
    ids = []
    for number, line in enumerate(text.splitlines(), 1):
        entry = line.partition("#")[0].strip()
        if not entry:
            continue
        if not _HEX.fullmatch(entry):
            raise ValueError(
                f"a file of commit ids ({path}, line {number}: {entry!r} is not {COMMIT_ID})"
            )
        ids.append(entry)
    return _as_listed(ids)
