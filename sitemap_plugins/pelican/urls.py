"""The URL that serves each file Pelican writes, from the template context it was written with.

``content_written`` gives the file and the template's context, not the URL Pelican used: the URL
is rebuilt from the objects in that context (article, page, tag, paginator page...), the way
Pelican's own templates link to it. Where that URL (a content's ``url``, a tag's, a listing's
``*_URL`` setting) does not serve the file Pelican wrote, the file's own URL is what a visitor
can reach (:func:`served`).
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Mapping
from typing import Any, Final, NamedTuple
from urllib.parse import unquote

__all__ = ["SiteUrls", "UrlSetting", "clean", "linked_path", "served"]

_INDEX_FILE: Final = re.compile(r"(^|/)index\.html?$")


class UrlSetting(NamedTuple):
    """The setting that made Pelican's link to a listing, with its value, and what saved the
    file: what a user changes when that link does not serve the file, so what a warning names.
    """

    name: str
    """``TAG_URL``, ``ARCHIVES_URL``, ``YEAR_ARCHIVE_URL``, ``PAGINATION_PATTERNS``..."""
    value: str
    """As the user wrote it (``'topics/{slug}/'``; a pagination rule as its tuple)."""
    saved_by: str
    """The setting that saved the file, with its value: ``TAG_SAVE_AS 'tag/{slug}.html'``."""
    advice: str = "set them to agree"
    """What to set: the two named, or the one of them that is left empty or disagrees."""


class SiteUrls:
    """URL rules read once from the settings: the direct templates' ``{NAME}_URL``, and where
    the ``search`` one is saved."""

    def __init__(self, settings: Mapping[str, Any]) -> None:
        self.settings = settings
        self.direct: dict[str, str] = {}
        self.direct_settings: dict[str, UrlSetting] = {}
        """The direct templates whose ``{NAME}_URL`` the user set, by where each is saved. One
        left unset is no link of Pelican's (its own themes link none; ``{name}.html`` is only
        the URL it gives the paginator), so it cannot disagree: ``INDEX_SAVE_AS =
        "blog/index.html"`` beside a home page of one's own, as such sites set it."""
        self.search: str | None = None
        """Where the direct template ``search`` is saved: a theme's search page (Tipue Search,
        Flex), a form that shows nothing until a visitor searches, left out as on every host."""
        for name in settings.get("DIRECT_TEMPLATES") or ():
            key = name.upper()
            save_as = settings.get(f"{key}_SAVE_AS", f"{name}.html")
            if save_as:
                self.direct[str(save_as)] = str(settings.get(f"{key}_URL", f"{name}.html"))
                if f"{key}_URL" in settings:
                    self.direct_settings[str(save_as)] = UrlSetting(
                        f"{key}_URL",
                        repr(settings[f"{key}_URL"]),
                        f"{key}_SAVE_AS {save_as!r}",
                    )
                if name == "search":
                    self.search = str(save_as)

    def of(self, rel: str, context: Mapping[str, Any]) -> str:
        """Pelican's own URL for a file that is no article or page, as its templates link it."""
        listing = context.get("articles_page")
        if listing is not None and getattr(listing, "save_as", None) == rel:
            # Page 1 is the listing itself (tag.url, INDEX_URL...); later pages follow
            # PAGINATION_PATTERNS.
            if listing.number == 1 and listing.base_url:
                return str(listing.base_url)
            return str(listing.url)
        for key in ("tag", "category", "author"):
            item = context.get(key)
            if item is not None and getattr(item, "save_as", None) == rel:
                return str(item.url)
        if rel in self.direct:
            return self.direct[rel]
        period = _period_url(rel, context)
        return rel if period is None else period

    def setting(self, rel: str, context: Mapping[str, Any]) -> UrlSetting | None:
        """The setting behind :meth:`of`'s URL for the file at ``rel``, or None where Pelican
        has no URL of it. Asked only when that URL does not serve the file: a tag's
        ``save_as`` formats Pelican's settings anew each time."""
        listing = context.get("articles_page")
        if listing is None or getattr(listing, "save_as", None) != rel:
            return self._own_setting(rel, context)
        rule = _page_rule(listing)
        if listing.number > 1:
            return _pagination_setting(rule)
        # Page 1: linked by the listing's own URL setting (TAG_URL...), or by the rule's URL
        # when that setting is empty (YEAR_ARCHIVE_URL unset), which is then what to set
        # where the rule's URL is that setting ('{url}').
        own = self._own_setting(str(listing.full_name), context)
        if not listing.base_url:
            uses_own = rule is None or "{url}" in str(rule.URL)
            if own is not None and uses_own:
                return own._replace(advice=f"set {own.name} to agree with {own.saved_by}")
            return _pagination_setting(rule)
        if own is None or rel == listing.full_name or rule is None:
            return own
        # The rule for page 1 saved the file elsewhere than the listing's own SAVE_AS, which
        # agrees with its URL or not: the rule decides the file.
        return own._replace(
            saved_by=f"PAGINATION_PATTERNS {_rule_value(rule)} (its rule for page 1, "
            f"which saves the file instead of {own.saved_by})",
            advice=f"set {own.name} and that rule to agree",
        )

    def _own_setting(self, first: str, context: Mapping[str, Any]) -> UrlSetting | None:
        """The URL setting of the tag, category, author, direct template or period archive
        whose own ``SAVE_AS`` gives ``first``, with that setting."""
        for key in ("tag", "category", "author"):
            item = context.get(key)
            if item is not None and getattr(item, "save_as", None) == first:
                name = key.upper()
                return UrlSetting(
                    f"{name}_URL",
                    repr(self.settings.get(f"{name}_URL")),
                    f"{name}_SAVE_AS {self.settings.get(f'{name}_SAVE_AS')!r}",
                )
        if first in self.direct:
            return self.direct_settings.get(first)
        period = context.get("period_num")
        if period:
            granularity = ("YEAR", "MONTH", "DAY")[min(len(period), 3) - 1]
            save_as = context.get(f"{granularity}_ARCHIVE_SAVE_AS")
            return UrlSetting(
                f"{granularity}_ARCHIVE_URL",
                repr(context.get(f"{granularity}_ARCHIVE_URL")),
                f"{granularity}_ARCHIVE_SAVE_AS {save_as!r}",
            )
        return None

    def is_search(self, rel: str, context: Mapping[str, Any]) -> bool:
        """Whether the file at ``rel`` is the search page, or a later page of it where
        ``PAGINATED_TEMPLATES`` paginates it (each page knows the file of the first)."""
        if self.search is None:
            return False
        listing = context.get("articles_page")
        return rel == self.search or getattr(listing, "full_name", None) == self.search

    def lists_articles(self, rel: str, context: Mapping[str, Any]) -> list[Any] | None:
        """The articles a listing shows, or None for a page whose content we cannot know."""
        listing = context.get("articles_page")
        if listing is not None and getattr(listing, "save_as", None) == rel:
            return list(listing.object_list)
        if rel in self.direct or "period_num" in context:
            return list(context.get("dates") or context.get("articles") or ())
        return None


