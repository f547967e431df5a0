"""URL building: encoded exactly once, escaped by the renderer, confined to the sitemap's scope."""

from __future__ import annotations

import re
from urllib.parse import unquote, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sitemap_plugins.core.urls import (
    _in_folder,
    _joined,
    check_base_url,
    check_given_base_url,
    directory_url,
    encode_path,
    encode_query,
    host_and_port,
    in_scope,
    join_url,
    remove_dot_segments,
    resolve_reference,
    site_and_folder,
)


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        ("café/", "caf%C3%A9/"),
        ("caf%C3%A9/", "caf%C3%A9/"),  # already encoded: not encoded twice
        ("a b.html", "a%20b.html"),
        ("100%/", "100%25/"),  # a stray percent is data
        ("q?x#y", "q%3Fx%23y"),  # a file name, not a query or fragment
        ("a&b/", "a&b/"),  # legal in a path; the renderer XML-escapes it
        ("日本語/ページ", "%E6%97%A5%E6%9C%AC%E8%AA%9E/%E3%83%9A%E3%83%BC%E3%82%B8"),
    ],
)
def test_encode_path_encodes_once(raw: str, encoded: str) -> None:
    assert encode_path(raw) == encoded
    assert encode_path(encode_path(raw)) == encoded


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        ("q=caf\u00e9 cr\u00e8me&page=2", "q=caf%C3%A9%20cr%C3%A8me&page=2"),
        ("next=/a/b?c", "next=/a/b?c"),  # '/' and '?' are plain text in a query
        ("ref=a%20b", "ref=a%20b"),  # already encoded: not encoded twice
        ("a=100%", "a=100%25"),  # a stray percent is data
        ("tag=c#", "tag=c%23"),  # '#' would start a fragment
        ("x=[1]", "x=%5B1%5D"),
    ],
)
def test_encode_query_encodes_once_and_keeps_its_separators(raw: str, encoded: str) -> None:
    assert encode_query(raw) == encoded
    assert encode_query(encoded) == encoded


def test_a_raw_query_has_only_percent_signs_and_no_utf8_less_text() -> None:
    assert encode_query("a=%20", encoded=False) == "a=%2520"
    latin1 = b"q=caf\xe9".decode("utf-8", errors="surrogateescape")
    assert encode_query(latin1) == "q=caf%E9"
    with pytest.raises(ValueError, match="no UTF-8 encoding"):
        encode_query("q=\ud800")


@pytest.mark.parametrize(
    ("base", "normalised"),
    [
        ("https://example.org", "https://example.org/"),
        ("https://Example.ORG/docs", "https://example.org/docs/"),
        ("http://example.org/docs/", "http://example.org/docs/"),
        ("https://example.org/dé jà/", "https://example.org/d%C3%A9%20j%C3%A0/"),
    ],
)
def test_base_url_is_normalised(base: str, normalised: str) -> None:
    assert check_base_url(base) == normalised


@pytest.mark.parametrize(
    "bad", ["/docs/", "example.org", "ftp://example.org/", "https:///x", "https://e.org/?a=1"]
)
def test_base_url_rejects_what_is_not_absolute_http(bad: str) -> None:
    with pytest.raises(ValueError, match="absolute http"):
        check_base_url(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "https://example.org /docs/",
        "https://example.org\\docs/",
        "https://exa<mple.org/",
        "https://exa\x00mple.org/",
        "https://exa%41mple.org/",
        "https://-example.org/",
        "https://a..org/",
        "https://bü cher.example/",  # still a space after Punycode
        "https://256.1.1.1/",
        "https://[1.2.3.4]/",
        "https://[::1x]/",
    ],
)
def test_a_base_url_whose_host_no_url_may_have_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"whose host is a name of letters, digits and hyphens"):
        check_base_url(bad)


@pytest.mark.parametrize(
    "base",
    [
        "http://localhost:8000/",
        "http://127.0.0.1:8000/docs/",
        "http://[2001:db8::1]/",
        "https://my_host.example/",
        "https://xn--bcher-kva.example/",
    ],
)
def test_a_base_url_with_a_host_name_or_an_address_is_kept(base: str) -> None:
    assert check_base_url(base) == base


