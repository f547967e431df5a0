"""What the validator reports: one stable code per kind of problem, and the findings of a run.

Codes are short and stable so that CI logs can be grepped and a README can explain each one; the
letter says what the code does to the exit status (``R``: the target could not be read, exit 2;
``E``: the sitemap breaks the protocol, exit 1; ``W``: engines will ignore or distrust something,
exit 0). The digits group codes by subject: 1 the document, 2 its elements, 3 URLs, 4 values,
5 limits, 6 files and indexes, 7 extensions, 9 the set as a whole.
"""

from __future__ import annotations

import enum
from collections import Counter
from dataclasses import dataclass, field
from typing import Final


class Severity(str, enum.Enum):
    """How a finding counts: ``unreadable`` (exit 2), ``error`` (exit 1), ``warning`` (exit 0)."""

    UNREADABLE = "unreadable"
    ERROR = "error"
    WARNING = "warning"


class Check(str, enum.Enum):
    """Every kind of finding. The value is the code shown to users; it never changes meaning."""

    NOT_FOUND = "R001"
    UNREADABLE = "R002"
    BAD_GZIP = "R003"
    NO_SITEMAP = "R004"

    ENCODING = "E101"
    XML_SYNTAX = "E102"
    DOCTYPE = "E103"
    LEGACY_NAMESPACE = "E104"
    NOT_A_SITEMAP = "E105"

    UNEXPECTED_ELEMENT = "E201"
    ELEMENT_ORDER = "E202"
    MISSING_ELEMENT = "E203"
    REPEATED_ELEMENT = "E204"
    UNEXPECTED_TEXT = "E205"
    ATTRIBUTE = "E206"
    EMPTY = "E207"

    NOT_ABSOLUTE = "E301"
    LOC_LENGTH = "E302"
    NOT_ENCODED = "E303"
    OUT_OF_SCOPE = "E305"
    MIXED_HOSTS = "E306"
    DUPLICATE = "E307"

    LASTMOD_FORMAT = "E401"
    LASTMOD_W3C = "E402"
    LASTMOD_FUTURE = "E403"
    CHANGEFREQ = "E404"
    PRIORITY = "E405"

    TOO_MANY_ENTRIES = "E501"
    TOO_LARGE = "E502"
    TOO_MANY_IMAGES = "E503"

    CHILD_MISSING = "E601"
    NESTED_INDEX = "E602"
    GZIP_TWIN = "E603"
    GZIP_NAME = "E604"

    HREFLANG = "E701"
    VIDEO_LOCATION = "E702"
    EXTENSION_VALUE = "E703"

    IGNORED_ELEMENT = "W201"
    UNKNOWN_NAMESPACE = "W202"
    LOC_2048 = "W302"
    ESCAPED_TWICE = "W304"
    INDEX_LASTMOD = "W601"
    HREFLANG_SELF = "W701"
    SAME_LASTMOD = "W901"
    SAME_PRIORITY = "W902"

    @property
    def severity(self) -> Severity:
        """The letter of the code decides, so users can read it from the code alone."""
        return _SEVERITY_BY_LETTER[self.value[0]]

    @property
    def summary(self) -> str:
        """One line saying what the check looks for (README and ``--format json`` use it).

        Plain words, no ``<`` or ``&amp;``: the README's table shows them as Markdown.
        """
        return SUMMARIES[self]


_SEVERITY_BY_LETTER: Final = {"R": Severity.UNREADABLE, "E": Severity.ERROR, "W": Severity.WARNING}