def served(url: str, save_as: str) -> tuple[str, bool]:
    """Where the file written at ``save_as`` is served, as a path of names (a ``%`` in it is a
    percent sign: the core encodes it with ``encoded=False``), and whether ``url``, Pelican's
    link to it, serves it.

    ``url`` is what Pelican writes into ``href`` (a ``URL:`` metadata as the author wrote it,
    ``TAG_URL`` or any other URL setting as Pelican formats it), so it is read as a browser
    reads a link: an escape in it is the byte it names (``caf%C3%A9.html`` is ``café.html``),
    any other character itself (``my page.html``).
    It serves the file when both name the same file (``contact.html``; ``contact/`` and
    ``contact/index.html``), as a pretty URL without extension for ``url + ".html"``
    (``contact`` for ``contact.html``: web servers and hosts serve it so), and as a folder
    without its final ``/`` for that folder's index page (``tag/python`` for
    ``tag/python/index.html``: every static host redirects it to ``tag/python/``, the URL
    returned, which answers without a redirect). Anything else is a disagreement, and
    ``save_as`` is where the file is.
    """
    if url == save_as:  # most sites' articles and pages: the file's own name
        return url, True
    link = linked_path(url)
    if not save_as:
        return link, True
    file = save_as.lstrip("/")
    if clean(link) == clean(file):
        return link, True
    if not link or link.endswith("/"):
        return file, False
    if clean(file) == link + "/":  # a folder without its final slash: redirected to it
        return link + "/", True
    pretty = not posixpath.splitext(link)[1]
    return (link, True) if pretty and file == link + ".html" else (file, False)


def linked_path(url: str) -> str:
    """The path a link Pelican writes (a content's ``url``) names, as names: its escapes
    decoded, since the core encodes the path once (``encoded=False``); the bytes of an escape
    that is no UTF-8 kept as they are. Taken as it is, ``caf%C3%A9.html`` would be listed
    ``caf%25C3%25A9.html``, which serves nothing."""
    return unquote(url, errors="surrogateescape").lstrip("/") if "%" in url else url.lstrip("/")


def clean(url: str) -> str:
    """``blog/index.html`` is served as ``blog/``: list the directory, as Pelican's links do."""
    url = url.lstrip("/")
    return _INDEX_FILE.sub(r"\1", url) if "index.htm" in url else url  # run for every page


def _page_rule(listing: Any) -> Any:
    """The rule of ``PAGINATION_PATTERNS`` that gave a listing's page its URL and file, found
    as Pelican's paginator finds it: the last whose first page it has reached, or the one for
    the last page (``-1``); None where no rule applies."""
    rule = None
    for pattern in listing.settings.get("PAGINATION_PATTERNS") or ():
        if pattern.min_page == -1:
            if not listing.has_next():
                rule = pattern
                break
        elif pattern.min_page <= listing.number:
            rule = pattern
    return rule


def _rule_value(rule: Any) -> str:
    """A rule of ``PAGINATION_PATTERNS`` as the user wrote it, a tuple."""
    return repr((rule.min_page, rule.URL, rule.SAVE_AS))


def _pagination_setting(rule: Any) -> UrlSetting | None:
    """A rule of ``PAGINATION_PATTERNS`` as the setting that both links and saves a page."""
    if rule is None:
        return None
    return UrlSetting("PAGINATION_PATTERNS", _rule_value(rule), "its own SAVE_AS")


def _period_url(rel: str, context: Mapping[str, Any]) -> str | None:
    """A period archive's URL from ``{YEAR,MONTH,DAY}_ARCHIVE_URL``, as Pelican formats it."""
    period = context.get("period_num")
    dates = context.get("dates")
    if not period or not dates:
        return None
    granularity = ("YEAR", "MONTH", "DAY")[min(len(period), 3) - 1]
    date = dates[0].date
    save_as = context.get(f"{granularity}_ARCHIVE_SAVE_AS") or ""
    url = context.get(f"{granularity}_ARCHIVE_URL")
    if save_as.format(date=date) != rel or not url:
        return None
    return str(url.format(date=date))
