"""A checkout that belongs to another user than the build's, as when a container builds a
mounted clone (``docker run -v "$PWD:/docs" ...`` runs as root over the host user's files):
git refuses to read it. Each host still lists every page, says once why no page is dated by
git and how to fix it, fails in its strict mode, and dates pages from git once the fix named
is made.

As root, the clone is really given to another user (as in that container). Everywhere, git's
own switch for testing this check (``GIT_TEST_ASSUME_DIFFERENT_OWNER``) makes the same git code
refuse the clone of the user running the tests.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest

from tests.support.gitrepo import GitRepo, git_env, have_git
from tests.support.hosts import mkdocs_build, output, pelican_build, sphinx_build

pytestmark = pytest.mark.skipif(not have_git(), reason="git is not installed")

EXAMPLES = Path(__file__).resolve().parents[2] / "example_sites"
OTHER_USER = 65534  # nobody
Build = Callable[..., subprocess.CompletedProcess[str]]
HOSTS: dict[str, tuple[Build, tuple[str, ...]]] = {
    "mkdocs": (mkdocs_build, ("--strict",)),
    "sphinx": (
        lambda folder, *args, **kw: sphinx_build(folder, folder / "_build", *args, **kw),
        ("-W",),
    ),
    "pelican": (  # -v: Pelican shows its plugins' information lines only when asked
        lambda folder, *args, **kw: pelican_build(folder, "-v", *args, **kw),
        ("--fatal", "warnings"),
    ),
}
SUMMARY = re.compile(r"sitemap: \d+ URLs? in [^;\n]*(?:;[^\n]*)?")


def _give_away(root: Path, how: str) -> dict[str, str]:
    """Make ``root`` another user's, for git; the variables the builds then run with."""
    if how == "switch":
        return {"GIT_TEST_ASSUME_DIFFERENT_OWNER": "1"}
    if os.geteuid() != 0:
        pytest.skip("only root can give a folder to another user (the switch case runs instead)")
    for folder, dirs, files in os.walk(root):
        for path in [Path(folder), *(Path(folder, item) for item in dirs + files)]:
            os.lchown(path, OTHER_USER, OTHER_USER)
    return {}


def _lastmod_origins(log: str) -> str:
    """The ``lastmod from ...`` part of the build's one summary line."""
    lines = SUMMARY.findall(log)
    assert len(lines) == 1, log
    found = re.search(r"lastmod from ([^;]*)", lines[0])
    return found.group(1) if found else ""


@pytest.mark.parametrize("how", ["chown", "switch"])
@pytest.mark.parametrize("host", list(HOSTS))
def test_a_clone_of_another_user_is_said_once_with_its_fix(
    tmp_path: Path, host: str, how: str
) -> None:
    build, strict = HOSTS[host]
    repo = GitRepo(tmp_path / "repo")
    folder = repo.root / host
    ignore = shutil.ignore_patterns("site", "_build", "output", "__pycache__")
    shutil.copytree(EXAMPLES / host, folder, ignore=ignore)
    repo.commit("the example site", "2024-02-01T10:00:00+00:00")
    no_config = tmp_path / "empty.gitconfig"
    no_config.write_text("", "utf-8")
    env: Mapping[str, str] = {
        "GIT_CONFIG_GLOBAL": str(no_config),  # none of the developer's safe.directory
        "GIT_CONFIG_NOSYSTEM": "1",
        "COLUMNS": "2000",  # Pelican's log wraps lines at the terminal's width
        **_give_away(repo.root, how),
    }
    refused = subprocess.run(
        ["git", "status"], cwd=repo.root, env=git_env(env), capture_output=True, text=True,
        check=False,
    )  # fmt: skip
    if "dubious ownership" not in refused.stderr:
        pytest.skip(f"this git reads another user's repository ({refused.stderr.strip()})")
    top = os.path.realpath(repo.root)
    fix = f"git config --global --add safe.directory {top}"

    log = output(build(folder, env=env))
    said = [line for line in log.splitlines() if "dubious ownership" in line]
    assert len(said) == 1, log
    assert fix in said[0]
    assert "git" not in _lastmod_origins(log)
    assert _lastmod_origins(log)  # every page is still listed, dated or not

    failed = build(folder, *strict, env=env, check=False)
    assert failed.returncode != 0, output(failed)
    assert fix in output(failed)

    fixed_config = tmp_path / "fixed.gitconfig"
    subprocess.run(
        [*fix.split(" ")[:-1], top], env=git_env({**env, "GIT_CONFIG_GLOBAL": str(fixed_config)}),
        check=True,
    )  # fmt: skip
    log = output(build(folder, *strict, env={**env, "GIT_CONFIG_GLOBAL": str(fixed_config)}))
    assert "dubious ownership" not in log
    assert "git" in _lastmod_origins(log)
