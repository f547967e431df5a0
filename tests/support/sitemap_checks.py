"""Checks that every test in the project runs on the sitemap files it produces.

The writer tests and the MkDocs / Sphinx / Pelican site-build tests all end the same way: a sitemap
file is on disk and must be right. Asserting on substrings of the XML would let a broken file pass,
so this module offers three independent ways to look at a file, none of them a mock:

1. **The official schemas** (:func:`validate_xsd`). ``sitemap-all.xsd`` from the shared schema
   folder (``../shared/xsd`` from the project root, or ``$SITEMAP_XSD_DIR``) accepts a ``<urlset>``
   or a ``<sitemapindex>`` with every extension namespace, validated by lxml/libxml2. The folder is
   not part of the project: on a fresh clone it is absent and only this layer is skipped, with the
   reason shown. The W3C ``xml.xsd`` import is resolved through the folder's ``catalog.xml`` and the
   network is never used (``no_network=True``; the local resolution is verified once per process).

2. **The project's own protocol checks** (:func:`protocol_problems`, :func:`check_sitemap_file`),
   which always run: UTF-8 and the XML declaration, the 0.9 namespace, the 50,000-URL and
   52,428,800-byte limits, absolute RFC 3986 ``loc`` values under 2,048 characters, W3C dates,
   ``changefreq``/``priority`` values, child order, no duplicates, sorted output, one scheme and
   host, the scope of the sitemap's own URL, an index's children (on disk, never indexes, with the
   newest child lastmod), hreflang groups that list themselves and agree, text sitemaps. The XSD
   cannot express most of these (sortedness, scope, duplicates, byte limits), and where it can, a
   second implementation catches a schema folder that is missing or wrong. Then the project's
   own ``sitemap-plugins validate`` (:func:`validator_errors`) must find no error either; the
   readers of layer 3a ask the same first, so every sitemap the suite writes and checks or reads
   back passes the command users run.

3. **Reading back by meaning** (:func:`read_sitemap`, :func:`read_index`) with the stdlib
   ElementTree, so tests assert on sets of locs and on dates rather than on bytes; and reading with
   an **independent parser**, ultimate-sitemap-parser (usp), over HTTP on loopback
   (:func:`parse_with_usp`), which is how a crawler sees the site.

How the independent parser is driven (usp 1.x)
----------------------------------------------
usp's public entry point ``usp.tree.sitemap_tree_for_homepage`` always strips the URL to the
domain root and probes ``/robots.txt`` plus about fifteen "known" paths: useless for a site served
under ``/docs/`` and noisy. ``usp.tree.sitemap_from_str`` parses one string and deliberately turns
every child of an index into an ``InvalidSitemap``. So we use the class both of them are built on,
``usp.fetch_parse.SitemapFetcher(url=..., recursion_level=0, web_client=...)``: it fetches exactly
one URL and follows a ``<sitemapindex>`` to its children through the same web client.

The web client is ours (:class:`usp.web_client.abstract_client.AbstractWebClient` wrapping usp's
own ``RequestsWebClient``), for two reasons:

* **No network, ever.** The requests session has ``trust_env = False`` (no proxy variables, no
  ``.netrc``), and every URL that is neither on the loopback server nor under the site's declared
  base URL is refused without a request and reported as a test failure.
* **Real URLs in the sitemap.** A site is built with its real base URL (``https://example.org/
  docs/``), so an index names its children at ``https://example.org/docs/sitemap-1.xml``. The client
  routes requests for URLs under ``base_url`` to the loopback server serving the built folder under
  the same path (like ``curl --resolve``): no byte of any file is rewritten and usp reports the real
  URLs. Alternatively, :func:`serve_rebased` serves the folder first and hands out the loopback base
  URL, so a test can build the site *with* that base URL and pass the running server as ``site=``.

usp is lenient: it logs and carries on where a strict reader would fail (a truncated document, a
priority out of range, an unknown changefreq), so :func:`parse_with_usp` captures usp's log records
of level WARNING and above and fails on them by default, and fails on any sitemap usp could not
fetch or parse.

Deferring the schema skip
-------------------------
``pytest.skip`` ends a test at the point it is called, so a schema skip raised inside
:func:`check_sitemap_file` would also drop every assertion the test makes afterwards. Registered
as a pytest plugin (``pytest_plugins = ["tests.support.sitemap_checks"]`` in
``tests/conftest.py``), this module instead records that the schema layer was unavailable and
skips the test only after its body has passed, with the reason; a failure in the body still
fails. Without the plugin, the skip happens at the end of :func:`check_sitemap_file` (after the
own checks) or inside :func:`validate_xsd`.
"""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import http.server
import itertools
import logging
import os
import posixpath
import re
import threading
import xml.etree.ElementTree as ET
from collections.abc import Generator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlsplit

import pytest
import requests
from lxml import etree  # type: ignore[import-untyped,unused-ignore]
from usp.fetch_parse import SitemapFetcher
from usp.objects.sitemap import AbstractIndexSitemap, AbstractSitemap, InvalidSitemap
from usp.web_client.abstract_client import (
    AbstractWebClient,
    AbstractWebClientResponse,
    AbstractWebClientSuccessResponse,
)
from usp.web_client.requests_client import RequestsWebClient, RequestsWebClientErrorResponse

from sitemap_plugins.validate import Severity, validate

__all__ = [
    "CHANGEFREQS",
    "IMAGE_NS",
    "LEGACY_NS",
    "MAX_BYTES",
    "MAX_LOC_LENGTH",
    "MAX_URLS",
    "NEWS_NS",
    "SITEMAP_NS",
    "VIDEO_NS",
    "XHTML_NS",
    "LoopbackSite",
    "PageInfo",
    "SitemapRef",
    "UrlEntry",
    "check_sitemap_file",
    "parse_with_usp",
    "protocol_problems",
    "read_index",
    "read_sitemap",
    "schema_skip_reason",
    "serve_rebased",
    "validate_xsd",
    "validator_errors",
    "xsd_dir",
]

SITEMAP_NS: Final = "http://www.sitemaps.org/schemas/sitemap/0.9"
LEGACY_NS: Final = "http://www.google.com/schemas/sitemap/0.84"
XHTML_NS: Final = "http://www.w3.org/1999/xhtml"
IMAGE_NS: Final = "http://www.google.com/schemas/sitemap-image/1.1"
VIDEO_NS: Final = "http://www.google.com/schemas/sitemap-video/1.1"
NEWS_NS: Final = "http://www.google.com/schemas/sitemap-news/0.9"
MAX_URLS: Final = 50_000
MAX_BYTES: Final = 52_428_800
MAX_LOC_LENGTH: Final = 2_047
"""sitemaps.org: "less than 2,048 characters"."""
MAX_IMAGES_PER_URL: Final = 1_000
MAX_NEWS_PER_FILE: Final = 1_000
"""Google News reads at most 1,000 news:news per sitemap file."""
CHANGEFREQS: Final = frozenset(
    {"always", "hourly", "daily", "weekly", "monthly", "yearly", "never"}
)

