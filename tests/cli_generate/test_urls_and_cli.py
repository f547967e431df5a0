"""URL lists, the command line's surface (every option reachable as a flag and a TOML key), exit
statuses and one-line errors, and the host config readers."""

from __future__ import annotations

import errno
import os
import random
import re
import shutil
import stat
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from sitemap_plugins.core import OPTION_SPECS, CollectingReporter, Options
from sitemap_plugins.core.indexnow import masked
from sitemap_plugins.generate import InputError, UsageError, find_host_config, resolve_settings
from sitemap_plugins.generate.run import generate_urls
from tests.cli_generate.helpers import checked, lastmods, page, run, write
from tests.support.publishing import (
    RECORD,
    REFUSED_AS_IMMUTABLE,
    make_unreplaceable,
    make_writable,
    recorded_files,
    snapshot,
    temporary_files,
    umask,
)
from tests.support.sitemap_checks import read_index, read_sitemap

BASE = "https://shop.example/"

# -- URL lists ------------------------------------------------------------------------------


def url_list(count: int) -> tuple[str, dict[str, str | None]]:
    """``count`` URLs, shuffled, some with a lastmod, plus a duplicate and a foreign URL."""
    lines, want = [], {}
    for number in range(count):
        path = f"item/{number:05d}"
        date = f"2024-0{number % 9 + 1}-1{number % 10}" if number % 3 else None
        lines.append(f"{BASE}{path}" + (f"\t{date}" if date else ""))
        want[path] = date
    random.Random(5).shuffle(lines)
    lines += [f"{BASE}item/00001", "https://other.example/x", "", "# a comment"]
    return "\n".join(lines) + "\n", want


def test_a_url_list_on_stdin_is_split_sorted_and_indexed(tmp_path: Path) -> None:
    text, want = url_list(120)
    done = run("generate", "out", "--urls", "-", "--base-url", BASE, "--urls-per-file", "50",
               "--gzip", "both", cwd=tmp_path, stdin=text)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("sitemap: 120 URLs in sitemap-1-")
    assert done.stdout.count(".xml.gz") == 4  # three shards and the index
    # The duplicate on line 121 and the first item/00001 (line N): the core keeps the page whose
    # origin sorts first, as for every host: "<stdin>:121" before "<stdin>:N" for N > 121...
    first = text.splitlines().index(f"{BASE}item/00001\t2024-02-11") + 1
    kept, dropped = sorted([f"<stdin>:{first}", "<stdin>:121"])
    assert done.stderr.splitlines() == [
        f"warning: <stdin>:122: 'https://other.example/x' is not a URL under the base URL {BASE}; "
        "left out",
        f"warning: {dropped}: URL {BASE}item/00001 is already listed for {kept}; listed once",
    ]
    if kept == "<stdin>:121":
        want["item/00001"] = None  # ...whose line has no lastmod
    out = tmp_path / "out"
    assert [ref.loc for ref in read_index(out / "sitemap.xml")] == sorted(
        BASE + path.name for path in out.glob("sitemap-*.xml")
    )
    entries = read_sitemap(out / "sitemap.xml", site_dir=out, base_url=BASE)
    assert [entry.loc for entry in entries] == sorted(BASE + path for path in want)
    assert lastmods({entry.loc: entry for entry in entries}, BASE) == want


def test_a_url_list_spilled_to_disk_writes_the_same_bytes(tmp_path: Path) -> None:
    text, _ = url_list(300)
    source = write(tmp_path / "urls.txt", text)
    outputs = []
    for chunk in (10_000, 7):
        out = tmp_path / f"out-{chunk}"
        settings = resolve_settings(
            flags={"base_url": BASE, "urls_per_file": 100},
            site_dir=str(out),
            urls=str(source),
            cwd=tmp_path,
        )
        reporter = CollectingReporter()
        summary = generate_urls(settings, reporter, chunk=chunk)
        assert summary.urls == 300
        outputs.append({path.name: path.read_bytes() for path in out.iterdir()})
    assert outputs[0] == outputs[1]


_FILE_SIZE_LIMIT = (
    "import os, resource, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (65536, 65536)); "
    "os.execv(sys.argv[1], sys.argv[1:])"
)
"""Runs a command with files limited to 64 KiB: a write past that fails as on a full disk (an
``OSError`` from the write; Python ignores the signal the limit also sends)."""


@pytest.mark.skipif(os.name != "posix", reason="a file size limit is a POSIX resource limit")
def test_a_sort_whose_runs_cannot_be_written_is_one_line_naming_their_folder(
    tmp_path: Path,
) -> None:
    """Past 20,000 URLs the sort writes runs into the temporary folder: a full one was a
    traceback. Now one line names the folder and the cause and says what to do, the exit
    status is 1, the sitemap of the run before stays, and the runs are removed."""
    write(tmp_path / "few.txt", f"{BASE}a\n")
    first = run("generate", "out", "--urls", "few.txt", "--base-url", BASE, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    before = {path.name: path.read_bytes() for path in (tmp_path / "out").iterdir()}
    write(tmp_path / "urls.txt", "".join(f"{BASE}item/{n:05d}\n" for n in range(30_000)))
    temporary = tmp_path / "temporary"
    temporary.mkdir()

    limited = [sys.executable, "-c", _FILE_SIZE_LIMIT]
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", BASE, cwd=tmp_path,
               env={"TMPDIR": str(temporary)}, via=limited)  # fmt: skip

    assert done.returncode == 1
    assert done.stdout == ""
    [line] = done.stderr.splitlines()
    prefix = f"sitemap-plugins generate: error: cannot write {temporary}{os.sep}sitemap-plugins-"
    assert line.startswith(prefix), line
    assert f": {os.strerror(errno.EFBIG)} (" in line
    assert "set TMPDIR to a folder with room" in line
    assert list(temporary.iterdir()) == []
    assert {path.name: path.read_bytes() for path in (tmp_path / "out").iterdir()} == before


