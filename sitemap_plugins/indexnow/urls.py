"""The URLs a sitemap lists, an index followed, and what changed between two deploys.

A sitemap is a file or an http(s) URL. An index's children are read too: fetched from the index's
own host for a URL; on disk found under the folder ``base_url`` stands for (the URL of the folder
holding the index file), or else by the rule ``validate`` follows too
(:func:`~sitemap_plugins.validate.ondisk.children_site`): the index's folder stands for the URL
folder the children share, or a parent of it where they are found deeper
(``https://example.org/docs/2.0/sitemap.xml`` is ``2.0/sitemap.xml`` beside an index of
``https://example.org/docs/``), and never makes a child the index file itself.

URLs are compared as RFC 3986 compares them, as ``validate`` tells duplicates apart and the
writer lists a URL once (:func:`~sitemap_plugins.validate.values.web_parts`): a previous sitemap
that spells a URL otherwise (``caf%c3%a9`` for ``caf%C3%A9``, ``https://Example.org:443/`` for
``https://example.org/``) lists the same URL, which has not changed.

Each file may list only URLs under its own folder on its own scheme and host (the protocol's
scope, ``validate``'s E305): a sitemap that lists another's URLs could otherwise have them
submitted in the site's name. A URL outside is left out and counted. A file's folder is its URL's;
a local file's is ``base_url``, or without one its first URL's host (all a file on disk tells).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from sitemap_plugins.core.urls import in_scope, web_origin
from sitemap_plugins.validate import values
from sitemap_plugins.validate.collect import Listed, ListingError, read_listing
from sitemap_plugins.validate.findings import Check
from sitemap_plugins.validate.ondisk import (
    FOLDER_SITEMAPS,
    LocalSite,
    children_site,
    folder_sitemap,
    is_index_itself,
    is_web_url,
    origin,
)


@dataclass(slots=True)
class UrlSet:
    """Every URL of a sitemap (its index's children included) with its lastmod as written."""

    source: str
    urls: dict[str, str | None] = field(default_factory=dict)
    files: int = 0
    skipped: int = 0  # entries that are not absolute http(s) URLs
    outside: int = 0  # URLs outside the folder and host their file may list
    first_outside: tuple[str, str] | None = None  # the first of them, and that folder
    folder: str | None = None  # the URL of the sitemap's own folder, when it is known


def is_url(text: str) -> bool:
    return text.lower().startswith(("http://", "https://"))


def read_urls(
    target: str,
    *,
    base_url: str | None = None,
    timeout: float = 30.0,
    progress: Callable[[str], None] | None = None,
) -> UrlSet:
    """Read ``target`` (a path, a folder as ``validate`` takes one for its ``sitemap.xml`` or
    else ``sitemap.xml.gz``, or a URL) and its children.

    Raises :class:`~sitemap_plugins.validate.collect.ListingError` when any file of the set
    cannot be read in full: acting on part of a list would be worse than stopping.
    """
    found = UrlSet(target)
    spelled: dict[str, str] = {}  # each URL as compared -> as this set first spells it
    scope: str | None = None  # what the file being read may list; None: its first URL's host

    def keep(listed: Listed) -> None:
        nonlocal scope
        parts = urlsplit(listed.loc)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            found.skipped += 1
            return
        if scope is None:
            scope = web_origin(parts.scheme, parts.netloc) + "/"
        if not in_scope(listed.loc, scope):
            found.outside += 1
            if found.first_outside is None:
                found.first_outside = (listed.loc, scope)
            return
        found.urls[spelled.setdefault(_compared(listed.loc), listed.loc)] = listed.lastmod

    source: Path | str
    if is_url(target):
        source = target
    elif Path(target).is_dir():
        found_in = folder_sitemap(Path(target))
        if found_in is None:
            names = " or ".join(FOLDER_SITEMAPS)
            raise ListingError(target, Check.NO_SITEMAP, f"no {names} in the folder")
        source = found_in
    else:
        source = Path(target)
        if not source.exists():
            raise ListingError(str(source), Check.NOT_FOUND, "no such file")
    if isinstance(source, str):
        scope = _folder_of(source)
    elif base_url is not None:
        scope = base_url
    found.folder = scope

    def moved(url: str) -> None:
        """A sitemap answered from another URL (``example.org`` sends ``www.example.org``, an
        ``http`` URL ``https``) lists the URLs of the folder that answered."""
        nonlocal scope
        scope = _folder_of(url)

    answered_at: str | None = None  # the URL that answered for the sitemap, once redirected

    def site_moved(url: str) -> None:
        nonlocal answered_at
        moved(url)
        found.folder = scope
        answered_at = url

    if progress is not None:
        progress(str(source))
    listing = read_listing(source, timeout=timeout, on_url=keep, answered=site_moved)
    found.files = 1
    site: LocalSite | None = None
    if isinstance(source, Path) and listing.children:
        site = (
            LocalSite(source.parent, base_url)
            if base_url is not None
            else children_site(source, [child.loc for child in listing.children])
        )
    for child in listing.children:
        child_source = _child(source, child.loc, base_url, site, answered_at)
        scope = _folder_of(child.loc)
        if progress is not None:
            progress(str(child_source))
        inner = read_listing(child_source, timeout=timeout, on_url=keep, answered=moved)
        found.files += 1
        if inner.kind == "index":
            raise ListingError(
                str(child_source),
                Check.NESTED_INDEX,
                "is itself a sitemap index, listed by another index (the protocol forbids it)",
            )
    return found


def _folder_of(url: str) -> str:
    """The URL of the folder holding ``url``: the URLs a sitemap there may list start so."""
    parts = urlsplit(url)
    path = parts.path[: parts.path.rfind("/") + 1] or "/"
    return f"{parts.scheme}://{parts.netloc}{path}"


def _child(
    index: Path | str,
    loc: str,
    base_url: str | None,
    site: LocalSite | None,
    answered_at: str | None = None,
) -> Path | str:
    """Where the child ``loc`` of ``index`` is read: its URL, or its file as ``site`` maps it.
    An index read from a URL lists children on its own host, or on the host that answered it
    (``answered_at``, once redirects are followed: ``www.example.org`` for ``example.org``, a
    storage host the site sends its sitemap requests to)."""
    label = str(index)
    if not is_web_url(loc):
        raise ListingError(
            label, Check.NOT_ABSOLUTE, f"lists {loc!r}, which is not an absolute http(s) URL"
        )
    if isinstance(index, str):
        hosts = {origin(index), origin(answered_at or index)}
        if origin(loc) not in hosts:
            moved = f" (answered from {answered_at})" if len(hosts) > 1 else ""
            raise ListingError(
                label, Check.OUT_OF_SCOPE, f"lists {loc}, on another host{moved}; not fetched"
            )
        return loc
    if base_url is not None and not loc.startswith(base_url):
        raise ListingError(
            label,
            Check.OUT_OF_SCOPE,
            f"lists {loc}, which is not under {base_url} (--base-url, the URL of {index.parent})",
        )
    path = site.path_of(loc) if site is not None else None
    # With a base URL, a child at the index's own URL is the index (and is refused as nested);
    # without one, the index file is what a missing child of the same name would resolve to.
    if (
        path is not None
        and path.is_file()
        and (base_url is not None or not is_index_itself(path, index))
    ):
        return path
    if path is not None:  # the file is missing where the base URL, given or found, puts it
        hint = f" (looked for {path})"
    else:
        hint = "" if base_url else " (pass --base-url with the URL of the index's folder)"
    raise ListingError(label, Check.CHILD_MISSING, f"lists {loc}, not found on disk{hint}")


@dataclass(frozen=True, slots=True)
class Changes:
    """What changed from one sitemap set to the next, each list sorted."""

    added: tuple[str, ...]
    updated: tuple[str, ...]
    removed: tuple[str, ...]

    @property
    def urls(self) -> list[str]:
        """Every URL to submit: engines re-crawl added and updated ones, and drop removed."""
        return sorted({*self.added, *self.updated, *self.removed})


def changes(new: UrlSet, old: UrlSet) -> Changes:
    """Added URLs, URLs whose lastmod moved, and removed URLs.

    A URL without lastmod in the new set cannot be known to have changed: it is sent only when
    it is new. A lastmod counts as moved when it names another instant (``2024-05-01T10:00Z``
    and ``2024-05-01T12:00+02:00`` are the same). URLs are compared as RFC 3986 compares them,
    and each is given as the new set spells it (a removed one as the old set did).
    """
    before = {_compared(url): url for url in old.urls}
    still: set[str] = set()
    added, updated = [], []
    for url, lastmod in new.urls.items():
        key = _compared(url)
        still.add(key)
        earlier = before.get(key)
        if earlier is None:
            added.append(url)
        elif lastmod is not None and not _same_time(lastmod, old.urls[earlier]):
            updated.append(url)
    removed = [url for key, url in before.items() if key not in still]
    return Changes(tuple(sorted(added)), tuple(sorted(updated)), tuple(sorted(removed)))


def _compared(url: str) -> str:
    """``url`` as RFC 3986 compares it: one text for all its spellings."""
    parts = values.web_parts(url)
    return url if parts is None else "".join(parts)


def _same_time(new: str, old: str | None) -> bool:
    if old is None:
        return False
    a, b = values.instant_of(new), values.instant_of(old)
    return a == b if a is not None and b is not None else new == old