_XSD_ENV: Final = "SITEMAP_XSD_DIR"
_PROJECT_ROOT: Final = Path(__file__).resolve().parents[2]
_SM: Final = "{" + SITEMAP_NS + "}"
_URL_ORDER: Final = {f"{_SM}loc": 0, f"{_SM}lastmod": 1, f"{_SM}changefreq": 2, f"{_SM}priority": 3}
_XML_DECLARATION: Final = re.compile(
    rb"""^<\?xml\s+version\s*=\s*["']1\.[0-9]["']"""
    rb"""(\s+encoding\s*=\s*["'](?P<enc>[A-Za-z0-9._-]+)["'])?"""
    rb"""(\s+standalone\s*=\s*["'](yes|no)["'])?\s*\?>"""
)
# RFC 3986: unreserved, gen-delims, sub-delims and "%" (checked separately for two hex digits).
_URI_CHARS: Final = re.compile(r"^[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*$")
_BAD_PERCENT: Final = re.compile(r"%(?![0-9A-Fa-f]{2})")
# xsd:date, or xsd:dateTime with the time zone the W3C profile requires (seconds: the XSD's rule).
_LASTMOD: Final = re.compile(
    r"^(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})"
    r"(?:T(?P<H>\d{2}):(?P<M>\d{2}):(?P<S>\d{2})(?P<f>\.\d+)?"
    r"(?P<tz>Z|[+-]\d{2}:\d{2}))?$"
)
_DECIMAL: Final = re.compile(r"^(\d+(\.\d*)?|\.\d+)$")
_MAX_REPORTED: Final = 60


# --------------------------------------------------------------------------------------------
# Values read back from files


@dataclass(frozen=True)
class UrlEntry:
    """One ``<url>`` (or one line of a text sitemap) as written, for assertions by meaning.

    Values are the element texts, unconverted, so a test can compare them with what it
    configured (``priority="0.8"``, ``lastmod="2024-05-01"``). ``alternates`` maps hreflang to
    href; it takes no part in hashing, so entries can still go into sets.
    """

    loc: str
    lastmod: str | None = None
    changefreq: str | None = None
    priority: str | None = None
    alternates: dict[str, str] = field(default_factory=dict, hash=False)
    images: tuple[str, ...] = ()
    videos: tuple[dict[str, str], ...] = field(default=(), hash=False)
    news: dict[str, str] | None = field(default=None, hash=False)


@dataclass(frozen=True)
class SitemapRef:
    """One ``<sitemap>`` child of a sitemap index."""

    loc: str
    lastmod: str | None = None


@dataclass(frozen=True)
class PageInfo:
    """One page as ultimate-sitemap-parser reports it (its types, its defaults).

    ``lastmod`` is usp's ``datetime``: on Python 3.11+ ``datetime.fromisoformat`` (dateutil before),
    so a date-only value becomes a *naive* midnight, and a timestamp keeps its own offset (``Z``
    becomes UTC). ``priority`` is a ``Decimal`` and is ``Decimal("0.5")`` when the element is absent
    (usp cannot tell "absent" from "0.5"). ``changefreq`` is the lower-cased enum value, or None.
    ``sitemap_url`` is the file the page was found in. ``images`` are the image locs usp read;
    ``news`` is usp's news story as (publication name, language, publication date, title).
    """

    loc: str
    lastmod: dt.datetime | None
    priority: Decimal
    changefreq: str | None
    alternates: tuple[tuple[str, str], ...]
    sitemap_url: str
    images: tuple[str, ...] = ()
    news: tuple[str | None, str | None, dt.datetime, str] | None = None


# --------------------------------------------------------------------------------------------
# Layer 1: the official schemas


def xsd_dir() -> Path | None:
    """The folder with the official schemas, or None where it is absent (a user's fresh clone).

    ``$SITEMAP_XSD_DIR`` wins over ``../shared/xsd`` next to the project root, so the suite can run
    wherever the folder sits.
    """
    candidate = _xsd_candidate()
    return candidate if (candidate / "sitemap-all.xsd").is_file() else None


def _xsd_candidate() -> Path:
    override = os.environ.get(_XSD_ENV)
    return Path(override) if override else _PROJECT_ROOT.parent / "shared" / "xsd"


def schema_skip_reason() -> str | None:
    """Why schema validation cannot run here, or None when it can."""
    if xsd_dir() is not None:
        return None
    return f"official schemas not found at {_xsd_candidate()}; set {_XSD_ENV}"


class _CatalogResolver(etree.Resolver):  # type: ignore[misc,unused-ignore]
    """Resolve the URIs listed in ``catalog.xml`` to the local copies.

    libxml2 reads ``XML_CATALOG_FILES`` once, at its first catalog lookup: if anything in the
    process did one before us (another schema with an import, say), setting the variable has no
    effect. This resolver applies the same catalog file itself, so the result does not depend on
    what ran first; the catalog stays the single place that says which URL maps to which file.
    """

    def __init__(self, catalog: Path) -> None:
        super().__init__()
        self._map: dict[str, Path] = {}
        ns = "{urn:oasis:names:tc:entity:xmlns:xml:catalog}"
        root = etree.parse(str(catalog), etree.XMLParser(no_network=True)).getroot()
        for entry in root:
            key = entry.get("name") if entry.tag == f"{ns}uri" else entry.get("systemId")
            target = entry.get("uri")
            if key and target:
                self._map[key] = (catalog.parent / target).resolve()

    def resolve(  # type: ignore[override,unused-ignore]
        self, system_url: str | None, public_id: str | None, context: Any
    ) -> Any:
        local = self._map.get(system_url or "")
        if local is None:
            return None  # not in the catalog: libxml2 decides (and no_network forbids HTTP)
        return self.resolve_filename(str(local), context)  # type: ignore[attr-defined,unused-ignore]


def _secure_parser(resolver: etree.Resolver | None = None) -> etree.XMLParser:
    parser = etree.XMLParser(no_network=True, resolve_entities=False, load_dtd=False)
    if resolver is not None:
        parser.resolvers.add(resolver)
    return parser