def test_url_list_lines_that_break_the_rules_are_named(tmp_path: Path) -> None:
    write(tmp_path / "urls.txt", (
        f"{BASE}ok\t2024-05-01T10:00:00+02:00\n"
        f"{BASE}bad-date\tyesterday\n"
        f"{BASE}future\t2999-01-01\n"
        f"{BASE}guide#install\n"
        f"{BASE}caf\xe9 menu\n"
    ))  # fmt: skip
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[0].startswith("warning: urls.txt:2: date 'yesterday' is not a date")
    assert lines[1].startswith(
        "warning: urls.txt:3: lastmod 2999-01-01 (from metadata) is in the future"
    )
    assert lines[2] == (
        f"warning: urls.txt:4: '{BASE}guide#install' has a fragment, which names a place in a "
        "page, not a page (list the page's URL); left out"
    )
    got = lastmods(checked(tmp_path / "out", BASE), BASE)
    assert got == {"ok": "2024-05-01T10:00:00+02:00", "bad-date": None, "future": None,
                   "caf%C3%A9%20menu": None}  # fmt: skip


def test_a_url_list_is_read_as_rfc_3986_reads_urls(tmp_path: Path) -> None:
    """Dot segments are resolved before the scope is checked, plain or escaped; spellings of
    one URL are listed once; an empty segment is a segment (``//`` is another URL)."""
    base = f"{BASE}docs/"
    write(tmp_path / "urls.txt", (
        f"{base}%2e%2e/admin\n"
        f"{base}../secret\n"
        f"{base}a/%2E%2e/b\n"
        f"{base}caf%C3%A9\n"
        f"{base}caf%c3%a9\n"
        f"{base}~user\n"
        f"{base}%7Euser\n"
        f"{base}docs//double\n"
        f"{base}/first-empty\n"
    ))  # fmt: skip
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", base, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"warning: urls.txt:1: '{base}%2e%2e/admin' is not a URL under the base URL {base}; "
        "left out",
        f"warning: urls.txt:2: '{base}../secret' is not a URL under the base URL {base}; left out",
        f"warning: urls.txt:5: URL {base}caf%C3%A9 is already listed for urls.txt:4; listed once",
        f"warning: urls.txt:7: URL {base}~user is already listed for urls.txt:6; listed once",
    ]
    assert set(lastmods(checked(tmp_path / "out", base), base)) == {
        "b", "caf%C3%A9", "~user", "docs//double", "/first-empty"
    }  # fmt: skip


def test_raw_characters_in_a_url_are_encoded_once_before_the_scope_is_checked(
    tmp_path: Path,
) -> None:
    """A base URL's folder is encoded (``café/`` is ``caf%C3%A9/``): a line that writes it raw,
    or encoded, is under it all the same, and listed once."""
    write(tmp_path / "urls.txt", f"{BASE}caf\xe9/x\n{BASE}caf%C3%A9/y\n{BASE}caf%c3%a9/x\n")
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", f"{BASE}caf\xe9/",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "not a URL under the base URL" not in done.stderr
    base = f"{BASE}caf%C3%A9/"
    assert set(lastmods(checked(tmp_path / "out", base), base)) == {"x", "y"}


@pytest.mark.parametrize("base", [f"{BASE}docs/", "https://shop.example:443/docs/"])
def test_a_url_list_names_the_base_urls_site_however_its_host_and_port_are_spelled(
    tmp_path: Path, base: str
) -> None:
    """RFC 3986 6.2.2.1 and 6.2.3: the host's case and the scheme's default port do not make
    another site; the URLs are listed under the base URL without its default port, as RFC
    3986 advises writing it."""
    write(tmp_path / "urls.txt", (
        "https://shop.example:443/docs/port\n"
        "https://SHOP.Example/docs/case\n"
        "https://shop.example:8443/docs/other-port\n"
        "http://shop.example:443/docs/other-scheme\n"
        "https://user@shop.example/docs/user\n"
    ))  # fmt: skip
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", base, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    left_out = [line.split(": ", 2)[1] for line in done.stderr.splitlines()]
    assert left_out == ["urls.txt:3", "urls.txt:4", "urls.txt:5"], done.stderr
    written = f"{BASE}docs/"  # however the base URL was given
    assert all(f"is not a URL under the base URL {written}; left out" in line
               for line in done.stderr.splitlines())  # fmt: skip
    assert set(lastmods(checked(tmp_path / "out", written), written)) == {"port", "case"}


