"""The incumbents' configuration, translated into the core's options: switching is one line.

One module per incumbent, imported only by its host's adapter: :mod:`.sphinx_sitemap` for
sphinx-sitemap's ``sitemap_*`` values, :mod:`.pelican_sitemap` for pelican-sitemap's ``SITEMAP``
dict and its per-page ``Priority``/``ChangeFreq``. Nothing here imports a host.
"""
