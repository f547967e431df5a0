"""The history pass kept on disk: every later build must give exactly what a full pass gives.

Each check below is a new :class:`FileDates`, as a new build process would make, sharing only the
cache folder; git itself (``git log -1`` per file) is the oracle. The history moves between
builds the ways real repositories do: commits, merges, branch switches, rebases, resets, amends,
and a garbage collection that takes the old HEAD away.
"""

from __future__ import annotations

import datetime as dt
import json
import random
import shlex
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from sitemap_plugins.core import git_background, git_dates, git_history
from sitemap_plugins.core.cache_file import KEPT_PER_KIND, write_json, write_json_rows
from sitemap_plugins.core.git_dates import FileDates, Why
from sitemap_plugins.core.report import CollectingReporter
from tests.core.test_git_dates import D1, D2, D3, Recorder, iso, random_history
from tests.support.gitrepo import GitRepo, have_git
from tests.support.older_caches import as_an_older_release_wrote_it

pytestmark = pytest.mark.skipif(not have_git(), reason="git is not installed")


@pytest.fixture(params=["first-parent", "separate"])
def old_git(request: pytest.FixtureRequest) -> bool:
    return bool(request.param == "separate")


@pytest.fixture(params=["at the lookup", "started early"])
def started(request: pytest.FixtureRequest) -> bool:
    """Whether the build starts the pass when the host reads its config, as the adapters do."""
    return bool(request.param == "started early")


def build(
    repo: GitRepo, cache: Path, old_git: bool, *, started: bool = False
) -> tuple[dict[str, str], Recorder]:
    """One build's dates for every tracked file, from a fresh instance sharing ``cache``;
    ``started``: the pass was begun for ``docs/`` (README.md is outside it) before the lookup."""
    recorder = Recorder(old_git=old_git)
    reporter = CollectingReporter()
    dates = FileDates(
        reporter, cache_dir=cache, runner=recorder, starter=recorder.start if started else None
    )
    if started:
        dates.start(repo.path("docs"))
    names = repo.tracked_files()
    found = dates.lookup([repo.path(name) for name in names])
    assert reporter.warnings == []
    return {name: iso(found.dates[repo.path(name)]) for name in names}, recorder


def truth(repo: GitRepo) -> dict[str, str]:
    return {name: repo.log_date(name) for name in repo.tracked_files()}


def incremental(recorder: Recorder) -> bool:
    """Whether a log of the new commits only (``HEAD ^OLD``) ran, at the lookup or early."""
    ran = recorder.calls + (recorder.started if recorder.count("log") == 0 else [])
    return any(arg.startswith("^") for args in ran for arg in args)


def test_same_head_reads_no_history_and_a_moved_head_only_the_new_commits(
    tmp_path: Path, old_git: bool
) -> None:
    repo = GitRepo(tmp_path / "repo")
    for name in ("a.md", "b.md"):
        repo.write(f"docs/{name}", name)
    repo.commit("add", D1)
    cache = tmp_path / "cache"
    first, recorder = build(repo, cache, old_git)
    assert first == truth(repo)
    assert recorder.count("log") == 1
    assert not incremental(recorder)
    again, recorder = build(repo, cache, old_git)
    assert again == first
    assert recorder.count("log") == 0  # same HEAD: the stored answers stand
    repo.write("docs/b.md", "edited")
    repo.commit("edit b", D2)
    moved, recorder = build(repo, cache, old_git)
    assert moved == truth(repo)
    assert recorder.count("log") == 1
    assert incremental(recorder)  # git log HEAD ^OLD: the new commit only
    [answers] = cache.glob("git-history-*[0-9a-f].json")
    [commits] = cache.glob("git-history-*.commits.json")
    assert json.loads(answers.read_text(encoding="utf-8"))["head"] == repo.head()
    assert len(json.loads(commits.read_text(encoding="utf-8"))["commits"]) == 2


