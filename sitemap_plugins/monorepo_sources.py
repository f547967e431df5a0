"""The files mkdocs-monorepo-plugin copied a site's pages from, which date the pages.

The plugin merges the site's docs folder and each sub-project's (a nav entry ``!include`` naming
its ``mkdocs.yml``) into a new temporary folder, which MkDocs then builds as its ``docs_dir``. Only
as MkDocs renders a page does the plugin point the page's ``abs_src_path`` back at the file it
copied (``on_pre_page``). A page that ``mkdocs build --dirty`` does not render again keeps the
copy's path: a file outside git, in a folder each process makes anew, which dates nothing.

The plugin keeps, for its own use, which file it copied to each path (``files_source_dir``) and
the docs folder the configuration names (``originalDocsDir``), both since 1.0: a page is dated by
that file, and what is kept of it between builds is kept for that folder. :class:`MonorepoSources`
only reads them, never imports the plugin: it looks at the plugin object MkDocs loaded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from sitemap_plugins.other_plugins import loaded

__all__ = ["MONOREPO", "MonorepoSources"]

MONOREPO: Final = "mkdocs_monorepo_plugin"
"""The package of mkdocs-monorepo-plugin, which its plugin class is defined in."""


class MonorepoSources:
    """Where one mkdocs-monorepo-plugin instance copied the pages of the build from."""

    def __init__(self, plugin: object) -> None:
        self._plugin = plugin

    @classmethod
    def of(cls, plugins: Iterable[object]) -> MonorepoSources | None:
        """For the first mkdocs-monorepo-plugin among MkDocs' ``plugins``; None without one."""
        plugin = loaded(plugins, MONOREPO)
        return None if plugin is None else cls(plugin)

    def original(self, path: str) -> str:
        """The file the plugin copied to ``path``, or ``path`` itself where it copied none (a
        page it has already pointed back, a file of no sub-project, a build it did not merge)."""
        copies = getattr(self._plugin, "files_source_dir", None)
        found = copies.get(path) if isinstance(copies, Mapping) else None
        return found if isinstance(found, str) and found else path

    def docs_dir(self, docs_dir: str) -> str:
        """The docs folder the configuration names, for MkDocs' ``docs_dir`` (the temporary
        folder, once the plugin has merged the sub-projects into it)."""
        named = getattr(self._plugin, "originalDocsDir", None)
        return named if isinstance(named, str) and named else docs_dir
