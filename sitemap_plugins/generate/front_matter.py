"""A page's own ``sitemap`` settings, read from the front matter of the source a layout found.

The plugins take each page's ``sitemap`` metadata from their host; ``generate`` runs after
another tool's build, so it reads the same key where those tools' authors write it: YAML front
matter between ``---`` lines (MkDocs, Zensical, Jekyll, Hugo) or TOML between ``+++`` (Hugo).
What users already wrote for the sitemaps they had keeps its meaning: jekyll-sitemap's
``sitemap: false``, Hugo's ``sitemap: {disable: true}`` (read as ``exclude``), and the plugins'
``priority``, ``changefreq``, ``lastmod`` and ``exclude``. The core checks the values.

YAML is read without a YAML library (see :mod:`.yaml_scalars`): ``sitemap`` as a plain value,
a flow mapping on its line, or one level of indented keys, which is every form these settings
take. Anything else (a list, a nested key such as ``video``) is named in a warning and left
out, and the page stays.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.generate._toml import parse_toml
from sitemap_plugins.generate.yaml_scalars import scalar, unquote, without_comment

__all__ = ["Problem", "sitemap_front_matter"]

Problem = tuple[int | None, str]
"""What could not be read: the line it is on (None: the whole file), and what it is."""

_FIRST_BYTES: Final = 4096
"""What is read of every source: enough to see a fence, and most front matter whole."""
_MAX_BYTES: Final = 1 << 16
"""Front matter that does not end within this is none (a read of a whole large file for it would
cost every page of a site the allocation)."""
_OPENING: Final = re.compile(rb"(---|\+\+\+)[ \t]*\r?\n")
_YAML_END: Final = re.compile(rb"^(?:---|\.\.\.)[ \t]*\r?$", re.MULTILINE)
_TOML_END: Final = re.compile(rb"^\+\+\+[ \t]*\r?$", re.MULTILINE)
_KEY: Final = re.compile(
    r"(?P<key>[A-Za-z_][\w-]*|'[^']*'|\"[^\"]*\")[ \t]*:(?:[ \t]+(?P<value>.*))?$"
)
"""A mapping's key (plain, or quoted as PyYAML quotes ``'no'``) and the value on its line."""
_NOT_PLAIN: Final = ("{", "[", "&", "*", "!", "|", ">")
"""How YAML values start that are not plain scalars: collections, anchors, aliases, tags, blocks."""
_READ: Final = "not read after the build (a plain value or one level of keys is)"
_EXPECTED: Final = "expected false or keys (priority, changefreq, lastmod, exclude)"


def sitemap_front_matter(source: Path) -> tuple[Any, list[Problem]]:
    """The ``sitemap`` value of the source's front matter (None when it has none), and what
    could not be read in it, for warnings that name the file."""
    try:
        with open(source, "rb", buffering=0) as stream:
            data = stream.read(_FIRST_BYTES).removeprefix(b"\xef\xbb\xbf")
            if not data.startswith((b"---", b"+++")):
                return None, []  # most sources: no front matter, nothing decoded
            data += stream.read(_MAX_BYTES)
    except OSError as error:
        return None, [(None, f"cannot read its front matter: {error.strerror or error}")]
    opened = _OPENING.match(data)
    if opened is None:
        return None, []
    toml = opened[1] == b"+++"
    closed = (_TOML_END if toml else _YAML_END).search(data, opened.end())
    if closed is None:
        return None, []  # a rule (---) opening the text, not front matter
    block = data[opened.end() : closed.start()].decode("utf-8", errors="replace").split("\n")
    if toml:
        try:
            value = parse_toml("\n".join(block)).get("sitemap")
        except ValueError as error:
            return None, [(None, f"front matter is not valid TOML ({error}); sitemap ignored")]
        return _hugo_disable(value), []
    for index, line in enumerate(block):
        if line.startswith("sitemap"):
            match = _KEY.match(line.rstrip())
            if match is not None and match["key"] == "sitemap":
                found, problems = _yaml_value(index + 2, match["value"], block[index + 1 :])
                return _hugo_disable(found), problems
    return None, []


