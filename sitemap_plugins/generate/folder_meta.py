"""Folder defaults: what a folder's meta file gives every page in it and below.

Material's ``meta`` plugin, and Zensical's, read a ``.meta.yml`` (the plugin's ``meta_file``) in
any source folder as front matter for each page in that folder and its subfolders. The host
merges the files from the top folder down, then the page's own front matter over them:
mappings key by key at every level, lists one after the other, any other value replaced by the
later one; a mapping or a list meeting a value of another type stops the host's build. The
MkDocs plugin receives the merged metadata from MkDocs; ``generate`` merges the same files
itself, and only the ``sitemap`` key, as that is all it reads.

A folder's merged value is worked out once (one ``stat`` for its meta file, one PyYAML read
where there is one), so a site with thousands of pages in a few folders pays per folder.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

__all__ = ["FolderMeta"]

_NOTHING: Final = object()
"""A folder whose meta files say nothing of ``sitemap``."""


class _Mismatch(Exception):
    """Two values of one key that do not merge: a mapping or a list, and another type."""


class FolderMeta:
    """The ``sitemap`` metadata of the pages under ``source_dir`` once the files named ``name``
    are merged in; ``warn`` is told of a file it cannot read, naming it as ``show`` shows
    paths."""

    def __init__(
        self,
        source_dir: Path,
        name: str,
        *,
        warn: Callable[[str], object],
        show: Callable[[Path], str] = str,
    ) -> None:
        self._top = source_dir.absolute()
        self._name = name
        self._warn = warn
        self._show = show
        self._folders: dict[Path, tuple[object, Path | None]] = {}
        """A folder's merged value, and the deepest meta file that gave part of it."""

    def sitemap(self, source: Path, own: object) -> object:
        """The page's ``sitemap`` value: its folders' meta files merged, then ``own`` (its front
        matter's value, None when it has none) over them."""
        merged, given_by = self._folder(source.absolute().parent)
        if merged is _NOTHING:
            return own
        if own is None:
            return merged
        return self._over(merged, given_by or source, own, source, "the page's own")

    def _folder(self, folder: Path) -> tuple[object, Path | None]:
        known = self._folders.get(folder)
        if known is not None:
            return known
        if folder == self._top:
            inherited: tuple[object, Path | None] = (_NOTHING, None)
        elif self._top in folder.parents:
            inherited = self._folder(folder.parent)
        else:
            self._folders[folder] = (_NOTHING, None)  # beyond the source folder: no meta
            return self._folders[folder]
        path = folder / self._name
        found = self._read(path)
        merged = inherited
        if found is not _NOTHING:
            base, base_file = inherited
            if base is not _NOTHING:
                found = self._over(base, base_file or folder, found, path, "this folder's")
            merged = (found, path)
        self._folders[folder] = merged
        return merged

    def _over(self, base: object, base_file: Path, over: object, where: Path, whose: str) -> object:
        """``over`` merged into ``base`` (from ``base_file``); where the two do not merge,
        ``over`` alone, and a warning naming ``where`` it is written."""
        try:
            return _merge(base, over)
        except _Mismatch:
            self._warn(
                f"{self._show(where)}: sitemap {over!r} does not merge with {base!r} from "
                f"{self._show(base_file)} (Material's and Zensical's meta plugins stop the build "
                f"there); {whose} value is used"
            )
            return over

    def _read(self, path: Path) -> object:
        """The ``sitemap`` value of one meta file, or :data:`_NOTHING`."""
        try:
            text = path.read_text(encoding="utf-8-sig")
        except FileNotFoundError:
            return _NOTHING  # most folders
        except (OSError, UnicodeDecodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else "not UTF-8 text"
            self._warn(f"{self._show(path)}: cannot read it ({reason}); its sitemap is ignored")
            return _NOTHING
        if "sitemap" not in text:
            return _NOTHING  # tags, templates, authors: nothing of ours, not parsed
        import yaml

        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # without libyaml: the Python one
        try:
            data: Any = yaml.load(text, Loader=loader)
        except yaml.YAMLError as error:
            problem = str(getattr(error, "problem", None) or error).strip()
            self._warn(f"{self._show(path)}: not valid YAML ({problem}); its sitemap is ignored")
            return _NOTHING
        if not isinstance(data, dict):
            if data is not None:
                self._warn(f"{self._show(path)}: not a mapping of keys; its sitemap is ignored")
            return _NOTHING
        value = data.get("sitemap")
        return _NOTHING if value is None else value


def _merge(base: object, over: object) -> object:
    """``over`` merged into ``base`` as the meta plugins merge metadata."""
    if isinstance(base, dict) and isinstance(over, dict):
        merged = dict(base)
        for key, value in over.items():
            merged[key] = _merge(merged[key], value) if key in merged else value
        return merged
    if isinstance(base, list) and isinstance(over, list):
        return base + over
    if isinstance(base, dict | list) or isinstance(over, dict | list):
        raise _Mismatch
    return over
