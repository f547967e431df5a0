"""Every rule about one page: from what an adapter says to the entry written, or why not.

A page is left out by what its head says (robots ``noindex``, a redirect stub), by its own
``sitemap`` metadata, by the ``exclude`` globs and the pattern ``rules``, or for a URL the
protocol does not allow. Otherwise its metadata is checked value by value (a bad value is named
and dropped, the page stays), rules and defaults fill what the page leaves open, its translations
become ``hreflang`` alternates with itself and ``x-default``, and its lastmod is decided by
:mod:`~sitemap_plugins.core.lastmod`. With the ``images`` option the images of its main content
come from the same read of its HTML (:mod:`~sitemap_plugins.core.images`); its declared videos
are checked by :mod:`~sitemap_plugins.core.video`, and an article's entry in the news sitemap
is decided by :mod:`~sitemap_plugins.core.news`.
"""

from __future__ import annotations

import datetime as dt
import fnmatch
import functools
import json
import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from sitemap_plugins.core.git_dates import Undated
from sitemap_plugins.core.html import NOTHING_READ, PageRead, read_page
from sitemap_plugins.core.lastmod import LastmodRules
from sitemap_plugins.core.model import EMPTY, Entry, News, Page, Reason, Video
from sitemap_plugins.core.options import Options, Rule, check_changefreq, check_priority
from sitemap_plugins.core.report import Code, Reporter
from sitemap_plugins.core.urls import (
    MAX_URL_LENGTH,
    encode_query,
    in_scope,
    join_url,
    resolve_reference,
)

if TYPE_CHECKING:  # news and videos are imported by the builds that have them
    from sitemap_plugins.core.video import VideoReader

__all__ = ["MAX_IMAGES", "Resolved", "Resolver"]

MAX_IMAGES: Final = 1_000
"""The image extension's limit per page; the first ones in page order are listed."""
_META_KEYS: Final = frozenset({"priority", "changefreq", "lastmod", "exclude", "video"})
_EXPECTED: Final = "expected false or a mapping of priority, changefreq, lastmod, exclude, video"


class Resolved(NamedTuple):
    """A page's entry, the page it came from (for messages), where its lastmod came from, and
    its title (for the page for humans). A named tuple: one is made per page, every build."""

    entry: Entry
    origin: str
    lastmod_from: str
    undated: Undated | None = None
    news: News | None = None
    title: str | None = None


