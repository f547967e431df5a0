"""``sitemap-plugins generate``: a true sitemap for a site some other tool built.

A host of its own beside the plugins: it walks a built site (:mod:`.site`), finds each page's
source by a layout (:mod:`.layouts`) and the source's ``sitemap`` front matter
(:mod:`.front_matter`), reads its settings from flags, a TOML file and the host's own config
(:mod:`.settings`, :mod:`.hosts`), or reads a URL list (:mod:`.urllist`), and hands
it all to the core's streaming build (:mod:`.run`). The core decides every rule, as for the
plugins; the command line (:mod:`sitemap_plugins.cli`) only parses and prints.
"""

from sitemap_plugins.generate.errors import GenerateError, InputError, UsageError
from sitemap_plugins.generate.hosts import HostConfig, find_host_config
from sitemap_plugins.generate.layouts import LAYOUTS, SourceFinder
from sitemap_plugins.generate.run import Progress, generate_site, generate_urls
from sitemap_plugins.generate.settings import (
    Settings,
    flag_name,
    option_kind,
    option_value,
    resolve_settings,
)
from sitemap_plugins.generate.site import SiteReader, served_path, walk_site

__all__ = [
    "LAYOUTS",
    "GenerateError",
    "HostConfig",
    "InputError",
    "Progress",
    "Settings",
    "SiteReader",
    "SourceFinder",
    "UsageError",
    "find_host_config",
    "flag_name",
    "generate_site",
    "generate_urls",
    "option_kind",
    "option_value",
    "resolve_settings",
    "served_path",
    "walk_site",
]
