"""Where an index's children are on disk, for a site checked or submitted before it is deployed.

A file on disk has no URL. With a base URL (``--base-url``, the URL the folder holding the index
is served at) a child's URL names its file under that folder. Without one, the children's URLs
tell it: the index's folder stands for the URL folder they all share
(``https://example.org/docs/`` for ``docs/sitemap-1.xml`` and ``docs/sitemap-2.xml``), or for a
parent of it where the children are found deeper on disk: one mike version
(``2.0/sitemap.xml``) or Read the Docs' ``en/latest/sitemap.xml`` and ``en/1.0/sitemap.xml``
beside the index. A folder that would make a child the index file itself is never taken: a
missing ``2.0/sitemap.xml`` is missing, not the index, which shares its name.

``validate`` and ``submit`` both follow indexes on disk, and find children by this one rule;
both take a folder for the same sitemap (:func:`folder_sitemap`).
"""

from __future__ import annotations

import posixpath
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Final
from urllib.parse import unquote, urlsplit

from sitemap_plugins.core.urls import directory_url
from sitemap_plugins.validate import values

FOLDER_SITEMAPS: Final = ("sitemap.xml", "sitemap.xml.gz")
"""What a folder without robots.txt ``Sitemap:`` lines stands for, the first found."""


def folder_sitemap(folder: Path) -> Path | None:
    """The sitemap of ``folder``: its ``sitemap.xml``, else its ``sitemap.xml.gz`` (a site
    built with ``gzip: on`` publishes only that one); None when neither is a file."""
    for name in FOLDER_SITEMAPS:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


@dataclass(frozen=True, slots=True)
class LocalSite:
    """A local folder and the URL it is served at: how URLs are found on disk."""

    root: Path
    base_url: str

    def path_of(self, url: str) -> Path | None:
        """The file ``url`` names under :attr:`root`; None for a URL outside :attr:`base_url`
        (or the folder itself). ``..`` never leads out of the folder."""
        if not url.startswith(self.base_url):
            return None
        relative = unquote(urlsplit(url[len(self.base_url) :]).path)
        normal = posixpath.normpath("/" + relative).lstrip("/")
        return self.root / normal if normal and normal != "." else None


def children_site(index: Path, locs: Sequence[str]) -> LocalSite | None:
    """The URL the folder holding ``index`` is served at, as the child URLs ``locs`` tell it.

    Tried from the children's shared URL folder up to the host root: the first under which
    every child is a file, else the one under which the most are (the deepest of equals).
    Folders that map a child onto ``index`` itself are left out. None when the children are
    not all http(s) URLs of one scheme and host, or every folder maps one onto the index.
    """
    urls = [values.trim(loc) for loc in locs if is_web_url(loc)]
    common = common_folder(urls)
    if common is None:
        return None
    index_id = _file_id(index)
    best: LocalSite | None = None
    best_found = -1
    for base in _folder_and_parents(common):
        site = LocalSite(index.parent, base)
        ids = [_file_id(path) for path in map(site.path_of, urls) if path is not None]
        if index_id is not None and index_id in ids:
            continue
        found = sum(1 for file_id in ids if file_id is not None)
        if found == len(urls):
            return site
        if found > best_found:
            best, best_found = site, found
    return best


def is_index_itself(path: Path, index: Path) -> bool:
    """Whether ``path`` is the file ``index`` (through a link too)."""
    found = _file_id(path)
    return found is not None and found == _file_id(index)


def is_web_url(url: str) -> bool:
    """An http(s) URL with a host (``urlsplit`` refusing the text counts as not one)."""
    try:
        parts = urlsplit(values.trim(url))
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.netloc)


def origin(url: str) -> str:
    """``scheme://host`` of a URL, in lower case."""
    parts = urlsplit(values.trim(url))
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def common_folder(urls: Sequence[str]) -> str | None:
    """The deepest URL folder that holds every URL (at least the host root), or None."""
    if not urls or len({origin(url) for url in urls}) != 1:
        return None
    folders = [directory_url(values.trim(url)).rstrip("/").split("/") for url in urls]
    shared: list[str] = []
    for segments in zip(*folders, strict=False):
        if len(set(segments)) != 1:
            break
        shared.append(segments[0])
    common = "/".join(shared) + "/"
    root = origin(urls[0]) + "/"
    return common if len(common) >= len(root) else root


def _folder_and_parents(folder: str) -> Iterator[str]:
    """``https://h/a/b/``, ``https://h/a/``, ``https://h/``: a URL folder, then each parent."""
    root = origin(folder) + "/"
    while len(folder) > len(root):
        yield folder
        folder = folder[: folder.rstrip("/").rindex("/") + 1]
    yield root


def _file_id(path: Path) -> tuple[int, int] | None:
    """The device and inode of a regular file (links followed), None for anything else: one
    ``stat`` tells both whether a child is there and whether it is the index."""
    try:
        found = path.stat()
    except (OSError, ValueError):
        return None
    return (found.st_dev, found.st_ino) if stat.S_ISREG(found.st_mode) else None
