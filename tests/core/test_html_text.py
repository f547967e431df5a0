"""A title as hosts hold it (HTML) made the text a reader sees, once for every use of it."""

from __future__ import annotations

import pytest

from sitemap_plugins.core.html import head_title
from sitemap_plugins.core.html_text import html_text


@pytest.mark.parametrize(
    ("markup", "text"),
    [
        ("Tom &amp; &quot;Jerry&quot; &lt;3", 'Tom & "Jerry" <3'),  # MkDocs 1.6, a heading
        ("Fish &amp; <em>Chips</em>", "Fish & Chips"),  # a reST title in Pelican
        ('Tom & "Jerry" <3', 'Tom & "Jerry" <3'),  # MkDocs 1.5 leaves & and < as written
        ("a < b and c > d", "a < b and c > d"),
        ("Caf&eacute; &#169; 2024", "Café © 2024"),
        ("&lt;b&gt; is <b>bold</b>", "<b> is bold"),  # decoded after tags are dropped
        ("one<!-- <b>x</b> -->two", "onetwo"),
        ("  spread\n  over\tlines ", "spread over lines"),
        ("<br>", ""),
    ],
)
def test_the_text_of_a_title(markup: str, text: str) -> None:
    assert html_text(markup) == text


def test_a_head_title_reads_the_same() -> None:
    markup = "Tom &amp; <b>Jerry</b> &lt;3"
    assert head_title(f"<html><head><title>{markup}</title></head></html>") == html_text(markup)
