"""Pages Sphinx writes outside the document list, which the environment does not hold.

Three kinds: viewcode's highlighted modules (``_modules/a/b``) and its ``_modules/index``,
``html_additional_pages``, and whatever an ``html-collect-pages`` handler yields. The HTML
builder renders all of them in its ``finish()``, in the main process even under ``-j``, and
each one passes ``html-page-context`` with no doctree: that is where they are seen.

Seeing them is not enough for an incremental build to equal a clean one, for two reasons.

- viewcode does not write a module's page again while the page is newer than the module
  (``should_generate_module_page``), so a rebuild sees only the modules that changed. Which
  modules have a page is known from the documents instead: viewcode marks every object it links
  with a ``viewcode_anchor`` node whose target is the module's page. The extension keeps, per
  document, the targets of its anchors in the environment (``doctree-read``, purged with
  ``env-purge-doc``, merged from ``-j`` readers with ``env-merge-info``, as Sphinx's own domains
  keep theirs), so a module stays listed while a document links it, whether or not its page was
  written again, and goes when the last document that linked it is removed or edited.
- Some Sphinx releases (7.0, for one) skip ``finish()`` when no document is out of date. The
  pages seen by the last build that did write them are therefore recorded in the doctree
  directory (``sitemap-pages-<builder>.json``, next to the pickled environment), and a build that
  wrote nothing lists what that record says. Every build that writes replaces the record with
  exactly what it wrote, so a page no longer produced leaves with the first build that does not
  write it.

A module's page is dated by the module's file, the index of modules as a listing (the newest of
the modules it lists), an additional page by its template where ``templates_path`` holds it;
other pages have no file to date.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sitemap_plugins.core import LeftOut, Reason
from sitemap_plugins.core.cache_file import write_json

__all__ = ["ExtraPage", "ExtraPages", "not_found_pages"]

logger = logging.getLogger(__name__)

_VIEWCODE: Final = "sphinx.ext.viewcode"
_NOTFOUND: Final = "notfound.extension"  # sphinx-notfound-page
_NOTFOUND_PAGENAME: Final = "notfound_pagename"
_MODULES: Final = "_modules/"  # viewcode's output folder, where a module's page is _modules/a/b
_MODULES_INDEX: Final = "_modules/index"
_ENV_VIEWCODE: Final = "sitemap_plugins_viewcode"
"""The environment's record, per document, of the viewcode pages its anchors link to."""
_RECORD_VERSION: Final = 1
HUMAN_PAGE_MARK: Final = "sitemap_plugins_human_page"
"""A key in the template context of the page for humans, so that it is not taken for a page."""

ExtraPage = tuple[str, tuple[Path, ...], tuple[Path, ...]]
"""A page to list: its page name, the files that date it, and (a listing's) the files it lists."""


class ExtraPages:
    """The extra pages of one Sphinx application, followed through its events."""

    def __init__(self) -> None:
        self.seen: dict[str, str] = {}  # page name -> template
        self.wrote = False

    def connect(self, app: Sphinx) -> None:
        app.connect("env-before-read-docs", self.start)
        # After viewcode's own doctree-read (priority 500), which adds the anchors read here.
        app.connect("doctree-read", _doctree_read, priority=900)
        app.connect("env-purge-doc", _purge)
        app.connect("env-merge-info", _merge)
        app.connect("html-page-context", self.page_context)
        app.connect("html-collect-pages", self.collect)

    def start(self, app: Sphinx, env: BuildEnvironment, docnames: list[str]) -> None:
        """``env-before-read-docs``: a new build of this application begins."""
        self.seen = {}
        self.wrote = False

    def page_context(
        self, app: Sphinx, pagename: str, templatename: str, context: object, doctree: object
    ) -> None:
        """``html-page-context``: remember every page that is not a document (nor our page for
        humans, which the sitemap does not list)."""
        self.wrote = True
        if isinstance(context, Mapping) and context.get(HUMAN_PAGE_MARK):
            return
        if doctree is None and pagename not in app.env.all_docs:
            self.seen[pagename] = templatename

    def collect(self, app: Sphinx) -> list[tuple[str, dict[str, Any], str]]:
        """``html-collect-pages``: only a sign that this build writes its extra pages."""
        self.wrote = True
        return []

    def pages(self, app: Sphinx) -> list[ExtraPage | LeftOut]:
        """What this build publishes outside the documents, or why each page stays out."""
        builder: Any = app.builder
        record = Path(app.doctreedir) / f"sitemap-pages-{builder.name}.json"
        if self.wrote:
            found = dict(self.seen)
            _save_record(record, Path(app.outdir), found)
        else:
            found = _load_record(record, Path(app.outdir))
        viewcode = _VIEWCODE in app.extensions and builder.name != "singlehtml"
        if viewcode:
            for links in _viewcode_links(app.env).values():
                found.update((target, found.get(target, "page.html")) for target in links)
        pages: list[ExtraPage | LeftOut] = []
        modules: set[Path] = set()
        index = False  # viewcode's list of modules: a listing, dated by them, so last
        not_found = not_found_pages(app)
        for pagename in sorted(found):
            reason = _reason(pagename, found[pagename], not_found)
            if reason is None and not Path(builder.get_outfilename(pagename)).is_file():
                reason = Reason.NOT_A_PAGE  # written elsewhere (OpenSearch), or no longer there
            if reason is not None:
                pages.append(LeftOut(reason, pagename))
            elif viewcode and pagename == _MODULES_INDEX:
                index = True
            elif viewcode and pagename.startswith(_MODULES):
                module = _module_file(app, pagename[len(_MODULES) :].replace("/", "."))
                modules.update(module)
                pages.append((pagename, module, ()))
            elif pagename in app.config.html_additional_pages:
                template = app.config.html_additional_pages[pagename]
                pages.append((pagename, _template_file(app, template), ()))
            else:
                pages.append((pagename, (), ()))
        if index:
            pages.append((_MODULES_INDEX, (), tuple(sorted(modules))))
        return pages


