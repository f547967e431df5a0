"""Layer 2: the project's own protocol checks, which always run.

UTF-8 and the XML declaration, the 0.9 namespace, the 50,000-URL and 52,428,800-byte limits,
absolute RFC 3986 ``loc`` values under 2,048 characters, W3C dates, ``changefreq``/``priority``
values, child order, no duplicates, sorted output, one scheme and host, the scope of the
sitemap's own URL, an index's children (on disk, never indexes, with the newest child lastmod),
hreflang groups that list themselves and agree, text sitemaps (:func:`protocol_problems`). The
XSD cannot express most of these (sortedness, scope, duplicates, byte limits), and where it can, a
second implementation catches a schema folder that is missing or wrong.

Then the project's own ``sitemap-plugins validate`` (:func:`validator_errors`) must find no error
either; the readers of :mod:`.readback` ask the same first, so every sitemap the suite writes and
checks or reads back passes the command users run.
"""

from __future__ import annotations

import datetime as dt
import gzip
import itertools
import re
import xml.etree.ElementTree as ET
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Final
from urllib.parse import urlsplit

from sitemap_plugins.validate import Severity, validate
from tests.support.sitemap_checks.model import (
    CHANGEFREQS,
    IMAGE_NS,
    LEGACY_NS,
    MAX_BYTES,
    MAX_IMAGES_PER_URL,
    MAX_LOC_LENGTH,
    MAX_NEWS_PER_FILE,
    MAX_REPORTED,
    MAX_URLS,
    NEWS_NS,
    SITEMAP_NS,
    SM,
    VIDEO_NS,
    XHTML_NS,
    SitemapRef,
    UrlEntry,
    child_path,
    content_kind,
    is_gzip,
    name_kind,
    news_values,
    read_uncompressed,
    video_values,
)

__all__ = ["assert_validates", "format_problems", "protocol_problems", "validator_errors"]

_URL_ORDER: Final = {f"{SM}loc": 0, f"{SM}lastmod": 1, f"{SM}changefreq": 2, f"{SM}priority": 3}
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
            child = child_path(ref.loc, path, site_dir, base_url)
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


def format_problems(path: Path, problems: list[str]) -> str:
    shown = problems[:MAX_REPORTED]
    more = len(problems) - len(shown)
    tail = f"\n  ... and {more} more" if more > 0 else ""
    return f"{path}: {len(problems)} sitemap problem(s):\n  " + "\n  ".join(shown) + tail


_ParseResult = tuple[str, list[UrlEntry], list[SitemapRef]]
"""What one file holds: its kind ("urlset", "text" or "index"), its entries, its index refs."""


def _check_one_file(
    path: Path, sitemap_url: str | None, problems: list[str]
) -> _ParseResult | None:
    """Checks of one file on its own; returns what it holds, or None if it cannot be read."""
    if path.name.endswith(".gz") and not is_gzip(path):
        problems.append("named .gz but not gzip-compressed")
    try:
        data = read_uncompressed(path, limit=MAX_BYTES)
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
    kind = content_kind(data)
    if kind != name_kind(path):
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
    if root.tag == f"{SM}urlset":
        entries = _check_urlset(root, problems)
        if sitemap_url is not None:
            _check_scope(entries, sitemap_url, problems)
        return ("urlset", entries, [])
    if root.tag == f"{SM}sitemapindex":
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
        if url.tag != f"{SM}url":
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
    loc = url.findtext(f"{SM}loc")
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
        elif isinstance(tag, str) and tag.startswith(SM):
            problems.append(f"{where}: unknown element <{_local(tag)}> in the sitemap namespace")
        else:
            rank = 4
    children = list(url)
    if loc is None:
        problems.append(f"{where}: no <loc>")
        return None
    if not children or children[0].tag != f"{SM}loc":
        problems.append(f"{where}: <loc> is not the first child")
    problems += [f"{where}: {message}" for message in _url_problems(loc, "loc")]
    lastmod = url.findtext(f"{SM}lastmod")
    if lastmod is not None:
        message = _lastmod_problem(lastmod)
        if message:
            problems.append(f"{where}: {message}")
    changefreq = url.findtext(f"{SM}changefreq")
    if changefreq is not None and changefreq not in CHANGEFREQS:
        problems.append(
            f"{where}: changefreq {changefreq!r} is not one of {', '.join(sorted(CHANGEFREQS))}"
            " (lower case)"
        )
    priority = url.findtext(f"{SM}priority")
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
    videos = url.findall(f"{{{VIDEO_NS}}}video")
    for video in videos:
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
        tuple(video_values(video) for video in videos),
        news_values(url.find(f"{{{NEWS_NS}}}news")),
    )


def _check_video(video: ET.Element, where: str, loc: str, problems: list[str]) -> None:
    """Google's rules for a video: the three required children, a content or player URL (not
    the page's own), absolute URLs, dates as W3C."""
    values = video_values(video)
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
    values = news_values(news) or {}
    for name in ("name", "language", "publication_date", "title"):
        if not values.get(name, "").strip():
            problems.append(f"{where}: news:news without news:{name}")
    if values.get("publication_date"):
        message = _lastmod_problem(values["publication_date"])
        if message:
            problems.append(f"{where}: news:publication_date: {message}")


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
        if child.tag != f"{SM}sitemap":
            problems.append(f"{where}: unexpected element {child.tag} in sitemapindex")
            continue
        tags = [c.tag for c in child if isinstance(c.tag, str) and c.tag.startswith(SM)]
        if tags not in ([f"{SM}loc"], [f"{SM}loc", f"{SM}lastmod"]):
            problems.append(f"{where}: children {[_local(t) for t in tags]}, want loc[, lastmod]")
        loc = child.findtext(f"{SM}loc")
        if loc is None:
            problems.append(f"{where}: no <loc>")
            continue
        where = f"sitemap #{number} ({loc.strip()[:200]})"
        problems += [f"{where}: {message}" for message in _url_problems(loc, "loc")]
        if loc in seen:
            problems.append(f"{where}: listed twice")
        seen.add(loc)
        lastmod = child.findtext(f"{SM}lastmod")
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


def assert_validates(
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
            + "\n  ".join(errors[:MAX_REPORTED])
        )