class Resolver:
    """Turns the pages of one build into entries, under one base URL and one sitemap scope."""

    def __init__(
        self,
        options: Options,
        reporter: Reporter,
        base_url: str,
        scope: str,
        lastmod: LastmodRules,
        *,
        now: dt.datetime | None = None,
        naive_tz: dt.tzinfo = dt.timezone.utc,
        read: Callable[..., PageRead] = read_page,
    ) -> None:
        """``read`` reads a rendered page as :func:`.html.read_page` does (a build passes
        :meth:`.page_reads.PageReads.read`, which skips pages unchanged since its last build)."""
        self.read = read
        self.options = options
        self.reporter = reporter
        self.base_url = base_url
        self.scope = scope
        self.lastmod = lastmod
        self.now = now or dt.datetime.now(dt.timezone.utc)
        self.naive_tz = naive_tz
        self._videos: VideoReader | None = None

    def resolve(self, page: Page) -> Resolved | Reason:
        """The page's entry, or the reason it stays out."""
        read = NOTHING_READ
        if page.html is not None:
            wants_title = self.options.html_page and page.title is None
            read = self.read(page.html, images=self.options.images, title=wants_title)
            if read.reason is not None:
                return read.reason
            if read.unreadable is not None:
                self._warn_unreadable(page, read.unreadable)
        meta = self._read_meta(page)
        if meta is None:
            return Reason.BY_METADATA
        options = self.options
        rule = None
        if options.exclude or options.rules:  # most sites set neither: no names made
            path = page.path.lstrip("/")
            names = (f"{path}?{page.query}" if page.query else path, page.origin)
            if any(fnmatch.fnmatchcase(n, glob) for glob in options.exclude for n in names):
                return Reason.BY_CONFIG
            rule = _first_rule(options.rules, names)
            if rule is not None and rule.exclude:
                return Reason.BY_RULE
        loc = self._url(page, page.path, "URL", query=page.query)
        if loc is None:
            return Reason.BAD_URL
        priority = changefreq = None
        if meta:  # most pages have no sitemap metadata: nothing to check
            priority = self._checked(page, meta, "priority", check_priority)
            changefreq = self._checked(page, meta, "changefreq", check_changefreq)
        if rule is not None:
            priority = rule.priority if priority is None else priority
            changefreq = rule.changefreq if changefreq is None else changefreq
        decision = self.lastmod.decide(page, meta)
        entry = Entry(
            loc=loc,
            lastmod=decision.value,
            changefreq=self.options.changefreq if changefreq is None else changefreq,
            priority=self.options.priority if priority is None else priority,
            alternates=self._alternates(page) if len(page.translations) > 1 else (),
            images=self._images(page, loc, read) if read.images else (),
            videos=self._video_entries(page, loc, meta["video"]) if "video" in meta else (),
        )
        news = None
        if self.options.news is not None and page.article is not None:
            from sitemap_plugins.core.news import news_item

            news = news_item(
                page.origin,
                page.article,
                self.options.news,
                now=self.now,
                naive_tz=self.naive_tz,
                warn=functools.partial(self._warn, Code.BAD_NEWS),
            )
        # A listing the host gave no title keeps its own <title>, read with the head above.
        title = page.title if page.title is not None else read.title
        return Resolved(
            entry, page.origin, decision.origin, decision.undated, news=news, title=title
        )

    def _images(self, page: Page, loc: str, read: PageRead) -> tuple[str, ...]:
        """The page's images as absolute URLs, each once, at most :data:`MAX_IMAGES`."""
        if not read.images:
            return ()
        base = loc if read.base is None else resolve_reference(loc, read.base) or loc
        found: dict[str, None] = {}
        for source in read.images:
            url = resolve_reference(base, source)
            if url is not None:
                found[url] = None
        if len(found) > MAX_IMAGES:
            self.reporter.info(
                f"sitemap: {page.origin}: {len(found):,} images, the first {MAX_IMAGES:,} listed "
                "(the image sitemap's limit per page)"
            )
            return tuple(found)[:MAX_IMAGES]
        return tuple(found)

    def _read_meta(self, page: Page) -> Mapping[str, Any] | None:
        """The page's sitemap metadata as a mapping, or None when it asks to be left out."""
        raw: object = page.sitemap
        if isinstance(raw, str):
            # MyST and reST field lists hand nested values over as JSON text.
            try:
                raw = json.loads(raw)
            except ValueError:
                self._warn(
                    Code.BAD_METADATA,
                    f"{page.origin}: sitemap metadata {page.sitemap!r} is not readable "
                    f"({_EXPECTED}); ignored",
                )
                return {}
        if raw is None or raw is True:
            return EMPTY  # most pages: nothing asked of their entry
        if raw is False:
            return None
        if not isinstance(raw, Mapping):
            self._warn(
                Code.BAD_METADATA,
                f"{page.origin}: sitemap metadata {raw!r} is not allowed ({_EXPECTED}); ignored",
            )
            return {}
        for key in sorted(set(raw) - _META_KEYS, key=str):
            self._warn(
                Code.BAD_METADATA,
                f"{page.origin}: unknown sitemap metadata key {key!r} "
                f"(allowed: {', '.join(sorted(_META_KEYS))}); ignored",
            )
        exclude = raw.get("exclude", False)
        if exclude is True:
            return None
        if exclude is not False:
            self._warn(
                Code.BAD_METADATA,
                f"{page.origin}: sitemap.exclude {exclude!r} is not allowed (true or false); "
                "ignored",
            )
        return raw

    def _checked(
        self, page: Page, meta: Mapping[str, Any], key: str, check: Callable[[object], Any]
    ) -> Any:
        if meta.get(key) is None:
            return None
        try:
            return check(meta[key])
        except ValueError as error:
            self._warn(
                Code.BAD_PRIORITY if key == "priority" else Code.BAD_CHANGEFREQ,
                f"{page.origin}: {key} {meta[key]!r} is not allowed (allowed: {error}); ignored",
            )
            return None

    def _url(
        self, page: Page, path: str, what: str, *, scoped: bool = True, query: str = ""
    ) -> str | None:
        """The absolute URL of ``path`` (with ``query``), or None (with a warning) when the
        sitemap may not list it: no UTF-8 form, over the protocol's length, or (``scoped``)
        outside the sitemap's own folder. Alternates are not scoped: the protocol confines the
        URLs a sitemap lists, and a language version may live in a sibling folder (``/de/``
        beside ``/en/sitemap.xml``)."""
        part = "path"
        try:
            url = join_url(self.base_url, path, encoded=page.encoded)
            if query:
                part = "query"
                url += "?" + encode_query(query, encoded=page.encoded)
        except ValueError as error:
            self._warn(Code.BAD_URL, f"{page.origin}: {what} {part} {error}; left out")
            return None
        if len(url) > MAX_URL_LENGTH:
            self._warn(
                Code.BAD_URL,
                f"{page.origin}: {what} is {len(url):,} characters, over the protocol's limit "
                f"of 2,048; left out: {url[:80]}…",
            )
            return None
        if scoped and not in_scope(url, self.scope):
            self._warn(
                Code.BAD_URL,
                f"{page.origin}: {what} {url[:200]} is outside {self.scope}, which a sitemap "
                "there may not list; left out",
            )
            return None
        return url

    def _alternates(self, page: Page) -> tuple[tuple[str, str], ...]:
        """Every language version, itself included, then ``x-default``: ``hreflang`` wants
        BCP 47 tags, so a locale named like ``pt_BR`` is written ``pt-BR``, ``sr@latin``
        ``sr-Latn`` (see :mod:`~sitemap_plugins.core.language_tags`)."""
        if len(page.translations) < 2:
            return ()  # a page with only itself as "alternate" has no alternates
        from sitemap_plugins.core.language_tags import language_tag  # translated sites only

        found: dict[str, str] = {}
        for locale, path in sorted(page.translations.items()):
            tag = language_tag(locale)
            if tag is None:
                self._warn(
                    Code.BAD_METADATA,
                    f"{page.origin}: hreflang {locale!r} is not a language tag; alternate left out",
                )
                continue
            url = self._url(page, path, "alternate URL", scoped=False)
            if url is not None:
                found.setdefault(tag, url)
        default = page.translations.get(page.default_locale or "")
        if default is not None and len(found) > 1:
            url = self._url(page, default, "alternate URL", scoped=False)
            if url is not None:
                found["x-default"] = url
        if len(found) < 2:
            return ()
        return tuple(sorted(found.items(), key=lambda item: (item[0] == "x-default", item[0])))

    def _video_entries(self, page: Page, loc: str, declared: object) -> tuple[Video, ...]:
        """The page's declared videos, read by one reader for the whole build."""
        if self._videos is None:
            from sitemap_plugins.core.video import VideoReader

            warn = functools.partial(self._warn, Code.BAD_VIDEO)
            self._videos = VideoReader(warn, self.naive_tz)
        return self._videos.read(page.origin, loc, declared)

    def _warn(self, code: Code, message: str) -> None:
        self.reporter.warning(code, message)

    def _warn_unreadable(self, page: Page, why: str) -> None:
        """The file the host wrote for ``page`` could not be read back (removed or locked by
        something else since): the host published the page, so it stays listed, but what its
        head would say (a ``noindex``, a redirect) is unknown, and the user hears of it."""
        html = page.html  # only a file can fail to be read: never text
        path = os.fspath(html) if isinstance(html, os.PathLike) else page.origin
        self._warn(
            Code.UNREADABLE,
            f"{page.origin}: cannot read {path} ({why}); listed without checking its head "
            "for a noindex or a redirect",
        )


def _first_rule(rules: tuple[Rule, ...], names: tuple[str, ...]) -> Rule | None:
    """The first rule whose glob matches the served path or the source file."""
    return next((r for r in rules for n in names if fnmatch.fnmatchcase(n, r.pattern)), None)
