"""README's command-line section stays true to the code: every check code, the CI step."""

from __future__ import annotations

import re
from pathlib import Path

from sitemap_plugins.validate import Check

README = Path(__file__).resolve().parents[2] / "README.md"
CODE_ROW = re.compile(r"^\| `(?P<code>[REW]\d{3})` \| (?P<summary>.+) \|$")


def _section(text: str, heading: str) -> str:
    return text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]


def test_the_codes_table_lists_every_check_with_its_summary() -> None:
    section = _section(README.read_text("utf-8"), "## Command line")
    rows = [m for line in section.splitlines() if (m := CODE_ROW.match(line))]
    assert [(m["code"], m["summary"]) for m in rows] == [(c.value, c.summary) for c in Check]
    # Shown as Markdown: nothing a renderer would take for HTML.
    assert not [m["summary"] for m in rows if re.search(r"[<>]|&\w+;", m["summary"])]


def test_the_example_output_and_the_ci_step_use_real_codes_and_the_command() -> None:
    section = _section(README.read_text("utf-8"), "## Command line")
    console = section.split("```console\n", 1)[1].split("```", 1)[0]
    shown = re.findall(r": ([REW]\d{3}): ", console)
    assert shown
    assert set(shown) <= {check.value for check in Check}
    ci = section.split("```yaml\n", 1)[1].split("```", 1)[0]
    assert "run: sitemap-plugins validate " in ci