def test_every_link_of_the_page_for_humans_leads_to_its_url(tmp_path: Path) -> None:
    """Links are relative to the page: one whose URL is the top with a query, or whose first
    segment holds a colon (a wiki's ``Category:Foo``), must not be read as the page's own
    query or as a URL scheme. Resolved as a browser resolves them, they are the sitemap's."""
    write(tmp_path / "urls.txt", "".join(f"{BASE}{path}\n" for path in (
        "", "?page=2", "Category:Foo", "wiki/Help:Contents", "a?b=c:d", "x/", "/double",
    )))  # fmt: skip
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", BASE, "--html-page",
               cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    locs = {entry.loc for entry in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert len(locs) == 7
    links = _LinkParser()
    links.feed((tmp_path / "out/sitemap.html").read_text(encoding="utf-8"))
    assert {_resolved(BASE + "sitemap.html", href) for href in links.hrefs} == locs


def _resolved(base: str, reference: str) -> str:
    """``reference`` resolved against ``base`` as RFC 3986 section 5.2 and browsers do.
    ``urljoin`` drops an empty segment (``.//double``), which browsers keep."""
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", reference):
        return reference
    scheme, authority, path = re.match(r"([^:]+)://([^/]*)(.*)", base).groups()  # type: ignore[union-attr]
    if reference.startswith("?"):
        merged = path.partition("?")[0] + reference
    elif reference.startswith("/"):
        merged = reference
    else:
        merged = path[: path.rfind("/") + 1] + reference
    route, mark, query = merged.partition("?")
    output: list[str] = []
    while route:  # RFC 3986 section 5.2.4, remove_dot_segments
        if route.startswith(("../", "./")):
            route = route.partition("/")[2]
        elif route.startswith("/./") or route == "/.":
            route = "/" + route[3:]
        elif route.startswith("/../") or route == "/..":
            route = "/" + route[4:]
            if output:
                output.pop()
        elif route in (".", ".."):
            route = ""
        else:
            cut = route.find("/", 1)
            segment, route = (route, "") if cut == -1 else (route[:cut], route[cut:])
            output.append(segment)
    return f"{scheme}://{authority}{''.join(output)}{mark}{query}"


class _LinkParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.hrefs: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        href = dict(attrs).get("href")
        if tag == "a" and href is not None:
            self.hrefs.append(href)


def test_a_url_list_keeps_query_strings_escaped_in_xml_and_plain_in_text(tmp_path: Path) -> None:
    """A database's pages are often one path with many queries: each is a URL of its own."""
    write(tmp_path / "urls.txt", (
        f"{BASE}search?q=caf\xe9 cr\xe8me&page=2\t2024-05-01\n"
        f"{BASE}product?id=7&ref=a%20b\n"
        f"{BASE}product?id=7&ref=a%20b\n"  # the same URL again
        f"{BASE}product?id=8&sort=price\n"
        f"{BASE}product\n"
        f"{BASE}login?next=/cart/\n"
        f"{BASE}about?\n"  # an empty query: the page itself
    ))  # fmt: skip
    done = run("generate", "out", "--urls", "urls.txt", "--base-url", BASE, "--html-page",
               "--exclude", "*&sort=*", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [
        f"warning: urls.txt:3: URL {BASE}product?id=7&ref=a%20b is already listed for "
        "urls.txt:2; listed once"
    ]
    out = tmp_path / "out"
    assert "product?id=7&amp;ref=a%20b" in (out / "sitemap.xml").read_text(encoding="utf-8")
    got = lastmods(checked(out, BASE), BASE)
    want = {
        "about": None,
        "login?next=/cart/": None,
        "product": None,
        "product?id=7&ref=a%20b": None,
        "search?q=caf%C3%A9%20cr%C3%A8me&page=2": "2024-05-01",
    }
    assert got == want
    # The page for humans lists them at the top: a "/" in a query is no folder.
    html = (out / "sitemap.html").read_text(encoding="utf-8")
    assert html.count("<h2 ") == 1
    assert 'href="product?id=7&amp;ref=a%20b"' in html
    # A text sitemap is plain text: the same URLs, "&" as it is.
    done = run("generate", "txt", "--urls", "urls.txt", "--base-url", BASE, "--format", "txt",
               "--exclude", "*&sort=*", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    listed = (tmp_path / "txt/sitemap.txt").read_text(encoding="utf-8").splitlines()
    assert listed == sorted(BASE + path for path in want)


# -- the command line -----------------------------------------------------------------------


def test_robots_txt_names_the_sitemap_under_its_new_filename_only(tmp_path: Path) -> None:
    """``--filename`` changed between two runs: the first run's sitemap goes, and so does the
    robots.txt line it wrote, which ``validate`` would find naming a missing file."""
    write(tmp_path / "out/robots.txt", "User-agent: *\nDisallow: /cart/\n")
    urls = f"{BASE}a/\n{BASE}b/\n"
    for name in ("sitemap.xml", "map.xml"):
        done = run("generate", "out", "--urls", "-", "--base-url", BASE, "--robots-txt",
                   "--filename", name, cwd=tmp_path, stdin=urls)  # fmt: skip
        assert done.returncode == 0, done.stderr
    assert not (tmp_path / "out/sitemap.xml").exists()
    assert (tmp_path / "out/robots.txt").read_text("utf-8").splitlines() == [
        "User-agent: *", "Disallow: /cart/", f"Sitemap: {BASE}map.xml"
    ]  # fmt: skip
    validated = run("validate", "out", cwd=tmp_path)
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_robots_txt_naming_our_sitemap_spelled_otherwise_keeps_one_line(tmp_path: Path) -> None:
    """A site's robots.txt written by hand with the host in capitals: the same URL (RFC 3986),
    whose line a second one repeated, build after build."""
    write(tmp_path / "out/index.html", page("Home"))
    spelled = BASE.replace("shop.example", "Shop.Example:443") + "sitemap.xml"
    write(tmp_path / "out/robots.txt", f"User-agent: *\nSitemap: {spelled}\n")
    for _ in range(2):
        done = run("generate", "out", "--base-url", BASE, "--robots-txt", cwd=tmp_path)
        assert done.returncode == 0, done.stderr
    assert (tmp_path / "out/robots.txt").read_text("utf-8").splitlines() == [
        "User-agent: *", f"Sitemap: {BASE}sitemap.xml"
    ]  # fmt: skip
    validated = run("validate", "out", cwd=tmp_path)
    assert validated.returncode == 0, validated.stdout + validated.stderr


def test_every_option_is_a_flag_and_a_config_key(tmp_path: Path) -> None:
    done = run("generate", "--help", cwd=tmp_path)
    assert done.returncode == 0
    for spec in OPTION_SPECS:
        assert f"--{spec.name.replace('_', '-')}" in done.stdout, spec.name
    # Each option set to a value other than its default, once by flag and once in TOML.
    values = {
        "base_url": ("https://example.org/docs/", '"https://example.org/docs/"'),
        "filename": ("map.txt", '"map.txt"'),
        "format": ("txt", '"txt"'),
        "gzip": ("both", '"both"'),
        "urls_per_file": ("10", "10"),
        "bytes_per_file": ("2048", "2048"),
        "lastmod_sources": ("git,metadata", '["git", "metadata"]'),
        "git_date": ("author", '"author"'),
        "git_fetch_history": (True, "true"),
        "git_ignore_commits": ("abcd123,1234567", '["abcd123", "1234567"]'),
        "git_ignore_commits_file": ("revs", '"revs"'),  # read from cwd, or the file's folder
        "lastmod_format": ("date", '"date"'),
        "changefreq": ("weekly", '"weekly"'),
        "priority": ("0.3", "0.3"),
        "rules": ('[{"pattern": "a/*", "priority": 0.9}]', '[{pattern = "a/*", priority = 0.9}]'),
        "exclude": ("x/*,y/*", '["x/*", "y/*"]'),
        "images": (True, "true"),
        "news": (
            '{"name": "The Example", "language": "en"}',
            '{name = "The Example", language = "en"}',
        ),
        "robots_txt": (True, "true"),
        "indexnow_key": ("a1b2c3d4-e5f6", '"a1b2c3d4-e5f6"'),
        "html_page": (True, "true"),
        "indent": ("2", "2"),
        "strict": (True, "true"),
    }
    assert set(values) == {spec.name for spec in OPTION_SPECS}
    write(tmp_path / "revs", "# a reformat\nfedcba9876\n")
    from sitemap_plugins.generate import option_value

    flags = {
        spec.name: values[spec.name][0]
        if isinstance(values[spec.name][0], bool)
        else option_value(spec, [str(values[spec.name][0])])
        for spec in OPTION_SPECS
    }
    by_flags = resolve_settings(flags=flags, site_dir=str(tmp_path), cwd=tmp_path).options
    write(tmp_path / "sitemap-plugins.toml", "".join(f"{k} = {v[1]}\n" for k, v in values.items()))
    by_file = resolve_settings(flags={}, site_dir=str(tmp_path), cwd=tmp_path).options
    assert by_flags == by_file
    default = Options.from_mapping({})
    for spec in OPTION_SPECS:
        assert getattr(by_file, spec.name) != getattr(default, spec.name), spec.name


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["generate", "nowhere", "--base-url", BASE],
            "nowhere: no such folder (build the site first)",
        ),
        (
            ["generate", ".", "--base-url", BASE, "--gzip", "sometimes"],
            "--gzip: 'sometimes' is not allowed (allowed: one of off, on, both)",
        ),
        (["generate", "."], "no base URL: give --base-url URL, the URL the site is served at"),
        (
            ["generate", ".", "--base-url", "/docs/"],
            "--base-url: '/docs/' is not allowed (allowed: an absolute http(s) URL such as "
            "https://example.org/docs/)",
        ),
        (
            ["generate", ".", "--base-url", "https://exa mple.org/"],
            "--base-url: 'https://exa mple.org/' is not allowed (allowed: an absolute http(s) URL "
            "such as https://example.org/docs/, whose host is a name of letters, digits and "
            "hyphens between dots, an IPv4 address or an IPv6 address in brackets)",
        ),
        (
            # The home page's URL, copied from a browser: no folder to list pages under.
            ["generate", ".", "--base-url", "https://example.org/docs/index.html"],
            "--base-url: 'https://example.org/docs/index.html' is not allowed (allowed: the URL "
            "of the folder the site is served from, such as https://example.org/docs/; "
            "index.html is a page in it)",
        ),
        (
            ["generate", ".", "--base-url", BASE, "--source", "src"],
            "--source src needs --layout to map pages to sources "
            "(mkdocs, zensical, hugo, jekyll, html)",
        ),
        (
            ["generate", "out", "--urls", "missing.txt", "--base-url", BASE],
            "missing.txt: cannot read: No such file or directory",
        ),
        (["generate", ".", "--config", "bad.toml"], "bad.toml: not valid TOML: "),
        (["generate", ".", "--rules", "[{"], "--rules: '[{' is not valid JSON"),
    ],
)
def test_bad_input_is_one_line_and_exit_status_2(
    tmp_path: Path, args: list[str], message: str
) -> None:
    write(tmp_path / "bad.toml", "gzip = \n")
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith(f"sitemap-plugins generate: error: {message}")