def test_join_keeps_directory_slash_and_prefix() -> None:
    base = "https://example.org/docs/"
    assert join_url(base, "") == "https://example.org/docs/"
    assert join_url(base, "guide/") == "https://example.org/docs/guide/"
    assert join_url(base, "/guide/a.html") == "https://example.org/docs/guide/a.html"
    assert unquote(join_url(base, "café/")) == "https://example.org/docs/café/"


def test_dot_segments_cannot_hide_an_escape_from_scope() -> None:
    base = "https://example.org/docs/"
    url = join_url(base, "../other/")
    assert url == "https://example.org/other/"
    assert not in_scope(url, base)
    assert in_scope(join_url(base, "a/../b/"), base)


@pytest.mark.parametrize(
    "outside",
    [
        "https://example.org/docs/../secret",
        "https://example.org/docs/%2e%2e/admin",  # RFC 3986 6.2.2.2: %2E is a "."
        "https://example.org/docs/%2E./admin",
        "https://example.org/docs/a/../../admin",
        "https://example.org/docs/..",
    ],
)
def test_dot_segments_plain_or_escaped_are_resolved_before_the_scope_is_checked(
    outside: str,
) -> None:
    scope = "https://example.org/docs/"
    assert outside.startswith(scope)  # as written it looks inside
    assert not in_scope(outside, scope)
    assert not _in_folder(outside, scope)
    assert in_scope("https://example.org/docs/a/%2e%2e/b/", scope)
    assert in_scope("https://example.org/docs/.well-known/x", scope)  # a name, not a dot segment


def test_a_joined_path_with_escaped_dot_segments_resolves_them() -> None:
    base = "https://example.org/docs/"
    assert join_url(base, "%2e%2e/admin") == "https://example.org/admin"
    assert join_url(base, "a/%2E/b/%2e%2E/c") == base + "a/c"
    assert join_url(base, "%2e%2eb/") == base + "..b/"  # a name with dots, no segment


@pytest.mark.parametrize(
    ("path", "resolved"),
    [
        # RFC 3986 5.2.4's own examples, and 5.4's resolved against "/b/c/d;p"
        ("/a/b/c/./../../g", "/a/g"),
        ("mid/content=5/../6", "mid/6"),
        ("/b/c/./g", "/b/c/g"),
        ("/b/c/.", "/b/c/"),
        ("/b/c/./", "/b/c/"),
        ("/b/c/..", "/b/"),
        ("/b/c/../g", "/b/g"),
        ("/b/c/../..", "/"),
        ("/b/c/../../g", "/g"),
        ("/b/c/../../../g", "/g"),
        ("/b/c/../../../../g", "/g"),
        ("/b/c/g.", "/b/c/g."),
        ("/b/c/.g", "/b/c/.g"),
        ("/b/c/..g", "/b/c/..g"),
        ("/b/c/./../g", "/b/g"),
        ("/b/c/./g/.", "/b/c/g/"),
        ("/b/c/g/./h", "/b/c/g/h"),
        ("/b/c/g/../h", "/b/c/h"),
        # an empty segment is a segment: kept, and removed by a ".." as any other
        ("/docs//double", "/docs//double"),
        ("/a//../b", "/a/b"),
    ],
)
def test_dot_segments_are_removed_as_rfc_3986_removes_them(path: str, resolved: str) -> None:
    assert remove_dot_segments(path) == resolved


@pytest.mark.parametrize(
    ("spelled", "normal"),
    [
        ("caf%c3%a9/", "caf%C3%A9/"),  # RFC 3986 6.2.2.1: the hex of an escape in upper case
        ("%7Euser/", "~user/"),  # 6.2.2.2: an escaped unreserved character is that character
        ("%41%7a%30%2D%5F%2e", "Az0-_."),
        ("a%2fb%3F", "a%2Fb%3F"),  # reserved characters stay escaped: decoded, they would split
        ("100%25%7e", "100%25~"),  # an escaped percent sign stays one
    ],
)
def test_spellings_rfc_3986_makes_equal_are_encoded_as_one(spelled: str, normal: str) -> None:
    assert encode_path(spelled) == normal
    assert encode_query(spelled) == normal
    base = "https://example.org/"
    assert join_url(base, spelled) == join_url(base, normal) == base + normal
    # A raw path has no escapes: its "%" is a percent sign, whatever follows it.
    assert encode_path(spelled, encoded=False) == spelled.replace("%", "%25")