@pytest.mark.parametrize("seed", range(4))
def test_cached_dates_equal_a_full_pass_as_history_moves(
    tmp_path: Path, old_git: bool, started: bool, seed: int
) -> None:
    repo = GitRepo(tmp_path / "repo")
    random_history(repo, seed)
    rng = random.Random(seed)
    cache = tmp_path / "cache"
    clock = dt.datetime(2025, 1, 1, tzinfo=dt.timezone.utc)
    moves: list[str] = []
    used_incremental = False
    used_started = False
    for step in range(14):
        dates, recorder = build(repo, cache, old_git, started=started)
        assert dates == truth(repo), (seed, moves)
        used_incremental |= incremental(recorder)
        used_started |= bool(recorder.started) and recorder.count("log") == 0
        clock += dt.timedelta(hours=rng.randint(1, 40))
        branches = repo.git("branch", "--format=%(refname:short)").split()
        move = rng.choice(["commit", "commit", "switch", "merge", "rebase", "reset", "amend"])
        moves.append(move)
        if move == "commit":
            name = rng.choice(repo.tracked_files())
            repo.write(name, f"step {step}\n")
            repo.commit(f"step {step}", clock.isoformat())
        elif move == "switch":
            repo.checkout(rng.choice(branches))
        elif move == "merge":
            other = rng.choice(branches)
            proc = repo.run("merge", "-q", "--no-edit", "-X", "theirs", other, check=False)
            if proc.returncode:
                repo.run("merge", "--abort", check=False)
        elif move == "rebase":
            onto = rng.choice(branches)
            env = {"GIT_COMMITTER_DATE": clock.isoformat()}
            proc = repo.run("rebase", "-q", "-X", "theirs", onto, env=env, check=False)
            if proc.returncode:
                repo.run("rebase", "--abort", check=False)
        elif move == "reset":
            if repo.run("rev-parse", "-q", "--verify", "HEAD~1", check=False).returncode == 0:
                repo.git("reset", "-q", "--hard", "HEAD~1")
        else:
            repo.write("docs/index.md", f"amended {step}\n")
            repo.git("add", "-A")
            repo.git(
                "commit",
                "-q",
                "--amend",
                "--no-edit",
                env={"GIT_COMMITTER_DATE": clock.isoformat()},
            )
    assert used_incremental
    # A pass begun early was taken (with old git, from the second build: the first one asked
    # for --diff-merges, was refused, and the lookup ran its own with -m).
    assert used_started == started


def test_a_pass_started_early_is_the_one_the_lookup_takes(tmp_path: Path) -> None:
    repo = GitRepo(tmp_path / "repo")
    for name in ("a.md", "b.md"):
        repo.write(f"docs/{name}", name)
    repo.commit("add", D1)
    cache = tmp_path / "cache"

    def ran(recorder: Recorder, command: str) -> tuple[int, int]:
        """How often ``git <command>`` was started early, and how often run at the lookup."""
        return recorder.count(command, started=True), recorder.count(command)

    first, recorder = build(repo, cache, False, started=True)
    assert first == truth(repo)
    assert ran(recorder, "log") == (1, 0)  # git ran while the host "rendered"
    assert ran(recorder, "status") == (1, 0)
    assert recorder.count("rev-parse") == 1  # one probe, shared
    again, recorder = build(repo, cache, False, started=True)
    assert again == first
    assert ran(recorder, "log") == (0, 0)  # same HEAD: no history to read at all
    repo.write("docs/b.md", "edited")
    repo.commit("edit b", D2)
    moved, recorder = build(repo, cache, False, started=True)
    assert moved == truth(repo)
    assert ran(recorder, "log") == (1, 0)
    assert f"^{repo.git('rev-parse', 'HEAD~1').strip()}" in recorder.started[-1]
    # A file outside the started pass (README.md, outside docs/): the lookup runs its own.
    repo.write("README.md", "read me")
    repo.commit("readme", D3)
    outside, recorder = build(repo, cache, False, started=True)
    assert outside == truth(repo)
    assert ran(recorder, "log") == (1, 1)


