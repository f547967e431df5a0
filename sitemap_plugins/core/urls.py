"""Absolute, RFC 3986-clean URLs for ``<loc>``, built from a base URL and a served path.

Hosts hand us paths as they appear on disk or in their link tables: sometimes raw (``café/``, or
``100%.html`` straight from a file name), sometimes already encoded (MkDocs' ``caf%C3%A9/``). Both
must come out encoded exactly once, so the caller says which it has: in a raw path every ``%`` is
a literal percent sign (``%25``); in an encoded one a ``%`` that starts a valid escape is kept.

Two spellings RFC 3986 makes equal must become one URL, or a sitemap lists a page twice and a
scope check passes what a server resolves elsewhere: escapes are written in upper-case hex with
escaped unreserved characters decoded (§6.2.2.1, §6.2.2.2, so ``%7e`` is ``~`` and ``%2e`` is
``.``), and dot segments are removed as §5.2.4 removes them, empty segments kept.
"""

from __future__ import annotations

import functools
import posixpath
import re
import unicodedata
from collections.abc import Callable
from typing import Final
from urllib.parse import SplitResult, quote, urljoin, urlsplit, urlunsplit

MAX_URL_LENGTH: Final = 2_047
"""The protocol says "less than 2,048 characters"."""

_SAFE_PATH: Final = "/!$&'()*+,;=:@-._~%"
_SAFE_QUERY: Final = _SAFE_PATH + "?"
_STRAY_PERCENT: Final = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ALLOWED_BASE: Final = "an absolute http(s) URL such as https://example.org/docs/"
_ALLOWED_HOST: Final = (
    ", whose host is a name of letters, digits and hyphens between dots, an IPv4 address"
    " or an IPv6 address in brackets"
)
_HOST_NAME: Final = re.compile(r"(?!-)[a-z0-9_-]{1,63}(?<!-)(?:\.(?!-)[a-z0-9_-]{1,63}(?<!-))*")
"""A host name's labels: letters, digits and hyphens (and the underscore RFC 3986 allows and
browsers accept), no label empty, longer than DNS allows, or starting or ending with a hyphen."""
_DEFAULT_PORTS: Final = {"http": 80, "https": 443}
_SCHEME: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_PLAIN_PATH: Final = re.compile(r"[A-Za-z0-9._~!$&'()*+,;=:@/-]*")
"""A path that encoding leaves as it is: no ``%``, nothing outside the path's safe characters."""
_DOT_SEGMENT: Final = re.compile(r"(^|/)\.\.?(/|$)")
"""A ``.`` or ``..`` segment: resolving the path changes it."""
_ESCAPE: Final = re.compile(r"%([0-9A-Fa-f]{2})")
_UNRESERVED: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_MAY_MOVE: Final = re.compile(r"(?:^|/)(?:\.|%2[Ee]){1,2}(?:[/?#]|$)")
"""A dot segment, plain or escaped, in a URL: it may resolve outside the folder it is written in."""
_NOT_FOUND_FILE: Final = re.compile(r"(?:(.+)/)?404(?:\.html?|/index\.html?)", re.IGNORECASE)
"""A file named as a not-found page, and the folder it sits at the top of."""


def encode_path(path: str, *, encoded: bool = True) -> str:
    """Percent-encode a path once: raw characters are encoded, valid escapes are kept.

    With ``encoded=False`` the path is raw, as a file name is, and every ``%`` in it is a
    literal percent sign: ``100%25.html`` is the file ``100%25.html``, served at
    ``100%2525.html``.

    File names that are not valid UTF-8 reach Python as lone surrogates; ``surrogateescape``
    turns them back into their original bytes. Any other lone surrogate has no bytes at all, so
    it raises ``ValueError`` rather than becoming a URL nobody asked for.

    Escapes given in an encoded path are written as :func:`normal_escapes` writes them, so that
    ``caf%c3%a9`` and ``caf%C3%A9`` (or ``%7Euser`` and ``~user``) are one URL.
    """
    if _PLAIN_PATH.fullmatch(path):
        return path  # nothing to encode, no escape to rewrite: most paths, at a third the cost
    text = _STRAY_PERCENT.sub("%25", path) if encoded else path.replace("%", "%25")
    try:
        quoted = quote(text, safe=_SAFE_PATH, errors="surrogateescape")
    except UnicodeEncodeError:
        raise ValueError(f"{path!r} holds characters that have no UTF-8 encoding") from None
    return normal_escapes(quoted) if encoded else quoted


