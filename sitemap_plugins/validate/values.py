"""Checks of single values: URLs, dates, changefreq, priority and the extensions' simple types.

Each function takes the text as it stands in the file (already XML-unescaped) and returns the
problems as ``(Check, message)`` pairs, with the fix where there is one. Where the official
schema has a rule (lengths, date syntax, enumerations, number ranges) the rule is the schema's,
with the same whitespace handling, so that this validator and the XSD agree; where the protocol
says more than the schema (RFC 3986 encoding, absolute URLs, W3C Datetime's time zone) the
stricter rule is ours, with its own code.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from decimal import Decimal, InvalidOperation
from typing import Final

from sitemap_plugins.core.date_syntax import SCHEMA, read_date_text
from sitemap_plugins.core.options import CHANGEFREQS
from sitemap_plugins.core.urls import (
    MAX_URL_LENGTH,
    ascii_host,
    encode_path,
    encode_query,
    url_identity,
)
from sitemap_plugins.validate.findings import Check

Problem = tuple[Check, str]

SCHEMA_MAX_LOC: Final = MAX_URL_LENGTH + 1
"""The XSD's ``maxLength`` is 2,048; sitemaps.org's prose says "less than 2,048" (the core's)."""
SCHEMA_MIN_LOC: Final = 12
"""The XSD's ``minLength`` for ``<loc>``."""

_SCHEME_AUTHORITY: Final = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*):(?P<rest>.*)$", re.S)
# The patterns of whole values are used with fullmatch(): "^...$" with match() passes a value
# that ends in a newline, as "$" matches before one.
_PCT: Final = r"%[0-9A-Fa-f]{2}"
_UNRESERVED_SUB: Final = r"A-Za-z0-9\-._~!$&'()*+,;="
_PCHAR: Final = rf"(?:[{_UNRESERVED_SUB}:@]|{_PCT})"
_PATH: Final = re.compile(rf"(?:/|{_PCHAR})*")
_QUERY: Final = re.compile(rf"(?:[/?]|{_PCHAR})*")
_USERINFO: Final = re.compile(rf"(?:[{_UNRESERVED_SUB}:]|{_PCT})*")
_REG_NAME: Final = re.compile(rf"(?:[{_UNRESERVED_SUB}]|{_PCT})*")
_IP_LITERAL: Final = re.compile(
    r"\[(?:[0-9A-Fa-f:.]+|v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+)\]"
)
_PORT: Final = re.compile(r"[0-9]*")
_STRAY_PERCENT: Final = re.compile(r"%(?![0-9A-Fa-f]{2})")
_ALLOWED_ANYWHERE: Final = re.compile(rf"[{_UNRESERVED_SUB}:@/?#\[\]%]")
_ESCAPED_AGAIN: Final = re.compile(r"&(?:amp|lt|gt|quot|apos|#[0-9]+|#x[0-9A-Fa-f]+);")
# The common case, settled by one match: an http(s) URL with a plain host and clean characters.
_CLEAN_URL: Final = re.compile(
    rf"[Hh][Tt][Tt][Pp][Ss]?://[A-Za-z0-9.\-]+(?::[0-9]*)?(?:/(?:/|{_PCHAR})*)?"
    rf"(?:\?(?:[/?]|{_PCHAR})*)?(?:#(?:[/?]|{_PCHAR})*)?"
)

_DECIMAL: Final = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
_INTEGER: Final = re.compile(r"[+-]?[0-9]+")
_LANGUAGE: Final = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*")
XSD_WHITESPACE: Final = " \t\r\n"
"""The only whitespace of XML and XML Schema: ``str.strip()`` also drops U+00A0, U+2003 and
the other Unicode spaces, which the schema (and crawlers) keep as part of the value."""
FUTURE_SLACK: Final = dt.timedelta(minutes=5)
"""Clocks differ: a timestamp counts as future only beyond this much ahead of ours."""
_EARLIEST_ZONE: Final = dt.timezone(dt.timedelta(hours=14))
"""UTC+14: a plain date (or a time without zone) is in the future only once it is nowhere today."""


def trim(text: str) -> str:
    """``text`` without the whitespace the schema's ``collapse`` drops at its ends."""
    return text.strip(XSD_WHITESPACE)


def _show(text: str, limit: int = 120) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


# --------------------------------------------------------------------------------------------
# URLs


