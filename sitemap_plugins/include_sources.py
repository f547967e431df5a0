"""The files mkdocs-include-markdown-plugin reads into a page, which date it too.

A page that holds ``{% include-markdown "../README.md" %}`` changes when the README does, while
its own source stays as it was; MkDocs knows nothing of such files (its ``--dirty`` builds do not
even render the page again). The plugin itself knows: for ``mkdocs serve`` to watch them, it
keeps a list of every local file its directives resolve (``include`` and ``include-markdown``,
nested ones, each match of a glob; never a URL), which it extends while it processes a page's
Markdown and empties only under ``serve``, after each page. :class:`IncludeSources` reads what
that list gained since it last looked, once MkDocs has rendered the page: the files that page
included. It only reads the list, never changes it or how the plugin resolves a file, and never
imports the plugin: it looks at the plugin object MkDocs loaded.

Each release line keeps the list somewhere else: on the plugin (``_files_watcher``, 6.0.3 on), in
its config (6.0.2), in its module (``FILES_WATCHER`` from 5.0 to 6.0.1, ``WATCHING_FILES`` in 4.x).
Releases before 4.0 keep none: nothing is recorded, and pages are dated by their own sources.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from typing import Final

from sitemap_plugins.other_plugins import loaded

__all__ = ["INCLUDE_MARKDOWN", "IncludeSources"]

INCLUDE_MARKDOWN: Final = "mkdocs_include_markdown_plugin"
"""The package of mkdocs-include-markdown-plugin, which its plugin class is defined in."""
_MODULE_LISTS: Final = ("FILES_WATCHER", "WATCHING_FILES")
"""Where releases 5.0 to 6.0.1, then 4.x, keep the list: in the plugin's module."""


class IncludeSources:
    """What one mkdocs-include-markdown-plugin instance included, page by page."""

    def __init__(self, plugin: object) -> None:
        self._plugin = plugin
        # What was listed before: not this build's pages'. The list can outlive a build, in a
        # module (releases up to 6.0.1) or on a plugin MkDocs keeps, and grows in every build.
        self._files = _included_files(plugin)
        self._taken = 0 if self._files is None else len(self._files)

    @classmethod
    def of(cls, plugins: Iterable[object]) -> IncludeSources | None:
        """For the first mkdocs-include-markdown-plugin among MkDocs' ``plugins``; None
        without one (nothing is imported or looked up then)."""
        plugin = loaded(plugins, INCLUDE_MARKDOWN)
        return None if plugin is None else cls(plugin)

    def take(self) -> tuple[str, ...]:
        """The files included since the last call, absolute, in the order first included.

        The plugin empties its list under ``serve`` by putting a new one in its place: a list
        that is not the one last read, or shorter than what was taken of it, is read whole."""
        files = _included_files(self._plugin)
        if files is None:
            return ()
        start = self._taken if files is self._files and len(files) >= self._taken else 0
        self._files, self._taken = files, len(files)
        found: dict[str, None] = {}  # in the order included, each once
        for path in files[start:]:
            if isinstance(path, str) and path and "://" not in path:  # a URL dates nothing
                found.setdefault(os.path.abspath(path))  # noqa: PTH100 - a str is kept
        return tuple(found)


def _included_files(plugin: object) -> list[object] | None:
    """The plugin's list of the files it included, wherever its release keeps it."""
    watcher = getattr(plugin, "_files_watcher", None)  # 6.0.3 on (made on first use)
    if watcher is None:
        config = getattr(plugin, "config", None)
        if isinstance(config, Mapping):
            watcher = config.get("_files_watcher")  # 6.0.2
    if watcher is None:
        module = sys.modules.get(type(plugin).__module__)
        for name in _MODULE_LISTS:
            watcher = getattr(module, name, None)
            if watcher is not None:
                break
    files = getattr(watcher, "included_files", None)
    return files if isinstance(files, list) else None
