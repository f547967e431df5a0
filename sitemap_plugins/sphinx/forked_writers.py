"""The main process's objects kept out of the collector's way while Sphinx forks its writers.

With ``-j``, Sphinx writes documents in forked processes, one per chunk of documents. Each one
inherits the collector's state of the main process, and when a full collection falls due in a
worker, it walks every object the main process held (the environment, every module) and, by
touching each one, copies the memory pages holding them. When it falls due depends on how many
objects the process keeps: an extension's own few thousand (ours: the package, its settings)
were enough to make most writers of a 1,000-page site do one, about an eighth of a second each,
where few did without the extension (traced: 5 or 6 of 11 writers, against 1).

Frozen (``gc.freeze``) from the end of reading until ``build-finished``, those objects are left
out of every collection, as Python's documentation advises before a fork: the writers collect
only what they make themselves. One full collection comes first, in the main process, once: the
garbage reading left behind would otherwise stay frozen, and in memory, until the build ends
(6 MiB at 1,000 pages). Nothing else changes: the main process still collects everything it
makes while writing, and what it held before is collected again once ``build-finished`` thaws
it. A build on one process, a builder that does not write in parallel, a collector paused or
frozen by someone else: left as they are.
"""

from __future__ import annotations

import gc
from typing import Any

from sphinx.application import Sphinx

__all__ = ["ForkedWriters"]


class ForkedWriters:
    """Freezes the collector's objects for one Sphinx application's parallel writing."""

    def __init__(self) -> None:
        self.frozen = False

    def connect(self, app: Sphinx) -> None:
        # After other extensions' env-updated: what they keep is frozen with the rest.
        app.connect("env-updated", self.freeze, priority=900)
        # Before any other build-finished handler, ours included: the build is written.
        app.connect("build-finished", self.thaw, priority=100)

    def freeze(self, app: Sphinx, env: Any) -> None:
        """``env-updated``: every document is read; the writers are forked next."""
        builder: Any = app.builder
        if (
            self.frozen
            or app.parallel < 2
            or not getattr(builder, "allow_parallel", False)
            or not gc.isenabled()
            or gc.get_freeze_count()
        ):
            return
        gc.collect()  # what reading left behind is freed now, not held frozen
        gc.freeze()
        self.frozen = True

    def thaw(self, app: Sphinx, exception: Exception | None) -> None:
        """``build-finished``: the writers are done (or the build failed)."""
        if self.frozen:
            self.frozen = False
            gc.unfreeze()
