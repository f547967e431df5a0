"""Real ``pelican`` builds: the URL that serves each written file, and dates Pelican made up.

Every source is committed in a temporary git repository on a date the test chooses, and every
expected lastmod is derived from those dates or from the dates the sources declare.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from urllib.parse import quote, unquote

import pytest

from tests.pelican.helpers import BASE, log_of, page, plain_repo, post, sitemap
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build

pytestmark = pytest.mark.pelican

FIRST = "2024-01-05T09:00:00+00:00"
LATER = "2024-04-04T04:04:00+02:00"


def w3c(value: str | dt.datetime) -> str:
    """How the sitemap writes an instant: the W3C datetime, ``Z`` for UTC."""
    if isinstance(value, str):
        value = dt.datetime.fromisoformat(value)
    return value.isoformat().replace("+00:00", "Z")


def test_url_that_does_not_serve_the_file_lists_where_it_is_served(git_repo: GitRepo) -> None:
    files = {
        # Save_as without URL: Pelican keeps linking PAGE_URL, pages/contact.html.
        "content/pages/contact.md": page("Contact", Save_as="contact.html"),
        "content/pages/contact-fr.md": page("Contact", Lang="fr", Save_as="fr/contact.html"),
        "content/launch.md": post("Launch", "2024-01-02", Save_as="news/launch.html"),
        # Not disagreements: the same file, a folder's index.html (with or without the final
        # slash, which hosts redirect to), a pretty URL for x.html.
        "content/pages/about.md": page("About", URL="about", Save_as="about/index.html"),
        "content/pages/same.md": page("Same", URL="same.html", Save_as="same.html"),
        "content/pages/team.md": page("Team", URL="team/", Save_as="team/index.html"),
        "content/pages/pretty.md": page("Pretty", URL="pretty", Save_as="pretty.html"),
        "content/pages/plain.md": page("Plain"),
    }
    site = plain_repo(git_repo, files)
    proc = pelican_build(site)
    entries = sitemap(site)
    output = site / "output"

    served = {"contact.html", "fr/contact.html", "news/launch.html"}
    agreed = {"same.html", "team/", "about/", "pretty", "pages/plain.html"}
    assert served | agreed <= set(entries)
    for path in served:
        assert (output / path).is_file()
    assert (output / "about" / "index.html").is_file()
    assert "about" not in entries  # listed at the folder, which answers without a redirect
    for linked in ("pages/contact.html", "pages/contact-fr.html", "launch.html"):
        assert linked not in entries
        assert not (output / linked).is_file()  # the URL Pelican links: no file is there
    assert entries["contact.html"].alternates == {
        "en": "https://example.org/contact.html",
        "fr": "https://example.org/fr/contact.html",
        "x-default": "https://example.org/contact.html",
    }

    log = log_of(proc)
    for source, url, save_as in [
        ("content/pages/contact.md", "pages/contact.html", "contact.html"),
        ("content/pages/contact-fr.md", "pages/contact-fr.html", "fr/contact.html"),
        ("content/launch.md", "launch.html", "news/launch.html"),
    ]:
        assert log.count(f"{source}: URL '{url}' does not serve") == 1, source
        assert f"save_as '{save_as}'" in log
    assert log.count("does not serve") == 3  # one warning per source, none for agreements


def test_a_url_metadata_is_listed_as_pelican_links_it_encoded_once(git_repo: GitRepo) -> None:
    """Pelican writes a ``URL:`` metadata into its links as the author wrote it, and a browser
    reads an escape in it as the byte it names: encoded, raw or both at once, the sitemap
    lists the URL those links reach, which serves the file Pelican wrote."""
    files = {
        "content/pages/cafe.md": page("Cafe", URL="caf%C3%A9.html", Save_as="café.html"),
        "content/pages/space.md": page("Space", URL="my page.html", Save_as="my page.html"),
        "content/pages/other.md": page("Other", URL="my%20other.html", Save_as="my other.html"),
        "content/pages/mixed.md": page(
            "Mixed", URL="cr%C3%A8me brûlée/", Save_as="crème brûlée/index.html"
        ),
    }
    site = plain_repo(git_repo, files)
    proc = pelican_build(site)
    output = site / "output"
    entries = sitemap(site)
    # Pelican's own links to the pages, as a browser sends them (raw characters encoded).
    home = (output / "index.html").read_text(encoding="utf-8")
    links = {
        quote(unquote(href.removeprefix(BASE)))
        for href in re.findall(r'href="([^"]+)"', home)
        if href.startswith(BASE) and ("caf" in href or "my" in href or "cr" in href)
    }
    listed = {path for path in entries if path.startswith(("caf", "my", "cr"))}
    assert len(links) == 4
    assert listed == links
    for path in listed:  # each served by the file Pelican wrote: encoded once, not twice
        file = unquote(path) + ("index.html" if path.endswith("/") else "")
        assert (output / file).is_file(), path
    assert "does not serve" not in log_of(proc)


def served_file(output: Path, path: str) -> Path | None:
    """The file a web server sends for ``path`` (from the base URL): the path decoded once,
    a folder's ``index.html``, or ``x.html`` for a pretty ``x``; None where there is none."""
    name = unquote(path, errors="strict")
    folder = name.endswith("/") or not name
    for candidate in (name + "index.html",) if folder else (name, name + ".html"):
        if (output / candidate).is_file():
            return output / candidate
    return None


