"""The folders of a built site that one build was written to: where its 404 page is the
site's not-found page for that folder, not a page of its own.

A site may hold several builds: one per language (Hugo's ``fr/``, a Sphinx build per
``-D language``), one per version (mike's ``1.0/`` and its aliases ``latest/`` or ``stable/``,
Read the Docs' ``en/latest/``). No folder name tells them from a folder of pages
(``pages/``, ``http/``, a two-letter ``ui/``), so a folder is known by what a build writes at
its top: its own sitemap (``sitemap.xml``), MkDocs' ``search/search_index.json``, Sphinx's
``objects.inv``, ``searchindex.js`` or ``.buildinfo``, a ``versions.json`` beside it (mike's)
naming it as a version or alias, or a 404 page whose ``<html lang>`` names the folder, as a
translated build writes it (Pelican's subsites, a page saved as ``fr/404.html``). A folder the
caller knows for a build's (an i18n_subsites subsite that ``pelicanconf.py`` names, whose 404
page is in the main site's language) is one whatever it holds.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Final

from sitemap_plugins.core.html import head_of, html_lang
from sitemap_plugins.core.urls import language_names_folder
from sitemap_plugins.generate.file_checks import is_file

__all__ = ["BuildTops"]

_MARKERS: Final = (
    "sitemap.xml",
    "search/search_index.json",
    "objects.inv",
    "searchindex.js",
    ".buildinfo",
)
"""Files a build writes at its top: any generator's sitemap, MkDocs' search index, Sphinx's."""
_MIKE_VERSIONS: Final = "versions.json"


class BuildTops:
    """Which folders of ``site_dir`` a build was written to; each folder is looked at once, and
    only when a file named as a 404 page sits at its top. The ``known`` folders (posix, from
    the site's top) are builds' tops without a look."""

    def __init__(self, site_dir: Path, known: Iterable[str] = ()) -> None:
        self.site_dir = site_dir
        self._known: dict[str, bool] = dict.fromkeys(known, True)
        self._versions: dict[str, frozenset[str]] = {}

    def holds(self, folder: str, not_found_page: Path) -> bool:
        """Whether ``folder`` (posix, from the site's top) is a build's top, by its files or by
        the language of ``not_found_page``, the 404 page at its top."""
        known = self._known.get(folder)
        if known is None:
            where = self.site_dir / folder
            parent, _, name = folder.rpartition("/")
            known = any(is_file(where / marker) for marker in _MARKERS)
            known = known or name in self._mike_versions(parent)
            self._known[folder] = known
        return known or language_names_folder(html_lang(head_of(not_found_page)), folder)

    def _mike_versions(self, folder: str) -> frozenset[str]:
        """The versions and aliases mike's ``versions.json`` in ``folder`` names, if any."""
        known = self._versions.get(folder)
        if known is None:
            names: set[str] = set()
            try:
                listed = json.loads((self.site_dir / folder / _MIKE_VERSIONS).read_bytes())
            except (OSError, ValueError, RecursionError):
                listed = []
            for version in listed if isinstance(listed, list) else ():
                if isinstance(version, dict):
                    aliases = version.get("aliases")
                    for value in [
                        version.get("version"),
                        *(aliases if isinstance(aliases, list) else ()),
                    ]:
                        if isinstance(value, str):
                            names.add(value)
            known = self._versions[folder] = frozenset(names)
        return known
