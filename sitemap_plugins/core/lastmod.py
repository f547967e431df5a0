"""Modification dates of source files: git history first, file mtime as the fallback.

A site has thousands of pages, so one ``git log`` per file (what popular plugins do) dominates the
build. :class:`FileDates` runs a fixed number of git processes per repository instead, and still
gives every file exactly the date ``git log -1 --format=%cI -- FILE`` gives.

Matching ``git log -1 -- FILE`` across merges is the hard part. With its default history
simplification git walks from HEAD and, at each commit, follows the *first parent the file is
unchanged against* (TREESAME); the first commit with no such parent is the answer. So the walk for
one file is a single chain, whatever the commit dates. One pass over the full history cannot
simply take "the newest commit that lists the file": without ``-c`` it misses merges that resolved
a conflict, and with ``-m`` it dates a "merge main into my branch" as a change to everything it
brings. Instead the pass asks git for the diff of each merge against its *first* parent
(``--diff-merges=first-parent``) with blob ids (``--raw``), and follows every file's chain through
the graph. When a merge changed a file relative to its first parent, whether the merge is
TREESAME to a later parent is decided by comparing blob ids: a probe follows the file down that
parent, and the blob the probe ends on is the file's blob in that parent. Git older than 2.31 has
no ``--diff-merges``; there ``-m`` gives the merge's blob for the file and probes go down every
parent, which yields the same answers.
"""

from __future__ import annotations

import datetime as dt
import enum
import os
import stat
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from sitemap_plugins.core.report import Code, Reporter

__all__ = ["DateLookup", "FileDate", "FileDates", "GitRunner", "Undated", "Why", "run_git"]

FileDate = tuple[dt.datetime, str]
"""An aware datetime, and where it came from: ``"git"`` or ``"mtime"``."""

GitRunner = Callable[[Sequence[str], Path], "subprocess.CompletedProcess[bytes]"]
"""Runs ``git <args>`` in a directory; injectable so callers can count or trace git processes."""

_File = tuple[str, str]  # (resolved directory, file name): files are keyed without their own link
_ABSENT = b"-"  # the "blob" of a path that does not exist in a commit
# Variables that would make git look at another repository than the one found from the file.
_REPO_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")
# A fetch must fail rather than hang a CI build: no prompt, and a stalled transfer is given up.
# Only commits and trees are read (blob ids come from trees), so no old file contents are
# fetched where the server allows it; a server that does not simply sends everything.
_FETCH_ARGS = (
    "-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=60",
    "fetch", "--unshallow", "--filter=blob:none", "--quiet", "--no-tags",
    "--no-recurse-submodules",
)  # fmt: skip


