"""Plugins of other packages that MkDocs loaded beside ours, found without importing them.

Pages are dated by what some of them read into a page or copy it from (includes, macros, a
monorepo's copies): each reader looks at the plugin object MkDocs made, never at its package,
so a site without that plugin imports and pays nothing for it.
"""

from __future__ import annotations

from collections.abc import Iterable

__all__ = ["loaded"]


def loaded(plugins: Iterable[object], package: str) -> object | None:
    """The first of MkDocs' ``plugins`` whose class ``package`` defines, or None."""
    for plugin in plugins:
        if type(plugin).__module__.partition(".")[0] == package:
            return plugin
    return None
