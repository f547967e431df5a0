"""Real sphinx-build runs with unusual input: an internationalised host, credentials in a URL, a
percent sign in a file name, a lastmod in the future or with a fraction of a second.

Every project lives in a temporary git repository whose commits carry chosen dates; every
sitemap is checked with the shared checks (schema, protocol, read-back).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.sphinx.helpers import (
    BASE_CONF,
    BASE_URL,
    canonical_link,
    page,
    read_entries,
    write_project,
)
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build

pytestmark = pytest.mark.sphinx

PAGES = {"guide.rst": page("Guide"), "café.rst": page("Café")}
DATE = "2024-03-01T12:00:00+00:00"


def _project(git_repo: GitRepo, conf: str = BASE_CONF, pages: dict[str, str] = PAGES) -> Path:
    srcdir = write_project(git_repo, pages, conf=conf)
    git_repo.commit("project", DATE)
    return srcdir


def test_an_internationalised_html_baseurl_is_written_in_ascii(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    conf = BASE_CONF.replace("https://example.org/", "https://bücher.example/docs/")
    srcdir = _project(git_repo, conf)
    sphinx_build(srcdir, tmp_path / "out", "-W")
    base = "https://xn--bcher-kva.example/docs/"
    entries = read_entries(tmp_path / "out", base_url=base)
    assert set(entries) == {base, base + "guide/", base + "caf%C3%A9/"}


@pytest.mark.parametrize(
    ("value", "shown", "allowed"),
    [
        ("https://user:s3cret@example.org/", "https://user:***@example.org/",
         "without a user name or password"),
        ("https://example.org /docs/", "https://example.org /docs/",
         "whose host is a name of letters, digits and hyphens between dots, an IPv4 address or "
         "an IPv6 address in brackets"),
    ],
    ids=["credentials", "bad host"],
)  # fmt: skip
def test_an_unusable_base_url_option_is_a_config_error(
    git_repo: GitRepo, tmp_path: Path, value: str, shown: str, allowed: str
) -> None:
    """Named with its value (a password masked) and what is allowed; no sitemap is written."""
    srcdir = _project(git_repo, BASE_CONF + f"sitemap_base_url = {value!r}\n")
    result = sphinx_build(srcdir, tmp_path / "out", check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert (
        f"invalid value for option 'sitemap_base_url': {shown!r} (allowed: an absolute "
        f"http(s) URL such as https://example.org/docs/, {allowed})"
    ) in output
    assert "s3cret" not in output
    assert not (tmp_path / "out" / "sitemap.xml").exists()


PAGE = "https://example.org/docs/index.html"
"""The home page's URL, copied from a browser: a page, not the folder the site is served from."""


