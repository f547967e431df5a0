"""Hostile files are refused safely: no entity is expanded, no external file or URL is loaded,
no input raises, and junk gets a finding rather than a traceback."""

from __future__ import annotations

import datetime as dt
import gzip
import tempfile
from pathlib import Path
from urllib.parse import urlsplit

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from sitemap_plugins.validate import Check, Severity, validate
from sitemap_plugins.validate.xmldoc import MAX_DEPTH
from tests.cli.helpers import BASE, codes, only, urlset, write
from tests.support.sitemap_checks import read_sitemap

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)
GOOD = urlset(f"{BASE}a/", f"{BASE}b/", lastmod="2024-05-01")

BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE urlset [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
  <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
  <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
  <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
  <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
  <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
  <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&lol9;</loc></url></urlset>
"""


def test_entity_expansion_is_refused_before_it_starts(tmp_path: Path) -> None:
    report = validate([write(tmp_path / "sitemap.xml", BILLION_LAUGHS)], now=NOW)
    finding = only(report, "E103")
    assert finding.line == 2  # at the DOCTYPE, before any entity is declared or used
    assert report.urls == 0
    assert report.exit_status == 1


def test_external_entities_and_dtds_are_never_loaded(tmp_path: Path) -> None:
    secret = write(tmp_path / "secret.txt", "TOP-SECRET-CONTENT")
    documents = {
        "external entity": f'<!DOCTYPE urlset [<!ENTITY x SYSTEM "{secret.as_uri()}">]>',
        "external DTD": f'<!DOCTYPE urlset SYSTEM "{secret.as_uri()}">',
        "parameter entity": f'<!DOCTYPE urlset [<!ENTITY % p SYSTEM "{secret.as_uri()}"> %p;]>',
        "remote DTD": '<!DOCTYPE urlset SYSTEM "http://127.0.0.1:9/never.dtd">',
    }
    for name, doctype in documents.items():
        text = GOOD.replace("<urlset", doctype + "\n<urlset", 1).replace(
            f"{BASE}a/", f"{BASE}a/&x;" if "entity" in name else f"{BASE}a/"
        )
        report = validate([write(tmp_path / "sitemap.xml", text)], now=NOW)
        assert codes(report) == ["E103"], name
        assert all("TOP-SECRET" not in f.message for f in report.findings), name


def test_an_undeclared_entity_is_a_syntax_error(tmp_path: Path) -> None:
    text = GOOD.replace(f"{BASE}a/", f"{BASE}a/&nbsp;")
    assert codes(validate([write(tmp_path / "sitemap.xml", text)], now=NOW)) == ["E102"]


def test_an_html_page_served_as_a_sitemap(tmp_path: Path) -> None:
    page = "<!DOCTYPE html>\n<html><head><title>404</title></head><body>Not found</body></html>\n"
    finding = only(validate([write(tmp_path / "sitemap.xml", page)], now=NOW), "E105")
    assert "HTML page" in finding.message


def test_deep_nesting_stops_the_parse(tmp_path: Path) -> None:
    depth = 100_000
    for inner in ("<x:y xmlns:x='urn:x'>", "<b>"):
        opening, closing = inner, "</x:y>" if inner.startswith("<x") else "</b>"
        nested = opening * depth + closing * depth
        text = GOOD.replace("<loc>", f"{nested}<loc>", 1)
        report = validate([write(tmp_path / "sitemap.xml", text)], now=NOW)
        deep = [f for f in report.findings if f"more than {MAX_DEPTH} deep" in f.message]
        assert len(deep) == 1, report.findings
        assert deep[0].check is Check.UNEXPECTED_ELEMENT


def test_a_huge_attribute_and_many_attributes(tmp_path: Path) -> None:
    attributes = " ".join(f'a{i}="{"v" * 1000}"' for i in range(2000))
    text = GOOD.replace("<url>", f"<url {attributes}>", 1)
    report = validate([write(tmp_path / "sitemap.xml", text)], now=NOW)
    assert set(codes(report)) == {"E206"}
    assert report.errors == 2000  # counted, though only the first ones are kept


JUNK = st.binary(max_size=2_000)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=JUNK, name=st.sampled_from(["sitemap.xml", "sitemap.txt", "sitemap.xml.gz", "x"]))
def test_junk_never_raises(data: bytes, name: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        report = validate([write(Path(folder) / name, data)], now=NOW)
    assert report.exit_status in (0, 1, 2)
    known = {check.value for check in Check}
    assert all(finding.code in known for finding in report.findings)


@st.composite
def damaged(draw: st.DrawFn) -> bytes:
    """A real sitemap with bytes cut, inserted or replaced, possibly gzipped."""
    data = bytearray(GOOD.encode())
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        action = draw(st.sampled_from(["cut", "insert", "replace"]))
        piece = draw(st.binary(min_size=1, max_size=6))
        if action == "cut":
            del data[at : at + len(piece)]
        elif action == "insert":
            data[at:at] = piece
        else:
            data[at : at + len(piece)] = piece
    result = bytes(data)
    return gzip.compress(result, mtime=0) if draw(st.booleans()) else result


def _as_compared(url: str) -> str:
    """``url`` with its scheme and host in lower case and a default port dropped, as URLs are
    compared: a damage that changed a letter's case there (``example.oRg``) left the same URL."""
    parts = urlsplit(url)
    host = parts.netloc.lower().removesuffix(
        {"https": ":443", "http": ":80"}.get(parts.scheme.lower(), "")
    )
    return parts._replace(scheme=parts.scheme.lower(), netloc=host).geturl()


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
@example(GOOD.replace("example.org", "example.oRg", 1).encode())  # one hypothesis once drew
def test_damaged_sitemaps_get_findings_not_exceptions(data: bytes) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder) / "sitemap.xml", data)
        report = validate([path], base_url=BASE, now=NOW)
        # Nothing found means a damage that left a sitemap (a changed letter in a path): it
        # still reads back, by an independent reader, as URLs under the base URL.
        if not report.findings:
            entries = read_sitemap(path)
            assert entries
            assert all(_as_compared(entry.loc).startswith(BASE) for entry in entries), entries
    assert report.exit_status in (0, 1, 2)
    assert {finding.code for finding in report.findings} <= {check.value for check in Check}
    if data.startswith(b"\x1f\x8b"):
        data = gzip.decompress(data)
    if data == GOOD.encode():
        assert report.findings == []


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(max_size=300))
def test_any_text_in_a_loc_is_judged_without_raising(loc: str) -> None:
    escaped = loc.replace("&", "&amp;").replace("<", "&lt;")
    with tempfile.TemporaryDirectory() as folder:
        path = write(Path(folder) / "sitemap.xml", urlset(escaped).encode("utf-8", "replace"))
        report = validate([path], base_url=BASE, now=NOW)
    assert all(f.severity is not Severity.UNREADABLE for f in report.findings)
