"""Images in the image sitemap: the main content of a page only, as absolute URLs, once each.

The themes' real pages are built by each host's tests; here the rule is held on page shapes
that copy the themes' own markup (trimmed), and on the edge cases no theme happens to show.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from sitemap_plugins.core import CollectingReporter, Options, Page, SitemapBuilder
from sitemap_plugins.core.html import read_page
from sitemap_plugins.core.images import main_images
from sitemap_plugins.core.urls import resolve_reference
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp

BASE = "https://example.org/docs/"


def page_html(body: str, head: str = "") -> str:
    return f"<!doctype html><html><head><title>t</title>{head}</head><body>{body}</body></html>"


# Trimmed copies of each theme's markup around the content, with the theme's own images.
THEMES = {
    "mkdocs default theme": (
        '<div class="navbar"><a class="navbar-brand"><img src="img/logo.png"></a></div>'
        '<div class="container"><div class="col-md-3"><div class="bs-sidebar">'
        '<img src="img/side.png"></div></div>'
        '<div class="col-md-9" role="main"><h1>T</h1><p><img alt="a" src="../a.png" /></p>'
        '</div></div><footer><img src="img/footer.png"></footer>'
    ),
    "material": (
        '<header class="md-header"><a class="md-logo"><img src="assets/logo.png" alt="logo">'
        '</a></header><div class="md-container"><main class="md-main"><div class="md-main__inner">'
        '<div class="md-sidebar md-sidebar--primary"><nav class="md-nav md-nav--primary">'
        '<label class="md-nav__title"><a class="md-logo"><img src="assets/logo.png" alt="logo">'
        "</a></label></nav></div>"
        '<div class="md-content" data-md-component="content">'
        '<article class="md-post md-post--excerpt"><header class="md-post__header">'
        '<nav class="md-post__authors"><span class="md-author">'
        '<img src="https://example.org/avatar.png" alt="A"></span></nav></header>'
        '<div class="md-post__content md-typeset"><p><img alt="p" src="../img/post.png" />'
        '<img alt=":smile:" class="twemoji" src="https://cdn.example.org/1f604.svg" />'
        "</p></div></article></div></div></main></div>"
    ),
    "sphinx alabaster": (
        '<div class="document"><div class="documentwrapper"><div class="bodywrapper">'
        '<div class="body" role="main"><section><h1>Home</h1>'
        '<img alt="An A" src="_images/a.png" /><figure class="align-default">'
        '<img alt="_images/b.png" src="_images/b.png" /><figcaption><p>B</p></figcaption>'
        "</figure></section></div></div></div>"
        '<div class="sphinxsidebar" role="navigation" aria-label="main navigation">'
        '<img class="logo" src="_static/logo.png" alt="Logo"/></div></div>'
    ),
    "sphinx classic without the landmark": (
        '<div class="related" role="navigation"><img src="_static/up.png"></div>'
        '<div class="document"><div class="body"><img alt="A" src="_images/a.png" /></div>'
        '</div><div class="sphinxsidebar"><img src="_static/logo.png"></div>'
    ),
    "pelican notmyidea article": (
        '<header id="banner" class="body"><h1><a href="/">Site</a></h1></header>'
        '<nav><ul><li><a href="/">Home</a></li></ul></nav>'
        '<section id="content" class="body"><article><header><h1>First</h1></header>'
        '<footer class="post-info">By me</footer>'
        '<div class="entry-content"><p><img alt="An A" src="https://example.org/images/a.png">'
        "</p></div></article></section>"
        '<section id="extras" class="body"><div class="social">'
        '<img src="https://example.org/theme/icons/rss.png"></div></section>'
        '<footer id="contentinfo" class="body"><img src="/theme/pelican.png"></footer>'
    ),
    "pelican notmyidea index": (
        '<header id="banner" class="body"></header><nav></nav>'
        '<aside id="featured" class="body"><article><h1>First</h1>'
        '<img alt="An A" src="https://example.org/images/a.png"></article></aside>'
        '<section id="content" class="body"><ol id="posts-list"><li><article>'
        '<img src="https://example.org/images/b.png"></article></li></ol></section>'
        '<footer id="contentinfo" class="body"><img src="/theme/pelican.png"></footer>'
    ),
    "pelican notmyidea page": (
        '<header id="banner" class="body"><img src="/theme/banner.png"></header>'
        '<section id="content" class="body"><h1>About</h1>'
        '<img alt="About" src="https://example.org/images/a.png"></section>'
        '<footer id="contentinfo" class="body"><img src="/theme/pelican.png"></footer>'
    ),
    "a theme with <main>": (
        '<header><img src="logo.png"></header><aside><img src="ad.png"></aside>'
        '<main><p><img src="content.png"></p></main><footer><img src="f.png"></footer>'
    ),
    "no landmark at all": (
        '<div class="top" role="banner"><img src="logo.png"></div>'
        '<header><img src="logo2.png"></header>'
        '<div class="wrap"><p><img src="content.png"></p>'
        '<div role="complementary"><img src="ad.png"></div></div>'
        '<footer><img src="f.png"></footer>'
    ),
}
EXPECTED = {
    "mkdocs default theme": ["../a.png"],
    "material": ["../img/post.png"],
    "sphinx alabaster": ["_images/a.png", "_images/b.png"],
    "sphinx classic without the landmark": ["_images/a.png"],
    "pelican notmyidea article": ["https://example.org/images/a.png"],
    "pelican notmyidea index": [
        "https://example.org/images/a.png",
        "https://example.org/images/b.png",
    ],
    "pelican notmyidea page": ["https://example.org/images/a.png"],
    "a theme with <main>": ["content.png"],
    "no landmark at all": ["content.png"],
}


@pytest.mark.parametrize("theme", sorted(THEMES))
def test_only_the_main_content_counts(theme: str) -> None:
    assert main_images(THEMES[theme]) == EXPECTED[theme]


@pytest.mark.parametrize(
    ("markup", "expected"),
    [
        ('<img src="data:image/png;base64,AAAA">', []),
        ('<img src="data:image/gif;base64,R0l" data-src="lazy.png">', ["lazy.png"]),
        ('<img data-src="lazy.png">', ["lazy.png"]),
        # A lazy-loading script puts data-src in src: the placeholder is no image of the page.
        ('<img src="img/placeholder.gif" data-src="img/photo.jpg">', ["img/photo.jpg"]),
        ('<img data-src="img/photo.jpg" src="img/placeholder.gif">', ["img/photo.jpg"]),
        ('<img src="a.png" data-src="">', ["a.png"]),
        ('<img src="a.png" data-src="data:image/gif;base64,R0l">', ["a.png"]),
        ('<img src="">', []),
        ('<img src="a.png" aria-hidden="true">', []),
        ('<img src="a.png" role="presentation">', []),
        ('<img src="a.png" class="emojione">', []),
        ('<img src="a.png" class="nav-icon">', []),
        ('<img src="a.png" srcset="a-2x.png 2x">', ["a.png"]),
        ('<IMG SRC="A.PNG">', ["A.PNG"]),
        ("<img src='q.png?a=1&amp;b=2' alt='x > y'>", ["q.png?a=1&b=2"]),
        ("<img src=bare.png alt=x>", ["bare.png"]),
        ('<!-- <img src="commented.png"> --><img src="real.png">', ["real.png"]),
        ('<script>var t = \'<img src="js.png">\';</script><img src="real.png">', ["real.png"]),
        ('<template><img src="tpl.png"></template><img src="real.png">', ["real.png"]),
        ('<nav><img src="nav.png"></nav><img src="real.png">', ["real.png"]),
        ('<div role="navigation"><img src="nav.png"></div><img src="real.png">', ["real.png"]),
        # A navigation ends at its own closing tag, whatever it holds.
        (
            '<div role="navigation"><div><div></div><img src="n.png"></div><img src="m.png"></div>'
            '<img src="real.png">',
            ["real.png"],
        ),
        (
            '<nav><nav><img src="n.png"></nav><img src="m.png"></nav><img src="real.png">',
            ["real.png"],
        ),
        (
            '<nav><a title="a > b"><img src="n.png"></a><!-- </nav> --><script>"</nav>"</script>'
            '<img src="m.png"></nav><img src="real.png">',
            ["real.png"],
        ),
        ('<nav><br/><div/><img src="n.png"></nav><img src="real.png">', ["real.png"]),
        ('<img src="before.png"><nav><img src="n.png">', ["before.png"]),  # never closed
    ],
)
def test_what_is_an_image_of_the_content(markup: str, expected: list[str]) -> None:
    assert main_images(f'<div role="main">{markup}</div>') == expected


def test_unclosed_elements_close_with_their_parent() -> None:
    body = (
        '<div role="main"><p><img src="in.png"><div class="x"><img src="in2.png"></div>'
        '</div><div class="sidebar"><img src="out.png"></div>'
    )
    assert main_images(body) == ["in.png", "in2.png"]


def test_a_main_content_without_images_gives_none_even_with_images_elsewhere() -> None:
    body = '<div class="sphinxsidebar"><img src="logo.png"></div><div role="main"><p>x</p></div>'
    assert main_images(body) == []


def test_without_the_option_the_body_is_not_read(tmp_path: Path) -> None:
    html = page_html(THEMES["sphinx alabaster"])
    file = tmp_path / "index.html"
    file.write_text(html, "utf-8")
    for source in (html, file):
        assert read_page(source, images=False).images == ()
        assert read_page(source, images=True).images == ("_images/a.png", "_images/b.png")


def test_a_page_its_head_keeps_out_is_not_scanned() -> None:
    html = page_html(
        THEMES["sphinx alabaster"], head='<meta name="robots" content="noindex, follow">'
    )
    read = read_page(html, images=True)
    assert read.reason is not None
    assert read.reason.value == "noindex"
    assert read.images == ()


def test_images_resolve_against_base_href_as_in_a_browser(tmp_path: Path) -> None:
    html = page_html('<main><img src="a.png"></main>', head='<base href="/static/">')
    build(tmp_path, [Page(path="guide/", origin="guide.md", html=html)], images=True)
    [entry] = check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    assert entry.images == ("https://example.org/static/a.png",)


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        ("../img/a.png", BASE + "guide/img/a.png"),
        ("/img/a.png", "https://example.org/img/a.png"),
        ("img/a b.png", BASE + "guide/install/img/a%20b.png"),
        ("img/café.png", BASE + "guide/install/img/caf%C3%A9.png"),
        ("img/caf%C3%A9.png", BASE + "guide/install/img/caf%C3%A9.png"),
        ("img/100%.png", BASE + "guide/install/img/100%25.png"),
        ("a.png?size=2&x=é#top", BASE + "guide/install/a.png?size=2&x=%C3%A9"),
        ("//cdn.example.net/a.png", "https://cdn.example.net/a.png"),
        ("HTTP://Bücher.example/a.png", "http://xn--bcher-kva.example/a.png"),
        ("data:image/png;base64,AAAA", None),
        ("javascript:alert(1)", None),
        ("mailto:a@example.org", None),
        ("https://user:secret@example.org/a.png", None),
        ("https://example.org/" + "a" * 2_100 + ".png", None),
        ("https://example.org:99999/a.png", None),
    ],
)
def test_image_urls_are_absolute_and_encoded_once(reference: str, expected: str | None) -> None:
    assert resolve_reference(BASE + "guide/install/", reference) == expected


@pytest.mark.parametrize(
    ("reference", "expected"),
    [
        # The WHATWG URL parser, as browsers fetch images: "\\" is "/" in an http(s) URL...
        ("img\\logo.png", BASE + "guide/install/img/logo.png"),
        ("..\\img\\a.png", BASE + "guide/img/a.png"),
        ("\\\\cdn.example.net\\a.png", "https://cdn.example.net/a.png"),
        ("https:\\\\example.org\\a.png", "https://example.org/a.png"),
        # ...before its query: there it is data
        ("a.png?dir=c:\\x", BASE + "guide/install/a.png?dir=c:%5Cx"),
        ("ftp:\\\\example.org\\a.png", None),
    ],
)
def test_a_backslash_is_read_as_browsers_read_it(reference: str, expected: str | None) -> None:
    assert resolve_reference(BASE + "guide/install/", reference) == expected


def test_an_image_written_with_backslashes_is_listed_where_browsers_fetch_it(
    tmp_path: Path,
) -> None:
    html = page_html('<main><img src="img\\logo.png"></main>')
    build(tmp_path, [Page(path="guide/", origin="guide.md", html=html)], images=True)
    [entry] = check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    assert entry.images == (BASE + "guide/img/logo.png",)


def build(out: Path, pages: list[Page], **options: object) -> CollectingReporter:
    reporter = CollectingReporter()
    SitemapBuilder(Options.from_mapping({"base_url": BASE, **options}), reporter).build(pages, out)
    return reporter


def test_images_in_the_sitemap_valid_and_read_back_by_an_independent_parser(
    tmp_path: Path,
) -> None:
    gallery = "".join(f'<img src="g/{n}.png">' for n in range(1_002))
    pages = [
        Page(
            path="guide/",
            origin="guide.md",
            html=page_html(
                '<nav><img src="../logo.png"></nav><div role="main">'
                '<img src="a.png"><img src="./a.png"><img src="b&amp;c.png">'
                '<img src="https://cdn.example.net/x.png"></div>'
            ),
        ),
        Page(path="gallery/", origin="gallery.md", html=page_html(f"<main>{gallery}</main>")),
        Page(path="plain/", origin="plain.md", html=page_html("<main><p>No image</p></main>")),
    ]
    reporter = build(tmp_path, pages, images=True)
    entries = {e.loc: e for e in check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")}
    assert entries[BASE + "guide/"].images == (
        BASE + "guide/a.png",
        BASE + "guide/b&c.png",
        "https://cdn.example.net/x.png",
    )
    assert len(entries[BASE + "gallery/"].images) == 1_000
    assert entries[BASE + "gallery/"].images[-1] == BASE + "gallery/g/999.png"
    assert entries[BASE + "plain/"].images == ()
    assert reporter.warnings == []
    assert any("1,002 images, the first 1,000 listed" in info for info in reporter.infos)
    pages_read = parse_with_usp(tmp_path, "sitemap.xml", base_url=BASE)
    assert pages_read[BASE + "guide/"].images == entries[BASE + "guide/"].images
    assert len(pages_read[BASE + "gallery/"].images) == 1_000


def test_images_off_writes_no_image_and_declares_no_namespace(tmp_path: Path) -> None:
    pages = [Page(path="", origin="index.md", html=page_html('<main><img src="a.png"></main>'))]
    build(tmp_path / "on", pages, images=True)
    build(tmp_path / "off", pages)
    on = (tmp_path / "on" / "sitemap.xml").read_text("utf-8")
    off = (tmp_path / "off" / "sitemap.xml").read_text("utf-8")
    assert "xmlns:image=" in on
    assert "xmlns:image=" not in off
    assert [e.images for e in check_sitemap_file(tmp_path / "off" / "sitemap.xml")] == [()]
