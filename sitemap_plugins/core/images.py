"""The images a rendered page shows in its main content, for the image sitemap extension.

A page as a theme renders it holds far more images than its author put in: the site's logo, a
navigation drawer's copy of it, author avatars, emoji, badges of the theme. An image sitemap
should list what the page is about, so only the **main content** counts, found by the first of
these rules that matches anything on the page (all its outermost matches together):

1. ``role="main"``: the ARIA landmark (MkDocs' default and readthedocs themes, Sphinx's
   alabaster, classic, basic, furo, pydata, sphinx_rtd_theme);
2. ``class="md-content"``: Material for MkDocs, whose ``<main>`` also holds the navigation;
3. ``<div class="body">``: Sphinx themes derived from basic that lack the landmark;
4. ``<main>``;
5. ``<article>``: every outermost one (Pelican's themes, blog themes);
6. ``id="content"``: Pelican's default theme on pages without an article (``section#content``);
7. otherwise the whole ``<body>`` without its ``<header>``, ``<footer>`` and ``<aside>`` (and
   the ARIA roles ``banner``, ``contentinfo``, ``complementary``).

Whatever the rule, an image inside a ``<nav>`` (or ``role="navigation"``: a sidebar, Material's
post authors) is chrome, and so is an image marked as decoration or an icon: ``aria-hidden``,
``role="presentation"`` or ``"none"``, a class naming an ``emoji`` or an ``icon``. An image's
URL is its ``data-src`` where it has one (a lazy-loaded image, whose ``src`` is a placeholder
until a script puts the real URL there: empty, a ``data:`` URI or a placeholder file), else its
``src``; ``data:`` images are no URLs and never listed (``srcset`` variants are the same image at
other sizes, and are not listed either).

This runs on every page of a build when the option is on, so it is one regular-expression pass
over the body that looks only at the elements the rules name and at ``<img>``: comments,
``<script>``, ``<style>``, ``<template>`` and ``<textarea>`` are skipped whole, and so is a
navigation (often most of a documentation page: the whole site's table of contents), found by
its closing tag; attributes are decoded only for those elements. Rules 1 to 6 are only read on
those elements (``div``, ``section``, ``main``, ``article``, ``nav``, ``header``, ``footer``,
``aside``).
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["main_images"]

_REST_OF_TAG: Final = r"""([^>"']*(?:(?:"[^"]*"|'[^']*')[^>"']*)*)>"""
"""A tag's attributes up to its ``>``, which may also appear inside a quoted value."""
_TOKEN: Final = re.compile(
    r"<(?:!--.*?-->"
    r"|(script|style|template|textarea)\b[^>]*>.*?</\1\s*>"
    r"|(/?)(div|section|main|article|nav|header|footer|aside|img|body)\b" + _REST_OF_TAG + ")",
    re.DOTALL | re.IGNORECASE,
)
_ATTRIBUTE: Final = re.compile(
    r"""([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?"""
)
_SKIPPED: Final = (
    r"<!--.*?-->"
    r"|<(?:script|style|template|textarea)\b[^>]*>.*?</(?:script|style|template|textarea)\s*>"
)
"""What :data:`_TOKEN` skips whole, for the search of a navigation's end."""
_HINT: Final = re.compile(r"role|md-content|body|content", re.IGNORECASE)
_ICON: Final = re.compile(r"emoji|icon", re.IGNORECASE)
_CHROME_TAGS: Final = frozenset({"header", "footer", "aside"})
_CHROME_ROLES: Final = frozenset({"banner", "contentinfo", "complementary"})
_DECORATION_ROLES: Final = frozenset({"presentation", "none"})

# The rules, in order; the last is the whole body without its chrome.
_ROLE_MAIN, _MD_CONTENT, _DIV_BODY, _MAIN, _ARTICLE, _ID_CONTENT = range(6)
_RULES: Final = 6


def _attributes(text: str) -> dict[str, str]:
    """A tag's attributes, names in lower case, values decoded as a browser decodes them."""
    found: dict[str, str] = {}
    for match in _ATTRIBUTE.finditer(text):
        name = match.group(1).lower()
        if name not in found:
            value = match.group(2) or match.group(3) or match.group(4) or ""
            found[name] = html.unescape(value) if "&" in value else value
    return found


