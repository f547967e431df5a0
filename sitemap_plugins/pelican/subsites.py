"""i18n_subsites: one Pelican build per language, joined into one sitemap at the main site's root.

The i18n_subsites plugin builds the main site, then one subsite per language of
``I18N_SUBSITES``, each by a Pelican instance of its own, in the same process, whose settings are
a copy of the main site's with ``DEFAULT_LANG``, ``SITEURL`` (``https://example.org/de``) and
``OUTPUT_PATH`` (``output/de``) changed. It runs them inside the main build, before the main site
writes anything, so every subsite has finished when the main site finishes: the main site's
sitemap is the one place all the languages meet.

A subsite finds its main site in the settings it copied from it (the main site's state sits
there, :data:`sitemap_plugins.pelican._KEY`), hands over what it wrote instead of writing a
sitemap of its own, and the main site joins all the languages
(:mod:`sitemap_plugins.core.languages`).
A translation that lives in another subsite is linked by i18n_subsites with its URL there,
relative to this subsite (``../hello.html``), which the join resolves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from sitemap_plugins.core import LanguageSite, LeftOut, Page, join_language_sites

__all__ = ["Languages", "loaded"]

_PLUGIN: Final = "i18n_subsites"


def loaded(plugin_names: set[str], settings: Mapping[str, Any]) -> bool:
    """Whether i18n_subsites builds subsites: loaded (as ``i18n_subsites`` from the old
    pelican-plugins collection or ``pelican.plugins.i18n_subsites``) and given languages."""
    names = {name.rsplit(".", 1)[-1] for name in plugin_names}
    return _PLUGIN in names and bool(settings.get("I18N_SUBSITES"))


@dataclass
class Languages:
    """The languages of a main site and its subsites, and what the subsites wrote this run."""

    main: str
    subsites: frozenset[str]
    finished: list[LanguageSite] = field(default_factory=list)
    apart: set[str] = field(default_factory=set)
    """The subsites served outside the main site (another host): each writes a sitemap of its
    own, with its language alone."""

    @classmethod
    def of(cls, settings: Mapping[str, Any]) -> Languages:
        main = str(settings.get("DEFAULT_LANG") or "")
        return cls(main, frozenset(map(str, settings.get("I18N_SUBSITES") or ())) - {main})

    def has_site(self, language: str) -> bool:
        """Whether ``language`` is built as a site of its own (the main one or a subsite)."""
        return language == self.main or language in self.subsites

    def in_one_sitemap(self, language: str, other: str) -> bool:
        """Whether pages in ``language`` and in ``other`` are listed in one sitemap, and so
        may name each other as language versions: a subsite served apart lists its own alone.
        """
        return other == language or (language not in self.apart and other not in self.apart)

    def join(self, main_written: Iterable[Page | LeftOut]) -> list[Page | LeftOut]:
        """The main site's pages and every finished subsite's, as the pages of one site."""
        sites = [LanguageSite(self.main, "", tuple(main_written)), *self.finished]
        self.finished = []
        return join_language_sites(sites, self.main)