@pytest.mark.parametrize(
    ("one", "same"),
    [
        ("https://example.org:443/", "https://EXAMPLE.org/"),  # RFC 3986 6.2.3, 6.2.2.1
        ("http://example.org:80/", "http://example.org/"),
        ("https://faß.de:443/", "https://xn--fa-hia.de/"),
        ("http://[::1]:8000/", "http://[::1]:8000/"),
    ],
)
def test_a_default_port_and_the_hosts_case_make_no_other_site(one: str, same: str) -> None:
    assert host_and_port(urlsplit(one)) == host_and_port(urlsplit(same))


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://example.org:80/", "https://example.org/"),  # 80 is not https's port
        ("http://[::1]:8000/", "http://[::1:8000]/"),  # a port, or part of the address
    ],
)
def test_another_port_is_another_site(one: str, other: str) -> None:
    assert host_and_port(urlsplit(one)) != host_and_port(urlsplit(other))


@pytest.mark.parametrize(("one", "same", "other"), [
    ("https://shop.example:443/docs/", "https://shop.example/docs/", "https://shop.example:8443/docs/"),
    ("http://Shop.Example:80/docs/", "http://shop.example/docs/", "http://shop.example:8080/docs/"),
])  # fmt: skip
def test_a_default_port_is_written_as_no_port_and_scoped_as_the_same_site(
    one: str, same: str, other: str
) -> None:
    """RFC 3986 6.2.3: a URL with its scheme's default port is written without it, so that
    no <loc> carries it, and the scope check takes it for the site it is."""
    assert check_base_url(one) == same
    assert resolve_reference(same, one + "logo.png") == same + "logo.png"
    assert in_scope(one + "a", same)
    assert in_scope(same + "a", one)
    assert _in_folder(one + "a", same)
    assert not in_scope(other + "a", same)
    assert check_base_url(other) == other


def test_scope_is_scheme_host_and_path() -> None:
    scope = "https://example.org/docs/"
    assert in_scope("https://EXAMPLE.org/docs/x", scope)
    assert not in_scope("http://example.org/docs/x", scope)
    assert not in_scope("https://example.com/docs/x", scope)
    assert not in_scope("https://example.org/docsx", scope)


def test_undecodable_file_names_are_encoded_as_their_bytes() -> None:
    raw = b"caf\xe9.html".decode("utf-8", errors="surrogateescape")  # a Latin-1 name on disk
    assert encode_path(raw) == "caf%E9.html"
    with pytest.raises(ValueError, match="no UTF-8 encoding"):
        encode_path("\ud800")


@pytest.mark.parametrize(
    ("base", "normalised"),
    [
        ("https://Bücher.example/docs", "https://xn--bcher-kva.example/docs/"),
        # UTS #46 as browsers apply it keeps ß (IDNA 2003 would make it fass.de, another host).
        ("https://faß.de/", "https://xn--fa-hia.de/"),
        ("http://例え.テスト:8080/", "http://xn--r8jz45g.xn--zckzah:8080/"),
        (
            "https://\uff25\uff38\uff21\uff2d\uff30\uff2c\uff25.org/",
            "https://example.org/",
        ),  # full width
        ("http://[::1]:8000/x", "http://[::1]:8000/x/"),
    ],
)
def test_an_internationalised_host_is_written_in_its_ascii_form(base: str, normalised: str) -> None:
    assert check_base_url(base) == normalised
    assert join_url(check_base_url(base), "café/").startswith(normalised)


@pytest.mark.parametrize(
    "bad",
    ["https://user:secret@example.org/", "https://user@example.org/", "https://:pw@example.org/"],
)
def test_a_base_url_with_credentials_is_refused(bad: str) -> None:
    with pytest.raises(ValueError, match=r"without a user name or password$"):
        check_base_url(bad)


@pytest.mark.parametrize(
    ("raw", "encoded"),
    [
        ("100%.html", "100%25.html"),
        ("a%20b/", "a%2520b/"),  # a file named a%20b, not "a b"
        ("caf%C3%A9/", "caf%25C3%25A9/"),
        ("café/", "caf%C3%A9/"),
    ],
)
def test_in_a_raw_path_every_percent_is_a_percent_sign(raw: str, encoded: str) -> None:
    assert encode_path(raw, encoded=False) == encoded
    assert unquote(encoded) == raw  # a server decodes it back to the file name
    base = "https://example.org/docs/"
    assert join_url(base, raw, encoded=False) == base + encoded


