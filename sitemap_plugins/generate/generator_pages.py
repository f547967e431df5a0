"""Pages a generator publishes that its plugin leaves out, recognised in its built output.

A Sphinx build writes a general index (``genindex``, split into ``genindex-A``... with
``html_split_index``), domain indexes (``py-modindex``) and a search page; a Pelican build
writes its drafts to ``drafts/``, and a theme's search page where ``DIRECT_TEMPLATES`` names
``search``; MkDocs' search plugin writes ``search.html`` for a theme that asks for a search page
(``include_search_page``: readthedocs). None of them carries a ``noindex``, so the built HTML
alone would list them, where the plugins leave them out (the Sphinx extension by page name, the
Pelican plugin by status, the MkDocs plugin by listing documents only). ``generate`` runs after
the build and sees files only: it knows the generator by what the build leaves (Sphinx's
``_static/documentation_options.js`` and ``searchindex.js``; Pelican's ``pelicanconf.py``
beside the output, or its ``generator`` meta tag; the search plugin's
``search/search_index.json``) and leaves out the same pages, with the same reasons.

A site may hold several builds, each in a folder of its own: Sphinx built once per language or
version (``en/``, ``fr/``, ``1.0/``), i18n_subsites' subsites (``de/``). Each folder a build
was written to is that build's output, with its own pages at its top, as 404 pages are known at
the top of each language's or version's folder (see :mod:`.site`). Such a folder is looked at
only for a file named as one of the generator's pages, once: the site is walked once.

Pelican's hidden pages are saved where its ordinary pages are, and nothing in the output tells
them apart; README names the ``--exclude`` that leaves them out.
"""

from __future__ import annotations

import ast
import json
import posixpath
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final

from sitemap_plugins.core.html import head_of
from sitemap_plugins.core.model import Reason
from sitemap_plugins.generate.file_checks import is_file

__all__ = [
    "GeneratorPages",
    "dirhtml_builds",
    "generator_pages",
    "pelican_subsites",
    "sphinx_builder",
]

GeneratorPages = Callable[[str], "Reason | None"]
"""Why the built file at a path (posix, relative to the site) is left out, or None."""

_SPHINX_MARKERS: Final = ("_static/documentation_options.js", "searchindex.js")
_MKDOCS_SEARCH_INDEX: Final = "search/search_index.json"
"""What MkDocs' search plugin (and Material's) writes at the top of a build, whose
``search.html`` it also writes where the theme asks for a search page."""
_MKDOCS_SEARCH_PAGE: Final = "search.html"
_BUILDER: Final = re.compile(r"\bBUILDER:\s*['\"]([\w-]+)")
_PELICAN_GENERATOR: Final = re.compile(
    r"<meta\s[^>]*name=[\"']?generator[\"']?[^>]*content=[\"']?Pelican", re.IGNORECASE
)
_PELICAN_DRAFTS: Final = {
    "DRAFT_SAVE_AS": "drafts/{slug}.html",
    "DRAFT_LANG_SAVE_AS": "drafts/{slug}-{lang}.html",
    "DRAFT_PAGE_SAVE_AS": "drafts/pages/{slug}.html",
    "DRAFT_PAGE_LANG_SAVE_AS": "drafts/pages/{slug}-{lang}.html",
}
"""Where Pelican saves drafts, by setting, with its defaults."""
_FIELD: Final = re.compile(r"(\{[^{}]*\})")
"""A ``{field}`` of a Pelican save-as pattern, captured so that splitting keeps it."""


def generator_pages(
    site_dir: Path,
    project_dirs: tuple[Path, ...],
    has_source: Callable[[str], bool] | None = None,
) -> GeneratorPages:
    """The rule of the generators whose builds ``site_dir`` holds, at its top or in folders.

    ``project_dirs`` are where Pelican's config may lie (the current folder, the site folder's
    parent). A site whose top Sphinx built is no Pelican site, whatever config lies beside it.
    ``has_source`` says whether a built file (by its path in the site) was rendered from a
    source of the site's, where the MkDocs config is known: such a ``search.html`` is a page of
    the user's, not the search plugin's."""
    sphinx = _SphinxOutputs(site_dir)
    mkdocs = _MkDocsOutputs(site_dir, has_source)
    pelican = None if sphinx.holds("") else _pelican_pages(site_dir, project_dirs)

    def generator_page(relpath: str) -> Reason | None:
        reason = sphinx.page(relpath) or mkdocs.page(relpath)
        if reason is None and pelican is not None:
            reason = pelican(relpath)
        return reason

    return generator_page


