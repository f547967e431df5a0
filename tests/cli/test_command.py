"""The installed ``sitemap-plugins`` console script, run as users and CI run it.

Exit statuses, the ``file:line: CODE: message`` lines and the summary, ``--format json``,
``python -m sitemap_plugins``, progress only on a terminal, and no traceback whatever the input.
The lines are compared by meaning with what the library reports for the same files.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest

from sitemap_plugins import __version__
from sitemap_plugins.validate import Report, validate
from tests.cli.helpers import BASE, index, urlset, write
from tests.support.console_script import ENV, SCRIPT, run, run_on_a_terminal

FINDING = re.compile(r"^(?P<source>.+?)(?::(?P<line>\d+))?: (?P<code>[REW]\d{3}): (?P<message>.+)$")
SUMMARY = re.compile(
    r"^(?:All checks passed: |Found (?P<problems>.+) in )(?P<files>[\d,]+) files?"
    r"(?:, | \()(?P<urls>[\d,]+) URLs?\)?\.$"
)


def parsed_lines(stdout: str) -> tuple[list[tuple[str, int | None, str]], re.Match[str]]:
    """The findings ``(source, line, code)`` and the summary match of a text report."""
    lines = stdout.splitlines()
    summary = SUMMARY.match(lines[-1])
    assert summary is not None, lines[-1]
    findings = []
    for line in lines[:-1]:
        match = FINDING.match(line)
        assert match is not None, line
        number = int(match["line"]) if match["line"] else None
        findings.append((match["source"], number, match["code"]))
    return findings, summary


def expected(report: Report) -> list[tuple[str, int | None, str]]:
    return [(f.source, f.line, f.code) for f in report.findings]


@pytest.fixture
def site(tmp_path: Path) -> Path:
    """A clean split site: an index and two children."""
    write(tmp_path / "sitemap-1.xml", urlset(f"{BASE}a/", f"{BASE}b/", lastmod="2024-05-01"))
    write(tmp_path / "sitemap-2.xml", urlset(f"{BASE}c/", lastmod="2024-05-02"))
    write(tmp_path / "sitemap.xml", index(f"{BASE}sitemap-1.xml", f"{BASE}sitemap-2.xml"))
    return tmp_path


def test_a_clean_site_exits_0_with_a_summary(site: Path) -> None:
    done = run("validate", ".", "--base-url", BASE, cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    findings, summary = parsed_lines(done.stdout)
    assert findings == []
    assert summary["problems"] is None
    assert (summary["files"], summary["urls"]) == ("3", "3")
    assert done.stderr == ""  # no progress when stderr is not a terminal


def test_errors_exit_1_and_each_line_names_file_line_and_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = urlset(f"{BASE}a b/", "relative/page/", f"{BASE}a b/").replace(
        "</loc></url>\n</urlset>", "</loc><priority>high</priority></url>\n</urlset>"
    )
    write(tmp_path / "sitemap.xml", text)

    done = run("validate", "sitemap.xml", cwd=tmp_path)

    assert done.returncode == 1
    findings, summary = parsed_lines(done.stdout)
    monkeypatch.chdir(tmp_path)
    assert findings == expected(validate(["sitemap.xml"]))
    assert {code for _, _, code in findings} == {"E301", "E303", "E307", "E405"}
    assert summary["problems"] == f"{len(findings)} errors"
    assert all(source == "sitemap.xml" for source, _, _ in findings)


def test_unreadable_exits_2_even_with_errors(tmp_path: Path) -> None:
    write(tmp_path / "bad.xml", urlset("relative/page/"))
    done = run("validate", "bad.xml", "missing.xml", cwd=tmp_path)
    assert done.returncode == 2
    findings, summary = parsed_lines(done.stdout)
    assert ("missing.xml", None, "R001") in findings
    assert summary["problems"].startswith("1 read failure")


def test_a_missing_file_is_named_where_it_was_looked_for_not_blamed_on_the_base_url(
    tmp_path: Path,
) -> None:
    """E601's hint fits its case. A robots.txt line or index entry whose file is missing says
    where it was looked for: no --base-url would find it elsewhere, and "pass --base-url" sent
    users after the wrong fix. An entry outside the --base-url given names that option as
    what does not match, not as an option still to pass."""
    write(tmp_path / "robots.txt", "Sitemap: https://example.org/docs/sitemap.xml\n")
    write(tmp_path / "1.0" / "sitemap.xml", urlset("https://example.org/1.0/a/"))
    children = ("https://example.org/1.0/sitemap.xml", "https://example.org/2.0/sitemap.xml")
    write(tmp_path / "versions.xml", index(*children))

    robots = run("validate", ".", cwd=tmp_path)
    child = run("validate", "versions.xml", cwd=tmp_path)
    elsewhere = run("validate", "versions.xml", "--base-url", BASE, cwd=tmp_path)

    missing = Path("docs") / "sitemap.xml"
    assert robots.stdout.splitlines()[0] == (
        f"robots.txt:1: E601: robots.txt lists https://example.org/docs/sitemap.xml, which does "
        f"not exist (looked for {missing}, sitemap.xml)"
    )
    assert child.stdout.splitlines()[0].endswith(
        f"which does not exist (looked for {Path('2.0') / 'sitemap.xml'})"
    )
    outside = [line for line in elsewhere.stdout.splitlines() if ": E601: " in line]
    assert len(outside) == 2
    for line in outside:
        assert f"which is not under {BASE} (--base-url, the URL of " in line
    assert [done.returncode for done in (robots, child, elsewhere)] == [1, 1, 1]
    assert "pass --base-url" not in robots.stdout + child.stdout + elsewhere.stdout


def test_a_base_url_naming_a_page_is_a_usage_error(site: Path, tmp_path: Path) -> None:
    """``--base-url https://example.org/docs/index.html``, copied from a browser, was taken for
    the folder ``index.html/``: every URL of a sound sitemap was an error, outside it. It exits
    2 with one line naming the folder to give; a folder stays a folder, with or without its
    slash, also one named ``x.html/``."""
    refused = run("validate", ".", "--base-url", BASE + "index.html", cwd=site)
    assert refused.returncode == 2
    assert refused.stdout == ""
    [error] = [line for line in refused.stderr.splitlines() if "error:" in line]
    assert error.endswith(
        f"error: argument --base-url: '{BASE}index.html': expected the URL of the folder the "
        f"site is served from, such as {BASE}; index.html is a page in it"
    )
    done = run("validate", ".", "--base-url", BASE.rstrip("/"), cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    folder = BASE + "v.html/"
    write(tmp_path / "v" / "sitemap.xml", urlset(folder, f"{folder}a/", lastmod="2024-05-01"))
    done = run("validate", "v", "--base-url", folder, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == "All checks passed: 1 file, 2 URLs."


@pytest.mark.parametrize("page", ["index.html", "index.php", "page.xhtml", "a.shtml", "b.aspx"])
def test_validate_as_a_library_refuses_a_base_url_naming_a_page_as_the_command_does(
    site: Path, page: str
) -> None:
    """``validate()`` took ``https://example.org/index.html`` for the folder ``index.html/``,
    which the command refuses: it raises ``ValueError`` with the command's words, and the
    command refuses a PHP or ASP.NET page (``index.php``, ``default.aspx``) as it does an HTML
    one. A folder with a dot in its name (``v1.2``, with or without its slash) is a folder."""
    expected = f"the URL of the folder the site is served from, such as {BASE}; {page} is a page"
    with pytest.raises(ValueError, match=re.escape(expected)):
        validate(["."], base_url=BASE + page)
    refused = run("validate", ".", "--base-url", BASE + page, cwd=site)
    assert refused.returncode == 2
    assert f"'{BASE}{page}': expected {expected} in it" in refused.stderr
    for folder in (f"{BASE}v1.2/", f"{BASE}docs.v2"):
        assert validate([site], base_url=folder).documents  # read, not refused


def test_a_bad_option_is_one_named_line_and_exit_2(tmp_path: Path) -> None:
    done = run("validate", ".", "--base-url", "docs/", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    errors = [line for line in done.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1
    assert "--base-url" in errors[0]
    assert "'docs/'" in errors[0]
    assert "Traceback" not in done.stderr

    for bad in ("0", "-3", "soon"):
        done = run("validate", ".", "--timeout", bad, cwd=tmp_path)
        assert done.returncode == 2
        assert "--timeout" in done.stderr


def test_targets_may_come_after_options(site: Path) -> None:
    """Every target is checked, those named after an option too."""
    done = run("validate", "sitemap-1.xml", "--base-url", BASE, "sitemap-2.xml", cwd=site)
    assert done.returncode == 0, done.stdout + done.stderr
    findings, summary = parsed_lines(done.stdout)
    report = validate([site / "sitemap-1.xml", site / "sitemap-2.xml"], base_url=BASE)
    assert (findings, int(summary["files"])) == (expected(report), 2)


def test_json_output_for_ci(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "sitemap.xml", urlset(f"{BASE}a/", f"{BASE}a/", "https://other.example/x/"))
    done = run("validate", "--format", "json", "--base-url", BASE, ".", cwd=tmp_path)

    document = json.loads(done.stdout)

    assert done.returncode == document["exit_status"] == 1
    monkeypatch.chdir(tmp_path)
    report = validate(["."], base_url=BASE)
    got = [(f["source"], f["line"], f["code"]) for f in document["findings"]]
    assert got == expected(report)
    assert {code for _, _, code in got} == {"E305", "E307"}
    assert document["summary"] == {
        "files": 1,
        "urls": 3,
        "unreadable": 0,
        "errors": report.errors,
        "warnings": report.warnings,
    }
    assert set(document["codes"]) == {c for _, _, c in got}
    assert all(document["codes"].values())
    assert document["documents"][0]["url"] == BASE + "sitemap.xml"
    assert {f["severity"] for f in document["findings"]} == {"error"}


def test_python_dash_m_is_the_same_command(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml", urlset("relative/page/", lastmod="2024-13-01"))
    script = run("validate", "sitemap.xml", cwd=tmp_path)
    module = run("validate", "sitemap.xml", cwd=tmp_path, module=True)
    assert (module.returncode, module.stdout) == (script.returncode, script.stdout)
    assert module.returncode == 1


def test_version_and_help(tmp_path: Path) -> None:
    version = run("--version", cwd=tmp_path)
    assert version.returncode == 0
    assert version.stdout.split() == ["sitemap-plugins", __version__]
    bare = run(cwd=tmp_path)
    assert bare.returncode == 2
    assert "validate" in bare.stderr
    helped = run("validate", "--help", cwd=tmp_path)
    assert helped.returncode == 0
    assert "--base-url" in helped.stdout
    assert "--format" in helped.stdout


@pytest.mark.parametrize(
    "content",
    [
        os.urandom(4096),
        b"\x1f\x8b" + os.urandom(300),
        b"<?xml version='1.0'?>\n<urlset",
        b"\xff\xfe<\x00u\x00",
        b"",
    ],
    ids=["random", "junk gzip", "truncated", "utf-16", "empty"],
)
def test_hostile_input_never_gives_a_traceback(tmp_path: Path, content: bytes) -> None:
    write(tmp_path / "sitemap.xml.gz", content)
    write(tmp_path / "sitemap.xml", content)
    done = run("validate", "sitemap.xml", "sitemap.xml.gz", ".", cwd=tmp_path)
    assert done.returncode in (1, 2)
    assert "Traceback" not in done.stderr
    findings, _ = parsed_lines(done.stdout)
    assert findings


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    write(tmp_path / "sitemap.xml", urlset(*(f"{BASE}page {i}/" for i in range(20_000))))
    if not SCRIPT.exists():
        pytest.fail(f"{SCRIPT} is missing: install the project (pip install .) to test it")
    with subprocess.Popen(
        [str(SCRIPT), "validate", "sitemap.xml"],
        cwd=tmp_path,
        env=ENV,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    ) as process:
        assert process.stdout is not None
        assert process.stderr is not None
        first = process.stdout.readline()
        process.stdout.close()
        stderr = process.stderr.read().decode()
        process.wait(timeout=120)
    assert b"E303" in first
    assert "Traceback" not in stderr
    assert "Exception ignored" not in stderr


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal (POSIX)")
def test_progress_only_on_a_terminal(site: Path) -> None:
    status, text, stdout = run_on_a_terminal("validate", "sitemap.xml", cwd=site)
    assert status == 0
    for number, name in enumerate(["sitemap.xml", "sitemap-1.xml", "sitemap-2.xml"], 1):
        assert f"checking #{number}: " in text
        assert name in text
    assert text.endswith("\r\x1b[K")  # the status line is erased before the report
    assert "checking" not in stdout
