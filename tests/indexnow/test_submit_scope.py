"""``sitemap-plugins submit`` sends only the URLs a sitemap may list: those under its own folder
on its own scheme and host (the protocol's scope, ``validate``'s E305). A sitemap that lists
another host's URLs, or another folder's, must not get them submitted in the site's name.

The console script, a site served on loopback and the fake endpoint of :mod:`.servers`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.indexnow.servers import Endpoint, indexnow_endpoint, serve_folder, serve_redirect
from tests.indexnow.sites import KEY
from tests.support.console_script import run


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    with indexnow_endpoint() as served:
        yield served


@pytest.fixture
def www(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served on loopback with the key file at its root, and its URL."""
    folder = tmp_path / "www"
    folder.mkdir()
    (folder / f"{KEY}.txt").write_text(KEY + "\n", "ascii")
    with serve_folder(folder) as base:
        yield folder, base


def urlset(path: Path, locs: list[str]) -> Path:
    """A urlset written by hand: a sitemap someone edited, or one listing what it may not."""
    path.parent.mkdir(parents=True, exist_ok=True)
    body = "".join(f"<url><loc>{loc}</loc></url>" for loc in locs)
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>\n',
        "utf-8",
    )
    return path


def sitemap_index(path: Path, locs: list[str]) -> Path:
    """A sitemap index written by hand, listing ``locs``."""
    body = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</sitemapindex>\n',
        "utf-8",
    )
    return path


def other_host(base: str) -> str:
    """The same server by another name: ``http://localhost:PORT/``, another host to IndexNow."""
    return base.replace("//127.0.0.1:", "//localhost:")