def sphinx_builder(site_dir: Path) -> str | None:
    """The Sphinx builder that wrote ``site_dir`` (``html``, ``dirhtml``), or None where it is
    no Sphinx output: its ``documentation_options.js`` names it."""
    try:
        text = (site_dir / _SPHINX_MARKERS[0]).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = _BUILDER.search(text)
    return found.group(1) if found else None


def dirhtml_builds(site_dir: Path) -> Callable[[str], bool]:
    """Whether the built file at a path (posix, relative to ``site_dir``) belongs to a Sphinx
    ``dirhtml`` build: the nearest of its folders that holds Sphinx's markers, the site's top or
    a language's or version's folder (``en/``, ``1.0/``), says so. Each folder is looked at
    once."""
    builders: dict[str, str | None] = {}
    sphinx = _SphinxOutputs(site_dir)

    def builder(folder: str) -> str | None:
        known = builders.get(folder, "")
        if known == "":
            if sphinx.holds(folder):
                known = sphinx_builder(site_dir / folder)
            elif folder:
                known = builder(folder.rpartition("/")[0])
            else:
                known = None
            builders[folder] = known
        return known

    def in_dirhtml_build(relpath: str) -> bool:
        return builder(relpath.rpartition("/")[0]) == "dirhtml"

    return in_dirhtml_build


class _SphinxOutputs:
    """The folders of the site a Sphinx build was written to, known by its markers: the site's
    top, or a folder of each language or version Sphinx was run for (``en/``, ``1.0/``,
    ``en/latest/``). A folder is looked at once, and only for a file named as one of Sphinx's
    own pages."""

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self._known: dict[str, bool] = {}

    def holds(self, folder: str) -> bool:
        """Whether the site's ``folder`` (posix, ``""`` for its top) is a Sphinx build's."""
        known = self._known.get(folder)
        if known is None:
            where = self.site_dir / folder
            known = all(is_file(where / marker) for marker in _SPHINX_MARKERS)
            self._known[folder] = known
        return known

    def page(self, relpath: str) -> Reason | None:
        """Sphinx's own pages at the top of a build's folder, as the html (``genindex.html``)
        and dirhtml (``genindex/index.html``) builders write them."""
        folder, _, name = relpath.rpartition("/")  # str methods: asked of every page
        stem = name.rpartition(".")[0] or name
        if stem == "index" and folder:
            folder, _, stem = folder.rpartition("/")
        reason = _sphinx_reason(stem)
        return reason if reason is not None and self.holds(folder) else None


class _MkDocsOutputs:
    """The search page MkDocs' search plugin writes at the top of a build (the site's, or a
    version's or language's folder) for a theme that asks for one: ``search.html``, rendered
    from the theme with no document, so never listed by the MkDocs plugin. A build is known by
    the search index the same plugin writes beside it; a document that MkDocs saved as
    ``search.html`` (``docs/search.md`` without directory URLs) stays: it is in that index, or,
    kept out of it (Material's ``search: exclude: true``), ``has_source`` finds its source."""

    def __init__(self, site_dir: Path, has_source: Callable[[str], bool] | None = None) -> None:
        self.site_dir = site_dir
        self.has_source = has_source
        self._known: dict[str, bool] = {}

    def page(self, relpath: str) -> Reason | None:
        folder, _, name = relpath.rpartition("/")
        if name != _MKDOCS_SEARCH_PAGE:
            return None  # most pages, asked at the cost of a look at the name
        known = self._known.get(folder)
        if known is None:
            known = _is_search_plugins_page(self.site_dir / folder)
            known = known and (self.has_source is None or not self.has_source(relpath))
            self._known[folder] = known
        return Reason.SEARCH_PAGE if known else None