def test_a_config_files_paths_are_relative_to_it(tmp_path: Path) -> None:
    """``--config conf/sitemap-plugins.toml``: the ``urls`` it names lies beside it, as its
    ``site_dir`` does, wherever ``generate`` runs (it was read from the current folder). A
    path of the file that is not there is one line naming the file and the key; ``-`` is
    still standard input."""
    write(tmp_path / "conf/list.txt", f"{BASE}a\n{BASE}b\n")
    base = f'base_url = "{BASE}"\n'
    write(tmp_path / "conf/sitemap-plugins.toml", f'site_dir = "out"\nurls = "list.txt"\n{base}')
    done = run("generate", "--config", "conf/sitemap-plugins.toml", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert set(lastmods(checked(tmp_path / "conf/out", BASE), BASE)) == {"a", "b"}

    write(tmp_path / "conf/piped.toml", f'site_dir = "piped"\nurls = "-"\n{base}')
    done = run("generate", "--config", "conf/piped.toml", cwd=tmp_path, stdin=f"{BASE}c\n")
    assert done.returncode == 0, done.stderr
    assert set(lastmods(checked(tmp_path / "conf/piped", BASE), BASE)) == {"c"}

    missing = os.strerror(errno.ENOENT)
    for config, text, message in [
        (
            "gone.toml",
            f'site_dir = "out"\nurls = "gone.txt"\n{base}',
            f"conf/gone.toml: urls: conf/gone.txt: cannot read: {missing}",
        ),
        (
            "unbuilt.toml",
            f'site_dir = "unbuilt"\n{base}',
            "conf/unbuilt.toml: site_dir: conf/unbuilt: no such folder (build the site first)",
        ),
        (
            "source.toml",
            f'site_dir = "out"\nsource = "src"\nlayout = "hugo"\n{base}',
            "conf/source.toml: source: conf/src: no such folder",
        ),
    ]:
        write(tmp_path / "conf" / config, text)
        done = run("generate", "--config", f"conf/{config}", cwd=tmp_path)
        assert done.returncode == 2
        assert done.stderr.splitlines() == [f"sitemap-plugins generate: error: {message}"]


def test_strict_mode_and_an_empty_site_exit_1_and_write_nothing(tmp_path: Path) -> None:
    write(
        tmp_path / "site/index.html",
        page("Home", head='<meta name="last-modified" content="soon">'),
    )
    done = run("generate", "site", "--base-url", BASE, "--strict", cwd=tmp_path)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        "warning: site/index.html: date 'soon' is not a date (allowed: a date such as 2024-05-01 "
        "or a timestamp such as 2024-05-01T10:00:00+02:00); ignored",
        "sitemap-plugins generate: error: 1 warning in strict mode; no sitemap written",
    ]
    assert not (tmp_path / "site/sitemap.xml").exists()
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0
    assert (tmp_path / "site/sitemap.xml").is_file()
    write(tmp_path / "empty/404.html", page("Not found"))
    done = run("generate", "empty", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 1
    assert "no sitemap written to sitemap.xml: no pages" in done.stderr


def test_an_html_file_that_cannot_be_read_is_named_and_the_exit_status_is_2(
    tmp_path: Path,
) -> None:
    """A link that loops, which no user can read, root included: named, not taken for a file
    that is no page, and the rest of the site still listed."""
    write(tmp_path / "site/index.html", page("Home"))
    write(tmp_path / "site/guide/index.html", page("Guide"))
    (tmp_path / "site/loop.html").symlink_to("loop.html")
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        f"warning: site/loop.html: cannot read it ({os.strerror(errno.ELOOP)}); left out",
        "2 pages have no lastmod: no date in the page's head, no source found for it (give "
        "--source and --layout), and the built file is not committed",
    ]
    assert done.stdout.startswith("sitemap: 2 URLs in sitemap.xml")
    assert set(lastmods(checked(tmp_path / "site", BASE), BASE)) == {"", "guide/"}
    (tmp_path / "site/sitemap.xml").unlink()
    strict = run("generate", "site", "--base-url", BASE, "--strict", cwd=tmp_path)
    assert strict.returncode == 2
    assert "error: 1 warning in strict mode; no sitemap written" in strict.stderr
    assert not (tmp_path / "site/sitemap.xml").exists()


