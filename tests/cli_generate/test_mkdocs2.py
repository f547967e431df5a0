"""A real MkDocs 2.0 pre-release build, then ``generate`` with no argument but the project's
``mkdocs.toml``.

The pre-releases read no config file yet (``mkdocs build`` takes ``docs/`` and writes ``site/``)
and refuse to run beside an ``mkdocs.yml``; ``generate`` reads the site URL from
``mkdocs.toml``. MkDocs 2.0 lower-cases the page names it writes (``Topics/API.md`` is
``Topics/api/``) and serves ``README.md`` as its folder's page: sources are still found.
Runs in its own nox session (``tests_cli_generate_mkdocs2``), since MkDocs 2.0 replaces 1.x.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli_generate.helpers import checked, lastmods, run, written
from tests.support.gitrepo import GitRepo

pytestmark = pytest.mark.mkdocs2

BASE = "https://example.org/manual/"


def mkdocs_2() -> Path:
    found = shutil.which("mkdocs")
    if found is None:
        pytest.skip("MkDocs 2.0 is installed in the tests_cli_generate_mkdocs2 session only")
    version = subprocess.run(
        [str(Path(found).parent / "python"), "-c", "import mkdocs.mkdocs"],
        capture_output=True,
        check=False,
    )
    if version.returncode != 0:
        pytest.skip("the mkdocs installed here is not a 2.0 pre-release")
    return Path(found)


def test_mkdocs_2_build_then_generate(git_repo: GitRepo) -> None:
    mkdocs = mkdocs_2()
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("mkdocs.toml", f'site_url = "{BASE}"\n')
    git_repo.write("docs/README.md", "# Home\n")
    git_repo.write("docs/Topics/API.md", "# API\n")
    git_repo.commit("start", "2024-02-01T10:00:00+01:00")
    git_repo.write("docs/Topics/API.md", "# API\n\nMore.\n")
    git_repo.write("docs/guide.md", "# Guide\n")
    git_repo.commit("api, guide", "2024-06-15T16:20:00-07:00")
    built = subprocess.run(
        [str(mkdocs), "build"], cwd=git_repo.root, capture_output=True, text=True, check=False
    )
    assert built.returncode == 0, built.stdout + built.stderr
    assert (git_repo.root / "site/Topics/api/index.html").is_file()
    done = run("generate", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(git_repo.root / "site", BASE), BASE)
    assert got == {
        "": written(git_repo.log_date("docs/README.md")),
        "Topics/api/": written(git_repo.log_date("docs/Topics/API.md")),
        "guide/": written(git_repo.log_date("docs/guide.md")),
    }
    assert got["Topics/api/"] == "2024-06-15T16:20:00-07:00"