def test_a_base_url_option_naming_a_page_is_a_config_error_and_html_baseurl_a_folder(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Taken for the folder ``index.html/``, the option listed every URL under it, each one
    missing: it is refused when Sphinx reads conf.py, naming the folder to give instead. A
    folder stays a folder, with or without its slash, also one named ``x.html/``. conf.py's
    own ``html_baseurl`` (and sphinx-sitemap's ``site_url``) is not refused: Sphinx took it
    for a folder too, and its pages' canonical links say so."""
    srcdir = _project(git_repo, BASE_CONF + f"sitemap_base_url = {PAGE!r}\n")
    refused = sphinx_build(srcdir, tmp_path / "refused", check=False)
    assert refused.returncode != 0
    assert (
        f"invalid value for option 'sitemap_base_url': {PAGE!r} (allowed: the URL of the "
        "folder the site is served from, such as https://example.org/docs/; index.html is a "
        "page in it)"
    ) in refused.stdout + refused.stderr
    assert not (tmp_path / "refused" / "sitemap.xml").exists()
    for number, base_url in enumerate(["https://example.org/docs", "https://example.org/v.html/"]):
        srcdir = _project(git_repo, BASE_CONF + f"sitemap_base_url = {base_url!r}\n")
        outdir = tmp_path / f"folder-{number}"
        sphinx_build(srcdir, outdir, "-W")
        folder = base_url.rstrip("/") + "/"
        assert set(read_entries(outdir, base_url=folder)) == {
            folder,
            folder + "guide/",
            folder + "caf%C3%A9/",
        }

    folder = PAGE + "/"
    for setting in ("html_baseurl", "site_url"):
        srcdir = _project(git_repo, BASE_CONF + f"{setting} = {PAGE!r}\n")
        outdir = tmp_path / setting
        sphinx_build(srcdir, outdir, "-W")
        assert set(read_entries(outdir, base_url=folder)) == {
            folder,
            folder + "guide/",
            folder + "caf%C3%A9/",
        }
    # guide/, or guide.html where dirhtml names pages so (Sphinx issue 9730, Sphinx 7).
    assert canonical_link(tmp_path / "html_baseurl" / "guide" / "index.html").startswith(folder)


def test_an_html_baseurl_with_credentials_writes_no_sitemap(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    conf = BASE_CONF.replace("https://example.org/", "https://user:s3cret@example.org/")
    srcdir = _project(git_repo, conf)
    result = sphinx_build(srcdir, tmp_path / "out")
    output = result.stdout + result.stderr
    assert "html_baseurl 'https://user:***@example.org/' is not usable" in output
    assert "without a user name or password" in output
    assert "s3cret" not in output
    assert not (tmp_path / "out" / "sitemap.xml").exists()


@pytest.mark.parametrize(
    ("builder", "paths", "served"),
    [
        ("dirhtml", ["a%2520b/", "100%25/"], "{}index.html"),
        ("html", ["a%2520b.html", "100%25.html"], "{}"),
    ],
)
def test_a_percent_in_a_file_name_is_a_percent_sign(
    git_repo: GitRepo, tmp_path: Path, builder: str, paths: list[str], served: str
) -> None:
    """dirhtml links documents by their raw names, html quotes them: the same URLs either way."""
    pages = {**PAGES, "a%20b.rst": page("A file named a%20b"), "100%.rst": page("Percent")}
    srcdir = _project(git_repo, pages=pages)
    outdir = tmp_path / builder
    sphinx_build(srcdir, outdir, "-W", builder=builder)
    entries = read_entries(outdir)
    assert {BASE_URL + path for path in paths} <= set(entries)
    for path in paths:
        assert (outdir / served.format(unquote(path))).is_file(), path


def test_a_lastmod_in_the_future_is_a_warning_and_w_fails(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    future = page("Future", fields=':sitemap: {"lastmod": "2099-01-01"}')
    srcdir = _project(git_repo, pages={**PAGES, "future.rst": future})
    result = sphinx_build(srcdir, tmp_path / "out")
    entries = read_entries(tmp_path / "out")
    assert entries[BASE_URL + "future/"].lastmod == "2024-03-01T12:00:00Z"  # git still knows
    warning = "future.rst: lastmod 2099-01-01 (from metadata) is in the future; not written"
    assert f"WARNING: {warning}" in result.stdout + result.stderr
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", check=False)
    assert strict.returncode != 0
    assert warning in strict.stdout + strict.stderr


def test_a_timestamp_with_any_fraction_dates_the_page_and_an_offset_without_colon_warns(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The same field list gives the same dates on every Python: a fraction of one or two
    digits is read (Python 3.10's own reader refused it), ``+0200`` is not W3C Datetime on any
    Python (3.11's reader took it) and is named in a warning."""
    declared = {
        "half.rst": "2024-05-01T10:00:00.5+02:00",
        "hundredths.rst": "2024-05-02T10:00:00.12Z",
        "offset.rst": "2024-05-03T10:00:00+0200",
    }
    pages = {
        name: page(name.removesuffix(".rst").title(), fields=f':sitemap: {{"lastmod": "{value}"}}')
        for name, value in declared.items()
    }
    srcdir = _project(git_repo, pages=pages)
    result = sphinx_build(srcdir, tmp_path / "out")
    entries = read_entries(tmp_path / "out")

    def written(name: str) -> dt.datetime:
        text = entries[BASE_URL + name.removesuffix(".rst") + "/"].lastmod
        assert text is not None
        return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))

    plus_2 = dt.timezone(dt.timedelta(hours=2))
    # Written in whole seconds, as every timestamp is.
    assert written("half.rst") == dt.datetime(2024, 5, 1, 10, tzinfo=plus_2)
    assert written("half.rst").utcoffset() == dt.timedelta(hours=2)
    assert written("hundredths.rst") == dt.datetime(2024, 5, 2, 10, tzinfo=dt.timezone.utc)
    assert written("offset.rst") == dt.datetime.fromisoformat(DATE)  # git's date instead
    output = result.stdout + result.stderr
    assert "offset.rst: sitemap.lastmod '2024-05-03T10:00:00+0200' is not a date" in output
    assert output.count("WARNING") == 1
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", check=False)
    assert strict.returncode != 0
