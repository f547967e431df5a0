"""The command line's terminal lines: drawn in place on a terminal, erased when done, absent in
a log or a pipe, never wider than the terminal."""

from __future__ import annotations

import io

import pytest

from sitemap_plugins.generate.console import ProgressBar, StatusLine

ERASE = "\r\x1b[K"


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(autouse=True)
def narrow_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "41")
    monkeypatch.setenv("LINES", "24")


def test_a_status_line_counts_redraws_and_is_erased_at_the_end() -> None:
    terminal = Terminal()
    status = StatusLine(terminal, verb="reading")
    status("a.xml")
    status("https://example.org/" + "x" * 100)
    status.clear()
    drawn = terminal.getvalue().split(ERASE)
    assert drawn[0] == ""
    assert drawn[1] == "reading #1: a.xml"
    assert drawn[2].startswith("reading #2: https://example.org/")
    assert drawn[2].endswith("...")
    assert len(drawn[2]) == 40  # the terminal's width less its last column
    assert drawn[3:] == [""]  # erased, and nothing after


def test_a_progress_bar_fills_and_fits() -> None:
    terminal = Terminal()
    bar = ProgressBar(terminal, "URLs")
    bar(10, 10)
    bar(-1, None)
    drawn = terminal.getvalue().split(ERASE)
    assert drawn[1].endswith("] 10/10 URLs")
    assert "." not in drawn[1].split("]")[0]
    assert len(drawn[1]) <= 40
    assert drawn[2:] == [""]


def test_nothing_is_written_outside_a_terminal() -> None:
    log = io.StringIO()
    status, bar = StatusLine(log), ProgressBar(log)
    status("a.xml")
    bar(1, 2)
    status.clear()
    bar.clear()
    assert log.getvalue() == ""
