"""A corpus of sitemaps, good and broken, with what the validator and the official XSD say of each.

Each case is a small document a reviewer can read at a glance, the exact set of codes
``sitemap-plugins validate`` must report for it, and the XSD's verdict: ``True`` valid, ``False``
invalid, ``None`` where the XSD has no say (an element of a namespace it has no schema for: its
``processContents="strict"`` wildcard then fails for want of a schema, not because of the file).

The test in ``test_corpus.py`` checks both verdicts against the XSDs, and the rule that ties them
together: where the XSD rejects a file, the validator reports an error; where it accepts one, the
validator reports no error of a kind the XSD judges (:data:`XSD_KINDS`).
"""

from __future__ import annotations

from dataclasses import dataclass

SM = "http://www.sitemaps.org/schemas/sitemap/0.9"
BASE = "https://example.org/"
OK = f"{BASE}a/"
NAMESPACES = (
    f'xmlns="{SM}" '
    'xmlns:xhtml="http://www.w3.org/1999/xhtml" '
    'xmlns:image="http://www.google.com/schemas/sitemap-image/1.1" '
    'xmlns:video="http://www.google.com/schemas/sitemap-video/1.1" '
    'xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"'
)

XSD_KINDS = frozenset(
    {
        "E102",  # well-formedness: no parser, no schema
        "E104",  # namespaces
        "E105",
        "E201",  # element names, order, counts, text, attributes
        "E202",
        "E203",
        "E204",
        "E205",
        "E206",
        "E207",
        "E302",  # loc length
        "E401",  # date syntax
        "E404",  # changefreq enumeration
        "E405",  # priority range
        "E703",  # the extensions' simple types
    }
)
"""Codes for rules the XSD states itself: an XSD-valid file must never get one of these."""


@dataclass(frozen=True)
class Case:
    document: str
    codes: frozenset[str]
    xsd: bool | None
    base_url: str | None = BASE  # the URL the folder holding the file is served at


DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n'


def urlset(*body: str) -> str:
    return f"{DECLARATION}<urlset {NAMESPACES}>\n{''.join(body)}</urlset>\n"


def url(loc: str = OK, *children: str) -> str:
    return f"  <url><loc>{loc}</loc>{''.join(children)}</url>\n"


def index(*body: str) -> str:
    return f'{DECLARATION}<sitemapindex xmlns="{SM}">\n{"".join(body)}</sitemapindex>\n'


CHILD = f"  <sitemap><loc>{BASE}sitemap-1.xml</loc></sitemap>\n"
"""An index entry whose file the test writes beside the index (a valid urlset)."""

VIDEO_REQUIRED = (
    f"<video:thumbnail_loc>{BASE}t.jpg</video:thumbnail_loc>"
    "<video:title>A title</video:title><video:description>What it shows</video:description>"
)


def video(*children: str, required: str = VIDEO_REQUIRED) -> str:
    return f"<video:video>{required}{''.join(children)}</video:video>"


NEWS_PUBLICATION = (
    "<news:publication><news:name>The Example</news:name>"
    "<news:language>en</news:language></news:publication>"
)


def news(publication: str = NEWS_PUBLICATION, *children: str) -> str:
    return f"<news:news>{publication}{''.join(children)}</news:news>"


def link(hreflang: str | None, href: str | None, extra: str = "") -> str:
    attributes = ' rel="alternate"'
    if hreflang is not None:
        attributes += f' hreflang="{hreflang}"'
    if href is not None:
        attributes += f' href="{href}"'
    return f"<xhtml:link{attributes}{extra}/>"


def case(
    document: str, codes: str = "", xsd: bool | None = True, base_url: str | None = BASE
) -> Case:
    return Case(document, frozenset(codes.split()), xsd, base_url)


