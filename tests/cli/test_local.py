"""validate on local files and folders: where findings point, indexes on disk, robots.txt, gzip,
limits, text sitemaps. No network: everything here is a file in ``tmp_path``."""

from __future__ import annotations

import datetime as dt
import gzip
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from sitemap_plugins.core.options import MAX_BYTES_PER_FILE, MAX_URLS_PER_FILE
from sitemap_plugins.core.urls import check_base_url
from sitemap_plugins.validate import Check, Severity, validate
from sitemap_plugins.validate.findings import MAX_SHOWN_PER_CODE
from tests.cli.helpers import BASE, codes, index, line_of, only, urlset, write

NOW = dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)


# --------------------------------------------------------------------------------------------
# Findings point at the line, and the report adds up


def test_each_finding_names_the_file_and_the_line_of_its_element(tmp_path: Path) -> None:
    text = urlset(f"{BASE}a/", f"{BASE}b c/", f"{BASE}d/").replace(
        "<loc>https://example.org/docs/d/</loc>",
        "<loc>https://example.org/docs/d/</loc><priority>2</priority>",
    )
    path = write(tmp_path / "sitemap.xml", text)

    report = validate([path], now=NOW)

    encoded = only(report, "E303")
    assert (encoded.source, encoded.line) == (str(path), line_of(text, "b c/"))
    assert encoded.column == text.splitlines()[encoded.line - 1].index("<loc>") + 1
    assert "https://example.org/docs/b%20c/" in encoded.message  # the fix, encoded once
    priority = only(report, "E405")
    assert priority.line == line_of(text, "<priority>2")
    assert report.exit_status == 1
    assert report.errors == 2
    assert report.urls == 3


@pytest.mark.parametrize("host", ["faß.de", "straße.example", "Bücher.example"])
def test_a_raw_international_host_is_told_the_ascii_form_the_writer_gives_it(
    tmp_path: Path, host: str
) -> None:
    # UTS #46 without transitional mapping, as browsers and the writer apply it: "ß" stays a
    # letter of its own (IDNA 2003, Python's idna codec, would make faß.de fass.de, another host).
    written = urlsplit(check_base_url(f"https://{host}/")).hostname
    assert written is not None
    assert written.startswith("xn--")
    assert "ss" not in written
    path = write(tmp_path / "sitemap.xml", urlset(f"https://{host}/docs/x"))
    finding = only(validate([path], now=NOW), "E303")
    assert finding.message.endswith(f"({host!r}); write it as {written!r}")


def test_a_clean_file_has_no_findings_and_exit_status_0(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", f"{BASE}b/", lastmod="2024-05-01"))
    report = validate([path], base_url=BASE, now=NOW)
    assert report.findings == []
    assert report.exit_status == 0
    assert [(d.kind, d.entries, d.url) for d in report.documents] == [
        ("urlset", 2, BASE + "sitemap.xml")
    ]


def test_warnings_alone_keep_exit_status_0(tmp_path: Path) -> None:
    locs = [f"{BASE}{c}/" for c in "abc"]
    path = write(tmp_path / "sitemap.xml", urlset(*locs, lastmod=NOW.date().isoformat()))
    report = validate([path], now=NOW)
    warning = only(report, "W901")
    assert "(today)" in warning.message
    assert "3 of them" in warning.message
    assert report.exit_status == 0
    assert report.warnings == 1


def test_many_findings_of_one_kind_are_counted_but_not_all_kept(tmp_path: Path) -> None:
    bad = [f"{BASE}page {i}/" for i in range(MAX_SHOWN_PER_CODE + 50)]
    path = write(tmp_path / "sitemap.xml", urlset(*bad))
    report = validate([path], now=NOW)
    assert report.errors == MAX_SHOWN_PER_CODE + 50
    kept = [f for f in report.findings if f.check is Check.NOT_ENCODED]
    assert len(kept) == MAX_SHOWN_PER_CODE + 1
    assert kept[-1].message == "and 50 more like this"
    assert kept[-1].line is None


def test_a_url_still_holding_an_entity_is_only_a_warning(tmp_path: Path) -> None:
    # Escaped twice by a buggy generator, or a path that really holds "&amp;": a warning.
    path = write(tmp_path / "sitemap.xml", urlset(f"{BASE}&amp;amp;/", f"{BASE}a?b=1&amp;c=2"))
    report = validate([path], now=NOW)
    assert only(report, "W304").line == 3
    assert report.exit_status == 0


@pytest.mark.parametrize(
    ("loc", "fix"),
    [
        ("https://exämple.org/a/", "xn--exmple-cua.org"),
        ("https://example.org /a/", None),  # the host's own spelling is no fix
        ("https://example.org\\a/", None),
    ],
)
def test_a_host_rfc_3986_refuses_gets_a_fix_only_when_the_fix_is_a_host(
    tmp_path: Path, loc: str, fix: str | None
) -> None:
    path = write(tmp_path / "sitemap.xml", urlset(loc))
    message = only(validate([path], now=NOW), "E303").message
    assert "has a host RFC 3986 does not allow raw" in message
    if fix is None:
        assert "write it as" not in message
    else:
        assert message.endswith(f"write it as {fix!r}")


def test_a_base_url_that_is_not_absolute_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="absolute http"):
        validate([tmp_path], base_url="docs/")