def _without_permission_to_read(probe: Path) -> list[str]:
    """How to run a command that file modes apply to: as it is for a user other than root;
    for root, through ``setpriv`` without the capabilities that let root read any file. Skips
    the test when neither is possible here."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("run as root, and no setpriv to drop root's right to read any file")
    via = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    tried = subprocess.run([*via, "cat", str(probe)], capture_output=True, check=False)
    if tried.returncode == 0 or b"Permission denied" not in tried.stderr:
        pytest.skip(f"run as root, and setpriv cannot drop root's right to read: {tried.stderr!r}")
    return via


def test_pages_and_folders_a_user_cannot_read_are_named_and_the_exit_status_is_2(
    tmp_path: Path,
) -> None:
    """A site built by another user with files of mode 0600: each page and folder that cannot
    be read is one line naming it and the cause, the other pages are still listed."""
    for relpath in ("index.html", "guide/index.html", "private.html", "secret/index.html"):
        write(tmp_path / "site" / relpath, page(relpath))
    locked = [tmp_path / "site/private.html", tmp_path / "site/secret"]
    for path in locked:
        path.chmod(0)
    try:
        via = _without_permission_to_read(locked[0])
        done = run("generate", "site", "--base-url", BASE, cwd=tmp_path, via=via)
    finally:
        for path in locked:
            path.chmod(0o755)
    denied = os.strerror(errno.EACCES)
    assert done.returncode == 2
    assert done.stderr.splitlines()[:2] == [
        f"warning: site/private.html: cannot read it ({denied}); left out",
        f"warning: site/secret/: cannot read the folder ({denied}); its pages are left out",
    ]
    assert done.stdout.startswith("sitemap: 2 URLs in sitemap.xml; left out 1 (1 unreadable)")
    assert set(lastmods(checked(tmp_path / "site", BASE), BASE)) == {"", "guide/"}


@pytest.mark.parametrize(
    "mode", [0o000, 0o600, 0o300], ids=["no-access", "listed-not-entered", "entered-not-listed"]
)
def test_a_site_folder_a_user_cannot_read_is_one_line_and_exit_status_2(
    tmp_path: Path, mode: int
) -> None:
    """A site built by another user under umask 077 (a container's build, then a CI step as
    an ordinary user): nothing of it can be read, and no sitemap written into it. One line
    names the folder and the cause; looking for the host's sitemap in it was a traceback."""
    site = tmp_path / "site"
    write(site / "index.html", page("Home"))
    probe = write(tmp_path / "probe.txt", "")
    probe.chmod(0)
    site.chmod(mode)
    try:
        via = _without_permission_to_read(probe)
        done = run("generate", "site", "--base-url", BASE, cwd=tmp_path, via=via)
    finally:
        site.chmod(0o755)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        f"sitemap-plugins generate: error: site: cannot read the folder "
        f"({os.strerror(errno.EACCES)})"
    ]
    assert sorted(path.name for path in site.iterdir()) == ["index.html"]


def test_the_hosts_sitemap_replaced_under_a_stricter_umask_keeps_its_mode(tmp_path: Path) -> None:
    """The CI artifact pattern: the host wrote a readable ``sitemap.xml``, and ``generate`` runs
    in a later step, under ``umask 077`` (a service's, a hardened runner's). The host's pages
    stay readable; the sitemap renamed over the host's took the new umask, and alone answered
    403 to the web server."""
    site = tmp_path / "site"
    write(site / "index.html", page("Home"))
    write(site / "guide" / "index.html", page("Guide"))
    hosts = write(
        site / "sitemap.xml",
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>{BASE}</loc>'
        "</url></urlset>\n",
    )
    hosts.chmod(0o644)
    with umask(0o077):
        done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert sorted(checked(site, BASE)) == [BASE, BASE + "guide/"]
    assert stat.S_IMODE(hosts.stat().st_mode) == 0o644


def test_a_folder_generate_looks_into_that_a_user_cannot_enter_is_a_warning(
    tmp_path: Path,
) -> None:
    """Sphinx's output is known by ``_static/documentation_options.js``: a ``_static/`` the
    user may not enter is a folder of the site that cannot be read (one line, the other pages
    listed, exit status 2), not the traceback asking for that file raised."""
    site = tmp_path / "site"
    write(site / "index.html", page("Home"))
    write(site / "searchindex.js", "Search.setIndex({})\n")
    write(site / "_static/documentation_options.js", "const DOCUMENTATION_OPTIONS = {};\n")
    (site / "_static").chmod(0)
    try:
        via = _without_permission_to_read(site / "_static/documentation_options.js")
        done = run("generate", "site", "--base-url", BASE, cwd=tmp_path, via=via)
    finally:
        (site / "_static").chmod(0o755)
    assert done.returncode == 2
    denied = os.strerror(errno.EACCES)
    assert done.stderr.splitlines()[0] == (
        f"warning: site/_static/: cannot read the folder ({denied}); its pages are left out"
    )
    assert done.stdout.startswith("sitemap: 1 URL in sitemap.xml")
    assert set(lastmods(checked(site, BASE), BASE)) == {""}


