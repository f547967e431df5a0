"""Pages that document Python code with mkdocstrings are as new as that code, in real builds:
``::: mypkg.models`` shows the module's docstrings, whose changes change the page while its own
Markdown stays as it was.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.mkdocs.helpers import BASE, sitemap, touch_later, write_config
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build

pytestmark = pytest.mark.mkdocs
pytest.importorskip("mkdocstrings_handlers.python", reason="mkdocstrings-python is not installed")

API = BASE + "api/"
FUNCS = BASE + "funcs/"
TREE = BASE + "tree/"
SYNTAX = BASE + "syntax/"
STDLIB = BASE + "stdlib/"
HOME = BASE

JAN = "2024-01-01T09:00:00+00:00"
MAR = "2024-03-03T09:00:00+00:00"
JUN = "2024-06-01T09:00:00+00:00"
SEP = "2024-09-09T09:00:00+00:00"


def site_with_api_docs(repo: GitRepo, package_dir: str = "src", **python: object) -> Path:
    """A site documenting package ``mypkg`` under ``package_dir``:

    - ``api.md``: ``::: mypkg``, whose ``__init__.py`` re-exports ``Model`` from ``_models.py``
      (in ``__all__``, so mkdocstrings shows it);
    - ``funcs.md``: ``::: mypkg.funcs.helper`` (a function), with options below the line;
    - ``tree.md``: ``::: mypkg.sub`` with ``show_submodules: true``;
    - ``syntax.md``: the directive inside a fenced code block, which mkdocstrings leaves as code;
    - ``stdlib.md``: ``::: json``, documented from outside the repository.

    Everything was added on 2024-01-01; ``_models.py`` changed on 2024-03-03, ``funcs.py`` on
    2024-06-01, ``sub/deep/leaf.py`` on 2024-09-09, and no page's own source ever again.
    ``python`` are the Python handler's settings."""
    pkg = f"{package_dir}/mypkg" if package_dir != "." else "mypkg"
    repo.write(
        f"{pkg}/__init__.py",
        '"""The package."""\n\nfrom ._models import Model\n\n__all__ = ["Model"]\n',
    )
    repo.write(f"{pkg}/_models.py", 'class Model:\n    """A model."""\n')
    repo.write(f"{pkg}/funcs.py", 'def helper() -> int:\n    """Help once."""\n    return 1\n')
    repo.write(f"{pkg}/sub/__init__.py", '"""Sub package."""\n')
    repo.write(f"{pkg}/sub/deep/__init__.py", '"""Deeper."""\n')
    repo.write(f"{pkg}/sub/deep/leaf.py", '"""A leaf."""\n')
    repo.write("docs/index.md", "# Home\n")
    repo.write("docs/api.md", "# API\n\n::: mypkg\n")
    repo.write(
        "docs/funcs.md",
        "# Functions\n\n::: mypkg.funcs.helper\n    options:\n      show_root_heading: true\n",
    )
    repo.write(
        "docs/tree.md", "# Tree\n\n::: mypkg.sub\n    options:\n      show_submodules: true\n"
    )
    repo.write("docs/syntax.md", "# Syntax\n\n```md\n::: mypkg.funcs\n```\n")
    repo.write("docs/stdlib.md", "# Standard library\n\n::: json\n")
    handler = {"python": python} if python else {}
    write_config(repo, plugins=["sitemap", {"mkdocstrings": {"handlers": handler}}])
    repo.commit("a site", JAN)
    repo.write(f"{pkg}/_models.py", 'class Model:\n    """A model, reworded."""\n')
    repo.commit("models", MAR)
    repo.write(f"{pkg}/funcs.py", 'def helper() -> int:\n    """Help twice."""\n    return 2\n')
    repo.commit("funcs", JUN)
    repo.write(f"{pkg}/sub/deep/leaf.py", '"""A leaf, reworded."""\n')
    repo.commit("leaf", SEP)
    return repo.root


def dates(site: Path) -> dict[str, str | None]:
    return {loc: entry.lastmod for loc, entry in sitemap(site).items()}


def z(date: str) -> str:
    return date.replace("+00:00", "Z")


EXPECTED = {
    HOME: z(JAN),
    API: z(MAR),  # __init__.py shows Model from _models.py
    FUNCS: z(JUN),  # the function's module
    TREE: z(SEP),  # a submodule two folders down, shown with show_submodules
    SYNTAX: z(JAN),  # an example of the syntax documents nothing
    STDLIB: z(JAN),  # json's module is not the site's: its own source
}


def test_a_page_is_as_new_as_the_modules_it_documents(git_repo: GitRepo) -> None:
    root = site_with_api_docs(git_repo, paths=["src"])
    mkdocs_build(root, "--strict")
    site = root / "site"
    assert "A model, reworded." in (site / "api/index.html").read_text("utf-8")
    assert "Help twice." in (site / "funcs/index.html").read_text("utf-8")
    assert "A leaf, reworded." in (site / "tree/index.html").read_text("utf-8")
    assert "::: mypkg.funcs" in (site / "syntax/index.html").read_text("utf-8")
    assert dates(site) == EXPECTED


def test_the_config_folder_is_searched_without_paths(git_repo: GitRepo) -> None:
    """The Python handler looks in ``mkdocs.yml``'s folder when no ``paths`` are set."""
    root = site_with_api_docs(git_repo, package_dir=".")
    mkdocs_build(root, "--strict")
    assert dates(root / "site") == EXPECTED


