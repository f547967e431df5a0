"""sphinx-sitemap's settings, read with the meaning they had there.

sphinx-sitemap builds each URL from its ``site_url`` (else ``html_baseurl``) and
``sitemap_url_scheme`` (``{lang}{version}{link}``), leaves out links matching
``sitemap_excludes``, lists hreflang alternates for ``sitemap_locales`` (or the translations it
finds in ``locale_dirs``: here only those Sphinx reads), and writes no lastmod when
``sitemap_show_lastmod`` is false. ``sitemap_filename`` and ``sitemap_indent`` are options of
ours under the same names. A value sphinx-sitemap would not take fails at config time, naming
it, like any option of ours.

One setting is ours alone: ``sitemap_language_folders`` names the folder ``{lang}`` stands for
where it is not the language's own name: ``pt-br`` for ``pt_BR``, or ``""`` for a language
served at the root (``/3/`` in English, ``/fr/3/`` in French), layouts sphinx-sitemap's
scheme cannot describe.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from sitemap_plugins.core import Code, OptionError, Reporter
from sitemap_plugins.core.urls import check_base_url

__all__ = [
    "DEFAULTS",
    "LANGUAGE_FOLDERS",
    "SETTINGS",
    "SITE_URL",
    "LinkExcludes",
    "UrlScheme",
    "footer_dates_note",
    "site_url",
    "translate",
]

SETTINGS: Final[Mapping[str, object]] = {
    "sitemap_url_scheme": None,
    "sitemap_excludes": [],
    "sitemap_locales": None,
    "sitemap_show_lastmod": None,
}
"""sphinx-sitemap's names that are not ours, with "not set" defaults: only what a user wrote
takes effect (unset, the URL scheme is ``{link}``: no language or version prefix is added)."""
DEFAULTS: Final[Mapping[str, object]] = {
    "sitemap_url_scheme": "{lang}{version}{link}",
    "sitemap_excludes": [],
    "sitemap_locales": [],
    "sitemap_show_lastmod": False,
}
"""The defaults sphinx-sitemap declared the same names with. Sphinx read a ``-D`` value by their
type (``-D sitemap_show_lastmod=0``, ``-D sitemap_locales=en,fr``), and so does the adapter."""
SITE_URL: Final = "site_url"
"""sphinx-sitemap's base URL, which it read before ``html_baseurl``: a version's build that set
it to its own folder (``/2.0/``) beside a canonical ``html_baseurl`` (``/latest/``) listed that
version's URLs, and keeps doing so. Unset by default."""
FOOTER_DATES: Final = "sphinx_last_updated_by_git"
"""The extension sphinx-sitemap loaded for ``sitemap_show_lastmod = True``: it also puts each
page's date in the theme's footer ("Last updated on ...")."""
LANGUAGE_FOLDERS: Final = "sitemap_language_folders"
"""Our setting for the folders ``{lang}`` stands for (see the module), unset by default."""
_FOLDERS_ALLOWED: Final = (
    "a mapping of language to the folder it is served under, such as "
    "{'pt_BR': 'pt-br', 'en': ''} ('' for the root)"
)


@dataclass(frozen=True, slots=True)
class UrlScheme:
    """Where a Sphinx link is served: the scheme with this build's language and version."""

    template: str
    language: str
    version: str
    source_language: str
    locales: tuple[str, ...]
    folders: Mapping[str, str] = field(default_factory=dict)
    """The folder ``{lang}`` stands for, by language, where it is not the language's name."""

    def path(self, link: str, language: str | None = None) -> str:
        """The served path of ``link`` in ``language`` (this build's language by default)."""
        if self.template == "{link}":  # the default scheme, on every page: nothing to add
            return link
        lang = self.language if language is None else language
        folder = self.folders.get(lang, lang)
        return self.template.format(
            lang=f"{folder}/" if folder else "",
            version=f"{self.version}/" if self.version else "",
            link=link,
        )

    def folder(self) -> str:
        """Where this build's output folder is served (``"de/"`` for ``{lang}{link}``): the
        links are relative to the output folder, so what the scheme puts before them is the
        folder's own path. ``""`` for a scheme that puts anything after the link."""
        return self.path("") if self.template.endswith("{link}") else ""

    def translations(self, link: str) -> dict[str, str]:
        """``link`` in every language the site is built in, when the scheme can say where."""
        if not self.locales or "{lang}" not in self.template:
            return {}
        languages = {*self.locales, self.source_language, self.language} - {""}
        return {lang: self.path(link, lang) for lang in sorted(languages)}


