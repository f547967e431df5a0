"""Real pelican runs with unusual input: an internationalised host, credentials in a URL, a
percent sign in a file name, naive times, a date in the future.

Every site lives in a temporary git repository whose commits carry chosen dates; every sitemap
is checked with the shared checks (schema, protocol, read-back).
"""

from __future__ import annotations

import shutil
from urllib.parse import unquote

import pytest

from tests.pelican.helpers import log_of, page, plain_repo, post, sitemap
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.pelican

FILES = {
    "content/pages/about.md": page("About"),
    "content/first.md": post("First", "2024-01-05 10:00"),
}


def test_an_internationalised_siteurl_is_written_in_ascii(git_repo: GitRepo) -> None:
    site = plain_repo(git_repo, FILES, 'SITEURL = "https://bücher.example"\n')
    pelican_build(site)
    base = "https://xn--bcher-kva.example/"
    out = site / "output"
    entries = check_sitemap_file(out / "sitemap.xml", base + "sitemap.xml", site_dir=out)
    locs = {entry.loc for entry in entries}
    assert {base, base + "pages/about.html", base + "first.html"} <= locs
    assert all(loc.startswith(base) for loc in locs)


def test_a_base_url_option_with_credentials_is_a_config_error(git_repo: GitRepo) -> None:
    settings = 'SITEMAP = {"base_url": "https://user:s3cret@example.org/"}\n'
    site = plain_repo(git_repo, FILES, settings)
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    log = log_of(proc)
    assert "SITEMAP['base_url']" in log
    assert "'https://user:***@example.org/'" in log
    assert "without a user name or password" in log
    assert "s3cret" not in log
    assert not (site / "output" / "sitemap.xml").exists()


def test_a_siteurl_with_credentials_writes_no_sitemap(git_repo: GitRepo) -> None:
    site = plain_repo(git_repo, FILES, 'SITEURL = "https://user:s3cret@example.org"\n')
    proc = pelican_build(site)
    log = log_of(proc)
    assert "SITEURL 'https://user:***@example.org' is not usable" in log
    assert "without a user name or password" in log
    assert "s3cret" not in log
    assert not (site / "output" / "sitemap.xml").exists()


ALLOWED_HOST = "whose host is a name of letters, digits and hyphens between dots"


@pytest.mark.parametrize("siteurl", ["https://exa<mple.org", "https://example.org /blog"])
def test_a_siteurl_with_a_bad_host_writes_no_sitemap_and_strict_fails(
    git_repo: GitRepo, siteurl: str
) -> None:
    site = plain_repo(git_repo, FILES, f"SITEURL = {siteurl!r}\n")
    log = log_of(pelican_build(site))
    assert f"SITEURL {siteurl!r} is not usable" in log
    assert ALLOWED_HOST in log
    assert not (site / "output" / "sitemap.xml").exists()
    strict = plain_repo(git_repo, FILES, f'SITEURL = {siteurl!r}\nSITEMAP = {{"strict": True}}\n')
    proc = pelican_build(strict, check=False)
    assert proc.returncode == 1
    assert "no sitemap written" in log_of(proc)
    assert not (site / "output" / "sitemap.xml").exists()


def test_a_base_url_option_with_a_bad_host_is_a_config_error(git_repo: GitRepo) -> None:
    settings = 'SITEMAP = {"base_url": "https://exa<mple.org/"}\n'
    site = plain_repo(git_repo, FILES, settings)
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    log = log_of(proc)
    assert "SITEMAP['base_url']" in log
    assert "'https://exa<mple.org/'" in log
    assert ALLOWED_HOST in log
    assert not (site / "output" / "sitemap.xml").exists()


PAGE = "https://example.org/docs/index.html"
"""The home page's URL, copied from a browser: a page, not the folder the site is served from."""


