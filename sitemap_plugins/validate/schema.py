"""Which elements may appear where, and what text each holds: the sitemap schemas, in our words.

The official XSDs (sitemaps.org 0.9, Google's image 1.1, video 1.1 and news 0.9, XHTML for
``xhtml:link``) are not shipped; this module restates the parts of them a sitemap reader relies on,
as plain data: for each element, the sequence of children it takes (with how often each may
occur), the attributes it takes, and the kind of text it holds. The element checker walks this
table; the test suite holds the result against the XSDs themselves.

Names are written the way expat reports them with ``namespace_separator=" "``: ``"URI local"``.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import Final

from sitemap_plugins.core.render import IMAGE_NS, SITEMAP_NS, XHTML_NS
from sitemap_plugins.validate import values

VIDEO_NS: Final = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS: Final = "http://www.google.com/schemas/sitemap-news/0.9"
LEGACY_NS: Final = "http://www.google.com/schemas/sitemap/0.84"
"""Google's namespace from 2005, before sitemaps.org; still met in old generators' output."""
XSI_NS: Final = "http://www.w3.org/2001/XMLSchema-instance"
XML_NS: Final = "http://www.w3.org/XML/1998/namespace"

PREFIXES: Final = MappingProxyType(
    {
        SITEMAP_NS: "",
        IMAGE_NS: "image:",
        VIDEO_NS: "video:",
        NEWS_NS: "news:",
        XHTML_NS: "xhtml:",
        XSI_NS: "xsi:",
        XML_NS: "xml:",
    }
)
OTHER: Final = "##other"
"""A wildcard particle: any element of a namespace other than the sitemap's (and not none)."""


def q(namespace: str, local: str) -> str:
    """A name as expat reports it."""
    return f"{namespace} {local}"


def split(name: str) -> tuple[str, str]:
    """``(namespace, local)`` of an expat name; the namespace is ``""`` for unqualified names."""
    namespace, _, local = name.rpartition(" ")
    return namespace, local


def display(name: str) -> str:
    """``loc``, ``image:loc``, ``{urn:x}y``: how a name is shown in messages."""
    namespace, local = split(name)
    prefix = PREFIXES.get(namespace)
    if prefix is None:
        return f"{{{namespace}}}{local}" if namespace else local
    return prefix + local


class Text(enum.Enum):
    """What an element's text is, for the checks that have their own codes."""

    LOC = "loc"
    LASTMOD = "lastmod"
    CHANGEFREQ = "changefreq"
    PRIORITY = "priority"
    URL = "url"  # an extension's anyURI: checked as a URL, like loc but without its length bounds
    DATE = "date"  # an extension's date: W3C Datetime, may lie in the future
    STRING = "string"  # free text, or a value checked by ``ElementSpec.check``


ValueCheck = Callable[[str], "str | None"]
"""Says why a value is not allowed (the message tail), or None."""


@dataclass(frozen=True, slots=True)
class Particle:
    """One step of a content model: ``name`` (or :data:`OTHER`) from ``low`` to ``high`` times."""

    name: str
    low: int = 1
    high: int | None = 1  # None: unbounded

    def matches(self, name: str) -> bool:
        if self.name != OTHER:
            return self.name == name
        namespace = split(name)[0]
        return namespace not in ("", SITEMAP_NS)


@dataclass(frozen=True, slots=True)
class Attribute:
    check: ValueCheck | None = None
    required: bool = False


@dataclass(frozen=True, slots=True)
class ElementSpec:
    """An element: its children (None: text only), its text, its attributes."""

    children: tuple[Particle, ...] | None = None
    text: Text = Text.STRING
    check: ValueCheck | None = None
    attributes: Mapping[str, Attribute] = field(default_factory=dict)
    empty: bool = False  # no content at all, not even text (xhtml:link)


# --------------------------------------------------------------------------------------------
# Simple types, in the schemas' terms


def _one_of(*allowed: str) -> ValueCheck:
    def check(text: str) -> str | None:
        return None if text in allowed else f"is not one of {', '.join(allowed)}"

    return check


def _pattern(regex: str, example: str) -> ValueCheck:
    compiled = re.compile(regex)

    def check(text: str) -> str | None:
        return None if compiled.fullmatch(text) else f"is not of the form {example}"

    return check


def _max_length(limit: int) -> ValueCheck:
    def check(text: str) -> str | None:
        return None if len(text) <= limit else f"has {len(text):,} characters; at most {limit:,}"

    return check


def _integer(low: int, high: int | None = None) -> ValueCheck:
    return lambda text: values.integer_in_range(text, low, high)


def _decimal(low: str, high: str) -> ValueCheck:
    return lambda text: values.decimal_in_range(text, Decimal(low), Decimal(high))


def _language(text: str) -> str | None:
    return None if values.is_language_tag(text) else "is not a language tag such as en or pt-BR"


