"""The cyclic garbage collector paused while a build describes, resolves and writes its pages.

A build makes a few objects per page (descriptions, entries, paths) and frees nearly all of them
as soon as the page is resolved; none is part of a reference cycle, so the collector never finds
garbage among them. Its passes are still triggered by how many objects were made, and each of
the older generations' passes walks the host's whole heap (a Sphinx environment, every Pelican
content), which grows with the site: on a 1,000-page Pelican site, one extra full pass made a
tenth of the sitemap's time. Paused, the collector resumes as it was; anything cyclic made in
the meantime is collected by its next pass, as Mercurial does around its own bulk parsing.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

__all__ = ["collector_paused"]


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the collector for the ``with`` block (nested blocks and a collector the host
    already paused are left as they are)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
