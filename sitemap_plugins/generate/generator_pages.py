"""Pages a generator publishes that its plugin leaves out, recognised in its built output.

A Sphinx build writes a general index (``genindex``, split into ``genindex-A``... with
``html_split_index``), domain indexes (``py-modindex``) and a search page; a Pelican build
writes its drafts to ``drafts/``, and a theme's search page where ``DIRECT_TEMPLATES`` names
``search``. None of them carries a ``noindex``, so the built HTML alone
would list them, where the plugins leave them out (the Sphinx extension by page name, the
Pelican plugin by status). ``generate`` runs after the build and sees files only: it knows the
generator by what the build leaves (Sphinx's ``_static/documentation_options.js`` and
``searchindex.js``; Pelican's ``pelicanconf.py`` beside the output, or its ``generator`` meta
tag) and leaves out the same pages, with the same reasons.

Pelican's hidden pages are saved where its ordinary pages are, and nothing in the output tells
them apart; README names the ``--exclude`` that leaves them out.
"""

from __future__ import annotations

import ast
import posixpath
import re
from collections.abc import Callable
from pathlib import Path
from typing import Final

from sitemap_plugins.core.html import head_of
from sitemap_plugins.core.model import Reason
from sitemap_plugins.generate.file_checks import is_file

__all__ = ["GeneratorPages", "generator_pages", "sphinx_builder"]

GeneratorPages = Callable[[str], "Reason | None"]
"""Why the built file at a path (posix, relative to the site) is left out, or None."""

_SPHINX_MARKERS: Final = ("_static/documentation_options.js", "searchindex.js")
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


def generator_pages(site_dir: Path, project_dirs: tuple[Path, ...]) -> GeneratorPages | None:
    """The rule of the generator that built ``site_dir``, where it is recognised; None else.

    ``project_dirs`` are where the generator's config may lie (the current folder, the site
    folder's parent)."""
    if all(is_file(site_dir / marker) for marker in _SPHINX_MARKERS):
        return _sphinx_page
    found = (folder / "pelicanconf.py" for folder in project_dirs)
    config = next((path for path in found if is_file(path)), None)
    if config is None and not _PELICAN_GENERATOR.search(head_of(site_dir / "index.html") or ""):
        return None
    settings = _pelican_settings(config)
    drafts = _pelican_drafts(settings)
    search = _pelican_search(settings)

    def pelican_page(relpath: str) -> Reason | None:
        if search is not None and search.fullmatch(relpath):
            return Reason.SEARCH_PAGE
        return Reason.DRAFT if drafts.fullmatch(relpath) else None

    return pelican_page


def sphinx_builder(site_dir: Path) -> str | None:
    """The Sphinx builder that wrote ``site_dir`` (``html``, ``dirhtml``), or None where it is
    no Sphinx output: its ``documentation_options.js`` names it."""
    try:
        text = (site_dir / _SPHINX_MARKERS[0]).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = _BUILDER.search(text)
    return found.group(1) if found else None


def _sphinx_page(relpath: str) -> Reason | None:
    """Sphinx's own pages at the site's root, as the html (``genindex.html``) and dirhtml
    (``genindex/index.html``) builders write them."""
    folder, name = posixpath.split(relpath)
    stem = posixpath.splitext(name)[0]
    if stem == "index" and folder and "/" not in folder:
        stem, folder = folder, ""
    if folder:
        return None
    if stem == "genindex" or stem.startswith("genindex-"):
        return Reason.GENERAL_INDEX
    if stem.endswith("-modindex"):
        return Reason.DOMAIN_INDEX
    if stem == "search":
        return Reason.SEARCH_PAGE
    return None


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