def _rules_opened(tag: str, attributes: dict[str, str]) -> tuple[int, ...]:
    opened = []
    if attributes.get("role", "").strip().lower() == "main":
        opened.append(_ROLE_MAIN)
    classes = attributes.get("class", "").split()
    if "md-content" in classes:
        opened.append(_MD_CONTENT)
    if tag == "div" and "body" in classes:
        opened.append(_DIV_BODY)
    if tag == "main":
        opened.append(_MAIN)
    if tag == "article":
        opened.append(_ARTICLE)
    if attributes.get("id", "").strip() == "content":
        opened.append(_ID_CONTENT)
    return tuple(opened)


def _source(attributes: dict[str, str]) -> str | None:
    """The image's URL as written, or None for an image that is decoration or has none."""
    if attributes.get("aria-hidden", "").strip().lower() == "true":
        return None
    if attributes.get("role", "").strip().lower() in _DECORATION_ROLES:
        return None
    if _ICON.search(attributes.get("class", "")):
        return None
    # A lazy-loading script copies data-src into src when the image scrolls into view; until
    # then src holds a placeholder (empty, a data: URI, or a small file such as a spinner or a
    # blurred copy), which is no image of the page. So data-src wins wherever it is a URL.
    for name in ("data-src", "src"):
        value = attributes.get(name, "").strip()
        if value and value[:5].lower() != "data:":
            return value
    return None


class _Open:
    """One open element the rules care about: what it opens, and whether it is chrome."""

    __slots__ = ("chrome", "name", "rules")

    def __init__(self, name: str, rules: tuple[int, ...], chrome: bool) -> None:
        self.name = name
        self.rules = rules
        self.chrome = chrome


_SAME_NAME: dict[str, re.Pattern[str]] = {}


def _after_closing(body: str, start: int, name: str) -> int:
    """Where the element of ``name`` opened just before ``start`` ends (after its closing tag,
    counting nested ones), or the end of the body if it is never closed."""
    pattern = _SAME_NAME.get(name)
    if pattern is None:
        pattern = re.compile(rf"{_SKIPPED}|<(/?){name}\b{_REST_OF_TAG}", re.DOTALL | re.IGNORECASE)
        _SAME_NAME[name] = pattern
    depth = 1
    for match in pattern.finditer(body, start):
        slash = match.group(1)
        if slash is None:
            continue  # a comment, script...: no tag of ours in it
        if slash:
            depth -= 1
            if not depth:
                return match.end()
        elif not match.group(2).rstrip().endswith("/"):
            depth += 1
    return len(body)


def main_images(body: str) -> list[str]:
    """The ``src`` of every image in the page's main content, as written, in page order."""
    stack: list[_Open] = []
    depth = [0] * _RULES  # how many open elements currently hold each rule
    chrome = 0
    matched = [False] * _RULES
    found: list[tuple[str, tuple[bool, ...], bool]] = []  # src, inside each rule, in chrome
    search = _TOKEN.search
    position = 0
    while (match := search(body, position)) is not None:
        position = match.end()
        name = match.group(3)
        if name is None:
            continue  # a comment, script, style, template or textarea
        name = name.lower()
        closing = match.group(2) == "/"
        raw = match.group(4)
        if name == "img":
            if closing:
                continue
            source = _source(_attributes(raw))
            if source is not None:
                found.append((source, tuple(count > 0 for count in depth), chrome > 0))
            continue
        if closing:
            # Close up to the innermost open element of that name (HTML closes what is inside).
            for index in range(len(stack) - 1, -1, -1):
                if stack[index].name == name:
                    for element in stack[index:]:
                        for rule in element.rules:
                            depth[rule] -= 1
                        chrome -= element.chrome
                    del stack[index:]
                    break
            continue
        if raw.rstrip().endswith("/"):
            continue  # <div/> opens nothing in HTML either way worth tracking
        attributes = _attributes(raw) if _HINT.search(raw) else {}
        role = attributes.get("role", "").strip().lower()
        if name == "nav" or role == "navigation":
            position = _after_closing(body, position, name)  # nothing in it is content
            continue
        rules = _rules_opened(name, attributes)
        is_chrome = name in _CHROME_TAGS or role in _CHROME_ROLES
        for rule in rules:
            matched[rule] = True
            depth[rule] += 1
        chrome += is_chrome
        stack.append(_Open(name, rules, is_chrome))
    chosen = next((rule for rule in range(_RULES) if matched[rule]), None)
    if chosen is None:
        return [source for source, _, in_chrome in found if not in_chrome]
    return [source for source, inside, _ in found if inside[chosen]]
