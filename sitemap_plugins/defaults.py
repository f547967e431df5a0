"""The defaults the commands show in ``--help`` and their Python APIs take, in one light module.

The command line builds every command's parser on each run, so what ``--help`` prints must come
without the commands themselves: ``sitemap-plugins generate``, run after every build in CI, then
imports neither the validator, the index builder nor the HTTP client (which took half of its
start-up). The packages that use a default re-export it where it was.
"""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_ENDPOINT", "DEFAULT_GLOB", "DEFAULT_TIMEOUT", "VERSIONS_FILE"]

DEFAULT_TIMEOUT: Final = 30.0
"""Seconds allowed for each HTTP request (validate, index and submit read sitemaps by URL)."""
DEFAULT_GLOB: Final = "*/sitemap.xml"
"""Which files of a folder ``index`` lists: each build's sitemap, one folder down."""
VERSIONS_FILE: Final = "versions.json"
"""mike's list of a site's versions and their aliases, at the root of the deployed site."""
DEFAULT_ENDPOINT: Final = "https://api.indexnow.org/indexnow"
"""IndexNow's shared endpoint: a submission there reaches every engine that takes part."""
