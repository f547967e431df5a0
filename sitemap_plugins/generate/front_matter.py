"""A page's own settings, read from the front matter of the source a layout found.

The plugins take each page's ``sitemap`` metadata from their host; ``generate`` runs after
another tool's build, so it reads the same key where those tools' authors write it: YAML front
matter between ``---`` lines (MkDocs, Zensical, Jekyll, Hugo) or TOML between ``+++`` (Hugo).
What users already wrote for the sitemaps they had keeps its meaning: jekyll-sitemap's
``sitemap: false``, Hugo's ``sitemap: {disable: true}`` (read as ``exclude``), and the plugins'
``priority``, ``changefreq``, ``lastmod`` and ``exclude``. The core checks the values. The
keys a layout dates pages by, and those that make a blog post's URL, are read here too (see
:mod:`.layouts`).

YAML is first read line by line (see :mod:`.yaml_scalars`): a key's value as a plain value, a
flow mapping on its line, or one level of indented keys, which is the form these settings take
on nearly every page and costs a few microseconds. A ``sitemap`` value in any other form (a
page's videos, nested lists, anchors, a value over several lines) is read from the whole front
matter by PyYAML, as MkDocs and Zensical read it; where PyYAML cannot read it either, a warning
names the line, and the page stays without its settings, as MkDocs ignores such front matter.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.generate._toml import parse_toml
from sitemap_plugins.generate.yaml_scalars import scalar, unquote, without_comment

__all__ = ["FrontMatter", "Problem", "parse_front_matter", "read_front_matter"]

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
_EXPECTED: Final = "not a value or keys"


class FrontMatter:
    """The front matter at the top of a source: YAML text, or a TOML table."""

    def __init__(self, yaml_text: str | None, table: dict[str, Any] | None) -> None:
        self._text = yaml_text
        self._lines = None if yaml_text is None else yaml_text.split("\n")
        self._table = table

    def value(self, key: str, *, any_case: bool = False) -> tuple[Any, list[Problem]]:
        """A top-level key's value (None when it is not there), and what could not be read.

        With ``any_case``, the first key that is ``key`` without regard to case: Hugo reads
        front matter so (``lastMod``, ``Lastmod`` are its ``lastmod``)."""
        if self._table is not None:
            return _get(self._table, key, any_case=any_case), []
        lines = self._lines or []
        for index, line in enumerate(lines):
            if line.lower().startswith(key.lower()) if any_case else line.startswith(key):
                match = _KEY.match(line.rstrip())
                if match is None:
                    continue
                found = match["key"]
                if found == key or (any_case and found.lower() == key.lower()):
                    return _yaml_value(found, index + 2, match["value"], lines[index + 1 :])
        return None, []

    def sitemap(self, *, any_case: bool = False) -> tuple[Any, list[Problem]]:
        """``sitemap``, with Hugo's ``disable`` read as ``exclude`` (which wins where both are).

        With ``any_case`` (Hugo), its key and the keys under it are matched without regard to
        case, and the keys under it are given in lower case."""
        value, problems = self.value("sitemap", any_case=any_case)
        if problems and self._text is not None:
            value, problems = _whole_yaml(self._text, "sitemap", any_case=any_case)
        if any_case and isinstance(value, dict):
            value = {str(name).lower(): item for name, item in reversed(value.items())}
        if isinstance(value, dict) and "disable" in value:
            value = dict(value)
            value.setdefault("exclude", value.pop("disable"))
        return value, problems


def _get(table: dict[Any, Any], key: str, *, any_case: bool) -> Any:
    """``table[key]``, else (with ``any_case``) the first key equal to it without regard to
    case; None when there is none."""
    if key in table or not any_case:
        return table.get(key)
    lowered = key.lower()
    return next((item for name, item in table.items() if str(name).lower() == lowered), None)


def read_front_matter(source: Path) -> tuple[FrontMatter | None, list[Problem]]:
    """The source's front matter (None when it has none), and why it could not be read."""
    try:
        with open(source, "rb", buffering=0) as stream:
            data = stream.read(_FIRST_BYTES).removeprefix(b"\xef\xbb\xbf")
            if not data.startswith((b"---", b"+++")):
                return None, []  # most sources: no front matter, nothing decoded
            data += stream.read(_MAX_BYTES)
    except OSError as error:
        return None, [(None, f"cannot read its front matter: {error.strerror or error}")]
    found, _ = parse_front_matter(data)
    if isinstance(found, str):
        return None, [(None, found)]
    return found, []


