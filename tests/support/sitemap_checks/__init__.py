"""Checks that every test in the project runs on the sitemap files it produces.

The writer tests and the MkDocs / Sphinx / Pelican site-build tests all end the same way: a sitemap
file is on disk and must be right. Asserting on substrings of the XML would let a broken file pass,
so this package offers three independent ways to look at a file, none of them a mock, one module
each:

1. **The official schemas** (:mod:`.xsd`, :func:`validate_xsd`), where the schema folder is
   present; on a fresh clone only this layer is skipped, with the reason shown.
2. **The project's own protocol checks** (:mod:`.protocol`, :func:`protocol_problems`), which
   always run, then the project's own ``sitemap-plugins validate`` (:func:`validator_errors`).
3. **Reading back by meaning** (:mod:`.readback`, :func:`read_sitemap`, :func:`read_index`) with
   the stdlib ElementTree, so tests assert on sets of locs and on dates rather than on bytes; and
   reading with an **independent parser**, ultimate-sitemap-parser, over HTTP on loopback
   (:mod:`.loopback`, :func:`parse_with_usp`), which is how a crawler sees the site.

:func:`check_sitemap_file` (:mod:`.check`) runs them all on one file. :mod:`.model` holds what the
layers share (names, limits, the values read back, reading a file's bytes).

Registered as a pytest plugin (``pytest_plugins = ["tests.support.sitemap_checks"]`` in
``tests/conftest.py``), this package also loads :mod:`.deferred_skip`, which turns a missing
schema folder into a skip only after the test's body has passed.
"""

from __future__ import annotations

from tests.support.sitemap_checks.check import check_sitemap_file
from tests.support.sitemap_checks.loopback import (
    LoopbackSite,
    PageInfo,
    parse_with_usp,
    serve_rebased,
)
from tests.support.sitemap_checks.model import (
    CHANGEFREQS,
    IMAGE_NS,
    LEGACY_NS,
    MAX_BYTES,
    MAX_LOC_LENGTH,
    MAX_URLS,
    NEWS_NS,
    SITEMAP_NS,
    VIDEO_NS,
    XHTML_NS,
    SitemapRef,
    UrlEntry,
)
from tests.support.sitemap_checks.protocol import protocol_problems, validator_errors
from tests.support.sitemap_checks.readback import read_index, read_sitemap
from tests.support.sitemap_checks.xsd import schema_skip_reason, validate_xsd, xsd_dir

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

# The plugin half: loaded wherever this package is named as a pytest plugin.
pytest_plugins = ["tests.support.sitemap_checks.deferred_skip"]
