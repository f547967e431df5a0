"""Whether the URLs the sitemap lists are the ones Sphinx writes as the pages' canonical links.

Sphinx writes into each document's head a canonical link made of ``html_baseurl`` and the page's
link. The sitemap lists the page under its base URL, which is ``html_baseurl`` unless another
is set, in the folder ``sitemap_url_scheme`` puts before the link. Where the base URL is
``html_baseurl`` and the scheme puts the pages in a folder ``html_baseurl`` does not end with
(``html_baseurl = "https://example.org/"`` with ``"{lang}{link}"``, once the recipe for
translated sites), every page says it is canonical at a URL where this build serves nothing
(``https://example.org/guide/`` for the German guide at ``https://example.org/de/guide/``):
the page is listed nowhere, as any page whose canonical link names another URL (the MkDocs
plugin and ``generate`` do the same), and one warning names both settings.

A base URL of the user's own (``sitemap_base_url``, sphinx-sitemap's ``site_url``) that is not
``html_baseurl`` is the user's choice of where the sitemap lists the pages, as before: a
version's build listing its own URLs while its canonical links name ``latest/``.
"""

from __future__ import annotations

import os
import posixpath
from typing import NamedTuple
from urllib.parse import unquote, urljoin

from sitemap_plugins.compat.sphinx_sitemap import UrlScheme
from sitemap_plugins.core.html import scan_head
from sitemap_plugins.core.urls import check_base_url, join_url, site_and_folder

__all__ = ["Elsewhere", "canonical_elsewhere"]


class Elsewhere(NamedTuple):
    """A page the sitemap would list at ``listed`` whose canonical link says ``canonical``;
    ``served`` is the URL this build's folder is listed at, where ``html_baseurl`` belongs."""

    listed: str
    canonical: str
    served: str


def canonical_elsewhere(
    html_baseurl: str | None,
    base_url: str | None,
    scheme: UrlScheme,
    link: str,
    written: os.PathLike[str],
    *,
    encoded: bool,
) -> Elsewhere | None:
    """Whether the pages of this build declare another URL than the sitemap's as canonical,
    judged on one page: its ``link`` (as the builder links it) and the file ``written`` for it.

    ``base_url`` is the one set before ``html_baseurl`` (our option, then ``site_url``), if
    any. The settings decide it for every page alike; the page's own head is read only when
    they disagree, to find the canonical link Sphinx wrote there from ``html_baseurl`` (a theme
    that writes none, or its own, leaves the pages as they were)."""
    if not html_baseurl:
        return None
    try:
        own = check_base_url(html_baseurl)
        if check_base_url(base_url or html_baseurl) != own:
            return None  # a base URL of the user's own: listed there, as before
    except ValueError:
        return None  # the core says why it writes no sitemap
    site, served = site_and_folder(own, scheme.folder())
    listed = join_url(site, scheme.path(link), encoded=encoded)
    if listed == join_url(own, link, encoded=encoded):
        return None  # the common case: nothing to read
    canonical = scan_head(written).canonical  # None for a file that cannot be read
    if canonical is None or not canonical.startswith(html_baseurl.strip()):
        return None  # none, or not Sphinx's own
    canonical = urljoin(listed, canonical.strip())
    if unquote(canonical) in (unquote(listed), posixpath.join(unquote(listed), "index.html")):
        return None
    return Elsewhere(listed, canonical, served)
