"""Which articles a news sitemap lists, and with what: Google News' rules, decided in one place.

Google News reads a news sitemap for articles **published in the last two days**, so an
article is listed from its publication until 48 hours later (the build's clock decides: a site
that wants its news sitemap to stay true rebuilds at least daily). Each gets the publication's
name and language from the ``news`` option, its own publication date and its title. The
publication date is the one the author gave (a host never passes one it filled in by default);
a date without a time counts from the start of that day in the site's time zone. An article
dated in the future is not published yet, and is not listed.

Hosts hold a title as HTML (MkDocs and Pelican escape ``&``; a reST title may carry inline
markup): the news sitemap gets its text, as :func:`.html_text.html_text` makes it.

An article in another language than the publication's (a Pelican translation) carries its own
language where the host knows it, in the form Google News wants: ISO 639 in lower case
(``pt_BR`` is ``pt``), ``zh-cn`` or ``zh-tw`` for Chinese.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Final

from sitemap_plugins.core.dates import parse_lastmod
from sitemap_plugins.core.html_text import html_text
from sitemap_plugins.core.lastmod import is_future
from sitemap_plugins.core.model import Article, News
from sitemap_plugins.core.options import NewsPublication
from sitemap_plugins.core.render import xml_clean

__all__ = ["WINDOW", "news_item"]

WINDOW: Final = dt.timedelta(days=2)
"""How long after its publication an article stays in the news sitemap."""
_LANGUAGE: Final = re.compile(r"^([a-zA-Z]{2,3})(?:[-_]([a-zA-Z0-9]+))?(?:[-_][a-zA-Z0-9]+)*$")
_CHINESE: Final = {"cn": "zh-cn", "hans": "zh-cn", "sg": "zh-cn", "tw": "zh-tw", "hant": "zh-tw",
                   "hk": "zh-tw", "mo": "zh-tw"}  # fmt: skip


def news_item(
    origin: str,
    article: Article,
    publication: NewsPublication,
    *,
    now: dt.datetime,
    naive_tz: dt.tzinfo,
    warn: Callable[[str], None],
) -> News | None:
    """The ``news:news`` of a recent article, or None (an old article is no news; an article
    without a usable date or title is named in a warning)."""
    if article.published is None or article.published == "":
        return None
    try:
        published = parse_lastmod(article.published, naive_tz=naive_tz)
    except ValueError as error:
        warn(f"{origin}: publication date {article.published!r} is not a date (allowed: {error});"
             " not in the news sitemap")  # fmt: skip
        return None
    instant = (
        published
        if isinstance(published, dt.datetime)
        else dt.datetime.combine(published, dt.time(), naive_tz)
    )
    if is_future(instant, now) or instant <= now - WINDOW:
        return None
    title = _plain_text(article.title) if isinstance(article.title, str) else ""
    if not title:
        warn(f"{origin}: the article has no title; not in the news sitemap")
        return None
    language = _news_language(article.language) or publication.language
    return News(publication.name, language, published, title)


def _news_language(locale: str | None) -> str | None:
    """A host's locale (``en``, ``pt_BR``, ``zh-Hant``) as Google News names languages."""
    match = _LANGUAGE.match(locale or "")
    if match is None:
        return None
    language, region = match.group(1).lower(), (match.group(2) or "").lower()
    if language == "zh":
        return _CHINESE.get(region, "zh-cn")
    return language


def _plain_text(title: str) -> str:
    """A title as hosts hold it, HTML (``Fresh &amp; new``, ``<em>New</em> release``), as the
    plain text news:title wants."""
    return xml_clean(html_text(title)).strip()
