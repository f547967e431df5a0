"""Small builders shared by the command-line tests: documents, files, and reading a report."""

from __future__ import annotations

import gzip
from collections.abc import Iterable
from pathlib import Path

from sitemap_plugins.validate import Finding, Report
from tests.cli.corpus import DECLARATION, SM

BASE = "https://example.org/docs/"


def urlset(*locs: str, lastmod: str | None = None, extra: str = "") -> str:
    body = "".join(
        f"  <url><loc>{loc}</loc>"
        + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "")
        + "</url>\n"
        for loc in locs
    )
    return f'{DECLARATION}<urlset xmlns="{SM}"{extra}>\n{body}</urlset>\n'


def index(*children: str | tuple[str, str]) -> str:
    body = ""
    for child in children:
        loc, lastmod = (child, None) if isinstance(child, str) else child
        body += f"  <sitemap><loc>{loc}</loc>"
        body += f"<lastmod>{lastmod}</lastmod></sitemap>\n" if lastmod else "</sitemap>\n"
    return f'{DECLARATION}<sitemapindex xmlns="{SM}">\n{body}</sitemapindex>\n'


def write(path: Path, text: str | bytes, *, gz: bool = False) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    path.write_bytes(gzip.compress(data, mtime=0) if gz else data)
    return path


def codes(report: Report) -> list[str]:
    return [finding.code for finding in report.findings]


def only(report: Report, code: str) -> Finding:
    """The one finding with ``code``; fails listing every finding otherwise."""
    found = [finding for finding in report.findings if finding.code == code]
    assert len(found) == 1, report.findings
    return found[0]


def line_of(text: str, needle: str, start: int = 0) -> int:
    """The 1-based line of the first ``needle`` at or after character ``start``."""
    return text.count("\n", 0, text.index(needle, start)) + 1


def sources(findings: Iterable[Finding]) -> set[str]:
    return {finding.source for finding in findings}