LONG_PATH = "a" * (2048 - len(BASE))
CASES: dict[str, Case] = {
    # ---- valid everywhere
    "minimal urlset": case(urlset(url())),
    "every sitemap field": case(
        urlset(
            url(
                OK,
                "<lastmod>2024-05-01</lastmod><changefreq>weekly</changefreq>",
                "<priority>0.8</priority>",
            )
        )
    ),
    "timestamps with zones and fractions": case(
        urlset(
            url(f"{BASE}a/", "<lastmod>2024-05-01T10:00:00Z</lastmod>"),
            url(f"{BASE}b/", "<lastmod>2024-05-02T10:00:00.123+02:00</lastmod>"),
            url(f"{BASE}c/", "<lastmod>2024-05-03T23:59:59-14:00</lastmod>"),
        )
    ),
    "decimal forms the XSD reads": case(
        urlset(
            url(f"{BASE}a/", "<priority>+.5</priority>"),
            url(f"{BASE}b/", "<priority>1.</priority>"),
            url(f"{BASE}c/", "<priority> 0 </priority>"),
        )
    ),
    "whitespace around values": case(
        urlset(f"  <url><loc>\n    {OK}\n  </loc><lastmod> 2024-05-01 </lastmod></url>\n")
    ),
    "escaped ampersand, CDATA, comment, processing instruction": case(
        urlset(
            url(f"{BASE}?a=1&amp;b=2"),
            f"  <url><!-- c --><?pi x?><loc><![CDATA[{BASE}?c=1&d=2]]></loc></url>\n",
        )
    ),
    "schemaLocation attributes": case(
        urlset(url()).replace(
            "<urlset ",
            '<urlset xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
            f'xsi:schemaLocation="{SM} {SM}/sitemap.xsd" ',
        )
    ),
    "shortest loc the XSD allows": case(urlset(url("http://a.co/")), base_url=None),
    "image with every child": case(
        urlset(
            url(
                OK,
                f"<image:image><image:loc>{BASE}i.png</image:loc><image:caption>c</image:caption>"
                "<image:geo_location>Limerick, Ireland</image:geo_location>"
                f"<image:title>t</image:title><image:license>{BASE}l</image:license>"
                "</image:image>",
            )
        )
    ),
    "video with many children": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    f'<video:player_loc allow_embed="yes">{BASE}p</video:player_loc>',
                    "<video:duration>600</video:duration>",
                    "<video:expiration_date>2030-01-01</video:expiration_date>",
                    "<video:rating>4.2</video:rating>",
                    "<video:view_count>12</video:view_count>",
                    "<video:tag>a</video:tag><video:tag>b</video:tag>",
                    "<video:family_friendly>Yes</video:family_friendly>",
                    '<video:restriction relationship="allow">IE GB</video:restriction>',
                    '<video:price currency="EUR" type="rent">1.99</video:price>',
                    "<video:tvshow><video:show_title>S</video:show_title>"
                    "<video:video_type>full</video:video_type>"
                    "<video:season_number>1</video:season_number></video:tvshow>",
                    '<video:platform relationship="deny">tv</video:platform>',
                    '<video:id type="url">x</video:id>',
                ),
            )
        )
    ),
    "news article": case(
        urlset(
            url(
                OK,
                news(
                    NEWS_PUBLICATION,
                    "<news:genres>Blog, OpEd</news:genres>",
                    "<news:publication_date>2024-05-01T10:00:00Z</news:publication_date>",
                    "<news:title>T</news:title>",
                    "<news:stock_tickers>NASDAQ:AMAT</news:stock_tickers>",
                ),
            )
        )
    ),
    "hreflang alternates with self and x-default": case(
        urlset(
            url(
                f"{BASE}en/",
                link("en", f"{BASE}en/"),
                link("fr", f"{BASE}fr/"),
                link("x-default", f"{BASE}en/"),
            ),
            url(
                f"{BASE}fr/",
                link("en", f"{BASE}en/"),
                link("fr", f"{BASE}fr/"),
                link("x-default", f"{BASE}en/"),
            ),
        )
    ),
    "index": case(
        index(f"  <sitemap><loc>{BASE}sitemap-1.xml</loc><lastmod>2024-05-02</lastmod></sitemap>\n")
    ),
    # ---- valid, with a warning
    "loc of exactly 2,048 characters": case(urlset(url(BASE + LONG_PATH)), "W302"),
    "extension element before the urls": case(
        urlset(f"  <image:image><image:loc>{BASE}i.png</image:loc></image:image>\n", url()),
        "W201",
    ),
    "xhtml element other than link": case(urlset(url(OK, "<xhtml:p>x</xhtml:p>")), "W201"),
    "hreflang without the URL itself": case(urlset(url(OK, link("fr", f"{BASE}fr/a/"))), "W701"),
    "every lastmod on one day": case(
        urlset(*(url(f"{BASE}{c}/", "<lastmod>2024-05-01</lastmod>") for c in "abc")), "W901"
    ),
    "the same priority everywhere": case(
        urlset(*(url(f"{BASE}{c}/", "<priority>0.5</priority>") for c in "ab")), "W902"
    ),
    "escaped twice, or a URL that holds &amp;": case(
        urlset(url(f"{BASE}?a=1&amp;amp;b=2")), "W304"
    ),
    "unknown extension namespace": case(
        urlset(url(OK, '<m:mobile xmlns:m="http://www.google.com/schemas/sitemap-mobile/1.0"/>')),
        "W202",
        None,  # no schema for that namespace: the strict wildcard fails for want of one
    ),
    # ---- errors the XSD does not judge (it accepts these files)
    "relative loc": case(urlset(url("/docs/page/abc")), "E301"),
    "ftp loc": case(urlset(url("ftp://example.org/a")), "E301"),
    "raw space in loc": case(urlset(url(f"{BASE}a b/")), "E303"),
    "newline inside a loc": case(urlset(url(f"{BASE}a\n?b=1")), "E303"),
    "raw non-ASCII in loc": case(urlset(url(f"{BASE}café/")), "E303"),
    "raw quote in loc": case(urlset(url(f'{BASE}a"b/')), "E303"),
    "non-ASCII host": case(urlset(url("https://exämple.org/a/")), "E303", base_url=None),
    "lastmod with a time but no zone": case(
        urlset(url(OK, "<lastmod>2024-05-01T10:00:00</lastmod>")), "E402"
    ),
    "lastmod: a date with a zone": case(urlset(url(OK, "<lastmod>2024-05-01Z</lastmod>")), "E402"),
    "lastmod in the future": case(urlset(url(OK, "<lastmod>2031-01-01</lastmod>")), "E403"),
    "duplicate loc": case(urlset(url(), url()), "E307"),
    "another host": case(urlset(url(), url("https://other.example.org/b/")), "E305"),
    "encoding declared as Latin-1": case(urlset(url()).replace("UTF-8", "ISO-8859-1"), "E101"),
    "video without content_loc or player_loc": case(urlset(url(OK, video())), "E702"),
    "xhtml:link without hreflang": case(urlset(url(OK, link(None, OK))), "E701"),
    "xhtml:link with a relative href": case(
        urlset(url(OK, link("en", OK), link("fr", "fr/a/"))), "E301"
    ),
    "1,001 images": case(
        urlset(url(OK, f"<image:image><image:loc>{BASE}i.png</image:loc></image:image>" * 1001)),
        "E503",
    ),
    "relative index entry": case(index("  <sitemap><loc>sitemap-1.xml</loc></sitemap>\n"), "E301"),
    # ---- errors the XSD finds too
    "not well-formed: raw ampersand": case(urlset(url(f"{BASE}?a=1&b=2")), "E102", False),
    "not well-formed: mismatched tag": case(
        urlset(url()).replace("</url>", "</urls>"), "E102", False
    ),
    "not UTF-8": case(urlset(url(f"{BASE}caf\udce9/")), "E101", False),
    "empty file": case("", "E207", False),
    "legacy 0.84 namespace": case(
        urlset(url()).replace(SM, "http://www.google.com/schemas/sitemap/0.84"), "E104", False
    ),
    "no namespace": case(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset>{url()}</urlset>\n', "E105", False
    ),
    "namespace with a trailing slash": case(urlset(url()).replace(SM, SM + "/"), "E105", False),
    "an RSS feed": case(
        '<?xml version="1.0"?>\n<rss version="2.0"><channel/></rss>\n', "E105", False
    ),
    "DOCTYPE with an internal entity": case(
        urlset(url(f"{BASE}&e;/")).replace(
            "<urlset", '<!DOCTYPE urlset [<!ENTITY e "x">]>\n<urlset', 1
        ),
        "E103",
        False,  # libxml2 gives up on the unexpanded entity
    ),
    "an HTML page": case("<!DOCTYPE html>\n<html><body>Not found</body></html>\n", "E105", False),
    "children out of order": case(
        urlset(url(OK, "<priority>0.5</priority><lastmod>2024-05-01</lastmod>")), "E202", False
    ),
    "loc not first": case(
        urlset(f"  <url><lastmod>2024-05-01</lastmod><loc>{OK}</loc></url>\n"), "E202", False
    ),
    "no loc": case(urlset("  <url><lastmod>2024-05-01</lastmod></url>\n"), "E203", False),
    "two locs": case(urlset(url(OK, f"<loc>{BASE}b/</loc>")), "E204", False),
    "two lastmods": case(
        urlset(url(OK, "<lastmod>2024-05-01</lastmod><lastmod>2024-05-02</lastmod>")),
        "E204",
        False,
    ),
    "unknown sitemap element": case(urlset(url(OK, "<title>A</title>")), "E201", False),
    "element without namespace": case(urlset(url(OK, '<foo xmlns="">1</foo>')), "E201", False),
    "element inside loc": case(urlset(f"  <url><loc>{OK}<b/></loc></url>\n"), "E201", False),
    "url inside url": case(urlset(url(OK, f"<url><loc>{BASE}b/</loc></url>")), "E201", False),
    "text in url": case(urlset(f"  <url>hi<loc>{OK}</loc></url>\n"), "E205", False),
    "text in urlset": case(urlset("  hello\n", url()), "E205", False),
    "attribute on url": case(urlset(url()).replace("<url>", '<url id="1">'), "E206", False),
    "empty urlset": case(urlset(), "E207", False),
    "empty index": case(index(), "E207", False),
    "empty loc": case(urlset(url("")), "E301", False),
    "loc of 11 characters": case(urlset(url("http://a.co")), "E302", False, base_url=None),
    "loc of 2,049 characters": case(urlset(url(BASE + LONG_PATH + "b")), "E302", False),
    "stray percent": case(urlset(url(f"{BASE}100%/")), "E303", False),
    "two fragments": case(urlset(url(f"{BASE}a#b#c")), "E303", False),
    "lastmod without seconds": case(
        urlset(url(OK, "<lastmod>2024-05-01T10:00Z</lastmod>")), "E401", False
    ),
    "lastmod year and month": case(urlset(url(OK, "<lastmod>2024-05</lastmod>")), "E401", False),
    "lastmod 30 February": case(urlset(url(OK, "<lastmod>2024-02-30</lastmod>")), "E401", False),
    "lastmod month 13": case(urlset(url(OK, "<lastmod>2024-13-01</lastmod>")), "E401", False),
    "lastmod in words": case(urlset(url(OK, "<lastmod>yesterday</lastmod>")), "E401", False),
    "lastmod zone beyond 14 hours": case(
        urlset(url(OK, "<lastmod>2024-02-03T10:00:00+15:00</lastmod>")), "E401", False
    ),
    "changefreq Weekly": case(urlset(url(OK, "<changefreq>Weekly</changefreq>")), "E404", False),
    "changefreq with a space": case(
        urlset(url(OK, "<changefreq> daily</changefreq>")), "E404", False
    ),
    "changefreq sometimes": case(
        urlset(url(OK, "<changefreq>sometimes</changefreq>")), "E404", False
    ),
    "priority 1.5": case(urlset(url(OK, "<priority>1.5</priority>")), "E405", False),
    "priority high": case(urlset(url(OK, "<priority>high</priority>")), "E405", False),
    "priority with an exponent": case(urlset(url(OK, "<priority>1e-1</priority>")), "E405", False),
    "image without image:loc": case(
        urlset(url(OK, "<image:image><image:title>t</image:title></image:image>")), "E203", False
    ),
    "image:loc outside image:image": case(
        urlset(url(OK, f"<image:loc>{BASE}i.png</image:loc>")), "E201", False
    ),
    "image children out of order": case(
        urlset(
            url(
                OK,
                f"<image:image><image:title>t</image:title><image:loc>{BASE}i.png</image:loc>"
                "</image:image>",
            )
        ),
        "E202",
        False,
    ),
    "video without title": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    required=f"<video:thumbnail_loc>{BASE}t.jpg</video:thumbnail_loc>"
                    "<video:description>d</video:description>",
                ),
            )
        ),
        "E203",
        False,
    ),
    "video duration over 8 hours": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    "<video:duration>28801</video:duration>",
                ),
            )
        ),
        "E703",
        False,
    ),
    "video family_friendly maybe": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    "<video:family_friendly>maybe</video:family_friendly>",
                ),
            )
        ),
        "E703",
        False,
    ),
    "video restriction without relationship": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    "<video:restriction>IE</video:restriction>",
                ),
            )
        ),
        "E206",
        False,
    ),
    "video price in lower-case currency": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    '<video:price currency="eur">1</video:price>',
                ),
            )
        ),
        "E703",
        False,
    ),
    "news language in capitals": case(
        urlset(
            url(
                OK,
                news(
                    NEWS_PUBLICATION.replace(">en<", ">EN<"),
                    "<news:publication_date>2024-05-01</news:publication_date>",
                    "<news:title>T</news:title>",
                ),
            )
        ),
        "E703",
        False,
    ),
    "news without publication_date": case(
        urlset(url(OK, news(NEWS_PUBLICATION, "<news:title>T</news:title>"))), "E203", False
    ),
    "hreflang that is not a language tag": case(urlset(url(OK, link("en_US", OK))), "E703", False),
    "xhtml:link with an unknown attribute": case(
        urlset(url(OK, link("en", OK, ' data-x="1"'))), "E206", False
    ),
    "xhtml:link with text": case(
        urlset(
            url(OK, '<xhtml:link rel="alternate" hreflang="en" href="' + OK + '">x</xhtml:link>')
        ),
        "E205",
        False,
    ),
    "url in an index": case(index(f"  <url><loc>{OK}</loc></url>\n"), "E201 E207", False),
    "priority in an index entry": case(
        index(f"  <sitemap><loc>{BASE}sitemap-1.xml</loc><priority>0.5</priority></sitemap>\n"),
        "E201",
        False,
    ),
    # XSD whitespace is space, tab, CR and LF only, and its digits are 0-9: a no-break space
    # (U+00A0), an em space (U+2003) or digits of other scripts are part of the value.
    "lastmod followed by a no-break space": case(
        urlset(url(OK, "<lastmod>2024-05-01\u00a0</lastmod>")), "E401", False
    ),
    "lastmod in full-width digits": case(
        urlset(url(OK, "<lastmod>\uff12\uff10\uff12\uff14-05-01</lastmod>")), "E401", False
    ),
    "lastmod in Arabic-Indic digits": case(
        urlset(url(OK, "<lastmod>\u0662\u0660\u0662\u0664-05-01T10:00:00Z</lastmod>")),
        "E401",
        False,
    ),
    "priority after an em space": case(
        urlset(url(OK, "<priority>\u20030.5</priority>")), "E405", False
    ),
    "priority in an Arabic-Indic digit": case(
        urlset(url(OK, "<priority>\u0660.5</priority>")), "E405", False
    ),
    "loc after a no-break space": case(urlset(url(f"\u00a0{OK}")), "E301", False),
    "loc followed by a no-break space": case(urlset(url(f"{OK}\u00a0")), "E303"),
    "no-break space in url": case(urlset(f"  <url>\u00a0<loc>{OK}</loc></url>\n"), "E205", False),
    "video duration in full-width digits": case(
        urlset(
            url(
                OK,
                video(
                    f"<video:content_loc>{BASE}v.mp4</video:content_loc>",
                    "<video:duration>\uff16\uff10</video:duration>",
                ),
            )
        ),
        "E703",
        False,
    ),
    "hreflang followed by a no-break space": case(
        urlset(url(OK, link("en\u00a0", OK))), "E703", False
    ),
    "bad lastmod in an index entry": case(
        index(f"  <sitemap><loc>{BASE}sitemap-1.xml</loc><lastmod>May 2024</lastmod></sitemap>\n"),
        "E401",
        False,
    ),
}
