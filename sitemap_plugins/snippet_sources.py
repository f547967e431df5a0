"""The files ``pymdownx.snippets`` reads into a page, which date it too.

A page that pulls in ``--8<-- "notice.md"`` changes when ``notice.md`` does, while its own source
stays as it was; MkDocs and Zensical know nothing of such files (MkDocs' ``--dirty`` builds do
not even render the page again). The only party that knows which files a page reads is the
snippets preprocessor itself, as it reads them. So :class:`SnippetSources` joins the Markdown
extensions a page is rendered with, after the others, and has that page's preprocessor report
every local file it resolves (a remote snippet has no history to date it by). Nothing else about
the rendering changes: the file is resolved by the preprocessor, exactly as it was, and handed
back as is. The MkDocs plugin adds it to MkDocs' own rendering; ``generate`` runs the host's
snippets settings over each source after the build (:mod:`.generate.snippets`).

Where the preprocessor does not resolve files through ``get_snippet_path`` (as it does in
pymdown-extensions 10 to 13, which the tests build with), nothing is recorded and pages are dated
by their own sources alone.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any, Final

from markdown import Markdown
from markdown.extensions import Extension

__all__ = ["SNIPPETS", "SnippetSources", "snippets_enabled"]

SNIPPETS: Final = "pymdownx.snippets"
"""The extension's name in ``markdown_extensions``."""
_PREPROCESSOR: Final = "snippet"
"""The name pymdownx.snippets registers its preprocessor under."""


class SnippetSources(Extension):  # type: ignore[misc]  # Python-Markdown has no types
    """Records the local files the snippets preprocessor resolves, until :meth:`take` is called.

    One instance serves every page, in every language mkdocs-static-i18n builds: pages are
    rendered one after another, and what one page read is taken once it is rendered.
    """

    def __init__(self) -> None:
        super().__init__()
        self._read: dict[str, None] = {}  # in the order read, each once

    def extendMarkdown(self, md: Markdown) -> None:
        if _PREPROCESSOR not in md.preprocessors:
            return
        processor = md.preprocessors[_PREPROCESSOR]
        resolve: Callable[[str], str | None] | None = getattr(processor, "get_snippet_path", None)
        if not callable(resolve):
            return

        def resolved(path: str) -> str | None:
            found = resolve(path)
            if isinstance(found, str) and found:
                self._read.setdefault(os.path.abspath(found))  # noqa: PTH100 - a str is kept
            return found

        processor.get_snippet_path = resolved

    def take(self) -> tuple[str, ...]:
        """The files read since the last call, absolute, in the order first read."""
        read, self._read = tuple(self._read), {}
        return read


def snippets_enabled(extensions: list[Any]) -> bool:
    """Whether MkDocs renders with ``pymdownx.snippets`` (named, or given as an instance)."""
    for extension in extensions:
        if extension == SNIPPETS:
            return True
        if isinstance(extension, Extension) and type(extension).__module__ == SNIPPETS:
            return True
    return False