@dataclass(frozen=True, slots=True)
class LinkExcludes:
    """``sitemap_excludes``, matched as sphinx-sitemap matched them: with :func:`fnmatch.fnmatch`,
    against the link it made of each page before the URL scheme adds a prefix.

    That link is not the one Sphinx writes: sphinx-sitemap made it of the page's name and
    ``html_file_suffix`` (``.html`` when unset), whatever ``html_link_suffix`` says, so a site
    linking ``secret`` (``html_link_suffix = ""``) excluded it with ``secret.html``. With the
    ``dirhtml`` builder (its own class, not a subclass: sphinx-sitemap asked for the class by its
    name) the link is the folder: ``""`` for ``index``, ``api/`` for ``api/index`` and
    ``api/page/`` for ``api/page``.
    """

    patterns: tuple[str, ...] = ()

    def match(self, pagename: str, *, directories: bool, file_suffix: str | None) -> bool:
        """Whether a pattern matches the page; ``directories`` for the dirhtml builder."""
        if not self.patterns:
            return False
        if not directories:
            link = pagename + (".html" if file_suffix is None else file_suffix)
        elif pagename == "index":
            link = ""
        else:
            link = pagename.removesuffix("/index") + "/"
        return any(fnmatch.fnmatch(link, pattern) for pattern in self.patterns)


def translate(
    settings: Mapping[str, object],
    ours: Mapping[str, object],
    *,
    language: str,
    version: str,
    source_language: str,
    locale_dirs: Iterable[Path],
    reporter: Reporter,
    folders: object = None,
) -> tuple[dict[str, object], UrlScheme, LinkExcludes]:
    """Our option values with sphinx-sitemap's equivalents mapped in, the URL scheme, and
    sphinx-sitemap's exclude patterns.

    ``settings`` holds sphinx-sitemap's names, ``ours`` our own options (by their core names).
    Its exclude patterns are not added to ours, which match the served path or the source file:
    they match a link of sphinx-sitemap's own making (see :class:`LinkExcludes`), which only
    the adapter can make. ``folders`` is the value of :data:`LANGUAGE_FOLDERS`.
    """
    scheme = UrlScheme(
        template=_url_scheme(settings["sitemap_url_scheme"]),
        language=language,
        version=version,
        source_language=source_language or language,
        locales=_locales(settings["sitemap_locales"], locale_dirs),
        folders=_folders(folders),
    )
    explicit = settings["sitemap_locales"] not in (None, [], (), [None])
    for name, value, used in (
        ("sitemap_locales", settings["sitemap_locales"], explicit),
        (LANGUAGE_FOLDERS, folders, bool(scheme.folders)),
    ):
        if used and "{lang}" not in scheme.template:
            reporter.warning(
                Code.CONFLICT,
                f"{name} {value!r} has no effect: the URL scheme {scheme.template!r} has no "
                "{lang} (set sitemap_url_scheme, for example to '{lang}{link}', to list "
                "hreflang alternates)",
            )
    values = dict(ours)
    excludes = LinkExcludes()
    if settings["sitemap_excludes"]:
        patterns = _strings(settings["sitemap_excludes"])
        if patterns is None:
            allowed = "a list of URL patterns"
            raise OptionError("sitemap_excludes", settings["sitemap_excludes"], allowed)
        excludes = LinkExcludes(tuple(patterns))
    show = settings["sitemap_show_lastmod"]
    if show is not None:
        if not isinstance(show, bool):
            raise OptionError("sitemap_show_lastmod", show, "True or False")
        if not show:
            values["lastmod_sources"] = []
    return values, scheme, excludes


def footer_dates_note(show_lastmod: object, extensions: Collection[str]) -> str | None:
    """What to add to keep the footer dates, when ``sitemap_show_lastmod = True`` asked
    sphinx-sitemap for them and :data:`FOOTER_DATES` is not among the loaded ``extensions``.

    sphinx-sitemap loaded that extension itself for its lastmod, and with it came the footer
    dates: after the switch they would go without a word. Said as information, not a warning:
    the sitemap's dates need nothing (they come from git here), and ``-W`` must not fail a build
    that is right.
    """
    if show_lastmod is not True or FOOTER_DATES in extensions:
        return None
    return (
        "sitemap: sitemap_show_lastmod = True made sphinx-sitemap load "
        f"{FOOTER_DATES}, which also puts 'Last updated on ...' in each page's footer; "
        f"add {FOOTER_DATES!r} to extensions in conf.py to keep those dates (the sitemap's "
        "own dates come from git without it)"
    )


