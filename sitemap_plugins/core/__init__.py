"""The host-neutral core: adapters build :class:`Page` values and call :class:`SitemapBuilder`.

Nothing in this package imports a host (MkDocs, Sphinx, Pelican).
"""

from sitemap_plugins.core.build import SitemapBuilder, Summary
from sitemap_plugins.core.dates import parse_lastmod
from sitemap_plugins.core.git_dates import FileDates
from sitemap_plugins.core.html import has_robots_noindex, head_exclusion, is_redirect_stub
from sitemap_plugins.core.model import Alternate, Entry, IndexEntry, Lastmod, Page
from sitemap_plugins.core.options import (
    OPTION_SPECS,
    OptionError,
    Options,
    OptionSpec,
    Rule,
    check_changefreq,
    check_priority,
)
from sitemap_plugins.core.report import (
    Code,
    CollectingReporter,
    PublishError,
    Reporter,
    SitemapError,
    StrictError,
)

__all__ = [
    "OPTION_SPECS",
    "Alternate",
    "Code",
    "CollectingReporter",
    "Entry",
    "FileDates",
    "IndexEntry",
    "Lastmod",
    "OptionError",
    "OptionSpec",
    "Options",
    "Page",
    "PublishError",
    "Reporter",
    "Rule",
    "SitemapBuilder",
    "SitemapError",
    "StrictError",
    "Summary",
    "check_changefreq",
    "check_priority",
    "has_robots_noindex",
    "head_exclusion",
    "is_redirect_stub",
    "parse_lastmod",
]
