"""What each written page said at the last build, for the pages a build did not write again.

An incremental build (Sphinx without ``-E``, ``mkdocs build --dirty``) rewrites a handful of pages,
yet every page it publishes is checked for a robots ``noindex`` or a redirect, which a theme may
add anywhere. A page file as it was at the last read (:mod:`.file_memo`) is not read again; nor
one whose text the host handed over in memory when it wrote the file, as MkDocs does.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.core.file_memo import FileMemo
from sitemap_plugins.core.html import NOTHING_READ, PageRead, read_page
from sitemap_plugins.core.model import Reason, WrittenFile, WrittenText

__all__ = ["PageReads"]

_FORMAT: Final = 2
"""The format of what is kept of a page. It must change whenever a page would be read to say
something else (:func:`.html.read_page`: which robots values mean noindex, what is a redirect,
the images, base and title), or kept otherwise (:func:`_page_read`): a page as it was would
keep the old answer. 2: since robots ``none``, and a ``name`` written with character
references (``&#114;obots``), mean noindex."""


class PageReads:
    """The reads of one output folder's pages, kept in ``directory`` (None: nothing is kept)."""

    def __init__(self, directory: Path | None, output_dir: Path) -> None:
        self._memo = FileMemo(directory, "pages", str(output_dir.absolute()), _FORMAT)

    def read(
        self, page: str | WrittenText | os.PathLike[str], *, images: bool, title: bool = False
    ) -> PageRead:
        """:func:`.html.read_page`, from the last read when the file is as it was then. Text
        the host wrote to a file (:class:`~.model.WrittenText`) is read, and kept for that file:
        a later build that does not write it again recalls it."""
        if isinstance(page, str):  # the page's text alone
            return read_page(page, images=images, title=title)
        name = page.path if isinstance(page, (WrittenFile, WrittenText)) else os.fspath(page)
        stamp, old = self._memo.recall(name)
        if stamp is None:  # unreadable, or nothing kept
            return read_page(page, images=images, title=title)
        if old is not None and len(old) == 6 and old[0] == images and old[1] == title:
            try:  # not contextlib.suppress: this runs for every unchanged page, every build
                return _page_read(old)
            except (ValueError, TypeError, KeyError):
                pass  # kept by another version: read again
        found = read_page(page, images=images, title=title)
        if found.unreadable is not None:
            return found  # not kept: the next build reads it again, and says so again
        reason = None if found.reason is None else found.reason.name
        self._memo.remember(
            name, stamp, [images, title, reason, list(found.images), found.base, found.title]
        )
        return found

    def save(self) -> None:
        """Keep this build's reads (and only them: a page no longer written is forgotten)."""
        self._memo.save()


def _page_read(stored: list[Any]) -> PageRead:
    _, _, reason, images, base, title = stored
    if reason is None and not images and base is None and title is None:
        return NOTHING_READ  # what most pages say: one shared value
    return PageRead(
        None if reason is None else Reason[reason],
        tuple(str(image) for image in images),
        None if base is None else str(base),
        None if title is None else str(title),
    )