def _is_search_plugins_page(build: Path) -> bool:
    """Whether ``search.html`` at the top of ``build`` is the search plugin's page: the plugin's
    index is there, and lists no document at that location."""
    index = build / _MKDOCS_SEARCH_INDEX
    if not is_file(index):
        return False
    try:
        with index.open("rb") as stream:
            documents = json.load(stream).get("docs")
    except (OSError, ValueError, AttributeError, RecursionError):
        return False  # no index MkDocs wrote: nothing to say the page is its
    if not isinstance(documents, list):
        return False
    for document in documents:
        location = document.get("location") if isinstance(document, dict) else None
        if isinstance(location, str) and location.partition("#")[0] == _MKDOCS_SEARCH_PAGE:
            return False
    return True


def _sphinx_reason(stem: str) -> Reason | None:
    """Why a page of that name at the top of a Sphinx build is left out, if it is Sphinx's."""
    if stem == "genindex" or stem.startswith("genindex-"):
        return Reason.GENERAL_INDEX
    if stem.endswith("-modindex"):
        return Reason.DOMAIN_INDEX
    if stem == "search":
        return Reason.SEARCH_PAGE
    return None


def _pelican_pages(site_dir: Path, project_dirs: tuple[Path, ...]) -> GeneratorPages:
    """Pelican's rule: where ``pelicanconf.py`` is found, the main site's and each subsite's
    (see :func:`_subsites`), by its settings; else, each folder whose ``index.html`` Pelican
    wrote, by Pelican's defaults (an output copied away from its project)."""
    config = _pelican_config(project_dirs)
    if config is None:
        return _PelicanOutputs(site_dir)
    settings = _pelican_settings(config)
    outputs = {"": _pelican_rule(settings)}
    for folder, subsite in _subsites(settings, config.parent, site_dir):
        outputs.setdefault(folder, _pelican_rule(subsite))

    def pelican_page(relpath: str) -> Reason | None:
        for folder, rule in outputs.items():
            if relpath.startswith(folder):
                reason = rule(relpath[len(folder) :])
                if reason is not None:
                    return reason
        return None

    return pelican_page


def pelican_subsites(site_dir: Path, project_dirs: tuple[Path, ...]) -> frozenset[str]:
    """The folders of ``site_dir`` (posix, ``de``) that i18n_subsites wrote a subsite to, where
    ``pelicanconf.py`` in ``project_dirs`` names them (see :func:`_subsites`): each is a build's
    top, whose ``404.html`` is the subsite's not-found page, though written in the main site's
    language (``<html lang="en">`` in ``de/``) and beside no sitemap of its own. None where
    Sphinx built the site's top, as for :func:`generator_pages`."""
    config = _pelican_config(project_dirs)
    if config is None or _SphinxOutputs(site_dir).holds(""):
        return frozenset()
    settings = _pelican_settings(config)
    return frozenset(
        folder.rstrip("/") for folder, _ in _subsites(settings, config.parent, site_dir)
    )


def _pelican_config(project_dirs: tuple[Path, ...]) -> Path | None:
    """The first ``pelicanconf.py`` of ``project_dirs``, if any."""
    found = (folder / "pelicanconf.py" for folder in project_dirs)
    return next((path for path in found if is_file(path)), None)


class _PelicanOutputs:
    """Pelican's drafts, where its defaults save them, in each folder whose ``index.html``
    carries Pelican's generator tag: the site's top, and each subsite of an output copied with
    its subsites. A folder's page is read once, and only for a file saved where Pelican saves
    a draft."""

    def __init__(self, site_dir: Path) -> None:
        self.site_dir = site_dir
        self.drafts = _pelican_drafts({})
        folders = {saved.partition("/")[0] + "/" for saved in _PELICAN_DRAFTS.values()}
        self.in_a_folder = re.compile("|".join(map(re.escape, sorted(folders))))
        """The folders the defaults save drafts in (``drafts/``): a path in none is no draft."""
        self._known: dict[str, bool] = {}

    def wrote(self, folder: str) -> bool:
        """Whether Pelican wrote the site's ``folder`` (posix, ending in ``/``; ``""``)."""
        known = self._known.get(folder)
        if known is None:
            head = head_of(self.site_dir / folder / "index.html")
            known = self._known[folder] = _PELICAN_GENERATOR.search(head) is not None
        return known

    def __call__(self, relpath: str) -> Reason | None:
        if self.in_a_folder.search(relpath) is None:
            return None  # most pages, asked at the cost of a look at the path
        parts = relpath.split("/")
        for depth in range(len(parts)):
            folder = "".join(part + "/" for part in parts[:depth])
            if self.drafts.fullmatch("/".join(parts[depth:])) and self.wrote(folder):
                return Reason.DRAFT
        return None


