"""README's options table must stay true to the one schema (names, defaults, order)."""

from __future__ import annotations

import re
from pathlib import Path

from sitemap_plugins.core.options import OPTION_SPECS

README = Path(__file__).resolve().parents[2] / "README.md"
ROW = re.compile(r"^\| `(?P<name>\w+)` \| `(?P<default>[^`]*)` \| (?P<help>.+) \|$")


def _shown(default: object) -> str:
    if default is None:
        return "unset"
    if isinstance(default, bool):
        return str(default).lower()
    if isinstance(default, tuple):
        return "[" + ", ".join(map(str, default)) + "]"
    return str(default)


def test_options_table_lists_every_option_with_its_default() -> None:
    rows = [m for line in README.read_text("utf-8").splitlines() if (m := ROW.match(line))]
    assert [(m["name"], m["default"]) for m in rows] == [
        (spec.name, _shown(spec.default)) for spec in OPTION_SPECS
    ]
    assert [m["help"] for m in rows] == [spec.help for spec in OPTION_SPECS]


def test_quick_start_has_the_two_commands_ci_runs() -> None:
    text = README.read_text("utf-8")
    block = text.split("## Quick start", 1)[1].split("```sh", 1)[1].split("```", 1)[0]
    commands = [line.split("#")[0].strip() for line in block.strip().splitlines()]
    assert commands == ["python3 dev.py examples", "python3 dev.py test"]
    ci = (README.parent / ".ci" / "run").read_text("utf-8")
    assert commands[1] in ci.splitlines()
