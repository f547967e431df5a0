"""How the core tells the host about problems without knowing the host's logging.

Every warning carries a :class:`Code`. Its value doubles as a Sphinx warning subtype
(``sitemap.<code>``), so users can silence one kind with ``suppress_warnings``, and it lets
tests assert on the kind of problem rather than on wording.
"""

from __future__ import annotations

import enum
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


class Reporter(Protocol):
    """The small interface each adapter maps onto its host's logging."""

    def warning(self, code: Code, message: str) -> None:
        """Report a problem the user should fix; hosts' strict modes count these."""

    def info(self, message: str) -> None:
        """Report progress, such as the one summary line per build."""


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