def removals(
    repo: GitRepo, cache: Path | None, folders: list[str], *, started: bool = False
) -> tuple[dict[str, str | None], Recorder]:
    """When a file last left each of ``folders``, from a fresh instance sharing ``cache``
    (None: no cache at all, a full pass), with the tracked files asked about, as a build
    asks; ``started``: the pass was begun for ``docs/`` first, before the folders were known."""
    recorder = Recorder()
    reporter = CollectingReporter()
    dates = FileDates(
        reporter, cache_dir=cache, runner=recorder, starter=recorder.start if started else None
    )
    if started:
        dates.start(repo.path("docs"))
    found = dates.lookup(
        [repo.path(name) for name in repo.tracked_files()],
        removals_in=[repo.path(folder) for folder in folders],
    )
    assert reporter.warnings == []
    answers: dict[str, str | None] = {}
    for folder in folders:
        removal = found.removals.get(repo.path(folder))
        answers[folder] = None if removal is None else removal[0].isoformat()
    return answers, recorder


@pytest.mark.parametrize("started", [False, True], ids=["at the lookup", "started early"])
def test_when_a_file_last_left_a_folder_is_kept_with_the_pass(
    tmp_path: Path, started: bool
) -> None:
    """The folders files left are stored with the pass: a build at the same HEAD reads no
    history and knows them, one after a deletion reads only the new commits, and both answer
    as a full pass does. The pass begun for the source folder covers every folder in it."""
    repo = GitRepo(tmp_path / "repo")
    for name in ("docs/posts/a.md", "docs/posts/b.md", "docs/index.md"):
        repo.write(name, name)
    repo.commit("add", D1)
    repo.remove("docs/posts/b.md")
    repo.commit("unpublish b", D2)
    cache = tmp_path / "cache"
    folders = ["docs/posts", "docs"]
    first, recorder = removals(repo, cache, folders, started=started)
    assert first == removals(repo, None, folders)[0] == dict.fromkeys(folders, D2)
    assert recorder.count("log") + recorder.count("log", started=True) == 1
    again, recorder = removals(repo, cache, folders, started=started)
    assert again == first
    assert recorder.count("log") + recorder.count("log", started=True) == 0
    repo.write("docs/posts/c.md", "c")
    repo.commit("add c", D3)
    repo.remove("docs/posts/c.md")
    repo.remove("docs/index.md")
    repo.commit("unpublish c", "2024-04-01T10:00:00+00:00")
    moved, recorder = removals(repo, cache, folders, started=started)
    assert moved == removals(repo, None, folders)[0]
    assert moved == dict.fromkeys(folders, "2024-04-01T10:00:00+00:00")
    assert incremental(recorder)


def lookup_all(
    repo: GitRepo, cache: Path, names: list[str], *, started: bool
) -> tuple[dict[str, str], Recorder]:
    """Every name's date and its source (``git``, ``mtime``), or why it has none, from a fresh
    instance sharing ``cache``; ``started``: the pass was begun for ``docs/`` first."""
    recorder = Recorder()
    reporter = CollectingReporter()
    dates = FileDates(
        reporter, cache_dir=cache, runner=recorder, starter=recorder.start if started else None
    )
    if started:
        dates.start(repo.path("docs"))
    found = dates.lookup([repo.path(name) for name in names])
    assert reporter.warnings == []
    answers: dict[str, str] = {}
    for name in names:
        dated = found.dates.get(repo.path(name))
        undated = found.undated.get(repo.path(name))
        answers[name] = (
            f"{iso(dated)} {dated[1]}" if dated else str(undated and undated.reason.name)
        )
    return answers, recorder


