"""One ``git log`` pass that tells, for every file, the commit ``git log -1 -- FILE`` shows.

A site has thousands of pages, so one ``git log`` per file (what popular plugins do) dominates the
build. Here one pass over the history gives every file exactly the commit ``git log -1 -- FILE``
gives, merges included.

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

Commits a project asks to leave out of dates (a mass reformat, a licence-header sweep; see
:class:`IgnoredCommits`) are walked through, not stopped at: the file's chain goes on down every
parent of such a commit, and the newest last change found there answers (what ``git log --
FILE`` lists next, with the ignored commit skipped), while the blob the chain reached is still
the one the commit left, so that the probes of merges further up compare what git compares.

This module knows git's output and the graph, nothing about files on disk or pages.
"""

from __future__ import annotations

import datetime as dt
import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import IO, Any, Final, NamedTuple

__all__ = [
    "ABSENT",
    "Commit",
    "IgnoredCommits",
    "covers",
    "last_changes",
    "log_args",
    "parse_log",
    "pathspecs",
    "reachable",
]

ABSENT = b"-"
"""The "blob" of a path that does not exist in a commit."""


class Commit(NamedTuple):
    """One commit: its parents as git shows them (none for a shallow clone's boundary), its date
    as text (``%cI`` or ``%aI``), and the wanted paths it changed, each with ``mode sha`` after
    the commit or :data:`ABSENT` (for a merge: against its first parent)."""

    sha: bytes
    parents: list[bytes]
    date: bytes
    changes: dict[str, bytes]
    removed: tuple[str, ...] = ()
    """The folders (``docs/blog/posts``; ``""`` for the top) it deleted a file from, wanted or
    not, as far as the pathspecs reach (a rename is a deletion, with ``--no-renames``): a page
    that lists a folder's files changed when one of them went, though no file it still lists
    did. Most commits delete nothing and share the one empty tuple."""


class IgnoredCommits:
    """Commit ids whose changes date no file: full or abbreviated ids (hex, as
    ``.git-blame-ignore-revs`` holds them), each matching the commits whose full id starts with
    it."""

    def __init__(self, ids: Iterable[str] = ()) -> None:
        lowered = {one.lower() for one in ids}
        self.key = "\n".join(sorted(lowered))
        """The set as text: what a stored pass is kept under, since its answers depend on it."""
        self._full = frozenset(one.encode() for one in lowered if len(one) in (40, 64))
        self._prefixes = tuple(sorted(one.encode() for one in lowered if len(one) not in (40, 64)))

    def __bool__(self) -> bool:
        return bool(self.key)

    def __contains__(self, sha: object) -> bool:
        return isinstance(sha, bytes) and (
            sha in self._full or any(sha.startswith(prefix) for prefix in self._prefixes)
        )


NO_COMMITS: Final = IgnoredCommits()
"""No commit left out of dates."""


def log_args(
    revisions: Sequence[str],
    wanted: Iterable[str],
    folders: Iterable[str] = (),
    *,
    first_parent_diffs: bool,
    date_format: str,
) -> list[str]:
    """The one ``git log`` that lists ``revisions`` with what :func:`parse_log` reads, over
    ``wanted`` files and the ``folders`` whose deletions are asked for.

    ``--full-history --sparse``: every commit, with its true parents, so that each file's chain
    can be followed; the pathspec only trims the diffs. ``--no-renames``: a rename is a change of
    the new path, as ``git log -1 -- NEW`` sees it, and detection would cost time. The user's
    ``log.follow`` (a common setting) is turned off: with it, git follows one file's renames
    whenever the pathspec is a single path, such as the one folder a site lives in, and lists
    that file's commits only.
    """
    merges = "--diff-merges=first-parent" if first_parent_diffs else "-m"
    return [
        "-c", "core.quotepath=off", "-c", "log.showSignature=false", "-c", "log.follow=false",
        "--literal-pathspecs",
        "log", "-z", "--topo-order", "--full-history", "--sparse", "--no-renames", "--raw",
        "--no-abbrev", "--root", merges, "--no-color", "--no-ext-diff", "--no-textconv",
        f"--format=%x1e%H %P%x1f{date_format}", *revisions, "--", *pathspecs(wanted, folders),
    ]  # fmt: skip


