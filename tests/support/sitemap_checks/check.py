"""Every layer on one file: the one call a test ends with once a sitemap is on disk."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from tests.support.sitemap_checks.deferred_skip import schema_unavailable
from tests.support.sitemap_checks.model import SM, UrlEntry, child_path, file_kind, root_tag
from tests.support.sitemap_checks.protocol import (
    assert_validates,
    format_problems,
    protocol_problems,
)
from tests.support.sitemap_checks.readback import read_entries, read_refs
from tests.support.sitemap_checks.xsd import schema_skip_reason, validate_xsd

__all__ = ["check_sitemap_file"]


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
    (otherwise the test is marked skipped for that reason, see :mod:`.deferred_skip`).
    ``sitemap_url`` is the file's own public URL, which confines its locs to its directory.
    ``site_dir`` and ``base_url`` map an index's child URLs to files (by default: by name, next
    to the index). ``now`` is the moment no lastmod may pass (default: the clock), for a test
    that dates a file in the future on purpose. Returns the entries, as :func:`read_sitemap`.
    """
    problems = protocol_problems(path, sitemap_url, site_dir=site_dir, base_url=base_url)
    if problems:
        raise AssertionError(format_problems(path, problems))
    assert_validates(path, sitemap_url, site_dir=site_dir, base_url=base_url, now=now)
    entries = read_entries(path, site_dir=site_dir, base_url=base_url)
    files = [path] if file_kind(path) == "xml" else []
    if files and root_tag(path) == f"{SM}sitemapindex":
        children = [child_path(ref.loc, path, site_dir, base_url) for ref in read_refs(path)]
        files += [child for child in children if file_kind(child) == "xml"]
    reason = schema_skip_reason()
    if files and reason is not None:
        schema_unavailable(reason)
        return entries
    for file in files:
        validate_xsd(file)
    return entries
