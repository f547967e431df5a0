"""``sitemap-plugins index``: one sitemap index over the builds of versions and languages.

Versioned and translated documentation is built once per version or language, each build into a
folder of its own with its own sitemap (mike's ``1.0/``, ``2.0/``; Read the Docs' ``en/latest/``;
one folder per language). Crawlers look for one sitemap at the root; :func:`build_index` writes
it, listing each build's sitemap (or, for a split one, its parts) with its newest lastmod, and
checking each with ``validate``'s rules. It prints nothing: the command line shows its notes.
"""

from sitemap_plugins.defaults import DEFAULT_GLOB, VERSIONS_FILE
from sitemap_plugins.index.build import INDEX_RECORD, IndexResult, Level, Note, build_index
from sitemap_plugins.index.versions import Version, read_versions

__all__ = [
    "DEFAULT_GLOB",
    "INDEX_RECORD",
    "VERSIONS_FILE",
    "IndexResult",
    "Level",
    "Note",
    "Version",
    "build_index",
    "read_versions",
]
