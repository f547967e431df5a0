"""Material reads the site's ``sitemap.xml``: where the options leave none, that is a warning.

Material's instant navigation (``navigation.instant`` among the theme's ``features``) follows in
place only the links its site's ``sitemap.xml`` lists, and its version selector (``extra.version``
with a ``provider``, mike's) finds the same page in another version there. Zensical, Material's
successor, has the same theme and reads the same file (its bundle fetches ``new
URL("sitemap.xml", base)``). MkDocs and Zensical always wrote that file; with ``gzip`` on,
another ``filename`` or ``format`` txt we write none, and both fall back without a word: every
page loads in full, a version switch lands on the version's home page.

The MkDocs plugin decides this from ``mkdocs.yml`` as MkDocs loaded it, and ``generate`` from
the host's config file it read (the family is moving to hosts without Python plugins): one
decision and one wording for both, each caller naming where an option's value was set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from sitemap_plugins.core import Options

__all__ = ["MATERIAL_THEMES", "material_misses_sitemap"]

MATERIAL_THEMES: Final = frozenset({"material", "zensical"})
"""The themes that are Material's: Zensical takes either name for its own, Material's successor;
MkDocs knows only ``material``."""

_READ: Final = "sitemap.xml"
"""The one name the theme reads, at the top of the site."""


def material_misses_sitemap(
    theme: str | None,
    features: object,
    version_provider: bool,
    options: Options,
    named: Callable[[str, str], str],
) -> str | None:
    """Why Material would find no ``sitemap.xml`` where it reads one, or None.

    ``theme`` is the theme's name as the host resolves it, ``features`` the theme's
    ``features`` (a list of names, or whatever the config holds), ``version_provider`` whether
    ``extra.version`` names a ``provider``. ``named(option, value)`` says where the value of a
    sitemap option was set, for the message (``the sitemap option gzip 'on' in mkdocs.yml``,
    ``--gzip 'on'``): ``filename`` stands for the file ``format`` names when no filename is
    given."""
    if theme not in MATERIAL_THEMES:
        return None
    readers: list[tuple[str, str]] = []
    if isinstance(features, (list, tuple)) and "navigation.instant" in features:
        readers.append(("instant navigation", "loads every page in full"))
    if version_provider:
        readers.append(("version selector", "lands on a version's home page"))
    if not readers:
        return None
    if options.filename != _READ:
        cause = named("filename", str(options.filename))
    elif options.gzip == "on":
        cause = f"{named('gzip', 'on')} ({_READ}.gz alone)"
    else:
        return None
    effects = " and its ".join(f"{reader} {effect}" for reader, effect in readers)
    return (
        f"Material reads {_READ}, which {cause} leaves unwritten: its {effects}. Keep "
        f"{_READ} with gzip 'both' or 'off' and the default filename and format"
    )
