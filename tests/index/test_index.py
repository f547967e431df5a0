"""``sitemap-plugins index`` on folders of builds made by the core (no host needed): what is
listed, what is refused and why, what is never replaced, and what the console script says.
Every index written is checked with the suite's sitemap checks (XSD, protocol, validate)."""

from __future__ import annotations

import json
import os
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from sitemap_plugins.index import INDEX_RECORD, IndexResult, Level, build_index
from tests.indexnow.sites import build, write_many
from tests.support.console_script import run, run_on_a_terminal
from tests.support.sitemap_checks import SITEMAP_NS as SM
from tests.support.sitemap_checks import check_sitemap_file

BASE = "https://example.org/"
V1 = {"": "2024-01-10", "guide/": "2024-02-11T09:00:00+00:00"}
V2 = {"": "2024-03-10", "guide/": "2024-04-11T09:00:00+02:00", "new/": None}


def versions(root: Path, *, alias: str = "symlink", canonical: str | None = None) -> Path:
    """mike's layout: 1.0/ and 2.0/, latest/ an alias of 2.0, versions.json."""
    for name, pages in (("1.0", V1), ("2.0", V2)):
        build(root / name, f"{BASE}{canonical or name}/", pages)
    if alias == "symlink":
        (root / "latest").symlink_to("2.0")
    else:
        shutil.copytree(root / "2.0", root / "latest")
    listed = [{"version": "2.0", "title": "2.0", "aliases": ["latest"]},
              {"version": "1.0", "title": "1.0", "aliases": []}]  # fmt: skip
    (root / "versions.json").write_text(json.dumps(listed))
    return root


def checked(root: Path, name: str = "sitemap.xml") -> dict[str, str | None]:
    """Every check on the index and its children, then its entries (loc -> lastmod).

    Read with ElementTree after the checks: the suite's ``read_index`` finds children on disk
    without a base URL, which an index of one child in a subfolder defeats.
    """
    path = root / name
    check_sitemap_file(path, BASE + name, site_dir=root, base_url=BASE)
    tree = ET.parse(path).getroot()
    assert tree.tag == f"{{{SM}}}sitemapindex"
    return {
        child.findtext(f"{{{SM}}}loc", ""): child.findtext(f"{{{SM}}}lastmod") for child in tree
    }


def messages(result: object, level: Level) -> list[str]:
    return [f"{n.source}: {n.message}" for n in result.notes if n.level is level]  # type: ignore[attr-defined]


@pytest.mark.parametrize("alias", ["symlink", "copy"])
def test_mike_versions_are_listed_once_each_with_their_newest_lastmod(
    tmp_path: Path, alias: str
) -> None:
    root = versions(tmp_path / "site", alias=alias)
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 0, result.notes
    assert checked(root) == {
        f"{BASE}1.0/sitemap.xml": "2024-02-11T09:00:00Z",
        f"{BASE}2.0/sitemap.xml": "2024-04-11T09:00:00+02:00",
    }
    [alias_line] = [m for m in messages(result, Level.INFO) if "latest" in m.split(":")[0]]
    assert "latest is an alias of 2.0; listed once, as 2.0/sitemap.xml" in alias_line
    assert (root / "robots.txt").read_text() == f"Sitemap: {BASE}sitemap.xml\n"
    assert json.loads((root / INDEX_RECORD).read_text())["files"].keys() == {"sitemap.xml"}


def test_with_a_canonical_version_the_alias_folder_is_the_one_listed(tmp_path: Path) -> None:
    # mike's canonical_version: every version's URLs are under /latest/; only the folder those
    # URLs belong to can list them, so the alias is listed and the versions are refused.
    root = versions(tmp_path / "site", canonical="latest")
    result = build_index(root, base_url=BASE)
    assert set(checked(root)) == {f"{BASE}latest/sitemap.xml"}
    refused = messages(result, Level.ERROR)
    assert any(
        m.endswith(
            "refused, not listed: its URLs are not under https://example.org/1.0/, the folder "
            "it is served from (it lists https://example.org/latest/): it was built for another "
            "base URL; build it with https://example.org/1.0/ as its site URL (mike sets it "
            "from site_url by itself)"
        )
        for m in refused
    ), refused
    assert result.exit_status == 1
    assert result.refused == 1  # 1.0; 2.0 is the same file as latest/