def run_git(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run git the way :class:`FileDates` needs: C locale, no optional locks, no repo overrides."""
    env = {key: value for key, value in os.environ.items() if key not in _REPO_ENV}
    env.update(GIT_OPTIONAL_LOCKS="0", LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_FLUSH="0")
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
        check=False,
    )  # fmt: skip


class Why(str, enum.Enum):
    """Why a file has no date."""

    SHALLOW = "shallow clone"
    NO_GIT = "git not found"
    GIT_FAILED = "git failed"
    NOT_TRACKED = "not tracked by git"
    OUTSIDE = "outside the sources' repositories"
    UNCOMMITTED = "uncommitted change"


class Undated(NamedTuple):
    """Why an existing file has no date, so that the build can say it once, with the fix.

    ``bound`` is set for :attr:`Why.SHALLOW`: the file's last change is not after this instant
    (the boundary commit of the clone it was traced to), so a page whose other sources are newer
    is still dated exactly.
    """

    reason: Why
    root: Path | None = None
    bound: dt.datetime | None = None


_Outcome = FileDate | Undated | None
"""A file's date, why it has none, or None for a working-tree change (dated by its mtime)."""


class DateLookup(NamedTuple):
    """The date of every existing file asked about, or why it has none."""

    dates: dict[Path, FileDate]
    undated: dict[Path, Undated]


@dataclass
class _Commit:
    sha: bytes
    parents: list[bytes]
    date: bytes
    changes: dict[str, bytes] = field(default_factory=dict)  # path -> "mode sha" after the commit


@dataclass
class _Walk:
    """The cached outcome of one history pass: valid while HEAD and the boundary stay put."""

    head: str
    boundary: frozenset[bytes]
    paths: frozenset[str]
    dates: dict[str, tuple[dt.datetime, bool]]  # path -> (date, traced to a boundary commit)


@dataclass
class _Repo:
    """What one repository says about the files asked for, before mtimes are read."""

    top: Path
    by_file: dict[_File, str]  # file -> path relative to the work tree
    outcome: dict[_File, _Outcome] = field(default_factory=dict)


class FileDates:
    """Modification dates for source files: one git pass per repository.

    What counts as a date is what a history proves: the last commit that touched the file. A file
    time means something only for a change git shows in the working tree (an uncommitted edit, an
    untracked file); everywhere else it records a checkout, a copy or an unpack, so a file that
    git cannot date is *undated*, with the reason, never given its file time. In a shallow clone
    the files whose last change lies inside the clone's history are exact; the others are traced
    to a boundary commit, whose parents are missing, and are undated.

    An instance may live for a whole ``serve`` session: the history pass of a repository is reused
    while its HEAD does not move and no new file is asked for. Uncommitted changes are re-read on
    every call (they decide which files take their mtime) but do not force a new pass, since
    committed history cannot change without HEAD moving.
    """

    def __init__(
        self,
        reporter: Reporter,
        *,
        git_date: str = "committer",
        fetch_history: bool = False,
        runner: GitRunner | None = None,
    ) -> None:
        if git_date not in ("committer", "author"):
            raise ValueError(f"git_date must be 'committer' or 'author', not {git_date!r}")
        self._reporter = reporter
        self._format = "%cI" if git_date == "committer" else "%aI"
        self._fetch_history = fetch_history
        self._run = runner or run_git
        self._walks: dict[Path, _Walk] = {}
        self._fetched: set[Path] = set()  # repositories whose history was fetched, or tried
        self._first_parent_diffs = True  # cleared once git turns out to predate 2.31

    def lookup(
        self,
        files: Iterable[Path],
        *,
        within: Iterable[Path] | None = None,
        use_git: bool = True,
        use_mtime: bool = True,
    ) -> DateLookup:
        """Date each existing file, or say why it has no date; missing files are left out.

        ``within`` names the files whose repositories hold the site's sources (each page's own
        source): any other file (an installed package, the standard library, a file beside the
        checkout) never dates a page, since its file time is an install or checkout time. Without
        git (``use_git=False``) every file's mtime is taken, as the caller asked; ``within`` then
        bounds the files by the folder that holds those sources.
        """
        found: dict[Path, tuple[_File, float]] = {}
        folders: dict[Path, str] = {}
        for path in files:
            try:
                absolute = Path(path).absolute()
                # Resolve the directory, not the file: a symlinked file is dated as git tracks it.
                folder = folders.get(absolute.parent)
                if folder is None:
                    folder = folders[absolute.parent] = os.path.realpath(absolute.parent)
                info = Path(folder, absolute.name).stat()
            except (OSError, ValueError):
                continue
            if stat.S_ISREG(info.st_mode):
                found[path] = ((folder, absolute.name), info.st_mtime)
        roots: dict[Path, Path | None] = {}
        scope = _Scope.of(within, roots) if within is not None else None
        outcomes: dict[_File, _Outcome] = {}
        for file, _ in found.values():
            root = _find_root(Path(file[0]), roots)
            if scope is not None and not scope.holds(file, root):
                outcomes[file] = Undated(Why.OUTSIDE, root)
            elif not use_git:
                outcomes[file] = None
            elif root is None:
                outcomes[file] = Undated(Why.NOT_TRACKED)
        if use_git:
            by_root: dict[Path, list[_File]] = {}
            for file, _ in found.values():
                if file not in outcomes:
                    root = roots[Path(file[0])]
                    if root is not None:
                        by_root.setdefault(root, []).append(file)
            for root, repo_files in sorted(by_root.items()):
                outcomes.update(self._repo_outcomes(root, repo_files))
        epoch = _source_date_epoch()
        result = DateLookup({}, {})
        for path, (file, mtime) in found.items():
            outcome = outcomes[file]
            if isinstance(outcome, Undated):
                result.undated[path] = outcome
            elif outcome is not None:
                result.dates[path] = outcome
            elif use_mtime:
                seconds = int(mtime) if epoch is None else min(int(mtime), epoch)  # clamp, as
                # reproducible-build tools do; git dates are history, never clamped
                result.dates[path] = (dt.datetime.fromtimestamp(seconds, dt.timezone.utc), "mtime")
            else:
                result.undated[path] = Undated(Why.UNCOMMITTED, roots.get(Path(file[0])))
        return result

    # -- per repository -----------------------------------------------------------------------

    def _repo_outcomes(self, root: Path, files: list[_File]) -> dict[_File, _Outcome]:
        """Each file's git date, or None for a working-tree change, or why it is undated."""
        try:
            return self._ask_repo(root, files)
        except OSError:
            no_git: dict[_File, _Outcome] = dict.fromkeys(files, Undated(Why.NO_GIT, root))
            return no_git

    def _ask_repo(self, root: Path, files: list[_File]) -> dict[_File, _Outcome]:
        failed: dict[_File, _Outcome] = dict.fromkeys(files, Undated(Why.GIT_FAILED, root))
        probe = self._probe(root)
        if probe is None:
            return failed
        top, shallow_file = probe
        if shallow_file is not None and self._fetch_history and top not in self._fetched:
            self._fetched.add(top)
            if self._fetch(top):
                self._walks.pop(top, None)
                probe = self._probe(root)
                if probe is None:
                    return failed
                top, shallow_file = probe
        boundary = self._boundary(top, shallow_file)
        if boundary is None:
            return failed
        status = self._git(
            top,
            ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=no",
             "--no-renames", "--ignore-submodules=all"],
        )  # fmt: skip
        if status is None:
            return failed
        head, dirty = _parse_status(status)
        repo = _Repo(top, {})
        for file in files:
            try:
                prefix = Path(file[0]).relative_to(top).as_posix() + "/"
            except ValueError:
                repo.outcome[file] = Undated(Why.NOT_TRACKED, top)
                continue
            repo.by_file[file] = ("" if prefix == "./" else prefix) + file[1]
        walk = self._walked(top, head, boundary, frozenset(repo.by_file.values()))
        if walk is None and head is not None:
            return failed
        unknown: dict[_File, str] = {}
        for file, name in repo.by_file.items():
            dated = walk.dates.get(name) if walk is not None else None
            if name in dirty:
                repo.outcome[file] = None
            elif dated is None:
                unknown[file] = name  # never committed: untracked, or ignored
            elif dated[1]:
                repo.outcome[file] = Undated(Why.SHALLOW, top, dated[0])
            else:
                repo.outcome[file] = (dated[0], "git")
        if unknown:
            untracked = self._untracked(top, sorted(set(unknown.values())))
            for file, name in unknown.items():
                if untracked is None:
                    repo.outcome[file] = Undated(Why.GIT_FAILED, top)
                elif name in untracked:
                    repo.outcome[file] = None
                else:
                    repo.outcome[file] = Undated(Why.NOT_TRACKED, top)
        return repo.outcome

    def _probe(self, root: Path) -> tuple[Path, Path | None] | None:
        """The work tree's top, and its ``shallow`` file when the clone is shallow."""
        args = ["rev-parse", "--show-toplevel", "--is-shallow-repository", "--git-path", "shallow"]
        out = self._git(root, args)
        if out is None:
            return None
        lines = out.split(b"\n")
        top = Path(os.path.realpath(os.fsdecode(lines[0])))
        if lines[1:2] != [b"true"]:
            return top, None
        shallow = Path(os.fsdecode(lines[2])) if len(lines) > 2 else Path(".git/shallow")
        return top, shallow if shallow.is_absolute() else root / shallow

    def _boundary(self, top: Path, shallow_file: Path | None) -> frozenset[bytes] | None:
        """The commits of a shallow clone whose parents are missing (None if git failed).

        git lists every cut commit in its ``shallow`` file, and also a true root commit when the
        depth reaches it; only the commit object itself still names the parents that were cut.
        """
        if shallow_file is None:
            return frozenset()
        try:
            listed = shallow_file.read_bytes().split()
        except OSError:
            return frozenset()
        if not listed:
            return frozenset()
        out = self._git(
            top, ["show", "-s", "--pretty=raw", "--no-color", *map(os.fsdecode, listed)]
        )
        if out is None:
            return None
        cut: set[bytes] = set()
        sha = b""
        for line in out.split(b"\n"):
            if line.startswith(b"commit "):
                sha = line[len(b"commit ") :].strip()
            elif line.startswith(b"parent ") and sha:
                cut.add(sha)
        return frozenset(cut)

    def _fetch(self, top: Path) -> bool:
        """Fetch the history a shallow clone lacks from its own remote; warn once if it cannot."""
        proc = self._run(list(_FETCH_ARGS), top)
        if proc.returncode == 0:
            return True
        message = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
        self._reporter.warning(
            Code.GIT,
            f"{top}: git_fetch_history could not fetch the history this shallow clone lacks "
            f"('git fetch --unshallow' failed: {message}); pages whose last change is older "
            "than the clone get no lastmod",
        )
        return False

    def _walked(
        self, top: Path, head: str | None, boundary: frozenset[bytes], wanted: frozenset[str]
    ) -> _Walk | None:
        """The history pass for ``wanted``, reused while HEAD and the boundary stay put."""
        if head is None or not wanted:
            return None
        walk = self._walks.get(top)
        same = walk is not None and (walk.head, walk.boundary) == (head, boundary)
        if walk is None or not same or not wanted <= walk.paths:
            if walk is not None and same:
                wanted |= walk.paths
            dates = self._walk(top, head, boundary, wanted)
            if dates is None:
                return None
            walk = self._walks[top] = _Walk(head, boundary, wanted, dates)
        return walk

    def _untracked(self, top: Path, names: list[str]) -> set[str] | None:
        """Which of ``names`` are untracked files git does not ignore (None if git failed)."""
        out = self._git(
            top,
            ["--literal-pathspecs", "-c", "core.quotepath=off", "ls-files", "-z", "--others",
             "--exclude-standard", "--", *names],
        )  # fmt: skip
        if out is None:
            return None
        return {os.fsdecode(name) for name in out.split(b"\0") if name}

    def _log_args(self, head: str, wanted: frozenset[str]) -> list[str]:
        # --full-history --sparse: every commit, with its true parents, so that each file's chain
        # can be followed; the pathspec only trims the diffs. --no-renames: a rename is a change
        # of the new path, as ``git log -1 -- NEW`` sees it, and detection would cost time.
        merges = "--diff-merges=first-parent" if self._first_parent_diffs else "-m"
        return [
            "-c", "core.quotepath=off", "-c", "log.showSignature=false", "--literal-pathspecs",
            "log", "-z", "--topo-order", "--full-history", "--sparse", "--no-renames", "--raw",
            "--no-abbrev", "--root", merges, "--no-color", "--no-ext-diff", "--no-textconv",
            f"--format=%x1e%H %P%x1f{self._format}", head, "--", *_pathspecs(wanted),
        ]  # fmt: skip

    def _git(self, cwd: Path, args: list[str]) -> bytes | None:
        """Run git; on failure warn (unless it is merely not a repository) and return None."""
        command = next(arg for arg in args if not arg.startswith("-") and "=" not in arg)
        return self._checked(cwd, command, self._run(args, cwd))

    def _checked(
        self, cwd: Path, command: str, proc: subprocess.CompletedProcess[bytes]
    ) -> bytes | None:
        if proc.returncode == 0:
            return proc.stdout
        if b"not a git repository" not in proc.stderr:
            message = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
            hint = ""
            if b"dubious ownership" in proc.stderr:
                hint = (
                    f" (the build runs as another user than the clone's owner: "
                    f"'git config --global --add safe.directory {cwd}' lets git read it)"
                )
            self._reporter.warning(
                Code.GIT,
                f"{cwd}: 'git {command}' failed, so its files get no lastmod from git: "
                f"{message}{hint}",
            )
        return None

    def _walk(
        self, top: Path, head: str, boundary: frozenset[bytes], wanted: frozenset[str]
    ) -> dict[str, tuple[dt.datetime, bool]] | None:
        proc = self._run(self._log_args(head, wanted), top)
        if proc.returncode != 0 and self._first_parent_diffs and b"diff-merges" in proc.stderr:
            self._first_parent_diffs = False  # git < 2.31: use -m from now on
            proc = self._run(self._log_args(head, wanted), top)
        out = self._checked(top, "log", proc)
        if out is None:
            return None
        commits = _parse_log(out, wanted)
        answers = _follow(commits, head.encode(), wanted, self._first_parent_diffs)
        parsed: dict[int, dt.datetime] = {}
        dates: dict[str, tuple[dt.datetime, bool]] = {}
        for name, index in answers.items():
            if index not in parsed:
                parsed[index] = dt.datetime.fromisoformat(commits[index].date.decode())
            dates[name] = (parsed[index], commits[index].sha in boundary)
        return dates