_YES_NO: Final = _one_of("yes", "Yes", "YES", "no", "No", "NO")
_RELATIONSHIP: Final = Attribute(_one_of("allow", "deny"), required=True)


def _seq(*particles: tuple[str, int, int | None] | Particle) -> tuple[Particle, ...]:
    return tuple(p if isinstance(p, Particle) else Particle(*p) for p in particles)


def _optional(namespace: str, *names: str) -> list[tuple[str, int, int | None]]:
    return [(q(namespace, name), 0, 1) for name in names]


def _attrs(**specs: Attribute) -> Mapping[str, Attribute]:
    return MappingProxyType(specs)


S, IMG, V, N, X = SITEMAP_NS, IMAGE_NS, VIDEO_NS, NEWS_NS, XHTML_NS
UNBOUNDED: Final = None

_XHTML_ATTRIBUTES: Final = {
    name: Attribute()
    for name in (
        *("id", "class", "style", "title", "charset", "href", "type", "rel", "rev", "media"),
        *("onclick", "ondblclick", "onmousedown", "onmouseup", "onmouseover", "onmousemove"),
        *("onmouseout", "onkeypress", "onkeydown", "onkeyup"),
    )
}

ELEMENTS: Final[Mapping[str, ElementSpec]] = MappingProxyType(
    {
        # sitemaps.org 0.9: urlset and sitemapindex
        q(S, "urlset"): ElementSpec(_seq(Particle(OTHER, 0, UNBOUNDED), (q(S, "url"), 1, None))),
        q(S, "url"): ElementSpec(
            _seq(
                (q(S, "loc"), 1, 1),
                *_optional(S, "lastmod", "changefreq", "priority"),
                Particle(OTHER, 0, UNBOUNDED),
            )
        ),
        q(S, "sitemapindex"): ElementSpec(
            _seq(Particle(OTHER, 0, UNBOUNDED), (q(S, "sitemap"), 1, None))
        ),
        q(S, "sitemap"): ElementSpec(
            _seq((q(S, "loc"), 1, 1), (q(S, "lastmod"), 0, 1), Particle(OTHER, 0, UNBOUNDED))
        ),
        q(S, "loc"): ElementSpec(text=Text.LOC),
        q(S, "lastmod"): ElementSpec(text=Text.LASTMOD),
        q(S, "changefreq"): ElementSpec(text=Text.CHANGEFREQ),
        q(S, "priority"): ElementSpec(text=Text.PRIORITY),
        # Image 1.1
        q(IMG, "image"): ElementSpec(
            _seq(
                (q(IMG, "loc"), 1, 1),
                *_optional(IMG, "caption", "geo_location", "title", "license"),
            )
        ),
        q(IMG, "loc"): ElementSpec(text=Text.URL),
        q(IMG, "caption"): ElementSpec(),
        q(IMG, "geo_location"): ElementSpec(),
        q(IMG, "title"): ElementSpec(),
        q(IMG, "license"): ElementSpec(text=Text.URL),
        # Video 1.1
        q(V, "video"): ElementSpec(
            _seq(
                (q(V, "thumbnail_loc"), 1, 1),
                (q(V, "title"), 1, 1),
                (q(V, "description"), 1, 1),
                *_optional(V, "content_loc", "player_loc", "duration", "expiration_date"),
                *_optional(V, "rating"),
                (q(V, "content_segment_loc"), 0, UNBOUNDED),
                *_optional(V, "view_count", "publication_date"),
                (q(V, "tag"), 0, 32),
                *_optional(V, "category", "family_friendly", "restriction", "gallery_loc"),
                (q(V, "price"), 0, UNBOUNDED),
                *_optional(V, "requires_subscription", "uploader", "tvshow", "platform", "live"),
                (q(V, "id"), 0, UNBOUNDED),
            )
        ),
        q(V, "thumbnail_loc"): ElementSpec(text=Text.URL),
        q(V, "title"): ElementSpec(check=_max_length(100)),
        q(V, "description"): ElementSpec(check=_max_length(2048)),
        q(V, "content_loc"): ElementSpec(text=Text.URL),
        q(V, "player_loc"): ElementSpec(
            text=Text.URL, attributes=_attrs(allow_embed=Attribute(_YES_NO), autoplay=Attribute())
        ),
        q(V, "duration"): ElementSpec(check=_integer(0, 28_800)),
        q(V, "expiration_date"): ElementSpec(text=Text.DATE),
        q(V, "rating"): ElementSpec(check=_decimal("0", "5")),
        q(V, "content_segment_loc"): ElementSpec(
            text=Text.URL, attributes=_attrs(duration=Attribute(_integer(0, 28_800)))
        ),
        q(V, "view_count"): ElementSpec(check=_integer(0)),
        q(V, "publication_date"): ElementSpec(text=Text.DATE),
        q(V, "tag"): ElementSpec(),
        q(V, "category"): ElementSpec(check=_max_length(256)),
        q(V, "family_friendly"): ElementSpec(check=_YES_NO),
        q(V, "restriction"): ElementSpec(
            check=_pattern(r"([A-Z]{2}( +[A-Z]{2})*)?", "'IE GB US' (ISO 3166 codes)"),
            attributes=_attrs(relationship=_RELATIONSHIP),
        ),
        q(V, "gallery_loc"): ElementSpec(text=Text.URL, attributes=_attrs(title=Attribute())),
        q(V, "price"): ElementSpec(
            attributes=_attrs(
                currency=Attribute(_pattern("[A-Z]{3}", "EUR (ISO 4217)")),
                type=Attribute(_one_of("purchase", "PURCHASE", "rent", "RENT")),
                resolution=Attribute(_one_of("sd", "SD", "hd", "HD")),
            )
        ),
        q(V, "requires_subscription"): ElementSpec(check=_YES_NO),
        q(V, "uploader"): ElementSpec(attributes=_attrs(info=Attribute())),
        q(V, "tvshow"): ElementSpec(
            _seq(
                (q(V, "show_title"), 1, 1),
                (q(V, "video_type"), 1, 1),
                *_optional(V, "episode_title", "season_number", "episode_number", "premier_date"),
            )
        ),
        q(V, "show_title"): ElementSpec(),
        q(V, "video_type"): ElementSpec(
            check=_one_of("full", "preview", "clip", "interview", "news", "other")
        ),
        q(V, "episode_title"): ElementSpec(),
        q(V, "season_number"): ElementSpec(check=_integer(1)),
        q(V, "episode_number"): ElementSpec(check=_integer(1)),
        q(V, "premier_date"): ElementSpec(text=Text.DATE),
        q(V, "platform"): ElementSpec(
            check=_pattern(r"((web|mobile|tv)( (web|mobile|tv))*)?", "'web mobile'"),
            attributes=_attrs(relationship=_RELATIONSHIP),
        ),
        q(V, "live"): ElementSpec(check=_YES_NO),
        q(V, "id"): ElementSpec(
            attributes=_attrs(
                type=Attribute(
                    _one_of(
                        "tms:series",
                        "tms:program",
                        "rovi:series",
                        "rovi:program",
                        "freebase",
                        "url",
                    ),
                    required=True,
                )
            )
        ),
        # News 0.9
        q(N, "news"): ElementSpec(
            _seq(
                (q(N, "publication"), 1, 1),
                *_optional(N, "access", "genres"),
                (q(N, "publication_date"), 1, 1),
                (q(N, "title"), 1, 1),
                *_optional(N, "keywords", "stock_tickers"),
            )
        ),
        q(N, "publication"): ElementSpec(_seq((q(N, "name"), 1, 1), (q(N, "language"), 1, 1))),
        q(N, "name"): ElementSpec(),
        q(N, "language"): ElementSpec(
            check=_pattern(r"zh-cn|zh-tw|([a-z]{2,3})", "en, fra or zh-cn (lower case)")
        ),
        q(N, "access"): ElementSpec(check=_one_of("Subscription", "Registration")),
        q(N, "genres"): ElementSpec(
            check=_pattern(
                r"(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated)"
                r"(, *(PressRelease|Satire|Blog|OpEd|Opinion|UserGenerated))*",
                "'Blog, OpEd'",
            )
        ),
        q(N, "publication_date"): ElementSpec(text=Text.DATE),
        q(N, "title"): ElementSpec(),
        q(N, "keywords"): ElementSpec(),
        q(N, "stock_tickers"): ElementSpec(
            check=_pattern(r"(\w+:\w+(, *\w+:\w+){0,4})?", "'NASDAQ:AMAT, BOM:500325'")
        ),
        # XHTML, as sitemaps use it: <xhtml:link rel="alternate" hreflang=".." href=".."/>
        q(X, "link"): ElementSpec(
            empty=True,
            attributes=_attrs(
                **_XHTML_ATTRIBUTES,
                lang=Attribute(_language),
                hreflang=Attribute(_language),
                dir=Attribute(_one_of("ltr", "rtl")),
                **{q(XML_NS, "lang"): Attribute(_language)},
            ),
        ),
    }
)

EXTENSION_ROOTS: Final = frozenset({q(IMG, "image"), q(V, "video"), q(N, "news"), q(X, "link")})
"""The extension elements that may stand in a ``<url>`` (the XSDs' global elements we model)."""
KNOWN_NAMESPACES: Final = frozenset({IMG, V, N, X})
ROOTS: Final = MappingProxyType({q(S, "urlset"): "urlset", q(S, "sitemapindex"): "index"})


def order_of(children: tuple[Particle, ...]) -> str:
    """``loc, lastmod, changefreq, priority, then extension elements``: for order messages."""
    names = [display(p.name) for p in children if p.name != OTHER]
    if children and children[-1].name == OTHER:
        names.append("then extension elements")
    return ", ".join(names)
