"""What ``generate`` shows while it runs: warnings as lines, a progress bar on a terminal only.

Warnings and information go to stderr (one line each, ``warning: ...``), so stdout holds only
the summary line. The bar redraws one line in place, at most a few times a second, and only when
stderr is a terminal: a CI log or a pipe gets no bar at all, as pip does.
"""

from __future__ import annotations

import shutil
import time
from typing import Final, TextIO

from sitemap_plugins.core.report import Code

__all__ = ["ConsoleReporter", "ProgressBar", "StatusLine"]

_INTERVAL: Final = 0.1


class _TerminalLine:
    """One line redrawn in place on a terminal and erased when done; nothing at all in a CI
    log or a pipe."""

    def __init__(self, stream: TextIO, *, enabled: bool | None = None) -> None:
        self._stream = stream
        self._enabled = stream.isatty() if enabled is None else enabled
        self._shown = False

    def _draw(self, line: str) -> None:
        width = self._room()
        if len(line) > width:
            line = line[: width - 3] + "..."
        self._stream.write("\r\x1b[K" + line)
        self._stream.flush()
        self._shown = True

    def _room(self) -> int:
        """The terminal's width, less the last column (writing there wraps on some terminals)."""
        return max(20, shutil.get_terminal_size().columns - 1)

    def clear(self) -> None:
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False


class ProgressBar(_TerminalLine):
    """``[#####.....] 1,234/5,000 pages`` on a terminal; nothing elsewhere."""

    def __init__(self, stream: TextIO, noun: str = "pages", *, enabled: bool | None = None) -> None:
        super().__init__(stream, enabled=enabled)
        self._noun = noun
        self._last = 0.0

    def __call__(self, done: int, total: int | None) -> None:
        if not self._enabled:
            return
        if done < 0:
            self.clear()
            return
        now = time.monotonic()
        if now - self._last < _INTERVAL and (total is None or done < total):
            return
        self._last = now
        if total:
            count = f" {done:,}/{total:,} {self._noun}"
            room = max(10, min(40, self._room() - len(count) - 2))
            filled = room * min(done, total) // total
            self._draw("[" + "#" * filled + "." * (room - filled) + "]" + count)
        else:
            self._draw(f"{done:,} {self._noun}")


class StatusLine(_TerminalLine):
    """``checking #3: https://example.org/sitemap-2.xml``: what a command is at, on a terminal."""

    def __init__(self, stream: TextIO, *, verb: str = "checking") -> None:
        super().__init__(stream)
        self._verb = verb
        self._count = 0

    def __call__(self, label: str) -> None:
        self._count += 1
        if self._enabled:
            self._draw(f"{self._verb} #{self._count}: {label}")


class ConsoleReporter:
    """The core's :class:`~sitemap_plugins.core.Reporter` on stderr, around a progress bar.

    ``unreadable`` counts the warnings about input that could not be read, for the exit
    status: the sitemap of the rest is written, yet the run did not see the whole site."""

    def __init__(self, stream: TextIO, bar: ProgressBar | None = None) -> None:
        self._stream = stream
        self._bar = bar
        self.unreadable = 0

    def warning(self, code: Code, message: str) -> None:
        if code is Code.UNREADABLE:
            self.unreadable += 1
        self._line(f"warning: {message}")

    def info(self, message: str) -> None:
        self._line(message.removeprefix("sitemap: "))

    def _line(self, text: str) -> None:
        if self._bar is not None:
            self._bar.clear()
        self._stream.write(text + "\n")
        self._stream.flush()
