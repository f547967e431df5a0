"""MkDocs test fixtures: real sites in real git repositories with dated commits."""

from __future__ import annotations

from tests.support.fixtures import git_repo

__all__ = ["git_repo"]
