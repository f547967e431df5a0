"""A page's videos, as its author declares them in its ``sitemap`` metadata, checked field by field.

```yaml
sitemap:
  video:
    - thumbnail_loc: /media/intro.jpg
      title: Five minutes with the plugin
      description: Installing and configuring the plugin on a new site.
      content_loc: https://cdn.example.org/intro.mp4
      duration: 300
```

The names are the tags of Google's video sitemap extension 1.1, without the ``video:`` prefix.
Required: ``thumbnail_loc``, ``title`` (at most 100 characters), ``description`` (at most 2,048),
and ``content_loc`` or ``player_loc`` (or both); a video without one of them, or with a bad one,
is left out with a warning naming the page and the field, and the page keeps its other videos.
Optional, each dropped with a warning when bad: ``duration`` (seconds, 1 to 28,800),
``expiration_date``, ``publication_date``, ``rating`` (0.0 to 5.0), ``view_count``, ``tag`` (a
word or a list of at most 32), ``family_friendly``, ``requires_subscription``, ``live`` (true or
false), ``restriction`` (``{allow: [IE, GB]}`` or ``{deny: [...]}``, ISO 3166 country codes),
``platform`` (``{allow: [web, mobile, tv]}`` or ``{deny: ...}``) and ``uploader`` (a name, or
``{name: ..., info: URL}``).

URLs may be relative to the page, as links in it are. The tags Google stopped reading in 2022
(``category``, ``gallery_loc``, ``price``, ``tvshow``, and the ``allow_embed`` and ``autoplay``
attributes of the player) are not written; naming one is a warning, as any unknown key is.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from sitemap_plugins.core.dates import parse_lastmod
from sitemap_plugins.core.model import Lastmod, Video
from sitemap_plugins.core.render import xml_clean
from sitemap_plugins.core.urls import resolve_reference

__all__ = ["VideoReader"]

REQUIRED: Final = "thumbnail_loc, title, description, and content_loc or player_loc"
_URLS: Final = ("thumbnail_loc", "content_loc", "player_loc")
_OPTIONAL: Final = frozenset(
    {
        "duration",
        "expiration_date",
        "rating",
        "view_count",
        "publication_date",
        "tag",
        "family_friendly",
        "restriction",
        "requires_subscription",
        "uploader",
        "platform",
        "live",
    }
)
_KNOWN: Final = frozenset({*_URLS, "title", "description"}) | _OPTIONAL
_RETIRED: Final = frozenset({"category", "gallery_loc", "price", "tvshow", "id"})
_COUNTRY: Final = re.compile(r"^[A-Z]{2}$")
_PLATFORMS: Final = ("web", "mobile", "tv")
_MAX_TAGS: Final = 32


class _Bad(ValueError):
    """A value that cannot be used; the message says what is allowed."""


class VideoReader:
    """Reads the ``video`` list of one page's metadata; ``warn`` gets one message per problem."""

    def __init__(self, warn: Callable[[str], None], naive_tz: dt.tzinfo = dt.timezone.utc):
        self.warn = warn
        self.naive_tz = naive_tz

    def read(self, origin: str, page_url: str, raw: object) -> tuple[Video, ...]:
        """Every usable video of the page, in the order written."""
        if raw is None:
            return ()
        items: Sequence[object]
        if isinstance(raw, Mapping):
            items = [raw]
        elif isinstance(raw, Sequence) and not isinstance(raw, str):
            items = raw
        else:
            self.warn(
                f"{origin}: sitemap.video {_shown(raw)} is not allowed (allowed: a list of "
                f"mappings, each with {REQUIRED}); ignored"
            )
            return ()
        videos = []
        for number, item in enumerate(items, 1):
            video = self._video(f"{origin}: sitemap.video #{number}", page_url, item)
            if video is not None:
                videos.append(video)
        return tuple(videos)

    def _video(self, where: str, page_url: str, item: object) -> Video | None:
        if not isinstance(item, Mapping):
            self.warn(
                f"{where}: {_shown(item)} is not a mapping (required: {REQUIRED}); "
                "that video is left out"
            )
            return None
        for key in sorted(set(item) - _KNOWN, key=str):
            why = (
                "Google stopped reading it in 2022"
                if key in _RETIRED
                else f"allowed: {', '.join(sorted(_KNOWN))}"
            )
            self.warn(f"{where}: unknown key {key!r} ({why}); ignored")
        values: dict[str, Any] = {}
        for key in ("thumbnail_loc", "title", "description"):
            if item.get(key) is None:
                return self._left_out(where, f"no {key}")
        if item.get("content_loc") is None and item.get("player_loc") is None:
            return self._left_out(where, "neither content_loc nor player_loc")
        try:
            for key in _URLS:
                if item.get(key) is not None:
                    values[key] = self._check(key, item[key], lambda v: _url(v, page_url))
            values["title"] = self._check("title", item["title"], _text(100))
            values["description"] = self._check("description", item["description"], _text(2048))
        except _Bad as error:
            return self._left_out(where, str(error))
        for key in ("content_loc", "player_loc"):
            if values.get(key) == page_url:
                return self._left_out(
                    where, f"{key} is the page's own URL (it must name the video or its player)"
                )
        for key in sorted(_OPTIONAL & set(item), key=str):
            if item[key] is None:
                continue
            try:
                values.update(self._optional(key, item[key], page_url))
            except _Bad as error:
                self.warn(f"{where}: {error}; ignored")
        return Video(**values)

    def _left_out(self, where: str, problem: str) -> Video | None:
        """Say why a video is left out; None, for the caller to return."""
        self.warn(f"{where}: {problem} (required: {REQUIRED}); that video is left out")
        return None

    @staticmethod
    def _check(key: str, value: object, check: Callable[[object], Any]) -> Any:
        try:
            return check(value)
        except ValueError as error:
            raise _Bad(f"{key} {_shown(value)} is not allowed (allowed: {error})") from None

    def _optional(self, key: str, value: object, page_url: str) -> dict[str, Any]:
        if key in ("duration", "view_count"):
            high = 28_800 if key == "duration" else None
            return {key: self._check(key, value, _whole(1 if high else 0, high))}
        if key in ("expiration_date", "publication_date"):
            return {key: self._check(key, value, self._date)}
        if key == "rating":
            return {key: self._check(key, value, _rating)}
        if key in ("family_friendly", "requires_subscription", "live"):
            return {key: self._check(key, value, _flag)}
        if key == "tag":
            return {"tags": self._check(key, value, _tags)}
        if key == "restriction":
            return {key: self._check(key, value, _relation(_country, "ISO 3166 country codes"))}
        if key == "platform":
            return {key: self._check(key, value, _relation(_platform, "web, mobile, tv"))}
        name, info = self._check(key, value, _uploader)
        if info is None:
            return {"uploader": name}
        info_url = self._check(key, info, lambda value: _url(value, page_url))
        return {"uploader": name, "uploader_info": info_url}

    def _date(self, value: object) -> Lastmod:
        return parse_lastmod(value, naive_tz=self.naive_tz)


