"""Correct, complete and fast sitemaps for MkDocs, Sphinx and Pelican.

The host-neutral work lives in :mod:`sitemap_plugins.core`; each host has one thin adapter module
(:mod:`sitemap_plugins.mkdocs`, :mod:`sitemap_plugins.sphinx`, :mod:`sitemap_plugins.pelican`).
"""

__version__ = "0.1.0"