def pathspecs(paths: Iterable[str], folders: Iterable[str] = ()) -> list[str]:
    """A few directories covering ``paths`` and ``folders``, so git diffs only what can matter
    (many = all, as does the work tree's top among ``folders``)."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        groups.setdefault(path.split("/", 1)[0], []).append(path)
    for folder in folders:
        if not folder:
            return []
        groups.setdefault(folder.split("/", 1)[0], []).append(folder)
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


def covers(specs: Sequence[str], folder: str) -> bool:
    """Whether a pass over ``specs`` (:func:`pathspecs`) sees every deletion under ``folder``."""
    return not specs or any(folder == spec or folder.startswith(spec + "/") for spec in specs)


def parse_log(out: bytes | IO[bytes], wanted: frozenset[str]) -> list[Commit]:
    """Commits in git's topological order, each with its wanted paths' blobs after the commit
    and the folders it deleted files from, from git's output or the file it went to (read a
    chunk at a time).

    Kept small, as a long history's commits stay in memory for the next build of a session:
    each commit's id is one object, shared with the lists of parents that name it.
    """
    names = {os.fsencode(path): path for path in wanted}
    ids: dict[bytes, bytes] = {}
    commits: list[Commit] = []
    current: Commit | None = None
    tokens = _fields(out)
    for token in tokens:
        if token[:1] == b"\n":
            token = token[1:]
        if token[:1] == b"\x1e":
            listed, _, date = token[1:].partition(b"\x1f")
            sha, *parents = (ids.setdefault(one, one) for one in listed.split())
            if current is None or current.sha != sha:  # ``-m`` repeats a merge's header
                current = Commit(sha, parents, date, {})
                commits.append(current)
        elif token[:1] == b":":
            # The name is taken by position: any byte may be in it.
            name = next(tokens, b"")
            if current is None:
                continue
            path = names.get(name)
            gone = token[8:14] == b"000000"  # ":100644 000000 ...": no mode after the commit
            if path is not None:
                fields = token.split(b" ")
                current.changes[path] = ABSENT if gone else fields[1] + b" " + fields[3]
            if gone:
                folder = os.fsdecode(name.rpartition(b"/")[0])
                if folder not in current.removed:
                    current = current._replace(removed=(*current.removed, folder))
                    commits[-1] = current
    return commits


_CHUNK = 1 << 20
"""Bytes of ``git log`` output split into fields at once."""


def _fields(out: bytes | IO[bytes]) -> Iterator[bytes]:
    """The NUL-separated fields of ``out`` (git's output, or the file it went to), read and
    split ``_CHUNK`` bytes at a time: a long history's whole output is tens of megabytes, and
    all of its fields at once a list of about a hundred thousand objects, twice its size."""
    stream = io.BytesIO(out) if isinstance(out, bytes) else out
    rest: bytes | None = None  # None until the output has given a byte
    while chunk := stream.read(_CHUNK):
        data = chunk if rest is None else rest + chunk
        cut = data.rfind(b"\0")
        if cut == -1:
            rest = data
            continue
        yield from data[:cut].split(b"\0")
        rest = data[cut + 1 :]
    if rest is not None:
        yield rest  # the last field, even an empty one after a final NUL, as split gives it


def last_changes(
    commits: Sequence[Commit],
    head: bytes,
    wanted: Iterable[str],
    *,
    first_parent_diffs: bool,
    ignored: IgnoredCommits = NO_COMMITS,
) -> dict[str, Commit]:
    """The commit ``git log -1 -- path`` shows from ``head``, for each wanted path it finds.

    ``commits`` must be in topological order (children before parents) and closed under
    parents; commits that ``head`` cannot reach may be among them and are never visited.

    With ``ignored`` commits, a path's answer is its last change in a commit not ignored, as
    ``git log -- path`` lists them: past an ignored commit, the newest answer of the parents it
    was not TREESAME to. A path every change of which is ignored is answered with the ignored
    commit that holds its last change, for the caller to tell apart (``commit.sha in
    ignored``); so is one whose chain ends at an ignored commit without parents (a root, or a
    shallow clone's boundary, where what came before is not known).
    """
    chains = _Chains(sorted(wanted), head)
    chains.walk(commits, first_parent_diffs, ignored)

    def rank(index: int) -> tuple[Any, ...]:
        """Past an ignored commit: a change that counts, the newest first; else an ignored
        commit without parents (a shallow boundary says the date is not known)."""
        commit = commits[index]
        if commit.sha in ignored:
            return (0, not commit.parents, _instant(commit.date), -index)
        return (1, False, _instant(commit.date), -index)

    found = chains.settle(rank)
    return {path: commits[index] for path, index in found.items()}


def _instant(date: bytes) -> dt.datetime:
    """A commit's date as an instant, to find the newest of several (``%cI``, ``%aI``)."""
    try:
        return dt.datetime.fromisoformat(date.decode().replace("Z", "+00:00"))
    except ValueError:
        return dt.datetime.min.replace(tzinfo=dt.timezone.utc)


def reachable(commits: Sequence[Commit], head: bytes) -> list[Commit]:
    """The commits ``head`` reaches, in the same order: what a history kept for later needs."""
    seen = {head}
    kept = []
    for commit in commits:
        if commit.sha in seen:
            kept.append(commit)
            seen.update(commit.parents)
    return kept


class _Chains:
    """Every wanted path's ``git log -1`` chain, followed through the graph in one pass.

    A token stands for the question "which commit does ``git log -1 -- path`` show, starting
    here?". Phase one (:meth:`walk`) moves tokens from commit to parent in topological order, so
    all of a commit's tokens are there before it is processed; at a merge that changed a path
    against its first parent, the token is suspended on probes sent down the parents it may be
    TREESAME to. Phase two (:meth:`settle`) answers the suspended tokens, once every probe knows
    the blob it ended on.
    """

    def __init__(self, paths: list[str], head: bytes) -> None:
        self.paths: list[str] = []  # token -> path
        self.answered: dict[int, tuple[int, bytes]] = {}  # token -> (commit index, blob)
        self.suspended: dict[int, tuple[int, bytes, list[int]]] = {}  # ... and its probes
        self.skipped: set[int] = set()  # suspended at an ignored commit: answered past it
        self.alias: dict[int, int] = {}  # token -> the token asking the same question
        self.waiting: dict[bytes, dict[str, int]] = {}  # commit -> tokens waiting there
        self.roots = {path: self._token(path) for path in paths}
        self.waiting[head] = dict(self.roots)

    def _token(self, path: str) -> int:
        self.paths.append(path)
        return len(self.paths) - 1

    def _send(self, sha: bytes, group: dict[str, int]) -> None:
        there = self.waiting.get(sha)
        if there is None:
            self.waiting[sha] = group
            return
        if len(there) < len(group):
            there, group = group, there
            self.waiting[sha] = there
        for path, token in group.items():
            if path in there:
                self.alias[token] = there[path]  # same question, same answer
            else:
                there[path] = token

    def walk(
        self, commits: Sequence[Commit], first_parent_diffs: bool, ignored: IgnoredCommits
    ) -> None:
        """Phase one: move every token down to the commit that answers or suspends it. At an
        ignored commit with parents, every token it changed is suspended on probes down all of
        them (its first parent too: its own change does not answer)."""
        any_ignored = bool(ignored)  # asked once: the loop runs for every commit of the history
        for index, commit in enumerate(commits):
            group = self.waiting.pop(commit.sha, None)
            if not group:
                continue
            skip = any_ignored and bool(commit.parents) and commit.sha in ignored
            is_merge = len(commit.parents) > 1
            probed = range(1 if first_parent_diffs and not skip else 0, len(commit.parents))
            probes: list[dict[str, int]] = [{} for _ in commit.parents]
            for path, blob in commit.changes.items():
                token = group.pop(path, None)
                if token is None:
                    continue
                if not is_merge and not skip:
                    self.answered[token] = (index, blob)
                    continue
                children = []
                for slot in probed:
                    child = self._token(path)
                    probes[slot][path] = child
                    children.append(child)
                self.suspended[token] = (index, blob, children)
                if skip:
                    self.skipped.add(token)
            if commit.parents:
                self._send(commit.parents[0], group)  # unchanged against the first parent
            for parent, probe in zip(commit.parents, probes, strict=True):
                if probe:
                    self._send(parent, probe)

    def _canonical(self, token: int) -> int:
        while token in self.alias:
            token = self.alias[token]
        return token

    def _newest(
        self,
        children: list[int],
        memo: dict[int, tuple[int | None, bytes]],
        rank: Callable[[int], tuple[Any, ...]],
        index: int,
    ) -> int:
        """The best answer down an ignored commit's parents by ``rank`` (the ignored commit,
        ``index``, where none has one: the path began there)."""
        answers = [
            found for c in map(self._canonical, children) if (found := memo[c][0]) is not None
        ]
        return max(answers, key=rank) if answers else index

    def settle(self, rank: Callable[[int], tuple[Any, ...]]) -> dict[str, int]:
        """Phase two: answer every root token; path -> index of the commit git would show.
        Past an ignored commit, the answer of its parents that ``rank`` (by commit index) puts
        highest stands."""
        memo: dict[int, tuple[int | None, bytes]] = {}
        for root in self.roots.values():
            stack = [self._canonical(root)]
            while stack:
                token = stack[-1]
                if token in memo:
                    stack.pop()
                    continue
                if token not in self.suspended:
                    memo[token] = self.answered.get(token, (None, ABSENT))
                    stack.pop()
                    continue
                index, blob, children = self.suspended[token]
                pending = [c for c in map(self._canonical, children) if c not in memo]
                if pending:
                    stack.extend(pending)
                    continue
                memo[token] = (index, blob)
                for child in map(self._canonical, children):
                    found, child_blob = memo[child]
                    if child_blob == blob:  # TREESAME to this parent: git follows it
                        memo[token] = (found, blob)
                        break
                else:
                    if token in self.skipped:
                        memo[token] = (self._newest(children, memo, rank, index), blob)
                stack.pop()
        result: dict[str, int] = {}
        for path, root in self.roots.items():
            found, blob = memo[self._canonical(root)]
            if found is not None and blob != ABSENT:
                result[path] = found
        return result
