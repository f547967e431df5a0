"""The files mkdocs-macros-plugin includes in a page, which date it too.

A page that holds ``{% include 'notice.md' %}`` changes when ``notice.md`` does, while its own
source stays as it was; MkDocs knows nothing of such files (its ``--dirty`` builds do not even
render the page again). The macros plugin renders each page's Markdown as a Jinja template in
an environment of its own, whose loader finds included files in its ``include_dir`` and the docs
folder. :class:`MacrosSources` reads the page's Markdown as the plugin is about to render it,
finds the templates it names statically (``include``, ``import``, ``from ... import``,
``extends``; a name computed at render time is not known before), and has that environment's
loader say which file each is, then does the same in each of those files for nested ones. It
never renders anything, never changes the environment, and never imports the plugin: it looks
at the plugin object MkDocs loaded. A name the loader cannot find dates nothing (the plugin
reports it as it renders).

Only pages the plugin renders count: not a page whose front matter says ``render_macros:
false`` (or ``ignore_macros: true``, its older spelling), nor, where the plugin renders only
pages that opt in (``render_by_default: false``), one that neither says ``render_macros: true``
nor lies under its ``force_render_paths``. The environment is ``env`` on the plugin in every
release from 1.0 on (an attribute, then a property); a plugin without one reads nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

import jinja2

from sitemap_plugins.other_plugins import loaded

__all__ = ["MACROS", "MacrosSources"]

MACROS: Final = "mkdocs_macros"
"""The package of mkdocs-macros-plugin, which its plugin class is defined in."""


class MacrosSources:
    """What one mkdocs-macros-plugin instance includes in a page, read before it renders it."""

    def __init__(self, plugin: object) -> None:
        self._plugin = plugin

    @classmethod
    def of(cls, plugins: Iterable[object]) -> MacrosSources | None:
        """For the first mkdocs-macros-plugin among MkDocs' ``plugins``; None without one
        (nothing is imported or looked up then)."""
        plugin = loaded(plugins, MACROS)
        return None if plugin is None else cls(plugin)

    def included(self, markdown: str, meta: Mapping[str, Any], src_path: str) -> tuple[str, ...]:
        """The files ``markdown``, the page at ``src_path`` (from the docs folder) with front
        matter ``meta``, includes when the plugin renders it, nested ones too: absolute, in
        the order first named, each once; none for a page the plugin does not render."""
        if not self._renders(meta, src_path):
            return ()
        try:
            env = getattr(self._plugin, "env", None)  # a property that raises before on_config
        except AttributeError:
            return ()
        if not isinstance(env, jinja2.Environment) or env.loader is None:
            return ()
        found: dict[str, None] = {}
        _resolve(env, markdown, found)
        return tuple(found)

    def _renders(self, meta: Mapping[str, Any], src_path: str) -> bool:
        """Whether the plugin renders this page, as its releases decide it."""
        if meta.get("render_macros") is False or meta.get("ignore_macros") is True:
            return False
        config = getattr(self._plugin, "config", None)
        if not isinstance(config, Mapping) or config.get("render_by_default", True):
            return True
        if meta.get("render_macros") is True:
            return True
        forced = getattr(self._plugin, "force_page_rendering", None)  # 1.2 on
        try:
            return callable(forced) and bool(forced(src_path))
        except Exception:  # the plugin's own method, not an API it promises
            return False


def _resolve(env: jinja2.Environment, source: str, found: dict[str, None]) -> None:
    """Add to ``found`` the file of each template ``source`` names, then theirs."""
    for name in _named(env, source):
        loader = env.loader
        if loader is None:
            return
        try:
            text, filename, _ = loader.get_source(env, name)
        except (jinja2.TemplateNotFound, OSError, UnicodeDecodeError):
            continue
        if not filename:
            continue  # a template from memory has no file to date
        path = os.path.abspath(filename)  # noqa: PTH100 - a str is kept
        if path in found:
            continue  # read once, even where two files include each other
        found[path] = None
        _resolve(env, text, found)


def _named(env: jinja2.Environment, source: str) -> Iterator[str]:
    """The templates ``source`` names statically, in order; none where it is no template."""
    import jinja2.meta  # with mkdocs-macros-plugin only: every MkDocs build imports this module

    try:
        names = jinja2.meta.find_referenced_templates(env.parse(source))
    except jinja2.TemplateSyntaxError:
        return  # the plugin reports it as it renders
    for name in names:
        if isinstance(name, str):  # None: a name computed at render time
            yield name