@functools.cache
def _compiled_schema(folder: Path) -> etree.XMLSchema:
    """Compile ``sitemap-all.xsd`` once per process and folder (it takes ~100 ms)."""
    catalog = folder / "catalog.xml"
    entry = f"file://{catalog}"
    current = os.environ.get("XML_CATALOG_FILES", "")
    if entry not in current.split() and str(catalog) not in current.split():
        os.environ["XML_CATALOG_FILES"] = f"{current} {entry}".strip()
    resolver = _CatalogResolver(catalog)
    _verify_local_xml_xsd(folder, resolver)
    parser = _secure_parser(resolver)
    return etree.XMLSchema(etree.parse(str(folder / "sitemap-all.xsd"), parser))


def _verify_local_xml_xsd(folder: Path, resolver: etree.Resolver) -> None:
    """Prove that the W3C URL of ``xml.xsd`` resolves to the local copy, with the network off.

    ``xhtml1-strict.xsd`` imports ``http://www.w3.org/2001/xml.xsd`` by URL. With the network
    disabled an unresolved import is only a warning to libxml2, and the schema then fails later,
    far from the cause; a schema that did fetch it would hide a network dependency. This probe
    imports it by URL alone and uses ``xml:lang``, so it compiles only if the catalog worked.
    """
    probe = b"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:probe">
      <xs:import namespace="http://www.w3.org/XML/1998/namespace"
                 schemaLocation="http://www.w3.org/2001/xml.xsd"/>
      <xs:element name="p"><xs:complexType><xs:attribute ref="xml:lang"/></xs:complexType>
      </xs:element></xs:schema>"""
    doc = etree.fromstring(probe, _secure_parser(resolver), base_url=str(folder / "probe.xsd"))
    try:
        etree.XMLSchema(doc)
    except etree.XMLSchemaParseError as error:
        raise AssertionError(
            f"http://www.w3.org/2001/xml.xsd does not resolve to {folder / 'xml.xsd'} through "
            f"{folder / 'catalog.xml'} (network is disabled): {error}"
        ) from error


def validate_xsd(path: Path) -> None:
    """Validate a ``.xml`` or ``.xml.gz`` sitemap or index against the official schemas.

    Raises AssertionError with libxml2's messages and line numbers. Where the schema folder is
    absent this skips (or, under the plugin, defers the skip to the end of the test).
    """
    reason = schema_skip_reason()
    if reason is not None:
        _schema_unavailable(reason)
        return
    folder = xsd_dir()
    assert folder is not None
    schema = _compiled_schema(folder.resolve())
    data = _read_uncompressed(path, limit=None)
    try:
        doc = etree.fromstring(data, _secure_parser(), base_url=str(path)).getroottree()
    except etree.XMLSyntaxError as error:
        raise AssertionError(f"{path}: not well-formed XML: {error}") from error
    try:
        valid = schema.validate(doc)
    except etree.XMLSchemaValidateError as error:  # libxml2 gives up (an unexpanded entity)
        raise AssertionError(f"{path}: XSD validation could not run: {error}") from error
    if not valid:
        errors: list[Any] = list(schema.error_log)  # type: ignore[call-overload,unused-ignore]
        lines = [f"{path}:{e.line}:{e.column}: {e.message}" for e in errors]
        raise AssertionError("XSD validation failed:\n" + "\n".join(lines[:_MAX_REPORTED]))


# Deferred skip: see "Deferring the schema skip" in the module docstring.
_plugin_active = False
_deferred_skips: list[str] = []


def _schema_unavailable(reason: str) -> None:
    if _plugin_active:
        if reason not in _deferred_skips:
            _deferred_skips.append(reason)
        return
    pytest.skip(reason)


def pytest_configure(config: pytest.Config) -> None:
    """Plugin hook: from now on schema skips are deferred to the end of each test."""
    global _plugin_active
    _plugin_active = True


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Plugin hook: a new test starts with no recorded skip (fixtures may record one)."""
    _deferred_skips.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Plugin hook: after a test body passed, turn a recorded schema skip into a skip."""
    try:
        result = yield
    except BaseException:
        _deferred_skips.clear()
        raise
    if _deferred_skips:
        reason = "; ".join(_deferred_skips)
        _deferred_skips.clear()
        pytest.skip(f"all other checks passed; schema validation skipped: {reason}")
    return result


# --------------------------------------------------------------------------------------------
# Layer 2: the project's own protocol checks


def check_sitemap_file(
    path: Path,
    sitemap_url: str | None = None,
    *,
    site_dir: Path | None = None,
    base_url: str | None = None,
    now: dt.datetime | None = None,
) -> list[UrlEntry]:
    """Run every check on one sitemap file (and, for an index, on each child) and read it back.

    The own protocol checks run first and always; then the XSD, when the schemas are present
    (otherwise the test is marked skipped for that reason, see the module docstring).
    ``sitemap_url`` is the file's own public URL, which confines its locs to its directory.
    ``site_dir`` and ``base_url`` map an index's child URLs to files (by default: by name, next
    to the index). ``now`` is the moment no lastmod may pass (default: the clock), for a test
    that dates a file in the future on purpose. Returns the entries, as :func:`read_sitemap`.
    """
    problems = protocol_problems(path, sitemap_url, site_dir=site_dir, base_url=base_url)
    if problems:
        raise AssertionError(_format_problems(path, problems))
    _assert_validates(path, sitemap_url, site_dir=site_dir, base_url=base_url, now=now)
    entries = _read_entries(path, site_dir=site_dir, base_url=base_url)
    files = [path] if _kind(path) == "xml" else []
    if files and _root_tag(path) == f"{_SM}sitemapindex":
        children = [_child_path(ref.loc, path, site_dir, base_url) for ref in _read_refs(path)]
        files += [child for child in children if _kind(child) == "xml"]
    reason = schema_skip_reason()
    if files and reason is not None:
        _schema_unavailable(reason)
        return entries
    for file in files:
        validate_xsd(file)
    return entries


def validator_errors(
    path: Path,
    sitemap_url: str | None = None,
    *,
    site_dir: Path | None = None,
    base_url: str | None = None,
    now: dt.datetime | None = None,
) -> list[str]:
    """What the project's own ``validate`` command reports as errors (or unreadable) for a file.

    The file is given the URL the test knows for it, so the scope rule applies: the folder URL
    from ``site_dir`` and ``base_url``, else from ``sitemap_url``. Warnings are not errors: some
    tests write every entry with one date on purpose.
    """
    folder_url = None
    if site_dir is not None and base_url is not None and path.parent.is_relative_to(site_dir):
        relative = path.parent.relative_to(site_dir).as_posix()
        folder_url = base_url.rstrip("/") + "/" + ("" if relative == "." else relative + "/")
    elif sitemap_url is not None:
        folder_url = sitemap_url[: sitemap_url.rfind("/") + 1]
    report = validate([path], base_url=folder_url, now=now)
    return [
        f"{finding.source}:{finding.line or ''}: {finding.code}: {finding.message}"
        for finding in report.findings
        if finding.severity is not Severity.WARNING
    ]


def _assert_validates(
    path: Path,
    sitemap_url: str | None = None,
    *,
    site_dir: Path | None = None,
    base_url: str | None = None,
    now: dt.datetime | None = None,
) -> None:
    errors = validator_errors(path, sitemap_url, site_dir=site_dir, base_url=base_url, now=now)
    if errors:
        raise AssertionError(
            f"{path}: sitemap-plugins validate found {len(errors)} error(s):\n  "
            + "\n  ".join(errors[:_MAX_REPORTED])
        )


def protocol_problems(
    path: Path,
    sitemap_url: str | None = None,
    *,
    site_dir: Path | None = None,
    base_url: str | None = None,
) -> list[str]:
    """Every way the file breaks the protocol or the project's promises; empty when none.

    For an index the children are found on disk and checked too, and the order, uniqueness and
    hreflang rules apply to all their entries together, in the index's order.
    """
    problems: list[str] = []
    parsed = _check_one_file(path, sitemap_url, problems)
    if parsed is None:
        return problems
    kind, entries, refs = parsed
    if kind == "index":
        entries = []
        for number, ref in enumerate(refs, 1):
            child = _child_path(ref.loc, path, site_dir, base_url)
            where = f"sitemap #{number} ({ref.loc})"
            if not child.is_file():
                problems.append(f"{where}: listed by the index but not found at {child}")
                continue
            child_problems: list[str] = []
            child_url = ref.loc if not _url_problems(ref.loc, "loc") else None
            child_parsed = _check_one_file(child, child_url, child_problems)
            problems += [f"{child.name}: {message}" for message in child_problems]
            if child_parsed is None:
                continue
            child_kind, child_entries, _ = child_parsed
            if child_kind == "index":
                problems.append(f"{where}: an index may not list another index")
                continue
            if child_kind == "urlset":  # a text child has no dates to compare with
                _check_index_lastmod(where, ref, child_entries, problems)
            entries += child_entries
    _check_entry_set(entries, problems)
    _check_host([ref.loc for ref in refs] + [entry.loc for entry in entries], sitemap_url, problems)
    return problems


def _format_problems(path: Path, problems: list[str]) -> str:
    shown = problems[:_MAX_REPORTED]
    more = len(problems) - len(shown)
    tail = f"\n  ... and {more} more" if more > 0 else ""
    return f"{path}: {len(problems)} sitemap problem(s):\n  " + "\n  ".join(shown) + tail


def _name_kind(path: Path) -> str:
    """What the file name promises: ``.txt``/``.txt.gz`` is a text sitemap, anything else XML."""
    return "txt" if path.name.removesuffix(".gz").endswith(".txt") else "xml"


def _content_kind(data: bytes) -> str:
    """What the bytes are, sniffed the way crawlers (and usp) do: XML starts with ``<``."""
    return "xml" if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"<") else "txt"


def _kind(path: Path) -> str:
    return _content_kind(_read_uncompressed(path, limit=None))


def _is_gzip(path: Path) -> bool:
    with open(path, "rb") as stream:
        return stream.read(2) == b"\x1f\x8b"


def _read_uncompressed(path: Path, limit: int | None) -> bytes:
    """The file's bytes, gunzipped when it is gzip (by content, whatever its name says).

    With ``limit``, reads at most one byte more, so a compression bomb cannot eat the memory.
    """
    if _is_gzip(path):
        with gzip.open(path, "rb") as stream:
            return stream.read() if limit is None else stream.read(limit + 1)
    return path.read_bytes()


_ParseResult = tuple[str, list[UrlEntry], list[SitemapRef]]
"""What one file holds: its kind ("urlset", "text" or "index"), its entries, its index refs."""


def _check_one_file(
    path: Path, sitemap_url: str | None, problems: list[str]
) -> _ParseResult | None:
    """Checks of one file on its own; returns what it holds, or None if it cannot be read."""
    if path.name.endswith(".gz") and not _is_gzip(path):
        problems.append("named .gz but not gzip-compressed")
    try:
        data = _read_uncompressed(path, limit=MAX_BYTES)
    except (OSError, EOFError, gzip.BadGzipFile) as error:
        problems.append(f"cannot be read: {error}")
        return None
    if len(data) > MAX_BYTES:
        problems.append(f"more than {MAX_BYTES:,} bytes uncompressed")
        return None
    if data.startswith(b"\xef\xbb\xbf"):
        problems.append("starts with a byte order mark; the project writes plain UTF-8")
        data = data[3:]
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        problems.append(f"not UTF-8: {error}")
        return None
    kind = _content_kind(data)
    if kind != _name_kind(path):
        problems.append(
            f"holds {'a text' if kind == 'txt' else 'an XML'} sitemap but is named {path.name}; "
            "servers and crawlers go by the name (Content-Type)"
        )
    if kind == "txt":
        entries = _check_text(data, problems)
        if sitemap_url is not None:
            _check_scope(entries, sitemap_url, problems)
        return ("text", entries, [])
    return _check_xml(data, sitemap_url, problems)


def _check_text(data: bytes, problems: list[str]) -> list[UrlEntry]:
    text = data.decode("utf-8")
    if "\r" in text:
        problems.append("carriage return in a text sitemap; lines end with \\n")
    if text and not text.endswith("\n"):
        problems.append("last line does not end with a newline")
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        problems.append("empty text sitemap")
    if len(lines) > MAX_URLS:
        problems.append(f"{len(lines):,} URLs, more than {MAX_URLS:,}")
    entries = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            problems.append(f"line {number}: blank line")
            continue
        problems += [f"line {number}: {message}" for message in _url_problems(line, "URL")]
        entries.append(UrlEntry(loc=line))
    return entries


def _check_xml(data: bytes, sitemap_url: str | None, problems: list[str]) -> _ParseResult | None:
    declaration = _XML_DECLARATION.match(data)
    if declaration is None:
        problems.append('does not start with an XML declaration (<?xml version="1.0" ...?>)')
    elif declaration.group("enc") and declaration.group("enc").lower() != b"utf-8":
        problems.append(f"declares encoding {declaration.group('enc').decode()!r}, not UTF-8")
    if b"<!DOCTYPE" in data:
        problems.append("has a DOCTYPE; sitemaps have none (and readers refuse entities)")
        return None
    try:
        root = ET.fromstring(data)
    except ET.ParseError as error:
        problems.append(f"not well-formed XML: {error}")
        return None
    if root.tag == f"{{{LEGACY_NS}}}urlset":
        problems.append(f"legacy namespace {LEGACY_NS}; write {SITEMAP_NS}")
        return None
    if root.tag == f"{_SM}urlset":
        entries = _check_urlset(root, problems)
        if sitemap_url is not None:
            _check_scope(entries, sitemap_url, problems)
        return ("urlset", entries, [])
    if root.tag == f"{_SM}sitemapindex":
        refs = _check_index(root, problems)
        if sitemap_url is not None:
            _check_scope([UrlEntry(ref.loc) for ref in refs], sitemap_url, problems)
        return ("index", [], refs)
    problems.append(f"root element is {root.tag}, not urlset or sitemapindex in {SITEMAP_NS}")
    return None


def _check_urlset(root: ET.Element, problems: list[str]) -> list[UrlEntry]:
    urls = list(root)
    if not urls:
        problems.append("urlset without any <url> (the XSD requires at least one)")
    if len(urls) > MAX_URLS:
        problems.append(f"{len(urls):,} <url> elements, more than {MAX_URLS:,}")
    entries = []
    for number, url in enumerate(urls, 1):
        if url.tag != f"{_SM}url":
            problems.append(f"child #{number}: unexpected element {url.tag} in urlset")
            continue
        entry = _check_url(url, number, problems)
        if entry is not None:
            entries.append(entry)
    news = sum(entry.news is not None for entry in entries)
    if news > MAX_NEWS_PER_FILE:
        problems.append(f"{news:,} news:news in one file, more than {MAX_NEWS_PER_FILE:,}")
    return entries


def _check_url(url: ET.Element, number: int, problems: list[str]) -> UrlEntry | None:
    where = f"url #{number}"
    loc = url.findtext(f"{_SM}loc")
    if loc is not None:
        where = f"url #{number} ({loc.strip()[:200]})"
    rank = -1
    seen: set[str] = set()
    for child in url:
        tag = child.tag
        if tag in _URL_ORDER:
            if tag in seen:
                problems.append(f"{where}: more than one <{_local(tag)}>")
            elif _URL_ORDER[tag] < rank:
                problems.append(
                    f"{where}: <{_local(tag)}> out of order; the XSD wants "
                    "loc, lastmod, changefreq, priority, then extensions"
                )
            seen.add(tag)
            rank = max(rank, _URL_ORDER[tag])
        elif isinstance(tag, str) and tag.startswith(_SM):
            problems.append(f"{where}: unknown element <{_local(tag)}> in the sitemap namespace")
        else:
            rank = 4
    children = list(url)
    if loc is None:
        problems.append(f"{where}: no <loc>")
        return None
    if not children or children[0].tag != f"{_SM}loc":
        problems.append(f"{where}: <loc> is not the first child")
    problems += [f"{where}: {message}" for message in _url_problems(loc, "loc")]
    lastmod = url.findtext(f"{_SM}lastmod")
    if lastmod is not None:
        message = _lastmod_problem(lastmod)
        if message:
            problems.append(f"{where}: {message}")
    changefreq = url.findtext(f"{_SM}changefreq")
    if changefreq is not None and changefreq not in CHANGEFREQS:
        problems.append(
            f"{where}: changefreq {changefreq!r} is not one of {', '.join(sorted(CHANGEFREQS))}"
            " (lower case)"
        )
    priority = url.findtext(f"{_SM}priority")
    if priority is not None:
        message = _priority_problem(priority)
        if message:
            problems.append(f"{where}: {message}")
    alternates: dict[str, str] = {}
    for link in url.findall(f"{{{XHTML_NS}}}link"):
        hreflang, href = link.get("hreflang"), link.get("href")
        if link.get("rel") != "alternate" or not hreflang or not href:
            problems.append(f'{where}: xhtml:link needs rel="alternate", hreflang and href')
            continue
        if hreflang in alternates:
            problems.append(f"{where}: hreflang {hreflang!r} listed twice")
        alternates[hreflang] = href
        problems += [f"{where}: {message}" for message in _url_problems(href, "alternate href")]
    if alternates and loc not in alternates.values():
        problems.append(f"{where}: has hreflang alternates but does not list itself among them")
    images = url.findall(f"{{{IMAGE_NS}}}image")
    if len(images) > MAX_IMAGES_PER_URL:
        problems.append(f"{where}: {len(images)} images, more than {MAX_IMAGES_PER_URL}")
    image_locs = []
    for image in images:
        image_loc = image.findtext(f"{{{IMAGE_NS}}}loc")
        if image_loc is None:
            problems.append(f"{where}: image:image without image:loc")
            continue
        problems += [f"{where}: {message}" for message in _url_problems(image_loc, "image:loc")]
        image_locs.append(image_loc)
    for video in url.findall(f"{{{VIDEO_NS}}}video"):
        _check_video(video, where, loc, problems)
    for news in url.findall(f"{{{NEWS_NS}}}news"):
        _check_news(news, where, problems)
    return UrlEntry(
        loc,
        lastmod,
        changefreq,
        priority,
        alternates,
        tuple(image_locs),
        tuple(_video_values(video) for video in url.findall(f"{{{VIDEO_NS}}}video")),
        _news_values(url.find(f"{{{NEWS_NS}}}news")),
    )


def _check_video(video: ET.Element, where: str, loc: str, problems: list[str]) -> None:
    """Google's rules for a video: the three required children, a content or player URL (not
    the page's own), absolute URLs, dates as W3C."""
    values = _video_values(video)
    for name in ("thumbnail_loc", "title", "description"):
        if not values.get(name, "").strip():
            problems.append(f"{where}: video:video without video:{name}")
    if "content_loc" not in values and "player_loc" not in values:
        problems.append(f"{where}: video:video without video:content_loc or video:player_loc")
    for name in ("thumbnail_loc", "content_loc", "player_loc"):
        if name in values:
            problems += [f"{where}: {m}" for m in _url_problems(values[name], f"video:{name}")]
    for name in ("content_loc", "player_loc"):
        if values.get(name) == loc:
            problems.append(f"{where}: video:{name} is the page's own URL")
    for name in ("publication_date", "expiration_date"):
        if name in values:
            message = _lastmod_problem(values[name])
            if message:
                problems.append(f"{where}: video:{name}: {message}")


