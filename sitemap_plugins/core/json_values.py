"""Metadata values kept in a JSON cache and read back exactly as the host held them.

A page's ``sitemap`` metadata comes from YAML (MkDocs' front matter, Material's ``.meta.yml``
files, other plugins): dates, nested mappings and lists. JSON has no dates, and a list read back
could not say whether it was a list or a tagged date; so every date, list and mapping is kept as
a pair of a tag and its content, and plain scalars as themselves. Anything else (a set, a
mapping with keys that are no text, a plugin's own object, lists and mappings nested deeper than
metadata ever is, or that hold themselves, as YAML's anchors can make) cannot be kept: the
caller then reads the value from where it came from, as it would without a cache.
"""

from __future__ import annotations

import datetime as dt
from typing import Any, Final

__all__ = ["CANNOT_KEEP", "from_json", "to_json"]

CANNOT_KEEP: Final = object()
"""What :func:`to_json` returns for a value that would not come back as it is."""

_SCALARS: Final = (type(None), bool, int, float, str)
_DEPTH: Final = 32
"""Lists and mappings nested deeper than this are not kept: no metadata is, a value that holds
itself is nested without end, and JSON's own reader and writer stop at Python's recursion limit."""


def to_json(value: Any) -> Any:
    """``value`` as JSON values that :func:`from_json` turns back into an equal value of the
    same types, or :data:`CANNOT_KEEP`."""
    return _to_json(value, _DEPTH)


def _to_json(value: Any, depth: int) -> Any:
    """:func:`to_json` of a value that may hold ``depth`` more levels of lists and mappings."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is dt.date:
        return ["date", value.isoformat()]
    if kind is dt.datetime:
        # A fixed offset (what YAML gives) comes back as it was; a named zone would not.
        if value.tzinfo is not None and type(value.tzinfo) is not dt.timezone:
            return CANNOT_KEEP
        return ["datetime", value.isoformat()]
    if (kind is not list and kind is not dict) or depth == 0:
        return CANNOT_KEEP
    if kind is list:
        items = [_to_json(item, depth - 1) for item in value]
        return CANNOT_KEEP if any(item is CANNOT_KEEP for item in items) else ["list", items]
    if not all(type(key) is str for key in value):
        return CANNOT_KEEP
    mapping = {key: _to_json(item, depth - 1) for key, item in value.items()}
    if any(item is CANNOT_KEEP for item in mapping.values()):
        return CANNOT_KEEP
    return ["map", mapping]


def from_json(data: Any) -> Any:
    """The value :func:`to_json` kept; a :class:`ValueError` for anything it does not write
    (a cache file of another version, or edited by hand)."""
    if type(data) in _SCALARS:
        return data
    if type(data) is not list or len(data) != 2:
        raise ValueError(f"not a kept value: {data!r:.60}")
    tag, content = data
    if tag == "date" and type(content) is str:
        return dt.date.fromisoformat(content)
    if tag == "datetime" and type(content) is str:
        return dt.datetime.fromisoformat(content)
    if tag == "list" and type(content) is list:
        return [from_json(item) for item in content]
    if tag == "map" and type(content) is dict:
        return {key: from_json(item) for key, item in content.items()}
    raise ValueError(f"not a kept value: {data!r:.60}")