@settings(max_examples=3000, deadline=None)
@given(
    base=st.sampled_from(
        ["https://example.org/", "https://example.org/docs/", "http://h:8080/a%20b/", "https://h/x"]
    ),
    path=st.text(alphabet="ab./%~-_:@!$&'()*+,;=?#é /", max_size=14),
    encoded=st.booleans(),
)
def test_the_short_way_to_a_url_is_the_long_way(base: str, path: str, encoded: bool) -> None:
    """Most pages' paths need no encoding and no resolving: their URL is taken the short way,
    which must be exactly what encoding and resolving give."""
    assert join_url(base, path, encoded=encoded) == _joined(base, path, encoded=encoded)
    url = _joined(base, path, encoded=encoded)
    scope = directory_url(base)
    assert in_scope(url, scope) == _in_folder(url, scope)


@pytest.mark.parametrize(
    ("base_url", "folder", "site", "served"),
    [
        ("https://example.org/", "de/", "https://example.org/", "https://example.org/de/"),
        # Already the folder's URL (a build's own html_baseurl): not given the folder twice.
        ("https://example.org/de/", "de/", "https://example.org/", "https://example.org/de/"),
        ("https://example.org/docs/en/latest/", "en/latest/", "https://example.org/docs/",
         "https://example.org/docs/en/latest/"),
        ("https://example.org/pt-br/3/", "pt-br/3/", "https://example.org/",
         "https://example.org/pt-br/3/"),
        ("https://example.org/sr@latin/", "sr@latin/", "https://example.org/",
         "https://example.org/sr@latin/"),
        ("https://example.org/caf%C3%A9/", "café/", "https://example.org/",
         "https://example.org/caf%C3%A9/"),
        # A folder that only ends like it, or the folder's last part alone, is another folder.
        ("https://example.org/xde/", "de/", "https://example.org/xde/",
         "https://example.org/xde/de/"),
        ("https://example.org/3/", "pt-br/3/", "https://example.org/3/",
         "https://example.org/3/pt-br/3/"),
        ("https://example.org/docs/", "", "https://example.org/docs/", "https://example.org/docs/"),
    ],
)  # fmt: skip
def test_a_base_url_that_ends_with_the_build_folder_is_that_folders_url(
    base_url: str, folder: str, site: str, served: str
) -> None:
    assert site_and_folder(base_url, folder) == (site, served)


@pytest.mark.parametrize(
    ("page", "folder", "name"),
    [
        ("https://example.org/index.html", "https://example.org/", "index.html"),
        ("https://example.org/docs/index.htm", "https://example.org/docs/", "index.htm"),
        ("HTTPS://Example.org/docs/Guide.HTML", "https://Example.org/docs/", "Guide.HTML"),
        ("https://example.org/docs/index.html?#", "https://example.org/docs/", "index.html"),
        # Pages a web server runs or assembles are pages too.
        ("https://example.org/docs/index.php", "https://example.org/docs/", "index.php"),
        ("https://example.org/docs/index.xhtml", "https://example.org/docs/", "index.xhtml"),
        ("https://example.org/index.shtml", "https://example.org/", "index.shtml"),
        ("https://example.org/Default.ASPX", "https://example.org/", "Default.ASPX"),
        ("https://example.org/app/home.jsp", "https://example.org/app/", "home.jsp"),
    ],
)
def test_a_given_base_url_naming_a_page_is_refused_naming_its_folder(
    page: str, folder: str, name: str
) -> None:
    """The folder as the user wrote it (the scheme in lower case), the page and any empty
    query or fragment left out."""
    allowed = f"the URL of the folder the site is served from, such as {folder}; {name} is a "
    with pytest.raises(ValueError, match=f"^{re.escape(allowed)}page in it$"):
        check_given_base_url(page)


@pytest.mark.parametrize(
    "base",
    [
        "https://example.org",
        "https://example.org/docs",
        "https://example.org/docs/",
        "https://example.org/v2.html/",
        "https://example.org/docs.html.d/",
        "https://example.org/html",
        # A dot in a folder's name: a version, a variant, with or without the final slash.
        "https://example.org/v1.2/",
        "https://example.org/v1.2",
        "https://example.org/docs.v2",
        "https://example.org/php",
        "https://example.org/.php",
    ],
)
def test_a_given_base_url_naming_a_folder_is_kept(base: str) -> None:
    assert check_given_base_url(base) == check_base_url(base)
