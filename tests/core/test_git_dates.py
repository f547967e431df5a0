"""FileDates against real git: every date must be the one ``git log -1 -- FILE`` gives.

The histories are built commit by commit with chosen dates; git itself is the oracle. Each
merge-related test runs twice: with ``--diff-merges=first-parent`` (git >= 2.31) and with the
``-m`` fallback used for older git (selected by a runner that refuses ``--diff-merges`` exactly
as old git does, while real git does all the work).
"""

from __future__ import annotations

import datetime as dt
import io
import os
import random
import shutil
import subprocess
from collections.abc import Callable, Sequence
from pathlib import Path

import pytest

from sitemap_plugins.core import git_history
from sitemap_plugins.core.git_background import BackgroundGit
from sitemap_plugins.core.git_dates import FileDates, Undated, Why, run_git
from sitemap_plugins.core.report import Code, CollectingReporter
from tests.support.gitrepo import GitRepo, git_env, have_git

pytestmark = pytest.mark.skipif(not have_git(), reason="git is not installed")

D1 = "2024-01-01T10:00:00+00:00"
D2 = "2024-02-01T10:00:00+01:00"
D3 = "2024-03-01T10:00:00-05:00"
D4 = "2024-04-01T10:00:00+05:30"
D5 = "2024-05-01T10:00:00+00:00"
D6 = "2024-06-01T10:00:00+02:00"


class Recorder:
    """A git runner that records each command and can play a git that predates --diff-merges.

    ``calls`` holds the commands real git ran; those refused as old git would are only counted.
    """

    def __init__(self, *, old_git: bool = False) -> None:
        self.old_git = old_git
        self.calls: list[list[str]] = []
        self.started: list[list[str]] = []
        self.refused = 0

    def __call__(self, args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
        if self.old_git and any(arg.startswith("--diff-merges") for arg in args):
            self.refused += 1
            message = b"fatal: unrecognized argument: --diff-merges=first-parent\n"
            return subprocess.CompletedProcess(["git", *args], 128, b"", message)
        self.calls.append(list(args))
        return run_git(args, cwd)

    def start(self, args: Sequence[str], cwd: Path) -> BackgroundGit:
        """Start git in the background, as :meth:`FileDates.start` does, recorded in ``started``.
        Old git refuses ``--diff-merges`` here too: the process fails, as that git's would."""
        self.started.append(list(args))
        if self.old_git and any(arg.startswith("--diff-merges") for arg in args):
            return BackgroundGit(["--diff-merges-is-unknown-to-this-git"], cwd)
        return BackgroundGit(args, cwd)

    def count(self, command: str, *, started: bool = False) -> int:
        """How many times ``git <command>`` ran (global options such as ``-c x=y`` skipped),
        or with ``started``, was started in the background."""
        total = 0
        for args in self.started if started else self.calls:
            words = iter(args)
            for word in words:
                if word == "-c":
                    next(words)
                elif not word.startswith("-"):
                    total += word == command
                    break
        return total


Make = Callable[..., tuple[FileDates, CollectingReporter, Recorder]]


@pytest.fixture(autouse=True)
def _isolated_git(monkeypatch: pytest.MonkeyPatch) -> None:
    # FileDates runs git with the caller's environment: keep the developer's config out of it.
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", os.devnull)
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)


@pytest.fixture
def repo(tmp_path: Path) -> GitRepo:
    return GitRepo(tmp_path / "repo")


@pytest.fixture(params=["first-parent", "separate"])
def make(request: pytest.FixtureRequest) -> Make:
    old_git = request.param == "separate"

    def factory(git_date: str = "committer") -> tuple[FileDates, CollectingReporter, Recorder]:
        reporter = CollectingReporter()
        recorder = Recorder(old_git=old_git)
        return FileDates(reporter, git_date=git_date, runner=recorder), reporter, recorder

    return factory


def iso(value: tuple[dt.datetime, str]) -> str:
    return value[0].isoformat()


def assert_matches_git(repo: GitRepo, make: Make) -> None:
    """For every file in HEAD, and both date fields: our date == ``git log -1`` for that file."""
    files = repo.tracked_files()
    assert files
    for git_date in ("committer", "author"):
        dates, reporter, recorder = make(git_date)
        got = dates.lookup([repo.path(name) for name in files]).dates
        expected = {name: repo.log_date(name, field=git_date) for name in files}
        actual = {name: iso(got[repo.path(name)]) for name in files}
        assert actual == expected, git_date
        assert {source for _, source in got.values()} == {"git"}
        assert reporter.warnings == []
        assert recorder.count("log") == 1
        assert recorder.refused == recorder.old_git  # old git: refused once, then -m


# -- linear histories, renames, names -------------------------------------------------------------


def test_linear_history_with_out_of_order_dates(repo: GitRepo, make: Make) -> None:
    repo.write("docs/a.md", "1")
    repo.write("docs/b.md", "1")
    repo.commit("one", D3)
    repo.write("docs/a.md", "2")
    repo.commit("two, dated before one", D1)
    repo.write("docs/b.md", "2")
    repo.commit("three", D2, author_date=D6)
    dates, _, _ = make()
    got = dates.lookup([repo.path("docs/a.md"), repo.path("docs/b.md")]).dates
    assert iso(got[repo.path("docs/a.md")]) == D1  # the last change, not the newest date
    assert iso(got[repo.path("docs/b.md")]) == D2
    assert_matches_git(repo, make)


def test_dates_keep_the_commits_own_offset(repo: GitRepo, make: Make) -> None:
    repo.write("a.md", "1")
    repo.commit("one", D4, author_date=D3)
    committer, _, _ = make()
    author, _, _ = make("author")
    path = repo.path("a.md")
    when, source = committer.lookup([path]).dates[path]
    assert (when.isoformat(), source) == (D4, "git")
    assert when.utcoffset() == dt.timedelta(hours=5, minutes=30)
    assert iso(author.lookup([path]).dates[path]) == D3


def test_a_commit_with_an_impossible_time_zone_is_dated_by_its_instant(
    repo: GitRepo, make: Make
) -> None:
    """Imported histories hold commits whose time zone no clock has (``+9999``, git fsck's
    badTimezone); git prints them with that offset. The file is still dated, at the commit's
    instant, and a later build reading the walk back from the cache says the same."""
    repo.write("a.md", "1")
    repo.commit("one", D1)
    repo.write("a.md", "2")
    repo.git("add", "a.md")
    tree, parent = repo.git("write-tree").strip(), repo.git("rev-parse", "HEAD").strip()
    epoch = 1_600_000_000
    text = (
        f"tree {tree}\nparent {parent}\nauthor t <t@e> {epoch} +9999\n"
        f"committer t <t@e> {epoch} -9959\n\nimported\n"
    )
    made = subprocess.run(
        ["git", "hash-object", "-t", "commit", "-w", "--stdin", "--literally"],
        cwd=repo.root, input=text.encode(), capture_output=True, check=True, env=git_env(),
    )  # fmt: skip
    repo.git("reset", "-q", made.stdout.decode().strip())
    instant = dt.datetime.fromtimestamp(epoch, dt.timezone.utc)
    path = repo.path("a.md")
    for git_date in ("committer", "author"):
        dates, reporter, _ = make(git_date)
        when, source = dates.lookup([path]).dates[path]
        assert (when, source) == (instant, "git"), git_date
        assert reporter.warnings == []


def test_renamed_file_is_dated_like_git_log_on_the_new_path(repo: GitRepo, make: Make) -> None:
    repo.write("docs/old.md", "content that stays the same\n" * 20)
    repo.write("docs/other.md", "x")
    repo.commit("add", D1)
    repo.move("docs/old.md", "docs/moved/new name.md")
    repo.commit("rename only", D2)
    repo.write("docs/keep.md", "k")
    repo.commit("later", D3)
    dates, _, _ = make()
    new = repo.path("docs/moved/new name.md")
    assert iso(dates.lookup([new]).dates[new]) == D2 == repo.log_date("docs/moved/new name.md")
    assert_matches_git(repo, make)


def test_unusual_names(repo: GitRepo, make: Make) -> None:
    names = [
        "docs/ünïcødé/页面.md",
        "docs/with space/a b.md",
        "docs/[glob]*?.md",
        "docs/quote\"'.md",
        "top level.md",
        "deep/er/than/that.md",
    ]
    for number, name in enumerate(names):
        repo.write(name, name)
        repo.commit(f"add {number}", f"2024-01-0{number + 1}T00:00:00+00:00")
    repo.write("docs/[glob]x.md", "would match the glob if pathspecs were not literal")
    repo.commit("decoy", D6)
    dates, _, _ = make()
    got = dates.lookup([repo.path(name) for name in names]).dates
    for number, name in enumerate(names):
        assert iso(got[repo.path(name)]) == f"2024-01-0{number + 1}T00:00:00+00:00", name
    assert_matches_git(repo, make)


def test_mode_change_counts_as_a_change(repo: GitRepo, make: Make) -> None:
    repo.write("bin/tool.sh", "#!/bin/sh\n")
    repo.write("docs/page.md", "x")
    repo.commit("add", D1)
    repo.path("bin/tool.sh").chmod(0o755)
    repo.commit("make executable", D2)
    assert repo.log_date("bin/tool.sh") == D2
    assert_matches_git(repo, make)