# Each listing's URL setting holds an escape, non-ASCII text or both; the author's is its save_as
# too, a file name with a percent sign in it.
ESCAPED_URL_SETTINGS = """
SLUGIFY_USE_UNICODE = True
TAG_URL = "my%20tags/{slug}.html"
TAG_SAVE_AS = "my tags/{slug}.html"
CATEGORY_URL = "cat%C3%A9gorie/{slug}/"
CATEGORY_SAVE_AS = "catégorie/{slug}/index.html"
AUTHOR_URL = "by%20author/{slug}.html"
AUTHOR_SAVE_AS = "by%20author/{slug}.html"
ARCHIVES_URL = "all%20posts.html"
ARCHIVES_SAVE_AS = "all posts.html"
YEAR_ARCHIVE_URL = "{date:%Y}%20archive/"
YEAR_ARCHIVE_SAVE_AS = "{date:%Y} archive/index.html"
MONTH_ARCHIVE_URL = "{date:%Y}/m%C3%B6nth-{date:%m}"
MONTH_ARCHIVE_SAVE_AS = "{date:%Y}/mönth-{date:%m}.html"
DEFAULT_PAGINATION = 2
"""
# Each listing's URL setting names another file than its save_as: Pelican links a URL that
# serves nothing.
DISAGREEING_URL_SETTINGS = """
TAG_URL = "topics/{slug}/"
TAG_SAVE_AS = "tag/{slug}.html"
CATEGORY_URL = "section/{slug}.html"
CATEGORY_SAVE_AS = "category/{slug}/index.html"
ARCHIVES_SAVE_AS = "archive/index.html"
YEAR_ARCHIVE_URL = "year-{date:%Y}.html"
YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
DEFAULT_PAGINATION = 2
"""