@pytest.mark.parametrize("earlier", [False, True], ids=["first-run", "after-a-run"])
def test_a_site_with_no_page_a_user_can_read_says_so_once(tmp_path: Path, earlier: bool) -> None:
    """Every page of mode 0 (built by another user) in a folder the user may not write in:
    nothing to list, so no sitemap, said once. It was followed by an error that the sitemap
    could not be written, which the run never meant to write (it wrote a record of nothing).
    Where an earlier run published one, the error says that this one could not be removed."""
    site = tmp_path / "site"
    write(site / "index.html", page("Home"))
    if earlier:
        assert run("generate", "site", "--base-url", BASE, cwd=tmp_path).returncode == 0
    before = {path.name: path.read_bytes() for path in site.iterdir()}
    (site / "index.html").chmod(0)
    site.chmod(0o555)
    try:
        via = _without_permission_to_read(site / "index.html")
        done = run("generate", "site", "--base-url", BASE, cwd=tmp_path, via=via)
    finally:
        site.chmod(0o755)
        (site / "index.html").chmod(0o644)
    denied = os.strerror(errno.EACCES)
    assert done.returncode == 2
    lines = [
        f"warning: site/index.html: cannot read it ({denied}); left out",
        "warning: no sitemap written to sitemap.xml: no pages",
    ]
    if earlier:
        lines.append(
            f"sitemap-plugins generate: error: cannot remove the earlier sitemap from site: "
            f"{denied}"
        )
    assert done.stderr.splitlines() == lines
    if not earlier:
        assert done.stdout.startswith("sitemap: 0 URLs in no file; left out 1 (1 unreadable)")
    assert {path.name: path.read_bytes() for path in site.iterdir()} == before


KEY = "a1b2c3d4e5f6a7b8"
UNREPLACEABLE = {
    # how a file of the set is made one a rename cannot replace, and which file
    "immutable .gz": "sitemap.xml.gz",
    "another user's .gz, sticky folder": "sitemap.xml.gz",
}


@pytest.mark.parametrize("how", list(UNREPLACEABLE))
def test_a_file_that_cannot_be_replaced_is_one_line_exit_1_and_nothing_is_put_in_place(
    tmp_path: Path, how: str
) -> None:
    """``sitemap.xml`` goes in place before its ``.gz``: one that cannot be replaced is found
    before the first, or the failed run leaves a new ``sitemap.xml`` beside the old ``.gz``."""
    out = tmp_path / "out"
    write(tmp_path / "urls.txt", f"{BASE}a\n")
    args = ("generate", "out", "--urls", "urls.txt", "--base-url", BASE, "--gzip", "both",
            "--indexnow-key", KEY)  # fmt: skip
    assert run(*args, cwd=tmp_path).returncode == 0
    name = UNREPLACEABLE[how]
    target = out / name
    before = snapshot(out)
    write(tmp_path / "urls.txt", f"{BASE}a\n{BASE}b\n")  # the next run lists one more page
    if how.endswith("sticky folder"):
        via = _without_owner_rights_in_a_sticky_folder(out, target)
        cause = f"{os.strerror(errno.EPERM)} (another user's file, in a folder with the sticky bit)"
    else:
        reason = make_unreplaceable(target)
        if reason is not None:
            pytest.skip(reason)
        via, cause = [], REFUSED_AS_IMMUTABLE
    try:
        done = run(*args, cwd=tmp_path, via=via)
        after = snapshot(out)
    finally:
        if via:
            _owner_rights_back(out, target)
        else:
            make_writable(target)
    assert (done.returncode, done.stdout) == (1, ""), done.stderr
    assert after == before
    assert done.stderr.splitlines() == [
        f"sitemap-plugins generate: error: cannot replace {Path('out', name)}: {cause}"
    ]
    assert run(*args, cwd=tmp_path).returncode == 0  # replaceable again: the next run publishes
    assert (out / name).read_bytes() != before[name]
    assert set(lastmods(checked(out, BASE), BASE)) == {"a", "b"}


def _without_owner_rights_in_a_sticky_folder(folder: Path, target: Path) -> list[str]:
    """Make ``target`` another user's file in ``folder`` with the sticky bit (as in a shared web
    root, mode 1777) and return how to run a command that the sticky bit applies to: as root,
    through ``setpriv`` without the capability to act as any file's owner. Skips the test
    when that cannot be done here, or the kernel lets the file be replaced all the same."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run without the right to act as any owner")
    nobody = 65534
    via = [setpriv, "--bounding-set=-fowner"]
    folder.chmod(0o1777)
    for path in (folder, target):
        os.chown(path, nobody, nobody)
    probe, theirs = folder / "probe.tmp", folder / "probe-theirs.tmp"
    probe.write_bytes(b"")
    theirs.write_bytes(b"")
    os.chown(theirs, nobody, nobody)
    tried = subprocess.run([*via, "mv", "-f", str(probe), str(theirs)], capture_output=True,
                           check=False)  # fmt: skip
    probe.unlink(missing_ok=True)
    theirs.unlink()
    if tried.returncode == 0:
        _owner_rights_back(folder, target)
        pytest.skip("another user's file in a folder with the sticky bit was replaced here")
    return via


def _owner_rights_back(folder: Path, target: Path) -> None:
    """Undo :func:`_without_owner_rights_in_a_sticky_folder`: both root's again, no sticky bit."""
    for path in (folder, target):
        os.chown(path, 0, 0)
    folder.chmod(0o755)