def _check_news(news: ET.Element, where: str, problems: list[str]) -> None:
    values = _news_values(news) or {}
    for name in ("name", "language", "publication_date", "title"):
        if not values.get(name, "").strip():
            problems.append(f"{where}: news:news without news:{name}")
    if values.get("publication_date"):
        message = _lastmod_problem(values["publication_date"])
        if message:
            problems.append(f"{where}: news:publication_date: {message}")


def _video_values(video: ET.Element) -> dict[str, str]:
    values: dict[str, str] = {}
    for child in video:
        name = _local(str(child.tag))
        text = (child.text or "").strip()
        values[name] = f"{values[name]}|{text}" if name in values else text
        for attribute, value in child.attrib.items():
            values[f"{name}@{attribute}"] = value
    return values


def _news_values(news: ET.Element | None) -> dict[str, str] | None:
    if news is None:
        return None
    n = f"{{{NEWS_NS}}}"
    return {
        "name": (news.findtext(f"{n}publication/{n}name") or "").strip(),
        "language": (news.findtext(f"{n}publication/{n}language") or "").strip(),
        "publication_date": (news.findtext(f"{n}publication_date") or "").strip(),
        "title": (news.findtext(f"{n}title") or "").strip(),
    }


def _check_index(root: ET.Element, problems: list[str]) -> list[SitemapRef]:
    children = list(root)
    if not children:
        problems.append("sitemapindex without any <sitemap> (the XSD requires at least one)")
    if len(children) > MAX_URLS:
        problems.append(f"{len(children):,} <sitemap> elements, more than {MAX_URLS:,}")
    refs = []
    seen: set[str] = set()
    for number, child in enumerate(children, 1):
        where = f"sitemap #{number}"
        if child.tag != f"{_SM}sitemap":
            problems.append(f"{where}: unexpected element {child.tag} in sitemapindex")
            continue
        tags = [c.tag for c in child if isinstance(c.tag, str) and c.tag.startswith(_SM)]
        if tags not in ([f"{_SM}loc"], [f"{_SM}loc", f"{_SM}lastmod"]):
            problems.append(f"{where}: children {[_local(t) for t in tags]}, want loc[, lastmod]")
        loc = child.findtext(f"{_SM}loc")
        if loc is None:
            problems.append(f"{where}: no <loc>")
            continue
        where = f"sitemap #{number} ({loc.strip()[:200]})"
        problems += [f"{where}: {message}" for message in _url_problems(loc, "loc")]
        if loc in seen:
            problems.append(f"{where}: listed twice")
        seen.add(loc)
        lastmod = child.findtext(f"{_SM}lastmod")
        if lastmod is not None:
            message = _lastmod_problem(lastmod)
            if message:
                problems.append(f"{where}: {message}")
        refs.append(SitemapRef(loc, lastmod))
    return refs