def is_not_found_file(relpath: str, is_build_top: Callable[[str], bool] | None = None) -> bool:
    """Whether the built file at ``relpath`` (from the site's folder, ``/`` separated) is a
    not-found page: ``404.html`` or ``404/index.html`` at the top of the site, where web servers
    and static hosts look for the page they send for a missing URL, or at the top of a folder
    that ``is_build_top`` says one build was written to (a multilingual site has one per
    language, Hugo's ``fr/404.html``, a versioned one per version, mike's ``latest/404.html``,
    Read the Docs' ``en/latest/404.html``), asked only of such a file's folder.

    A folder's name says nothing: only what the build wrote there does, which each caller
    knows its own way (``generate`` by a build's own files, the Pelican plugin by the page's
    language). In any other folder a page named 404 is a page like any other, served at its own
    URL and sent for no missing one: ``http/404/``, about the status code, or
    ``pages/404.html``, where Pelican saves a page whose slug is 404."""
    found = _NOT_FOUND_FILE.fullmatch(relpath)
    if found is None:
        return False
    folder = found.group(1)
    return folder is None or (is_build_top is not None and is_build_top(folder))


def language_names_folder(language: str | None, folder: str) -> bool:
    """Whether ``language`` (``pt-BR``) names the last folder of ``folder`` (``docs/pt_br``),
    as a translated build's folder is named: case and ``-`` or ``_`` do not count. A folder
    named by the tag's first subtags names it too, as Hugo names ``fr/`` the folder of a
    language whose ``languageCode`` is ``fr-fr``, or ``zh-hant/`` that of ``zh-Hant-TW``:
    whole subtags only, so ``fr`` names no ``frank/`` and ``fr-FR`` no ``fr-f/``."""
    if not language:
        return False
    name = folder.rpartition("/")[2].replace("_", "-").lower().split("-")
    tag = language.replace("_", "-").lower().split("-")
    return all(name) and tag[: len(name)] == name


def quote_file_path(path: str) -> str:
    """A path made of file names, encoded as MkDocs encodes the links it writes (its
    ``File.url``, hence each page's canonical link): ``urllib.parse.quote`` with only ``/``
    kept, so sub-delimiters are escaped (``a&b/`` is ``a%26b/``, ``x(1)/`` is ``x%281%29/``)
    and a ``%`` is a literal percent sign (``%25``). RFC 3986 allows both spellings of a
    sub-delimiter, but a crawler compares URLs as strings: a tool that lists a page MkDocs
    built must spell it as MkDocs does. The result is encoded (``encoded=True`` for
    :func:`join_url`).

    Names that are not valid UTF-8 get their original bytes back, as in :func:`encode_path`;
    any other lone surrogate raises ``ValueError``.
    """
    try:
        return quote(path, safe="/", errors="surrogateescape")
    except UnicodeEncodeError:
        raise ValueError(f"{path!r} holds characters that have no UTF-8 encoding") from None


def encode_query(query: str, *, encoded: bool = True) -> str:
    """Percent-encode a query (the text after ``?``) once, as :func:`encode_path` encodes a
    path: ``?`` and ``/`` stay, as RFC 3986 allows them in a query, and ``&`` and ``=`` stay
    as the separators they are (the renderer XML-escapes ``&``). A fragment is written with
    the same characters, so it is encoded the same way; escapes given are written as
    :func:`normal_escapes` writes them.
    """
    text = _STRAY_PERCENT.sub("%25", query) if encoded else query.replace("%", "%25")
    try:
        quoted = quote(text, safe=_SAFE_QUERY, errors="surrogateescape")
    except UnicodeEncodeError:
        raise ValueError(f"{query!r} holds characters that have no UTF-8 encoding") from None
    return normal_escapes(quoted) if encoded else quoted


