"""pelican-sitemap's ``SITEMAP`` setting and per-page fields, read with the meaning they had.

pelican-sitemap's ``SITEMAP`` dict has ``format``, ``priorities`` and ``changefreqs`` per kind of
page (articles, pages, indexes) and ``exclude``, regular expressions searched in each URL path;
its pages may carry ``Priority`` and ``ChangeFreq`` fields. The same dict holds our options under
their own names. A dict that uses only pelican-sitemap's keys, or sets its ``priorities`` or
``changefreqs``, keeps writing a priority and a changefreq on every URL per kind, with
pelican-sitemap's defaults for the kinds not set. A bad value fails at config time naming
``SITEMAP[...]``. A bad per-page value is reported naming the page; it leaves that field to the
page's kind where kinds have values, as pelican-sitemap did, else out (the core's rule).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.core import (
    Code,
    OptionError,
    Options,
    Reporter,
    check_changefreq,
    check_priority,
)

__all__ = ["KINDS", "PelicanSitemap", "translate"]

KINDS: Final = ("articles", "indexes", "pages")
_OWN_KEYS: Final = frozenset({"priorities", "changefreqs", "exclude"})
"""pelican-sitemap's keys that are not core options (``format`` is both)."""
_PRIORITIES: Final = {"articles": 0.5, "indexes": 0.5, "pages": 0.5}
_CHANGEFREQS: Final = {"articles": "monthly", "indexes": "daily", "pages": "monthly"}
_FIELDS: Final = {"priority": check_priority, "changefreq": check_changefreq}
"""Per-page fields and their checks (Pelican lower-cases metadata names: ``Priority`` arrives
as ``priority``)."""


@dataclass(frozen=True, slots=True)
class PelicanSitemap:
    """What pelican-sitemap's settings still mean here, beside the core options."""

    exclude: tuple[re.Pattern[str], ...]
    kind_defaults: Mapping[str, Mapping[str, object]]

    def excluded(self, path: str) -> bool:
        """pelican-sitemap searched its patterns in the path with a leading slash (as its README
        shows) and, in its 1.2 release, without: patterns written for either keep working."""
        return any(p.search(path) or p.search("/" + path) for p in self.exclude)

    def page_sitemap(
        self, kind: str, metadata: Mapping[str, Any], origin: str, reporter: Reporter
    ) -> object:
        """A page's ``sitemap`` metadata with its kind's defaults and its own ``Priority`` and
        ``ChangeFreq`` beneath: the page's ``sitemap`` mapping wins where both set a value.

        Where its kind has a value for a field the ``sitemap`` mapping does not set, a bad
        ``Priority`` or ``ChangeFreq`` is reported here, naming ``origin`` (the page's
        source), and the kind's value stays, as pelican-sitemap kept it; laid over it, the
        core would drop the field altogether. One the mapping sets is not used: no warning.
        """
        raw: object = metadata.get("sitemap")
        if isinstance(raw, str):
            try:
                raw = json.loads(raw)
            except ValueError:
                return raw  # the core names the page and the value
        defaults = self.kind_defaults.get(kind, {})
        extra = dict(defaults)
        own = raw if isinstance(raw, Mapping) else {}
        for key, check in _FIELDS.items():
            value = metadata.get(key)
            if value is None or key in own:
                continue  # the page's sitemap mapping sets it: this value is not used
            if key in defaults:
                try:
                    check(value)
                except ValueError as error:
                    reporter.warning(
                        Code.BAD_PRIORITY if key == "priority" else Code.BAD_CHANGEFREQ,
                        f"{origin}: {key} {value!r} is not allowed (allowed: {error}); the "
                        f"{kind}' {key} {defaults[key]!r} is used",
                    )
                    continue
            extra[key] = value
        if raw is None or raw is True:
            return extra or None
        if isinstance(raw, Mapping):
            return {**extra, **raw}
        return raw


def translate(setting: object, folder: Path | None = None) -> tuple[Options, PelicanSitemap]:
    """The core options in ``SITEMAP``, and what its pelican-sitemap keys mean; ``folder`` is
    the project's, which relative paths among them are read from.

    Raises :class:`OptionError` naming ``SITEMAP[...]`` for a bad value.
    """
    raw = {} if setting is None else setting
    if not isinstance(raw, Mapping):
        raise OptionError("SITEMAP", raw, "a dict of sitemap options")
    values = {name: value for name, value in raw.items() if name not in _OWN_KEYS}
    try:
        options = Options.from_mapping(values, folder=folder)
    except OptionError as error:
        raise OptionError(f"SITEMAP[{error.option!r}]", error.value, error.allowed) from None
    legacy = bool(raw) and set(raw) <= _OWN_KEYS | {"format"}
    legacy = legacy or "priorities" in raw or "changefreqs" in raw
    kind_defaults: dict[str, dict[str, object]] = {kind: {} for kind in KINDS}
    if legacy:
        priorities = _per_kind(raw, "priorities", _PRIORITIES, check_priority)
        changefreqs = _per_kind(raw, "changefreqs", _CHANGEFREQS, check_changefreq)
        for kind in KINDS:
            kind_defaults[kind] = {"priority": priorities[kind], "changefreq": changefreqs[kind]}
    return options, PelicanSitemap(_patterns(raw.get("exclude", [])), kind_defaults)


def _per_kind(
    raw: Mapping[str, Any],
    key: str,
    defaults: Mapping[str, object],
    check: Callable[[object], object],
) -> dict[str, object]:
    given = raw.get(key, {})
    allowed = f"a dict with keys {', '.join(KINDS)}"
    if not isinstance(given, Mapping):
        raise OptionError(f"SITEMAP[{key!r}]", given, allowed)
    result = dict(defaults)
    for kind, value in given.items():
        if kind not in KINDS:
            raise OptionError(f"SITEMAP[{key!r}]", kind, allowed)
        try:
            result[kind] = check(value)
        except ValueError as error:
            raise OptionError(f"SITEMAP[{key!r}][{kind!r}]", value, str(error)) from None
    return result


def _patterns(value: object) -> tuple[re.Pattern[str], ...]:
    allowed = (
        "a list of regular expressions, searched in each URL path, as pelican-sitemap reads "
        'them; globs go in rules: {"pattern": "drafts/*", "exclude": True}'
    )
    if isinstance(value, str) or not isinstance(value, Iterable):
        raise OptionError("SITEMAP['exclude']", value, allowed)
    patterns = []
    for item in value:
        if not isinstance(item, str):
            raise OptionError("SITEMAP['exclude']", item, allowed)
        try:
            patterns.append(re.compile(item))
        except re.error as error:
            raise OptionError("SITEMAP['exclude']", item, f"{allowed} ({error})") from None
    return tuple(patterns)
