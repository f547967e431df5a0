"""The sitemap files the host wrote itself, which ``generate`` replaces.

MkDocs writes ``sitemap.xml`` and ``sitemap.xml.gz`` with the build day as every page's
``lastmod``; Zensical writes ``sitemap.xml`` with none. Where ``generate`` writes the same names
it overwrites them; where it does not (``--gzip on`` writes the ``.gz`` alone, ``--format txt``
writes ``sitemap.txt``, ``--filename map.xml`` another name), the host's file would stay
published beside the true one, and crawlers read ``/sitemap.xml`` first. So those are removed
with the new set, as the MkDocs plugin keeps MkDocs from writing them at all, but only a file
that is recognisably a sitemap (a ``<urlset>``) and not one ``generate`` published itself (the
record removes those): a user's own file of that name is left alone, with a warning.

The host's ``.gz`` beside the file the run writes (MkDocs' ``sitemap.xml.gz`` beside
``sitemap.xml``) is what makes a run without ``--gzip`` write both files; under another
``filename`` it is removed with the host's ``sitemap.xml``. Once written, the
``.gz`` there is ours, so the record says it took the host's place, and the next run writes both
again: the same command on the same site gives the same files, however often a CI step is run.
A ``.gz`` an explicit ``--gzip both`` wrote is recorded as plainly ours, and a run without the
flag removes it.
"""

from __future__ import annotations

import dataclasses
import gzip
import re
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Final

from sitemap_plugins.core import Options
from sitemap_plugins.core.publish import is_ours, written_in_place_of_host
from sitemap_plugins.generate.file_checks import is_file

__all__ = ["HostSitemaps", "host_sitemaps"]

_HOST_FILES: Final = ("sitemap.xml", "sitemap.xml.gz")
"""The names the hosts write their sitemap under, whatever ``filename`` this run writes: MkDocs
and Zensical take no other."""

_URLSET: Final = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?urlset[\s>/]")
_HEAD: Final = 4096
"""Bytes read to recognise a urlset: its start tag comes right after the XML declaration."""


@dataclasses.dataclass(frozen=True)
class HostSitemaps:
    """What the host's own sitemap files change about a run."""

    options: Options
    """The options to write with: ``gzip`` both where the host wrote a ``.gz`` and the run
    does not say, so that both of the host's files are replaced."""
    replaces: tuple[str, ...]
    """The host's sitemap files the new set does not overwrite, to remove with it."""
    in_place_of_host: tuple[str, ...] = ()
    """The ``.gz`` the new set writes because the host wrote one (or an earlier run wrote one
    for that reason): recorded as such, so that the next run writes it again."""


def host_sitemaps(
    site_dir: Path, options: Options, explicit: frozenset[str], warn: Callable[[str], object]
) -> HostSitemaps:
    """The host's sitemap files in ``site_dir`` and what to do with them (see the module)."""
    filename = str(options.filename)
    gz = f"{filename}.gz"
    in_place: tuple[str, ...] = ()
    if "gzip" not in explicit and (_hosts(site_dir, gz) or written_in_place_of_host(site_dir, gz)):
        options = dataclasses.replace(options, gzip="both")
        in_place = (gz,)
    writes = {gz} if options.gzip != "off" else set()
    if options.gzip != "on":
        writes.add(filename)
    replaces = []
    for name in _HOST_FILES:
        if name in writes or not _hosts(site_dir, name):
            continue
        if _is_urlset(site_dir / name):
            replaces.append(name)
        else:
            warn(
                f"{site_dir / name} is left as it is: it is not a sitemap (no <urlset>), so "
                "not the host's, and this run writes no file of that name"
            )
    return HostSitemaps(options, tuple(replaces), in_place)


def _hosts(site_dir: Path, name: str) -> bool:
    """Whether ``name`` is a file someone else wrote: not one an earlier run published."""
    return is_file(site_dir / name) and not is_ours(site_dir, name)


def _is_urlset(path: Path) -> bool:
    """Whether ``path`` (gzip-compressed where its name says so) starts as a urlset."""
    try:
        if path.name.endswith(".gz"):
            with gzip.open(path, "rb") as stream:
                head = stream.read(_HEAD)
        else:
            with path.open("rb") as stream:
                head = stream.read(_HEAD)
    except (OSError, EOFError, zlib.error):
        return False
    return _URLSET.search(head) is not None
