"""The Python modules a page documents with mkdocstrings, which date it too.

A page that holds ``::: mypkg.models`` shows that module's docstrings and signatures: it changes
when ``mypkg/models.py`` does, while its own Markdown stays as it was. :class:`MkdocstringsSources`
joins the Markdown extensions a page is rendered with and reads, after the code blocks are set
aside, the lines mkdocstrings' own processor reads: each ``::: identifier`` whose handler is the
Python one (mkdocstrings' default). It never imports the documented code, nor mkdocstrings: it
finds the module the way the Python handler does, in the handler's ``paths`` (relative to
``mkdocs.yml``; its folder when none are set), then where Python finds the top package
(``sys.path``, and editable installs).

A page is dated by the module the identifier names or lies in (a package by its
``__init__.py``), and by the modules of the same top package that this module imports from: what
it re-exports (``from ._impl import Model``) is shown on the page, and an import is all a static
reading can tell of that. With ``show_submodules: true`` (on the directive, or in the handler's
``options``), every module under a documented package dates the page too. Objects a module gets
another way (inherited from a class of a module it does not import from, ``__getattr__``, star
imports of star imports) do not: README says so.
"""

from __future__ import annotations

import ast
import importlib.util
import itertools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any, Final

import yaml
from markdown import Markdown
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor

from sitemap_plugins.other_plugins import loaded

__all__ = ["MKDOCSTRINGS", "MkdocstringsSources"]

MKDOCSTRINGS: Final = "mkdocstrings"
"""The package of mkdocstrings, which its plugin class is defined in."""
_PYTHON: Final = "python"
"""The Python handler's name, mkdocstrings' default handler."""
_DIRECTIVE: Final = re.compile(r"^(?:#{1,6} *|)::: ?(?P<name>.+?) *$")
"""A line mkdocstrings' processor renders an object for (its own pattern, one line at a time)."""
_AFTER_CODE_BLOCKS: Final = 5
"""Below the preprocessors that set fenced code aside (``fenced_code`` 25, ``superfences`` 32):
a ``:::`` line in an example of the syntax is not a directive."""


class MkdocstringsSources(Extension):  # type: ignore[misc]  # Python-Markdown has no types
    """Records the modules each page documents, until :meth:`take` is called; one instance
    serves every page, as pages are rendered one after another."""

    def __init__(self, plugin: object, config_dir: Path) -> None:
        super().__init__()
        settings = getattr(plugin, "config", None)
        settings = settings if isinstance(settings, Mapping) else {}
        handlers = settings.get("handlers")
        python = handlers.get(_PYTHON) if isinstance(handlers, Mapping) else None
        python = python if isinstance(python, Mapping) else {}
        options = python.get("options")
        self._default_handler = str(settings.get("default_handler") or _PYTHON)
        self._submodules = isinstance(options, Mapping) and options.get("show_submodules") is True
        self._paths = _search_paths(python.get("paths"), config_dir)
        self._modules = _ModuleFinder(self._paths)
        self._read: dict[str, None] = {}

    @classmethod
    def of(cls, plugins: Iterable[object], config_dir: Path) -> MkdocstringsSources | None:
        """For mkdocstrings among MkDocs' ``plugins``, with ``mkdocs.yml`` in ``config_dir``;
        None without it (nothing is read then)."""
        plugin = loaded(plugins, MKDOCSTRINGS)
        return None if plugin is None else cls(plugin, config_dir)

    def extendMarkdown(self, md: Markdown) -> None:
        md.preprocessors.register(_Directives(md, self), "sitemap_mkdocstrings", _AFTER_CODE_BLOCKS)

    def documented(self, lines: list[str]) -> None:
        """Note the modules the directives among ``lines`` (a page's Markdown) document."""
        for index, line in enumerate(lines):
            match = _DIRECTIVE.match(line)
            if match is None:
                continue
            handler, local = _directive_options(lines, index + 1)
            if (handler or self._default_handler) != _PYTHON:
                continue
            submodules = local.get("show_submodules", self._submodules) is True
            for path in self._modules.dating(match["name"], submodules=submodules):
                self._read.setdefault(path)

    def take(self) -> tuple[str, ...]:
        """The module files noted since the last call, absolute, in the order first noted."""
        read, self._read = tuple(self._read), {}
        return read


class _Directives(Preprocessor):  # type: ignore[misc]  # Python-Markdown has no types
    """Reads the page's lines as mkdocstrings' processor will, and hands them back unchanged."""

    def __init__(self, md: Markdown, sources: MkdocstringsSources) -> None:
        super().__init__(md)
        self._sources = sources

    def run(self, lines: list[str]) -> list[str]:
        self._sources.documented(lines)
        return lines


def _directive_options(lines: list[str], start: int) -> tuple[str | None, Mapping[str, Any]]:
    """The handler and options of the directive whose indented YAML block begins at ``start``
    (one blank line may come first, as mkdocstrings allows); unreadable YAML reads as none,
    which mkdocstrings reports itself."""
    if start < len(lines) and not lines[start].strip():
        start += 1
    block: list[str] = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        block.append(line[4:])
    if not block:
        return None, {}
    try:
        data = yaml.safe_load("\n".join(block))
    except yaml.YAMLError:
        return None, {}
    if not isinstance(data, Mapping):
        return None, {}
    handler = data.get("handler")
    options = data.get("options")
    return (
        handler if isinstance(handler, str) else None,
        options if isinstance(options, Mapping) else {},
    )