def _local(tag: str) -> str:
    return tag.rpartition("}")[2]


def _url_problems(url: str, what: str) -> list[str]:
    """An absolute http(s) URL, RFC 3986 characters only, shorter than 2,048 characters."""
    found = []
    if url != url.strip():
        found.append(f"{what} {url!r} has surrounding whitespace")
        url = url.strip()
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        found.append(f"{what} {url[:200]!r} is not an absolute http(s) URL")
    if len(url) > MAX_LOC_LENGTH:
        found.append(f"{what} is {len(url):,} characters; it must be under 2,048")
    if not _URI_CHARS.match(url):
        bad = sorted({c for c in url if not _URI_CHARS.match(c)})
        found.append(f"{what} {url[:200]!r} has characters RFC 3986 does not allow raw: {bad}")
    if _BAD_PERCENT.search(url):
        found.append(f"{what} {url[:200]!r} has a % not followed by two hex digits")
    return found


def _lastmod_problem(text: str) -> str | None:
    try:
        _lastmod_instant(text)
    except ValueError as error:
        return f"lastmod {text!r}: {error}"
    return None


def _lastmod_instant(text: str) -> dt.datetime:
    """The instant a lastmod names; a date counts as its first moment in UTC (as the core does)."""
    match = _LASTMOD.match(text)
    if match is None:
        raise ValueError("not YYYY-MM-DD or YYYY-MM-DDThh:mm:ss with Z or ±hh:mm")
    y, m, d = int(match["y"]), int(match["m"]), int(match["d"])
    if match["H"] is None:
        return dt.datetime(y, m, d, tzinfo=dt.timezone.utc)
    tz = match["tz"]
    offset = dt.timedelta(0)
    if tz != "Z":
        sign = -1 if tz[0] == "-" else 1
        offset = sign * dt.timedelta(hours=int(tz[1:3]), minutes=int(tz[4:6]))
    micro = int((match["f"] or ".0")[1:7].ljust(6, "0"))
    hour, minute, second = int(match["H"]), int(match["M"]), int(match["S"])
    return dt.datetime(y, m, d, hour, minute, second, micro, tzinfo=dt.timezone(offset))