def test_a_versions_json_of_another_tool_is_set_aside_and_the_builds_indexed(
    tmp_path: Path,
) -> None:
    """sphinx-polyversion writes a ``versions.json`` of its own beside its builds: it is no
    mike's list, damaged or not, so the builds are indexed as folders, with one info line;
    named with ``--versions``, it is refused as before."""
    root = tmp_path / "site"
    for name, pages in (("v1.0", V1), ("main", V2)):
        build(root / name, f"{BASE}{name}/", pages)
    revision = ["main", "d03e19aafcbcb30eaa3d3c4761eb35af0802ec38", "refs/heads/main"]
    theirs = [{"__jsonclass__": ["sphinx_polyversion.git.GitRef", revision]}]
    (root / "versions.json").write_text(json.dumps(theirs))
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 0, result.notes
    assert checked(root) == {
        f"{BASE}main/sitemap.xml": "2024-04-11T09:00:00+02:00",
        f"{BASE}v1.0/sitemap.xml": "2024-02-11T09:00:00Z",
    }
    [line] = [m for m in messages(result, Level.INFO) if m.startswith(str(root / "versions.json"))]
    assert "another tool's file, so not read for versions" in line
    named = build_index(root, base_url=BASE, versions=root / "versions.json")
    assert named.exit_status == 2
    # A list of mike's with a broken entry is mike's, damaged: refused, found or named.
    (root / "versions.json").write_text(json.dumps([{"version": "main", "aliases": "latest"}]))
    assert build_index(root, base_url=BASE).exit_status == 2


def test_a_build_made_for_another_base_url_is_refused_and_the_rest_indexed(
    tmp_path: Path,
) -> None:
    root = tmp_path / "site"
    build(root / "1.0", BASE, V1)  # built without the version in its URL
    build(root / "2.0", f"{BASE}2.0/", V2)
    result = build_index(root, base_url=BASE, robots_txt=False)
    assert result.exit_status == 1
    assert set(checked(root)) == {f"{BASE}2.0/sitemap.xml"}
    errors = messages(result, Level.ERROR)
    assert any(": E305: https://example.org/guide/ is outside https://example.org/1.0/" in m
               for m in errors), errors  # fmt: skip
    assert not (root / "robots.txt").exists()


@pytest.mark.parametrize("dots", ["..", "%2e%2e"])
def test_a_build_whose_urls_climb_out_by_dot_segments_is_refused(tmp_path: Path, dots: str) -> None:
    root = tmp_path / "site"
    build(root / "1.0", f"{BASE}1.0/", V1)
    climbing = root / "2.0" / "sitemap.xml"
    climbing.parent.mkdir()
    climbing.write_text(
        f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SM}">\n'
        f"<url><loc>{BASE}2.0/</loc></url>\n<url><loc>{BASE}2.0/{dots}/admin/</loc></url>\n"
        "</urlset>\n"
    )
    result = build_index(root, base_url=BASE, robots_txt=False)
    assert result.exit_status == 1
    assert set(checked(root)) == {f"{BASE}1.0/sitemap.xml"}
    errors = messages(result, Level.ERROR)
    said = f"{climbing}:4: E305: {BASE}2.0/{dots}/admin/ (its dot segments resolved: {BASE}admin/)"
    assert any(m.startswith(f"{said} is outside {BASE}2.0/") for m in errors), errors
    assert errors[-1] == (
        f"{climbing}: refused, not listed: its URLs are not under {BASE}2.0/, the folder it is "
        f"served from (it lists {BASE}2.0/{dots}/admin/, whose dot segments lead out of it)"
    )


def test_a_split_build_is_flattened_each_part_dated_by_its_own_newest(tmp_path: Path) -> None:
    root = tmp_path / "site"
    build(root / "1.0", f"{BASE}1.0/", V1)
    index = write_many(root / "2.0", f"{BASE}2.0/", 25, urls_per_file=10)
    assert index.name == "sitemap.xml"
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 0, result.notes
    listed = checked(root)
    parts = sorted(loc for loc in listed if "/2.0/" in loc)
    assert len(parts) == 3
    assert all("/2.0/sitemap-" in loc for loc in parts)
    # write_many dates URL n at 2024-05-01 + n minutes: parts end at 9, 19 and 24 minutes.
    assert [listed[loc] for loc in parts] == [
        "2024-05-01T00:09:00Z", "2024-05-01T00:19:00Z", "2024-05-01T00:24:00Z"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("only", "exclude", "listed"),
    [
        (["latest"], [], ["2.0"]),
        (["1.*"], [], ["1.0"]),
        ([], ["2.0"], ["1.0"]),
    ],
)
def test_only_and_exclude_choose_versions_by_name_alias_or_glob(
    tmp_path: Path, only: list[str], exclude: list[str], listed: list[str]
) -> None:
    root = versions(tmp_path / "site")
    result = build_index(root, base_url=BASE, only=only, exclude=exclude)
    assert result.exit_status == 0, result.notes
    assert sorted(checked(root)) == [f"{BASE}{name}/sitemap.xml" for name in listed]


