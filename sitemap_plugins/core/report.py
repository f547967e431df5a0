"""How the core tells the host about problems without knowing the host's logging.

Every warning carries a :class:`Code`. Its value doubles as a Sphinx warning subtype
(``sitemap.<code>``), so users can silence one kind with ``suppress_warnings``, and it lets
tests assert on the kind of problem rather than on wording.

What must stop the build is raised instead, as a :class:`SitemapError`: every host has its own
way to fail a build (MkDocs ``PluginError``, a Sphinx error class, Pelican's exit status), and only
an exception reaches it. Its message is one line that names the path and the cause, so each
adapter can show it as its host shows its own errors, never as a traceback.
"""

from __future__ import annotations

import enum
import logging
from typing import Protocol


class Code(str, enum.Enum):
    """The kinds of problem the core reports."""

    BAD_PRIORITY = "priority"
    BAD_CHANGEFREQ = "changefreq"
    BAD_LASTMOD = "lastmod"
    BAD_METADATA = "metadata"
    BAD_URL = "url"
    NO_BASE_URL = "base_url"
    DUPLICATE = "duplicate"
    GIT = "git"
    EMPTY = "empty"
    CONFLICT = "conflict"
    PUBLISH = "publish"
    UNREADABLE = "unreadable"
    BAD_VIDEO = "video"
    BAD_NEWS = "news"


class Reporter(Protocol):
    """The small interface each adapter maps onto its host's logging."""

    def warning(self, code: Code, message: str) -> bool | None:
        """Report a problem the user should fix; hosts' strict modes count these. False: the
        user silenced this kind in the host (Sphinx's ``suppress_warnings``), so the ``strict``
        option does not count it either."""

    def info(self, message: str) -> None:
        """Report progress, such as the one summary line per build."""


class LoggingReporter:
    """A reporter onto a standard ``logging`` logger, as MkDocs and Pelican log: the host counts
    our warnings with its own (``mkdocs --strict``, ``pelican --fatal warnings``)."""

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger

    def warning(self, code: Code, message: str) -> None:
        self.logger.warning("sitemap: %s", message)

    def info(self, message: str) -> None:
        self.logger.info("%s", message)


class CollectingReporter:
    """A reporter that keeps what it is told: for tests, and for hosts without logging."""

    def __init__(self) -> None:
        self.warnings: list[tuple[Code, str]] = []
        self.infos: list[str] = []

    def warning(self, code: Code, message: str) -> None:
        self.warnings.append((code, message))

    def info(self, message: str) -> None:
        self.infos.append(message)

    def codes(self) -> list[Code]:
        """The codes of the warnings so far, in order."""
        return [code for code, _ in self.warnings]


class SitemapError(Exception):
    """A problem that stops the build; ``str()`` is one line fit for the host's error output."""


class PublishError(SitemapError):
    """A file could not be written, replaced or read; whatever was published before stays.

    ``path`` is the file or folder concerned and ``cause`` what the system said about it
    ("No space left on device"), so the message reads ``cannot write PATH: CAUSE``.
    """

    def __init__(self, action: str, path: object, cause: str) -> None:
        self.action = action
        self.path = path
        self.cause = cause
        super().__init__(f"cannot {action} {path}: {cause}")


class StrictError(SitemapError):
    """Strict mode saw warnings (reported just before); unless ``written``, nothing was written.

    ``written`` is true only for a warning that came after the new files were in place, such as
    an earlier build's file that could not be removed.
    """

    def __init__(self, warnings: int, *, written: bool = False) -> None:
        self.warnings = warnings
        self.written = written
        counted = f"{warnings} warning{'s' if warnings != 1 else ''} in strict mode"
        super().__init__(counted if written else f"{counted}; no sitemap written")


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """``1 URL``, ``2 URLs``, ``1,000 entries``: a count as the lines users read give it,
    since "1 URLs" reads as a slip."""
    return f"{number:,} {noun if number == 1 else plural or noun + 's'}"