def _priority_problem(text: str) -> str | None:
    if not _DECIMAL.match(text):
        return f"priority {text!r} is not a decimal number such as 0.5"
    try:
        value = Decimal(text)
    except InvalidOperation:
        return f"priority {text!r} is not a decimal number such as 0.5"
    if not Decimal(0) <= value <= Decimal(1):
        return f"priority {text} is outside 0.0-1.0"
    return None


def _check_entry_set(entries: list[UrlEntry], problems: list[str]) -> None:
    """Sorted, unique, and hreflang groups that agree: promises over a whole sitemap."""
    seen: set[str] = set()
    for entry in entries:
        if entry.loc in seen:
            problems.append(f"duplicate loc {entry.loc}")
        seen.add(entry.loc)
    for before, after in itertools.pairwise(entries):
        if after.loc < before.loc:
            problems.append(f"not sorted: {after.loc} comes after {before.loc}")
            break
    by_loc = {entry.loc: entry for entry in entries}
    for entry in entries:
        for href in entry.alternates.values():
            other = by_loc.get(href)
            if other is not None and other is not entry and other.alternates != entry.alternates:
                problems.append(
                    f"hreflang alternates of {entry.loc} and {other.loc} differ: "
                    f"{entry.alternates} != {other.alternates}"
                )


def _check_host(urls: list[str], sitemap_url: str | None, problems: list[str]) -> None:
    """One scheme and host for every loc (and for the sitemap's own URL, when given)."""
    origins = {_origin(url) for url in urls if urlsplit(url).netloc}
    if sitemap_url is not None:
        origins.add(_origin(sitemap_url))
    if len(origins) > 1:
        problems.append(f"more than one scheme and host: {sorted(origins)}")


def _origin(url: str) -> str:
    parts = urlsplit(url.strip())
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