def test_only_that_matches_nothing_writes_nothing(tmp_path: Path) -> None:
    root = versions(tmp_path / "site")
    result = build_index(root, base_url=BASE, only=["stable"])
    assert result.exit_status == 2
    assert messages(result, Level.FATAL) == [
        "--only: 'stable' matches no version or folder (found: 1.0, 2.0, latest); nothing written"
    ]
    assert not (root / "sitemap.xml").exists()


def test_the_sites_own_sitemap_is_never_replaced(tmp_path: Path) -> None:
    root = tmp_path / "site"
    # The latest version at the root (its pages sort after 1.0/, as the suite's checks want).
    build(root, BASE, {"about/": "2024-05-01", "welcome/": None})
    build(root / "1.0", f"{BASE}1.0/", V1)
    before = (root / "sitemap.xml").read_bytes()
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 2
    assert messages(result, Level.FATAL) == [
        f"{root / 'sitemap.xml'}: is the site's own sitemap (2 URLs), not an index; not "
        "replaced: name the index with --output (for example sitemap-index.xml)"
    ]
    assert (root / "sitemap.xml").read_bytes() == before
    result = build_index(root, base_url=BASE, names=["sitemap.xml", "1.0/sitemap.xml"],
                         output="sitemap-index.xml")  # fmt: skip
    assert result.exit_status == 0, result.notes
    assert set(checked(root, "sitemap-index.xml")) == {
        f"{BASE}sitemap.xml", f"{BASE}1.0/sitemap.xml"
    }  # fmt: skip
    assert (root / "sitemap.xml").read_bytes() == before  # the build's record is not ours
    assert json.loads((root / ".sitemap-plugins.json").read_text())["files"] == {
        "sitemap.xml": {"size": len(before), "sha256": _sha(before), "entry": True}
    }


def test_a_second_run_replaces_its_own_index(tmp_path: Path) -> None:
    root = versions(tmp_path / "site")
    assert build_index(root, base_url=BASE, only=["1.0"]).exit_status == 0
    assert set(checked(root)) == {f"{BASE}1.0/sitemap.xml"}
    assert build_index(root, base_url=BASE).exit_status == 0
    assert len(checked(root)) == 2


def test_its_own_index_beside_the_sites_sitemap_is_replaced_on_the_next_run(
    tmp_path: Path,
) -> None:
    # README's layout: the latest version at the root, an older one in a folder, and the index
    # under another name. The index lists the root's sitemap beside it, as a split sitemap's
    # index does; the index's own record is what tells the two apart.
    root = tmp_path / "site"
    build(root, BASE, {"about/": "2024-05-01", "welcome/": None})
    build(root / "1.0", f"{BASE}1.0/", V1)
    own = (root / "sitemap.xml").read_bytes()

    def index() -> IndexResult:
        return build_index(root, base_url=BASE, names=["sitemap.xml"],
                           patterns=["*/sitemap.xml"], output="sitemap-index.xml")  # fmt: skip

    assert index().exit_status == 0
    first = checked(root, "sitemap-index.xml")
    build(root / "1.0", f"{BASE}1.0/", {**V1, "new/": "2024-06-01"})  # the next deploy
    result = index()
    assert result.exit_status == 0, result.notes
    assert checked(root, "sitemap-index.xml") == {
        **first, f"{BASE}1.0/sitemap.xml": "2024-06-01"
    }  # fmt: skip
    assert (root / "sitemap.xml").read_bytes() == own
    # Changed by hand, it is no longer the file the record names: it is not replaced.
    edited = (root / "sitemap-index.xml").read_bytes() + b"\n"
    (root / "sitemap-index.xml").write_bytes(edited)
    result = index()
    assert result.exit_status == 2
    [line] = messages(result, Level.FATAL)
    assert "is the index of a split sitemap (it lists https://example.org/sitemap.xml" in line
    assert (root / "sitemap-index.xml").read_bytes() == edited