# -- helpers --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Scope:
    """The repositories (or, outside git, the folder) that hold the site's own sources."""

    repositories: frozenset[Path]
    folder: str | None

    @classmethod
    def of(cls, sources: Iterable[Path], roots: dict[Path, Path | None]) -> _Scope:
        repositories: set[Path] = set()
        loose: list[str] = []
        for source in sources:
            try:
                folder = Path(os.path.realpath(Path(source).absolute().parent))
            except (OSError, ValueError):
                continue
            root = _find_root(folder, roots)
            if root is not None:
                repositories.add(root)
            else:
                loose.append(str(folder))
        return cls(frozenset(repositories), os.path.commonpath(loose) if loose else None)

    def holds(self, file: _File, root: Path | None) -> bool:
        if root is not None:
            return root in self.repositories
        return self.folder is not None and (
            file[0] == self.folder or file[0].startswith(self.folder.rstrip(os.sep) + os.sep)
        )


def _source_date_epoch() -> int | None:
    try:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    except (KeyError, ValueError):
        return None


def _find_root(directory: Path, seen: dict[Path, Path | None]) -> Path | None:
    """The nearest directory holding ``.git``: found by stat, so no git process per directory."""
    climbed: list[Path] = []
    current = directory
    while current not in seen:
        climbed.append(current)
        if (current / ".git").exists():
            seen[current] = current
            break
        if current.parent == current:
            seen[current] = None
            break
        current = current.parent
    found = seen[current]
    for step in climbed:
        seen[step] = found
    return found