def not_found_pages(app: Sphinx) -> frozenset[str]:
    """The page names a 404 page has: ``404``, and the one sphinx-notfound-page writes it under.

    That extension lets its users name the page (``notfound_pagename``) and takes a document of
    that name, where there is one, as the page instead of writing its own. The option is read
    only when the extension is loaded, as it is the one that registers it.
    """
    names = {"404"}
    if _NOTFOUND in app.extensions and _NOTFOUND_PAGENAME in app.config:
        names.add(str(app.config[_NOTFOUND_PAGENAME]))
    return frozenset(names)


def _reason(pagename: str, template: str, not_found: frozenset[str]) -> Reason | None:
    """Why a page outside the document list stays out of the sitemap, if it does."""
    if pagename in not_found:
        return Reason.NOT_FOUND_PAGE
    if pagename == "search":
        return Reason.SEARCH_PAGE
    if pagename == "genindex" or pagename.startswith("genindex-"):
        return Reason.GENERAL_INDEX
    if template == "domainindex.html":
        return Reason.DOMAIN_INDEX
    return None


def _doctree_read(app: Sphinx, doctree: Any) -> None:
    """After viewcode's own handler: keep the module pages this document's anchors link."""
    if _VIEWCODE not in app.extensions:
        return
    from sphinx.ext.viewcode import viewcode_anchor  # imported only when viewcode is on

    links = _viewcode_links(app.env)
    for node in doctree.findall(viewcode_anchor):
        links.setdefault(node["refdoc"], set()).add(node["reftarget"])


def _purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    _viewcode_links(env).pop(docname, None)


def _merge(app: Sphinx, env: BuildEnvironment, docnames: Any, other: BuildEnvironment) -> None:
    links, theirs = _viewcode_links(env), _viewcode_links(other)
    links.update((docname, theirs[docname]) for docname in docnames if docname in theirs)


def _viewcode_links(env: BuildEnvironment) -> dict[str, set[str]]:
    links: dict[str, set[str]] | None = getattr(env, _ENV_VIEWCODE, None)
    if links is None:
        links = {}
        setattr(env, _ENV_VIEWCODE, links)
    return links


def _module_file(app: Sphinx, modname: str) -> tuple[Path, ...]:
    """The file viewcode highlighted for a module, found the way viewcode finds it.

    Nothing when a ``viewcode-find-source`` handler gave the code: then no file is known.
    """
    from sphinx.ext.viewcode import get_module_filename  # imported only when viewcode is on

    filename = get_module_filename(app, modname)
    return (Path(os.path.normpath(filename)),) if filename else ()


def _template_file(app: Sphinx, template: str) -> tuple[Path, ...]:
    """An additional page's template, where Sphinx looks first: ``templates_path``."""
    for folder in app.config.templates_path:
        candidate = Path(app.confdir, folder, template)
        if candidate.is_file():
            return (Path(os.path.normpath(candidate)),)
    return ()  # a theme's template: not the site's own file


def _save_record(path: Path, outdir: Path, pages: Mapping[str, str]) -> None:
    """Keep what this build wrote, for a later build that writes nothing (see the module).

    The record lives in the doctree folder, which CI restores from a cache: one that cannot be
    read (damaged, not UTF-8) is simply replaced, atomically, as our caches are.
    """
    data = {"version": _RECORD_VERSION, "outdir": str(outdir.resolve()), "pages": dict(pages)}
    try:
        if json.loads(path.read_bytes()) == data:
            return
    except (OSError, ValueError):
        pass  # none yet, or unreadable: written below
    if not write_json(path, data):
        logger.info("sitemap: could not record the pages outside the document list in %s", path)


def _load_record(path: Path, outdir: Path) -> dict[str, str]:
    """The pages the last writing build of this builder and output folder recorded."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if (
        not isinstance(data, dict)
        or data.get("version") != _RECORD_VERSION
        or data.get("outdir") != str(outdir.resolve())
        or not isinstance(data.get("pages"), dict)
    ):
        return {}
    return {str(name): str(template) for name, template in data["pages"].items()}