def test_a_split_sites_own_index_is_never_replaced(tmp_path: Path) -> None:
    root = tmp_path / "site"
    write_many(root, BASE, 15, urls_per_file=10)
    build(root / "1.0", f"{BASE}1.0/", V1)
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 2
    [line] = messages(result, Level.FATAL)
    assert "is the index of a split sitemap (it lists https://example.org/sitemap-1-" in line


def test_a_child_that_breaks_the_rules_is_refused_with_its_findings(tmp_path: Path) -> None:
    root = tmp_path / "site"
    build(root / "1.0", f"{BASE}1.0/", V1)
    broken = root / "2.0" / "sitemap.xml"
    broken.parent.mkdir()
    broken.write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/'
        'schemas/sitemap/0.9">\n<url><loc>https://example.org/2.0/</loc>'
        "<priority>high</priority></url>\n</urlset>\n"
    )
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 1
    errors = messages(result, Level.ERROR)
    assert any(m.startswith(f"{broken}:3: E405: ") for m in errors), errors
    assert f"{broken}: refused, not listed: it breaks the sitemap rules (E405; see " in "\n".join(
        errors
    )
    assert set(checked(root)) == {f"{BASE}1.0/sitemap.xml"}


def test_an_unreadable_child_is_refused_and_the_exit_status_is_2(tmp_path: Path) -> None:
    root = tmp_path / "site"
    build(root / "1.0", f"{BASE}1.0/", V1)
    (root / "2.0").mkdir()
    (root / "2.0" / "sitemap.xml").write_bytes(b"\x1f\x8b\x08\x00broken")
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 2
    [line] = messages(result, Level.FATAL)
    assert line.startswith(f"{root / '2.0' / 'sitemap.xml'}: refused: R003: ")
    assert set(checked(root)) == {f"{BASE}1.0/sitemap.xml"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        (  # Google's legacy namespace, still met in the wild
            '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.google.com/'
            'schemas/sitemap/0.84"><url><loc>https://example.org/2.0/</loc></url></urlset>\n',
            "E104",
        ),
        ('<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{SM}"><url>\n', "E102"),
    ],
    ids=["legacy namespace", "not well-formed"],
)
def test_a_child_read_but_against_the_protocol_is_refused_with_exit_status_1(
    tmp_path: Path, text: str, code: str
) -> None:
    root = tmp_path / "site"
    build(root / "1.0", f"{BASE}1.0/", V1)
    refused = root / "2.0" / "sitemap.xml"
    refused.parent.mkdir()
    refused.write_text(text.replace("{SM}", SM))
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 1  # as validate's E codes: a child refused, the others indexed
    assert messages(result, Level.FATAL) == []
    [line] = [m for m in messages(result, Level.ERROR) if m.startswith(f"{refused}:")]
    assert line.startswith(f"{refused}: refused, not listed: {code}: line ")
    assert set(checked(root)) == {f"{BASE}1.0/sitemap.xml"}


def test_robots_txt_keeps_the_lines_of_the_sites_other_sitemaps(tmp_path: Path) -> None:
    """Other sitemaps named sitemap.xml (a blog's folder, a shop on another host) are the site
    owner's: the index's line is added beside them, and the next run finds it and adds none."""
    root = versions(tmp_path / "site")
    theirs = ["User-agent: *", "Disallow: /private/", f"Sitemap: {BASE}blog/sitemap.xml",
              "Sitemap: https://shop.example.net/sitemap.xml"]  # fmt: skip
    (root / "robots.txt").write_text("\n".join(theirs) + "\n")
    for _ in range(2):
        assert build_index(root, base_url=BASE).exit_status == 0
        assert (root / "robots.txt").read_text().splitlines() == [
            *theirs, f"Sitemap: {BASE}sitemap.xml"
        ]  # fmt: skip


def test_the_line_of_an_index_no_longer_written_goes_with_it(tmp_path: Path) -> None:
    """A run under another ``--output`` removes the index the last run wrote, and the line
    that run wrote for it, which would name a missing file; the site's other lines stay."""
    root = versions(tmp_path / "site")
    theirs = ["User-agent: *", f"Sitemap: {BASE}blog/sitemap.xml"]
    (root / "robots.txt").write_text("\n".join(theirs) + "\n")
    first = run("index", "site", "--base-url", BASE, cwd=tmp_path)
    assert first.returncode == 0, first.stdout + first.stderr
    robots = root / "robots.txt"
    assert robots.read_text().splitlines() == [*theirs, f"Sitemap: {BASE}sitemap.xml"]
    moved = run("index", "site", "--base-url", BASE, "--output", "sitemap-index.xml", cwd=tmp_path)
    assert moved.returncode == 0, moved.stdout + moved.stderr
    assert not (root / "sitemap.xml").exists()
    assert len(checked(root, "sitemap-index.xml")) == 2
    assert robots.read_text().splitlines() == [*theirs, f"Sitemap: {BASE}sitemap-index.xml"]


