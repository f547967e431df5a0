"""The validator and the official XSDs agree on a corpus of good and broken sitemaps.

For each case of ``corpus.py``: the validator reports exactly the expected codes, the XSD gives
the expected verdict, and the two agree wherever the XSD speaks (XSD invalid: the validator
reports an error; XSD valid: no error of a kind the XSD judges). Where the schema folder is absent
the XSD half is skipped with the reason, after the validator half has passed.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from sitemap_plugins.validate import Check, Severity, validate
from tests.cli.corpus import BASE, CASES, XSD_KINDS, url, urlset
from tests.support.sitemap_checks import validate_xsd, xsd_dir

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


def _xsd_accepts(path: Path) -> bool | None:
    """The XSD's verdict, or None where the schemas are absent (the skip is recorded)."""
    if xsd_dir() is None:
        validate_xsd(path)  # records the deferred skip, with its reason
        return None
    try:
        validate_xsd(path)
    except AssertionError:
        return False
    return True


def _write_case(name: str, folder: Path) -> Path:
    path = folder / "sitemap.xml"
    path.write_bytes(CASES[name].document.encode("utf-8", "surrogateescape"))
    # The child every index case lists, beside it, as a valid urlset.
    (folder / "sitemap-1.xml").write_text(urlset(url(f"{BASE}child/")), "utf-8")
    return path


@pytest.mark.parametrize("name", sorted(CASES))
def test_validator_and_xsd_agree(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    path = _write_case(name, tmp_path)

    report = validate([path], base_url=case.base_url, now=NOW)

    assert {finding.code for finding in report.findings} == case.codes, report.findings
    errors = {f.code for f in report.findings if f.severity is Severity.ERROR}
    verdict = _xsd_accepts(path)
    if verdict is None or case.xsd is None:
        return
    assert verdict == case.xsd
    if verdict:
        assert not errors & XSD_KINDS, f"the XSD accepts {name!r}, yet: {sorted(errors)}"
    else:
        assert errors, f"the XSD rejects {name!r}, the validator found no error"


def test_the_corpus_covers_every_kind_the_xsd_judges() -> None:
    rejected = {code for case in CASES.values() if case.xsd is False for code in case.codes}
    assert rejected >= XSD_KINDS
    assert {check.value for check in Check} >= XSD_KINDS


def test_every_error_and_warning_code_is_in_the_corpus_or_named_elsewhere() -> None:
    """Codes that need more than one file (or a network) are tested in the other modules."""
    elsewhere = {
        Check.OUT_OF_SCOPE,  # also here, but its folder rule is tested with indexes
        Check.MIXED_HOSTS,
        Check.TOO_MANY_ENTRIES,
        Check.TOO_LARGE,
        Check.CHILD_MISSING,
        Check.NESTED_INDEX,
        Check.GZIP_TWIN,
        Check.GZIP_NAME,
        Check.INDEX_LASTMOD,
    }
    in_corpus = {code for case in CASES.values() for code in case.codes}
    for check in Check:
        if check.severity is Severity.UNREADABLE or check in elsewhere:
            continue
        assert check.value in in_corpus, check
