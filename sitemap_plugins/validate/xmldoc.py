"""Checking one XML sitemap while expat reads it: structure, values, and each entry as it ends.

The file is never held as a tree. expat streams elements; a small stack follows the elements the
schema tables describe, each ``<url>`` is checked and handed on when it closes, and anything else
(an unknown namespace, an element where none belongs) is skipped by depth alone. Memory therefore
stays flat whatever the file holds, and every finding carries the line where expat saw it.

expat is used with everything a hostile file could exploit turned off: a DOCTYPE stops the parse
before its internal subset is read, entity declarations are refused, parameter entities and
external entities are never loaded, and nesting deeper than any sitemap needs stops the parse.
"""

from __future__ import annotations

import datetime as dt
import functools
from dataclasses import dataclass, field
from typing import Final, NoReturn, Protocol
from xml.parsers import expat

from sitemap_plugins.core.options import MAX_URLS_PER_FILE
from sitemap_plugins.core.render import IMAGE_NS, SITEMAP_NS, XHTML_NS
from sitemap_plugins.validate import values
from sitemap_plugins.validate.findings import Check
from sitemap_plugins.validate.schema import (
    ELEMENTS,
    EXTENSION_ROOTS,
    KNOWN_NAMESPACES,
    LEGACY_NS,
    NEWS_NS,
    OTHER,
    ROOTS,
    VIDEO_NS,
    XSI_NS,
    ElementSpec,
    Text,
    display,
    order_of,
    q,
    split,
)

MAX_DEPTH: Final = 64
"""Sitemaps nest five deep (urlset, url, video, tvshow, title); deeper is an attack or junk."""
MAX_TEXT: Final = 8_192
"""Text kept per element; longer values are measured, not stored."""
MAX_IMAGES_PER_URL: Final = 1_000

_URL: Final = q(SITEMAP_NS, "url")
_SITEMAP: Final = q(SITEMAP_NS, "sitemap")
_LINK: Final = q(XHTML_NS, "link")
_IMAGE: Final = q(IMAGE_NS, "image")
_VIDEO: Final = q(VIDEO_NS, "video")
_EXTENSION_PARENTS: Final = {
    IMAGE_NS: "image:image",
    VIDEO_NS: "video:video",
    NEWS_NS: "news:news",
}
_ENTRIES: Final = frozenset({_URL, _SITEMAP})


@dataclass(slots=True)
class Entry:
    """One ``<url>``, ``<sitemap>`` or text line, as the checks over a whole set need it."""

    line: int
    loc: str | None = None
    lastmod: str | None = None
    changefreq: str | None = None
    priority: str | None = None
    alternates: list[str] = field(default_factory=list)
    images: int = 0


class Sink(Protocol):
    """Where a document checker sends what it finds."""

    def emit(self, check: Check, message: str, line: int | None, column: int | None) -> None: ...

    def entry(self, entry: Entry) -> None:
        """A ``<url>`` or text line has been read in full."""

    def child(self, entry: Entry) -> None:
        """A ``<sitemap>`` of an index has been read in full."""


class _Stop(Exception):
    """Raised inside an expat handler to end the parse after a fatal finding."""


@dataclass(slots=True)
class _Open:
    """An element being read whose content the schema tables describe."""

    name: str
    spec: ElementSpec
    line: int
    column: int
    counts: list[int]
    position: int = 0
    text: list[str] = field(default_factory=list)
    text_length: int = 0
    text_reported: bool = False


@functools.lru_cache(maxsize=1024)
def _matching(parent: str, name: str) -> tuple[tuple[int, ...], bool]:
    """Which particles of ``parent``'s model a child ``name`` matches, and whether one by name.

    Cached: a sitemap repeats the same few parent/child pairs a million times.
    """
    children = ELEMENTS[parent].children or ()
    matching = tuple(i for i, particle in enumerate(children) if particle.matches(name))
    return matching, any(children[i].name == name for i in matching)