def test_lastmod_in_the_future_counts_from_the_zone_where_the_day_starts_first(
    tmp_path: Path,
) -> None:
    cases = {
        "2026-01-01": False,  # today in UTC
        "2026-01-02": True,  # Jan 2 begins at UTC+14 only at 10:00 UTC: not yet anywhere
        "2026-01-01T00:04:00Z": False,  # within the five minutes clocks may differ
        "2026-01-01T00:06:00Z": True,
        "2026-01-01T13:00:00+14:00": False,  # 2025-12-31T23:00Z
    }
    for lastmod, future in cases.items():
        path = write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", lastmod=lastmod))
        assert ("E403" in codes(validate([path], now=NOW))) is future, lastmod


def test_a_missing_target_cannot_be_read(tmp_path: Path) -> None:
    report = validate([tmp_path / "nothing.xml"], now=NOW)
    finding = only(report, "R001")
    assert finding.source == str(tmp_path / "nothing.xml")
    assert report.exit_status == 2


def test_unreadable_beats_errors_in_the_exit_status(tmp_path: Path) -> None:
    bad = write(tmp_path / "sitemap.xml", urlset("relative/page/"))
    report = validate([bad, tmp_path / "missing.xml"], now=NOW)
    assert set(codes(report)) == {"E301", "R001"}
    assert report.exit_status == 2


# --------------------------------------------------------------------------------------------
# Folders and robots.txt


