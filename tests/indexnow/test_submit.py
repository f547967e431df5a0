"""``sitemap-plugins submit`` end to end: the console script, a site served on loopback, and a
fake IndexNow endpoint that enforces the protocol (see :mod:`.servers`). Nothing leaves the
machine: every URL is on 127.0.0.1, and the endpoint is always given."""

from __future__ import annotations

import json
import re
import shutil
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_plugins.core.indexnow import masked
from sitemap_plugins.indexnow import IndexNowClient, Plan, Request, RetryPolicy, SubmitError, send
from tests.indexnow.servers import Endpoint, indexnow_endpoint, serve_folder
from tests.indexnow.sites import KEY, build, write_many
from tests.support.console_script import ENV, run

OLD = {"": "2024-05-01", "a/": "2024-05-02", "b/": "2024-05-03", "gone/": "2024-05-04"}
NEW = {"": "2024-05-01", "a/": "2024-06-02", "b/": "2024-05-03", "new/": None}


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A folder served on loopback, and its base URL."""
    folder = tmp_path / "site"
    folder.mkdir()
    with serve_folder(folder) as base_url:
        yield folder, base_url


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    with indexnow_endpoint() as served:
        yield served


def deploy_twice(site: tuple[Path, str], tmp_path: Path) -> tuple[str, Path]:
    """The previous deploy kept aside, the new one live: (new sitemap URL, previous file)."""
    folder, base = site
    previous = build(tmp_path / "previous", base, OLD, indexnow_key=KEY)
    build(folder, base, NEW, indexnow_key=KEY)
    return base + "sitemap.xml", previous


def test_only_what_changed_since_the_previous_deploy_is_sent(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    done = run("submit", sitemap, "--since", previous, "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    base = site[1]
    [document] = endpoint.accepted
    assert document["urlList"] == [base + "a/", base + "gone/", base + "new/"]
    assert document["host"] == base.split("/")[2]
    assert document["keyLocation"] == f"{base}{KEY}.txt"
    assert endpoint.key_fetches == [f"{base}{KEY}.txt"]
    assert "1 added, 1 with a new lastmod, 1 removed: 3 URLs to submit" in done.stdout
    assert done.stdout.splitlines()[-1].startswith("Submitted 3 URLs to ")
    assert KEY not in done.stdout + done.stderr


def test_the_key_comes_from_the_environment_too(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    monkeypatch.setitem(ENV, "INDEXNOW_KEY", KEY)  # the environment the script runs in
    done = run("submit", sitemap, "--since", previous, "--endpoint", endpoint.url, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [doc["key"] for doc in endpoint.accepted] == [KEY]


def test_every_url_in_batches_of_10000_through_an_index(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    folder, base = site
    sitemap = write_many(folder, base, 25_001, urls_per_file=12_000, indexnow_key=KEY)
    done = run("submit", base + sitemap.name, "--all", "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    sizes = [len(doc["urlList"]) for doc in endpoint.accepted]
    assert sizes == [10_000, 10_000, 5_001]
    sent = [url for doc in endpoint.accepted for url in doc["urlList"]]
    assert sorted(sent) == [f"{base}p/{n:06d}/" for n in range(25_001)]
    assert "25,001 URLs in 4 files" in done.stdout


def test_throttling_is_waited_out(site: tuple[Path, str], tmp_path: Path) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    with indexnow_endpoint([(429, "0"), (503, "0")]) as throttled:
        done = run("submit", sitemap, "--since", previous, "--key", KEY,
                   "--endpoint", throttled.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert throttled.answers == [429, 503, 202]
    assert "HTTP 429 Too Many Requests; trying again in 0 s (2 of 5)" in done.stdout


def test_a_key_file_that_is_not_served_stops_before_posting(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    (site[0] / f"{KEY}.txt").unlink()
    done = run("submit", sitemap, "--since", previous, "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    assert f"the key file is not served at {site[1]}{masked(KEY)}.txt (HTTP 404" in done.stdout
    assert "--key-location" in done.stdout
    assert endpoint.answers == []
    assert KEY not in done.stdout + done.stderr


def test_a_key_file_served_gzipped_is_read_uncompressed(endpoint: Endpoint, tmp_path: Path) -> None:
    """Servers that gzip text/plain (nginx ``gzip_types``, CDNs) answer the key-file check,
    which accepts gzip, with the key compressed."""
    folder = tmp_path / "site"
    folder.mkdir()
    with serve_folder(folder, gzip_text=True) as base:
        sitemap, previous = deploy_twice((folder, base), tmp_path)
        key_file = base + f"{KEY}.txt"
        request = urllib.request.Request(key_file, headers={"Accept-Encoding": "gzip"})
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=10) as answer:  # the server really gzips
            assert answer.headers["Content-Encoding"] == "gzip"
        done = run("submit", sitemap, "--since", previous, "--key", KEY,
                   "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert [len(document["urlList"]) for document in endpoint.accepted] == [3]
    assert endpoint.key_fetches == [key_file]


def test_a_key_given_to_send_unchecked_is_never_shown_in_full(
    site: tuple[Path, str], endpoint: Endpoint
) -> None:
    """The library's send() takes the key as given: a message quoting it escaped (a newline
    in a URL is refused with the URL's repr) shows it masked too."""
    key = KEY + "\n"
    base = site[1]
    found = Plan([Request(base.split("/")[2], f"{base}{key}.txt", (base,))])
    client = IndexNowClient(endpoint.url, retry=RetryPolicy(attempts=1), sleep=lambda _: None)
    sent = send(found, client, key=key, timeout=5)
    assert sent.exit_status == 1
    assert endpoint.answers == []
    [line] = sent.lines
    assert "nothing sent" in line
    assert KEY not in line