def url_problems(text: str, what: str = "loc") -> list[Problem]:
    """An absolute http(s) URL in RFC 3986 form, escaped once, as ``<loc>`` must hold.

    ``text`` is the element's text after XML unescaping; surrounding whitespace is dropped as the
    schema's ``anyURI`` does (and as crawlers do).
    """
    url = trim(text)
    if _CLEAN_URL.fullmatch(url) and "&" not in url:
        return []
    problems: list[Problem] = []
    match = _SCHEME_AUTHORITY.match(url)
    if match is None or not match["rest"].startswith("//"):
        return [(Check.NOT_ABSOLUTE, f"{what} {_show(url)} is not an absolute http(s) URL")]
    scheme = match["scheme"].lower()
    if scheme not in ("http", "https"):
        return [(Check.NOT_ABSOLUTE, f"{what} {_show(url)} is a {scheme}: URL, not http(s)")]
    entity = _ESCAPED_AGAIN.search(url)
    if entity is not None:
        # A warning, not an error: a path may really hold "&amp;" (RFC 3986 allows & and ;).
        problems.append(
            (
                Check.ESCAPED_TWICE,
                f"{what} {_show(url)} still holds {entity.group()!r} after XML unescaping: "
                "escaped twice? In the file, & is written &amp; once",
            )
        )
    encoding = _encoding_problem(url, match["rest"][2:])
    if encoding:
        problems.append((Check.NOT_ENCODED, f"{what} {_show(url)} {encoding}"))
    return problems


def web_parts(url: str) -> tuple[str, str] | None:
    """:func:`~sitemap_plugins.core.urls.url_identity` of a value as the schema reads it, the
    whitespace its ``collapse`` drops at the ends trimmed first."""
    return url_identity(trim(url))


def loc_length_problems(length: int) -> list[Problem]:
    """The schema bounds ``<loc>`` to 12..2,048 characters; sitemaps.org asks for under 2,048.

    ``length`` counts the characters without surrounding whitespace, as the schema does.
    """
    if length > SCHEMA_MAX_LOC:
        return [(Check.LOC_LENGTH, f"loc has {length:,} characters; at most 2,048 are allowed")]
    if length < SCHEMA_MIN_LOC and length:
        return [(Check.LOC_LENGTH, f"loc has {length} characters; the schema requires 12")]
    if length == SCHEMA_MAX_LOC:
        return [
            (
                Check.LOC_2048,
                "loc has 2,048 characters: the schema allows it, but sitemaps.org asks for "
                "fewer than 2,048",
            )
        ]
    return []


def _encoding_problem(url: str, after_scheme: str) -> str | None:
    """What breaks RFC 3986 in ``url``, with the fix; None when it is clean."""
    authority, _, tail = _split_authority(after_scheme)
    host_problem = _authority_problem(authority)
    if host_problem:
        return host_problem
    path, query, fragment = _split_tail(tail)
    for part, pattern in ((path, _PATH), (query, _QUERY), (fragment, _QUERY)):
        if part is not None and not pattern.fullmatch(part):
            return _describe_bad_characters(url, part)
    return None


def _split_authority(after_scheme: str) -> tuple[str, str, str]:
    end = len(after_scheme)
    for mark in "/?#":
        found = after_scheme.find(mark)
        if found != -1:
            end = min(end, found)
    return after_scheme[:end], "", after_scheme[end:]


def _split_tail(tail: str) -> tuple[str, str | None, str | None]:
    fragment = None
    if "#" in tail:
        tail, fragment = tail.split("#", 1)
    query = None
    if "?" in tail:
        tail, query = tail.split("?", 1)
    return tail, query, fragment


def _authority_problem(authority: str) -> str | None:
    userinfo, at, hostport = authority.rpartition("@")
    if at and not _USERINFO.fullmatch(userinfo):
        return "has characters RFC 3986 does not allow in the user information"
    if hostport.startswith("["):
        host, _, after = hostport.partition("]")
        host += "]"
        port = after[1:] if after.startswith(":") else None
        if after and not after.startswith(":"):
            return "has text after the bracketed IP address"
        if not _IP_LITERAL.fullmatch(host):
            return "has a malformed IP literal in [...]"
    else:
        host, colon, port_text = hostport.partition(":")
        port = port_text if colon else None
        if not host:
            return "has no host"
        if not _REG_NAME.fullmatch(host):
            written = _idna(host)
            fix = f"; write it as {written!r}" if written else ""
            return f"has a host RFC 3986 does not allow raw ({host!r}){fix}"
    if port is not None and not _PORT.fullmatch(port):
        return f"has a port that is not a number ({port!r})"
    return None


def _idna(host: str) -> str | None:
    """The ASCII form of an internationalised host as the core writes it and browsers read it
    (UTS #46, non-transitional): ``faß.de`` is ``xn--fa-hia.de``. Python's ``idna`` codec
    (IDNA 2003) would say ``fass.de``, another domain. None when there is no such form."""
    try:
        written = ascii_host(host)
    except ValueError:
        return None
    return written if _REG_NAME.fullmatch(written) else None


def _describe_bad_characters(url: str, part: str) -> str:
    if _STRAY_PERCENT.search(part):
        return "has a % not followed by two hex digits (write a literal % as %25)"
    bad = sorted({c for c in part if not _ALLOWED_ANYWHERE.match(c)})
    if bad:
        shown = ", ".join(repr(c) for c in bad[:8])
        return (
            f"has characters RFC 3986 does not allow raw ({shown}); percent-encode them as "
            f"UTF-8: {_show(_suggest(url), 200)}"
        )
    # Only characters allowed somewhere, but not here: a second '#', or '[' ']' outside a host.
    return "has '#', '[' or ']' where RFC 3986 does not allow them; write them as %23, %5B, %5D"