def _pathspecs(paths: frozenset[str]) -> list[str]:
    """A few directories covering ``paths``, so git diffs only what can matter (many = all)."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(path.split("/", 1)[0], []).append(path)
    if len(groups) > 32:
        return []
    specs = []
    for members in groups.values():
        common = members[0].split("/")
        for member in members[1:]:
            parts = member.split("/")
            size = 0
            while size < min(len(common), len(parts)) and common[size] == parts[size]:
                size += 1
            common = common[:size]
        specs.append("/".join(common))
    return sorted(specs)


def _parse_status(out: bytes) -> tuple[str | None, set[str]]:
    """HEAD's sha (None before the first commit) and the paths with uncommitted changes."""
    head: str | None = None
    dirty: set[str] = set()
    tokens = out.split(b"\0")
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.startswith(b"# branch.oid "):
            oid = token[len(b"# branch.oid ") :].decode()
            head = None if oid == "(initial)" else oid
        elif token[:2] == b"1 ":
            dirty.add(os.fsdecode(token.split(b" ", 8)[8]))
        elif token[:2] == b"2 ":
            dirty.add(os.fsdecode(token.split(b" ", 9)[9]))
            dirty.add(os.fsdecode(tokens[i]))
            i += 1
        elif token[:2] == b"u ":
            dirty.add(os.fsdecode(token.split(b" ", 10)[10]))
        elif token[:2] in (b"? ", b"! "):
            dirty.add(os.fsdecode(token[2:]))
    return head, dirty