def _check_scope(entries: list[UrlEntry], sitemap_url: str, problems: list[str]) -> None:
    """A sitemap at ``/docs/sitemap.xml`` may list only URLs under ``/docs/``, same scheme+host."""
    scope = sitemap_url[: sitemap_url.rfind("/") + 1]
    scope_parts = urlsplit(scope)
    for entry in entries:
        parts = urlsplit(entry.loc.strip())
        if _origin(entry.loc) != _origin(scope) or not parts.path.startswith(scope_parts.path):
            problems.append(f"{entry.loc} is outside the scope {scope} of {sitemap_url}")


def _check_index_lastmod(
    where: str, ref: SitemapRef, entries: list[UrlEntry], problems: list[str]
) -> None:
    """An index entry's lastmod is the newest lastmod in that child (and absent if none has one)."""
    dated = [entry.lastmod for entry in entries if entry.lastmod is not None]
    try:
        newest = max(dated, key=_lastmod_instant) if dated else None
    except ValueError:
        return  # already reported on the child
    if newest is None:
        if ref.lastmod is not None:
            problems.append(f"{where}: lastmod {ref.lastmod} but no entry of the child has one")
        return
    if ref.lastmod is None:
        problems.append(f"{where}: no lastmod, but the newest entry in the child is {newest}")
        return
    try:
        same = _lastmod_instant(ref.lastmod) == _lastmod_instant(newest)
    except ValueError:
        return
    if not same:
        problems.append(f"{where}: lastmod {ref.lastmod}, but the newest entry is {newest}")


# --------------------------------------------------------------------------------------------
# Layer 3a: reading back with ElementTree


def _root_tag(path: Path) -> str:
    return str(ET.fromstring(_read_uncompressed(path, limit=None)).tag)


def read_index(path: Path) -> list[SitemapRef]:
    """The ``<sitemap>`` children of an index, in order (gzip transparent).

    The index (with its children) must pass ``sitemap-plugins validate`` first: every sitemap
    the suite writes and reads back passes the command users run.
    """
    _assert_validates(path)
    return _read_refs(path)


def _read_refs(path: Path) -> list[SitemapRef]:
    root = ET.fromstring(_read_uncompressed(path, limit=None))
    assert root.tag == f"{_SM}sitemapindex", f"{path} is not a sitemap index ({root.tag})"
    return [
        SitemapRef(
            loc=(child.findtext(f"{_SM}loc") or "").strip(),
            lastmod=child.findtext(f"{_SM}lastmod"),
        )
        for child in root.iter(f"{_SM}sitemap")
    ]


def read_sitemap(
    path: Path, *, site_dir: Path | None = None, base_url: str | None = None
) -> list[UrlEntry]:
    """The entries of a urlset, a text sitemap, or (through its children on disk) an index.

    A child URL maps to ``site_dir / <path under base_url>`` when both are given and the URL lies
    under ``base_url``; otherwise to the file of the same name next to the index. gzip is read
    transparently. Values are the texts as written (see :class:`UrlEntry`). The file must pass
    ``sitemap-plugins validate`` first, as :func:`read_index` explains.
    """
    _assert_validates(path, site_dir=site_dir, base_url=base_url)
    return _read_entries(path, site_dir=site_dir, base_url=base_url)


def _read_entries(
    path: Path, *, site_dir: Path | None = None, base_url: str | None = None
) -> list[UrlEntry]:
    data = _read_uncompressed(path, limit=None)
    if _content_kind(data) == "txt":
        return [UrlEntry(loc=line) for line in data.decode("utf-8-sig").splitlines() if line]
    root = ET.fromstring(data)
    if root.tag == f"{_SM}sitemapindex":
        entries: list[UrlEntry] = []
        for ref in _read_refs(path):
            child = _child_path(ref.loc, path, site_dir, base_url)
            assert child.is_file(), f"{path} lists {ref.loc}, but {child} does not exist"
            assert _kind(child) == "txt" or _root_tag(child) != f"{_SM}sitemapindex", (
                f"{path} lists another index, {ref.loc}"
            )
            entries += _read_entries(child, site_dir=site_dir, base_url=base_url)
        return entries
    assert root.tag == f"{_SM}urlset", f"{path}: root is {root.tag}, not a sitemap"
    entries = []
    for url in root.iter(f"{_SM}url"):
        alternates = {
            link.get("hreflang", ""): link.get("href", "")
            for link in url.iter(f"{{{XHTML_NS}}}link")
        }
        images = tuple((image.text or "").strip() for image in url.iter(f"{{{IMAGE_NS}}}loc"))
        entries.append(
            UrlEntry(
                loc=(url.findtext(f"{_SM}loc") or "").strip(),
                lastmod=_stripped(url.findtext(f"{_SM}lastmod")),
                changefreq=_stripped(url.findtext(f"{_SM}changefreq")),
                priority=_stripped(url.findtext(f"{_SM}priority")),
                alternates=alternates,
                images=images,
                videos=tuple(_video_values(v) for v in url.findall(f"{{{VIDEO_NS}}}video")),
                news=_news_values(url.find(f"{{{NEWS_NS}}}news")),
            )
        )
    return entries


def _stripped(text: str | None) -> str | None:
    return None if text is None else text.strip()


def _child_path(loc: str, index: Path, site_dir: Path | None, base_url: str | None) -> Path:
    loc = loc.strip()
    if site_dir is not None and base_url is not None and loc.startswith(base_url):
        return site_dir / unquote(loc[len(base_url) :])
    return index.parent / unquote(posixpath.basename(urlsplit(loc).path))


# --------------------------------------------------------------------------------------------
# Layer 3b: an independent parser, over HTTP on loopback


