"""``python -m sitemap_plugins``: the same command line as the ``sitemap-plugins`` script."""

import sys

from sitemap_plugins.cli import main

if __name__ == "__main__":
    sys.exit(main())
