"""Which pages Material's tags plugin renders a listing of tagged pages into, and which pages it
lists: a listing changes when a page is tagged, when a tagged page's title changes, and when a
tagged page goes, though the page holding it stays as it was.

Material 9.3 to 9.5 render one listing, into the page its ``tags_file`` setting names (where a
``[TAGS]`` marker is, else at its end). Material 9.6 renders one wherever a page holds the
``<!-- material/tags -->`` directive (its ``listings_directive`` setting names it), which
may take a scope (``<!-- material/tags { include: [install] } -->``), and still into the pages
``tags_file`` and ``tags_extra_files`` name. A page is tagged when its metadata holds tags
under ``tags`` (9.6: the ``tags_name_property`` setting). Which tagged pages a scoped listing
shows is left to the plugin: every tagged page is taken for an item of every listing, so that
a listing is dated later than needed, never earlier (and a ``--dirty`` build, in which the
plugin sees only the pages it renders, dates it as a clean build does).

Read from the plugin objects MkDocs loaded and their settings, never by importing the plugin.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import Any, Final, NamedTuple

__all__ = ["MaterialTags"]

_PLUGIN_MODULE: Final = "material.plugins.tags."
"""Where Material defines its tags plugin (``material.plugins.tags.plugin``)."""


class _Instance(NamedTuple):
    """One tags plugin that renders listings: the metadata key its tags are under, the pages
    its settings name for a listing, and the directive that places one (None: 9.5 and older)."""

    name: str
    files: frozenset[str]
    directive: re.Pattern[str] | None


class MaterialTags:
    """The tags plugins MkDocs loaded that render listings (the plugin may be loaded twice)."""

    def __init__(self, instances: tuple[_Instance, ...]) -> None:
        self._instances = instances
        self._names = tuple(dict.fromkeys(instance.name for instance in instances))

    @classmethod
    def of(cls, plugins: Iterable[object]) -> MaterialTags | None:
        """For the tags plugins among MkDocs' ``plugins`` that render listings; None without
        one."""
        instances = []
        for plugin in plugins:
            if not type(plugin).__module__.startswith(_PLUGIN_MODULE):
                continue
            instance = _instance(getattr(plugin, "config", None))
            if instance is not None:
                instances.append(instance)
        return cls(tuple(instances)) if instances else None

    def tagged(self, meta: Mapping[str, Any]) -> bool:
        """Whether a page with metadata ``meta`` (as rendered: what Material's meta plugin
        adds included) is tagged, and so listed."""
        return any(meta.get(name) for name in self._names)

    def lists(self, src_uri: str, markdown: str) -> bool:
        """Whether the plugin renders a listing into the page of ``src_uri`` whose Markdown is
        ``markdown`` (before the plugin replaces its directives)."""
        for instance in self._instances:
            if src_uri in instance.files:
                return True
            if instance.directive is not None and instance.directive.search(markdown):
                return True
        return False


def _instance(settings: object) -> _Instance | None:
    """What one tags plugin's ``settings`` say, or None where it renders no listing: turned
    off, ``export_only`` (9.6), ``listings: false`` (9.6), or ``tags: false`` without a
    ``listings`` setting (9.5 and older, where it stops the whole plugin)."""
    if not isinstance(settings, Mapping) or not settings.get("enabled", True):
        return None
    renders = settings.get("listings") if "listings" in settings else settings.get("tags", True)
    if not renders or settings.get("export_only"):
        return None
    files = {str(settings["tags_file"])} if settings.get("tags_file") else set()
    extra = settings.get("tags_extra_files")
    if isinstance(extra, Mapping):
        files.update(str(name) for name in extra)
    directive = settings.get("listings_directive")
    if directive is None and not files:
        return None  # 9.5 and older without tags_file: no listing anywhere
    pattern = (
        None
        if directive is None
        else re.compile(r"<!--\s*?" + re.escape(str(directive)), re.IGNORECASE)
    )
    name = str(settings.get("tags_name_property") or "tags")
    return _Instance(name, frozenset(path.replace("\\", "/") for path in files), pattern)