@pytest.mark.parametrize(
    "settings",
    [ESCAPED_URL_SETTINGS, DISAGREEING_URL_SETTINGS],
    ids=["escaped-url-settings", "url-settings-disagreeing-with-save-as"],
)
def test_every_listing_is_listed_where_its_file_is_served_encoded_once(
    git_repo: GitRepo, settings: str
) -> None:
    """Tags, categories, authors, direct templates, period archives and their later pages
    are listed at the URL that serves the file Pelican wrote, encoded once: Pelican's link
    where it reaches that file (``my%20tags/caf%C3%A9.html`` for ``TAG_URL =
    "my%20tags/{slug}.html"``, never ``my%2520tags/...``), the file's own URL where it does not
    (a save_as with a ``%`` in it, a URL that names another file)."""
    files = {
        f"content/{name}.md": post(
            name.title(), f"2024-0{n}-01", tags="café, big data", category="Été", Author="Jo Doe"
        )
        for n, name in enumerate(("alpha", "beta", "gamma"), start=1)
    }
    site = plain_repo(git_repo, files, settings)
    pelican_build(site)
    output = site / "output"
    entries = sitemap(site)

    # Every page Pelican wrote is served by exactly one URL listed, and each URL listed by a
    # file: decoded once, the URL names it.
    written = set(output.rglob("*.html"))
    served = {path: served_file(output, path) for path in entries}
    assert None not in served.values(), [path for path, file in served.items() if file is None]
    assert sorted(served.values()) == sorted(written)
    for path in entries:  # encoded once, as a URL spells it: nothing raw left, no escape twice
        assert path == quote(unquote(path)), path

    # Pelican's own links to the listings, as a browser sends them, where they reach a file.
    hrefs = set()
    for page_file in written:
        hrefs |= set(re.findall(r'href="([^"]+)"', page_file.read_text(encoding="utf-8")))
    links = {
        quote(unquote(href.removeprefix(BASE)))
        for href in hrefs
        if href.startswith(BASE) and not href.endswith((".css", "index.html"))
    }
    reached = {link for link in links if served_file(output, link) is not None}
    assert len(reached) >= 6  # the index, the articles, tag, category and author pages
    assert reached <= set(entries)


# Each listing's URL setting next to the setting that saves its file: the first four name
# other files (Pelican links URLs that serve nothing), the last two agree with them.
LISTING_URL_SETTINGS = {
    "TAG_URL": ("topics/{slug}/", "TAG_SAVE_AS", "tag/{slug}.html"),
    "ARCHIVES_URL": ("archive.html", "ARCHIVES_SAVE_AS", "archive/index.html"),
    "YEAR_ARCHIVE_URL": ("year-{date:%Y}.html", "YEAR_ARCHIVE_SAVE_AS", "{date:%Y}/index.html"),
    "CATEGORY_URL": ("section/{slug}.html", "CATEGORY_SAVE_AS", "category/{slug}/index.html"),
    "AUTHOR_URL": ("writer/{slug}/", "AUTHOR_SAVE_AS", "writer/{slug}/index.html"),
    "TAGS_URL": ("all-tags", "TAGS_SAVE_AS", "all-tags.html"),
}
DISAGREEING = ("TAG_URL", "ARCHIVES_URL", "YEAR_ARCHIVE_URL", "CATEGORY_URL")
# Later pages as /page/N/ folders, linked as /pN/: the rule's URL serves nothing either.
PAGES_RULE = (2, "{base_name}/p{number}/", "{base_name}/page/{number}/index.html")


def test_a_listing_url_setting_that_does_not_serve_its_files_is_named_once(
    git_repo: GitRepo,
) -> None:
    """A tag, category, archive, period archive or later page whose URL setting does not
    serve the file Pelican saves is listed where its file is served, as an article is, and
    the setting is named once, with its value, the one that saves the file and one file's two
    URLs; strict fails on it. The index saved in a folder of its own with no ``INDEX_URL`` (a
    home page of one's own, as Pelican's documentation sets it up) has no link to disagree."""
    settings = "".join(
        f"{name} = {url!r}\n{save_name} = {save_as!r}\n"
        for name, (url, save_name, save_as) in LISTING_URL_SETTINGS.items()
    )
    settings += 'DIRECT_TEMPLATES = ["index", "tags", "categories", "authors", "archives"]\n'
    settings += 'INDEX_SAVE_AS = "blog/index.html"\nDEFAULT_PAGINATION = 2\n'
    settings += f"PAGINATION_PATTERNS = ((1, '{{url}}', '{{save_as}}'), {PAGES_RULE!r})\n"
    files = {
        f"content/{name}.md": post(name.title(), f"2024-0{n}-01", tags="python")
        for n, name in enumerate(("alpha", "beta", "gamma"), start=1)
    }
    site = plain_repo(git_repo, files, settings)
    proc = pelican_build(site)
    output = site / "output"
    entries = sitemap(site)

    # Listed where each file is served, never at the URL Pelican links.
    for listed in ("tag/python.html", "archive/", "2024/", "category/news/", "blog/"):
        assert listed in entries, listed
        assert served_file(output, listed) is not None, listed
    for linked in ("topics/python/", "archive.html", "year-2024.html", "section/news.html"):
        assert linked not in entries
        assert served_file(output, linked) is None, linked
    assert {"blog/page/2/", "tag/python/page/2/"} <= set(entries)
    assert not any("/p2/" in path for path in entries)

    log = log_of(proc)
    for name in DISAGREEING:
        url, save_name, save_as = LISTING_URL_SETTINGS[name]
        assert log.count(f"{name} {url!r} does not serve the files") == 1, name
        assert f"{save_name} {save_as!r}:" in log, name
    assert "'topics/python/' for 'tag/python.html'" in log
    assert log.count(f"PAGINATION_PATTERNS {PAGES_RULE!r} does not serve") == 1
    assert log.count("does not serve") == len(DISAGREEING) + 1  # none for the others, the index
    assert "INDEX" not in log

    conf = site / "pelicanconf.py"
    conf.write_text(conf.read_text(encoding="utf-8") + 'SITEMAP = {"strict": True}\n', "utf-8")
    strict = pelican_build(site, check=False)
    assert strict.returncode != 0
    assert "does not serve the files" in log_of(strict)


