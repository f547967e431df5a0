"""Checking sitemaps against the protocol: ``sitemap-plugins validate`` and its Python API.

:func:`validate` takes files, folders and URLs and returns a :class:`Report` of
:class:`Finding` values, each with a stable :class:`Check` code; it prints nothing, so the command
line, the test suite and future commands use the same checks. Standard library only: expat for XML
(with DTDs and entities refused), urllib for HTTP, zlib for gzip.

Modules, each owning one thing: :mod:`~.findings` (codes and the report), :mod:`~.values` (one
value: URL, date, number), :mod:`~.schema` (which element goes where), :mod:`~.xmldoc` and
:mod:`~.documents` (one document as it streams in), :mod:`~.reading` (files, HTTP, gzip,
robots.txt) and :mod:`~.run` (targets, indexes and their children, checks over a whole set).
"""

from sitemap_plugins.defaults import DEFAULT_TIMEOUT
from sitemap_plugins.validate.findings import SUMMARIES, Check, Document, Finding, Report, Severity
from sitemap_plugins.validate.run import validate

__all__ = [
    "DEFAULT_TIMEOUT",
    "SUMMARIES",
    "Check",
    "Document",
    "Finding",
    "Report",
    "Severity",
    "validate",
]