def _parse_log(out: bytes, wanted: frozenset[str]) -> list[_Commit]:
    """Commits in git's topological order, each with its wanted paths' blobs after the commit."""
    names = {os.fsencode(path): path for path in wanted}
    commits: list[_Commit] = []
    current: _Commit | None = None
    tokens = out.split(b"\0")
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token[:1] == b"\n":
            token = token[1:]
        if token[:1] == b"\x1e":
            ids, _, date = token[1:].partition(b"\x1f")
            sha, *parents = ids.split()
            if current is None or current.sha != sha:  # ``-m`` repeats a merge's header
                current = _Commit(sha, parents, date)
                commits.append(current)
        elif token[:1] == b":" and i < len(tokens):
            path = names.get(tokens[i])  # the name is taken by position: any byte may be in it
            i += 1
            if path is not None and current is not None:
                fields = token.split(b" ")
                gone = fields[1] == b"000000"
                current.changes[path] = _ABSENT if gone else fields[1] + b" " + fields[3]
    return commits


def _follow(
    commits: list[_Commit], head: bytes, wanted: frozenset[str], first_parent_diffs: bool
) -> dict[str, int]:
    """Follow each wanted path's ``git log -1`` chain; return path -> index of its commit.

    A token stands for the question "which commit does ``git log -1 -- path`` show, starting
    here?". Tokens wait at commits (``waiting``) and move to parents in topological order, so all
    of a commit's tokens are there before it is processed. At a merge that changed a path against
    its first parent, the token is suspended on probes sent down the parents it may be TREESAME
    to; it is answered afterwards, once the probes know their blobs.
    """
    files: list[str] = []
    answered: dict[int, tuple[int | None, bytes]] = {}
    suspended: dict[int, tuple[int, bytes, list[int]]] = {}
    alias: dict[int, int] = {}
    waiting: dict[bytes, dict[str, int]] = {}

    def token(path: str) -> int:
        files.append(path)
        return len(files) - 1

    def send(sha: bytes, group: dict[str, int]) -> None:
        there = waiting.get(sha)
        if there is None:
            waiting[sha] = group
            return
        if len(there) < len(group):
            there, group = group, there
            waiting[sha] = there
        for path, tok in group.items():
            if path in there:
                alias[tok] = there[path]  # same question, same answer
            else:
                there[path] = tok

    roots = {path: token(path) for path in sorted(wanted)}
    waiting[head] = dict(roots)
    for index, commit in enumerate(commits):
        group = waiting.pop(commit.sha, None)
        if not group:
            continue
        is_merge = len(commit.parents) > 1
        probed = range(1 if first_parent_diffs else 0, len(commit.parents))
        probes: list[dict[str, int]] = [{} for _ in commit.parents]
        for path, blob in commit.changes.items():
            tok = group.pop(path, None)
            if tok is None:
                continue
            if not is_merge:
                answered[tok] = (index, blob)
                continue
            children = []
            for slot in probed:
                child = token(path)
                probes[slot][path] = child
                children.append(child)
            suspended[tok] = (index, blob, children)
        if commit.parents:
            send(commit.parents[0], group)  # unchanged against the first parent: follow it
        for parent, probe in zip(commit.parents, probes, strict=True):
            if probe:
                send(parent, probe)

    def canonical(tok: int) -> int:
        while tok in alias:
            tok = alias[tok]
        return tok

    memo: dict[int, tuple[int | None, bytes]] = {}
    for root in roots.values():
        stack = [canonical(root)]
        while stack:
            tok = stack[-1]
            if tok in memo:
                stack.pop()
                continue
            if tok not in suspended:
                memo[tok] = answered.get(tok, (None, _ABSENT))
                stack.pop()
                continue
            index, blob, children = suspended[tok]
            pending = [c for c in map(canonical, children) if c not in memo]
            if pending:
                stack.extend(pending)
                continue
            memo[tok] = (index, blob)
            for child in map(canonical, children):
                found, child_blob = memo[child]
                if child_blob == blob:  # TREESAME to this parent: git follows it
                    memo[tok] = (found, blob)
                    break
            stack.pop()
    result: dict[str, int] = {}
    for path, root in roots.items():
        found, blob = memo[canonical(root)]
        if found is not None and blob != _ABSENT:
            result[path] = found
    return result
