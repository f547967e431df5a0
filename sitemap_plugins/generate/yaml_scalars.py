"""YAML scalars read line by line: the values of the few YAML keys ``generate`` reads.

``mkdocs.yml``'s site keys and nearly every page's ``sitemap`` front matter are plain or quoted
scalars, booleans and nulls, read here in about 10 µs a page: PyYAML takes 4 times as long
with libyaml and 30 times without, and its safe loader stops at ``mkdocs.yml``'s own tags
(``!ENV``, ``!!python/name``).
Front matter in other forms is read whole by PyYAML (see :mod:`.front_matter`). The scalars are
read as YAML 1.1 reads them (PyYAML for MkDocs, Psych for Jekyll):
``yes``/``on`` are true, ``~`` is null, a ``#`` after a space starts a comment. Numbers and dates
stay text: the core reads both from text.
"""

from __future__ import annotations

from typing import Any, Final

__all__ = ["FALSE", "TRUE", "scalar", "unquote", "without_comment"]

# Each word in lower case, with a capital, or in capitals, as YAML 1.1 spells its booleans:
# ``oN`` is text there, not true.
TRUE: Final = frozenset(
    f(word) for word in ("true", "yes", "on") for f in (str, str.title, str.upper)
)
FALSE: Final = frozenset(
    f(word) for word in ("false", "no", "off") for f in (str, str.title, str.upper)
)


def scalar(raw: str) -> Any:
    """One scalar: quoted or plain text, a boolean or ``None``; a quote left open is a
    :class:`ValueError`."""
    text = without_comment(raw).strip()
    if text.startswith(("'", '"')):
        if len(text) < 2 or text[-1] != text[0]:
            raise ValueError("a quoted value without its closing quote")
        return unquote(text)
    if text in ("", "~", "null", "Null", "NULL"):
        return None
    if text in TRUE:
        return True
    if text in FALSE:
        return False
    return text


def unquote(text: str) -> str:
    """The text inside single or double quotes, with YAML's escapes of the quote undone."""
    if len(text) >= 2 and text[0] == text[-1] == "'":
        return text[1:-1].replace("''", "'")
    if len(text) >= 2 and text[0] == text[-1] == '"':
        return text[1:-1].replace('\\"', '"').replace("\\\\", "\\")
    return text


def without_comment(text: str) -> str:
    """The value before a ``#`` comment (a ``#`` inside quotes or a URL stays)."""
    quote = ""
    for index, char in enumerate(text):
        if quote:
            if char == quote:
                quote = ""
        elif char in "'\"" and (index == 0 or text[index - 1].isspace()):
            quote = char
        elif char == "#" and (index == 0 or text[index - 1].isspace()):
            return text[:index]
    return text
