"""Commits left out of dates (``git_ignore_commits``): a file is dated by its last change in a
commit not left out, as ``git log -- FILE`` lists them with those commits skipped.

Git is the oracle: each expected date is the first commit of ``git log -- FILE`` that is not
ignored. Merge cases run with ``--diff-merges=first-parent`` and with old git's ``-m``.
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from sitemap_plugins.core.git_dates import FileDates, Undated, Why
from sitemap_plugins.core.options import OptionError, Options
from sitemap_plugins.core.report import CollectingReporter
from tests.core.test_git_dates import D1, D2, D3, D4, D5, Recorder
from tests.support.gitrepo import GitRepo, have_git

pytestmark = pytest.mark.skipif(not have_git(), reason="git is not installed")

Make = Callable[..., FileDates]


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


@pytest.fixture(params=["first-parent", "separate"])
def make(request: pytest.FixtureRequest) -> Make:
    old_git = request.param == "separate"

    def factory(ignored: Iterable[str] = (), cache_dir: Path | None = None) -> FileDates:
        return FileDates(
            CollectingReporter(),
            runner=Recorder(old_git=old_git),
            cache_dir=cache_dir,
            ignored_commits=tuple(ignored),
        )

    return factory


def git_says(repo: GitRepo, name: str, ignored: Iterable[str]) -> str | None:
    """The committer date of the first commit ``git log -- name`` lists that no id of
    ``ignored`` starts (None: every one is)."""
    prefixes = tuple(one.lower() for one in ignored)
    for line in repo.git("log", "--format=%H %cI", "--", name).splitlines():
        sha, date = line.split(" ")
        if not sha.startswith(prefixes):
            return dt.datetime.fromisoformat(date).isoformat()
    return None


def dated(dates: FileDates, repo: GitRepo, names: Iterable[str]) -> dict[str, str | Why]:
    """Each file's date as text, or why it has none."""
    paths = {repo.path(name): name for name in names}
    found = dates.lookup(list(paths))
    result: dict[str, str | Why] = {}
    for path, name in paths.items():
        if path in found.dates:
            result[name] = found.dates[path][0].isoformat()
        else:
            undated = found.undated[path]
            assert isinstance(undated, Undated)
            result[name] = undated.reason
    return result


def expected(repo: GitRepo, names: Iterable[str], ignored: Iterable[str]) -> dict[str, str | Why]:
    ignored = tuple(ignored)
    result: dict[str, str | Why] = {}
    for name in names:
        date = git_says(repo, name, ignored)
        result[name] = Why.ONLY_IGNORED_COMMITS if date is None else date
    return result


def test_a_linear_history_skips_the_ignored_commits_by_full_or_abbreviated_id(
    repo: GitRepo, make: Make
) -> None:
    repo.write("docs/a.md", "a\n")
    repo.write("docs/b.md", "b\n")
    repo.commit("write", D1)
    repo.write("docs/b.md", "b, edited\n")
    repo.commit("edit b", D2)
    repo.write("docs/a.md", "a \n")
    repo.write("docs/b.md", "b, edited \n")
    repo.write("docs/made.md", "made by the sweep\n")
    repo.commit("reformat", D3)
    reformat = repo.head()
    repo.write("docs/a.md", "a  \n")
    repo.commit("licence headers", D4)
    sweep = repo.head()
    names = ["docs/a.md", "docs/b.md", "docs/made.md"]

    plain = dated(make(), repo, names)
    assert plain == {"docs/a.md": D4, "docs/b.md": D3, "docs/made.md": D3}

    for ignored in ([reformat, sweep], [reformat[:7], sweep[:4].upper()]):
        got = dated(make(ignored), repo, names)
        assert got == {
            "docs/a.md": D1,
            "docs/b.md": D2,
            "docs/made.md": Why.ONLY_IGNORED_COMMITS,  # created by an ignored commit
        }
        assert got == expected(repo, names, ignored)

    assert dated(make([sweep]), repo, names) == expected(repo, names, [sweep])
    assert dated(make(["0000"]), repo, names) == plain  # a prefix of no commit


