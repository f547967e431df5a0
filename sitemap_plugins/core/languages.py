"""One sitemap for a site built once per language, each language in a folder of its own.

Some hosts build a multilingual site as one site per language, each served from a folder of the
main site (Pelican's i18n_subsites: ``/`` for the main language, ``/de/`` for German). Every
language's build only knows its own pages, with paths relative to its own folder, and its
translations' links relative to that folder too (``../hello.html`` from ``/de/``). Search engines
want one sitemap at the root whose every page lists each of its language versions, itself and
``x-default`` included, so the builds are joined here, after the last one, into the pages of one
site:

- every path moves under its language's folder (``hello.html`` of ``de`` is ``de/hello.html``),
  translation links too, with ``..`` resolved (``../hello.html`` from ``de/`` is ``hello.html``);
- a page that names no translations at all (an index, an archive, a tag listing) has as its
  language versions the pages at the same place in the other languages' folders: the same
  template, written once per language. Content names its translations, itself alone when it
  has none: then it has no versions, and a copy of it at the same place in another folder
  (i18n_subsites' ``I18N_UNTRANSLATED_ARTICLES = "keep"``) is no translation of it;
- ``x-default`` is the main language's version;
- an article (for the news sitemap) of another language's build is in that language: each
  build takes its own language as the default, so it names none of its own.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote

from sitemap_plugins.core.model import LeftOut, Page
from sitemap_plugins.core.urls import check_base_url

__all__ = ["LanguageSite", "folder_under", "join_language_sites", "under"]


@dataclass(frozen=True, slots=True)
class LanguageSite:
    """One language's build: its language, its folder under the joint site, what it wrote.

    ``prefix`` is the folder's served path relative to the joint base URL (``""`` for the main
    language at the root, ``"de/"``), in the form of the pages' own paths (raw for pages with
    ``encoded=False``). Paths in ``written`` are relative to that folder.
    """

    language: str
    prefix: str
    written: tuple[Page | LeftOut, ...]


def under(prefix: str, path: str) -> str:
    """``path`` (relative to the folder ``prefix``) relative to the joint root, dot segments
    resolved: ``under("de/", "../a/")`` is ``"a/"``. A folder keeps its trailing slash."""
    joined = prefix + path.lstrip("/")
    if not joined:
        return ""
    folder = joined.endswith("/") or posixpath.basename(joined) in (".", "..")
    normal = posixpath.normpath(joined)
    if normal == ".":
        return ""
    return normal + "/" if folder else normal


def join_language_sites(
    sites: Iterable[LanguageSite], default_language: str
) -> list[Page | LeftOut]:
    """The pages of every language's build as pages of one site, with their language versions.

    What each build left out stays left out, and is counted once, where it was.
    """
    sites = list(sites)
    # Where each page sits inside its own language's folder: the same place in another folder
    # is the same template in another language.
    places: dict[tuple[str, bool], dict[str, str]] = {}
    for site in sites:
        for item in site.written:
            if isinstance(item, Page) and not item.translations:
                key = (item.path.lstrip("/"), item.encoded)
                places.setdefault(key, {}).setdefault(site.language, under(site.prefix, item.path))
    moved: list[tuple[str, Page]] = []
    for site in sites:
        for item in site.written:
            if isinstance(item, LeftOut):
                continue
            if item.translations:
                translations = {
                    language: under(site.prefix, path)
                    for language, path in item.translations.items()
                }
            else:
                translations = places.get((item.path.lstrip("/"), item.encoded), {})
            article = item.article
            if (
                article is not None
                and article.language is None
                and site.language != default_language
            ):
                article = article._replace(language=site.language)
            page = dataclasses.replace(
                item,
                path=under(site.prefix, item.path),
                translations=translations if len(translations) > 1 else {},
                default_locale=default_language,
                article=article,
            )
            moved.append((site.language, page))
    left_out = [
        item if item.path is None else item._replace(path=under(site.prefix, item.path))
        for site in sites
        for item in site.written
        if isinstance(item, LeftOut)
    ]
    return [*_where_each_is(moved), *left_out]


def _where_each_is(pages: list[tuple[str, Page]]) -> list[Page]:
    """Each language version at the path its own language's build gives it.

    A build links a version in another language by the link it knows, which is not always where
    that version's own build serves it (a host that lists a page at the URL its file is served
    from, when its configured URL serves nothing). The version that links back to the page is
    the one meant, and its own path is the truth: ``claims[(lang, path, other)]`` is where the
    ``other`` version of the ``lang`` page at ``path`` says it is.
    """
    claims: dict[tuple[str, str, str], str] = {}
    for language, page in pages:
        for other, path in page.translations.items():
            if other != language:
                claims[(other, path, language)] = page.path
    fixed: list[Page] = []
    for language, page in pages:
        translations = {
            other: claims.get((language, page.path, other), path) if other != language else path
            for other, path in page.translations.items()
        }
        if translations != page.translations:
            page = dataclasses.replace(page, translations=translations)
        fixed.append(page)
    return fixed


def folder_under(base_url: str, url: str) -> str | None:
    """Where the site at ``url`` is served under the one at ``base_url`` (``"de/"`` for
    ``https://example.org/de`` under ``https://example.org``), raw, as file names are; ``""``
    for the same URL; None when it is not under it, or either is no usable base URL."""
    try:
        base, own = check_base_url(base_url), check_base_url(url)
    except ValueError:
        return None
    return unquote(own[len(base) :]) if own.startswith(base) else None