# Every URL a folder without its final slash, every file that folder's index page, as many
# sites set them up: hosts redirect tag/python to tag/python/, so Pelican's links reach them.
SLASHLESS_URL_SETTINGS = """
TAG_URL = "tag/{slug}"
TAG_SAVE_AS = "tag/{slug}/index.html"
CATEGORY_URL = "category/{slug}"
CATEGORY_SAVE_AS = "category/{slug}/index.html"
AUTHOR_URL = "author/{slug}"
AUTHOR_SAVE_AS = "author/{slug}/index.html"
DEFAULT_PAGINATION = 1
PAGINATION_PATTERNS = (
    (1, "{url}", "{save_as}"),
    (2, "{base_name}/page/{number}", "{base_name}/page/{number}/index.html"),
)
SITEMAP = {"strict": True}
"""


def test_a_url_that_is_its_files_folder_without_the_final_slash_serves_it(
    git_repo: GitRepo,
) -> None:
    """A tag's, category's, author's, later page's or article's URL that is the folder of its
    file without the final ``/`` serves that folder's index page (every static host redirects
    it): no warning, so a strict build passes, and each is listed at the folder with its
    ``/``, the URL that answers without a redirect."""
    files = {
        f"content/{name}.md": post(
            name.title(),
            f"2024-0{n}-01",
            tags="python",
            Author="Jo Doe",
            URL=f"posts/{name}",
            Save_as=f"posts/{name}/index.html",
        )
        for n, name in enumerate(("alpha", "beta"), start=1)
    }
    site = plain_repo(git_repo, files, SLASHLESS_URL_SETTINGS)
    proc = pelican_build(site, "--fatal", "warnings")
    output = site / "output"
    entries = sitemap(site)

    article = (output / "posts" / "alpha" / "index.html").read_text(encoding="utf-8")
    folders = ["tag/python", "category/news", "author/jo-doe", "posts/alpha", "page/2"]
    for folder in folders:
        if folder != "page/2":  # Pelican links each without the final slash
            assert f'href="{BASE}{folder}"' in article, folder
        assert folder + "/" in entries, folder
        assert served_file(output, folder + "/") is not None, folder
        assert folder not in entries, folder
    assert "tag/python/page/2/" in entries
    assert "does not serve" not in log_of(proc)


