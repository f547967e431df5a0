"""``sitemap-plugins submit`` for a site served from a folder (a GitHub Pages project site at
``/repo/``, a ``/docs/`` site): the key file is where ``--indexnow-key`` writes it, beside the
sitemap in that folder, and IndexNow takes it there when ``keyLocation`` names it, for the URLs
under that folder alone.

The site is a real ``generate`` run over pages committed to a real git repository, deployed
under ``/project/`` of a server on loopback; the fake endpoint of :mod:`.servers` holds each
request to the protocol, a key file in a folder vouching for that folder only."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from sitemap_plugins.core.indexnow import masked
from tests.indexnow.servers import Endpoint, indexnow_endpoint, serve_folder
from tests.indexnow.sites import KEY
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo

PAGE = "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{0}</title></head>\n" \
       "<body><h1>{0}</h1></body></html>\n"  # fmt: skip


@pytest.fixture
def endpoint() -> Iterator[Endpoint]:
    with indexnow_endpoint() as served:
        yield served


@pytest.fixture
def project(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A project site built by ``generate --indexnow-key`` for ``BASE/project/`` and deployed
    there: the served folder, and the server's base URL (the host's root)."""
    www = tmp_path / "www"
    www.mkdir()
    with serve_folder(www) as base:
        repo = GitRepo(tmp_path / "proj")
        repo.write("site/index.html", PAGE.format("Home"))
        repo.write("site/a/index.html", PAGE.format("A"))
        repo.commit("Pages", "2024-03-01T10:00:00+00:00")
        built = run("generate", "site", "--base-url", base + "project/", "--indexnow-key", KEY,
                    cwd=repo.root)  # fmt: skip
        assert built.returncode == 0, built.stdout + built.stderr
        assert (repo.root / "site" / f"{KEY}.txt").is_file()
        shutil.copytree(repo.root / "site", www / "project")  # the deploy
        yield www, base


def submit(*args: str, endpoint: Endpoint, cwd: Path) -> tuple[int, str]:
    done = run("submit", *args, "--key", KEY, "--endpoint", endpoint.url, cwd=cwd)
    assert "Traceback" not in done.stderr
    assert KEY not in done.stdout + done.stderr
    return done.returncode, done.stdout + done.stderr


@pytest.mark.parametrize("where", ["built folder", "served URL"])
def test_the_key_file_is_found_in_the_sites_folder_and_named_in_the_request(
    project: tuple[Path, str], endpoint: Endpoint, tmp_path: Path, where: str
) -> None:
    base = project[1]
    site = base + "project/"
    sitemap = "proj/site/sitemap.xml" if where == "built folder" else site + "sitemap.xml"
    status, output = submit(sitemap, "--all", "--dry-run", endpoint=endpoint, cwd=tmp_path)
    assert status == 0, output
    request, further = (
        output.split("not sent)\n", 1)[1].rsplit("\nDry run:", 1)[0].split("\n(keyLocation: ", 1)
    )
    shown = json.loads(request)
    assert shown["keyLocation"] == f"{site}{masked(KEY)}.txt"
    # Not looked for by a dry run: the site may not be deployed yet. Where else a real run
    # looks is said, so that what it names is never a surprise.
    assert further == (
        f"where the key file is served, checked when sent: there, else {base}{masked(KEY)}.txt)"
    )
    status, output = submit(sitemap, "--all", endpoint=endpoint, cwd=tmp_path)
    assert status == 0, output
    [document] = endpoint.accepted
    assert document["keyLocation"] == f"{site}{KEY}.txt"
    assert sorted(document["urlList"]) == [site, site + "a/"]
    assert endpoint.key_fetches == [f"{site}{KEY}.txt"]


def test_where_no_key_file_is_served_every_place_tried_is_named(
    project: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    """The site's folder, then each parent up to the host's root, where a key file vouches for
    the whole host (one put there by hand is found, and named in the request)."""
    www, base = project
    (www / "project" / f"{KEY}.txt").unlink()
    status, output = submit("proj/site", "--all", endpoint=endpoint, cwd=tmp_path)
    assert status == 1
    shown = f"{masked(KEY)}.txt"
    assert (
        f"the key file is not served at {base}project/{shown} (HTTP 404 File not found), "
        f"nor at {base}{shown} (HTTP 404 File not found): "
    ) in output
    assert "--key-location" in output
    assert endpoint.answers == []
    (www / f"{KEY}.txt").write_text(KEY + "\n", "ascii")
    status, output = submit("proj/site", "--all", endpoint=endpoint, cwd=tmp_path)
    assert status == 0, output
    assert [document["keyLocation"] for document in endpoint.accepted] == [f"{base}{KEY}.txt"]
    status, output = submit("proj/site", "--all", "--dry-run", endpoint=endpoint, cwd=tmp_path)
    assert status == 0, output
    assert f"checked when sent: there, else {base}{shown})" in output  # where it was found
    status, output = submit(
        "proj/site", "--all", "--dry-run", "--no-check-key", endpoint=endpoint, cwd=tmp_path
    )
    assert status == 0, output
    assert "checked when sent" not in output  # --no-check-key names the first place alone


def test_a_key_location_whose_folder_does_not_hold_every_url_is_refused(
    project: tuple[Path, str], endpoint: Endpoint, tmp_path: Path
) -> None:
    www, base = project
    shutil.copy(www / "project" / f"{KEY}.txt", www / "project" / "a" / f"{KEY}.txt")
    location = f"{base}project/a/{KEY}.txt"
    status, output = submit("proj/site", "--all", "--key-location", location,
                            endpoint=endpoint, cwd=tmp_path)  # fmt: skip
    assert status == 2
    assert output == (
        f"sitemap-plugins submit: --key-location {base}project/a/{masked(KEY)}.txt is in "
        f"/project/a/, which does not hold 1 URL to submit, such as {base}project/: a key file "
        "vouches only for the URLs under its folder (at the host's root, for all of them)\n"
    )
    assert endpoint.answers == []