@pytest.mark.parametrize("started", [False, True], ids=["at the lookup", "started early"])
def test_files_git_does_not_track_cost_no_new_pass(tmp_path: Path, started: bool) -> None:
    """An untracked page, a generated page git ignores (``autosummary``, ``apidoc``) and a new
    page only staged are in no commit, so no pass dates them: the pass stored at this HEAD, or
    the one begun while the host rendered, still answers, and exactly as a full pass would."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "docs/generated/\n")
    for name in ("a.md", "b.md"):
        repo.write(f"docs/{name}", name)
    repo.commit("add", D1)
    repo.write("docs/b.md", "edited, not committed")
    cache = tmp_path / "cache"
    tracked = ["docs/a.md", "docs/b.md"]
    new = ["docs/untracked.md", "docs/generated/api.md", "docs/staged.md"]
    for name in new:
        repo.write(name, "not in any commit")
    repo.git("add", "docs/staged.md")
    if not started:  # a pass stored by an earlier build of the tracked pages at this HEAD
        lookup_all(repo, cache, tracked, started=False)
    answers, recorder = lookup_all(repo, cache, tracked + new, started=started)
    assert recorder.count("log") == 0  # no pass at the lookup...
    assert recorder.count("log", started=True) == int(started)  # ...beside the one begun early
    full, _ = lookup_all(repo, tmp_path / "no-cache", tracked + new, started=False)
    assert answers == full  # what a full pass over every name gives
    assert answers["docs/a.md"] == f"{D1} git"
    for name in ("docs/b.md", "docs/untracked.md", "docs/staged.md"):
        assert answers[name].endswith(" mtime")
    assert answers["docs/generated/api.md"] == Why.IGNORED.name
    # Committed, the new pages are history: the next build's pass covers them.
    repo.commit("add the new pages", D2)
    answers, recorder = lookup_all(repo, cache, tracked + new, started=started)
    assert recorder.count("log") + recorder.count("log", started=True) >= 1
    assert {name: answers[name] for name in tracked + new[::2]} == {
        name: f"{repo.log_date(name)} git" for name in tracked + new[::2]
    }
    assert answers["docs/generated/api.md"] == Why.IGNORED.name


def code_beside_docs(tmp_path: Path) -> GitRepo:
    """``docs/a.md`` (D1) and ``src/module.py`` beside it (D2); ``build/`` ignored."""
    repo = GitRepo(tmp_path / "repo")
    repo.write(".gitignore", "build/\n")
    repo.write("docs/a.md", "a")
    repo.write("src/module.py", "code")
    repo.commit("add", D1)
    repo.write("src/module.py", "code, changed")
    repo.commit("change the code", D2)
    return repo


def test_a_tracked_file_the_stored_pass_lacks_still_means_a_new_pass(tmp_path: Path) -> None:
    """Beside an untracked page, a committed file the last pass never covered (a new source
    outside the folder walked) is history that only a pass can date."""
    repo = code_beside_docs(tmp_path)
    cache = tmp_path / "cache"
    lookup_all(repo, cache, ["docs/a.md"], started=False)
    repo.write("docs/untracked.md", "new")
    names = ["docs/a.md", "docs/untracked.md", "src/module.py"]
    answers, recorder = lookup_all(repo, cache, names, started=False)
    assert recorder.count("log") == 1
    assert answers["src/module.py"] == f"{D2} git"
    assert answers["docs/a.md"] == f"{D1} git"
    assert answers["docs/untracked.md"].endswith(" mtime")


def test_a_pass_widened_to_files_beyond_the_folder_is_the_one_the_lookup_takes(
    tmp_path: Path,
) -> None:
    """Once the host has read its sources it names files beyond the folder the pass began for
    (an include from the project root, a documented module): the pass begins again over them
    too, and the lookup runs none of its own. Files git does not hold, or another repository
    holds, leave the pass begun as it is."""
    repo = code_beside_docs(tmp_path)
    repo.write("build/generated.py", "ignored")
    repo.write("src/draft.py", "untracked")
    other = GitRepo(tmp_path / "other")
    other.write("lib.py", "elsewhere")
    other.commit("lib", D3)
    names = ["docs/a.md", "src/module.py"]
    recorder = Recorder()
    dates = FileDates(
        CollectingReporter(), cache_dir=tmp_path / "cache", runner=recorder, starter=recorder.start
    )
    dates.start(repo.path("docs"))
    dates.widen([repo.path("build/generated.py"), repo.path("src/draft.py"), other.path("lib.py")])
    assert recorder.count("log", started=True) == 1  # nothing committed beyond docs/: as begun
    dates.widen(repo.path(name) for name in names)
    assert recorder.count("log", started=True) == 2  # begun again, over src/module.py too
    found = dates.lookup([repo.path(name) for name in names])
    assert recorder.count("log") == 0  # the lookup took the widened pass
    assert {name: iso(found.dates[repo.path(name)]) for name in names} == {
        name: repo.log_date(name) for name in names
    }
    again = FileDates(CollectingReporter(), cache_dir=tmp_path / "cache", runner=Recorder())
    assert again.lookup([repo.path(name) for name in names]) == found  # stored, whole


def test_the_pass_begun_early_covers_the_files_links_name(tmp_path: Path) -> None:
    """``docs/index.md -> ../README.md``: README.md is beyond the folder the pass begins for,
    yet it dates the page, so the pass begun at the host's start covers it, and the files of a
    folder a link names (``docs/shared -> ../shared``); the lookup runs no pass of its own, and
    later builds take the stored pass, as HEAD moves too."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("README.md", "read me")
    repo.write("docs/other.md", "other")
    repo.write("shared/page.md", "shared")
    repo.path("docs/index.md").symlink_to("../README.md")
    repo.path("docs/shared").symlink_to("../shared", target_is_directory=True)
    repo.commit("site", D1)
    repo.write("README.md", "read me, changed")
    repo.commit("change the readme", D2)
    cache = tmp_path / "cache"
    names = ["docs/index.md", "docs/other.md", "docs/shared/page.md"]
    for step, when in enumerate((D2, D2, D3)):
        if step == 2:
            repo.write("README.md", "read me, changed again")
            repo.commit("change the readme again", D3)
        answers, recorder = lookup_all(repo, cache, names, started=True)
        assert answers == {
            "docs/index.md": f"{when} git",
            "docs/other.md": f"{D1} git",
            "docs/shared/page.md": f"{D1} git",
        }
        assert recorder.count("log") == 0, step  # the lookup ran no pass: the early one covered
        assert recorder.count("log", started=True) == (0 if step == 1 else 1), step