@pytest.mark.parametrize("how", ["sent", "--no-check-key", "--dry-run"])
def test_urls_of_another_host_are_left_out_with_one_line(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path, how: str
) -> None:
    folder, base = www
    others = [other_host(base) + "b", "https://evil.example/c"]
    urlset(folder / "sitemap.xml", [base + "a", *others])
    options = [] if how == "sent" else [how]
    done = run("submit", base + "sitemap.xml", "--all", "--key", KEY, *options,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    left_out = [line for line in done.stdout.splitlines() if line.startswith("Left out")]
    assert left_out == [
        f"Left out 2 URLs outside the folder and host its sitemap may list (validate's E305), "
        f"such as {others[0]}, not under {base}."
    ]
    assert "localhost" not in done.stdout.replace(left_out[0], "")
    assert "evil.example" not in done.stdout + done.stderr
    if how == "--dry-run":
        assert endpoint.answers == []
        assert done.stdout.count("not sent)") == 1
        assert done.stdout.splitlines()[-1] == "Dry run: 1 URL in 1 request; nothing sent."
    else:
        assert [doc["urlList"] for doc in endpoint.accepted] == [[base + "a"]]
        assert endpoint.answers == [202]


@pytest.mark.parametrize("how", ["sent", "--dry-run"])
def test_a_sitemap_url_that_redirects_lists_the_urls_of_where_it_is_served(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path, how: str
) -> None:
    """``submit https://example.org/sitemap.xml`` where the site answers from
    ``www.example.org`` (or ``http`` from ``https``): the sitemap lists the URLs of the host
    that served it. Taken for another host's, every one was left out and nothing was sent,
    with exit status 0."""
    folder, base = www
    urlset(folder / "sitemap.xml", [base, base + "a"])
    with serve_redirect(base) as apex:
        assert apex != base
        options = [] if how == "sent" else [how]
        done = run("submit", apex + "sitemap.xml", "--all", "--key", KEY, *options,
                   "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Left out" not in done.stdout
    if how == "--dry-run":
        assert endpoint.answers == []
        assert f'"keyLocation": "{base}' in done.stdout
        assert done.stdout.splitlines()[-1] == "Dry run: 2 URLs in 1 request; nothing sent."
    else:
        assert [doc["urlList"] for doc in endpoint.accepted] == [[base, base + "a"]]
        assert endpoint.accepted[0]["keyLocation"] == f"{base}{KEY}.txt"


def test_a_sitemap_index_url_that_redirects_has_its_children_read_where_it_answered(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    """An index at ``example.org`` answered from ``www.example.org`` lists its children there:
    they were refused as another host's, and the run stopped with exit status 2."""
    folder, base = www
    urlset(folder / "sitemap-1.xml", [base, base + "a"])
    sitemap_index(folder / "sitemap.xml", [base + "sitemap-1.xml"])
    with serve_redirect(base) as apex:
        done = run("submit", apex + "sitemap.xml", "--all", "--key", KEY,
                   "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[0] == f"Read {apex}sitemap.xml: 2 URLs in 2 files."
    assert [doc["urlList"] for doc in endpoint.accepted] == [[base, base + "a"]]


def test_an_index_kept_on_a_storage_host_may_list_children_on_the_host_named(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    """The site's ``/sitemap.xml`` sent on to a storage host (a CDN, a bucket), whose index
    lists children on the site's own host, the one the user named: that host was called
    "another host", and the run stopped with exit status 2."""
    storage, store = www
    site = tmp_path / "site"
    site.mkdir()
    (site / f"{KEY}.txt").write_text(KEY + "\n", "ascii")
    only = {"/sitemap.xml": store + "sitemap.xml"}
    with serve_redirect(store, only=only, folder=site) as own:
        urlset(site / "s1.xml", [own, own + "a"])
        sitemap_index(storage / "sitemap.xml", [own + "s1.xml"])
        done = run("submit", own + "sitemap.xml", "--all", "--key", KEY,
                   "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert [doc["urlList"] for doc in endpoint.accepted] == [[own, own + "a"]]
    assert endpoint.accepted[0]["keyLocation"] == f"{own}{KEY}.txt"


def test_a_local_sitemap_keeps_to_its_base_url_or_its_first_urls_host(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    """On disk a sitemap has no URL: ``--base-url`` gives its folder's, else its first URL's
    host is the one it lists (as ``validate`` takes it for E306)."""
    base = www[1]
    sitemap = urlset(tmp_path / "site" / "sitemap.xml", [base + "a", other_host(base) + "b"])
    for options in ([], ["--base-url", base]):
        endpoint.accepted.clear()
        done = run("submit", sitemap, "--all", "--key", KEY, *options,
                   "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert [doc["urlList"] for doc in endpoint.accepted] == [[base + "a"]]
        assert f"such as {other_host(base)}b, not under {base}." in done.stdout


def test_a_sitemap_in_a_folder_lists_only_that_folder(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    """``/docs/sitemap.xml`` may list ``/docs/...`` only: ``/admin`` and ``/docs/../admin``
    (the same URL, as a server resolves it) are left out, and so are they when the sitemap
    read on disk has ``--base-url`` for its folder."""
    folder, base = www
    docs = base + "docs/"
    outside = [base + "admin", docs + "%2e%2e/admin"]
    urlset(folder / "docs" / "sitemap.xml", [docs, docs + "a", *outside])
    for sitemap, options in ((docs + "sitemap.xml", []),
                             (folder / "docs" / "sitemap.xml", ["--base-url", docs])):  # fmt: skip
        endpoint.accepted.clear()
        done = run("submit", sitemap, "--all", "--key", KEY, *options,
                   "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
        assert done.returncode == 0, done.stdout + done.stderr
        assert [doc["urlList"] for doc in endpoint.accepted] == [[docs, docs + "a"]]
        assert "Left out 2 URLs outside the folder and host its sitemap may list " in done.stdout
        assert f"such as {base}admin, not under {docs}." in done.stdout


def test_a_previous_sitemaps_urls_of_another_host_are_not_sent_as_removed(
    www: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    folder, base = www
    urlset(folder / "sitemap.xml", [base + "a"])
    previous = urlset(tmp_path / "previous.xml", [base + "a", other_host(base) + "gone"])
    done = run("submit", base + "sitemap.xml", "--since", previous, "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 removed: 0 URLs to submit." in done.stdout
    assert "Left out 1 URL outside the folder and host its sitemap may list " in done.stdout
    assert endpoint.answers == []