def parse_front_matter(data: bytes) -> tuple[FrontMatter | str | None, int]:
    """The front matter at the start of ``data`` (or why it is unreadable, or None) and where
    the text after it starts."""
    skipped = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # a byte order mark
    opened = _OPENING.match(data, skipped)
    if opened is None:
        return None, 0
    toml = opened[1] == b"+++"
    closed = (_TOML_END if toml else _YAML_END).search(data, opened.end())
    if closed is None:
        return None, 0  # a rule (---) opening the text, not front matter
    text = data[opened.end() : closed.start()].decode("utf-8", errors="replace")
    if not toml:
        return FrontMatter(text, None), closed.end()
    try:
        return FrontMatter(None, parse_toml(text)), closed.end()
    except ValueError as error:
        return f"front matter is not valid TOML ({error}); ignored", closed.end()


def _whole_yaml(text: str, key: str, *, any_case: bool = False) -> tuple[Any, list[Problem]]:
    """A top-level key's value, from the front matter read whole by PyYAML's safe loader (its
    C form where installed), as MkDocs reads front matter. Numbers and dates are then
    numbers and dates, as the plugins receive them; the core reads either."""
    import yaml  # only for the few pages that need it: most never import it

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # without libyaml: the Python one
    try:
        data = yaml.load(text, Loader=loader)
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None) or getattr(error, "context_mark", None)
        line = None if mark is None else mark.line + 2  # the file's line: after the fence
        problem = str(getattr(error, "problem", None) or error).strip()
        return None, [(line, f"front matter is not valid YAML ({problem}); {key} ignored")]
    if not isinstance(data, dict):
        return None, [(None, f"front matter is not a mapping of keys; {key} ignored")]
    return _get(data, key, any_case=any_case), []


def _yaml_value(
    name: str, number: int, raw: str | None, below: list[str]
) -> tuple[Any, list[Problem]]:
    """A top-level key's value: on its line (``number``), or a mapping on the lines ``below``."""
    text = without_comment(raw or "").strip()
    if text.startswith("{"):
        return _flow_mapping(name, number, text)
    if text.startswith(_NOT_PLAIN):
        return None, [(number, f"{name} {text[:40]!r} is {_READ}; ignored")]
    if text:
        try:
            return scalar(text), []
        except ValueError as error:
            return None, [(number, f"{name}: {error}; ignored")]
    return _block_mapping(name, number + 1, below)


def _block_mapping(name: str, first: int, lines: list[str]) -> tuple[Any, list[Problem]]:
    """The indented ``key: value`` lines under ``name:``, up to the next top-level key."""
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
                return None, [(first - 1, f"{name} is a list, {_EXPECTED}; ignored")]
            indent = width
        if width > indent:
            if open_key is not None:
                problems.append((open_line, f"{name}.{open_key} is {_READ}; ignored"))
                del mapping[open_key]
                open_key = None
            continue
        match = _KEY.match(stripped)
        if width < indent or match is None:
            problems.append((number, f"{stripped[:40]!r} under {name} is no key; ignored"))
            continue
        key, value = unquote(match["key"]), without_comment(match["value"] or "").strip()
        open_key = None
        if not value:
            mapping[key] = None
            open_key, open_line = key, number
        else:
            _put(mapping, problems, number, f"{name}.{key}", value)
    return mapping, problems


def _put(
    mapping: dict[str, Any], problems: list[Problem], number: int, dotted: str, value: str
) -> None:
    """One plain value into the mapping (``dotted``: its key after its parent's), or the reason
    it is not read into the problems."""
    if value.startswith(_NOT_PLAIN):
        problems.append((number, f"{dotted} is {_READ}; ignored"))
        return
    try:
        mapping[dotted.partition(".")[2]] = scalar(value)
    except ValueError as error:
        problems.append((number, f"{dotted}: {error}; ignored"))


def _flow_mapping(name: str, number: int, text: str) -> tuple[Any, list[Problem]]:
    """``{priority: 0.8, changefreq: weekly}`` on one line."""
    if not text.endswith("}"):
        return None, [(number, f"{name} {text[:40]!r} is {_READ}; ignored")]
    mapping: dict[str, Any] = {}
    problems: list[Problem] = []
    for item in _split_items(text[1:-1]):
        key, colon, value = item.partition(":")
        key, value = unquote(key.strip()), value.strip()
        if not colon or not key:
            problems.append((number, f"{item.strip()[:40]!r} in {name} is no key; ignored"))
        else:
            _put(mapping, problems, number, f"{name}.{key}", value)
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