@pytest.mark.parametrize("chunk", [1, 13, 4096])
def test_a_pass_started_early_is_read_from_its_file_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int
) -> None:
    """The output of a pass started early stays in the file git wrote and is parsed from it a
    chunk at a time; wherever a chunk ends, every date is ``git log -1``'s."""
    monkeypatch.setattr(git_history, "_CHUNK", chunk)
    parsed: list[type] = []

    def parse_log(out: Any, wanted: frozenset[str]) -> list[git_history.Commit]:
        parsed.append(type(out))
        return git_history.parse_log(out, wanted)

    monkeypatch.setattr(git_dates, "parse_log", parse_log)
    repo = GitRepo(tmp_path / "repo")
    random_history(repo, 5)
    recorder = Recorder()
    reporter = CollectingReporter()
    dates = FileDates(
        reporter, cache_dir=tmp_path / "cache", runner=recorder, starter=recorder.start
    )
    dates.start(repo.path("docs"))
    names = [name for name in repo.tracked_files() if name.startswith("docs/")]
    found = dates.lookup([repo.path(name) for name in names]).dates
    assert {name: iso(found[repo.path(name)]) for name in names} == {
        name: repo.log_date(name) for name in names
    }
    assert reporter.warnings == []
    assert recorder.count("log", started=True) == 1
    assert recorder.count("log") == 0  # the lookup took the started pass
    assert len(parsed) == 1
    assert not issubclass(parsed[0], bytes)  # from the file, never whole in memory


