"""What a rendered page's ``<head>`` says about whether it belongs in a sitemap.

Hosts render pages we do not control (themes, redirect plugins), so the HTML is the only place a
``robots noindex`` meta or a redirect stub shows. Only the head is parsed, which keeps this cheap
on large sites.
"""

from __future__ import annotations

from html.parser import HTMLParser


class _HeadScanner(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.noindex = False
        self.refresh = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag != "meta":
            return
        values = {name.lower(): (value or "") for name, value in attrs}
        name = values.get("name", "").strip().lower()
        content = values.get("content", "").lower()
        if name in ("robots", "googlebot", "bingbot") and "noindex" in content.replace(" ", ""):
            self.noindex = True
        if values.get("http-equiv", "").strip().lower() == "refresh" and "url=" in content:
            self.refresh = True


def _scan(html: str) -> _HeadScanner:
    end = html.lower().find("</head>")
    scanner = _HeadScanner()
    scanner.feed(html if end < 0 else html[:end])
    scanner.close()
    return scanner


def has_robots_noindex(html: str) -> bool:
    """Whether the page asks search engines not to index it."""
    return _scan(html).noindex


def is_redirect_stub(html: str) -> bool:
    """Whether the page is a meta-refresh redirect (as mkdocs-redirects and others write)."""
    return _scan(html).refresh