# Page 1 of each listing saved by the pagination rule in a folder of its own, while the tags
# keep their default TAG_URL and TAG_SAVE_AS, which agree with each other.
FIRST_PAGE_RULE = (1, "{base_name}/", "{base_name}/index.html")
FIRST_PAGE_RULE_SETTINGS = f"""
DEFAULT_PAGINATION = 5
PAGINATION_PATTERNS = ({FIRST_PAGE_RULE!r}, (2, "{{base_name}}/page/{{number}}/", \
"{{base_name}}/page/{{number}}/index.html"))
"""
# Period archives paginated and saved, with YEAR_ARCHIVE_URL left at its default, empty.
UNSET_ARCHIVE_URL_SETTINGS = """
DEFAULT_PAGINATION = 5
YEAR_ARCHIVE_SAVE_AS = "{date:%Y}/index.html"
PAGINATED_TEMPLATES = {
    "index": None, "tag": None, "category": None, "author": None, "period_archives": None
}
PAGINATION_PATTERNS = ((1, "{url}", "{save_as}"), (2, "{base_name}/page/{number}/", \
"{base_name}/page/{number}/index.html"))
"""


@pytest.mark.parametrize(
    ("settings", "named", "not_named"),
    [
        (
            FIRST_PAGE_RULE_SETTINGS,
            [
                "TAG_URL 'tag/{slug}.html' does not serve the files",
                f"PAGINATION_PATTERNS {FIRST_PAGE_RULE!r} (its rule for page 1",
                "instead of TAG_SAVE_AS 'tag/{slug}.html'",
                "'tag/python.html' for 'tag/python/index.html'",
                "set TAG_URL and that rule to agree",
            ],
            "set them to agree",
        ),
        (
            UNSET_ARCHIVE_URL_SETTINGS,
            [
                "YEAR_ARCHIVE_URL '' does not serve the files",
                "YEAR_ARCHIVE_SAVE_AS '{date:%Y}/index.html': '' for '2024/index.html'",
                "set YEAR_ARCHIVE_URL to agree with YEAR_ARCHIVE_SAVE_AS",
            ],
            "PAGINATION_PATTERNS",
        ),
    ],
    ids=["first-page-rule-saves-elsewhere", "archive-url-unset"],
)
def test_a_listing_warning_names_the_settings_that_decide_the_link_and_the_file(
    git_repo: GitRepo, settings: str, named: list[str], not_named: str
) -> None:
    """Page 1 of a listing is linked by its own URL setting (``TAG_URL``), or by the rule of
    ``PAGINATION_PATTERNS`` for page 1 where that setting is empty (``'{url}'``: then the
    setting is what to set), and saved where that rule says: the warning names what decides
    each, never two settings that already agree."""
    files = {
        f"content/{name}.md": post(name.title(), f"2024-0{n}-01", tags="python")
        for n, name in enumerate(("alpha", "beta"), start=1)
    }
    site = plain_repo(git_repo, files, settings)
    log = log_of(pelican_build(site))
    for text in named:
        assert text in log, text
    assert not_named not in log


# A plugin writing a second file for each article, with the article's own context.
PRINT_PLUGIN = """\
from pelican import signals


def write_prints(generator, writer):
    template = generator.env.from_string("<html><body>{{ article.title }}</body></html>")
    for article in generator.articles:
        writer.write_file(f"print/{article.save_as}", template, generator.context, article=article)
    # A "page" that is no content of Pelican's: a page number, as some plugins pass one.
    writer.write_file("numbered.html", template, generator.context, page=2, article=None)


def register():
    signals.article_writer_finalized.connect(write_prints)
"""


def test_another_file_written_with_an_articles_context_is_not_the_article(
    git_repo: GitRepo,
) -> None:
    files = {
        "content/launch.md": post("Launch", "2024-01-02"),
        "content/about.md": post("About", "2024-01-03", URL="about/", Save_as="about/index.html"),
        "plugins/prints.py": PRINT_PLUGIN,
    }
    site = plain_repo(
        git_repo,
        files,
        'PLUGIN_PATHS = ["plugins"]\nPLUGINS = ["prints", "sitemap_plugins.pelican"]\n',
        date=FIRST,
    )
    proc = pelican_build(site)
    assert (site / "output" / "print" / "launch.html").is_file()
    entries = sitemap(site)
    assert {"launch.html", "about/", "print/launch.html", "print/about/"} <= set(entries)
    assert entries["numbered.html"].lastmod is None  # listed as a file of its own
    assert entries["launch.html"].lastmod == "2024-01-02T00:00:00Z"  # the article's own date
    assert entries["about/"].lastmod == "2024-01-03T00:00:00Z"
    assert entries["print/launch.html"].lastmod is None  # a file of the plugin's: no source
    assert entries["print/about/"].lastmod is None
    assert "does not serve" not in log_of(proc)


