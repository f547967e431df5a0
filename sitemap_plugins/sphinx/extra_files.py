"""The files ``html_extra_path`` puts into the output folder: the site's own, never ours to replace.

Sphinx copies each folder that setting names into the output folder as it is (``robots.txt``,
a ``CNAME``, a search engine's verification file, and sometimes a ``sitemap.xml`` made by hand
or by another tool), leaving out what ``exclude_patterns`` matches, and a file it names under
its own name. It does so at the end of every build, before ``build-finished``, where the
sitemap is written: a sitemap written there would replace such a file without a word.

The core asks only for the few names it writes, so the folders are not walked: each name is
looked up in each folder, as Sphinx would have copied it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from pathlib import Path

from sphinx.util.matching import Matcher

__all__ = ["ExtraFiles"]


class ExtraFiles(Mapping[str, str]):
    """The files ``html_extra_path`` copied, by path from the output folder, each with its
    source as a warning names it (from the folder of ``conf.py``, as the setting does)."""

    def __init__(
        self, confdir: str | os.PathLike[str], extra_paths: list[str], exclude: list[str]
    ) -> None:
        self.confdir = Path(confdir)
        # Copied in order: where two hold a file of the same name, the last one's is there.
        self.sources = [self.confdir / path for path in reversed(extra_paths)]
        self.excluded = Matcher(exclude)

    def __getitem__(self, relpath: str) -> str:
        for source in self.sources:
            if source.is_file():
                if relpath == source.name:
                    return self._shown(source)
                continue
            parts = relpath.split("/")
            # A folder exclude_patterns matches is not copied, nor anything in it.
            if any(self.excluded("/".join(parts[:n])) for n in range(1, len(parts) + 1)):
                continue
            if (source / relpath).is_file():
                return self._shown(source / relpath)
        raise KeyError(relpath)

    def __iter__(self) -> Iterator[str]:
        found: dict[str, None] = {}
        for source in reversed(self.sources):
            if source.is_file():
                found[source.name] = None
                continue
            for folder, dirs, files in os.walk(source, followlinks=True):
                relative = Path(folder).relative_to(source).as_posix()
                prefix = "" if relative == "." else relative + "/"
                dirs[:] = [name for name in dirs if not self.excluded(prefix + name)]
                found.update((prefix + name, None) for name in files)
        return iter([name for name in found if name in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def _shown(self, path: Path) -> str:
        return Path(os.path.relpath(path, self.confdir)).as_posix()
