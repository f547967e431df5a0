"""Pelican settings of the example site: `pelican content -s pelicanconf.py` from this folder.

The sitemap lands in output/sitemap.xml.
"""

AUTHOR = "Example Author"
SITENAME = "Example site"
SITEURL = "https://example.org"
PATH = "content"
TIMEZONE = "Europe/Paris"
DEFAULT_LANG = "en"

PLUGINS = ["sitemap_plugins.pelican"]
SITEMAP = {
    "images": True,  # list the images of each page's content
    "html_page": True,  # output/sitemap.html: the same pages for people, in the theme
}
STATIC_PATHS = ["images"]

# Pages are served at directory-style paths (guide/install/), the same as on the other hosts;
# their slug is their path under content/pages/.
PATH_METADATA = r"pages/(?P<slug>.+)\.md"
PAGE_URL = "{slug}/"
PAGE_SAVE_AS = "{slug}/index.html"
PAGE_LANG_URL = "{slug}/{lang}/"
PAGE_LANG_SAVE_AS = "{slug}/{lang}/index.html"

# The home page is content/pages/index.md; the blog's own index (paginated) moves to /blog/.
INDEX_SAVE_AS = "blog/index.html"
INDEX_URL = "blog/"
DEFAULT_PAGINATION = 2
PAGINATION_PATTERNS = (
    (1, "{url}", "{save_as}"),
    (2, "{base_name}/page/{number}/", "{base_name}/page/{number}/index.html"),
)

FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
