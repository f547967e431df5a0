"""Keeping a ``Sitemap:`` line in robots.txt true without disturbing the rest of the file.

``Sitemap:`` lines stand outside user-agent groups, so ours can go anywhere; we update the line
that names our sitemap and leave every other byte alone.

Which line is ours must be known, not guessed: a site's robots.txt often names other sitemaps
of the same file name (a blog's ``/blog/sitemap.xml``, a shop's ``sitemap.xml`` on another
host), and those are the site owner's. A line is ours when it names the URL we publish, or a
URL that the publisher's record says an earlier build of ours wrote into this robots.txt
(``previous``) for a file of the same name: the same sitemap under an old base URL or folder,
as when a site moves to a host of its own. Any other line the record names is ours too, for
a file the build no longer publishes (another file name), and goes with that file (see
:meth:`.publish.Publication.stage_robots`). Without that record (a first build) only the
exact URL is ours, so a moved site keeps its old line beside the new one rather than risk
deleting someone else's; a record written before lines were recorded stands for the lines its
release wrote, each exactly the URL of an entry point it names.

Lines are read as crawlers read them (RFC 9309, and Google's parser): a byte order mark at the
start of the file is not part of the first line, ``#`` starts a comment, the name is
case-insensitive and space may surround it. ``validate`` reads them the same way; a line that
one read as ours and the other did not would give a robots.txt with two lines for one sitemap.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Final
from urllib.parse import urlsplit

from sitemap_plugins.core.urls import url_identity

_SITEMAP_LINE: Final = re.compile(
    r"[ \t]*sitemap[ \t]*:[ \t]*(?P<url>[^ \t].*?)[ \t]*", re.IGNORECASE | re.DOTALL
)
"""Space is RFC 9309's (space and tab): a no-break space after a URL is part of what the line
says, for the check to report, not space to drop."""
_BOM: Final = "\ufeff"
_BREAK: Final = re.compile(r"\r\n|\r|\n")
_LINE: Final = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def sitemap_line_url(line: str) -> str | None:
    """The URL a robots.txt line names as ``Sitemap:``, or None for any other line.

    ``line`` is one line, without its line break; a comment after the URL is not part of it.
    """
    span = _url_span(line)
    return None if span is None else line[span[0] : span[1]]


def _url_span(line: str) -> tuple[int, int] | None:
    """Where the URL of a ``Sitemap:`` line lies in ``line``, so that it can be replaced and
    the rest of the line (its spacing, a comment) kept."""
    match = _SITEMAP_LINE.fullmatch(line.split("#", 1)[0])
    return None if match is None else match.span("url")


def sitemap_urls(text: str) -> list[tuple[int, str]]:
    """Each ``Sitemap:`` line of a robots.txt as ``(line number, URL)``, read as an update
    reads it (see the module), for the check of a published robots.txt."""
    _, body = _split_bom(text)
    found = []
    for number, line in enumerate(_lines(body), 1):
        url = sitemap_line_url(line.rstrip("\r\n"))
        if url is not None:
            found.append((number, url))
    return found


def robots_text(current: str, sitemap_url: str, *, previous: Collection[str] = ()) -> str:
    """``current`` with the ``Sitemap:`` line for ``sitemap_url`` added or updated.

    Pure text in, text out: reading the file (which must be UTF-8) and replacing it without
    changing its mode is the publisher's job, done in step with the sitemap files. The first
    line of ours (see the module: ``sitemap_url`` itself, or a URL of ``previous`` for a file
    of the same name) gets ``sitemap_url`` and keeps everything else (a comment after it, its
    spelling of ``Sitemap``); any other line of ours repeats it and goes. Without one, a line
    is added, ending with the file's own line break, so a CRLF file stays one.
    """
    bom, body = _split_bom(current)
    result: list[str] = []
    placed = False
    for line in _lines(body):
        content = line.rstrip("\r\n")
        span = _url_span(content)
        if span is not None and _names(content[span[0] : span[1]], sitemap_url, previous):
            if not placed:
                result.append(line[: span[0]] + sitemap_url + line[span[1] :])
                placed = True
            continue
        result.append(line)
    if not placed:
        ending = _line_ending(body)
        if result and result[-1] == result[-1].rstrip("\r\n"):
            result[-1] += ending  # the last line had no line break
        result.append(f"Sitemap: {sitemap_url}{ending}")
    return bom + "".join(result)


def robots_without(current: str, sitemap_url: str, *, previous: Collection[str] = ()) -> str:
    """``current`` without the lines of ours for ``sitemap_url`` (as :func:`robots_text` knows
    them): a sitemap that is no longer published (the news sitemap of a build without recent
    articles)."""
    bom, body = _split_bom(current)
    lines = _lines(body)
    kept = [
        line
        for line in lines
        if (url := sitemap_line_url(line.rstrip("\r\n"))) is None
        or not _names(url, sitemap_url, previous)
    ]
    return current if len(kept) == len(lines) else bom + "".join(kept)


def sitemaps_named(current: str, among: Collection[str]) -> list[str]:
    """The URLs of ``among`` that a ``Sitemap:`` line of ``current`` names, in file order and
    once each: what the publisher records as the lines of ours the file now holds."""
    _, body = _split_bom(current)
    found = (sitemap_line_url(line.rstrip("\r\n")) for line in _lines(body))
    return list(dict.fromkeys(url for url in found if url is not None and url in among))


def _names(url: str, sitemap_url: str, previous: Collection[str]) -> bool:
    """Whether a line naming ``url`` is our line for ``sitemap_url``."""
    return _same_url(url, sitemap_url) or (
        url in previous and _file_name(url) == _file_name(sitemap_url)
    )


def _same_url(url: str, other: str) -> bool:
    """Whether two URLs are one as RFC 3986 compares them (:func:`.urls.url_identity`): a line
    naming ``https://Example.org:443/sitemap.xml`` is the line of
    ``https://example.org/sitemap.xml``, which a second line would repeat."""
    if url == other:
        return True
    identity = url_identity(url)
    return identity is not None and identity == url_identity(other)


def _lines(text: str) -> list[str]:
    """The lines of ``text`` with their line breaks, which RFC 9309 makes CR, LF or CRLF.

    Not ``str.splitlines``, which also breaks at form feeds and Unicode separators that a
    crawler reads as part of the line.
    """
    return _LINE.findall(text)


def _line_ending(text: str) -> str:
    """The file's own line break, for the lines we add: the first one it uses, else LF."""
    found = _BREAK.search(text)
    return "\n" if found is None else found.group()


def _split_bom(text: str) -> tuple[str, str]:
    """A leading byte order mark, kept as the file had it, and the text after it."""
    return (_BOM, text[1:]) if text.startswith(_BOM) else ("", text)


def _file_name(url: str) -> str:
    return urlsplit(url).path.rsplit("/", 1)[-1]
