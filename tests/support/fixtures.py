"""Pytest fixtures shared by every test package; ``tests/conftest.py`` imports them."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.gitrepo import GitRepo, have_git

__all__ = ["git_repo"]


@pytest.fixture
def git_repo(tmp_path: Path) -> GitRepo:
    """An empty git repository (branch ``main``) in ``tmp_path / "repo"``; skips without git."""
    if not have_git():
        pytest.skip("git is not installed")
    return GitRepo(tmp_path / "repo")