def test_an_ignored_commit_on_a_merged_branch_and_an_ignored_merge(
    repo: GitRepo, make: Make
) -> None:
    repo.write("docs/page.md", "base\n")
    repo.write("docs/other.md", "other\n")
    repo.commit("base", D1)
    repo.checkout("feature", create=True)
    repo.write("docs/page.md", "feature\n")
    repo.commit("feature edit", D2)
    repo.write("docs/other.md", "other \n")
    repo.commit("feature reformat", D3)
    sweep = repo.head()
    repo.checkout("main")
    repo.write("docs/page.md", "main\n")
    repo.commit("main edit", D3)
    repo.merge("feature", D5, resolve={"docs/page.md": "both\n"})
    merge = repo.head()
    names = ["docs/page.md", "docs/other.md"]

    assert dated(make(), repo, names) == {"docs/page.md": D5, "docs/other.md": D3}
    # The branch's reformat: other.md is dated by the base, through the merge.
    got = dated(make([sweep]), repo, names)
    assert got == {"docs/page.md": D5, "docs/other.md": D1}
    assert got == expected(repo, names, [sweep])
    # The merge that resolved page.md ignored too: the newer of its parents' changes.
    got = dated(make([sweep, merge]), repo, names)
    assert got == {"docs/page.md": D3, "docs/other.md": D1}
    assert got == expected(repo, names, [sweep, merge])


def test_changing_the_ignored_commits_never_reads_a_pass_kept_for_others(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    """The kept pass, and the pass that only adds new commits to it, answer as a full pass
    without any cache does, whatever list an earlier build left out."""
    cache = tmp_path / "cache"
    repo.write("docs/a.md", "a\n")
    repo.write("docs/b.md", "b\n")
    repo.commit("write", D1)
    repo.write("docs/a.md", "a \n")
    repo.write("docs/b.md", "b \n")
    repo.commit("reformat", D2)
    reformat = repo.head()
    names = ["docs/a.md", "docs/b.md"]
    lists: list[list[str]] = [[], [reformat], [reformat[:8]], []]
    for ignored in lists:
        assert dated(make(ignored, cache), repo, names) == dated(make(ignored), repo, names)
    repo.write("docs/b.md", "b, edited\n")
    repo.commit("edit b", D3)  # HEAD moved: the kept commits plus this one
    for ignored in [[reformat], [], [reformat]]:
        cached = dated(make(ignored, cache), repo, names)
        assert cached == dated(make(ignored), repo, names)
        assert cached == expected(repo, names, ignored)
    assert dated(make([reformat], cache), repo, names)["docs/a.md"] == D1


@pytest.mark.parametrize("value", [["abc"], ["HEAD~3"], ["a" * 65], [1234], [""], "abcdef0", None])
def test_a_commit_id_that_is_not_one_fails_naming_the_option(value: object) -> None:
    with pytest.raises(OptionError) as error:
        Options.from_mapping({"git_ignore_commits": value})
    assert error.value.option == "git_ignore_commits"
    assert error.value.value == value
    assert "commit id" in str(error.value)


def test_an_id_of_digits_alone_read_as_a_number_is_asked_in_quotes() -> None:
    """``git_ignore_commits: [1494996, 0123456]`` in YAML, pasted from ``git log --oneline``:
    YAML reads both as numbers, the second as 42798. No number can be taken for the id
    written; the message says to quote it."""
    with pytest.raises(OptionError, match=r"in quotes where it is digits alone"):
        Options.from_mapping({"git_ignore_commits": [1494996, 42798, "8e91234"]})


def test_the_ignore_revs_file_is_read_from_the_project_folder(tmp_path: Path) -> None:
    (tmp_path / ".git-blame-ignore-revs").write_text(
        "# Reformat with black\nABCDEF0123456789abcdef0123456789abcdef01\n\n  1234abc  # sweep\n",
        encoding="utf-8",
    )
    options = Options.from_mapping(
        {"git_ignore_commits": ["fedcba98"], "git_ignore_commits_file": ".git-blame-ignore-revs"},
        folder=tmp_path,
    )
    assert options.git_ignore_commits == (
        "1234abc",
        "abcdef0123456789abcdef0123456789abcdef01",
        "fedcba98",
    )
    with pytest.raises(OptionError) as error:
        Options.from_mapping({"git_ignore_commits_file": "missing-revs"}, folder=tmp_path)
    assert error.value.option == "git_ignore_commits_file"
    assert str(tmp_path / "missing-revs") in str(error.value)
    (tmp_path / "bad-revs").write_text("1234abc\nHEAD~3\n", encoding="utf-8")
    with pytest.raises(OptionError, match=r"bad-revs, line 2: 'HEAD~3'"):
        Options.from_mapping({"git_ignore_commits_file": "bad-revs"}, folder=tmp_path)