def test_a_base_url_option_naming_a_page_is_a_config_error_and_a_siteurl_a_folder(
    git_repo: GitRepo,
) -> None:
    """Taken for the folder ``index.html/``, the option listed every URL under it, each one
    missing: it is refused when the plugin reads the settings, naming the folder to give
    instead. A folder stays a folder, with or without its slash, also one named ``x.html/``.
    Pelican's own ``SITEURL`` is not refused: Pelican took it for a folder too, and its pages'
    links say so."""
    site = plain_repo(git_repo, FILES, f'SITEMAP = {{"base_url": {PAGE!r}}}\n')
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    assert (
        f"invalid value for option \"SITEMAP['base_url']\": {PAGE!r} (allowed: the URL of the "
        "folder the site is served from, such as https://example.org/docs/; index.html is a "
        "page in it)"
    ) in log_of(proc)
    assert not (site / "output" / "sitemap.xml").exists()
    for base_url in ("https://example.org/docs", "https://example.org/v.html/"):
        plain_repo(git_repo, FILES, f'SITEMAP = {{"base_url": {base_url!r}}}\n')
        shutil.rmtree(site / "output", ignore_errors=True)
        pelican_build(site)
        folder = base_url.rstrip("/") + "/"
        out = site / "output"
        entries = check_sitemap_file(
            out / "sitemap.xml", folder + "sitemap.xml", site_dir=out, base_url=folder
        )
        assert {folder, folder + "pages/about.html", folder + "first.html"} <= {
            entry.loc for entry in entries
        }

    plain_repo(git_repo, FILES, f"SITEURL = {PAGE!r}\n")
    shutil.rmtree(site / "output", ignore_errors=True)
    pelican_build(site)
    folder = PAGE + "/"
    out = site / "output"
    assert f'href="{folder}first.html"' in (out / "index.html").read_text(encoding="utf-8")
    entries = check_sitemap_file(
        out / "sitemap.xml", folder + "sitemap.xml", site_dir=out, base_url=folder
    )
    assert {folder, folder + "pages/about.html", folder + "first.html"} <= {
        entry.loc for entry in entries
    }


def test_a_percent_in_a_file_name_is_a_percent_sign(git_repo: GitRepo) -> None:
    """Pelican's URLs are the paths it saves to: a slug a%20b is the file a%20b.html."""
    files = {
        **FILES,
        "content/spaced.md": post("Spaced", "2024-01-06 10:00", Slug="a%20b"),
        "content/pure.md": post("Pure", "2024-01-07 10:00", Slug="100%-pure"),
    }
    site = plain_repo(git_repo, files)
    pelican_build(site)
    entries = sitemap(site)
    assert {"a%2520b.html", "100%25-pure.html"} <= set(entries)
    for path in ("a%2520b.html", "100%25-pure.html"):
        assert (site / "output" / unquote(path)).is_file(), path


def test_naive_sitemap_lastmod_is_read_in_the_site_timezone(git_repo: GitRepo) -> None:
    """As Pelican reads Date and Modified: 10:00 in Paris in May is 08:00 UTC."""
    files = {
        "content/pages/naive.md": page("Naive", Sitemap='{"lastmod": "2024-05-01T10:00"}'),
        "content/pages/zoned.md": page("Zoned", Sitemap='{"lastmod": "2024-05-01T10:00Z"}'),
        "content/pages/day.md": page("Day", Sitemap='{"lastmod": "2024-05-01"}'),
    }
    site = plain_repo(git_repo, files, 'TIMEZONE = "Europe/Paris"\n')
    pelican_build(site)
    entries = sitemap(site)
    assert entries["pages/naive.html"].lastmod == "2024-05-01T10:00:00+02:00"
    assert entries["pages/zoned.html"].lastmod == "2024-05-01T10:00:00Z"
    assert entries["pages/day.html"].lastmod == "2024-05-01"


def test_a_future_modified_is_a_warning_and_listings_count_the_date_its_page_gets(
    git_repo: GitRepo,
) -> None:
    """The refused date does not spread to the listings, and the listings are not older than
    the page either: they count it by the date git gives its page."""
    files = {
        "content/first.md": post("First", "2024-01-05 10:00", tags="a"),
        "content/second.md": post("Second", "2024-01-06 10:00", tags="a", Modified="2099-01-01"),
    }
    site = plain_repo(git_repo, files, date="2024-03-01T12:00:00+00:00")
    proc = pelican_build(site)
    warning = "content/second.md: lastmod 2099-01-01T00:00:00Z (from metadata) is in the future"
    assert warning in log_of(proc)
    entries = sitemap(site)
    assert entries["second.html"].lastmod == "2024-03-01T12:00:00Z"  # git still knows
    assert entries["first.html"].lastmod == "2024-01-05T10:00:00Z"
    for listing in ("", "tag/a.html", "category/news.html", "archives.html"):
        assert entries[listing].lastmod == entries["second.html"].lastmod, listing
    strict = plain_repo(git_repo, files, 'SITEMAP = {"strict": True}\n')
    proc = pelican_build(strict, check=False)
    assert proc.returncode == 1
    assert "no sitemap written" in log_of(proc)
