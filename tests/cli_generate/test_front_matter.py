"""A page's ``sitemap`` front matter, read by ``generate`` from the source a layout found.

The settings users already wrote keep their meaning after the build: the plugins' keys on a real
Zensical build, jekyll-sitemap's ``sitemap: false``, Hugo's ``disable`` in TOML and YAML. The
YAML reader (no YAML library is a dependency) is held to PyYAML, the reader MkDocs itself uses,
on mappings written in each style PyYAML writes.
"""

from __future__ import annotations

import string
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import example, given, settings
from hypothesis import strategies as st

from sitemap_plugins.generate.front_matter import Problem, read_front_matter
from tests.cli_generate.helpers import checked, lastmods, page, run, write, written
from tests.cli_generate.test_zensical import zensical_build
from tests.support.gitrepo import GitRepo

BASE = "https://docs.example.org/"
JAN = "2024-01-15T12:00:00+00:00"


@pytest.fixture
def zensical_project(git_repo: GitRepo) -> GitRepo:
    """Pages whose front matter says, in each form, how the sitemap should list them."""
    pytest.importorskip("zensical", reason="zensical is installed in tests_cli_generate")
    git_repo.write("zensical.toml", '[project]\nsite_name = "S"\nsite_url = "' + BASE + '"\n')
    git_repo.write(".gitignore", "site/\n.cache/\n")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("docs/private.md", "---\nsitemap: false\n---\n\n# Private\n")
    git_repo.write("docs/hidden.md", "---\nsitemap: {exclude: yes}  # flow style\n---\n# Hidden\n")
    git_repo.write(
        "docs/weekly.md",
        "---\ntitle: Weekly\nsitemap:\n  priority: 0.8\n  changefreq: weekly  # a comment\n"
        "  lastmod: 2020-02-03\nsearch:\n  exclude: true\n---\n\n# Weekly\n",
    )
    git_repo.write(
        "docs/video.md",
        "---\nsitemap:\n  video:\n    - title: A clip\n  priority: '0.3'\n---\n\n# Video\n",
    )
    git_repo.write("docs/bad.md", "---\nsitemap:\n  priority: 2\n---\n\n# Bad\n")
    git_repo.commit("pages", JAN)
    return git_repo


