"""The host-neutral core: adapters describe what their host wrote and call the builder.

The public names below are all an adapter needs: :class:`Page` and :class:`LeftOut` to describe
each written file (with an :class:`Article` for a dated article, for the news sitemap),
:class:`SitemapBuilder` to make the sitemap, the options schema (:data:`OPTION_SPECS`,
:class:`Options`) to declare in the host's config, and the :class:`Reporter` interface to map
onto the host's logging. Nothing in this package imports a host (MkDocs, Sphinx, Pelican).

The modules are imported with the collector paused (see :mod:`.collector`). An import makes some
5,000 objects (functions, classes, constants) that live as long as the process: a young
collection during it finds no garbage, yet each one moves the host's older generations nearer
a full collection, which walks the host's whole heap. Running, the collector made about six
young collections here; paused, it makes one when it resumes. The difference was measured: a
3,000-page ``mkdocs build --dirty`` and a 3,000-page incremental Sphinx build each did one full
collection more than without the package (16 ms and about 90 ms), and now none.
"""

from typing import TYPE_CHECKING

from sitemap_plugins.core.collector import collector_paused

if TYPE_CHECKING:
    from sitemap_plugins.core.languages import LanguageSite, folder_under, join_language_sites

with collector_paused():
    from sitemap_plugins.core.build import READ_THE_DOCS_URL, SitemapBuilder, Summary
    from sitemap_plugins.core.git_dates import FileDates
    from sitemap_plugins.core.model import (
        EMPTY,
        Article,
        Entry,
        FilePath,
        IndexEntry,
        Lastmod,
        LeftOut,
        Page,
        Reason,
        WrittenFile,
        WrittenText,
    )
    from sitemap_plugins.core.options import (
        OPTION_SPECS,
        OptionError,
        Options,
        OptionSpec,
        Rule,
        check_changefreq,
        check_priority,
        shown,
    )
    from sitemap_plugins.core.report import (
        Code,
        CollectingReporter,
        LoggingReporter,
        PublishError,
        Reporter,
        SitemapError,
        StrictError,
    )

_LANGUAGE_SITES = frozenset({"LanguageSite", "folder_under", "join_language_sites"})
"""Only Pelican's translated sites join language sites: imported when first asked for, as
every build of the other hosts would otherwise pay for it."""


def __getattr__(name: str) -> object:
    if name in _LANGUAGE_SITES:
        from sitemap_plugins.core import languages

        return getattr(languages, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "EMPTY",
    "OPTION_SPECS",
    "READ_THE_DOCS_URL",
    "Article",
    "Code",
    "CollectingReporter",
    "Entry",
    "FileDates",
    "FilePath",
    "IndexEntry",
    "LanguageSite",
    "Lastmod",
    "LeftOut",
    "LoggingReporter",
    "OptionError",
    "OptionSpec",
    "Options",
    "Page",
    "PublishError",
    "Reason",
    "Reporter",
    "Rule",
    "SitemapBuilder",
    "SitemapError",
    "StrictError",
    "Summary",
    "WrittenFile",
    "WrittenText",
    "check_changefreq",
    "check_priority",
    "collector_paused",
    "folder_under",
    "join_language_sites",
    "shown",
]
