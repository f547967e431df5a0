"""After the build, the files each source reads in with ``pymdownx.snippets``, as its host does.

A Zensical or MkDocs page that shows ``--8<-- "notice.md"`` changed when ``notice.md`` did. The
MkDocs plugin learns which files a page read from the snippets preprocessor as MkDocs renders
it (:mod:`sitemap_plugins.snippet_sources`); ``generate`` runs after the build, so it runs that
same preprocessor, with the settings the host's config gives it, over each source that holds a
snippet marker, and records what it resolves. Only the preprocessor runs, not the rest of the
rendering, and never over the network: a remote snippet has no history to date a page by.

Relative ``base_path`` entries are taken from the folder of the host's config, where the host is
run (both Zensical and MkDocs take them from the folder they run in).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Final

__all__ = ["SnippetReader"]

_MARKER: Final = b"8<-"
"""In every form of the marker (``--8<--``, ``-8<-``, ``;--8<--``): a source without it reads
nothing in, unless the settings append files to every page."""


class SnippetReader:
    """The files each source reads in, by the host's snippets ``settings``, relative to ``root``.

    Raises ImportError where pymdown-extensions is not installed; ValueError (and what
    Python-Markdown raises for settings it does not know) for settings the host would refuse too.
    """

    def __init__(self, settings: Mapping[str, Any], root: Path) -> None:
        import markdown

        from sitemap_plugins.snippet_sources import SNIPPETS, SnippetSources

        ours = dict(settings)
        base = ours.get("base_path", ["."])
        bases = [base] if isinstance(base, (str, os.PathLike)) else list(base)
        ours["base_path"] = [str(root / os.fspath(entry)) for entry in bases]
        ours["url_download"] = False  # never the network: a URL has no history anyway
        ours["check_paths"] = False  # a file missing now dates nothing; the build had it
        self._every_page = bool(ours.get("auto_append"))
        self._sources = SnippetSources()
        md = markdown.Markdown(
            extensions=[SNIPPETS, self._sources], extension_configs={SNIPPETS: ours}
        )
        self._preprocessor = md.preprocessors["snippet"]
        self._memo: dict[Path, tuple[Path, ...]] = {}

    def read_in(self, source: Path) -> tuple[Path, ...]:
        """The files ``source`` reads in, nested ones included, in the order first read; none
        when it cannot be read (its front matter reader reports that).

        The source is read as its host reads it, as UTF-8 (the snippets' ``encoding`` is
        that of the files they read in), and decoded only when it holds a marker: most pages
        read nothing in."""
        known = self._memo.get(source)
        if known is not None:
            return known
        found: tuple[Path, ...] = ()
        try:
            with open(source, "rb") as stream:
                data = stream.read()
        except OSError:
            data = b""
        if self._every_page or _MARKER in data:
            text = data.decode("utf-8-sig", errors="replace")
            if "\r" in text:  # as a text stream reads it, and the host
                text = text.replace("\r\n", "\n").replace("\r", "\n")
            self._sources.take()
            # Another package, on any text: what it resolved before failing still counts.
            with contextlib.suppress(Exception):
                self._preprocessor.run(text.split("\n"))
            found = tuple(Path(path) for path in self._sources.take())
        self._memo[source] = found
        return found