def normal_escapes(text: str) -> str:
    """``text`` with each ``%`` escape in the one spelling RFC 3986 asks producers to write:
    upper-case hex (§6.2.2.1), and an escaped unreserved character (a letter, a digit,
    ``-._~``) decoded (§6.2.2.2). Both rewrite a URL into an equal one, so this is what makes
    equal URLs one string: ``caf%c3%a9`` is ``caf%C3%A9``, ``%7Euser`` is ``~user``.
    """
    if "%" not in text:
        return text
    return _ESCAPE.sub(_normal_escape, text)


def _normal_escape(match: re.Match[str]) -> str:
    char = chr(int(match[1], 16))
    return char if char in _UNRESERVED else "%" + match[1].upper()


def remove_dot_segments(path: str) -> str:
    """``path`` with its ``.`` and ``..`` segments resolved as RFC 3986 §5.2.4 resolves them:
    what a browser or server makes of ``/docs/../secret`` (``/secret``). Unlike
    ``posixpath.normpath`` it keeps empty segments (``/docs//x`` is another URL than
    ``/docs/x``) and the trailing slash a final ``.`` or ``..`` stands for; a ``..`` at the
    root goes nowhere (``/../x`` is ``/x``). Escaped dots are not dots here: see
    :func:`normal_path`.
    """
    if "." not in path or not _DOT_SEGMENT.search(path):
        return path  # most paths: the substring test is a tenth of the search
    segments = path.split("/")
    kept: list[str] = []
    floor = 1 if path.startswith("/") else 0  # the empty segment before the leading slash
    for segment in segments:
        if segment == ".":
            continue
        if segment == "..":
            if len(kept) > floor:
                kept.pop()
            continue
        kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")  # "/a/b/.." names the folder "/a/", "/.." the root
    return "/".join(kept)


def has_dot_segment(url: str) -> bool:
    """Whether ``url`` holds a ``.`` or ``..`` segment, plain or escaped (``%2e%2e``): what it
    names is not what it spells."""
    return _MAY_MOVE.search(url) is not None


def normal_path(path: str) -> str:
    """An encoded path as RFC 3986 compares it: :func:`normal_escapes`, then
    :func:`remove_dot_segments` (in that order, so ``%2e%2e`` is a ``..`` too)."""
    return remove_dot_segments(normal_escapes(path))


def normal_url_tail(tail: str) -> str:
    """The part of a URL after its host (path, then any query and fragment), as RFC 3986
    compares it: :func:`normal_path` for the path, :func:`normal_escapes` for the rest. Scope
    checks and duplicate checks compare this, never the text as written."""
    end = _path_end(tail)
    return normal_path(tail[:end]) + normal_escapes(tail[end:])


def _path_end(reference: str) -> int:
    """Where the path of ``reference`` (a URL's tail, or a relative reference) ends: at its
    query's ``?`` or its fragment's ``#``, whichever comes first, else at its end."""
    end = len(reference)
    for mark in "?#":
        found = reference.find(mark, 0, end)
        if found != -1:
            end = found
    return end