def test_git_environment_of_the_caller_does_not_leak(
    repo: GitRepo, make: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("page.md", "x")
    repo.commit("add", D1)
    other = GitRepo(tmp_path / "other")
    other.write("page.md", "y")
    other.commit("other", D2)
    monkeypatch.setenv("GIT_DIR", str(other.root / ".git"))  # as inside a git hook
    monkeypatch.setenv("GIT_WORK_TREE", str(other.root))
    dates, _, _ = make()
    assert iso(dates.lookup([repo.path("page.md")]).dates[repo.path("page.md")]) == D1


def deploy_checkout(repo: GitRepo, tmp_path: Path) -> tuple[Path, Path]:
    """A bare copy of ``repo`` and its branch checked out apart from it, as a deploy hook on a
    server writes one (``git --work-tree=/srv/site checkout -f``): a tree with no ``.git``."""
    bare, tree = tmp_path / "site.git", tmp_path / "site"
    clone = ["git", "clone", "-q", "--bare", str(repo.root), str(bare)]
    subprocess.run(clone, env=git_env(), check=True)
    tree.mkdir()
    subprocess.run(
        ["git", f"--git-dir={bare}", f"--work-tree={tree}", "checkout", "-q", "-f",
         repo.current_branch()],
        env=git_env(), check=True,
    )  # fmt: skip
    assert not (tree / ".git").exists()
    return bare, tree


def dates_or_why(
    files: dict[str, Path],
    *,
    start: Path | None = None,
    cache: Path | None = None,
    setup: Callable[[FileDates], object] | None = None,
) -> tuple[dict[str, tuple[str, str] | Why], Recorder]:
    """Each file's date and its source, or why it has none, from a fresh instance (``setup``
    called on it first); with ``start``, the pass was begun first for that folder."""
    reporter, recorder = CollectingReporter(), Recorder()
    dates = FileDates(
        reporter,
        cache_dir=cache,
        runner=recorder,
        starter=None if start is None else recorder.start,
    )
    if setup is not None:
        setup(dates)
    if start is not None:
        dates.start(start)
    found = dates.lookup(files.values())
    assert reporter.warnings == []
    return {
        name: (iso(found.dates[path]), found.dates[path][1])
        if path in found.dates
        else found.undated[path].reason
        for name, path in files.items()
    }, recorder


@pytest.mark.parametrize("started", [False, True], ids=["at the lookup", "started early"])
def test_a_checkout_apart_from_its_repository_is_dated_through_git_dir_and_work_tree(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, started: bool
) -> None:
    """Sites pushed to a server are often built there by the bare repository's hook, from a
    checkout written apart from it: only ``GIT_DIR`` and ``GIT_WORK_TREE`` lead that checkout's
    files to their history, as they lead git."""
    repo.write("docs/a.md", "a")
    repo.write("docs/b.md", "b")
    repo.commit("add", D1)
    repo.write("docs/b.md", "b, edited")
    repo.commit("edit b", D2)
    bare, tree = deploy_checkout(repo, tmp_path)
    files = {name: tree / name for name in ("docs/a.md", "docs/b.md")}
    start = tree / "docs" if started else None
    without, _ = dates_or_why(files, start=start)
    assert without == dict.fromkeys(files, Why.NOT_TRACKED)  # a copied folder, as before
    monkeypatch.setenv("GIT_DIR", str(bare))
    monkeypatch.setenv("GIT_WORK_TREE", str(tree))
    answers, recorder = dates_or_why(files, start=start)
    assert answers == {name: (repo.log_date(name), "git") for name in files}
    assert (recorder.count("log", started=True), recorder.count("log")) == (
        (1, 0) if started else (0, 1)
    )
    # Edited on the server after the checkout: the bare repository's index tells it apart.
    files["docs/b.md"].write_text("edited on the server", "utf-8")
    answers, _ = dates_or_why(files, start=start)
    assert answers["docs/a.md"] == (repo.log_date("docs/a.md"), "git")
    assert answers["docs/b.md"][1] == "mtime"
    # Named relative to the folder the build runs in, as git reads them too.
    monkeypatch.chdir(tree / "docs")
    monkeypatch.setenv("GIT_DIR", os.path.relpath(bare))
    monkeypatch.setenv("GIT_WORK_TREE", "..")
    answers, _ = dates_or_why({"docs/a.md": files["docs/a.md"]}, start=start)
    assert answers == {"docs/a.md": (repo.log_date("docs/a.md"), "git")}


@pytest.mark.parametrize("configured", ["absolute", "relative"])
def test_a_checkout_named_by_the_repositorys_core_worktree_needs_only_git_dir(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, configured: str
) -> None:
    """The other push-to-deploy recipe names the checkout in the repository's config
    (``core.worktree``, relative to the repository or absolute), and the hook sets ``GIT_DIR``
    only, as git's own commands there need: its files are dated as with both variables."""
    repo.write("docs/a.md", "a")
    repo.commit("add", D1)
    bare, tree = deploy_checkout(repo, tmp_path)
    value = str(tree) if configured == "absolute" else os.path.relpath(tree, bare)
    subprocess.run(
        ["git", "--git-dir", str(bare), "config", "core.worktree", value],
        env=git_env(), check=True,
    )  # fmt: skip
    with (bare / "config").open("a", encoding="utf-8") as config:
        config.write('[core "elsewhere"]\n\tworktree = /not/this/one\n')
    files = {"docs/a.md": tree / "docs/a.md"}
    monkeypatch.setenv("GIT_DIR", str(bare))
    monkeypatch.delenv("GIT_WORK_TREE", raising=False)
    for start in (None, tree / "docs"):
        answers, _ = dates_or_why(files, start=start)
        assert answers == {"docs/a.md": (D1, "git")}


def test_git_dir_and_work_tree_give_way_where_they_name_no_checkout_of_a_repository(
    repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A repository of its own inside the checkout is the one git finds from its files; and a
    hook's relative ``GIT_DIR`` (``.``), read from another folder, names no repository: its
    files are a copied folder's, with no warning, as outside the hook."""
    repo.write("docs/a.md", "a")
    repo.commit("add", D1)
    bare, tree = deploy_checkout(repo, tmp_path)
    vendored = GitRepo(tree / "vendor")
    vendored.write("page.md", "its own")
    vendored.commit("own history", D5)
    files = {"docs/a.md": tree / "docs/a.md", "vendor/page.md": vendored.path("page.md")}
    monkeypatch.setenv("GIT_DIR", str(bare))
    monkeypatch.setenv("GIT_WORK_TREE", str(tree))
    answers, _ = dates_or_why(files)
    assert answers == {"docs/a.md": (D1, "git"), "vendor/page.md": (D5, "git")}
    monkeypatch.chdir(tree)
    monkeypatch.setenv("GIT_DIR", ".")
    answers, _ = dates_or_why(files)
    assert answers == {"docs/a.md": Why.NOT_TRACKED, "vendor/page.md": (D5, "git")}


def archived(repo: GitRepo, revision: str, dest: Path) -> Path:
    """A copy of ``revision``'s whole tree made with ``git archive``, as tools that build every
    version of a site from one checkout make it (sphinx-multiversion): no ``.git`` in it."""
    dest.mkdir(parents=True)
    archive = subprocess.run(
        ["git", "archive", "--format=tar", revision], cwd=repo.root, env=git_env(),
        capture_output=True, check=True,
    ).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    return dest


def export_answers(
    repo: GitRepo, copy: Path, revision: str, cache: Path | None = None, *, started: bool = False
) -> dict[str, tuple[str, str] | Why]:
    """What a fresh instance says of every file in ``copy``, told it is ``revision``'s tree;
    ``started``: the pass was begun first for the whole copy (and was the one taken)."""
    files = {
        str(path.relative_to(copy)): path for path in sorted(copy.rglob("*")) if path.is_file()
    }
    answers, recorder = dates_or_why(
        files,
        cache=cache,
        start=copy if started else None,
        setup=lambda dates: dates.exported(copy, repo.root, revision),
    )
    if started:
        assert (recorder.count("log", started=True), recorder.count("log")) == (1, 0)
    return answers


@pytest.mark.parametrize("started", [False, True], ids=["at the lookup", "started early"])
@pytest.mark.parametrize("seed", [7, 19])
def test_a_copy_of_a_commits_tree_is_dated_by_that_commits_history(
    repo: GitRepo, tmp_path: Path, seed: int, started: bool
) -> None:
    """Each version's pages are dated as ``git log -1 VERSION -- FILE`` dates them, never by a
    later commit on another branch, nor by the copy's file times; through one cache, a build of
    another version, then of HEAD in the work tree, each get what a fresh pass gives."""
    random_history(repo, seed)
    commits = repo.git("rev-list", "--topo-order", "HEAD").split()
    revisions = [commits[len(commits) // 3], commits[len(commits) // 2], "HEAD"]
    cache = tmp_path / "cache"
    for number, revision in enumerate(revisions):
        copy = archived(repo, revision, tmp_path / f"copy-{number}")
        answers = export_answers(repo, copy, revision, cache, started=started)
        expected = {
            name: (repo.git("log", "-1", "--format=%cI", revision, "--", name).strip(), "git")
            for name in answers
        }
        assert answers == expected, revision
        assert answers == export_answers(repo, copy, revision)  # no cache: the same
    work_tree = FileDates(CollectingReporter(), cache_dir=cache)
    files = repo.tracked_files()
    got = work_tree.lookup([repo.path(name) for name in files]).dates
    assert {name: iso(got[repo.path(name)]) for name in files} == {
        name: repo.log_date(name) for name in files
    }


def test_a_copy_of_a_tag_leaves_what_the_build_made_undated(repo: GitRepo, tmp_path: Path) -> None:
    repo.write("docs/a.md", "a")
    repo.commit("add", D1)
    repo.tag("v1.0")
    repo.write("docs/a.md", "a, later")
    repo.commit("edit after the release", D2)
    copy = archived(repo, "v1.0", tmp_path / "copy")
    (copy / "docs" / "generated.md").write_text("made by the build", "utf-8")
    assert export_answers(repo, copy, "v1.0") == {
        "docs/a.md": (D1, "git"),
        "docs/generated.md": Why.NOT_TRACKED,
    }


@pytest.mark.parametrize("started", [False, True], ids=["at the lookup", "started early"])
def test_a_page_of_a_copy_that_links_to_a_file_is_dated_by_both(
    repo: GitRepo, tmp_path: Path, started: bool
) -> None:
    """``docs/index.md -> ../README.md`` in a copy is dated as in a work tree: the newer of the
    link's last change and the named file's, at the copy's commit, never by later commits."""
    repo.write("README.md", "read me")
    repo.write("docs/guide.md", "guide")
    repo.commit("add", D1)
    repo.path("docs/index.md").symlink_to("../README.md")
    repo.commit("the readme as the home page", D2)
    repo.write("README.md", "read me, rewritten")
    repo.commit("rewrite the readme", D3)
    repo.tag("v1.0")
    repo.write("README.md", "read me, after the release")
    repo.commit("after the release", D4)
    copy = archived(repo, "v1.0", tmp_path / "copy")
    assert (copy / "docs" / "index.md").is_symlink()
    files = {name: copy / name for name in ("docs/index.md", "docs/guide.md")}
    answers, recorder = dates_or_why(
        files,
        start=copy / "docs" if started else None,
        setup=lambda dates: dates.exported(copy, repo.root, "v1.0"),
    )
    assert answers == {"docs/index.md": (D3, "git"), "docs/guide.md": (D1, "git")}
    if started:  # the pass begun for docs/ covered README.md through the link: no other
        assert (recorder.count("log", started=True), recorder.count("log")) == (1, 0)


def test_a_copy_whose_top_is_not_named_is_found_from_the_commit(
    repo: GitRepo, tmp_path: Path
) -> None:
    """sphinx-polyversion names only the source folder inside its copy: the copy's top is the
    nearest folder above it holding every entry of the commit's top folder. A revision the
    repository does not know registers nothing: the copy's files are a copied folder's."""
    repo.write("docs/source/a.md", "a")
    repo.write("README.md", "read me")
    repo.commit("add", D1)
    repo.tag("v1.0")
    repo.write("docs/source/a.md", "a, later")
    repo.commit("edit", D2)
    copy = archived(repo, "v1.0", tmp_path / "tmp" / "copy")
    (copy / "docs" / "source" / "README.md").write_text("a page named as a top entry", "utf-8")
    files = {name: copy / name for name in ("docs/source/a.md", "docs/source/README.md")}

    def told(revision: str) -> Callable[[FileDates], None]:
        return lambda dates: dates.exported(
            copy / "docs" / "source", repo.root, revision, within=True
        )

    answers, _ = dates_or_why(files, setup=told("v1.0"))
    assert answers == {"docs/source/a.md": (D1, "git"), "docs/source/README.md": Why.NOT_TRACKED}
    answers, _ = dates_or_why(files, setup=told("0" * 40))
    assert answers == dict.fromkeys(files, Why.NOT_TRACKED)


def test_a_copy_from_a_shallow_clone_dates_what_its_history_proves(
    repo: GitRepo, tmp_path: Path
) -> None:
    """Versions built in CI come from a clone that may be shallow: a file whose last change
    the clone's history holds is exact, an older one is undated (never the boundary's date)."""
    repo.write("docs/old.md", "old")
    repo.write("docs/recent.md", "recent")
    repo.commit("add", D1)
    repo.write("docs/other.md", "other")
    repo.commit("other", D2)
    repo.write("docs/recent.md", "recent, edited")
    repo.commit("edit", D3)
    clone = repo.clone(tmp_path / "clone", depth=2)
    copy = archived(clone, "HEAD", tmp_path / "copy")
    assert export_answers(clone, copy, "HEAD") == {
        "docs/old.md": Why.SHALLOW,
        "docs/other.md": Why.SHALLOW,  # added at the boundary, which may have changed anything
        "docs/recent.md": (D3, "git"),
    }


def test_many_top_level_entries_walk_the_whole_tree(repo: GitRepo, make: Make) -> None:
    for number in range(40):
        repo.write(f"dir{number}/page.md", str(number))
    repo.commit("many", D1)
    repo.write("dir7/page.md", "changed")
    repo.commit("one more", D2)
    assert_matches_git(repo, make)


# -- merges ---------------------------------------------------------------------------------------


def test_conflict_resolved_in_the_merge_dates_the_file_at_the_merge(
    repo: GitRepo, make: Make
) -> None:
    repo.write("docs/page.md", "base\n")
    repo.write("docs/calm.md", "calm\n")
    repo.commit("base", D1)
    repo.checkout("feature", create=True)
    repo.write("docs/page.md", "feature\n")
    repo.commit("feature edit", D3)  # newer than main's edit: a naive pass would pick it
    repo.checkout("main")
    repo.write("docs/page.md", "main\n")
    repo.commit("main edit", D2)
    repo.merge("feature", D4, resolve={"docs/page.md": "both\n"})
    dates, _, _ = make()
    page = repo.path("docs/page.md")
    assert iso(dates.lookup([page]).dates[page]) == D4
    assert_matches_git(repo, make)


def test_merge_main_into_feature_then_back(repo: GitRepo, make: Make) -> None:
    repo.write("docs/main.md", "m0")
    repo.write("docs/feature.md", "f0")
    repo.write("docs/untouched.md", "u0")
    repo.commit("base", D1)
    repo.checkout("feature", create=True)
    repo.write("docs/feature.md", "f1")
    repo.commit("feature work", D2)
    repo.checkout("main")
    repo.write("docs/main.md", "m1")
    repo.commit("main work", D3)
    repo.checkout("feature")
    repo.merge("main", D4, message="merge main into feature")
    repo.write("docs/feature.md", "f2")
    repo.commit("more feature work", D5)
    repo.checkout("main")
    repo.fast_forward("feature")
    dates, _, _ = make()
    got = dates.lookup([repo.path("docs/main.md"), repo.path("docs/untouched.md")]).dates
    assert iso(got[repo.path("docs/main.md")]) == D3  # not the "merge main into feature" date
    assert iso(got[repo.path("docs/untouched.md")]) == D1
    assert_matches_git(repo, make)
    # ... and the same history closed with a real merge commit instead of a fast-forward.
    repo.git("reset", "-q", "--hard", "HEAD~2")  # main as it was: "main work"
    repo.merge("feature", D6, message="merge feature")
    assert_matches_git(repo, make)


def test_side_change_discarded_with_strategy_ours(repo: GitRepo, make: Make) -> None:
    repo.write("docs/page.md", "kept")
    repo.commit("base", D1)
    repo.checkout("experiment", create=True)
    repo.write("docs/page.md", "discarded")
    repo.write("docs/new.md", "discarded too")
    repo.commit("experiment", D3)
    repo.checkout("main")
    repo.merge("experiment", D4, strategy="ours")
    dates, _, _ = make()
    page = repo.path("docs/page.md")
    assert iso(dates.lookup([page]).dates[page]) == D1
    assert_matches_git(repo, make)


def test_side_change_to_one_file_discarded_while_another_is_taken(
    repo: GitRepo, make: Make
) -> None:
    # One side commit touches two files; the merge keeps main's version of one (after a
    # conflict) and takes the side's version of the other. For the kept file git follows the
    # first parent, so the side commit, though newer, is not its date.
    repo.write("docs/kept.md", "base\n")
    repo.write("docs/taken.md", "base\n")
    repo.commit("base", D1)
    repo.checkout("side", create=True)
    repo.write("docs/kept.md", "side\n")
    repo.write("docs/taken.md", "side\n")
    repo.commit("side edits both", D3)
    repo.checkout("main")
    repo.write("docs/kept.md", "main\n")
    repo.commit("main edit", D2)
    repo.merge("side", D4, resolve={"docs/kept.md": "main\n"})
    dates, _, _ = make()
    got = dates.lookup([repo.path("docs/kept.md"), repo.path("docs/taken.md")]).dates
    assert iso(got[repo.path("docs/kept.md")]) == D2
    assert iso(got[repo.path("docs/taken.md")]) == D3
    assert_matches_git(repo, make)


def test_evil_merge_and_identical_changes_on_both_sides(repo: GitRepo, make: Make) -> None:
    repo.write("docs/evil.md", "base")
    repo.write("docs/same.md", "base")
    repo.write("docs/x.md", "base")
    repo.commit("base", D1)
    repo.checkout("side", create=True)
    repo.write("docs/same.md", "identical edit")
    repo.write("docs/x.md", "side")
    repo.commit("side", D2)
    repo.checkout("main")
    repo.write("docs/same.md", "identical edit")
    repo.commit("main", D3)
    repo.merge("side", D4, resolve={"docs/evil.md": "changed by the merge only"})
    dates, _, _ = make()
    got = dates.lookup([repo.path("docs/evil.md"), repo.path("docs/same.md")]).dates
    assert iso(got[repo.path("docs/evil.md")]) == D4
    assert iso(got[repo.path("docs/same.md")]) == D3  # TREESAME to both: first parent wins
    assert_matches_git(repo, make)


def test_file_added_and_deleted_on_branches(repo: GitRepo, make: Make) -> None:
    repo.write("docs/a.md", "a")
    repo.write("docs/gone.md", "g")
    repo.commit("base", D1)
    repo.checkout("side", create=True)
    repo.write("docs/added-on-side.md", "new")
    repo.remove("docs/gone.md")
    repo.commit("side", D2)
    repo.checkout("main")
    repo.write("docs/a.md", "a2")
    repo.commit("main", D3)
    repo.merge("side", D4)
    repo.write("docs/gone.md", "back again")
    repo.commit("re-add", D5)
    assert_matches_git(repo, make)


def test_octopus_merge(repo: GitRepo, make: Make) -> None:
    repo.write("docs/one.md", "0")
    repo.write("docs/two.md", "0")
    repo.write("docs/three.md", "0")
    repo.commit("base", D1)
    for number, (branch, name) in enumerate([("b1", "one"), ("b2", "two"), ("b3", "three")]):
        repo.checkout("main")
        repo.checkout(branch, create=True)
        repo.write(f"docs/{name}.md", branch)
        repo.commit(branch, f"2024-02-0{number + 1}T00:00:00+00:00")
    repo.checkout("main")
    repo.write("docs/two.md", "main")
    repo.commit("main", D3)
    merge = repo.git(
        "merge", "-q", "--no-edit", "-s", "ours", "b1", "b2", "b3", env={"GIT_COMMITTER_DATE": D5}
    )
    assert merge == ""
    repo.git("checkout", "-q", "b2", "--", "docs/three.md")
    repo.git("checkout", "-q", "b3", "--", "docs/three.md")
    repo.commit("pick three", D6)
    assert_matches_git(repo, make)
    # A real octopus whose result differs per file: some files TREESAME to a later parent only.
    repo.git("reset", "-q", "--hard", "HEAD~2")
    repo.git("merge", "-q", "--no-edit", "b1", "b3", env={"GIT_COMMITTER_DATE": D5})
    assert len(repo.git("log", "-1", "--format=%P").split()) == 3
    assert_matches_git(repo, make)


def test_criss_cross_merges(repo: GitRepo, make: Make) -> None:
    repo.write("docs/a.md", "0")
    repo.write("docs/b.md", "0")
    repo.commit("base", D1)
    repo.checkout("other", create=True)
    repo.write("docs/b.md", "other")
    repo.commit("other", D2)
    repo.checkout("main")
    repo.write("docs/a.md", "main")
    repo.commit("main", D2)
    repo.merge("other", D3, message="criss")
    repo.checkout("other")
    repo.merge("main~1", D3, message="cross")
    repo.write("docs/a.md", "other again")
    repo.commit("other again", D4)
    repo.checkout("main")
    repo.merge("other", D5, resolve={"docs/a.md": "other again"})
    assert_matches_git(repo, make)


def random_history(repo: GitRepo, seed: int) -> None:
    """A random history of branches, conflicts, discarded sides, renames and skewed dates."""
    rng = random.Random(seed)
    pool = ["docs/index.md", "docs/a b.md", "docs/ünï.md", "docs/sub/deep.md", "README.md"]
    clock = dt.datetime(2024, 1, 1, tzinfo=dt.timezone.utc)

    def when() -> str:
        nonlocal clock
        clock += dt.timedelta(hours=rng.randint(-30, 60))  # dates go backwards at times
        offset = dt.timezone(dt.timedelta(minutes=rng.choice([0, 60, -300, 330])))
        return clock.astimezone(offset).isoformat()

    for name in pool:
        repo.write(name, f"{name} 0\n")
    repo.commit("base", when())
    branches = ["main"]
    for step in range(40):
        action = rng.random()
        current = repo.current_branch()
        if action < 0.45:
            if rng.random() < 0.1:
                source = rng.choice(pool)
                if repo.run("ls-files", "--error-unmatch", source, check=False).returncode == 0:
                    target = f"docs/renamed-{step}.md"
                    repo.move(source, target)
                    pool[pool.index(source)] = target
            for name in rng.sample(pool, rng.randint(1, 3)):
                if rng.random() < 0.1:
                    repo.git("rm", "-q", "-f", "--ignore-unmatch", "--", name)
                else:
                    repo.write(name, f"{name} {step} {current}\n")
            repo.commit(f"edit {step}", when(), author_date=when(), allow_empty=True)
        elif action < 0.6 or len(branches) == 1:
            name = f"b{step}"
            repo.checkout(name, create=True)
            branches.append(name)
        elif action < 0.7:
            repo.checkout(rng.choice(branches))
        else:
            other = rng.choice([b for b in branches if b != current])
            merge_random(repo, rng, other, when())
    repo.checkout("main")
    for other in branches[1:]:
        if rng.random() < 0.5:
            merge_random(repo, rng, other, when())


def merge_random(repo: GitRepo, rng: random.Random, other: str, date: str) -> None:
    strategy = ["-s", "ours"] if rng.random() < 0.15 else []
    repo.run("merge", "-q", "--no-commit", "--no-ff", *strategy, other, check=False)
    if repo.run("rev-parse", "-q", "--verify", "MERGE_HEAD", check=False).returncode:
        return  # already up to date
    for name in repo.git("diff", "--name-only", "-z", "--diff-filter=U").split("\0"):
        if name:
            resolve_one(repo, rng, name, rng.choice([":2", ":3", "new"]))
    if rng.random() < 0.4:  # keep our side of something the merge took from theirs
        for name in repo.git("diff", "--cached", "--name-only", "-z", "HEAD").split("\0"):
            if name and rng.random() < 0.5:
                resolve_one(repo, rng, name, ":2")
    if rng.random() < 0.1 and repo.path("docs/index.md").exists():
        repo.write("docs/index.md", f"evil {rng.random()}\n")
        repo.git("add", "docs/index.md")
    repo.git("commit", "-q", "--no-verify", "--allow-empty", "-m", f"merge {other}",
             env={"GIT_AUTHOR_DATE": date, "GIT_COMMITTER_DATE": date})  # fmt: skip


def resolve_one(repo: GitRepo, rng: random.Random, name: str, choice: str) -> None:
    if choice == "new":
        repo.write(name, f"resolved {rng.random()}\n")
        repo.git("add", "--", name)
        return
    ref = "HEAD:" + name if choice == ":2" else f"{choice}:{name}"
    shown = repo.run("show", ref, check=False)
    if shown.returncode:
        repo.git("rm", "-q", "--cached", "--ignore-unmatch", "--", name)
        repo.path(name).unlink(missing_ok=True)
    else:
        repo.write(name, shown.stdout)
        repo.git("add", "--", name)


@pytest.mark.parametrize("seed", range(12))
def test_random_histories_match_git_log_for_every_file(
    repo: GitRepo, make: Make, seed: int
) -> None:
    random_history(repo, seed)
    assert repo.git("status", "--porcelain") == ""
    assert_matches_git(repo, make)


@pytest.mark.parametrize(("seed", "chunk"), [(0, 1), (3, 13), (5, 4096)])
def test_the_log_split_a_chunk_at_a_time_gives_the_same_dates(
    repo: GitRepo, make: Make, monkeypatch: pytest.MonkeyPatch, seed: int, chunk: int
) -> None:
    """The pass splits git's output into fields a chunk at a time: a chunk that ends anywhere
    in a commit's header or its list of changes must not change a date."""
    monkeypatch.setattr(git_history, "_CHUNK", chunk)
    random_history(repo, seed)
    assert_matches_git(repo, make)


def test_a_file_read_a_chunk_at_a_time_gives_the_fields_of_the_whole_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pass started early is parsed from the file git wrote, never whole in memory: its
    fields are those of the whole text, wherever a chunk ends (in a field, on a NUL, in a
    run of NULs), empty fields and a final NUL's empty field included."""
    rng = random.Random(26)
    texts = [b"", b"\0", b"\0\0", b"a", b"a\0", b"\0a", b"ab\0\0cd\0", b"x" * 50]
    texts += [bytes(rng.choice(b"ab\0") for _ in range(rng.randrange(80))) for _ in range(300)]
    for chunk in (1, 2, 3, 7, 13, 4096):
        monkeypatch.setattr(git_history, "_CHUNK", chunk)
        for text in texts:
            whole = text.split(b"\0") if text else []
            assert list(git_history._fields(text)) == whole, (chunk, text)
            assert list(git_history._fields(io.BytesIO(text))) == whole, (chunk, text)


# -- uncommitted work, fallbacks ----------------------------------------------------------------


def test_working_tree_changes_take_their_mtime_and_ignored_files_no_date(
    repo: GitRepo, make: Make
) -> None:
    repo.write(".gitignore", "ignored.md\n")
    for name in ("clean.md", "modified.md", "staged.md", "unindexed.md"):
        repo.write(name, name)
    repo.commit("base", D1)
    repo.write("modified.md", "changed, not staged")
    repo.write("staged.md", "changed and staged")
    repo.git("add", "staged.md")
    repo.git("rm", "-q", "--cached", "unindexed.md")
    repo.write("untracked.md", "new")
    repo.write("new-staged.md", "new")
    repo.git("add", "new-staged.md")
    repo.write("ignored.md", "ignored")  # a build artefact or a virtualenv's file: no date
    dates, reporter, _ = make()
    changed = ["modified.md", "staged.md", "unindexed.md", "untracked.md", "new-staged.md"]
    found = dates.lookup([repo.path(name) for name in ["clean.md", *changed, "ignored.md"]])
    got = found.dates
    assert got[repo.path("clean.md")] == (dt.datetime.fromisoformat(D1), "git")
    for name in changed:
        when, source = got[repo.path(name)]
        expected = int(repo.path(name).stat().st_mtime)
        assert (when, source) == (dt.datetime.fromtimestamp(expected, dt.timezone.utc), "mtime")
        assert when.tzinfo == dt.timezone.utc
    assert repo.path("ignored.md") not in got
    assert found.undated[repo.path("ignored.md")].reason is Why.IGNORED
    assert reporter.warnings == []


def test_thousands_of_new_files_are_asked_about_in_batches(repo: GitRepo, make: Make) -> None:
    repo.write("docs/old.md", "committed")
    repo.commit("base", D1)
    names = [
        f"docs/generated/{'a-rather-long-generated-page-name-' * 2}{n:04}.md" for n in range(1500)
    ]
    for name in names:
        repo.write(name, "generated, not committed yet")
    dates, reporter, recorder = make()
    found = dates.lookup([repo.path(name) for name in names])
    assert {source for _, source in found.dates.values()} == {"mtime"}
    assert len(found.dates) == len(names)
    assert reporter.warnings == []
    assert recorder.count("ls-files") > 1  # more names than one command line should carry


def test_file_deleted_in_history_then_recreated_untracked(repo: GitRepo, make: Make) -> None:
    repo.write("page.md", "1")
    repo.write("other.md", "1")
    repo.commit("add", D1)
    repo.remove("page.md")
    repo.commit("delete", D2)
    repo.write("page.md", "back, untracked")
    dates, _, _ = make()
    assert dates.lookup([repo.path("page.md")]).dates[repo.path("page.md")][1] == "mtime"


def linear_history(repo: GitRepo) -> dict[str, str]:
    """p0..p2 added at D1; p1 changed at D2, p2 at D3 (near midnight in a UTC-5 zone)."""
    for number in range(3):
        repo.write(f"docs/p{number}.md", f"p{number}, first")
    repo.commit("c1", D1)
    repo.write("docs/p1.md", "p1, second")
    repo.commit("c2", D2)
    repo.write("docs/p2.md", "p2, second")
    repo.commit("c3", "2024-03-01T23:30:00-05:00")
    return {name: repo.log_date(name) for name in repo.tracked_files()}


@pytest.mark.parametrize(
    ("depth", "exact"),
    [
        (1, set()),  # HEAD is the boundary: it may or may not have changed p2
        (2, {"docs/p2.md"}),  # c3 is inside the window, c2 is the boundary
        (3, {"docs/p0.md", "docs/p1.md", "docs/p2.md"}),  # the boundary is the true root
        (9, {"docs/p0.md", "docs/p1.md", "docs/p2.md"}),  # deeper than history: not shallow
    ],
)
def test_shallow_clone_dates_what_its_history_proves_and_nothing_else(
    repo: GitRepo, make: Make, tmp_path: Path, depth: int, exact: set[str]
) -> None:
    truth = linear_history(repo)
    clone = repo.clone(tmp_path / "shallow clone", depth=depth)
    dates, reporter, recorder = make()
    found = dates.lookup([clone.path(name) for name in truth])
    assert {name: iso(found.dates[clone.path(name)]) for name in exact} == {
        name: truth[name] for name in exact
    }
    for name in set(truth) - exact:
        assert clone.path(name) not in found.dates  # never the checkout time or the boundary's
        undated = found.undated[clone.path(name)]
        assert undated.reason is Why.SHALLOW
        assert undated.root == clone.root.resolve()
        boundary = clone.git("log", "-1", "--format=%cI", "--", name).strip()
        assert undated.bound == dt.datetime.fromisoformat(boundary)  # an upper bound only
    assert reporter.warnings == []  # the build says it once, counting pages
    assert recorder.count("log") == 1


def test_shallow_clones_of_merge_histories_are_exact_or_undated(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    """Against git itself: each file is dated exactly as in the full clone, or not at all, and
    undated exactly when the shallow clone's own ``git log -1`` stops at a boundary commit."""
    random_history(repo, 3)
    files = repo.tracked_files()
    full = {name: repo.log_date(name) for name in files}
    commits = int(repo.git("rev-list", "--count", "HEAD"))
    seen = {True: 0, False: 0}
    for depth in (1, 2, 4, commits // 2, commits - 1):
        clone = repo.clone(tmp_path / f"depth-{depth}", depth=depth)
        marked = clone.path(".git/shallow")
        shallow = set(marked.read_text().split()) if marked.exists() else set()
        dates, reporter, _ = make()
        found = dates.lookup([clone.path(name) for name in files])
        for name in files:
            last = clone.git("log", "-1", "--format=%H", "--", name).strip()
            cut = last in shallow and bool(clone.git("cat-file", "-p", last).count("\nparent "))
            if cut:
                assert found.undated[clone.path(name)].reason is Why.SHALLOW, (depth, name)
            else:
                assert iso(found.dates[clone.path(name)]) == full[name], (depth, name)
            seen[cut] += 1
        assert reporter.warnings == []
    assert seen[True]  # the depths gave both kinds of file
    assert seen[False]


@pytest.mark.parametrize("partial", [False, True], ids=["full-fetch", "blobless-fetch"])
def test_fetch_history_deepens_a_shallow_clone_from_its_own_remote(
    repo: GitRepo, tmp_path: Path, partial: bool
) -> None:
    truth = linear_history(repo)
    bare = tmp_path / "origin.git"
    subprocess.run(
        ["git", "clone", "-q", "--bare", str(repo.root), str(bare)], env=git_env(), check=True
    )
    # A server that allows filters (as the big forges do) sends commits and trees only.
    allow = "true" if partial else "false"
    subprocess.run(
        ["git", "-C", str(bare), "config", "uploadpack.allowFilter", allow],
        env=git_env(),
        check=True,
    )
    clone = GitRepo(tmp_path / "ci", init=False)
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", bare.as_uri(), str(clone.root)],
        env=git_env(),
        check=True,
    )
    files = [clone.path(name) for name in truth]
    reporter = CollectingReporter()
    recorder = Recorder()
    dates = FileDates(reporter, fetch_history=True, runner=recorder)
    found = dates.lookup(files)
    assert {name: iso(found.dates[clone.path(name)]) for name in truth} == truth
    assert reporter.warnings == []
    assert recorder.count("fetch") == 1
    assert clone.git("rev-parse", "--is-shallow-repository").strip() == "false"
    objects = clone.git("rev-list", "--objects", "--missing=print", "HEAD").split("\n")
    assert any(line.startswith("?") for line in objects) == partial  # old contents not fetched
    dates.lookup(files)
    assert recorder.count("fetch") == 1  # fetched once, then an ordinary full clone


def test_fetch_history_that_fails_warns_once_and_keeps_the_shallow_rule(
    repo: GitRepo, tmp_path: Path
) -> None:
    truth = linear_history(repo)
    clone = repo.clone(tmp_path / "ci", depth=2)
    shutil.rmtree(repo.root)  # the remote is gone, as offline or without credentials
    reporter = CollectingReporter()
    dates = FileDates(reporter, fetch_history=True)
    files = [clone.path(name) for name in truth]
    found = dates.lookup(files)
    assert {iso(found.dates[path]) for path in found.dates} == {truth["docs/p2.md"]}
    assert {item.reason for item in found.undated.values()} == {Why.SHALLOW}
    [(code, message)] = reporter.warnings
    assert code is Code.GIT
    assert "git fetch --unshallow" in message
    assert str(clone.root.resolve()) in message
    dates.lookup(files)
    assert len(reporter.warnings) == 1  # tried once per repository, not per build


def test_fetch_history_in_a_clone_without_a_remote_says_so(repo: GitRepo, tmp_path: Path) -> None:
    """A host that clones without a remote (or a CI step that removed it): git's own words
    speak of partial clones, which this is not; the warning says there is no remote, naming
    the repository."""
    truth = linear_history(repo)
    clone = repo.clone(tmp_path / "ci", depth=1)
    clone.git("remote", "remove", "origin")
    reporter = CollectingReporter()
    dates = FileDates(reporter, fetch_history=True)
    found = dates.lookup([clone.path(name) for name in truth])
    assert found.dates == {}
    assert {item.reason for item in found.undated.values()} == {Why.SHALLOW}
    [(code, message)] = reporter.warnings
    assert code is Code.GIT
    assert message.startswith(f"{clone.root.resolve()}: ")
    assert "the clone has no remote to fetch from" in message
    assert "git remote add origin URL" in message
    assert "partialclone" not in message


def test_outside_any_repository_there_is_no_date(tmp_path: Path, make: Make) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    page = plain / "page.md"
    page.write_text("x", encoding="utf-8")
    dates, reporter, recorder = make()
    found = dates.lookup([page])
    assert found.dates == {}
    assert found.undated[page] == Undated(Why.NOT_TRACKED)
    assert reporter.warnings == []
    assert recorder.calls == []  # found by looking for .git, not by asking git
    # Asked for file times without git, the caller gets them.
    assert dates.lookup([page], use_git=False).dates[page][1] == "mtime"


@pytest.mark.parametrize("dot_git", ["worktree copied", "empty folder"])
def test_a_dot_git_that_leads_to_no_repository_gives_no_date_and_what_git_said(
    repo: GitRepo, make: Make, tmp_path: Path, dot_git: str
) -> None:
    """A worktree's ``.git`` file copied without the repository it names (into a container
    image), or an empty ``.git`` folder: as outside any repository, no date; the reason keeps
    git's own words, for the one line the build says."""
    repo.write("page.md", "x")
    repo.commit("add", D1)
    copy = tmp_path / "copy"
    if dot_git == "worktree copied":
        worktree = tmp_path / "worktree"
        repo.git("worktree", "add", "-q", "--detach", str(worktree), "HEAD")
        shutil.copytree(worktree, copy)
        repo.git("worktree", "remove", "--force", str(worktree))
    else:
        repo.archive(copy)
        (copy / ".git").mkdir()
    dates, reporter, _ = make()
    found = dates.lookup([copy / "page.md"])
    assert found.dates == {}
    undated = found.undated[copy / "page.md"]
    assert (undated.reason, undated.root) == (Why.NO_REPOSITORY, copy.resolve())
    assert "not a git repository" in (undated.said or "")
    assert reporter.warnings == []  # the build counts the pages and says it once


def test_without_git_installed_a_work_tree_has_no_dates(
    repo: GitRepo, make: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("page.md", "x")
    repo.commit("add", D1)
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert shutil.which("git") is None
    dates, reporter, _ = make()
    found = dates.lookup([repo.path("page.md")])
    assert found.dates == {}
    assert found.undated[repo.path("page.md")] == Undated(Why.NO_GIT, repo.root.resolve())
    assert reporter.warnings == []  # the build counts the pages and says it once


def test_repository_without_commits_dates_its_untracked_files_by_mtime(
    repo: GitRepo, make: Make
) -> None:
    repo.write("page.md", "x")
    repo.write(".gitignore", "out.md\n")
    repo.write("out.md", "generated")
    dates, reporter, recorder = make()
    found = dates.lookup([repo.path("page.md"), repo.path("out.md")])
    assert found.dates[repo.path("page.md")][1] == "mtime"
    assert found.undated[repo.path("out.md")].reason is Why.IGNORED
    assert reporter.warnings == []
    assert recorder.count("log") == 0


def test_broken_repository_warns_and_gives_no_dates(repo: GitRepo, make: Make) -> None:
    repo.write("page.md", "1")
    first = repo.commit("first", D1)
    repo.write("page.md", "2")
    repo.commit("second", D2)
    repo.write("other.md", "3")
    repo.commit("third", D3)
    objects = repo.root / ".git" / "objects"
    (objects / first[:2] / first[2:]).unlink()  # history is now missing a commit
    dates, reporter, _ = make()
    found = dates.lookup([repo.path("page.md")])
    assert found.dates == {}
    assert found.undated[repo.path("page.md")].reason is Why.GIT_FAILED
    assert reporter.codes() == [Code.GIT]
    assert str(repo.root.resolve()) in reporter.warnings[0][1]


def test_dependencies_outside_the_sources_repositories_never_date(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    repo.write("docs/page.md", "x")
    repo.write("src/module.py", "y")
    repo.write(".gitignore", ".venv/\n")
    repo.write(".venv/lib/installed.py", "an installed package inside the checkout")
    repo.commit("add", D1)
    other = GitRepo(tmp_path / "beside")  # another checkout next to this one
    other.write("shared.rst", "z")
    other.commit("other", D6)
    stdlib = Path(os.__file__)
    loose = tmp_path / "loose.txt"
    loose.write_text("beside the checkout", encoding="utf-8")
    dependencies = [
        repo.path("src/module.py"),
        repo.path(".venv/lib/installed.py"),
        other.path("shared.rst"),
        stdlib,
        loose,
    ]
    dates, _, _ = make()
    found = dates.lookup(
        [repo.path("docs/page.md"), *dependencies], within=[repo.path("docs/page.md")]
    )
    assert set(found.dates) == {repo.path("docs/page.md"), repo.path("src/module.py")}
    assert found.undated[repo.path(".venv/lib/installed.py")].reason is Why.IGNORED
    for outside in (other.path("shared.rst"), stdlib, loose):
        assert found.undated[outside].reason is Why.OUTSIDE, outside


def test_repositories_nested_in_the_sources_date_only_the_projects_own_files(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    """Inside the sources' work tree: a registered submodule (also one whose ``.git`` is a
    folder, as ``git add`` of a clone registers it), and a clone under a folder the host reads
    translations from, are the project's files, each dated by its own history in a pass of its
    own; a clone elsewhere, or in a virtualenv even under the source folder (``pip install -e
    git+...`` checks out into ``.venv/src/NAME``), is not."""
    translations = GitRepo(tmp_path / "translations")
    translations.write("fr/guide.po", "fr")
    translations.commit("fr", D5)
    repo.write("docs/page.rst", "x")
    repo.write(".gitignore", "locales/de/\nvendor/\ndocs/.venv/\n")
    repo.commit("add", D1)
    repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q",
             translations.root.resolve().as_uri(), "translations")  # fmt: skip
    repo.commit("take in the translations", D6)
    nested = {}
    for where in ("locales/de", "vendor/lib", "docs/.venv/src/theme"):
        clone = GitRepo(repo.path(where))
        clone.write("file.txt", where)
        clone.commit(where, D3)
        nested[where] = clone.path("file.txt")
    repo.write("docs/.venv/pyvenv.cfg", "home = /usr/bin\n")
    legacy = GitRepo(repo.path("legacy"))
    legacy.write("file.txt", "legacy")
    legacy.commit("legacy", D4)
    repo.git("add", "legacy")  # a gitlink to a repository that keeps its .git folder
    repo.commit("take in the legacy clone", D6, "legacy")
    nested["legacy"] = legacy.path("file.txt")
    page = repo.path("docs/page.rst")
    catalog = repo.path("translations/fr/guide.po")
    dates, reporter, recorder = make()
    dates.source_folders([repo.path("docs"), repo.path("locales")])
    found = dates.lookup([page, catalog, *nested.values()], within=[page])
    assert {path: iso(date) for path, date in found.dates.items()} == {
        page: D1,
        catalog: translations.log_date("fr/guide.po"),  # not the commit that took it in
        nested["locales/de"]: D3,
        nested["legacy"]: D4,
    }
    for outside in (nested["vendor/lib"], nested["docs/.venv/src/theme"]):
        assert found.undated[outside].reason is Why.OUTSIDE, outside
    assert reporter.warnings == []
    assert recorder.count("log") == 4  # one pass per repository that counts
    # The submodule is told by its .git file; only the clones with a .git folder ask git,
    # and the next build (another lookup) asks it nothing again.
    asked = [args for args in recorder.calls if "--stage" in args]
    assert sorted(args[-1] for args in asked) == ["legacy", "vendor/lib"]
    dates.lookup([page, catalog, *nested.values()], within=[page])
    assert [args for args in recorder.calls if "--stage" in args] == asked


def test_use_git_and_use_mtime_switches(repo: GitRepo, make: Make) -> None:
    repo.write("tracked.md", "x")
    repo.commit("add", D1)
    repo.write("untracked.md", "y")
    files = [repo.path("tracked.md"), repo.path("untracked.md")]
    dates, _, recorder = make()
    only_mtime = dates.lookup(files, use_git=False).dates
    assert {source for _, source in only_mtime.values()} == {"mtime"}
    assert len(only_mtime) == 2
    assert recorder.calls == []
    only_git = dates.lookup(files, use_mtime=False)
    assert list(only_git.dates) == [repo.path("tracked.md")]
    assert only_git.undated[repo.path("untracked.md")].reason is Why.UNCOMMITTED
    assert dates.lookup(files, use_git=False, use_mtime=False).dates == {}


def test_source_date_epoch_clamps_mtime_but_not_git(
    repo: GitRepo, make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("tracked.md", "x")
    repo.commit("add", "2030-01-01T00:00:00+00:00")
    new = repo.write("untracked.md", "y")
    old = repo.write("old.md", "z")
    epoch = int(dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc).timestamp())
    os.utime(new, (epoch + 1000, epoch + 1000))
    os.utime(old, (epoch - 1000, epoch - 1000))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
    dates, _, _ = make()
    got = dates.lookup([repo.path("tracked.md"), new, old]).dates
    utc = dt.timezone.utc
    assert got[new] == (dt.datetime.fromtimestamp(epoch, utc), "mtime")
    assert got[old] == (dt.datetime.fromtimestamp(epoch - 1000, utc), "mtime")
    assert iso(got[repo.path("tracked.md")]) == "2030-01-01T00:00:00+00:00"
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert dates.lookup([new]).dates[new] == (dt.datetime.fromtimestamp(epoch + 1000, utc), "mtime")


def test_missing_files_are_absent(repo: GitRepo, make: Make, tmp_path: Path) -> None:
    repo.write("page.md", "x")
    repo.commit("add", D1)
    repo.remove("page.md")  # tracked in HEAD, gone from disk
    missing = [repo.path("page.md"), tmp_path / "nowhere" / "x.md", repo.root / "docs"]
    dates, reporter, _ = make()
    assert dates.lookup(missing).dates == {}
    assert reporter.warnings == []


def test_only_files_git_cannot_vouch_for_are_looked_at_on_disk(
    repo: GitRepo, make: Make, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A committed file git's status shows unchanged is dated from history alone; an edited,
    untracked, deleted or never-existing one is looked at, as its time or absence decides it.
    Git is asked whether a file is untracked only when the file is there to be."""
    for name in ("same.md", "edited.md", "deleted.md"):
        repo.write(name, name)
    repo.commit("add", D1)
    repo.write("edited.md", "changed")
    repo.write("new.md", "untracked")
    repo.path("deleted.md").unlink()  # tracked in HEAD, gone from disk
    names = ["same.md", "edited.md", "new.md", "deleted.md", "never.md"]
    stat_calls: list[str] = []
    real_stat = os.stat

    def recording_stat(path: object, *args: object, **kwargs: object) -> os.stat_result:
        stat_calls.append(os.fsdecode(path))  # type: ignore[arg-type]
        return real_stat(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "stat", recording_stat)
    dates, reporter, recorder = make()
    got = dates.lookup([repo.path(name) for name in names])
    monkeypatch.undo()
    looked_at = {Path(path).name for path in stat_calls} & set(names)
    assert looked_at == {"edited.md", "new.md", "deleted.md", "never.md"}
    assert {path.name: value[1] for path, value in got.dates.items()} == {
        "same.md": "git",
        "edited.md": "mtime",
        "new.md": "mtime",
    }
    assert iso(got.dates[repo.path("same.md")]) == D1
    assert got.undated == {}
    asked = [args for args in recorder.calls if "--others" in args]
    assert len(asked) == 1
    assert asked[0][asked[0].index("--") + 1 :] == ["new.md"]  # not never.md, which is nowhere
    assert reporter.warnings == []


def test_symlinked_directories_and_caller_keys(repo: GitRepo, make: Make, tmp_path: Path) -> None:
    repo.write("docs/page.md", "x")
    repo.commit("add", D2)
    link = tmp_path / "link-to-repo"
    link.symlink_to(repo.root, target_is_directory=True)
    via_link = link / "docs" / "page.md"
    relative = Path(os.path.relpath(repo.path("docs/page.md")))
    dates, _, recorder = make()
    got = dates.lookup([via_link, repo.path("docs/page.md"), relative]).dates
    assert set(got) == {via_link, repo.path("docs/page.md"), relative}
    assert {iso(value) for value in got.values()} == {D2}
    assert recorder.count("log") == 1


def test_every_spelling_of_a_path_is_read_as_abspath_reads_it(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    """Plain absolute paths skip ``abspath``; every other spelling still takes it, so each one
    names the file ``os.path.abspath`` names: ``..`` undone by its text (not through a
    symlink), a ``/`` at the end dropped. Strings or paths, each is kept under its own key."""
    repo.write("docs/page.md", "x")
    repo.write("docs/.hidden/inner.md", "y")
    repo.write("top.md", "t")
    repo.commit("add", D2)
    repo.write("docs/new.md", "z")  # untracked: dated by its file time, found the same way
    plain = str(repo.path("docs/page.md"))
    folder = str(repo.path("docs"))
    link = tmp_path / "elsewhere" / "link"
    link.parent.mkdir()
    link.symlink_to(repo.path("docs"), target_is_directory=True)
    spellings = [
        plain,
        repo.path("docs/page.md"),
        f"{folder}/./page.md",
        f"{folder}/../docs/page.md",
        f"{folder}//page.md",
        f"{folder}/page.md/",
        os.path.relpath(plain),
        f"{link}/page.md",
    ]
    hidden = [str(repo.path("docs/.hidden/inner.md")), f"{folder}/.hidden/../.hidden/inner.md"]
    new = [str(repo.path("docs/new.md")), f"{folder}/sub/../new.md"]
    # By its text, the parent of the link is ``elsewhere``, which holds no top.md; only the
    # file system's walk through the link would reach the repository's top.md.
    absent = [folder, folder + "/", f"{folder}/missing.md", f"{link}/../top.md"]
    dates, reporter, _ = make()
    got = dates.lookup([*spellings, *hidden, *new, *absent], within=[plain]).dates
    assert set(got) == {*spellings, *hidden, *new}
    assert {iso(got[name]) for name in [*spellings, *hidden]} == {D2}
    assert {got[name][1] for name in new} == {"mtime"}
    assert got[new[0]] == got[new[1]]
    assert reporter.warnings == []


# -- processes and caching ----------------------------------------------------------------------


def test_one_log_per_repository_and_a_constant_number_of_processes(
    tmp_path: Path, make: Make
) -> None:
    first = GitRepo(tmp_path / "first")
    second = GitRepo(tmp_path / "first" / "nested")  # a repository inside another one
    for number in range(30):
        first.write(f"docs/p{number}.md", str(number))
        second.write(f"docs/p{number}.md", str(number))
    second.commit("nested", D2)
    first.write(".gitignore", "nested/\n")
    first.commit("outer", D1)
    outside = tmp_path / "outside.md"
    outside.write_text("x", encoding="utf-8")
    files = [first.path(f"docs/p{n}.md") for n in range(30)]
    files += [second.path(f"docs/p{n}.md") for n in range(30)] + [outside]
    dates, _, recorder = make()
    got = dates.lookup(files).dates
    assert recorder.count("log") == 2
    assert len(recorder.calls) == 6  # rev-parse, status and log for each repository
    assert recorder.refused == recorder.old_git  # the fallback to -m is remembered
    assert {iso(got[path]) for path in files[:30]} == {D1}
    assert {iso(got[path]) for path in files[30:60]} == {D2}
    assert outside not in got


def test_cache_reuses_the_walk_until_head_moves_or_files_are_added(
    repo: GitRepo, make: Make
) -> None:
    repo.write("docs/a.md", "1")
    repo.write("docs/b.md", "1")
    repo.commit("add", D1)
    a, b = repo.path("docs/a.md"), repo.path("docs/b.md")
    dates, _, recorder = make()
    assert iso(dates.lookup([a]).dates[a]) == D1
    assert recorder.count("log") == 1
    assert iso(dates.lookup([a]).dates[a]) == D1
    assert recorder.count("log") == 1  # nothing changed: no second walk
    dates.lookup([a, b])
    assert recorder.count("log") == 2  # a file the cache does not cover
    dates.lookup([b])
    dates.lookup([a, b])
    assert recorder.count("log") == 2
    repo.write("docs/a.md", "edited, not committed")
    got = dates.lookup([a, b]).dates
    assert got[a][1] == "mtime"  # the work tree is re-read on every call...
    assert iso(got[b]) == D1
    assert recorder.count("log") == 2  # ...but committed history cannot have changed
    repo.commit("edit", D3)
    got = dates.lookup([a, b]).dates
    assert recorder.count("log") == 3  # HEAD moved
    assert (iso(got[a]), iso(got[b])) == (D3, D1)
    repo.git("checkout", "-q", "HEAD~1")
    assert iso(dates.lookup([a]).dates[a]) == D1
    assert recorder.count("log") == 4


def test_git_date_is_validated() -> None:
    with pytest.raises(ValueError, match="git_date"):
        FileDates(CollectingReporter(), git_date="commit")


# -- symbolic links -------------------------------------------------------------------------------


def test_a_linked_page_is_dated_by_the_file_it_names_too(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    """``docs/index.md -> ../README.md`` is how many sites show their README: the host reads
    README.md, so the page changed when README.md did, or when the link was pointed elsewhere.
    A link out of the work tree keeps its own date; an uncommitted change to the file a link
    names dates the page by that file's time."""
    outside = tmp_path / "elsewhere.md"
    outside.write_text("outside the work tree", encoding="utf-8")
    repo.write("README.md", "read me")
    repo.write("docs/v1.md", "one")
    repo.write("docs/v2.md", "two")
    repo.path("docs/index.md").symlink_to("../README.md")
    repo.path("docs/latest.md").symlink_to("v1.md")
    repo.path("docs/outside.md").symlink_to(outside)
    repo.commit("site", D1)
    repo.write("README.md", "read me, changed")
    repo.commit("change the readme", D2)
    repo.path("docs/latest.md").unlink()
    repo.path("docs/latest.md").symlink_to("v2.md")
    repo.commit("point latest at v2", D3)
    names = ["docs/index.md", "docs/latest.md", "docs/outside.md", "docs/v1.md"]
    dates, reporter, _ = make()
    found = dates.lookup([repo.path(name) for name in names])
    assert {name: found.dates[repo.path(name)] for name in names} == {
        "docs/index.md": (dt.datetime.fromisoformat(D2), "git"),  # README.md's change
        "docs/latest.md": (dt.datetime.fromisoformat(D3), "git"),  # the link's own change
        "docs/outside.md": (dt.datetime.fromisoformat(D1), "git"),
        "docs/v1.md": (dt.datetime.fromisoformat(D1), "git"),
    }
    assert reporter.warnings == []
    repo.write("README.md", "read me, being edited")
    dates, _, _ = make()
    edited = dates.lookup([repo.path("docs/index.md")]).dates[repo.path("docs/index.md")]
    when = int(repo.path("README.md").stat().st_mtime)
    assert edited == (dt.datetime.fromtimestamp(when, dt.timezone.utc), "mtime")


@pytest.mark.parametrize("changed", ["the file named", "the link"])
def test_a_shallow_clone_dates_a_linked_page_by_what_it_holds(
    repo: GitRepo, tmp_path: Path, changed: str
) -> None:
    """One of the two changed inside the clone, the other before it: the change inside the
    clone is the newer, so the page is dated exactly; both before it, the page is undated."""
    repo.write("README.md", "read me")
    repo.write("OTHER.md", "other")
    repo.path("docs").mkdir()
    repo.path("docs/index.md").symlink_to("../README.md")
    repo.commit("site", D1)
    repo.write("unrelated.txt", "x")
    repo.commit("unrelated", D2)
    if changed == "the link":
        repo.path("docs/index.md").unlink()
        repo.path("docs/index.md").symlink_to("../OTHER.md")
    else:
        repo.write("README.md", "read me, changed")
    repo.commit("change", D3)
    shallow = repo.clone(tmp_path / "ci", depth=2)
    found = FileDates(CollectingReporter()).lookup([shallow.path("docs/index.md")])
    assert found.dates == {shallow.path("docs/index.md"): (dt.datetime.fromisoformat(D3), "git")}
    shallower = repo.clone(tmp_path / "ci-1", depth=1)
    found = FileDates(CollectingReporter()).lookup([shallower.path("docs/index.md")])
    assert found.undated[shallower.path("docs/index.md")].reason is Why.SHALLOW


# -- the user's git configuration -----------------------------------------------------------------


def test_the_users_log_follow_setting_changes_no_date(
    repo: GitRepo, make: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``log.follow = true`` (a common global setting) makes git follow one file's renames
    whenever a single path is given, as the one folder a site lives in is, and then list only
    the commits that touch it, merges left out: the pass still lists every commit (here the
    last one touches only README.md, and the history has merges), and every date is
    ``git log -1``'s."""
    random_history(repo, 2)
    repo.write("README.md", "the last commit touches no page")
    repo.commit("readme only", D4)
    assert repo.git("log", "--merges", "--format=%H").strip()
    names = [name for name in repo.tracked_files() if name.startswith("docs/")]
    truth = {name: repo.log_date(name) for name in names}
    config = tmp_path / "gitconfig"
    config.write_text("[log]\n\tfollow = true\n", encoding="utf-8")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    seen = subprocess.run(
        ["git", "config", "--get", "log.follow"],
        cwd=repo.root,
        capture_output=True,
        text=True,
        check=False,
    )
    assert seen.stdout.strip() == "true"  # the git FileDates runs sees it
    dates, reporter, _ = make()
    found = dates.lookup([repo.path(name) for name in names]).dates
    assert {name: iso(found[repo.path(name)]) for name in names} == truth
    assert reporter.warnings == []


# -- when a file last left a folder ---------------------------------------------------------------


def last_removal(repo: GitRepo, folder: str, *, old_git: bool) -> str | None:
    """What git itself says of the last time a file left ``folder`` in HEAD's history: the
    newest commit date among those whose diff deletes a file there, renames split into a
    deletion and an addition, a merge diffed as the pass diffs it (against its first parent;
    against each parent for a git older than 2.31)."""
    merges = "-m" if old_git else "--diff-merges=first-parent"
    out = repo.git(
        "log", "--full-history", "--no-renames", "--diff-filter=D", merges, "--name-only",
        "--format=date %cI", "HEAD", "--", *([folder] if folder else []),
    )  # fmt: skip
    dates = {line[5:] for line in out.splitlines() if line.startswith("date ")}
    return max(dates, key=dt.datetime.fromisoformat) if dates else None


@pytest.mark.parametrize("seed", range(6))
def test_random_histories_date_each_folders_last_removal_as_git_log_does(
    repo: GitRepo, make: Make, seed: int
) -> None:
    """Deletions, renames away and merges that bring either in, on random histories: the
    date a file last left a folder is what ``git log --diff-filter=D`` shows, for a folder
    and what is under it, from the same single pass that dates the files."""
    random_history(repo, seed)
    files = repo.tracked_files()
    folders = ["", "docs", "docs/sub", "nowhere"]
    dates, reporter, recorder = make()
    found = dates.lookup(
        [repo.path(name) for name in files],
        removals_in=[repo.path(folder) if folder else repo.root for folder in folders],
    )
    old_git = bool(recorder.refused)
    for folder in folders:
        expected = last_removal(repo, folder, old_git=old_git)
        got = found.removals.get(repo.path(folder) if folder else repo.root)
        if expected is None:
            assert got is None, (seed, folder)
        else:
            assert got == (dt.datetime.fromisoformat(expected), "git"), (seed, folder)
    assert reporter.warnings == []
    assert recorder.count("log") == 1


def test_a_folder_a_file_left_is_dated_by_that_commit_and_one_never_left_is_not_named(
    repo: GitRepo, make: Make
) -> None:
    """Deleted (with git rm, or renamed away) from the folder or a folder in it: the commit
    that did it, though no file left in the folder changed then; a file leaving another
    folder, or moving into this one, is no removal from it."""
    for name in ("posts/a.md", "posts/b.md", "posts/2024/c.md", "pages/p.md", "kept/k.md"):
        repo.write(name, name)
    repo.commit("add", D1)
    repo.remove("posts/b.md")
    repo.commit("unpublish b", D2)
    repo.move("pages/p.md", "posts/p.md")  # into posts: a removal from pages only
    repo.commit("move p", D3)
    repo.move("posts/2024/c.md", "archive/c.md")  # away from posts/2024
    repo.commit("archive c", D4)
    repo.write("posts/a.md", "edited")
    repo.commit("edit a", D5)
    dates, reporter, _ = make()
    folders = {name: repo.path(name) for name in ("posts", "posts/2024", "pages", "kept")}
    found = dates.lookup([repo.path("posts/a.md")], removals_in=folders.values())
    removals = found.removals
    dated = {name: removals[path][0] for name, path in folders.items() if path in removals}
    assert {name: date.isoformat() for name, date in dated.items()} == {
        "posts": "2024-04-01T10:00:00+05:30",  # c left posts/2024, a folder in it
        "posts/2024": "2024-04-01T10:00:00+05:30",
        "pages": "2024-03-01T10:00:00-05:00",
    }
    assert reporter.warnings == []


def test_a_file_deleted_in_the_working_tree_dates_its_folder_by_the_folders_time(
    repo: GitRepo, make: Make
) -> None:
    """Not committed yet, a deletion is a working-tree change: dated by the time of the
    folder it left, as an edit by its file's; not at all where file times are not wanted."""
    for name in ("posts/a.md", "posts/2024/b.md"):
        repo.write(name, name)
    repo.commit("add", D1)
    repo.path("posts/2024/b.md").unlink()
    when = int(repo.path("posts/2024").stat().st_mtime)
    dates, _, _ = make()
    posts = repo.path("posts")
    found = dates.lookup([repo.path("posts/a.md")], removals_in=[posts])
    assert found.removals[posts] == (dt.datetime.fromtimestamp(when, dt.timezone.utc), "mtime")
    found = dates.lookup([repo.path("posts/a.md")], removals_in=[posts], use_mtime=False)
    assert found.removals[posts] == Undated(Why.UNCOMMITTED)


def test_a_shallow_clone_dates_a_folders_last_removal_only_when_none_can_be_newer(
    repo: GitRepo, make: Make, tmp_path: Path
) -> None:
    """A deletion before the commits a shallow clone stops at is not seen: a folder is dated
    by a deletion inside the clone's history (no older than those commits), and otherwise
    undated, with their date as the bound (none with author dates, which bound nothing)."""
    for name in ("posts/a.md", "posts/b.md", "posts/c.md"):
        repo.write(name, name)
    repo.commit("add", D1)
    repo.remove("posts/b.md")
    repo.commit("unpublish b", D2)
    repo.write("posts/a.md", "edited")
    repo.commit("edit a", D3)
    repo.remove("posts/c.md")
    repo.commit("unpublish c", D4)
    repo.write("other.md", "other")
    repo.commit("other", D5)

    def removal(depth: int, git_date: str = "committer") -> object:
        clone = repo.clone(tmp_path / f"depth-{depth}-{git_date}", depth=depth)
        dates, reporter, _ = make(git_date)
        found = dates.lookup([clone.path("posts/a.md")], removals_in=[clone.path("posts")])
        assert reporter.warnings == []
        return found.removals.get(clone.path("posts"))

    assert removal(9) == (dt.datetime.fromisoformat(D4), "git")  # deeper than history
    assert removal(3) == (dt.datetime.fromisoformat(D4), "git")  # "edit a" is the boundary
    cut = removal(2)
    assert isinstance(cut, Undated)
    assert cut.reason is Why.SHALLOW
    assert cut.bound == dt.datetime.fromisoformat(D4)  # "unpublish c" is the boundary
    by_author = removal(3, "author")
    assert isinstance(by_author, Undated)
    assert (by_author.reason, by_author.bound) == (Why.SHALLOW, None)


def test_a_folder_outside_git_or_without_git_gets_no_removal_date(
    repo: GitRepo, make: Make, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where no history can be read, a file may have left the folder at any time."""
    plain = tmp_path / "plain"
    (plain / "posts").mkdir(parents=True)
    (plain / "posts/a.md").write_text("a", encoding="utf-8")
    dates, _, _ = make()
    found = dates.lookup([plain / "posts/a.md"], removals_in=[plain / "posts"])
    assert found.removals == {plain / "posts": Undated(Why.NOT_TRACKED)}
    assert dates.lookup([plain / "posts/a.md"], removals_in=[plain / "posts"],
                        use_git=False).removals == {}  # fmt: skip
    repo.write("posts/a.md", "a")
    repo.commit("add", D1)
    empty = tmp_path / "no-git-here"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    found = make()[0].lookup([repo.path("posts/a.md")], removals_in=[repo.path("posts")])
    assert found.removals == {repo.path("posts"): Undated(Why.NO_GIT, repo.root.resolve())}
