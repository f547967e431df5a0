"""What a rendered page's ``<head>`` says about whether it belongs in a sitemap, and, when asked,
which images its body shows.

Hosts render pages we do not control (themes, redirect plugins), so the HTML is the only place a
``robots noindex`` meta or a redirect stub shows. This runs on every page of a build, so only
the head is read (from a file, never more than the head), only its ``<meta>`` tags are looked at,
and only those that could matter are parsed. With the ``images`` option the same single read
goes on through the body (:func:`read_page`), and only then.
"""

from __future__ import annotations

import html
import json
import os
import re
from html.parser import HTMLParser
from typing import Final, NamedTuple

from sitemap_plugins.core.model import Reason, WrittenText

__all__ = [
    "NOTHING_READ",
    "HeadScan",
    "PageRead",
    "head_of",
    "head_reason",
    "head_title",
    "html_lang",
    "read_head",
    "read_page",
    "scan_head",
]

_HEAD_END: Final = re.compile(r"</head\s*>", re.IGNORECASE)
_HEAD_END_BYTES: Final = re.compile(rb"</head\s*>", re.IGNORECASE)
_META_TAG: Final = re.compile(r"<meta\b[^>]*>", re.IGNORECASE)
_RELEVANT: Final = re.compile(r"robots|bot\b|refresh")
"""Matched in a lowered tag: a case-insensitive alternation has no letter to skip ahead to, so it
is tried at every character of every tag (7 µs a page, more than reading the head)."""
_ROBOTS_NAMES: Final = frozenset({"robots", "googlebot", "bingbot"})
_LINK_TAG: Final = re.compile(r"<link\b[^>]*>", re.IGNORECASE)
_PLAIN_TAG: Final = re.compile(
    r'<[A-Za-z]+((?:[ \t\n\r\f]+[A-Za-z_:][-A-Za-z0-9_:.]*="[^"&<>]*")*)[ \t\n\r\f]*/?>'
)
"""A tag whose attributes are all ``name="value"``, apart by HTML's own white space (not any
other a regular expression's ``\\s`` takes), no value holding ``&``, ``<`` or ``>``."""
_PLAIN_ATTRIBUTE: Final = re.compile(r'([A-Za-z_:][-A-Za-z0-9_:.]*)="([^"]*)"')
_HTML_LANG: Final = re.compile(r"<html\b[^>]*?\blang=[\"']?([A-Za-z0-9-]{1,35})", re.IGNORECASE)
_JSON_LD: Final = re.compile(
    r"<script\b[^>]*application/ld\+json[^>]*>(.*?)</script\s*>", re.IGNORECASE | re.DOTALL
)
_DATE_NAMES: Final = (
    "article:modified_time",
    "og:updated_time",
    "last-modified",
    "dcterms.modified",
)
_SCAN_WORDS: Final = ("bot", "refresh", "modified", "updated")
"""What a ``<meta>`` tag :func:`scan_head` reads names: robots (``robots``, ``googlebot``,
``bingbot``), a redirect, or a declared date (every name in :data:`_DATE_NAMES`)."""
_BASE_TAG: Final = re.compile(r"<base\b[^>]*>", re.IGNORECASE)
_TITLE: Final = re.compile(r"<title\b[^>]*>(.*?)</title\s*>", re.IGNORECASE | re.DOTALL)
_CHUNK: Final = 16_384
_READ_FLAGS: Final = os.O_RDONLY | getattr(os, "O_BINARY", 0)
_MOST: Final = 1_048_576
"""A head longer than this (inline scripts and styles) is read no further."""
_MOST_PAGE: Final = 16 * 1_048_576
"""With images on, a page is read up to this many characters; images further down are not seen."""