def test_a_key_file_of_the_sites_own_is_kept_with_one_warning(tmp_path: Path) -> None:
    """A file of the site's own where the key file goes, holding something else, was written
    over without a word: it is the site's, kept, and one line says so, naming it with the key
    masked; the sitemap is written, and ``--strict`` stops the run with nothing written. (The
    key with a line end, as ``echo`` writes it, is the key: kept without a word.)"""
    write(tmp_path / "site/index.html", page("Home"))
    write(tmp_path / f"site/{KEY}.txt", "a note of mine\n")
    args = ("generate", "site", "--base-url", BASE, "--indexnow-key", KEY)
    strict = run(*args, "--strict", cwd=tmp_path)
    assert strict.returncode == 1
    assert sorted(path.name for path in (tmp_path / "site").iterdir()) == [
        f"{KEY}.txt",
        "index.html",
    ]
    done = run(*args, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    warning = (
        f"warning: {Path('site', masked(KEY) + '.txt')}: a file of the site's own is where the "
        "IndexNow key file goes (indexnow_key), holding something else; it is kept and no key "
        "file is written: remove it from the site, or turn indexnow_key off"
    )
    assert [line for line in done.stderr.splitlines() if KEY[:4] in line] == [warning]
    assert warning in strict.stderr.splitlines()
    assert (tmp_path / f"site/{KEY}.txt").read_text("ascii") == "a note of mine\n"
    assert set(lastmods(checked(tmp_path / "site", BASE), BASE)) == {""}


def test_the_indexnow_key_file_is_written_with_the_sitemap_and_never_shown(
    tmp_path: Path,
) -> None:
    key = "a1b2c3d4-e5f6-generate"
    write(tmp_path / "site/index.html", page("Home"))
    done = run("generate", "site", "--base-url", BASE, "--indexnow-key", key, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "site" / f"{key}.txt").read_text("ascii") == key
    assert (tmp_path / "site/sitemap.xml").is_file()
    assert key not in done.stdout + done.stderr
    refused = run("generate", "site", "--base-url", BASE, "--indexnow-key", "a1b2c3d4_e5f6",
                  cwd=tmp_path)  # fmt: skip
    assert refused.returncode == 2
    assert refused.stderr == (
        "sitemap-plugins generate: error: --indexnow-key: 'a1b2*********' is not allowed "
        "(allowed: 8 to 128 characters, each a letter a-z or A-Z, a digit or '-')\n"
    )


def test_no_progress_bar_outside_a_terminal(tmp_path: Path) -> None:
    write(tmp_path / "site/index.html", page("Home"))
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert "\r" not in done.stderr
    assert "\x1b" not in done.stderr


OTHER_COMMANDS = ("sitemap_plugins.validate", "sitemap_plugins.index", "sitemap_plugins.indexnow")


def imported(stderr: str) -> set[str]:
    """The modules a process imported, from what ``PYTHONPROFILEIMPORTTIME`` prints."""
    return {
        line.rsplit("|", 1)[1].strip()
        for line in stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_generate_starts_without_the_other_commands(tmp_path: Path) -> None:
    """``generate`` runs after every CI build: the validator, the index builder and the HTTP
    client they read with are not imported for it (they were half of its start-up), and each of
    the other commands still imports its own package."""
    write(tmp_path / "site/index.html", page("Home"))
    profile = {"PYTHONPROFILEIMPORTTIME": "1"}
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path, env=profile)
    assert done.returncode == 0, done.stderr
    modules = imported(done.stderr)
    assert "sitemap_plugins.generate.run" in modules
    assert not {m for m in modules if m.startswith(OTHER_COMMANDS)}
    assert not modules & {"http.client", "urllib.request", "ssl", "socket"}
    checked(tmp_path / "site", BASE)
    helped = run("index", "--help", cwd=tmp_path, env=profile)
    assert "'*/sitemap.xml'" in helped.stdout
    assert "versions.json" in helped.stdout
    assert not {m for m in imported(helped.stderr) if m.startswith(OTHER_COMMANDS)}
    validated = run("validate", "site", "--base-url", BASE, cwd=tmp_path, env=profile)
    assert validated.returncode == 0, validated.stdout + validated.stderr
    assert "sitemap_plugins.validate.run" in imported(validated.stderr)


# -- host configs ---------------------------------------------------------------------------


def test_mkdocs_yml_keys_are_read_as_mkdocs_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "base.yml", "site_url: https://base.example/\nsite_dir: public\n")
    write(tmp_path / "mkdocs.yml", (
        "INHERIT: base.yml\n"
        "site_name: 'It''s # not a comment'\n"
        "docs_dir: \"documentation\"  # a comment\n"
        "use_directory_urls: false\n"
        "site_url: !ENV [SITE_URL_SET, SITE_URL_UNSET, 'https://fallback.example/']\n"
        "theme:\n  name: material\n  site_url: https://nested.example/\n"
        "markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:x.y\n"
    ))  # fmt: skip
    monkeypatch.delenv("SITE_URL_SET", raising=False)
    monkeypatch.delenv("SITE_URL_UNSET", raising=False)
    host = find_host_config(tmp_path)
    assert host is not None
    assert (host.site_url, host.docs_dir, host.site_dir, host.use_directory_urls) == (
        "https://fallback.example/",
        tmp_path / "documentation",
        tmp_path / "public",
        False,
    )
    monkeypatch.setenv("SITE_URL_SET", "https://env.example/")
    host = find_host_config(tmp_path)
    assert host is not None
    assert host.site_url == "https://env.example/"


INSTANT = ("navigation.instant",)


@pytest.mark.parametrize(
    ("name", "text", "theme"),
    [
        ("mkdocs.yml", "theme:\n  name: material\n  features:\n    - navigation.instant\n",
         ("material", INSTANT, False)),
        ("mkdocs.yml", "theme: material\nextra:\n  version:\n    provider: mike\n",
         ("material", (), True)),
        # INHERIT merges mapping by mapping: the parent's name and features stay.
        ("mkdocs.yml", "INHERIT: base.yml\ntheme:\n  palette: {scheme: slate}\n",
         ("material", INSTANT, False)),
        ("mkdocs.yml", "extra:\n  version:\n    provider: !ENV [SITEMAP_TEST_PROVIDER, mike]\n",
         (None, (), True)),
        ("mkdocs.yml", "extra:\n  version:\n    provider: !ENV SITEMAP_TEST_PROVIDER\n",
         (None, (), False)),
        # Naming neither navigation.instant nor version, it is never parsed whole.
        ("mkdocs.yml", "theme:\n  name: material\n  features: [navigation.tabs]\nx: [no yaml\n",
         (None, (), False)),
        ("zensical.toml", '[project.theme]\nfeatures = ["navigation.instant"]\n',
         ("material", INSTANT, False)),
        ("zensical.toml", '[project.theme]\nname = "zensical"\n[project.extra.version]\n'
         'provider = "mike"\n', ("zensical", (), True)),
        ("zensical.toml", '[project]\nsite_name = "Example"\n', ("material", (), False)),
        ("mkdocs.toml", '[project.theme]\nname = "material"\nfeatures = ["navigation.instant"]\n',
         ("material", INSTANT, False)),
        ("mkdocs.toml", '[project]\nsite_name = "Example"\n', (None, (), False)),
    ],
)  # fmt: skip
def test_what_material_reads_sitemap_xml_for_is_read_from_the_host_config(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    text: str,
    theme: tuple[str | None, tuple[str, ...], bool],
) -> None:
    """The theme's name (Zensical's, named or not, is Material's), its ``features`` and whether
    ``extra.version`` names a ``provider``, as the host reads them: ``theme`` as a name or a
    mapping, a parent config ``INHERIT`` names merged under the file, ``!ENV`` with its
    default; an ``mkdocs.yml`` that names neither feature is read line by line alone."""
    monkeypatch.delenv("SITEMAP_TEST_PROVIDER", raising=False)
    write(tmp_path / "base.yml", "theme:\n  name: material\n  features: [navigation.instant]\n")
    write(tmp_path / name, text)
    host = find_host_config(tmp_path)
    assert host is not None
    assert (host.theme, host.theme_features, host.version_provider) == theme


