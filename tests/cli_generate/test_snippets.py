"""A real ``zensical build``, then ``generate``: a page is as new as the files it reads in.

The home page shows ``includes/notice.md`` with ``pymdownx.snippets``, set in the host's config
(``zensical.toml``, or ``mkdocs.yml``, which Zensical reads too, with a tag of MkDocs' own). The
page's source last changed at OLD, the notice at NEW: the home page changed at NEW.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_generate.helpers import checked, lastmods, run, written, zensical_build
from tests.support.git_trace import GitTrace
from tests.support.gitrepo import GitRepo

BASE = "https://docs.example.org/"
OLD = "2024-01-15T12:00:00+00:00"
NEW = "2024-06-02T09:30:00+02:00"
CONFIGS = {
    "zensical.toml": """\
[project]
site_name = "Example"
site_url = "https://docs.example.org/"

[project.markdown_extensions.pymdownx.snippets]
base_path = ["includes"]
{extra}""",
    "mkdocs.yml": """\
site_name: Example
site_url: !ENV [SITEMAP_PLUGINS_NO_SUCH_VARIABLE, "https://docs.example.org/"]
markdown_extensions:
  - admonition
  - pymdownx.snippets:
      base_path: [includes]
{extra}""",
}


@pytest.fixture(params=sorted(CONFIGS))
def project(git_repo: GitRepo, request: pytest.FixtureRequest) -> GitRepo:
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write(request.param, CONFIGS[request.param].format(extra=""))
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", '# Home\n\n--8<-- "notice.md"\n')
    git_repo.write("docs/guide.md", "# Guide\n")
    git_repo.write("includes/notice.md", "The notice.\n")
    git_repo.commit("start", OLD)
    git_repo.write("includes/notice.md", "The new notice.\n")
    git_repo.commit("reword the notice", NEW)
    return git_repo


def test_a_page_is_as_new_as_the_files_it_reads_in(project: GitRepo, tmp_path: Path) -> None:
    """The notice lies beyond ``docs/``, which the pass begun with the walk does not cover: a
    run without the cache runs a second pass, over it too; the next run reads no history."""
    zensical_build(project.root)
    assert "The new notice." in (project.root / "site/index.html").read_text("utf-8")
    trace = GitTrace(tmp_path / "trace")
    done = run("generate", cwd=project.root, env=trace.env)
    assert done.returncode == 0, done.stderr
    dates = lastmods(checked(project.root / "site", BASE), BASE)
    assert dates == {"": written(NEW), "guide/": written(OLD)}
    assert "warning" not in done.stderr
    assert trace.count("log") == 2, trace.commands()
    trace.clear()
    done = run("generate", cwd=project.root, env=trace.env)
    assert lastmods(checked(project.root / "site", BASE), BASE) == dates
    assert trace.count("log") == 0, trace.commands()


def test_snippet_settings_generate_cannot_use_are_named(project: GitRepo) -> None:
    """Settings Python-Markdown refuses: one warning names the host's config and the extension,
    and every page is still listed, dated by its own source."""
    zensical_build(project.root)
    name = next(name for name in CONFIGS if (project.root / name).exists())
    extra = "no_such_setting = 1\n" if name.endswith(".toml") else "      no_such_setting: 1\n"
    project.write(name, CONFIGS[name].format(extra=extra))
    done = run("generate", cwd=project.root)
    assert done.returncode == 0, done.stderr
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1, done.stderr
    assert f"{name}: markdown_extensions enables pymdownx.snippets" in warnings[0]
    assert "no_such_setting" in warnings[0]
    assert lastmods(checked(project.root / "site", BASE), BASE) == {
        "": written(OLD),
        "guide/": written(OLD),
    }


def test_a_source_is_read_as_its_host_reads_it_whatever_its_snippets_encoding(
    tmp_path: Path,
) -> None:
    """The snippets' ``encoding`` is that of the files they read in; the page's own source is
    UTF-8 (with Windows line ends here), as MkDocs and Zensical read it."""
    pytest.importorskip("pymdownx", reason="pymdown-extensions is installed in tests_cli_generate")
    from sitemap_plugins.generate.snippets import SnippetReader

    notice = tmp_path / "includes" / "notice.md"
    notice.parent.mkdir()
    notice.write_text("Notice, café.\n", encoding="utf-16")
    page = tmp_path / "docs" / "index.md"
    page.parent.mkdir()
    page.write_bytes('\ufeff# Café\r\n\r\n--8<-- "notice.md"\r\n'.encode())
    plain = tmp_path / "docs" / "plain.md"
    plain.write_text("# Plain\n", encoding="utf-8")
    reader = SnippetReader({"base_path": ["includes"], "encoding": "utf-16"}, tmp_path)
    assert reader.read_in(page) == (notice,)
    assert reader.read_in(plain) == ()