def _hugo_disable(value: Any) -> Any:
    """Hugo's ``disable`` is the plugins' ``exclude`` (which wins where both are set)."""
    if isinstance(value, dict) and "disable" in value:
        value = dict(value)
        value.setdefault("exclude", value.pop("disable"))
    return value


def _yaml_value(number: int, raw: str | None, below: list[str]) -> tuple[Any, list[Problem]]:
    """``sitemap``'s value: on its own line (``number``), or a mapping on the lines ``below``."""
    text = without_comment(raw or "").strip()
    if text.startswith("{"):
        return _flow_mapping(number, text)
    if text.startswith(_NOT_PLAIN):
        return None, [(number, f"sitemap {text[:40]!r} is {_READ}; ignored")]
    if text:
        try:
            return scalar(text), []
        except ValueError as error:
            return None, [(number, f"sitemap: {error}; ignored")]
    return _block_mapping(number + 1, below)


def _block_mapping(first: int, lines: list[str]) -> tuple[Any, list[Problem]]:
    """The indented ``key: value`` lines under ``sitemap:``, up to the next top-level key."""
    mapping: dict[str, Any] = {}
    problems: list[Problem] = []
    indent: int | None = None
    open_key: str | None = None  # a key with no value on its line: deeper lines nest under it
    open_line = first
    for number, line in enumerate(lines, first):
        content = line.rstrip()
        stripped = content.lstrip(" ")
        if not stripped or stripped.startswith("#"):
            continue
        width = len(content) - len(stripped)
        if width == 0:
            break  # the next top-level key
        if indent is None:
            if stripped.startswith("-"):
                return None, [(first - 1, f"sitemap is a list, {_EXPECTED}; ignored")]
            indent = width
        if width > indent:
            if open_key is not None:
                problems.append((open_line, f"sitemap.{open_key} is {_READ}; ignored"))
                del mapping[open_key]
                open_key = None
            continue
        match = _KEY.match(stripped)
        if width < indent or match is None:
            problems.append((number, f"{stripped[:40]!r} under sitemap is no key; ignored"))
            continue
        key, value = unquote(match["key"]), without_comment(match["value"] or "").strip()
        open_key = None
        if not value:
            mapping[key] = None
            open_key, open_line = key, number
        else:
            _put(mapping, problems, number, key, value)
    return mapping, problems


def _put(
    mapping: dict[str, Any], problems: list[Problem], number: int, key: str, value: str
) -> None:
    """One key's plain value into the mapping, or the reason it is not read into the problems."""
    if value.startswith(_NOT_PLAIN):
        problems.append((number, f"sitemap.{key} is {_READ}; ignored"))
        return
    try:
        mapping[key] = scalar(value)
    except ValueError as error:
        problems.append((number, f"sitemap.{key}: {error}; ignored"))


def _flow_mapping(number: int, text: str) -> tuple[Any, list[Problem]]:
    """``{priority: 0.8, changefreq: weekly}`` on one line."""
    if not text.endswith("}"):
        return None, [(number, f"sitemap {text[:40]!r} is {_READ}; ignored")]
    mapping: dict[str, Any] = {}
    problems: list[Problem] = []
    for item in _split_items(text[1:-1]):
        key, colon, value = item.partition(":")
        key, value = unquote(key.strip()), value.strip()
        if not colon or not key:
            problems.append((number, f"{item.strip()[:40]!r} in sitemap is no key; ignored"))
        else:
            _put(mapping, problems, number, key, value)
    return mapping, problems


def _split_items(text: str) -> list[str]:
    """A flow mapping's items: split at commas outside quoted keys and values (a quote opens
    one only where a key or value starts: ``it's`` is plain text)."""
    items, start, quote, before, escaped = [], 0, "", ",", False
    for index, char in enumerate(text):
        if escaped:  # the second quote of '' in single quotes, or what follows \ in double
            escaped = False
            continue
        if quote:
            doubled = quote == char == "'" and text[index + 1 : index + 2] == "'"
            if doubled or (quote == '"' and char == "\\"):
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "'\"" and before in ",:":
            quote = char
        elif char == ",":
            items.append(text[start:index])
            start = index + 1
        if not char.isspace():
            before = char
    items.append(text[start:])
    return [item for item in items if item.strip()]