@pytest.mark.parametrize(
    ("default_date", "shown"),
    [
        ('"fs"', "14 November 2023"),  # the file time, set below
        ("(2000, 1, 1)", "01 January 2000"),
        ('"2000-01-01"', "01 January 2000"),
    ],
    ids=["fs", "tuple", "string"],
)
def test_dates_filled_in_from_default_date_never_date_a_page(
    git_repo: GitRepo, default_date: str, shown: str
) -> None:
    files = {
        "content/undated.md": "Title: Undated\nCategory: News\nTags: solo\n\nNo date here.\n",
        "content/dated.md": post("Dated", "2024-02-02 10:00", tags="pair"),
        # FILENAME_METADATA (Pelican's default reads a date at the start of the name).
        "content/2024-03-03-named.md": "Title: Named\nCategory: News\nTags: pair\n\nNamed.\n",
        # The same, on the very day DEFAULT_DATE gives: still the author's.
        "content/2000-01-01-old.md": "Title: Old\nCategory: News\nTags: pair\n\nOld.\n",
        "content/pages/about.md": page("About"),
        "content/pages/history.md": page("History", Date="2022-06-06"),
        "content/pages/legacy.md": page("Legacy"),  # dated in the settings, for its path
    }
    settings = f"""
        import datetime
        DEFAULT_DATE = {default_date}
        EXTRA_PATH_METADATA = {{"pages/legacy.md": {{"date": datetime.datetime(2021, 5, 5)}}}}
        """
    site = plain_repo(git_repo, files, settings, date=FIRST)
    git_repo.write("content/undated.md", files["content/undated.md"] + "\nEdited.\n")
    git_repo.commit("edit undated", LATER)
    file_time = dt.datetime(2023, 11, 14, 12, tzinfo=dt.timezone.utc).timestamp()
    for source in files:
        os.utime(git_repo.path(source), (file_time, file_time))

    pelican_build(site)
    entries = sitemap(site)
    output = site / "output"
    # Pelican did fill these dates in, and shows them on the pages...
    assert shown in (output / "undated.html").read_text(encoding="utf-8")
    # ...but they are not the author's: the sitemap dates those pages by git.
    assert entries["undated.html"].lastmod == w3c(LATER)
    assert entries["pages/about.html"].lastmod == w3c(FIRST)
    # Dates the author wrote stay: in the metadata, in the file name.
    assert entries["dated.html"].lastmod == w3c(dt.datetime(2024, 2, 2, 10, tzinfo=dt.timezone.utc))
    assert entries["named.html"].lastmod == w3c(dt.datetime(2024, 3, 3, tzinfo=dt.timezone.utc))
    assert entries["old.html"].lastmod == w3c(dt.datetime(2000, 1, 1, tzinfo=dt.timezone.utc))
    assert entries["pages/history.html"].lastmod == w3c(
        dt.datetime(2022, 6, 6, tzinfo=dt.timezone.utc)
    )
    assert entries["pages/legacy.html"].lastmod == w3c(
        dt.datetime(2021, 5, 5, tzinfo=dt.timezone.utc)
    )
    # Listings take the newest of what they list, the undated article by its git date.
    assert entries[""].lastmod == w3c(LATER)
    assert entries["tag/solo.html"].lastmod == w3c(LATER)
    assert entries["category/news.html"].lastmod == w3c(LATER)
    assert entries["tag/pair.html"].lastmod == entries["named.html"].lastmod
    assert entries["archives.html"].lastmod == w3c(LATER)
    filled = ("2023-11-14", "2000-01-01")
    dated = [loc for loc, entry in entries.items() if (entry.lastmod or "")[:10] in filled]
    assert dated == ["old.html"]