class _MetaAttributes(HTMLParser):
    """The attributes of one ``<meta>`` tag, with entities decoded as a browser would."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.values: dict[str, str] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.values = {name.lower(): (value or "") for name, value in attrs}

    handle_startendtag = handle_starttag


def head_of(page: str | os.PathLike[str]) -> str:
    """The page's text up to the end of its head: the text itself, or read from its file
    (:func:`read_head`); a file that cannot be read has no head to say anything.
    """
    if isinstance(page, str):
        end = _HEAD_END.search(page)
        return page if end is None else page[: end.start()]
    try:
        return read_head(page)
    except OSError:
        return ""


def read_head(path: os.PathLike[str]) -> str:
    """The text of the page file at ``path`` up to the end of its head, or ``OSError``.

    The file is read in pieces until ``</head>`` shows, so the body of a long page is never
    read. The error is left to the caller: a host's page was written by the host a moment ago,
    while ``generate`` walks files no one described to it, and must tell a file it cannot read
    from one that holds no page.
    """
    parts: list[bytes] = []
    # Bytes from the file descriptor, decoded once at the end: a buffered file object costs
    # three times what reading a head does.
    fd = os.open(path, _READ_FLAGS)
    cut = -1  # where the bytes show </head>, once they do
    try:
        read, tail = 0, b""
        while read < _MOST:
            chunk = os.read(fd, _CHUNK)
            if not chunk:
                break
            parts.append(chunk)
            found = _HEAD_END_BYTES.search(tail + chunk)  # also when </head> spans two pieces
            if found is not None:
                cut = read - len(tail) + found.start()
                break
            read += len(chunk)
            tail = chunk[-16:]
    finally:
        os.close(fd)
    data = b"".join(parts)
    # Only the head is decoded, not the body that came with it in the last piece. The text is
    # then cut as any page's text: at an end tag the pieces hid (its whitespace spanning more
    # than a piece's last bytes), or one whose wider whitespace shows only once decoded.
    text = (data if cut < 0 else data[:cut]).decode("utf-8", "replace")
    if "\r" in text:  # as a text stream reads it
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return head_of(text)


def _attributes(tag: str) -> dict[str, str]:
    """The tag's attributes as :class:`HTMLParser` reads them (names lowered, references
    decoded, the last of two of a name kept). A tag written plainly, every value in double
    quotes and no ``&``, reads the same by one regular expression, for a fifth of the cost:
    scanning a built site's heads parsed two such tags a page (a canonical link, a stylesheet)."""
    plain = _PLAIN_TAG.fullmatch(tag)
    if plain is not None:
        return {name.lower(): value for name, value in _PLAIN_ATTRIBUTE.findall(plain[1])}
    parser = _MetaAttributes()
    parser.feed(tag)
    parser.close()
    return parser.values


def _meta_tags(head: str) -> list[dict[str, str]]:
    return [_attributes(tag) for tag in _META_TAG.findall(head) if _might_matter(tag)]


def _might_matter(tag: str) -> bool:
    """Whether a ``<meta>`` tag can be about robots or a redirect; most tags of a head are not,
    and two substring searches say so for them. A character reference can spell either, as a
    browser decodes it (``name="&#114;obots"``)."""
    lowered = _decoded(tag).lower()
    return ("bot" in lowered or "refresh" in lowered) and _RELEVANT.search(lowered) is not None


def _asks_noindex(values: dict[str, str]) -> bool:
    """``noindex`` anywhere in the directives, or ``none``, which search engines read as
    ``noindex, nofollow``; a ``none`` that is another directive's value
    (``max-image-preview:none``) is not one."""
    if values.get("name", "").strip().lower() not in _ROBOTS_NAMES:
        return False
    content = values.get("content", "").lower()
    return "noindex" in content or (
        "none" in content and any(part.strip() == "none" for part in content.split(","))
    )


def _redirects(values: dict[str, str]) -> bool:
    return values.get("http-equiv", "").strip().lower() == "refresh" and "url=" in values.get(
        "content", ""
    ).lower().replace(" ", "")


def _reason(tags: list[dict[str, str]]) -> Reason | None:
    if any(_redirects(values) for values in tags):
        return Reason.REDIRECT_STUB
    if any(_asks_noindex(values) for values in tags):
        return Reason.NOINDEX
    return None


def head_reason(page: str | os.PathLike[str]) -> Reason | None:
    """Why a rendered page stays out of the sitemap, from one scan of its head, or None."""
    return _reason(_meta_tags(head_of(page)))


class PageRead(NamedTuple):
    """What one read of a rendered page gives: why it stays out, or the images of its main
    content (``src`` as written, in page order) and the ``<base href>`` they are relative to.
    ``unreadable`` is why the file could not be read at all (then nothing else is known).
    A named tuple: one is made per page, every build."""

    reason: Reason | None = None
    images: tuple[str, ...] = ()
    base: str | None = None
    title: str | None = None
    unreadable: str | None = None


NOTHING_READ: Final = PageRead()
"""What most pages' reads say: nothing to leave them out for, no image, base or title."""


def read_page(
    page: str | WrittenText | os.PathLike[str], *, images: bool, title: bool = False
) -> PageRead:
    """One read of a rendered page: its head always, its body only with ``images``.

    Without ``images`` this is :func:`head_reason`: the body of a file is never read. With it,
    the file is read once, whole (up to 16 MiB), and a page its head keeps out is not scanned.
    With ``title``, the head's ``<title>`` comes from that same read. Of a
    :class:`~.model.WrittenText` the text is read, not the file.
    """
    if isinstance(page, WrittenText):
        page = page.text
    if not images:
        if isinstance(page, str):
            head = head_of(page)
        else:
            try:
                head = read_head(page)
            except OSError as error:
                return PageRead(unreadable=error.strerror or str(error))
        return PageRead(_reason(_meta_tags(head)), title=head_title(head) if title else None)
    from sitemap_plugins.core.images import main_images  # only builds with images import it

    if not isinstance(page, str):
        try:
            with open(page, encoding="utf-8", errors="replace") as stream:
                text = stream.read(_MOST_PAGE)
        except OSError as error:
            return PageRead(unreadable=error.strerror or str(error))
    else:
        text = page
    end = _HEAD_END.search(text, 0, _MOST)
    # Without </head>, the whole text is both (as head_of reads it for the reason).
    head, body = (text, text) if end is None else (text[: end.start()], text[end.end() :])
    reason = _reason(_meta_tags(head))
    if reason is not None:
        return PageRead(reason)
    found_title = head_title(head) if title else None
    base = None
    for tag in _BASE_TAG.findall(head):
        href = _attributes(tag).get("href", "").strip()
        if href:
            base = href
            break
    return PageRead(None, tuple(main_images(body)), base, found_title)