def test_without_submodules_a_package_page_is_dated_by_the_package_alone(
    git_repo: GitRepo,
) -> None:
    root = site_with_api_docs(git_repo, paths=["src"])
    git_repo.write("docs/tree.md", "# Tree\n\n::: mypkg.sub\n")
    git_repo.commit("no submodules", "2024-02-02T09:00:00+00:00")
    mkdocs_build(root, "--strict")
    assert dates(root / "site")[TREE] == "2024-02-02T09:00:00Z"  # its own source, not leaf.py


def test_shallow_clones_date_only_what_they_can_prove(git_repo: GitRepo, tmp_path: Path) -> None:
    """In a clone of the two newest commits, the tree page's module changed in the newest
    (dated); every other page's files go back to the boundary commit, so each may be older
    than anything known, and gets no lastmod rather than a wrong one."""
    site_with_api_docs(git_repo, paths=["src"])
    clone = git_repo.clone(tmp_path / "ci", depth=2)
    mkdocs_build(clone.root)
    got = dates(clone.root / "site")
    assert got[TREE] == z(SEP)
    assert got[FUNCS] in (None, z(JUN))  # its module changed in the boundary commit
    for loc in (HOME, API, SYNTAX, STDLIB):
        assert got[loc] is None, loc


def test_fresh_dirty_builds_keep_the_modules_a_page_documents(git_repo: GitRepo) -> None:
    """``mkdocs build --dirty`` does not render the functions page again when only its module
    changed: the page is listed with the modules it documented when last rendered, and dated
    by the module's new commit."""
    root = site_with_api_docs(git_repo, paths=["src"])
    mkdocs_build(root)
    assert dates(root / "site") == EXPECTED
    git_repo.write("src/mypkg/funcs.py", 'def helper() -> int:\n    """Help thrice."""\n')
    git_repo.commit("funcs again", "2025-05-05T09:00:00+00:00")
    touch_later(git_repo.path("docs/index.md"))  # a --dirty build that renders some page
    for _ in range(2):
        mkdocs_build(root, "--dirty")
        assert "Help thrice." not in (root / "site/funcs/index.html").read_text("utf-8")
        assert dates(root / "site") == {**EXPECTED, FUNCS: "2025-05-05T09:00:00Z"}


GEN_REF = """import mkdocs_gen_files

for name in ("_models", "funcs"):
    with mkdocs_gen_files.open(f"reference/{name}.md", "w") as page:
        page.write(f"# {name}\\n\\n::: mypkg.{name}\\n")
with mkdocs_gen_files.open("reference/index.md", "w") as page:
    page.write("# Reference\\n\\nEvery module.\\n")
"""


def test_pages_gen_files_writes_are_dated_by_their_modules_and_its_scripts(
    git_repo: GitRepo,
) -> None:
    """mkdocstrings' recipe for API reference pages: a mkdocs-gen-files script writes a page per
    module. Such a page has no source of its own; it is made of the script's lines and the
    module's docstrings, so it is as new as the newer of the two. A generated page that reads
    nothing in (the reference's index) stays undated: what its script read is unknown."""
    pytest.importorskip("mkdocs_gen_files", reason="mkdocs-gen-files is not installed")
    from mkdocs.structure.files import File

    if not hasattr(File, "generated_by"):
        pytest.skip("MkDocs marks generated pages from 1.6 on")
    root = site_with_api_docs(git_repo, paths=["src"])
    git_repo.write("scripts/gen_ref.py", GEN_REF)
    write_config(
        git_repo,
        plugins=[
            "sitemap",
            {"gen-files": {"scripts": ["scripts/gen_ref.py"]}},
            {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}},
        ],
    )
    git_repo.commit("reference pages", "2024-04-04T09:00:00+00:00")
    mkdocs_build(root, "--strict")
    site = root / "site"
    assert "Help twice." in (site / "reference/funcs/index.html").read_text("utf-8")
    got = dates(site)
    assert got[BASE + "reference/_models/"] == "2024-04-04T09:00:00Z"  # the script is newer
    assert got[BASE + "reference/funcs/"] == z(JUN)  # the module is newer
    assert got[BASE + "reference/"] is None
    git_repo.write("scripts/gen_ref.py", GEN_REF.replace("# {name}", "# Module {name}"))
    git_repo.commit("titles", "2024-12-12T09:00:00+00:00")
    mkdocs_build(root, "--strict")
    got = dates(site)
    assert got[BASE + "reference/_models/"] == "2024-12-12T09:00:00Z"
    assert got[BASE + "reference/funcs/"] == "2024-12-12T09:00:00Z"


def test_a_namespace_package_dates_by_what_its_modules_import_from_it(git_repo: GitRepo) -> None:
    """``src/acme`` has no ``__init__.py`` (a namespace package): ``::: acme.tools`` is dated
    by ``tools/__init__.py`` and by the module it imports from by its absolute name."""
    git_repo.write(
        "src/acme/tools/__init__.py",
        '"""Tools."""\n\nfrom acme.tools._core import Hammer\n\n__all__ = ["Hammer"]\n',
    )
    git_repo.write("src/acme/tools/_core.py", 'class Hammer:\n    """A hammer."""\n')
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/tools.md", "# Tools\n\n::: acme.tools\n")
    write_config(
        git_repo,
        plugins=["sitemap", {"mkdocstrings": {"handlers": {"python": {"paths": ["src"]}}}}],
    )
    git_repo.commit("a site", JAN)
    git_repo.write("src/acme/tools/_core.py", 'class Hammer:\n    """A heavier hammer."""\n')
    git_repo.commit("core", MAR)
    mkdocs_build(git_repo.root, "--strict")
    site = git_repo.root / "site"
    assert "A heavier hammer." in (site / "tools/index.html").read_text("utf-8")
    assert dates(site) == {HOME: z(JAN), BASE + "tools/": z(MAR)}