class XmlChecker:
    """Feed bytes; findings and entries go to the sink as they are found."""

    def __init__(self, sink: Sink, *, now: dt.datetime | None) -> None:
        self.kind: str | None = None
        self.entries = 0
        self.stopped = False
        self._sink = sink
        self._now = now
        self._stack: list[_Open] = []
        self._skipping = 0
        self._aliases: dict[str, str] = {}
        self._entry: Entry | None = None
        self._unknown_namespaces: set[str] = set()
        parser = expat.ParserCreate(encoding="utf-8", namespace_separator=" ")
        parser.buffer_text = True
        parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
        parser.StartDoctypeDeclHandler = self._doctype
        parser.EntityDeclHandler = self._entity_declaration
        parser.ExternalEntityRefHandler = self._external_entity
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._characters
        self._parser = parser

    # ---------------------------------------------------------------------------------------
    # Feeding

    def feed(self, data: bytes, *, final: bool = False) -> None:
        if self.stopped:
            return
        try:
            self._parser.Parse(data, final)
        except _Stop:
            self.stopped = True
        except expat.ExpatError as error:
            self.stopped = True
            reason = expat.ErrorString(error.code) if error.code else str(error)
            self._emit(
                Check.XML_SYNTAX,
                f"not well-formed XML: {reason}",
                error.lineno,
                error.offset + 1,
            )

    def close(self) -> None:
        self.feed(b"", final=True)

    # ---------------------------------------------------------------------------------------
    # Refusals

    def _doctype(
        self, name: str, system_id: str | None, public_id: str | None, subset: int
    ) -> None:
        if name.lower() == "html":
            self._fatal(
                Check.NOT_A_SITEMAP, "this is an HTML page (<!DOCTYPE html>), not a sitemap"
            )
        self._fatal(
            Check.DOCTYPE,
            "has a DOCTYPE; sitemaps have none, and it is refused here (entities are never "
            "expanded, external files never loaded)",
        )

    def _entity_declaration(self, *_: object) -> None:
        self._fatal(Check.DOCTYPE, "declares an entity; refused (entities are never expanded)")

    def _external_entity(self, *_: object) -> int:
        self._fatal(Check.DOCTYPE, "refers to an external entity; refused (never loaded)")

    def _fatal(self, check: Check, message: str) -> NoReturn:
        self._emit(check, message, self._parser.CurrentLineNumber, None)
        raise _Stop

    # ---------------------------------------------------------------------------------------
    # Elements

    def _start(self, raw_name: str, attributes: dict[str, str]) -> None:
        depth = len(self._stack) + self._skipping
        if depth >= MAX_DEPTH:
            self._fatal(Check.UNEXPECTED_ELEMENT, f"elements nested more than {MAX_DEPTH} deep")
        if self._skipping:
            self._skipping += 1
            return
        if not self._stack and self.kind is None:
            raw_name = self._root(raw_name)
        name = self._canonical(raw_name)
        line, column = self._position()
        if not self._stack:
            spec = ELEMENTS[name]
        else:
            found = self._child(self._stack[-1], name, line, column)
            if found is None:
                self._skipping = 1
                return
            spec = found
        if attributes or spec.attributes:
            self._check_attributes(name, spec, attributes, line, column)
        self._stack.append(_Open(name, spec, line, column, [0] * len(spec.children or ())))
        self._enter(name, attributes, line, column)

    def _root(self, name: str) -> str:
        """Decide what the document is from its root; alias a wrong namespace to keep checking."""
        namespace, local = split(name)
        if local not in ("urlset", "sitemapindex"):
            hint = {
                "html": "an HTML page",
                "rss": "an RSS feed",
                "feed": "an Atom feed",
            }.get(local.lower(), f"<{display(name)}>")
            self._fatal(
                Check.NOT_A_SITEMAP,
                f"the root element is {hint}, not <urlset> or <sitemapindex> of {SITEMAP_NS}",
            )
        canonical = q(SITEMAP_NS, local)
        self.kind = ROOTS[canonical]
        if name == canonical:
            return name
        if namespace == LEGACY_NS:
            check = Check.LEGACY_NAMESPACE
            message = (
                f"uses Google's 2005 namespace {LEGACY_NS} (legacy, from before "
                f'sitemaps.org); fix: xmlns="{SITEMAP_NS}"'
            )
        elif not namespace:
            check = Check.NOT_A_SITEMAP
            message = f'<{local}> has no namespace; fix: <{local} xmlns="{SITEMAP_NS}">'
        else:
            check = Check.NOT_A_SITEMAP
            message = (
                f'<{local}> is in the namespace {namespace!r}; fix: xmlns="{SITEMAP_NS}" (exactly)'
            )
        self._emit(check, message, *self._position())
        self._aliases[namespace] = SITEMAP_NS
        return canonical

    def _canonical(self, name: str) -> str:
        if not self._aliases:
            return name
        namespace, local = split(name)
        if namespace in self._aliases:
            return q(self._aliases[namespace], local)
        return name

    def _position(self) -> tuple[int, int]:
        return self._parser.CurrentLineNumber, self._parser.CurrentColumnNumber + 1

    def _child(self, parent: _Open, name: str, line: int, column: int) -> ElementSpec | None:
        """Place ``name`` in the parent's content model; its spec, or None to skip its content."""
        if parent.spec.children is None:
            what = "nothing" if parent.spec.empty else "text only"
            self._emit(
                Check.UNEXPECTED_ELEMENT,
                f"<{display(name)}> inside <{display(parent.name)}>, which takes {what}",
                line,
                column,
            )
            return None
        matching, explicit = _matching(parent.name, name)
        self._place(parent, name, matching, line, column)
        if explicit:
            return ELEMENTS[name]
        namespace = split(name)[0]
        if not matching or namespace in ("", SITEMAP_NS):
            return None  # reported by _place; its content is not checked
        shown = display(name)
        # Reached through the wildcard: an extension element.
        if namespace not in KNOWN_NAMESPACES:
            if namespace not in self._unknown_namespaces:
                self._unknown_namespaces.add(namespace)
                self._emit(
                    Check.UNKNOWN_NAMESPACE,
                    f"<{shown}>: namespace {namespace!r} is not one this tool knows; its "
                    "elements are not checked (and engines that do not know it ignore them)",
                    line,
                    column,
                )
            return None
        if name not in EXTENSION_ROOTS:
            if namespace == XHTML_NS:
                self._emit(
                    Check.IGNORED_ELEMENT,
                    f"<{shown}>: engines read only xhtml:link in a sitemap",
                    line,
                    column,
                )
            else:
                self._emit(
                    Check.UNEXPECTED_ELEMENT,
                    f"<{shown}> cannot stand here; it belongs inside "
                    f"<{_EXTENSION_PARENTS.get(namespace, 'its extension element')}>",
                    line,
                    column,
                )
            return None
        if parent.name != _URL:
            self._emit(
                Check.IGNORED_ELEMENT,
                f"<{shown}> outside <url>: engines read extension elements only inside <url>",
                line,
                column,
            )
        return ELEMENTS[name]

    def _place(
        self, parent: _Open, name: str, matching: tuple[int, ...], line: int, column: int
    ) -> None:
        """Match a child against the parent's sequence, reporting order and count problems."""
        children = parent.spec.children
        if children is None:  # only elements with a content model have children to place
            return
        if matching:
            for index in matching:
                high = children[index].high
                if index > parent.position or (
                    index == parent.position and (high is None or parent.counts[index] < high)
                ):
                    parent.counts[index] += 1
                    parent.position = index
                    return
        shown, parent_shown = display(name), display(parent.name)
        if not matching:
            if split(name)[0] == "":
                detail = "has no namespace (a sitemap's elements are all in the 0.9 namespace)"
            else:
                detail = f"is not allowed in <{parent_shown}>; it takes {order_of(children)}"
            self._emit(Check.UNEXPECTED_ELEMENT, f"<{shown}> {detail}", line, column)
            return
        index = matching[0]
        particle = children[index]
        if index < parent.position and parent.counts[index] == 0:
            if particle.name == OTHER:
                after = display(children[parent.position].name)
                message = f"<{shown}> cannot come after <{after}> in <{parent_shown}>"
                self._emit(Check.UNEXPECTED_ELEMENT, message, line, column)
            else:
                message = (
                    f"<{shown}> comes after <{display(children[parent.position].name)}>; "
                    f"the order in <{parent_shown}> is {order_of(children)}"
                )
                self._emit(Check.ELEMENT_ORDER, message, line, column)
        else:
            limit = "once" if particle.high == 1 else f"{particle.high} times"
            self._emit(
                Check.REPEATED_ELEMENT,
                f"<{shown}> more than {limit} in <{parent_shown}>",
                line,
                column,
            )
        parent.counts[index] += 1

    def _check_attributes(
        self, name: str, spec: ElementSpec, attributes: dict[str, str], line: int, column: int
    ) -> None:
        for attribute, value in attributes.items():
            if split(attribute)[0] == XSI_NS:
                continue
            allowed = spec.attributes.get(attribute)
            shown = display(attribute)
            if allowed is None:
                self._emit(
                    Check.ATTRIBUTE,
                    f"attribute {shown!r} is not allowed on <{display(name)}>",
                    line,
                    column,
                )
                continue
            problem = allowed.check(value) if allowed.check else None
            if problem:
                self._emit(
                    Check.EXTENSION_VALUE,
                    f"<{display(name)}> attribute {shown}={value!r} {problem}",
                    line,
                    column,
                )
        for attribute, allowed in spec.attributes.items():
            if allowed.required and attribute not in attributes:
                self._emit(
                    Check.ATTRIBUTE,
                    f"<{display(name)}> needs the attribute {attribute!r}",
                    line,
                    column,
                )

    def _enter(self, name: str, attributes: dict[str, str], line: int, column: int) -> None:
        """Entry bookkeeping when an element opens."""
        parent = self._stack[-2].name if len(self._stack) > 1 else None
        if name in (_URL, _SITEMAP) and parent is not None:
            self.entries += 1
            self._entry = Entry(line)
            if self.entries == MAX_URLS_PER_FILE + 1:
                what = "<url> entries" if name == _URL else "child sitemaps"
                self._emit(
                    Check.TOO_MANY_ENTRIES,
                    f"more than {MAX_URLS_PER_FILE:,} {what} in one file; split it into several "
                    "files listed by a sitemap index",
                    line,
                    column,
                )
        elif name == _LINK and parent == _URL and self._entry is not None:
            self._check_link(attributes, line, column)
        elif name == _IMAGE and parent == _URL and self._entry is not None:
            self._entry.images += 1

    def _check_link(self, attributes: dict[str, str], line: int, column: int) -> None:
        rel, hreflang, href = (attributes.get(k) for k in ("rel", "hreflang", "href"))
        missing = [
            text
            for text, ok in (
                ('rel="alternate"', rel is not None and values.trim(rel) == "alternate"),
                ("hreflang", bool(hreflang)),
                ("href", bool(href)),
            )
            if not ok
        ]
        if missing:
            self._emit(
                Check.HREFLANG,
                f"xhtml:link needs {', '.join(missing)} (hreflang alternates are "
                '<xhtml:link rel="alternate" hreflang="fr" href="https://..."/>)',
                line,
                column,
            )
        if href:
            for check, message in values.url_problems(href, "xhtml:link href"):
                self._emit(check, message, line, column)
            if self._entry is not None:
                self._entry.alternates.append(values.trim(href))

    def _characters(self, data: str) -> None:
        if self._skipping or not self._stack:
            return
        top = self._stack[-1]
        if top.spec.children is None and not top.spec.empty:
            top.text_length += len(data)
            if sum(map(len, top.text)) < MAX_TEXT:
                top.text.append(data)
            return
        if not top.text_reported and values.trim(data):
            top.text_reported = True
            kind = "nothing" if top.spec.empty else "elements only"
            self._emit(
                Check.UNEXPECTED_TEXT,
                f"text {values.trim(data)[:40]!r} inside <{display(top.name)}>, which takes {kind}",
                *self._position(),
            )

    def _end(self, _name: str) -> None:
        if self._skipping:
            self._skipping -= 1
            return
        element = self._stack.pop()
        spec = element.spec
        if spec.children is not None:
            self._check_complete(element)
        else:
            self._check_text(element)
        if element.name in (_URL, _SITEMAP) and self._entry is not None and self._stack:
            entry, self._entry = self._entry, None
            if element.name == _URL:
                self._finish_url(entry, element)
                self._sink.entry(entry)
            else:
                self._sink.child(entry)

    def _check_complete(self, element: _Open) -> None:
        children = element.spec.children
        if children is None:
            return
        for particle, count in zip(children, element.counts, strict=True):
            if count < particle.low and particle.name != OTHER:
                empty = (
                    not self._stack
                )  # the root: a urlset without <url>, an index without <sitemap>
                self._emit(
                    Check.EMPTY if empty else Check.MISSING_ELEMENT,
                    f"<{display(element.name)}> has no <{display(particle.name)}>"
                    + ("; the schema requires at least one" if empty else ""),
                    element.line,
                    element.column,
                )
        if element.name == _VIDEO:
            names = {p.name for p, count in zip(children, element.counts, strict=True) if count}
            if not names & {q(VIDEO_NS, "content_loc"), q(VIDEO_NS, "player_loc")}:
                self._emit(
                    Check.VIDEO_LOCATION,
                    "<video:video> needs <video:content_loc> or <video:player_loc> (or both)",
                    element.line,
                    element.column,
                )

    def _check_text(self, element: _Open) -> None:
        text = "".join(element.text)
        kind = element.spec.text
        found: list[values.Problem]
        if kind is Text.LOC:
            length = (
                len(values.trim(text)) if element.text_length <= MAX_TEXT else element.text_length
            )
            found = values.url_problems(text) + values.loc_length_problems(length)
        elif kind is Text.LASTMOD:
            found = values.date_problems(text, "lastmod", now=self._now)
        elif kind is Text.CHANGEFREQ:
            found = values.changefreq_problems(text)
        elif kind is Text.PRIORITY:
            found = values.priority_problems(text)
        elif kind is Text.URL:
            found = values.url_problems(text, display(element.name))
        elif kind is Text.DATE:
            found = values.date_problems(text, display(element.name), now=None)
        else:
            problem = element.spec.check(text) if element.spec.check is not None else None
            shown = f"<{display(element.name)}> {text[:80]!r}"
            found = [(Check.EXTENSION_VALUE, f"{shown} {problem}")] if problem else []
        for check, message in found:
            self._emit(check, message, element.line, element.column)
        entry = self._entry
        if entry is None or kind is Text.STRING or self._stack[-1].name not in _ENTRIES:
            return
        # The set-level checks see a value only when it is valid (the loc always: duplicates).
        if kind is Text.LOC:
            entry.loc = values.trim(text)
        elif kind is Text.LASTMOD and not any(c is Check.LASTMOD_FORMAT for c, _ in found):
            entry.lastmod = values.trim(text)
        elif kind is Text.PRIORITY and not found:
            entry.priority = values.trim(text)
        elif kind is Text.CHANGEFREQ and not found:
            entry.changefreq = text

    def _finish_url(self, entry: Entry, element: _Open) -> None:
        if entry.images > MAX_IMAGES_PER_URL:
            self._emit(
                Check.TOO_MANY_IMAGES,
                f"{entry.images:,} images on one URL; at most {MAX_IMAGES_PER_URL:,} are read",
                element.line,
                element.column,
            )
        if entry.alternates and entry.loc is not None and entry.loc not in entry.alternates:
            self._emit(
                Check.HREFLANG_SELF,
                f"hreflang alternates of {entry.loc} do not include the URL itself; every "
                "language version must list itself too, or engines may ignore the set",
                element.line,
                element.column,
            )

    def _emit(self, check: Check, message: str, line: int | None, column: int | None) -> None:
        self._sink.emit(check, message, line, column)