class HeadScan(NamedTuple):
    """Everything a page's head says that a sitemap can use, from one read of it.

    ``reason``: robots ``noindex`` or a meta-refresh redirect, the page stays out.
    ``canonical``: the ``href`` of ``<link rel="canonical">``, as written (relative or not).
    ``modified``: a modification date the page declares, as written: JSON-LD ``dateModified``,
    then ``article:modified_time``, ``og:updated_time``, ``last-modified``, ``dcterms.modified``.
    ``title``: the text of ``<title>``, for the page for humans.
    ``alternates``: each ``<link rel="alternate" hreflang=... href=...>``, as (hreflang, href)
    written, in page order; ``lang``: the ``lang`` of ``<html>``, read where there are some.
    """

    reason: Reason | None = None
    canonical: str | None = None
    modified: str | None = None
    title: str | None = None
    alternates: tuple[tuple[str, str], ...] = ()
    lang: str | None = None


def scan_head(page: str | os.PathLike[str]) -> HeadScan:
    """Read a rendered page's head once (for a built site the host did not describe to us).

    Only the tags that can say something are parsed: a theme's head has a dozen ``<meta>`` and
    ``<link>`` tags (charset, viewport, stylesheets, icons), and parsing each cost more than the
    rest of the scan.
    """
    head = head_of(page)
    metas = [_attributes(tag) for tag in _META_TAG.findall(head) if _may_say(tag, _SCAN_WORDS)]
    declared: dict[str, str] = {}
    for values in metas:
        key = values.get("property") or values.get("name") or values.get("http-equiv") or ""
        content = values.get("content", "").strip()
        if content and key.strip().lower() in _DATE_NAMES:
            declared.setdefault(key.strip().lower(), content)
    modified = _json_ld_modified(head) or next(
        (declared[name] for name in _DATE_NAMES if name in declared), None
    )
    canonical = None
    alternates: list[tuple[str, str]] = []
    for tag in _LINK_TAG.findall(head):
        if not _may_say(tag, ("canonical", "hreflang")):
            continue
        values = _attributes(tag)
        rel, href = values.get("rel", "").lower().split(), values.get("href", "").strip()
        if not href:
            continue
        if "canonical" in rel:
            canonical = href if canonical is None else canonical
        elif "alternate" in rel and values.get("hreflang", "").strip():
            alternates.append((values["hreflang"].strip(), href))
    lang = html_lang(head) if alternates else None
    return HeadScan(_reason(metas), canonical, modified, head_title(head), tuple(alternates), lang)


def html_lang(head: str) -> str | None:
    """The ``lang`` of the page's ``<html>`` tag, or None."""
    found = _HTML_LANG.search(head)
    return found.group(1) if found else None


def _may_say(tag: str, words: tuple[str, ...]) -> bool:
    """Whether a tag can name one of ``words`` in an attribute: it shows one, in any case, once
    its character references are decoded as a browser decodes them (``name="&#114;obots"``).
    An ``&`` alone (a stylesheet's ``?family=a&display=swap``) spells nothing."""
    lowered = _decoded(tag).lower()
    return any(word in lowered for word in words)


def _decoded(tag: str) -> str:
    """The tag with its character references decoded, as :class:`HTMLParser` decodes its
    attribute values (a reference cannot span a quote, so decoding the whole tag reads each
    value as it is read alone)."""
    return html.unescape(tag) if "&" in tag else tag


def _json_ld_modified(head: str) -> str | None:
    """``dateModified`` of the first JSON-LD object in the head that declares one."""
    for block in _JSON_LD.findall(head):
        try:
            data: object = json.loads(block)
        except ValueError:
            continue
        found = _find_key(data, "dateModified")
        if found is not None:
            return found
    return None


def _find_key(data: object, key: str, depth: int = 0) -> str | None:
    if depth > 8:
        return None
    if isinstance(data, dict):
        value = data.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
        children: list[object] = list(data.values())
    elif isinstance(data, list):
        children = list(data)
    else:
        return None
    for child in children:
        found = _find_key(child, key, depth + 1)
        if found is not None:
            return found
    return None


def head_title(page: str | os.PathLike[str]) -> str | None:
    """The text of the head's ``<title>``, as a browser shows it, or None.

    For the page for humans, when the host gave no title of its own (a generated listing).
    """
    found = _TITLE.search(head_of(page))
    if found is None:
        return None
    # Imported by the builds that read a title: a plugin's, for the page for humans alone.
    from sitemap_plugins.core.html_text import html_text

    return html_text(found.group(1)) or None