@pytest.mark.parametrize("started", [False, True], ids=["at the lookup", "started early"])
def test_a_git_older_than_the_stored_pass_means_one_full_pass(
    tmp_path: Path, started: bool
) -> None:
    """The stored commits' merges were diffed against their first parent; a git too old for
    that (before 2.31) diffs the new ones otherwise, so they cannot be added to the old ones."""
    repo = GitRepo(tmp_path / "repo")
    random_history(repo, 3)
    cache = tmp_path / "cache"
    first, _ = build(repo, cache, old_git=False, started=started)
    assert first == truth(repo)
    repo.write("docs/index.md", "after the downgrade\n")
    repo.commit("edit", "2026-01-01T00:00:00+00:00")
    second, recorder = build(repo, cache, old_git=True, started=started)
    assert second == truth(repo)
    assert recorder.refused  # git said it does not know --diff-merges...
    logs = [args for args in recorder.calls if "log" in args and "-m" in args]
    assert logs
    assert not any(arg.startswith("^") for arg in logs[-1])  # ...so the last pass was a full one


def test_an_old_head_git_no_longer_has_means_one_full_pass(tmp_path: Path, old_git: bool) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("docs/a.md", "1")
    repo.commit("one", D1)
    repo.write("docs/a.md", "2")
    repo.commit("two", D2)
    cache = tmp_path / "cache"
    build(repo, cache, old_git)
    repo.write("docs/a.md", "3")
    repo.git(
        "commit", "-q", "-a", "--amend", "-m", "two, rewritten", env={"GIT_COMMITTER_DATE": D3}
    )
    repo.git("reflog", "expire", "--expire=now", "--all")
    repo.git("gc", "-q", "--prune=now")
    dates, recorder = build(repo, cache, old_git)
    assert dates == truth(repo)
    assert dates["docs/a.md"] == D3
    assert recorder.count("log") == 2  # the incremental one failed quietly, then a full pass