def test_read_the_docs_gives_the_base_url_when_nothing_else_does(tmp_path: Path) -> None:
    """A step after the build on Read the Docs: its URL for this build stands in for a base
    URL that neither the command line, a config file nor the host's config gives."""
    write(tmp_path / "site/index.html", page("Home"))
    write(tmp_path / "site/guide/index.html", page("Guide"))
    canonical = "https://demo.readthedocs.io/en/latest/"
    rtd = {"READTHEDOCS_CANONICAL_URL": canonical}
    done = run("generate", "site", cwd=tmp_path, env=rtd)
    assert done.returncode == 0, done.stderr
    assert set(checked(tmp_path / "site", canonical)) == {canonical, canonical + "guide/"}
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path, env=rtd)
    assert set(checked(tmp_path / "site", BASE)) == {BASE, BASE + "guide/"}
    done = run("generate", "site", cwd=tmp_path, env={"READTHEDOCS_CANONICAL_URL": "/latest/"})
    assert done.returncode == 2
    assert done.stderr.startswith(
        "sitemap-plugins generate: error: $READTHEDOCS_CANONICAL_URL: '/latest/' is not allowed"
    )


@pytest.mark.parametrize(
    ("name", "text", "meta_file"),
    [
        ("mkdocs.yml", "plugins:\n  - search\n  - meta\n", ".meta.yml"),
        ("mkdocs.yml", "plugins:\n  - material/meta:\n      meta_file: m.yml\n", "m.yml"),
        ("mkdocs.yml", "plugins:\n  meta:\n    enabled: !ENV [ON_CI, true]\n", ".meta.yml"),
        ("mkdocs.yml", "plugins:\n  - meta:\n      enabled: false\n", None),
        ("mkdocs.yml", "plugins:\n  - search\nextra:\n  metadata: 1\n", None),
        ("mkdocs.yml", "INHERIT: base.yml\nsite_name: Child\n", "base.yml"),
        ("zensical.toml", "[project.plugins.meta]\n", ".meta.yml"),
        ("zensical.toml", '[project.plugins.meta]\nmeta_file = "_m.yml"\n', "_m.yml"),
        ("zensical.toml", "[project.plugins.meta]\nenabled = false\n", None),
        ("mkdocs.toml", "[project.plugins.meta]\n", None),  # MkDocs 2.0 runs no plugins
    ],
)
def test_the_meta_plugin_is_read_from_the_host_config(
    tmp_path: Path, name: str, text: str, meta_file: str | None
) -> None:
    """Where the host's config enables Material's or Zensical's meta plugin, and the name of its
    files: a list entry or a mapping, either name, ``enabled`` off, a tag MkDocs resolves, a
    parent config that ``INHERIT`` names (whose plugins name the file after it)."""
    write(tmp_path / "base.yml", "plugins:\n  - meta:\n      meta_file: base.yml\n")
    write(tmp_path / name, text)
    host = find_host_config(tmp_path)
    assert host is not None
    assert host.meta_file == meta_file


def test_zensical_toml_wins_and_bad_host_configs_are_one_line(tmp_path: Path) -> None:
    write(tmp_path / "mkdocs.yml", "site_url: https://mkdocs.example/\n")
    write(
        tmp_path / "zensical.toml", '[project]\nsite_url = "https://z.example/"\nsite_dir = "out"\n'
    )
    host = find_host_config(tmp_path)
    assert host is not None
    assert (host.host, host.site_url) == ("zensical", "https://z.example/")
    write(tmp_path / "zensical.toml", "[project]\nuse_directory_urls = 3\n")
    with pytest.raises(
        InputError, match=r"zensical\.toml: use_directory_urls 3 is not true or false$"
    ):
        find_host_config(tmp_path)
    write(tmp_path / "zensical.toml", "[project\n")
    with pytest.raises(InputError, match=r"zensical\.toml: not valid TOML: "):
        find_host_config(tmp_path)
    with pytest.raises(UsageError, match=r"^no SITE_DIR given, and no zensical\.toml"):
        resolve_settings(flags={}, cwd=tmp_path / "elsewhere")


def test_a_stale_record_temporary_of_another_user_does_not_stop_later_runs(
    tmp_path: Path,
) -> None:
    """The record was written through one fixed temporary name: a copy left there by another
    user's killed run, in a shared folder with the sticky bit, can be neither removed nor
    opened (not writable; with Linux's fs.protected_regular on, not even by root), and every
    later run failed at the record step. Runs go on, with the record of the set they wrote."""
    out = tmp_path / "out"
    write(tmp_path / "urls.txt", f"{BASE}a\n")
    args = ("generate", "out", "--urls", "urls.txt", "--base-url", BASE)
    assert run(*args, cwd=tmp_path).returncode == 0
    stale = out / f"{RECORD}.tmp"
    stale.write_bytes(b"{}\n")
    stale.chmod(0o644)
    via = _without_owner_rights_in_a_sticky_folder(out, stale)
    via = [*via[:-1], "--bounding-set=-fowner,-dac_override"]  # the file's mode counts too
    try:
        for urls in (f"{BASE}a\n{BASE}b\n", f"{BASE}b\n"):
            write(tmp_path / "urls.txt", urls)
            done = run(*args, cwd=tmp_path, via=via)
            assert (done.returncode, done.stderr) == (0, ""), done.stderr
            assert recorded_files(out) == {"sitemap.xml"}
            assert set(lastmods(checked(out, BASE), BASE)) == set(urls.replace(BASE, "").split())
            left = [name for name in temporary_files(out) if name != stale.name]
            assert left == []
    finally:
        _owner_rights_back(out, stale)
    assert run(*args, cwd=tmp_path).returncode == 0  # its owner's rights: the stale copy goes
    assert temporary_files(out) == []