@dataclass(frozen=True)
class LoopbackSite:
    """A built site served on 127.0.0.1: ``base_url`` is where ``root`` is served."""

    root: Path
    origin: str
    base_url: str

    def url(self, relpath: str) -> str:
        """The loopback URL of a file given relative to the site root."""
        return self.base_url + relpath.lstrip("/")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves files under a path prefix only; keeps the test output clean."""

    prefix = "/"

    def _strip_prefix(self) -> bool:
        if not urlsplit(self.path).path.startswith(self.prefix):
            self.send_error(404, "outside the served prefix")
            return False
        self.path = "/" + self.path[len(self.prefix) :]
        return True

    def do_GET(self) -> None:
        if self._strip_prefix():
            super().do_GET()

    def do_HEAD(self) -> None:
        if self._strip_prefix():
            super().do_HEAD()

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextmanager
def serve_rebased(site_dir: Path, base_url: str = "/") -> Iterator[LoopbackSite]:
    """Serve ``site_dir`` on 127.0.0.1 (free port) under the path of ``base_url``; always stops.

    ``base_url`` may be the site's real base URL (``https://example.org/docs/``) or just a path
    (``/docs/``): only its path is kept, so the loopback site has the same shape as the real one and
    a sitemap built for it keeps its scope. Build the site with ``site.base_url`` to get a sitemap
    whose every URL (index children included) points at this server.
    """
    prefix = urlsplit(base_url).path or "/"
    if not prefix.endswith("/"):
        prefix += "/"
    handler = type("Handler", (_QuietHandler,), {"prefix": prefix})
    directory = str(Path(site_dir).resolve())

    def make_handler(*args: Any, **kwargs: Any) -> http.server.SimpleHTTPRequestHandler:
        return handler(*args, directory=directory, **kwargs)  # type: ignore[no-any-return]

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler)
    thread = threading.Thread(
        target=server.serve_forever,
        kwargs={"poll_interval": 0.02},  # shutdown() waits for one poll: keep it short
        name="sitemap-loopback",
        daemon=True,
    )
    thread.start()
    try:
        origin = f"http://127.0.0.1:{server.server_address[1]}"
        yield LoopbackSite(root=Path(directory), origin=origin, base_url=origin + prefix)
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


class _RenamedResponse(AbstractWebClientSuccessResponse):
    """A loopback response that reports the URL usp asked for, so usp keeps the real URLs."""

    def __init__(self, inner: AbstractWebClientSuccessResponse, url: str) -> None:
        self._inner = inner
        self._url = url

    def status_code(self) -> int:
        return self._inner.status_code()

    def status_message(self) -> str:
        return self._inner.status_message()

    def header(self, case_insensitive_name: str) -> str | None:
        return self._inner.header(case_insensitive_name)

    def raw_data(self) -> bytes:
        return self._inner.raw_data()

    def url(self) -> str:
        return self._url


class _LoopbackClient(AbstractWebClient):
    """usp's requests client, confined to the loopback server; routes ``base_url`` there."""

    def __init__(self, site: LoopbackSite, route_from: str | None) -> None:
        self._session = requests.Session()
        self._session.trust_env = False  # no proxies from the environment, no .netrc
        self._inner = RequestsWebClient(session=self._session)
        self._inner.set_timeout((5, 30))
        self._site = site
        self._route_from = route_from
        self.refused: list[str] = []

    def set_max_response_data_length(self, max_response_data_length: int | None) -> None:
        if max_response_data_length is not None:
            self._inner.set_max_response_data_length(max_response_data_length)

    def _target(self, url: str) -> str | None:
        if url.startswith(self._site.origin + "/"):
            return url
        if self._route_from is not None and url.startswith(self._route_from):
            return self._site.base_url + url[len(self._route_from) :]
        return None

    def get(self, url: str) -> AbstractWebClientResponse:
        target = self._target(url)
        if target is None:
            self.refused.append(url)
            return RequestsWebClientErrorResponse(
                message=f"refused: {url} is neither on the loopback server nor under the base URL",
                retryable=False,
            )
        response = self._inner.get(target)
        if target != url and isinstance(response, AbstractWebClientSuccessResponse):
            return _RenamedResponse(response, url)
        return response

    def close(self) -> None:
        self._session.close()


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(f"{record.name}: {record.getMessage()}")


def parse_with_usp(
    site_dir: Path,
    sitemap_relpath: str,
    *,
    base_url: str | None = None,
    site: LoopbackSite | None = None,
    strict: bool = True,
) -> dict[str, PageInfo]:
    """Fetch a sitemap over loopback HTTP with ultimate-sitemap-parser and return every page.

    ``sitemap_relpath`` is the file's path relative to ``site_dir``. ``base_url`` is the site's
    base URL the sitemap was built with: requests under it are routed to the loopback server, and
    the page URLs come back unchanged. Without ``base_url`` the locs of an index's children must
    already be loopback URLs (build with ``serve_rebased(...).base_url`` and pass that server as
    ``site``); a plain urlset's locs can be anything, as nothing is fetched from them.

    Fails (AssertionError) when usp cannot fetch or parse a sitemap in the tree, when it would
    have left the loopback server, when a loc appears twice across the tree, and, with ``strict``,
    when usp logged a warning or an error (it recovers silently from truncated XML and bad values).
    """
    route_from = base_url if base_url and urlsplit(base_url).netloc else None
    if route_from is not None and not route_from.endswith("/"):
        route_from += "/"
    with _served(site_dir, base_url or "/", site) as served:
        client = _LoopbackClient(served, route_from)
        top = (route_from or served.base_url) + sitemap_relpath.lstrip("/")
        collector = _Collect()
        usp_log = logging.getLogger("usp")
        usp_log.addHandler(collector)
        try:
            tree = SitemapFetcher(url=top, recursion_level=0, web_client=client).sitemap()
            return _pages(tree, client, collector, strict)
        finally:
            usp_log.removeHandler(collector)
            client.close()


@contextmanager
def _served(site_dir: Path, base_url: str, site: LoopbackSite | None) -> Iterator[LoopbackSite]:
    if site is not None:
        yield site
        return
    with serve_rebased(site_dir, base_url) as started:
        yield started


def _pages(
    tree: AbstractSitemap, client: _LoopbackClient, collector: _Collect, strict: bool
) -> dict[str, PageInfo]:
    failures: list[str] = []
    if client.refused:
        failures.append(f"usp tried to leave the loopback server: {client.refused}")
    sitemaps = [tree, *tree.all_sitemaps()]
    failures += [
        f"usp could not read {sm.url}: {sm.reason}"
        for sm in sitemaps
        if isinstance(sm, InvalidSitemap)
    ]
    pages: dict[str, PageInfo] = {}
    for sm in sitemaps:
        if isinstance(sm, (InvalidSitemap, AbstractIndexSitemap)):
            continue
        for page in sm.pages:
            if page.url in pages:
                failures.append(
                    f"usp found {page.url} twice ({pages[page.url].sitemap_url}, {sm.url})"
                )
            story = page.news_story
            pages[page.url] = PageInfo(
                loc=page.url,
                lastmod=page.last_modified,
                priority=page.priority,
                changefreq=page.change_frequency.value if page.change_frequency else None,
                alternates=tuple(page.alternates or ()),
                sitemap_url=sm.url,
                images=tuple(image.loc for image in page.images or ()),
                news=None
                if story is None
                else (
                    story.publication_name,
                    story.publication_language,
                    story.publish_date,
                    story.title,
                ),
            )
    if strict and collector.messages:
        failures += [f"usp logged: {message}" for message in collector.messages]
    if failures:
        raise AssertionError("ultimate-sitemap-parser:\n  " + "\n  ".join(failures[:_MAX_REPORTED]))
    return pages