def _search_paths(configured: object, config_dir: Path) -> list[Path]:
    """The folders the Python handler looks in first, as it expands them: globs, relative to
    ``mkdocs.yml``'s folder, which stands in when none are set."""
    import glob  # with mkdocstrings only: every MkDocs build imports this module

    paths: list[Path] = []
    if isinstance(configured, list):
        for item in configured:
            if isinstance(item, str):
                pattern = str(config_dir / item)  # an absolute one stays as it is
                found = glob.glob(pattern)  # noqa: PTH207 - Path.glob takes no absolute pattern
                paths.extend(Path(path) for path in sorted(found))
    return [path.absolute() for path in paths] or [config_dir.absolute()]


class _ModuleFinder:
    """Which files date a page documenting an identifier, each answer kept for the build."""

    def __init__(self, paths: list[Path]) -> None:
        self._paths = paths
        self._answers: dict[tuple[str, bool], tuple[str, ...]] = {}

    def dating(self, identifier: str, *, submodules: bool) -> tuple[str, ...]:
        key = (identifier, submodules)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = tuple(self._dating(identifier, submodules=submodules))
        return answer

    def _dating(self, identifier: str, *, submodules: bool) -> Iterator[str]:
        # Up to the first part that names no Python object: the rest cannot lead to a module.
        parts = list(itertools.takewhile(str.isidentifier, identifier.strip().split(".")))
        found = self._module(parts)
        if found is None:
            return
        module, folders = found
        yield str(module)
        top = self._top_folders(parts[0])
        yield from (str(path) for path in _imported_from(module, parts[0], top))
        if submodules:
            for folder in folders:
                yield from sorted(str(path) for path in folder.rglob("*.py"))

    def _top_folders(self, top: str) -> list[Path]:
        """The folders of the top package, a namespace package's too (it has no file)."""
        located = self._locate_top(top)
        return [] if located is None else located[1]

    def _module(self, parts: list[str]) -> tuple[Path, list[Path]] | None:
        """The file of the deepest module ``parts`` names (the rest name objects in it), and the
        folders of that module when it is a package."""
        if not parts:
            return None
        located = self._locate_top(parts[0])
        if located is None:
            return None
        file, folders = located
        for part in parts[1:]:
            deeper = _submodule(folders, part)
            if deeper is None:
                break
            file, folders = deeper
        return (file, folders) if file is not None else None

    def _locate_top(self, name: str) -> tuple[Path | None, list[Path]] | None:
        for path in self._paths:
            found = _submodule([path], name)
            if found is not None:
                return found
        try:
            spec = importlib.util.find_spec(name)  # sys.path and editable installs; no import
        except (ImportError, ValueError):
            return None
        if spec is None:
            return None
        folders = [Path(folder) for folder in spec.submodule_search_locations or ()]
        origin = spec.origin if spec.has_location and spec.origin else None
        if origin is None or not origin.endswith(".py"):
            return (None, folders) if folders else None
        return Path(origin), folders


def _submodule(folders: list[Path], name: str) -> tuple[Path | None, list[Path]] | None:
    """Module ``name`` within ``folders``: a package, a module file, or a namespace package."""
    for folder in folders:
        package = folder / name
        if (package / "__init__.py").is_file():
            return package / "__init__.py", [package]
        if (folder / f"{name}.py").is_file():
            return folder / f"{name}.py", []
    spaces = [folder / name for folder in folders if (folder / name).is_dir()]
    return (None, spaces) if spaces else None


def _imported_from(module: Path, top: str, top_folders: list[Path]) -> Iterator[Path]:
    """The modules of package ``top`` that ``module`` imports names from (absolute or relative
    imports), whose objects it may show as its own."""
    try:
        tree = ast.parse(module.read_bytes(), str(module))
    except (OSError, SyntaxError, ValueError):
        return
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        names = node.module.split(".") if node.module else []
        if node.level:
            if node.level > len(module.parents):
                continue
            bases = [module.parents[node.level - 1]]
        elif names and names[0] == top:
            bases, names = top_folders, names[1:]
        else:
            continue
        for base in bases:
            target = _file_of(base, names)
            if target is not None:
                yield target
                break
        if not names and node.level:  # from . import a, b: each may be a module
            for alias in node.names:
                found = _submodule(bases, alias.name)
                if found is not None and found[0] is not None:
                    yield found[0]


def _file_of(folder: Path, names: list[str]) -> Path | None:
    """The file of the module ``names`` lead to from package ``folder`` (its own
    ``__init__.py`` for none)."""
    if not names:
        init = folder / "__init__.py"
        return init if init.is_file() else None
    folders, file = [folder], None
    for name in names:
        found = _submodule(folders, name)
        if found is None:
            return None
        file, folders = found
    return file