SUMMARIES: Final[dict[Check, str]] = {
    Check.NOT_FOUND: "the file, folder or URL does not exist (HTTP 404 or 410)",
    Check.UNREADABLE: "the target cannot be read: permissions, HTTP error, network, timeout",
    Check.BAD_GZIP: "gzip data that cannot be decompressed (corrupt or truncated)",
    Check.NO_SITEMAP: "a folder with no robots.txt Sitemap: line and no sitemap.xml",
    Check.ENCODING: "not UTF-8, or an XML declaration naming another encoding",
    Check.XML_SYNTAX: "not well-formed XML",
    Check.DOCTYPE: "a DOCTYPE or entity declaration (refused, never expanded)",
    Check.LEGACY_NAMESPACE: "Google's 2005 namespace (sitemap/0.84) instead of the 0.9 one",
    Check.NOT_A_SITEMAP: "the root is not urlset or sitemapindex in the 0.9 namespace",
    Check.UNEXPECTED_ELEMENT: "an element that is not allowed where it is",
    Check.ELEMENT_ORDER: "elements out of the order the schema requires",
    Check.MISSING_ELEMENT: "a required element is missing",
    Check.REPEATED_ELEMENT: "an element repeated more often than allowed",
    Check.UNEXPECTED_TEXT: "text where only elements are allowed",
    Check.ATTRIBUTE: "an attribute that is not allowed, or a required one missing",
    Check.EMPTY: "a urlset, sitemapindex or text sitemap without entries",
    Check.NOT_ABSOLUTE: "a URL that is not an absolute http(s) URL",
    Check.LOC_LENGTH: "a loc longer than 2,048 characters (or shorter than the schema's 12)",
    Check.NOT_ENCODED: "a URL that is not RFC 3986: raw spaces or non-ASCII, a bad % escape",
    Check.ESCAPED_TWICE: "a URL still holding an XML entity once unescaped (escaped twice?)",
    Check.OUT_OF_SCOPE: "a URL outside the sitemap's folder, scheme or host, dot segments resolved",
    Check.MIXED_HOSTS: "URLs of more than one scheme and host in one sitemap",
    Check.DUPLICATE: "a URL listed more than once (however its escapes are spelled)",
    Check.LASTMOD_FORMAT: "a date that is neither YYYY-MM-DD nor a full timestamp",
    Check.LASTMOD_W3C: "a date the schema accepts but W3C Datetime does not (no time zone)",
    Check.LASTMOD_FUTURE: "a lastmod in the future",
    Check.CHANGEFREQ: "a changefreq other than always, hourly, ... never (lower case)",
    Check.PRIORITY: "a priority that is not a decimal from 0.0 to 1.0",
    Check.TOO_MANY_ENTRIES: "more than 50,000 URLs (or child sitemaps) in one file",
    Check.TOO_LARGE: "more than 52,428,800 bytes (50 MiB) uncompressed in one file",
    Check.TOO_MANY_IMAGES: "more than 1,000 images on one URL",
    Check.CHILD_MISSING: "an index entry or robots.txt Sitemap: line whose file does not exist",
    Check.NESTED_INDEX: "an index that lists another index",
    Check.GZIP_TWIN: "a .gz file whose content differs from the plain file beside it",
    Check.GZIP_NAME: "a file named .gz that is not gzip-compressed",
    Check.HREFLANG: 'an xhtml:link without rel="alternate", hreflang or an absolute href',
    Check.VIDEO_LOCATION: "a video without video:content_loc or video:player_loc",
    Check.EXTENSION_VALUE: "an image, video, news or xhtml value the schema does not allow",
    Check.IGNORED_ELEMENT: "an extension element where engines do not read it",
    Check.UNKNOWN_NAMESPACE: "an element of a namespace this tool does not know (not checked)",
    Check.LOC_2048: "a loc of exactly 2,048 characters (sitemaps.org asks for fewer)",
    Check.INDEX_LASTMOD: "an index lastmod older than the newest lastmod in that child",
    Check.HREFLANG_SELF: "hreflang alternates that do not include the URL itself",
    Check.SAME_LASTMOD: "every lastmod on the same day (engines distrust build dates)",
    Check.SAME_PRIORITY: "the same priority on every URL (engines ignore it)",
}


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem, where it is: ``source`` is the file as the user named it, or its URL.

    ``line`` and ``column`` are 1-based and None when the problem concerns the whole file.
    """

    check: Check
    message: str
    source: str
    line: int | None = None
    column: int | None = None

    @property
    def code(self) -> str:
        return self.check.value

    @property
    def severity(self) -> Severity:
        return self.check.severity


@dataclass(frozen=True, slots=True)
class Document:
    """One file that was read: its kind (``urlset``, ``index``, ``text``; None if not a sitemap).

    ``bytes`` is its uncompressed size, or 52,428,801 when reading stopped at the 50 MiB limit.
    """

    source: str
    url: str | None
    kind: str | None
    entries: int
    bytes: int


MAX_SHOWN_PER_CODE: Final = 100
"""Findings kept per file and code; a file with 50,000 bad URLs says so without 50,000 lines."""


@dataclass
class Report:
    """Everything one run found. ``counts`` includes findings beyond those kept in ``findings``."""

    findings: list[Finding] = field(default_factory=list)
    documents: list[Document] = field(default_factory=list)
    counts: Counter[Severity] = field(default_factory=Counter)
    _kept: Counter[tuple[str, Check]] = field(default_factory=Counter, repr=False)

    def add(self, finding: Finding) -> None:
        """Record a finding; past the cap for its file and code only its count grows."""
        self.counts[finding.severity] += 1
        key = (finding.source, finding.check)
        self._kept[key] += 1
        if self._kept[key] <= MAX_SHOWN_PER_CODE:
            self.findings.append(finding)

    def finish(self) -> Report:
        """Say, once per file and code, how many findings were counted but not kept."""
        for (source, check), count in sorted(self._kept.items()):
            if count > MAX_SHOWN_PER_CODE:
                more = count - MAX_SHOWN_PER_CODE
                self.findings.append(Finding(check, f"and {more:,} more like this", source))
        self._kept.clear()
        return self

    @property
    def errors(self) -> int:
        return self.counts[Severity.ERROR]

    @property
    def warnings(self) -> int:
        return self.counts[Severity.WARNING]

    @property
    def unreadable(self) -> int:
        return self.counts[Severity.UNREADABLE]

    @property
    def urls(self) -> int:
        """URLs listed by the urlsets and text sitemaps read (index entries are not URLs)."""
        return sum(doc.entries for doc in self.documents if doc.kind in ("urlset", "text"))

    @property
    def exit_status(self) -> int:
        """0 clean (warnings allowed), 1 errors found, 2 something could not be read."""
        if self.unreadable:
            return 2
        return 1 if self.errors else 0