def test_a_robots_txt_that_cannot_be_updated_leaves_everything_as_it_was(tmp_path: Path) -> None:
    root = versions(tmp_path / "site")
    (root / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /caf\xe9/\n")
    result = build_index(root, base_url=BASE)
    assert result.exit_status == 2
    [line] = messages(result, Level.FATAL)
    assert line == (
        f"{root / 'sitemap.xml'}: cannot update {root / 'robots.txt'}: not UTF-8 text (byte "
        "0xe9 at offset 28); save it as UTF-8"
    )
    assert sorted(p.name for p in root.iterdir()) == [
        "1.0", "2.0", "latest", "robots.txt", "versions.json"
    ]  # fmt: skip


def test_the_command_line_says_what_it_did_and_exits_with_the_status(tmp_path: Path) -> None:
    root = versions(tmp_path / "site")
    done = run("index", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == (
        f"Wrote site{os.sep}sitemap.xml: an index of 2 sitemaps, served at {BASE}sitemap.xml."
    )
    assert done.stderr == ""
    missing = run("index", "nowhere", "--base-url", BASE, cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr.splitlines() == ["nowhere: no such folder", "No index written."]
    assert missing.stdout == ""
    usage = run("index", "site", cwd=tmp_path)
    assert usage.returncode == 2
    assert "the following arguments are required: --base-url" in usage.stderr
    assert root.is_dir()


def test_a_base_url_naming_a_page_is_a_usage_error(tmp_path: Path) -> None:
    """``--base-url https://example.org/index.html``, copied from a browser, was taken for the
    folder ``index.html/``: every build refused as made for another base URL, with the advice
    to rebuild it there. It exits 2 with one line naming the folder to give, and nothing is
    written; a folder stays a folder, with or without its slash, also one named ``x.html/``."""
    root = versions(tmp_path / "site")
    refused = run("index", "site", "--base-url", BASE + "index.html", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stdout == ""
    [error] = [line for line in refused.stderr.splitlines() if "error:" in line]
    assert error.endswith(
        f"error: argument --base-url: '{BASE}index.html': expected the URL of the folder the "
        f"site is served from, such as {BASE}; index.html is a page in it"
    )
    assert sorted(path.name for path in root.iterdir()) == ["1.0", "2.0", "latest", "versions.json"]
    done = run("index", "site", "--base-url", BASE.rstrip("/"), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert set(checked(root)) == {f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"}
    folder = f"{BASE}docs.html/"
    build(tmp_path / "other" / "1.0", f"{folder}1.0/", V1)
    done = run("index", "other", "--base-url", folder, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    tree = ET.parse(tmp_path / "other" / "sitemap.xml").getroot()
    assert [child.findtext(f"{{{SM}}}loc") for child in tree] == [f"{folder}1.0/sitemap.xml"]


@pytest.mark.parametrize("page", ["index.html", "index.php", "default.aspx"])
def test_build_index_refuses_a_base_url_naming_a_page_as_the_command_does(
    tmp_path: Path, page: str
) -> None:
    """``build_index()`` took ``https://example.org/index.html`` for the folder
    ``index.html/``, which the command refuses, and refused every build as made for another
    base URL: its one fatal note now says what the command says, and nothing is written."""
    root = versions(tmp_path / "site")
    result = build_index(root, base_url=BASE + page)
    assert result.exit_status == 2
    assert messages(result, Level.FATAL) == [
        f"--base-url: '{BASE}{page}': expected the URL of the folder the site is served from, "
        f"such as {BASE}; {page} is a page in it"
    ]
    assert sorted(path.name for path in root.iterdir()) == ["1.0", "2.0", "latest", "versions.json"]


def test_sitemaps_may_be_named_after_options(tmp_path: Path) -> None:
    """``index FOLDER --output x.xml SITEMAP``: argparse alone stops a list of positionals at
    the first option; the names after options are read as the names before them are."""
    root = versions(tmp_path / "site")
    named_first = run("index", "site", "1.0/sitemap.xml", "--output", "first.xml",
                      "--base-url", BASE, cwd=tmp_path)  # fmt: skip
    assert named_first.returncode == 0, named_first.stdout + named_first.stderr
    assert list(checked(root, "first.xml")) == [f"{BASE}1.0/sitemap.xml"]
    named_after = run("index", "site", "--output", "after.xml", "1.0/sitemap.xml",
                      "--base-url", BASE, "2.0/sitemap.xml", cwd=tmp_path)  # fmt: skip
    assert named_after.returncode == 0, named_after.stdout + named_after.stderr
    assert sorted(checked(root, "after.xml")) == [
        f"{BASE}1.0/sitemap.xml",
        f"{BASE}2.0/sitemap.xml",
    ]


def test_the_command_line_reports_on_stdout_and_problems_on_stderr(tmp_path: Path) -> None:
    """As ``generate`` and ``submit``: a script keeps what was listed, a CI log shows why."""
    root = tmp_path / "site"
    build(root / "1.0", BASE, V1)  # built for another base URL: refused
    build(root / "2.0", f"{BASE}2.0/", V2)
    done = run("index", "site", "--base-url", BASE, "--glob", "*/nothing.xml", "--glob",
               "*/sitemap.xml", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 1
    v1, v2 = (str(Path("site", name, "sitemap.xml")) for name in ("1.0", "2.0"))
    [listed, wrote] = done.stdout.splitlines()
    assert listed.startswith(f"{v2}: listed (3 URLs, newest lastmod ")
    assert wrote == (
        f"Wrote site{os.sep}sitemap.xml: an index of 1 sitemap, served at {BASE}sitemap.xml; "
        "1 sitemap refused (see above)."
    )
    problems = done.stderr.splitlines()
    assert problems[0] == "--glob: '*/nothing.xml' matches no file"
    assert problems[1].startswith(f"{v1}:3: E305: {BASE} is outside {BASE}1.0/")
    assert problems[-1].startswith(f"{v1}: refused, not listed: ")
    assert all(line.startswith(v1) for line in problems[1:])

    shutil.rmtree(root / "1.0")
    (root / "robots.txt").write_bytes(b"User-agent: *\nDisallow: /caf\xe9/\n")
    stopped = run("index", "site", "--base-url", BASE, cwd=tmp_path)
    assert stopped.returncode == 2
    assert stopped.stdout.splitlines() == [listed]
    assert stopped.stderr.splitlines() == [
        f"site{os.sep}sitemap.xml: cannot update site{os.sep}robots.txt: not UTF-8 text (byte "
        "0xe9 at offset 28); save it as UTF-8",
        "No index written.",
    ]


def _sha(data: bytes) -> str:
    import hashlib

    return hashlib.sha256(data).hexdigest()


def test_a_child_outside_the_index_folder_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "site"
    build(root / "en" / "1.0", f"{BASE}en/1.0/", V1)
    build(root / "fr" / "1.0", f"{BASE}fr/1.0/", V2)
    result = build_index(root, base_url=BASE, patterns=["*/*/sitemap.xml"],
                         output="en/sitemap.xml")  # fmt: skip
    assert result.exit_status == 1
    assert messages(result, Level.ERROR) == [
        f"{root / 'fr' / '1.0' / 'sitemap.xml'}: refused, not listed: served at "
        f"{BASE}fr/1.0/sitemap.xml, outside {BASE}en/, the folder an index there may list"
    ]
    path = root / "en" / "sitemap.xml"
    check_sitemap_file(path, f"{BASE}en/sitemap.xml", site_dir=root, base_url=BASE)
    assert [loc.text for loc in ET.parse(path).getroot().iter(f"{{{SM}}}loc")] == [
        f"{BASE}en/1.0/sitemap.xml"
    ]


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_progress_only_on_a_terminal(tmp_path: Path) -> None:
    versions(tmp_path / "site")
    status, text, stdout = run_on_a_terminal("index", "site", "--base-url", BASE, cwd=tmp_path)
    assert status == 0
    for number, name in enumerate(["1.0/sitemap.xml", "2.0/sitemap.xml", "latest/sitemap.xml"], 1):
        assert f"reading #{number}: {name}" in text
    assert text.endswith("\r\x1b[K")
    assert "reading #" not in stdout
    plain = run("index", "site", "--base-url", BASE, cwd=tmp_path)
    assert plain.stderr == ""