@pytest.mark.parametrize("switch", [True, False], ids=["GIT_NO_LAZY_FETCH", "git without it"])
def test_an_old_head_a_partial_clone_never_fetched_is_not_fetched(
    tmp_path: Path, started: bool, switch: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partial clone (``--filter=blob:none``) and the pass a build of another clone at the
    same path stored: of a pull request's merge commit, which this clone never fetched. git
    fetches an object a partial clone lacks from the remote when a command names it; asked
    for the commits since that one, it would fetch it at build time. It fetches nothing here,
    and a full pass gives git's dates, with git that knows ``GIT_NO_LAZY_FETCH`` (2.45, and
    the security releases from 2.39.4 on) and with one that does not (played by leaving the
    variable out)."""
    if not switch:
        monkeypatch.delitem(git_background._NO_NETWORK, "GIT_NO_LAZY_FETCH")
    origin = GitRepo(tmp_path / "origin")
    origin.git("config", "uploadpack.allowFilter", "true")
    origin.write("docs/a.md", "a")
    origin.write("docs/b.md", "b")
    origin.commit("one", D1)
    origin.checkout("pull-request", create=True)
    origin.write("docs/a.md", "a, in a pull request")
    origin.commit("pull request", D2)
    origin.checkout("main")
    merge = origin.merge("pull-request", D3)
    origin.git("update-ref", "refs/pull/1/merge", merge)
    origin.git("reset", "-q", "--hard", "HEAD~1")
    origin.git("branch", "-q", "-D", "pull-request")
    cache = tmp_path / "cache"
    where = tmp_path / "checkout"
    pull_request = origin.clone(where, options=["--filter=blob:none"])
    pull_request.git("fetch", "-q", "origin", "+refs/pull/1/merge:refs/remotes/pull/1/merge")
    pull_request.checkout("refs/remotes/pull/1/merge")
    build(pull_request, cache, old_git=False, started=started)
    shutil.rmtree(where)
    push = origin.clone(where, options=["--filter=blob:none"])
    requests = tmp_path / "requests"
    upload_pack = f"echo request >> {shlex.quote(str(requests))}; git-upload-pack"
    push.git("config", "remote.origin.uploadpack", upload_pack)
    dates, recorder = build(push, cache, old_git=False, started=started)
    assert not requests.exists()  # the remote was never asked for anything
    assert dates == truth(push)
    full = [args for args in recorder.calls if "log" in args and not any("^" in a for a in args)]
    assert len(full) == 1
    unfetched = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""}
    assert push.run("cat-file", "-e", merge, env=unfetched, check=False).returncode != 0


@pytest.mark.parametrize(
    "damage",
    ["garbage", "truncated", "other version", "older release", "a date no text", "unwritable"],
)
def test_a_bad_or_unwritable_cache_only_costs_a_full_pass(
    tmp_path: Path, old_git: bool, damage: str
) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("docs/a.md", "1")
    repo.commit("one", D1)
    cache = tmp_path / "cache"
    build(repo, cache, old_git)
    stored = sorted(cache.glob("git-history-*.json"))
    assert len(stored) == 2  # the answers, and the commits behind them
    for path in stored:
        text = path.read_text(encoding="utf-8")
        if damage == "garbage":
            path.write_bytes(b"\xff\x00not json")
        elif damage == "truncated":
            path.write_text(text[: len(text) // 2], encoding="utf-8")
        elif damage == "other version":
            stored_version = f'"version":{json.loads(text)["version"]}'
            assert stored_version in text
            path.write_text(text.replace(stored_version, '"version":99'), encoding="utf-8")
        elif damage == "older release":  # the same format number, another package version
            as_an_older_release_wrote_it(path, lambda data: None)
        elif damage == "a date no text":
            data = json.loads(text)
            if "dates" in data:  # the answers; the commits stay as they are
                data["dates"] = dict.fromkeys(data["dates"], 20240101)
                path.write_text(json.dumps(data), encoding="utf-8")
        else:
            path.unlink()
    if damage == "unwritable":
        cache.rmdir()
        cache.write_text("a file where the cache folder should be", encoding="utf-8")
    repo.write("docs/a.md", "2")
    repo.commit("two", D2)
    dates, recorder = build(repo, cache, old_git)
    assert dates == truth(repo)
    assert not incremental(recorder)


def test_commits_another_walk_stored_are_not_added_to(tmp_path: Path) -> None:
    """Two configurations of one site share a cache folder (``mkdocs.yml`` over ``docs/``,
    ``mkdocs-b.yml`` over ``docs-b/``), and two builds at the same HEAD write it at once: B's
    commits, A's commits, A's answers, B's answers leave B's answers beside A's commits, which
    were diffed for ``docs/`` alone. Once HEAD moves, B's next pass does not start from them:
    its dates are a full pass's, then and at every later HEAD."""
    repo = GitRepo(tmp_path / "repo")
    for name in ("docs/index.md", "docs/p.md", "docs-b/index.md", "docs-b/q.md"):
        repo.write(name, name)
    repo.commit("two sites", D1)
    repo.write("docs-b/q.md", "q, edited")
    repo.commit("edit q", D2)
    site_a, site_b = ["docs/index.md", "docs/p.md"], ["docs-b/index.md", "docs-b/q.md"]
    cache = tmp_path / "cache"
    lookup_all(repo, cache, site_a, started=False)
    [commits] = cache.glob("git-history-*.commits.json")
    commits_of_a = commits.read_bytes()
    for path in cache.iterdir():
        path.unlink()
    lookup_all(repo, cache, site_b, started=False)
    commits.write_bytes(commits_of_a)  # the interleaving: A's commits last, B's answers last
    for step, when in enumerate((D3, "2024-12-01T00:00:00+00:00")):
        repo.write("docs/p.md", f"p, edited {step}")  # HEAD moves, by a page of A's only
        repo.commit(f"edit p {step}", when)
        answers, _ = lookup_all(repo, cache, site_b, started=False)
        assert answers == {name: f"{repo.log_date(name)} git" for name in site_b}, step