def _shown(value: object) -> str:
    """A value as a message shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _url(value: object, page_url: str) -> str:
    allowed = "an http(s) URL, absolute or relative to the page"
    if not isinstance(value, str) or not value.strip():
        raise ValueError(allowed)
    url = resolve_reference(page_url, value)
    if url is None:
        raise ValueError(allowed)
    return url


def _text(most: int) -> Callable[[object], str]:
    def checked(value: object) -> str:
        text = xml_clean(value).strip() if isinstance(value, str) else ""
        if not text or len(text) > most:
            raise ValueError(f"text of 1 to {most:,} characters")
        return text

    return checked


def _whole(low: int, high: int | None) -> Callable[[object], int]:
    allowed = f"a whole number from {low:,}" + (f" to {high:,}" if high else " up")

    def checked(value: object) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(allowed)
        if value < low or (high is not None and value > high):
            raise ValueError(allowed)
        return value

    return checked


def _rating(value: object) -> float:
    allowed = "a number from 0.0 to 5.0"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(allowed)
    if not math.isfinite(value) or not 0.0 <= value <= 5.0:
        raise ValueError(allowed)
    return round(float(value), 4)


def _flag(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise ValueError("true or false")


def _tags(value: object) -> tuple[str, ...]:
    allowed = f"a word or a list of at most {_MAX_TAGS} words"
    tags = [value] if isinstance(value, str) else value
    if not isinstance(tags, Sequence) or isinstance(tags, str) or len(tags) > _MAX_TAGS:
        raise ValueError(allowed)
    if not all(isinstance(tag, str) and xml_clean(tag).strip() for tag in tags):
        raise ValueError(allowed)
    return tuple(xml_clean(tag).strip() for tag in tags)


def _country(value: str) -> bool:
    return bool(_COUNTRY.match(value))


def _platform(value: str) -> bool:
    return value in _PLATFORMS


def _relation(
    valid: Callable[[str], bool], words: str
) -> Callable[[object], tuple[str, tuple[str, ...]]]:
    allowed = f"{{allow: [...]}} or {{deny: [...]}} with {words}"

    def checked(value: object) -> tuple[str, tuple[str, ...]]:
        if not isinstance(value, Mapping) or len(value) != 1:
            raise ValueError(allowed)
        [(relationship, listed)] = value.items()
        if relationship not in ("allow", "deny"):
            raise ValueError(allowed)
        items = listed.split() if isinstance(listed, str) else listed
        if not isinstance(items, Sequence) or not items:
            raise ValueError(allowed)
        if not all(isinstance(item, str) and valid(item) for item in items):
            raise ValueError(allowed)
        return relationship, tuple(dict.fromkeys(items))

    return checked


def _uploader(value: object) -> tuple[str, object]:
    allowed = "a name, or a mapping with name and info (a URL)"
    if isinstance(value, str) and xml_clean(value).strip():
        return xml_clean(value).strip(), None
    if isinstance(value, Mapping) and set(value) <= {"name", "info"}:
        name = value.get("name")
        if isinstance(name, str) and xml_clean(name).strip():
            return xml_clean(name).strip(), value.get("info")
    raise ValueError(allowed)
