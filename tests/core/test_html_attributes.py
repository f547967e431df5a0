"""A tag's attributes as the standard library's HTML parser reads them, whichever way they are
read: the plain tags most heads are made of take a shorter way, which must not differ."""

from __future__ import annotations

from html.parser import HTMLParser

from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_plugins.core.html import _attributes, _may_say, scan_head


class _Reference(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[tuple[str, str | None]] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.found is None:
            self.found = attrs

    handle_startendtag = handle_starttag


def _as_the_parser_reads(tag: str) -> dict[str, str]:
    parser = _Reference()
    parser.feed(tag)
    parser.close()
    return {name: value or "" for name, value in parser.found or []}


_SPACE = st.sampled_from([" ", "  ", "\t", "\n", "\r\n", "\f", "\xa0", "\x0b", " / "])
_NAME = st.sampled_from(
    ["rel", "REL", "href", "Href", "name", "content", "http-equiv", "data-x.y", "a:b", "_z"]
)
_VALUE_TEXT = st.lists(
    st.sampled_from([*"aZ09 =/:;,.?-_#%'\"&<>\t\né", "&amp;", "&#114;"]), max_size=12
).map("".join)


@st.composite
def _tags(draw: st.DrawFn) -> str:
    parts = ["<", draw(st.sampled_from(["link", "meta", "LINK", "base"]))]
    for _ in range(draw(st.integers(0, 4))):
        parts.append(draw(_SPACE))
        parts.append(draw(_NAME))
        value = draw(_VALUE_TEXT).replace(">", "")  # a tag ends at its first >
        quote = draw(st.sampled_from(['"', '"', "'", ""]))
        if quote:
            value = value.replace(quote, "")
        elif not value or any(c in value for c in " \t\n\r\f'\"=<`"):
            value = "v"
        parts.append(f"={quote}{value}{quote}")
    parts.append(draw(st.sampled_from([">", "/>", " />", "\n>"])))
    return "".join(parts)


@settings(max_examples=400, deadline=None)
@given(_tags())
def test_every_tag_reads_as_the_html_parser_reads_it(tag: str) -> None:
    assert _attributes(tag) == _as_the_parser_reads(tag)


def test_plain_tags_read_as_the_html_parser_reads_them() -> None:
    for tag in [
        '<link rel="canonical" href="https://example.org/a/">',
        '<link\n  rel="alternate"\n  hreflang="pt-BR"\n  href="/pt-br/" />',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta NAME="Robots" CONTENT="NoIndex" name="second">',
        "<meta>",
        '<meta content="">',
    ]:
        assert _attributes(tag) == _as_the_parser_reads(tag), tag


def test_a_built_page_head_scans_the_same_with_spaces_of_any_kind() -> None:
    """White space HTML does not take as such (a no-break space) is no attribute separator."""
    assert scan_head('<head><link\xa0rel="canonical" href="/x/"></head>').canonical is None
    assert scan_head('<head><link rel="canonical"\thref="/x/"></head>').canonical == "/x/"


_WORDS = ("canonical", "hreflang", "bot", "refresh")


@st.composite
def _spelled(draw: st.DrawFn) -> tuple[str, str]:
    """A word, and a value that spells it among other text, each letter as it is or as a
    decimal or hexadecimal character reference, with or without its semicolon."""
    word = draw(st.sampled_from(_WORDS))
    letters = []
    for letter in word:
        form = draw(st.sampled_from(["as is", "UPPER", "decimal", "hex", "no semicolon"]))
        letters.append(
            {
                "as is": letter,
                "UPPER": letter.upper(),
                "decimal": f"&#{ord(letter)};",
                "hex": f"&#x{ord(letter):x};",
                "no semicolon": f"&#{ord(letter)}",
            }[form]
        )
    noise = st.sampled_from(["", "x", "&amp;", "&", "/", " "])
    return word, draw(noise) + "".join(letters) + draw(noise)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["rel", "name", "http-equiv"]), _spelled(), st.sampled_from(['"', "'"]))
def test_a_tag_that_names_a_word_is_never_passed_over(
    name: str, spelled: tuple[str, str], quote: str
) -> None:
    """What decides which tags are parsed may take too many, never too few: a word an
    attribute names once the parser has decoded it is seen in the tag, however spelled."""
    word, value = spelled
    tag = f'<link {name}={quote}{value}{quote} href="/x/?a&amp;b">'
    named = " ".join(f"{k} {v}" for k, v in _as_the_parser_reads(tag).items()).lower()
    if word in named:  # a reference without its semicolon, before a digit, spells another
        assert _may_say(tag, (word,)), tag
