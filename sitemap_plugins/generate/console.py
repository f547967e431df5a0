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

__all__ = ["ConsoleReporter", "ProgressBar"]

_INTERVAL: Final = 0.1


class ProgressBar:
    """``[#####.....] 1,234/5,000 pages`` on a terminal; nothing elsewhere."""

    def __init__(self, stream: TextIO, noun: str = "pages", *, enabled: bool | None = None) -> None:
        self._stream = stream
        self._noun = noun
        self._enabled = stream.isatty() if enabled is None else enabled
        self._shown = False
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
        width = max(20, shutil.get_terminal_size().columns - 1)
        if total:
            count = f" {done:,}/{total:,} {self._noun}"
            room = max(10, min(40, width - len(count) - 2))
            filled = room * min(done, total) // total
            line = "[" + "#" * filled + "." * (room - filled) + "]" + count
        else:
            line = f"{done:,} {self._noun}"
        self._stream.write("\r\x1b[K" + line[:width])
        self._stream.flush()
        self._shown = True

    def clear(self) -> None:
        if self._shown:
            self._stream.write("\r\x1b[K")
            self._stream.flush()
            self._shown = False


class ConsoleReporter:
    """The core's :class:`~sitemap_plugins.core.Reporter` on stderr, around a progress bar."""

    def __init__(self, stream: TextIO, bar: ProgressBar | None = None) -> None:
        self._stream = stream
        self._bar = bar
        self.warnings = 0

    def warning(self, code: Code, message: str) -> None:
        self.warnings += 1
        self._line(f"warning: {message}")

    def info(self, message: str) -> None:
        self._line(message.removeprefix("sitemap: "))

    def _line(self, text: str) -> None:
        if self._bar is not None:
            self._bar.clear()
        self._stream.write(text + "\n")
        self._stream.flush()