def test_zensical_pages_keep_their_sitemap_front_matter(zensical_project: GitRepo) -> None:
    root = zensical_project.root
    zensical_build(root)
    done = run("generate", cwd=root)
    assert done.returncode == 0, done.stderr
    assert "left out 3 (1 404 page, 2 excluded by metadata)" in done.stdout
    entries = checked(root / "site", BASE)
    assert set(lastmods(entries, BASE)) == {"", "weekly/", "video/", "bad/"}
    weekly = entries[BASE + "weekly/"]
    assert (weekly.priority, weekly.changefreq, weekly.lastmod) == ("0.8", "weekly", "2020-02-03")
    assert entries[BASE + "video/"].priority == "0.3"
    assert entries[BASE + "bad/"].priority is None
    assert entries[BASE + "bad/"].lastmod == written(JAN)
    warnings = [line for line in done.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 2, done.stderr
    video = next(line for line in warnings if "video" in line)  # read whole, checked by the core
    assert "docs/video.md: sitemap.video #1: " in video  # named by its source, as the plugin
    assert video.endswith("that video is left out")
    bad = next(line for line in warnings if "priority" in line)
    assert "docs/bad.md: priority '2' is not allowed" in bad
    strict = run("generate", "--strict", cwd=root)
    assert strict.returncode == 1, strict.stdout + strict.stderr


def test_jekyll_and_hugo_exclusions_are_kept(git_repo: GitRepo) -> None:
    """jekyll-sitemap's ``sitemap: false`` (in a file saved by a Windows editor: a byte order
    mark, CRLF line ends); Hugo's ``disable``, in TOML and in YAML, with its other keys; a page
    without front matter and one whose ``---`` opens no front matter."""
    about = "\ufeff---\r\nlayout: page\r\nsitemap: false\r\n---\r\nAbout\r\n"
    git_repo.path("jekyll/about.md").parent.mkdir(parents=True)
    git_repo.path("jekyll/about.md").write_bytes(about.encode())
    git_repo.write("jekyll/contact.md", "---\nlayout: page\n---\nContact\n")
    git_repo.write("hugo/content/old.md", '+++\ntitle = "Old"\n[sitemap]\ndisable = true\n+++\n')
    git_repo.write(
        "hugo/content/news.md",
        '+++\ntitle = "News"\n[sitemap]\nchangefreq = "daily"\npriority = 0.9\n+++\n',
    )
    git_repo.write("hugo/content/gone.md", "---\nsitemap:\n  disable: true\n---\n")
    git_repo.write("hugo/content/plain.md", "---\n\nA rule, then text: no front matter.\n")
    git_repo.commit("sources", JAN)
    for name in ("about", "contact"):
        write(git_repo.root / f"jekyll/_site/{name}.html", page(name))
    for name in ("old", "news", "gone", "plain"):
        write(git_repo.root / f"hugo/public/{name}/index.html", page(name))
    jekyll = run(
        "generate", "jekyll/_site", "--source", "jekyll", "--layout", "jekyll",
        "--base-url", BASE, cwd=git_repo.root,
    )  # fmt: skip
    assert jekyll.returncode == 0, jekyll.stderr
    assert set(checked(git_repo.root / "jekyll/_site", BASE)) == {BASE + "contact.html"}
    hugo = run(
        "generate", "hugo/public", "--source", "hugo/content", "--layout", "hugo",
        "--base-url", BASE, cwd=git_repo.root,
    )  # fmt: skip
    assert hugo.returncode == 0, hugo.stderr
    assert "warning" not in hugo.stderr
    entries = checked(git_repo.root / "hugo/public", BASE)
    assert set(entries) == {BASE + "news/", BASE + "plain/"}
    assert (entries[BASE + "news/"].changefreq, entries[BASE + "news/"].priority) == (
        "daily",
        "0.9",
    )
    assert entries[BASE + "plain/"].lastmod == written(JAN)


# -- the YAML reader against PyYAML -----------------------------------------------------------

_TEXT = st.text(
    alphabet=string.ascii_letters + string.digits + " -_.:/#'\"!?&*%@,[]{}", max_size=24
)
_SCALAR = st.one_of(st.none(), st.booleans(), _TEXT)
_KEYS = st.from_regex(r"[a-z][a-z_]{0,11}", fullmatch=True)


def _in_source(tmp_path: Path, front: str, newline: str = "\n") -> tuple[Any, list[Problem]]:
    text = f"---\ntitle: T\n{front}other: 1\n---\n\n# T\n".replace("\n", newline)
    source = tmp_path / "page.md"
    source.write_bytes(text.encode())
    front, problems = read_front_matter(source)
    assert front is not None
    assert problems == []
    return front.sitemap()


@settings(max_examples=150, deadline=None)
@given(
    mapping=st.dictionaries(_KEYS, _SCALAR, max_size=5),
    flow=st.booleans(),
    indent=st.sampled_from([2, 4]),
    newline=st.sampled_from(["\n", "\r\n"]),
)
# YAML 1.1 spells a boolean in lower case, with a capital or in capitals: oN is text.
@example(mapping={"exclude": "oN", "a": "yEs", "b": "On"}, flow=False, indent=2, newline="\n")
def test_mappings_read_as_pyyaml_reads_them(
    tmp_path_factory: pytest.TempPathFactory,
    mapping: dict[str, Any],
    flow: bool,
    indent: int,
    newline: str,
) -> None:
    """Each mapping of plain values, written by PyYAML in block or flow style, indented by two
    or four, with Unix or Windows line ends, reads back as PyYAML reads it (Hugo's ``disable``
    aside, which is read as ``exclude``)."""
    mapping.pop("disable", None)
    if flow:  # on the line of its key: sitemap: {priority: '0.5', exclude: false}
        front = "sitemap: " + yaml.safe_dump(mapping, default_flow_style=True, width=10_000)
    else:
        front = yaml.safe_dump(
            {"sitemap": mapping}, default_flow_style=False, width=10_000, indent=indent
        )
    value, problems = _in_source(tmp_path_factory.mktemp("fm"), front, newline)
    assert problems == []
    assert value == yaml.safe_load(front)["sitemap"], front


@pytest.mark.parametrize(
    "front",
    [
        "sitemap:\n  priority: 0.5\n  video:\n    - title: A\n  changefreq: daily\n",
        "sitemap:\n  priority: 0.5\n  video: [a, b]\n",
        "sitemap:\n  priority: 0.5\n  lastmod: &when 2024-01-02\n",
        "sitemap: {priority: 0.5, video: {title: A}}\n",
        "sitemap: {priority: 0.5,\n  changefreq: daily}\n",
        "sitemap:\n  changefreq: 'dai\n    ly'\n",
        "sitemap:\n  - priority\n",
        "sitemap: [a]\n",
        "sitemap: >-\n  not a\n  mapping\n",
        "sitemap: !!str 0.5\n",
    ],
)
def test_other_forms_are_read_whole_as_pyyaml_reads_them(tmp_path: Path, front: str) -> None:
    """What the line reader does not read is read from the whole front matter by PyYAML, with
    its types (numbers, dates), as MkDocs reads it; the core then checks the values."""
    value, problems = _in_source(tmp_path, front)
    assert problems == []
    assert value == yaml.safe_load(f"title: T\n{front}other: 1\n")["sitemap"]
    assert type(value) is type(yaml.safe_load(f"title: T\n{front}other: 1\n")["sitemap"])


@pytest.mark.parametrize(
    "front",
    ["sitemap: 'open\n", "sitemap: {a: 1\n", "sitemap:\n  a: 1\n b: [\n", "sitemap: *nowhere\n"],
)
def test_front_matter_pyyaml_cannot_read_is_one_problem_at_its_line(
    tmp_path: Path, front: str
) -> None:
    """As MkDocs, which then ignores the whole front matter, the page keeps no settings; the
    warning names the line PyYAML stopped at, counted in the source file (its fence is line
    1)."""
    value, problems = _in_source(tmp_path, front)
    assert value is None
    with pytest.raises(yaml.MarkedYAMLError) as error:
        yaml.safe_load(f"title: T\n{front}other: 1\n")
    mark = error.value.problem_mark or error.value.context_mark
    assert mark is not None
    [(line, problem)] = problems
    assert line == mark.line + 2
    assert problem.startswith("front matter is not valid YAML (")
    assert problem.endswith("); sitemap ignored")


def test_hugo_and_jekyll_modification_dates_date_their_pages(git_repo: GitRepo) -> None:
    """Hugo's ``lastmod`` and ``modified`` (a TOML date-time, YAML text), Jekyll's
    ``last_modified_at`` (its offset after a space); a ``date`` says when a page was written, so
    git dates those pages."""
    git_repo.write(
        "hugo/content/toml.md", '+++\ntitle = "T"\nlastmod = 2023-05-06T07:08:09Z\n+++\n'
    )
    git_repo.write("hugo/content/yaml.md", "---\ndate: 2020-01-01\nlastmod: 2023-04-05\n---\n")
    git_repo.write("hugo/content/modified.md", "---\nmodified: 2023-03-04T05:06:07+02:00\n---\n")
    git_repo.write("hugo/content/dated.md", "---\ndate: 2020-01-01\n---\n")
    git_repo.write("jekyll/page.md", "---\nlast_modified_at: 2023-02-03 10:00:00 -0500\n---\n")
    git_repo.write("jekyll/dated.md", "---\ndate: 2020-01-01\n---\n")
    git_repo.commit("sources", JAN)
    for name in ("toml", "yaml", "modified", "dated"):
        write(git_repo.root / f"hugo/public/{name}/index.html", page(name))
    for name in ("page", "dated"):
        write(git_repo.root / f"jekyll/_site/{name}.html", page(name))
    for site, source, layout in (
        ("hugo/public", "hugo/content", "hugo"),
        ("jekyll/_site", "jekyll", "jekyll"),
    ):
        done = run(
            "generate", site, "--source", source, "--layout", layout, "--base-url", BASE,
            cwd=git_repo.root,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "warning" not in done.stderr
    assert lastmods(checked(git_repo.root / "hugo/public", BASE), BASE) == {
        "toml/": "2023-05-06T07:08:09Z",
        "yaml/": "2023-04-05",
        "modified/": "2023-03-04T05:06:07+02:00",
        "dated/": written(JAN),
    }
    assert lastmods(checked(git_repo.root / "jekyll/_site", BASE), BASE) == {
        "page.html": "2023-02-03T10:00:00-05:00",
        "dated.html": written(JAN),
    }