def _suggest(url: str) -> str:
    """The URL percent-encoded once, the way the core encodes what it writes. Its authority is
    kept: this is asked only of a URL whose host passed :func:`_authority_problem`."""
    scheme, _, rest = url.partition("://")
    authority, _, tail = _split_authority(rest)
    path, query, fragment = _split_tail(tail)
    text = f"{scheme}://{authority}{encode_path(path) if path else ''}"
    if query is not None:
        text += "?" + encode_query(query)
    if fragment is not None:
        text += "#" + encode_query(fragment)
    return text


# --------------------------------------------------------------------------------------------
# Dates


@functools.lru_cache(maxsize=4096)
def parse_xsd_date(text: str) -> tuple[dt.datetime, bool, bool] | str:
    """Read an ``xsd:date`` or ``xsd:dateTime`` as the schema does (the core's reader of
    dates, in the schema's spelling).

    Returns ``(earliest instant, has time, has zone)``, or why the schema rejects it. Without a
    zone the earliest instant assumes UTC+14, the zone where a day starts first.
    """
    written = read_date_text(trim(text), SCHEMA, _EARLIEST_ZONE)
    if isinstance(written, str):
        return written
    return written.moment, written.has_time, written.offset is not None


def date_problems(text: str, what: str, *, now: dt.datetime | None) -> list[Problem]:
    """A W3C Datetime the schema accepts; with ``now``, not in the future either."""
    parsed = parse_xsd_date(text)
    if isinstance(parsed, str):
        return [(Check.LASTMOD_FORMAT, f"{what} {_show(trim(text))} {parsed}")]
    instant, has_time, has_zone = parsed
    value = trim(text)
    problems: list[Problem] = []
    if has_time and not has_zone:
        problems.append(
            (
                Check.LASTMOD_W3C,
                f"{what} {value!r} has a time but no time zone; W3C Datetime requires one "
                "(add Z for UTC, or +hh:mm)",
            )
        )
    elif not has_time and has_zone:
        problems.append(
            (
                Check.LASTMOD_W3C,
                f"{what} {value!r} has a time zone on a plain date, which W3C Datetime does not "
                f"allow; write {value[:10]!r}",
            )
        )
    if now is not None and instant > now + FUTURE_SLACK:
        problems.append(
            (
                Check.LASTMOD_FUTURE,
                f"{what} {value} is in the future (now: {now:%Y-%m-%dT%H:%M:%SZ}); engines "
                "distrust sitemaps whose dates are not true",
            )
        )
    return problems


@functools.lru_cache(maxsize=4096)
def instant_of(text: str) -> dt.datetime | None:
    """The instant a valid lastmod names (a date, with a zone or not: its start in UTC, as the
    core reads it), for comparisons."""
    parsed = parse_xsd_date(text)
    if isinstance(parsed, str):
        return None
    instant, has_time, has_zone = parsed
    return instant if has_time and has_zone else instant.replace(tzinfo=dt.timezone.utc)


# --------------------------------------------------------------------------------------------
# changefreq, priority, and the extensions' simple types


def changefreq_problems(text: str) -> list[Problem]:
    """One of the seven words, exactly: the schema's enumeration keeps whitespace and case."""
    if text in CHANGEFREQS:
        return []
    hint = ""
    if text.strip().lower() in CHANGEFREQS:
        hint = f"; write {text.strip().lower()!r} (lower case, no spaces)"
    return [
        (
            Check.CHANGEFREQ,
            f"changefreq {_show(text)} is not one of {', '.join(CHANGEFREQS)}{hint}",
        )
    ]


def decimal_in_range(text: str, low: Decimal, high: Decimal) -> str | None:
    """Why ``text`` is not an ``xsd:decimal`` from ``low`` to ``high``; None when it is."""
    value = trim(text)
    if not _DECIMAL.fullmatch(value):
        return "is not a decimal number such as 0.5"
    try:
        number = Decimal(value)
    except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
        return "is not a decimal number such as 0.5"
    if not low <= number <= high:
        return f"is outside {low}-{high}"
    return None


@functools.lru_cache(maxsize=256)
def _priority_problem(text: str) -> str | None:
    return decimal_in_range(text, Decimal("0.0"), Decimal("1.0"))


def priority_problems(text: str) -> list[Problem]:
    problem = _priority_problem(text)
    return [] if problem is None else [(Check.PRIORITY, f"priority {_show(text)} {problem}")]


def integer_in_range(text: str, low: int, high: int | None) -> str | None:
    """Why ``text`` is not an ``xsd:integer`` from ``low`` to ``high``; None when it is."""
    value = trim(text)
    if not _INTEGER.fullmatch(value):
        return "is not a whole number"
    number = int(value)
    if number < low or (high is not None and number > high):
        upper = f"{high:,}" if high is not None else "any"
        return f"is outside {low:,}-{upper}"
    return None


def is_language_tag(text: str) -> bool:
    """``xsd:language``, as the XHTML schema types ``hreflang`` (``x-default`` included)."""
    return _LANGUAGE.fullmatch(trim(text)) is not None