def base_url_note(site_url: str | None, html_baseurl: str | None) -> str | None:
    """The line that says which base URL is used when conf.py sets :data:`SITE_URL` and
    ``html_baseurl`` to two sites, else None. sphinx-sitemap read ``site_url`` first, and so
    do we; but a project may keep a top-level ``site_url`` for its templates, unaware that it
    now moves every URL of the sitemap."""
    if not site_url or not html_baseurl or _same_base_url(site_url, html_baseurl):
        return None
    return (
        f"sitemap: URLs are listed under {SITE_URL} {site_url!r}, not html_baseurl "
        f"{html_baseurl!r}: conf.py sets both, and {SITE_URL} comes first, as in "
        "sphinx-sitemap; set sitemap_base_url to choose the sitemap's base URL"
    )


def _same_base_url(one: str, other: str) -> bool:
    try:
        return check_base_url(one) == check_base_url(other)
    except ValueError:  # the core names an unusable one, if it is the one used
        return one.strip() == other.strip()


def site_url(value: object) -> str | None:
    """:data:`SITE_URL` checked as far as its type: text or unset. Whether the text is an
    absolute URL is the core's to check, as for ``html_baseurl``."""
    if value is None or isinstance(value, str):
        return value
    raise OptionError(SITE_URL, value, "an absolute URL such as 'https://example.org/docs/'")


def _url_scheme(value: object) -> str:
    """sphinx-sitemap's URL template; unset means no language or version prefix."""
    if value is None:
        return "{link}"
    allowed = "a string with {link}, optionally {lang} and {version}"
    if not isinstance(value, str) or "{link}" not in value:
        raise OptionError("sitemap_url_scheme", value, allowed)
    try:
        value.format(lang="", version="", link="")
    except (KeyError, IndexError, ValueError):
        raise OptionError("sitemap_url_scheme", value, allowed) from None
    return value


def _folders(value: object) -> dict[str, str]:
    """:data:`LANGUAGE_FOLDERS` checked: each folder relative, without empty or dot segments
    (a folder ``..`` would move a language out of the site)."""
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise OptionError(LANGUAGE_FOLDERS, value, _FOLDERS_ALLOWED)
    folders: dict[str, str] = {}
    for language, folder in value.items():
        if not isinstance(language, str) or not language or not isinstance(folder, str):
            raise OptionError(LANGUAGE_FOLDERS, value, _FOLDERS_ALLOWED)
        segments = folder.split("/")
        if folder and any(part in ("", ".", "..") or part != part.strip() for part in segments):
            raise OptionError(LANGUAGE_FOLDERS, value, _FOLDERS_ALLOWED)
        folders[language] = folder
    return folders


def _locales(value: object, locale_dirs: Iterable[Path]) -> tuple[str, ...]:
    """``sitemap_locales``, or when unset the languages ``locale_dirs`` holds catalogs for:
    each ``<dir>/<language>/LC_MESSAGES``, the only place Sphinx reads a translation from.

    sphinx-sitemap took every sub-folder for a language: the ``pot`` folder sphinx-intl's
    templates are kept in, or the ``.git`` of a translations repository cloned as the locales
    folder, became a language whose pages do not exist."""
    if value == [None]:
        return ()
    if value not in (None, [], ()):
        locales = _strings(value)
        if locales is None:
            allowed = "a list of locale names, or [None] to switch alternates off"
            raise OptionError("sitemap_locales", value, allowed)
        return tuple(locales)
    found: set[str] = set()
    for directory in locale_dirs:
        if directory.is_dir():
            found.update(
                child.name for child in directory.iterdir() if (child / "LC_MESSAGES").is_dir()
            )
    return tuple(sorted(found))


def _strings(value: object) -> list[str] | None:
    """A list of non-empty strings, or None for anything else."""
    if not isinstance(value, Sequence) or isinstance(value, str):
        return None
    if not all(isinstance(item, str) and item for item in value):
        return None
    return [str(item) for item in value]
