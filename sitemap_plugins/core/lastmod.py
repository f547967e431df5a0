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
import os
import stat
import subprocess
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from sitemap_plugins.core.report import Code, Reporter

__all__ = ["FileDate", "FileDates", "GitRunner", "run_git"]

FileDate = tuple[dt.datetime, str]
"""An aware datetime, and where it came from: ``"git"`` or ``"mtime"``."""

GitRunner = Callable[[Sequence[str], Path], "subprocess.CompletedProcess[bytes]"]
"""Runs ``git <args>`` in a directory; injectable so callers can count or trace git processes."""

_File = tuple[str, str]  # (resolved directory, file name): files are keyed without their own link
_ABSENT = b"-"  # the "blob" of a path that does not exist in a commit
# Variables that would make git look at another repository than the one found from the file.
_REPO_ENV = ("GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_COMMON_DIR")


def run_git(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run git the way :class:`FileDates` needs: C locale, no optional locks, no repo overrides."""
    env = {key: value for key, value in os.environ.items() if key not in _REPO_ENV}
    env.update(GIT_OPTIONAL_LOCKS="0", LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_FLUSH="0")
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, check=False)


@dataclass
class _Commit:
    sha: bytes
    parents: list[bytes]
    date: bytes
    changes: dict[str, bytes] = field(default_factory=dict)  # path -> "mode sha" after the commit


@dataclass
class _Walk:
    """The cached outcome of one history pass: valid while HEAD stays put."""

    head: str
    paths: frozenset[str]
    dates: dict[str, dt.datetime]


class FileDates:
    """Modification dates for source files: one git pass per repository, mtime as fallback.

    An instance may live for a whole ``serve`` session: the history pass of a repository is reused
    while its HEAD does not move and no new file is asked for. Uncommitted changes are re-read on
    every call (they decide which files take their mtime) but do not force a new pass, since
    committed history cannot change without HEAD moving.
    """

    def __init__(
        self, reporter: Reporter, *, git_date: str = "committer", runner: GitRunner | None = None
    ) -> None:
        if git_date not in ("committer", "author"):
            raise ValueError(f"git_date must be 'committer' or 'author', not {git_date!r}")
        self._reporter = reporter
        self._format = "%cI" if git_date == "committer" else "%aI"
        self._run = runner or run_git
        self._walks: dict[Path, _Walk] = {}
        self._first_parent_diffs = True  # cleared once git turns out to predate 2.31

    def dates(
        self, files: Iterable[Path], *, use_git: bool = True, use_mtime: bool = True
    ) -> dict[Path, FileDate]:
        """The date of each existing file; files with no date at all are left out."""
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
        wanted = {file for file, _ in found.values()}
        from_git = self._git_dates(wanted) if use_git and wanted else {}
        epoch = _source_date_epoch()
        result: dict[Path, FileDate] = {}
        for path, (file, mtime) in found.items():
            date = from_git.get(file)
            if date is not None:
                result[path] = (date, "git")
            elif use_mtime:
                seconds = int(mtime) if epoch is None else min(int(mtime), epoch)  # clamp, as
                # reproducible-build tools do; git dates are history, never clamped
                result[path] = (dt.datetime.fromtimestamp(seconds, dt.timezone.utc), "mtime")
        return result

    # -- per repository -----------------------------------------------------------------------

    def _git_dates(self, files: set[_File]) -> dict[_File, dt.datetime]:
        roots: dict[Path, Path | None] = {}
        by_root: dict[Path, dict[str, list[str]]] = {}
        for folder, name in files:
            root = _find_root(Path(folder), roots)
            if root is not None:
                by_root.setdefault(root, {}).setdefault(folder, []).append(name)
        found: dict[_File, dt.datetime] = {}
        shallow: list[Path] = []
        for root, folders in sorted(by_root.items()):
            try:
                found.update(self._repo_dates(root, folders, shallow))
            except OSError:  # no git executable: mtime, quietly
                return found
        if shallow:
            names = ", ".join(str(root) for root in shallow)
            self._reporter.warning(
                Code.GIT,
                f"{names}: shallow git clone, so last-modified dates come from file times, "
                "not history. Fetch the whole history: 'fetch-depth: 0' for actions/checkout "
                "in GitHub Actions, or 'git fetch --unshallow'.",
            )
        return found

    def _repo_dates(
        self, root: Path, folders: dict[str, list[str]], shallow: list[Path]
    ) -> dict[_File, dt.datetime]:
        probe = self._git(root, ["rev-parse", "--show-toplevel", "--is-shallow-repository"])
        if probe is None:
            return {}
        lines = probe.split(b"\n")
        top = Path(os.path.realpath(os.fsdecode(lines[0])))
        if lines[1:2] == [b"true"]:
            shallow.append(top)
            return {}
        status = self._git(
            top,
            ["status", "--porcelain=v2", "--branch", "-z", "--untracked-files=no",
             "--no-renames", "--ignore-submodules=all"],
        )  # fmt: skip
        if status is None:
            return {}
        head, dirty = _parse_status(status)
        rel: dict[_File, str] = {}
        for folder, names in folders.items():
            try:
                prefix = Path(folder).relative_to(top).as_posix() + "/"
            except ValueError:
                continue
            prefix = "" if prefix == "./" else prefix
            for name in names:
                rel[folder, name] = prefix + name
        if head is None or not rel:
            return {}
        walk = self._walks.get(top)
        wanted = frozenset(rel.values())
        if walk is None or walk.head != head or not wanted <= walk.paths:
            if walk is not None and walk.head == head:
                wanted |= walk.paths
            dates = self._walk(top, head, wanted)
            if dates is None:
                return {}
            walk = self._walks[top] = _Walk(head, wanted, dates)
        return {
            file: walk.dates[name]
            for file, name in rel.items()
            if name not in dirty and name in walk.dates
        }

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
        return self._checked(cwd, args[0], self._run(args, cwd))

    def _checked(
        self, cwd: Path, command: str, proc: subprocess.CompletedProcess[bytes]
    ) -> bytes | None:
        if proc.returncode == 0:
            return proc.stdout
        if b"not a git repository" not in proc.stderr:
            message = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
            self._reporter.warning(
                Code.GIT,
                f"{cwd}: 'git {command}' failed, so file times are used instead: {message}",
            )
        return None

    def _walk(self, top: Path, head: str, wanted: frozenset[str]) -> dict[str, dt.datetime] | None:
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
        dates: dict[str, dt.datetime] = {}
        for name, index in answers.items():
            if index not in parsed:
                parsed[index] = dt.datetime.fromisoformat(commits[index].date.decode())
            dates[name] = parsed[index]
        return dates


# -- helpers --------------------------------------------------------------------------------------


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