def _subsites(
    settings: dict[str, object], project: Path, site_dir: Path
) -> Iterator[tuple[str, dict[str, object]]]:
    """i18n_subsites' subsites, each as its folder in the site (``de/``) and its settings, the
    main site's with its own over them (``DRAFT_SAVE_AS`` too). ``I18N_SUBSITES`` names them:
    each is written to its ``OUTPUT_PATH``, a path from where Pelican runs (the ``project``
    folder, the config's), else to its language's folder in the main output; one written
    outside the site is none of its pages."""
    subsites = settings.get("I18N_SUBSITES")
    if not isinstance(subsites, dict):
        return
    top = site_dir.resolve()
    for language, overrides in subsites.items():
        own = overrides if isinstance(overrides, dict) else {}
        output = own.get("OUTPUT_PATH")
        folder = language if isinstance(language, str) else None
        if isinstance(output, str):
            try:
                folder = (project / output).resolve().relative_to(top).as_posix()
            except (OSError, RuntimeError, ValueError):  # a link that loops; elsewhere
                folder = None
        if folder and folder != ".":
            own_settings = {name: value for name, value in own.items() if isinstance(name, str)}
            yield folder.strip("/") + "/", {**settings, **own_settings}


def _pelican_settings(config: Path | None) -> dict[str, object]:
    """The settings ``config`` assigns a literal to (a string, a list of strings...): read,
    never run; none where it cannot be read."""
    if config is None:
        return {}
    try:
        tree = ast.parse(config.read_bytes())
    except (OSError, SyntaxError, ValueError):
        return {}
    found: dict[str, object] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign):
            continue
        try:
            value = ast.literal_eval(node.value)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            continue
        for target in node.targets:
            if isinstance(target, ast.Name):
                found[target.id] = value
    return found


def _pelican_rule(settings: dict[str, object]) -> GeneratorPages:
    """What a Pelican build with ``settings`` writes that the plugin leaves out, by its path
    in that build's output: its drafts and a theme's search page."""
    drafts = _pelican_drafts(settings)
    search = _pelican_search(settings)

    def pelican_page(relpath: str) -> Reason | None:
        if search is not None and search.fullmatch(relpath):
            return Reason.SEARCH_PAGE
        return Reason.DRAFT if drafts.fullmatch(relpath) else None

    return pelican_page


def _pelican_search(settings: dict[str, object]) -> re.Pattern[str] | None:
    """Where Pelican saves a theme's search page (``SEARCH_SAVE_AS``) and, paginated, its
    later pages (``index2.html``, as Pelican's default ``PAGINATION_PATTERNS`` name them),
    where ``DIRECT_TEMPLATES`` names ``search`` (Tipue Search, Flex): the plugin leaves them
    out."""
    templates = settings.get("DIRECT_TEMPLATES")
    if not isinstance(templates, (list, tuple)) or "search" not in templates:
        return None
    saved = settings.get("SEARCH_SAVE_AS", "search.html")
    if not isinstance(saved, str) or not saved.strip("/"):
        return None
    stem, extension = posixpath.splitext(saved.lstrip("/"))
    return re.compile(re.escape(stem) + r"(?:[2-9]|[1-9]\d+)?" + re.escape(extension))


def _pelican_drafts(settings: dict[str, object]) -> re.Pattern[str]:
    """The paths Pelican saves drafts at: its ``DRAFT_*SAVE_AS`` settings where the config
    sets them to a plain string, else their defaults."""
    patterns = dict(_PELICAN_DRAFTS)
    for name in patterns:
        value = settings.get(name)
        if isinstance(value, str):
            patterns[name] = value
    alternatives = [
        "".join(
            ".+?" if _FIELD.fullmatch(piece) else re.escape(piece)
            for piece in _FIELD.split(pattern.lstrip("/"))
        )
        for pattern in patterns.values()
        if pattern
    ]
    return re.compile("|".join(alternatives) or r"(?!)")