def check_base_url(url: str) -> str:
    """Normalise a base URL (trailing slash, encoded path, ASCII host, no default port, as
    RFC 3986 6.2.3 advises: ``https://example.org:443/`` is ``https://example.org/``) or say
    what an acceptable one is.

    A user name or password is refused: a sitemap is public, and so is every URL in it.
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:  # a bracketed host that is no IPv6 address
        raise ValueError(_ALLOWED_BASE + _ALLOWED_HOST) from None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise ValueError(_ALLOWED_BASE)
    if parts.query or parts.fragment:
        raise ValueError(_ALLOWED_BASE + ", without query or fragment")
    if "@" in parts.netloc:
        raise ValueError(_ALLOWED_BASE + ", without a user name or password")
    try:
        parts.port  # noqa: B018 - read for the ValueError it raises
    except ValueError:
        raise ValueError(_ALLOWED_BASE + ", with a valid port number") from None
    netloc = host_and_port(parts)
    path = remove_dot_segments(encode_path(parts.path or "/"))  # escapes already normal
    if not path.endswith("/"):
        path += "/"
    return urlunsplit((parts.scheme.lower(), netloc, path, "", ""))


_PAGE_EXTENSIONS: Final = frozenset({
    "html", "htm", "xhtml", "xht", "shtml", "shtm", "stm",
    "php", "phtml", "asp", "aspx", "jsp", "jspx", "cfm",
})  # fmt: skip
"""What a web server serves as a page (written, assembled or run: ``index.php``,
``default.aspx``): a base URL whose last segment ends with one of these names a page. Any other
dot (``v1.2``, ``docs.v2``, a dotfolder ``.php``) is in a folder's name, with or without its
final ``/``."""


def check_given_base_url(url: str) -> str:
    """:func:`check_base_url` for a base URL the user gives us (the ``base_url`` option, a
    command's ``--base-url``), which must also name a folder, not a page.

    ``https://example.org/docs/index.html`` (or ``index.php``, see :data:`_PAGE_EXTENSIONS`),
    copied from a browser, would be taken for the folder ``index.html/``: every URL listed
    under it, a sitemap whose every URL fails. A host's own site URL (``site_url``,
    ``html_baseurl``, ``SITEURL``) is checked by :func:`check_base_url` alone: the host took
    it for a folder too, and its pages' links say so.
    """
    normal = check_base_url(url)
    parts = urlsplit(url.strip())
    folder, _, name = parts.path.rpartition("/")
    stem, _, extension = name.rpartition(".")
    if stem and extension.lower() in _PAGE_EXTENSIONS:
        such_as = urlunsplit((parts.scheme, parts.netloc, folder + "/", "", ""))
        raise ValueError(
            f"the URL of the folder the site is served from, such as {such_as}; "
            f"{name} is a page in it"
        )
    return normal


@functools.lru_cache(maxsize=256)
def ascii_host(host: str) -> str:
    """A host name as it goes in a URL: internationalised labels in their ``xn--`` form.

    Browsers follow UTS #46 without transitional mapping (``faß.de`` stays ``xn--fa-hia.de``),
    while Python's ``idna`` codec implements IDNA 2003 and would turn it into ``fass.de``, another
    site. So each label is normalised (NFKC, lower case) and Punycode-encoded by hand; the
    standard library has the Punycode codec, which is the only hard part. A host no URL can
    name is a ValueError (see :func:`_checked_host`).

    Cached: a site has few hosts, and this runs for every URL of a list and every image.
    """
    host = unicodedata.normalize("NFKC", host).lower().rstrip(".")
    if host.isascii():
        return _checked_host(host)
    labels = []
    for label in host.split("."):
        if not label:
            raise ValueError(_ALLOWED_BASE + _ALLOWED_HOST)
        if label.isascii():
            labels.append(label)
            continue
        encoded = "xn--" + label.encode("punycode").decode("ascii")
        if len(encoded) > 63:
            raise ValueError(_ALLOWED_BASE + _ALLOWED_HOST)
        labels.append(encoded)
    return _checked_host(".".join(labels))


def _checked_host(host: str) -> str:
    """``host`` (lower case, ASCII, without brackets) if a URL can name it, else ValueError.

    Python's URL parser takes anything up to the first ``/`` as the host: a stray space, a
    backslash, a ``<`` or a NUL byte would otherwise reach every ``<loc>`` of the sitemap, and
    the ``Sitemap:`` line of robots.txt, as URLs no crawler can follow.
    """
    if ":" in host:
        valid = _is_ip_address(host, version=6)
    elif host.rpartition(".")[2].isdigit():  # a name's last label is never all digits
        valid = _is_ip_address(host, version=4)
    else:
        valid = _HOST_NAME.fullmatch(host) is not None
    if not valid:
        raise ValueError(_ALLOWED_BASE + _ALLOWED_HOST)
    return host


def _is_ip_address(host: str, *, version: int) -> bool:
    import ipaddress  # only for a host written as an address

    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.version == version


def host_and_port(parts: SplitResult) -> str:
    """The host and port of a split http(s) URL as RFC 3986 compares them (6.2.2.1, 6.2.3):
    the host in lower case and ASCII form (an IPv6 address in brackets), no port for the
    scheme's default one. So ``https://Example.org:443/`` and ``https://example.org/`` are one
    site, as every client that fetches them knows. Raises ``ValueError`` for a port that is not
    a number or a host with no ASCII form.
    """
    return _host_and_port(parts.scheme.lower(), parts.netloc)


@functools.lru_cache(maxsize=256)
def web_origin(scheme: str, netloc: str) -> str:
    """``scheme://host[:port]`` of an http(s) URL as RFC 3986 compares sites: the scheme in
    lower case, then :func:`host_and_port`. The one key every "same site?" question compares
    (the scope of a sitemap, a URL list's base URL, the validator's scope and duplicates), so
    ``https://Example.org:443/a`` is on the site of ``https://example.org/`` for all of them.

    A netloc with no such form (a port that is no number, a host no URL may have, a user
    name) is its text in lower case: a site only of itself, reported where it is read."""
    scheme = scheme.lower()
    if "@" not in netloc:
        try:
            return f"{scheme}://{_host_and_port(scheme, netloc)}"
        except ValueError:
            pass
    return f"{scheme}://{netloc.lower()}"


@functools.lru_cache(maxsize=256)
def _host_and_port(scheme: str, netloc: str) -> str:
    """:func:`host_and_port` of one netloc. Cached: a URL list names one host on nearly every
    line, and reading its port and host again doubled the time spent on a line."""
    parts = SplitResult(scheme, netloc, "", "", "")
    port = parts.port
    host = ascii_host(parts.hostname or "")
    bracketed = netloc.rpartition("@")[2].startswith("[")
    if bracketed != (":" in host):
        # Brackets hold an IPv6 address and nothing else (RFC 3986 3.2.2). Python checks that
        # from 3.11 on; 3.10 hands over https://[1.2.3.4]/ as the IPv4 host 1.2.3.4.
        raise ValueError(_ALLOWED_BASE + _ALLOWED_HOST)
    if ":" in host:
        host = f"[{host}]"
    if port is None or port == _DEFAULT_PORTS.get(scheme):
        return host
    return f"{host}:{port}"


def url_identity(url: str) -> tuple[str, str] | None:
    """``(scheme://host[:port], the rest)`` of an http(s) URL; None for anything else.

    The origin is :func:`web_origin` (the host's case and the scheme's default port make no
    other site), as the writer and ``generate`` decide.

    The rest is as RFC 3986 compares it (:func:`normal_url_tail`):
    ``/docs/%2e%2e/admin`` is ``/admin``, outside ``/docs/``, and ``%7Euser`` is ``~user``,
    the same URL. String operations only: this runs for every URL, and ``urlsplit`` costs
    more than the rest of an entry's checks together.

    The validator's scope and duplicate checks (E305, E307) compare URLs so, ``submit``
    compares two deploys so, and robots.txt's lines are found so: one URL, however it is
    spelled, is one URL everywhere. ``url`` is taken as it is: a caller trims what its format
    allows around it.
    """
    text = url
    head = text[:8].lower()
    start = 8 if head.startswith("https://") else 7 if head.startswith("http://") else 0
    if not start:
        return None
    end = len(text)
    for mark in "/?#":
        found = text.find(mark, start)
        if found != -1 and found < end:
            end = found
    if end == start:
        return None
    rest = text[end:]
    origin = web_origin(text[: start - 3], text[start:end])
    return origin, normal_url_tail(rest if rest.startswith("/") else "/" + rest)


def join_url(base_url: str, path: str, *, encoded: bool = True) -> str:
    """The absolute URL of a served path under ``base_url`` (which ends with ``/``).

    ``encoded`` says whether ``path`` is already percent-encoded (see :func:`encode_path`).
    Dot segments are resolved so that ``../`` cannot silently leave the site; the caller checks
    the result with :func:`in_scope`.
    """
    plain = path.lstrip("/")
    if (
        base_url.endswith("/")
        and _PLAIN_PATH.fullmatch(plain)
        and ("." not in plain or not _DOT_SEGMENT.search(plain))
    ):
        return base_url + plain  # what _joined gives such a path, without parsing anything
    return _joined(base_url, plain, encoded=encoded)


def _joined(base_url: str, path: str, *, encoded: bool) -> str:
    relative = encode_path(path.lstrip("/"), encoded=encoded)
    base_path = urlsplit(base_url).path
    joined = encode_path(posixpath.join(base_path or "/", relative))
    origin = base_url[: len(base_url) - len(base_path)]
    return origin + remove_dot_segments(joined)


def site_and_folder(base_url: str, folder: str) -> tuple[str, str]:
    """The site's base URL and the URL of the folder one build of it is served in, from a
    normal base URL (:func:`check_base_url`) and that folder (``de/``, raw as file names are,
    as a build's pages' paths begin with it).

    The folder goes under the base URL (``https://example.org/`` and ``de/``:
    ``https://example.org/de/``), unless the base URL already ends with it: it is then the
    folder's own URL, as Read the Docs' canonical URL of a build is (``.../en/latest/``) and a
    Sphinx ``html_baseurl`` set per build, which Sphinx writes every page's canonical link from,
    and the site's base URL is what comes before the folder. Never the folder twice.
    """
    folder = folder.strip("/")
    if not folder:
        return base_url, base_url
    ending = "/" + encode_path(folder, encoded=False) + "/"
    if urlsplit(base_url).path.endswith(ending):
        return base_url[: len(base_url) - len(ending) + 1], base_url
    return base_url, join_url(base_url, folder + "/", encoded=False)


def in_scope(url: str, scope: str) -> bool:
    """Whether ``url`` may be listed by a sitemap whose directory URL is ``scope``.

    The protocol confines a sitemap at ``/docs/sitemap.xml`` to URLs under ``/docs/`` on the same
    scheme and host. The path is compared as :func:`normal_path` gives it: ``/docs/../secret``
    and ``/docs/%2e%2e/admin`` are outside ``/docs/``, as a server resolves them.
    """
    if scope.endswith("/") and url.startswith(scope):
        # Same scheme, host and folder, as written: the common case, without parsing. A dot
        # segment starts with "/." or "/%2": two substring tests spare most URLs the search.
        start = len(scope) - 1
        if (url.find("/.", start) == -1 and url.find("/%2", start) == -1) or not _MAY_MOVE.search(
            url, start
        ):
            return True
    return _in_folder(url, scope)


def _in_folder(url: str, scope: str) -> bool:
    u, s = urlsplit(url), urlsplit(scope)
    same_site = web_origin(u.scheme, u.netloc) == web_origin(s.scheme, s.netloc)
    return same_site and normal_path(u.path).startswith(normal_path(s.path))


def directory_url(url: str) -> str:
    """The URL of the directory that holds ``url``."""
    return url[: url.rfind("/") + 1]


def _browser_slashes(reference: str) -> str:
    """``reference`` with each ``\\`` before its query or fragment written ``/``, as the URL
    parser of browsers (WHATWG) reads an http(s) URL or a relative reference: the image at
    ``img\\logo.png`` is fetched from ``img/logo.png``. Another scheme's reference is left
    as it is (and refused by the caller, if it is no http(s) URL)."""
    if "\\" not in reference:
        return reference
    scheme = _SCHEME.match(reference)
    if scheme is not None and scheme[0][:-1].lower() not in ("http", "https"):
        return reference
    end = _path_end(reference)
    return reference[:end].replace("\\", "/") + reference[end:]


def resolve_reference(page_url: str, reference: str) -> str | None:
    """The absolute, encoded URL a link on ``page_url`` points to (an ``<img src>``, a video's
    thumbnail), or None when it is no http(s) URL a sitemap can list.

    Relative references resolve as a browser resolves them (a ``\\`` before the query is a
    ``/``, see :func:`_browser_slashes`); raw spaces and non-ASCII are percent-encoded once
    (escapes already there are kept), the host gets its ASCII form, the scheme's default port
    goes (as in :func:`check_base_url`), and so does the fragment. A
    URL with a user name or password, or past the protocol's length, is refused: a sitemap is
    public.
    """
    try:
        parts = urlsplit(urljoin(page_url, _browser_slashes(reference.strip())))
    except ValueError:
        return None
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        return None
    if "@" in parts.netloc:
        return None
    try:
        netloc = host_and_port(parts)  # a port that is no number is a ValueError too
        path = remove_dot_segments(encode_path(parts.path or "/"))  # escapes already normal
        query = encode_query(parts.query)
    except (ValueError, UnicodeError):
        return None
    url = urlunsplit((parts.scheme.lower(), netloc, path, query, ""))
    return url if len(url) <= MAX_URL_LENGTH else None