def test_deepening_a_shallow_clone_invalidates_its_stored_pass(
    tmp_path: Path, old_git: bool
) -> None:
    repo = GitRepo(tmp_path / "repo")
    repo.write("docs/a.md", "1")
    repo.write("docs/b.md", "1")
    repo.commit("one", D1)
    repo.write("docs/b.md", "2")
    repo.commit("two", D2)
    repo.write("docs/c.md", "1")
    repo.commit("three", D3)
    clone = repo.clone(tmp_path / "ci", depth=1)
    cache = tmp_path / "cache"
    files = [clone.path(name) for name in ("docs/a.md", "docs/b.md", "docs/c.md")]
    shallow = FileDates(CollectingReporter(), cache_dir=cache).lookup(files)
    assert {item.reason for item in shallow.undated.values()} == {Why.SHALLOW}
    clone.git("fetch", "-q", "--unshallow")
    deep = FileDates(CollectingReporter(), cache_dir=cache).lookup(files)
    assert {path.name: iso(date) for path, date in deep.dates.items()} == {
        "a.md": D1,
        "b.md": D2,
        "c.md": D3,
    }


@pytest.mark.parametrize("count", [0, 1, 1023, 1024, 1025, 2500])
def test_rows_written_a_batch_at_a_time_are_the_same_json(tmp_path: Path, count: int) -> None:
    """The stored commits are written in batches (never one text of them all): the same bytes
    as the whole document at once, whatever the number of rows; a write that fails half-way
    (a full disk) leaves the file as it was and no temporary file."""
    rows = [[f"{n:040x}", [f"{n + 1:040x}"], "2024-01-01T00:00:00Z", {"a/é b": "m s"}]
            for n in range(count)]  # fmt: skip
    for data in ({"version": 3, "head": "x"}, {}):
        assert write_json(tmp_path / "whole.json", {**data, "commits": rows})
        assert write_json_rows(tmp_path / "rows.json", data, "commits", iter(rows))
        whole = (tmp_path / "whole.json").read_bytes()
        assert (tmp_path / "rows.json").read_bytes() == whole
        assert json.loads(whole)["commits"] == rows

    def disk_fills_up() -> Iterator[object]:
        yield from rows
        raise OSError(28, "No space left on device")

    assert not write_json_rows(tmp_path / "rows.json", {"version": 4}, "commits", disk_fills_up())
    assert (tmp_path / "rows.json").read_bytes() == whole
    assert sorted(path.name for path in tmp_path.iterdir()) == ["rows.json", "whole.json"]


def test_a_cache_folder_keeps_the_passes_of_the_clones_built_last(tmp_path: Path) -> None:
    """A pass is stored per repository path, and CI may restore a cache written at another
    checkout path: the folder keeps the passes written last, each whole (answers and commits),
    not one for every path it ever saw."""
    repo = GitRepo(tmp_path / "repo")
    repo.write("docs/a.md", "a")
    repo.commit("add", D1)
    cache = tmp_path / "cache"
    clones = [repo.clone(tmp_path / f"checkout-{n}") for n in range(KEPT_PER_KIND + 2)]
    for clone in clones:
        assert build(clone, cache, old_git=False)[0] == truth(clone)
    answers = sorted(cache.glob("git-history-*[0-9a-f].json"))
    commits = sorted(cache.glob("git-history-*.commits.json"))
    assert len(answers) == len(commits) == KEPT_PER_KIND
    assert [path.name.split(".")[0] for path in answers] == [
        path.name.split(".")[0] for path in commits
    ]
    again, recorder = build(clones[-1], cache, old_git=False)
    assert again == truth(clones[-1])
    assert recorder.count("log") == 0  # the clone built last still has its pass