def test_a_403_from_the_endpoint_stops_with_its_cause(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    (site[0] / f"{KEY}.txt").write_text("another-key-entirely\n")
    done = run("submit", sitemap, "--since", previous, "--key", KEY, "--no-check-key",
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    assert endpoint.answers == [403]
    assert "HTTP 403 Forbidden: the key was not found at its location" in done.stdout
    assert done.stdout.splitlines()[-1] == "Stopped: 0 URLs of 3 submitted."
    assert "Traceback" not in done.stderr


def test_a_dry_run_shows_the_requests_and_sends_nothing(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    done = run("submit", sitemap, "--since", previous, "--key", KEY, "--dry-run",
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert endpoint.answers == []
    assert endpoint.key_fetches == []
    shown = done.stdout.split("not sent)\n", 1)[1].rsplit("\nDry run:", 1)[0]
    document = json.loads(shown)
    base = site[1]
    assert document["urlList"] == [base + "a/", base + "gone/", base + "new/"]
    assert document["key"] == KEY[:4] + "*" * (len(KEY) - 4)
    assert KEY not in done.stdout + done.stderr


def test_a_folder_is_read_for_the_sitemap_validate_finds_there(
    endpoint: Endpoint, tmp_path: Path
) -> None:
    """A site built with ``gzip: on`` (or ``generate --gzip on``) publishes sitemap.xml.gz
    alone: a folder stands for its sitemap.xml, else its sitemap.xml.gz, as for validate (a
    folder was read for its sitemap.xml only, and such a site could not be submitted)."""
    base = "https://example.org/"
    build(tmp_path / "site", base, NEW, gzip="on")
    build(tmp_path / "previous", base, OLD, gzip="on")
    assert not (tmp_path / "site" / "sitemap.xml").exists()
    done = run("submit", "site", "--since", "previous", "--key", KEY, "--dry-run",
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Read site: {len(NEW)} URLs in 1 file." in done.stdout
    assert "1 added, 1 with a new lastmod, 1 removed: 3 URLs to submit." in done.stdout
    assert endpoint.answers == []


def test_one_url_is_counted_in_the_singular(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    """Every count a run shows agrees with its noun: it said "1 URLs" for one URL."""
    folder, base = site
    previous = build(tmp_path / "previous", base, {"": "2024-05-01"}, indexnow_key=KEY)
    build(folder, base, {"": "2024-06-01"}, indexnow_key=KEY)
    done = run("submit", base + "sitemap.xml", "--since", previous, "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert [document["urlList"] for document in endpoint.accepted] == [[base]]
    output = done.stdout + done.stderr
    assert "1 URL " in output
    assert "1 URL accepted" in output
    assert re.findall(r"(?<![\d,])1 (?:URLs|files|entries|requests)\b", output) == []


def _urlset(path: Path, lastmods: dict[str, str]) -> Path:
    """A urlset written by hand, its URLs spelled as given (the core's writer spells each URL
    one way)."""
    body = "".join(
        f"<url><loc>{loc}</loc><lastmod>{lastmod}</lastmod></url>"
        for loc, lastmod in lastmods.items()
    )
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{body}</urlset>\n',
        "utf-8",
    )
    return path


def test_a_url_spelled_otherwise_is_the_same_url(endpoint: Endpoint, tmp_path: Path) -> None:
    """Spellings RFC 3986 makes equal (escapes in lower case, an escaped letter, the host's
    case and the scheme's default port) are one URL, as validate's E307 and the writer hold
    them: not added and removed, and never a request of their own for ``example.org:443``.
    A URL is sent as the new sitemap spells it; a removed one as the previous did, on the
    host its request names, and so is a --key-location on that host."""
    day, later = "2024-05-01", "2024-06-01"
    new = _urlset(
        tmp_path / "sitemap.xml",
        {
            "https://example.org/caf%C3%A9/": day,
            "https://example.org/e/": day,
            "https://example.org/~user/": later,
            "https://example.org/new/": day,
            "https://example.org/n%65w/": day,
        },
    )
    previous = _urlset(
        tmp_path / "previous.xml",
        {
            "https://example.org/caf%c3%a9/": day,
            "https://Example.org:443/e/": day,
            "https://example.org/%7Euser/": day,
            "HTTPS://EXAMPLE.ORG:443/gone/": day,
        },
    )
    location = f"https://Example.org:443/{KEY}.txt"
    done = run("submit", new, "--since", previous, "--key", KEY, "--dry-run",
               "--key-location", location, "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"Read {new}: 4 URLs in 1 file." in done.stdout
    assert "1 added, 1 with a new lastmod, 1 removed: 3 URLs to submit." in done.stdout
    [shown] = done.stdout.split("not sent)\n")[1:]
    document = json.loads(shown.rsplit("\nDry run:", 1)[0])
    assert document["host"] == "example.org"
    assert document["keyLocation"] == f"https://example.org/{KEY[:4]}{'*' * (len(KEY) - 4)}.txt"
    assert document["urlList"] == [
        "https://example.org/gone/",
        "https://example.org/new/",
        "https://example.org/~user/",
    ]
    assert endpoint.answers == []


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--since", "PREVIOUS"], "no key: pass --key, or set INDEXNOW_KEY"),
        (["--key", KEY], "say what to send: --since PREVIOUS"),
        (["--key", "short", "--all"], "the key (5 characters) is not an IndexNow key: 8 to 128"),
        (["--key", KEY + "\n", "--all"], f"the key ({len(KEY) + 1} characters) is not an Index"),
        (["--key", KEY, "--since", "missing.xml"], "cannot read missing.xml: no such file"),
        (["--key", KEY, "--since", "."], "cannot read .: no sitemap.xml or sitemap.xml.gz in "),
        (["--key", KEY, "--all", "--key-location", "https://elsewhere.example/k.txt"],
         "--key-location https://elsewhere.example/k.txt is not on 127.0.0.1"),
    ],
)  # fmt: skip
def test_what_cannot_be_planned_exits_2_with_one_line(
    site: tuple[Path, str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    args: list[str],
    message: str,
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    monkeypatch.delitem(ENV, "INDEXNOW_KEY", raising=False)
    args = [str(previous) if arg == "PREVIOUS" else arg for arg in args]
    done = run("submit", sitemap, *args, "--endpoint", "http://127.0.0.1:9/indexnow", cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stderr.count("\n") == 1
    assert KEY not in done.stderr


def test_a_local_index_is_followed_on_disk(
    site: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    folder, base = site
    write_many(folder, base, 30, urls_per_file=10, indexnow_key=KEY)
    copy = tmp_path / "copy"
    shutil.copytree(folder, copy)
    done = run("submit", copy / "sitemap.xml", "--all", "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert len(endpoint.accepted[0]["urlList"]) == 30


def _versions_index(folder: Path, base: str, versions: list[str]) -> Path:
    """An index over one sitemap per version folder, written by hand as the index command
    writes it: the index at the root, each child at ``VERSION/sitemap.xml``."""
    children = "".join(
        f"<sitemap><loc>{base}{version}/sitemap.xml</loc></sitemap>" for version in versions
    )
    index = folder / "sitemap.xml"
    index.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{children}'
        "</sitemapindex>\n",
        "utf-8",
    )
    return index


@pytest.mark.parametrize("versions", [["2.0"], ["en/latest", "en/1.0"]])
def test_a_local_index_of_children_in_one_sub_folder_is_followed_on_disk(
    endpoint: Endpoint, tmp_path: Path, versions: list[str]
) -> None:
    folder = tmp_path / "site"
    base = "http://127.0.0.1:9/"  # never fetched: the children are read from disk
    for version in versions:
        build(folder / version, f"{base}{version}/", {"": "2024-05-01", "a/": None})
    index = _versions_index(folder, base, versions)
    done = run("submit", index, "--all", "--key", KEY, "--dry-run",
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{2 * len(versions)} URLs in {len(versions) + 1} files" in done.stdout


def test_a_child_missing_on_disk_is_named_as_missing(endpoint: Endpoint, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    base = "https://example.org/"
    build(folder / "1.0", f"{base}1.0/", {"": "2024-05-01"})
    index = _versions_index(folder, base, ["1.0", "2.0"])
    done = run("submit", index, "--all", "--key", KEY, "--dry-run",
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.splitlines()
    assert f"cannot read {index}: lists {base}2.0/sitemap.xml, not found on disk" in line
    # 1.0/ is found where the URLs say: 2.0/ is missing, and no --base-url would find it.
    assert line.endswith(f"(looked for {folder / '2.0' / 'sitemap.xml'})")
    assert endpoint.answers == []


def test_a_base_url_naming_a_page_is_a_usage_error(endpoint: Endpoint, tmp_path: Path) -> None:
    """``--base-url https://example.org/index.html``, copied from a browser, was taken for the
    folder ``index.html/``: the index's children, not under it, were not looked for on disk.
    It exits 2 with one line naming the folder to give, and nothing is sent."""
    folder = tmp_path / "site"
    base = "https://example.org/"
    build(folder / "1.0", f"{base}1.0/", {"": "2024-05-01"})
    index = _versions_index(folder, base, ["1.0"])
    args = ("submit", index, "--all", "--key", KEY, "--dry-run", "--endpoint", endpoint.url)
    refused = run(*args, "--base-url", base + "index.html", cwd=tmp_path)
    assert refused.returncode == 2
    [error] = [line for line in refused.stderr.splitlines() if "error:" in line]
    assert error.endswith(
        f"error: argument --base-url: '{base}index.html': expected the URL of the folder the "
        f"site is served from, such as {base}; index.html is a page in it"
    )
    assert endpoint.answers == []
    done = run(*args, "--base-url", base.rstrip("/"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "Dry run: 1 URL in 1 request; nothing sent."


def test_a_relative_child_is_named_as_such(endpoint: Endpoint, tmp_path: Path) -> None:
    folder = tmp_path / "site"
    build(folder / "1.0", "https://example.org/1.0/", {"": "2024-05-01"})
    index = _versions_index(folder, "", ["1.0"])  # <loc>1.0/sitemap.xml</loc>
    done = run("submit", index, "--all", "--key", KEY, "--dry-run",
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    assert "lists '1.0/sitemap.xml', which is not an absolute http(s) URL" in done.stderr


# --------------------------------------------------------------------------------------------
# The fake endpoint is honest: it refuses what the protocol refuses (through the real client).


def post(endpoint: Endpoint, document: dict[str, object]) -> int:
    client = IndexNowClient(endpoint.url, retry=RetryPolicy(attempts=1), sleep=lambda _: None)
    return client.post(document).status


def test_the_endpoint_enforces_batch_size_key_host_and_key_file(
    site: tuple[Path, str], endpoint: Endpoint
) -> None:
    folder, base = site
    (folder / f"{KEY}.txt").write_text(KEY)
    host = base.split("/")[2]
    good = {"host": host, "key": KEY, "keyLocation": f"{base}{KEY}.txt", "urlList": [base]}
    assert post(endpoint, good) == 202
    too_many = {**good, "urlList": [f"{base}{n}" for n in range(10_001)]}
    with pytest.raises(SubmitError, match=r"^HTTP 400 Bad Request"):
        post(endpoint, too_many)
    # The reason is the server's own: Python's http.server gives 422 RFC 9110's name from 3.13.
    unprocessable = r"^HTTP 422 Unprocessable (Entity|Content): "
    with pytest.raises(SubmitError, match=unprocessable):
        post(endpoint, {**good, "key": "bad_key!"})
    with pytest.raises(SubmitError, match=unprocessable):
        post(endpoint, {**good, "urlList": ["https://elsewhere.example/"]})
    (folder / "docs").mkdir()
    (folder / "docs" / f"{KEY}.txt").write_text(KEY)
    in_docs = {**good, "keyLocation": f"{base}docs/{KEY}.txt"}
    assert post(endpoint, {**in_docs, "urlList": [f"{base}docs/a"]}) == 202
    with pytest.raises(SubmitError, match=unprocessable):  # a key file vouches for its folder
        post(endpoint, in_docs)
    with pytest.raises(SubmitError, match=r"^HTTP 403 Forbidden"):
        post(endpoint, {**good, "keyLocation": f"{base}missing.txt"})
    assert endpoint.answers == [202, 400, 422, 422, 202, 422, 403]


@pytest.mark.parametrize(
    ("which", "content", "cause"),
    [
        ("new", b"\x00\xffnot a sitemap at all", "not UTF-8"),
        ("new", b"<!doctype html><html><body>Moved</body></html>", "not well-formed XML"),
        ("previous", b"", "holds no sitemap"),
        ("previous", None, "HTTP 404"),
    ],
)
def test_a_sitemap_that_cannot_be_read_stops_before_anything_is_sent(
    site: tuple[Path, str],
    endpoint: Endpoint,
    tmp_path: Path,
    which: str,
    content: bytes | None,
    cause: str,
) -> None:
    sitemap, previous = deploy_twice(site, tmp_path)
    folder, base = site
    broken = folder / "broken.xml"
    if content is not None:
        broken.write_bytes(content)
    target = base + "broken.xml"
    pair = (target, str(previous)) if which == "new" else (sitemap, target)
    done = run("submit", pair[0], "--since", pair[1], "--key", KEY,
               "--endpoint", endpoint.url, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 2, done.stdout + done.stderr
    [line] = done.stderr.splitlines()
    assert line.startswith(f"sitemap-plugins submit: cannot read {target}: "), line
    assert cause in line
    assert endpoint.answers == []
    assert KEY not in done.stdout + done.stderr
