# Build from this folder with:  sphinx-build -b dirhtml . _build/dirhtml
# The sitemap is written to _build/dirhtml/sitemap.xml.

project = "Example"
extensions = ["myst_parser", "sitemap_plugins.sphinx"]
exclude_patterns = ["_build"]
html_baseurl = "https://example.org/"
sitemap_images = True  # list the images of each page's content
sitemap_html_page = True  # _build/dirhtml/sitemap/: the same pages for people, in the theme