def test_a_folder_means_its_sitemap_xml(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", "https://example.org/elsewhere/"))
    report = validate([tmp_path], base_url=BASE, now=NOW)
    assert [d.source for d in report.documents] == [str(tmp_path / "sitemap.xml")]
    finding = only(report, "E305")  # the folder's URL gives the sitemap its scope
    assert "https://example.org/elsewhere/" in finding.message


def test_a_folder_with_only_a_gzipped_sitemap(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml.gz", urlset(f"{BASE}a/"), gz=True)
    report = validate([tmp_path], now=NOW)
    assert [(d.source, d.kind) for d in report.documents] == [
        (str(tmp_path / "sitemap.xml.gz"), "urlset")
    ]
    assert report.findings == []


def test_a_folder_without_a_sitemap(tmp_path: Path) -> None:
    write(tmp_path / "robots.txt", "User-agent: *\nDisallow:\n")
    report = validate([tmp_path], now=NOW)
    assert only(report, "R004").source == str(tmp_path)
    assert report.exit_status == 2


def test_robots_txt_sitemap_lines_are_followed_with_the_host_as_scope(tmp_path: Path) -> None:
    site = tmp_path / "site"
    # Built for https://example.org/docs/: robots.txt in the output names the sitemap's real URL.
    write(
        site / "robots.txt", f"User-agent: *\nDisallow: /private/\n\nSitemap: {BASE}sitemap.xml\n"
    )
    text = urlset(f"{BASE}a/", "https://example.org/blog/", "https://other.example.org/x/")
    write(site / "sitemap.xml", text)

    report = validate([site], now=NOW)

    assert [d.url for d in report.documents] == [BASE + "sitemap.xml"]
    # Reached through robots.txt: other paths of the host are fine, another host is not.
    finding = only(report, "E305")
    assert "other.example.org" in finding.message
    assert finding.line == line_of(text, "other.example.org")


def test_robots_txt_naming_a_missing_sitemap(tmp_path: Path) -> None:
    robots = "# comment\nSitemap: https://example.org/sitemap.xml\nSitemap: sitemap-2.xml\n"
    write(tmp_path / "robots.txt", robots)
    report = validate([tmp_path], now=NOW)
    missing = only(report, "E601")
    assert (missing.source, missing.line) == (str(tmp_path / "robots.txt"), 2)
    assert missing.message.endswith(f"which does not exist (looked for {tmp_path / 'sitemap.xml'})")
    relative = only(report, "E301")
    assert relative.line == 3
    assert report.documents == []


def test_robots_txt_with_a_base_url_maps_urls_under_it(tmp_path: Path) -> None:
    write(tmp_path / "robots.txt", f"Sitemap: {BASE}maps/sitemap.xml\nSitemap: {BASE}x.xml\n")
    write(tmp_path / "maps" / "sitemap.xml", urlset(f"{BASE}a/"))
    report = validate([tmp_path], base_url=BASE, now=NOW)
    assert [d.source for d in report.documents] == [str(tmp_path / "maps" / "sitemap.xml")]
    assert only(report, "E601").line == 2


# --------------------------------------------------------------------------------------------
# Indexes and their children on disk


def _split_site(site: Path) -> Path:
    write(site / "sitemap-1.xml", urlset(f"{BASE}a/", f"{BASE}b/", lastmod="2024-05-01"))
    write(site / "sitemap-2.xml.gz", urlset(f"{BASE}c/", lastmod="2024-05-03"), gz=True)
    return write(
        site / "sitemap.xml",
        index((f"{BASE}sitemap-1.xml", "2024-05-01"), (f"{BASE}sitemap-2.xml.gz", "2024-05-03")),
    )


def test_an_index_is_checked_with_its_children_found_beside_it(tmp_path: Path) -> None:
    top = _split_site(tmp_path)
    report = validate([top], now=NOW)
    assert report.findings == []
    assert [(d.source, d.kind, d.entries) for d in report.documents] == [
        (str(top), "index", 2),
        (str(tmp_path / "sitemap-1.xml"), "urlset", 2),
        (str(tmp_path / "sitemap-2.xml.gz"), "urlset", 1),
    ]
    assert report.urls == 3


def test_children_in_sub_folders_are_found_without_a_base_url(tmp_path: Path) -> None:
    write(tmp_path / "en" / "sitemap.xml", urlset(f"{BASE}en/a/"))
    write(tmp_path / "fr" / "sitemap.xml", urlset(f"{BASE}fr/a/", f"{BASE}en/a/"))
    top = write(tmp_path / "sitemap.xml", index(f"{BASE}en/sitemap.xml", f"{BASE}fr/sitemap.xml"))

    report = validate([top], now=NOW)

    assert len(report.documents) == 3
    # Each child may list only its own folder: the French one strays into en/.
    stray = only(report, "E305")
    assert stray.source == str(tmp_path / "fr" / "sitemap.xml")
    assert f"{BASE}fr/" in stray.message


@pytest.mark.parametrize(
    "folders",
    [
        ["2.0"],  # mike's first deploy (or --only): one version, so one shared sub-folder
        ["en/latest", "en/1.0"],  # Read the Docs: every child under en/
        ["1.0", "2.0"],
    ],
)
def test_children_all_in_one_sub_folder_are_found_under_the_index_folder(
    tmp_path: Path, folders: list[str]
) -> None:
    children = []
    for folder in folders:
        write(tmp_path / folder / "sitemap.xml", urlset(f"{BASE}{folder}/a/"))
        children.append(f"{BASE}{folder}/sitemap.xml")
    top = write(tmp_path / "sitemap.xml", index(*children))

    report = validate([top], now=NOW)

    assert report.findings == []
    assert [d.source for d in report.documents] == [
        str(top),
        *(str(tmp_path / folder / "sitemap.xml") for folder in folders),
    ]


def test_a_missing_child_named_like_the_index_is_missing_not_the_index(tmp_path: Path) -> None:
    write(tmp_path / "1.0" / "sitemap.xml", urlset(f"{BASE}1.0/a/"))
    for listed in (
        [f"{BASE}2.0/sitemap.xml"],
        [f"{BASE}1.0/sitemap.xml", f"{BASE}2.0/sitemap.xml"],
    ):
        text = index(*listed)
        top = write(tmp_path / "sitemap.xml", text)

        report = validate([top], now=NOW)

        missing = only(report, "E601")
        assert missing.line == line_of(text, "2.0/sitemap.xml")
        assert str(tmp_path / "2.0" / "sitemap.xml") in missing.message
        assert codes(report) == ["E601"]


def test_index_problems_point_at_the_index_entry(tmp_path: Path) -> None:
    write(tmp_path / "sitemap-1.xml", urlset(f"{BASE}a/", lastmod="2024-05-02"))
    write(tmp_path / "sitemap-2.xml", index(f"{BASE}sitemap-1.xml"))
    text = index(
        (f"{BASE}sitemap-1.xml", "2024-05-01"),
        f"{BASE}sitemap-2.xml",
        f"{BASE}sitemap-9.xml",
        f"{BASE}sitemap-1.xml",
    )
    top = write(tmp_path / "sitemap.xml", text)

    report = validate([top], now=NOW)

    assert sorted(codes(report)) == ["E307", "E601", "E602", "W601"]
    assert {f.source for f in report.findings} == {str(top)}
    assert only(report, "W601").line == line_of(text, "sitemap-1.xml")
    assert only(report, "E602").line == line_of(text, "sitemap-2.xml")
    missing = only(report, "E601")
    assert missing.line == line_of(text, "sitemap-9.xml")
    assert str(tmp_path / "sitemap-9.xml") in missing.message
    assert only(report, "E307").line == line_of(text, "sitemap-1.xml", text.index("sitemap-9"))
    assert report.exit_status == 1


def test_an_index_lastmod_is_compared_by_day_where_either_side_is_a_date(tmp_path: Path) -> None:
    write(tmp_path / "sitemap-1.xml", urlset(f"{BASE}a/", lastmod="2024-05-03T10:00:00+02:00"))
    write(tmp_path / "sitemap-2.xml", urlset(f"{BASE}b/", lastmod="2024-05-03"))
    cases = {
        ("2024-05-03", "2024-05-03"): False,  # a date: the whole day, not its first instant
        ("2024-05-02", "2024-05-03"): True,
        ("2024-05-03T07:59:59Z", "2024-05-02T23:00:00Z"): True,  # 08:00Z in the child
        ("2024-05-03T08:00:00Z", "2024-05-03T00:00:00Z"): False,
    }
    for (first, second), older in cases.items():
        top = write(
            tmp_path / "sitemap.xml",
            index((f"{BASE}sitemap-1.xml", first), (f"{BASE}sitemap-2.xml", second)),
        )
        found = [f.line for f in validate([top], now=NOW).findings if f.code == "W601"]
        assert bool(found) is older, (first, second, found)


def test_duplicates_across_children_name_the_first_file(tmp_path: Path) -> None:
    write(tmp_path / "sitemap-1.xml", urlset(f"{BASE}a/", f"{BASE}b/"))
    write(tmp_path / "sitemap-2.xml", urlset(f"{BASE}c/", f"{BASE}A/", f"{BASE}b/"))
    top = write(tmp_path / "sitemap.xml", index(f"{BASE}sitemap-1.xml", f"{BASE}sitemap-2.xml"))

    duplicate = only(validate([top], now=NOW), "E307")

    assert duplicate.source == str(tmp_path / "sitemap-2.xml")
    assert duplicate.line == 5
    assert f"in {tmp_path / 'sitemap-1.xml'}, line 4" in duplicate.message


def test_host_case_does_not_hide_a_duplicate(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", "HTTPS://Example.ORG/docs/a/"))
    assert codes(validate([path], now=NOW)) == ["E307"]


def test_a_default_port_is_the_same_site_for_scope_and_duplicates(tmp_path: Path) -> None:
    """RFC 3986 6.2.3: ``https://example.org:443/`` is ``https://example.org/``, as the writer
    and ``generate`` take it: in scope, on one host, and a duplicate of its plain spelling."""
    port = BASE.replace("example.org", "example.org:443", 1)
    path = write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", f"{port}a/", f"{port}b/"))
    report = validate([path], base_url=BASE, now=NOW)
    assert only(report, "E307").message.startswith(f"{port}a/ is listed twice")
    assert codes(report) == ["E307"]


def test_spellings_rfc_3986_makes_equal_are_one_url(tmp_path: Path) -> None:
    # Hex case of an escape (6.2.2.1), an escaped unreserved character (6.2.2.2), a dot segment
    # (5.2.4): a server, a browser and a crawler read each pair as one URL.
    pairs = [("caf%C3%A9/", "caf%c3%a9/"), ("~user/", "%7Euser/"), ("a/b/", "a/./b/")]
    locs = [BASE + path for pair in pairs for path in pair]
    text = urlset(*locs)
    path = write(tmp_path / "sitemap.xml", text)
    report = validate([path], base_url=BASE, now=NOW)
    assert codes(report) == ["E307"] * len(pairs)
    for finding, (first, again) in zip(report.findings, pairs, strict=True):
        assert finding.message.startswith(f"{BASE}{again} is listed twice")
        assert finding.line == line_of(text, f"<loc>{BASE}{again}<")
        assert f"line {line_of(text, f'<loc>{BASE}{first}<')})" in finding.message


@pytest.mark.parametrize("dots", ["..", "%2e%2e", "%2E.", "a/../.."])
def test_a_loc_whose_dot_segments_leave_the_folder_is_out_of_scope(
    tmp_path: Path, dots: str
) -> None:
    outside = f"{BASE}{dots}/admin"
    path = write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", outside, f"{BASE}b/%2e%2e/c/"))
    finding = only(validate([path], base_url=BASE, now=NOW), "E305")
    assert finding.message.startswith(
        f"{outside} (its dot segments resolved: https://example.org/admin) is outside {BASE}, "
    )


def test_a_child_outside_the_index_folder_needs_a_base_url(tmp_path: Path) -> None:
    write(tmp_path / "elsewhere.xml", urlset("https://example.org/other/a/"))
    top = write(
        tmp_path / "sitemap.xml",
        index(f"{BASE}sitemap-1.xml", "https://example.org/other/part.xml"),
    )
    write(tmp_path / "sitemap-1.xml", urlset(f"{BASE}a/"))

    report = validate([top], base_url=BASE, now=NOW)

    assert sorted(codes(report)) == ["E305", "E601"]
    message = only(report, "E601").message
    assert f"which is not under {BASE} (--base-url, the URL of {tmp_path})" in message
    assert "pass --base-url" not in message


def test_the_same_file_is_read_once_across_targets(tmp_path: Path) -> None:
    top = _split_site(tmp_path)
    report = validate([top, tmp_path / "sitemap-1.xml", str(tmp_path / "sitemap-1.xml")], now=NOW)
    assert len(report.documents) == 3


# --------------------------------------------------------------------------------------------
# gzip


def test_a_gz_twin_must_equal_its_plain_file(tmp_path: Path) -> None:
    plain = urlset(f"{BASE}a/", f"{BASE}b/")
    write(tmp_path / "sitemap.xml", plain)
    write(tmp_path / "sitemap.xml.gz", plain, gz=True)
    assert validate([tmp_path / "sitemap.xml"], now=NOW).findings == []

    write(tmp_path / "sitemap.xml.gz", plain.replace("/b/", "/c/"), gz=True)
    for target in ("sitemap.xml", "sitemap.xml.gz"):
        finding = only(validate([tmp_path / target], now=NOW), "E603")
        assert finding.source == str(tmp_path / target)
        assert f"(line {line_of(plain, '/b/')})" in finding.message


def test_a_twin_pair_is_compared_once(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/"))
    write(tmp_path / "sitemap.xml.gz", urlset(f"{BASE}b/"), gz=True)
    report = validate([tmp_path / "sitemap.xml", tmp_path / "sitemap.xml.gz"], now=NOW)
    assert codes(report) == ["E603"]


def test_a_gz_name_on_plain_content(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml.gz", urlset(f"{BASE}a/"))
    assert codes(validate([path], now=NOW)) == ["E604"]


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda data: data[: len(data) // 2], "truncated"),
        (lambda data: data[:12] + b"\xff" * 20 + data[32:], "corrupt gzip"),
        (lambda data: data + b"junk", "after the end"),
    ],
    ids=["truncated", "corrupt", "trailing junk"],
)
def test_broken_gzip_cannot_be_read(tmp_path: Path, damage: object, message: str) -> None:
    data = gzip.compress(urlset(*(f"{BASE}{i}/" for i in range(200))).encode(), mtime=0)
    path = write(tmp_path / "sitemap.xml.gz", damage(data))  # type: ignore[operator]
    report = validate([path], now=NOW)
    finding = only(report, "R003")
    assert message in finding.message
    assert report.exit_status == 2


def test_gzip_members_and_zero_padding_are_read_like_gunzip(tmp_path: Path) -> None:
    text = urlset(f"{BASE}a/", f"{BASE}b/").encode()
    members = gzip.compress(text[:50], mtime=0) + gzip.compress(text[50:], mtime=0)
    assert gzip.decompress(members) == text
    path = write(tmp_path / "sitemap.xml.gz", members + b"\0" * 512)
    report = validate([path], now=NOW)
    assert report.findings == []
    assert report.urls == 2


# --------------------------------------------------------------------------------------------
# Limits


def test_the_50001st_entry_is_reported_at_its_line(tmp_path: Path) -> None:
    locs = [f"https://example.org/p{i:06d}/" for i in range(MAX_URLS_PER_FILE + 1)]
    path = write(tmp_path / "sitemap.xml", urlset(*locs))
    finding = only(validate([path], now=NOW), "E501")
    assert finding.line == 3 + MAX_URLS_PER_FILE

    path = write(tmp_path / "sitemap.xml", urlset(*locs[:MAX_URLS_PER_FILE]))
    assert validate([path], now=NOW).findings == []

    text = write(tmp_path / "sitemap.txt", "".join(f"{loc}\n" for loc in locs))
    assert only(validate([text], now=NOW), "E501").line == MAX_URLS_PER_FILE + 1


def _exactly(size: int) -> bytes:
    head, tail = urlset(f"{BASE}a/").split("</urlset>")
    padding = size - len(head.encode()) - len(f"</urlset>{tail}".encode())
    data = (head + " " * padding + f"</urlset>{tail}").encode()
    assert len(data) == size
    return data


def test_the_byte_limit_counts_uncompressed_bytes(tmp_path: Path) -> None:
    at_limit = _exactly(MAX_BYTES_PER_FILE)
    over = _exactly(MAX_BYTES_PER_FILE + 1)
    assert validate([write(tmp_path / "at.xml.gz", at_limit, gz=True)], now=NOW).findings == []
    for path in (
        write(tmp_path / "over.xml", over),
        write(tmp_path / "over.xml.gz", over, gz=True),
    ):
        report = validate([path], now=NOW)
        assert codes(report) == ["E502"], path
        assert report.documents[0].bytes == MAX_BYTES_PER_FILE + 1


def test_a_gzip_bomb_stops_at_the_limit(tmp_path: Path) -> None:
    head = urlset(f"{BASE}a/").split("</urlset>")[0].encode()
    bomb = gzip.compress(head + b" " * (200 * 1024 * 1024), compresslevel=9, mtime=0)
    assert len(bomb) < 1024 * 1024
    path = write(tmp_path / "sitemap.xml.gz", bomb)
    report = validate([path], now=NOW)
    assert codes(report)[0] == "E502"
    assert report.documents[0].bytes == MAX_BYTES_PER_FILE + 1


def test_a_long_loc_is_measured_without_being_kept(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", urlset(BASE + "x" * 5_000_000))
    finding = only(validate([path], now=NOW), "E302")
    assert f"{len(BASE) + 5_000_000:,} characters" in finding.message


# --------------------------------------------------------------------------------------------
# Text sitemaps and what a file holds


def test_text_sitemaps(tmp_path: Path) -> None:
    good = write(tmp_path / "sitemap.txt", f"{BASE}a/\r\n\n{BASE}b/\n{BASE}caf%C3%A9/")
    report = validate([good], base_url=BASE, now=NOW)
    assert report.findings == []
    assert (report.documents[0].kind, report.urls) == ("text", 3)

    bad = write(tmp_path / "bad.txt", f"{BASE}a/\nguide/\n{BASE}a b/\n{BASE}a/\n")
    report = validate([bad], now=NOW)
    assert [(f.code, f.line) for f in report.findings] == [
        ("E301", 2),
        ("E303", 3),
        ("E307", 4),
    ]


def test_a_text_sitemap_line_loses_only_xsd_whitespace(tmp_path: Path) -> None:
    """Space, tab and CR around a URL are dropped; a no-break space is part of the URL, and
    RFC 3986 does not allow it raw (crawlers would request it percent-encoded)."""
    path = write(tmp_path / "sitemap.txt", f" \t{BASE}a/ \r\n{BASE}b/\u00a0\n\u2003{BASE}c/\n")
    report = validate([path], now=NOW)
    assert [(f.code, f.line) for f in report.findings] == [("E303", 2), ("E301", 3)]


def test_an_empty_text_sitemap_and_an_empty_file(tmp_path: Path) -> None:
    assert codes(validate([write(tmp_path / "a.txt", "\n\n")], now=NOW)) == ["E207"]
    assert codes(validate([write(tmp_path / "b.xml", b"")], now=NOW)) == ["E207"]


def test_a_file_named_xml_holding_text_is_not_a_sitemap(tmp_path: Path) -> None:
    path = write(tmp_path / "sitemap.xml", f"{BASE}a/\n")
    finding = only(validate([path], now=NOW), "E105")
    assert "named sitemap.xml but holds no XML" in finding.message


def test_content_decides_for_other_names(tmp_path: Path) -> None:
    xml = write(tmp_path / "list", urlset(f"{BASE}a/"))
    text = write(tmp_path / "list.txt.gz", f"{BASE}a/\n", gz=True)
    report = validate([xml, text], now=NOW)
    assert [d.kind for d in report.documents] == ["urlset", "text"]
    assert report.findings == []


def test_non_utf8_bytes_are_reported_at_their_line(tmp_path: Path) -> None:
    text = urlset(f"{BASE}a/", f"{BASE}caf\udce9/").encode("utf-8", "surrogateescape")
    path = write(tmp_path / "sitemap.xml", text)
    finding = only(validate([path], now=NOW), "E101")
    assert finding.line == 4
    assert "\\xe9" in finding.message

    utf16 = write(tmp_path / "utf16.xml", urlset(f"{BASE}a/").encode("utf-16"))
    assert codes(validate([utf16], now=NOW)) == ["E101"]


def test_the_legacy_namespace_is_named_and_the_rest_still_checked(tmp_path: Path) -> None:
    text = urlset(f"{BASE}a/", "relative/page/").replace(
        "http://www.sitemaps.org/schemas/sitemap/0.9", "http://www.google.com/schemas/sitemap/0.84"
    )
    report = validate([write(tmp_path / "sitemap.xml", text)], now=NOW)
    legacy = only(report, "E104")
    assert "0.84" in legacy.message
    assert 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"' in legacy.message
    assert only(report, "E301").line == line_of(text, "relative/")


def test_severity_follows_the_letter_of_the_code() -> None:
    letters = {"R": Severity.UNREADABLE, "E": Severity.ERROR, "W": Severity.WARNING}
    for check in Check:
        assert check.severity is letters[check.value[0]]
        assert check.summary
    assert len({check.value for check in Check}) == len(Check)
