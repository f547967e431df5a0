"""A URL list as the pages of a sitemap: one URL per line, optionally a tab and a lastmod.

The way to write a sitemap set for millions of URLs from a database export. Each line becomes a
:class:`~sitemap_plugins.core.Page` under the base URL, so every rule of the plugins applies to
it (percent-encoding once, the length limit, the sitemap's scope, ``exclude`` and ``rules``,
defaults, a lastmod that is unreadable or in the future), and the core's streaming build sorts,
deduplicates and splits them with bounded memory. Lines are read as bytes, one at a time: a
line that is not UTF-8 is percent-encoded byte for byte, never a crash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Final
from urllib.parse import urlsplit

from sitemap_plugins.core.model import LeftOut, Page, Reason
from sitemap_plugins.core.report import Code, Reporter
from sitemap_plugins.core.urls import encode_path, host_and_port, remove_dot_segments

__all__ = ["url_list_pages"]

_SHOWN: Final = 200


def url_list_pages(
    lines: Iterable[bytes],
    label: str,
    base_url: str,
    reporter: Reporter,
    progress: Callable[[int], None] | None = None,
) -> Iterator[Page | LeftOut]:
    """Each URL of the list as a page (its line, ``FILE:N``, names it in messages).

    Blank lines and lines starting with ``#`` are skipped. A URL keeps its query string
    (``search?q=x&page=2`` is a page of its own, as a server answers it); a URL outside
    ``base_url`` (another scheme, host or folder), or with a fragment, is left out with a
    warning: a fragment names a place in a page, and search engines drop it, so listing it
    would list the page again under another name.
    """
    base = urlsplit(base_url)
    scheme, host, folder = base.scheme, host_and_port(base), base.path
    outside = f"is not a URL under the base URL {base_url}"
    for number, raw in enumerate(lines, 1):
        if progress is not None and number % 4096 == 0:
            progress(number)
        line = raw.decode("utf-8", "surrogateescape").rstrip("\r\n")
        if line.startswith("\ufeff") and number == 1:
            line = line[1:]
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        url, _, rest = line.partition("\t")
        url, lastmod = url.strip(), rest.strip() or None
        origin = f"{label}:{number}"
        found = _relative(url, scheme, host, folder, outside)
        if isinstance(found, str):
            reporter.warning(Code.BAD_URL, f"{origin}: {url[:_SHOWN]!r} {found}; left out")
            yield LeftOut(Reason.BAD_URL, origin)
            continue
        path, query = found
        yield Page(path=path, origin=origin, updated=lastmod, encoded=True, query=query)
    if progress is not None:
        progress(-1)


def _relative(url: str, scheme: str, host: str, folder: str, outside: str) -> tuple[str, str] | str:
    """The path of ``url`` under the base URL's folder and its query (empty for none, as for
    ``page?``), or why it cannot be listed (``outside`` when it is not under that folder, once
    its dot segments are resolved)."""
    try:
        parts = urlsplit(url)
        netloc = host_and_port(parts)
    except ValueError:
        return outside
    if parts.scheme.lower() != scheme or netloc != host or "@" in parts.netloc:
        return outside  # with a user name or password it is not under the base URL either
    try:
        # Encoded once as the base URL's folder is (a raw "café/" is "caf%C3%A9/"), then dot
        # segments resolved: "docs/%2e%2e/admin" is "/admin", as a server reads it.
        path = remove_dot_segments(encode_path(parts.path or "/"))
    except ValueError:  # a lone surrogate that is no undecodable byte of the line
        return "holds characters that have no UTF-8 encoding"
    if not path.startswith(folder):
        return outside
    if "#" in url:
        return "has a fragment, which names a place in a page, not a page (list the page's URL)"
    relative = path[len(folder) :]
    if relative.startswith("/"):
        # An empty first segment ("docs//double"): a page's path has no leading slash, and "./"
        # is how RFC 3986 (4.2) writes a relative path that would otherwise start with one.
        relative = "./" + relative
    return relative, parts.query
