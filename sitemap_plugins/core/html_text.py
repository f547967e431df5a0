"""The text a reader sees of a short piece of HTML, such as a page title as a host holds it.

Hosts hand titles over in two forms. MkDocs and Pelican hold them as HTML, put into the page as
they are: MkDocs 1.6 renders a heading (``Tom &amp; "Jerry" &lt;3``), a reST title in Pelican
carries its inline markup (``Fish &amp; <em>Chips</em>``), and a title written in front matter
or ``nav`` goes into the theme unescaped. Sphinx gives plain text. The core takes plain text
(:attr:`.model.Page.title`), and whatever writes a title escapes it once for its own format;
an adapter whose host holds HTML converts it here, and the news sitemap, which receives titles
as the host holds them, does the same. One conversion, so the page for humans and the news
sitemap show one title the same way.
"""

from __future__ import annotations

import html
import re
from typing import Final

__all__ = ["html_text"]

_TAG: Final = re.compile(r"<!--.*?-->|<[A-Za-z/!?][^>]*>", re.DOTALL)
"""A comment or a tag, as HTML starts one: ``<`` then a letter, ``/``, ``!`` or ``?``. A ``<``
followed by anything else is text (``<3``, ``a < b``), which MkDocs 1.5 leaves unescaped."""


def html_text(markup: str) -> str:
    """The text of ``markup``: tags and comments dropped, entities decoded, runs of white
    space made one space (as a browser shows them), ends trimmed."""
    return " ".join(html.unescape(_TAG.sub("", markup)).split())
