"""Synthetic git histories for the benchmarks, made in seconds with ``git fast-import``.

A repository is described by its parameters alone (files, commits, seed, page bodies), so it is
built once, cached under a directory named after those parameters, and reused by later runs.

The history is meant to look like a documentation project's: files appear over the first half of
the history and are then edited, a few of them far more often than the rest; commit dates are
spread over nine years in several time zones; each commit touches one to three files; about one
commit in a hundred renames a file; and now and then a topic branch is merged back. Most merges are
clean (the branch edits files the main line leaves alone meanwhile); about a third resolve a
conflict on one file that both sides changed, so the merge itself changes that file, which is the
case where one pass over the history and ``git log -1 -- FILE`` are easiest to get to disagree.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Collection, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Final

GENERATOR_VERSION: Final = 4
"""Bump when the generated history changes, so stale caches are not reused."""

START_EPOCH: Final = 1_451_606_400  # 2016-01-01T00:00:00Z
END_EPOCH: Final = 1_735_603_200  # 2024-12-31T00:00:00Z
COMMITTERS: Final = (
    ("Ada Writer", "ada@example.org", 60),
    ("Lin Editor", "lin@example.org", 480),
    ("Sam Reviewer", "sam@example.org", -300),
    ("Ravi Maintainer", "ravi@example.org", 330),
    ("Mo Bot", "mo@example.org", 0),
)
ODD_NAMES: Final = (
    "docs/odd names/with space.md",
    "docs/odd names/café au lait.md",
    "docs/odd names/日本語.md",
)
"""Paths git quotes in its output; the lastmod benchmark always checks these against ``git log``."""

_WORDS: Final = (
    "sitemap", "page", "build", "site", "index", "theme", "plugin", "author", "date", "commit",
    "branch", "merge", "file", "path", "search", "crawler", "render", "markdown", "section",
    "guide", "install", "configure", "option", "release", "history", "reference", "tutorial",
    "example", "value", "default", "change", "update", "version", "python", "module",
)  # fmt: skip


def cache_root() -> Path:
    """Where generated repositories live: ``$SITEMAP_BENCH_CACHE`` or a folder in the temp dir."""
    configured = os.environ.get("SITEMAP_BENCH_CACHE")
    if configured:
        return Path(configured)
    return Path(tempfile.gettempdir()) / "sitemap-plugins-bench"


@dataclass(frozen=True)
class RepoSpec:
    """What a synthetic repository looks like; its cache key is made of these values."""

    files: int
    commits: int
    seed: int = 20240501
    body_words: int = 0
    odd_names: bool = False
    markup: str = "md"
    """``md``: ``docs/**.md`` pages with a ``# Title`` (MkDocs). ``rst``: ``docs/**.rst`` pages
    with a title and a ``:date:`` field (Pelican reads both), and ``docs/index.rst`` holding a
    hidden toctree of every page (the root document of a Sphinx project)."""

    @property
    def key(self) -> str:
        markup = "" if self.markup == "md" else f"-m{self.markup}"  # older keys stay valid
        return (
            f"repo-v{GENERATOR_VERSION}-f{self.files}-c{self.commits}-s{self.seed}"
            f"-w{self.body_words}-o{int(self.odd_names)}{markup}"
        )


@dataclass
class RepoStats:
    """Counts of what the generator produced, for the progress log."""

    commits: int = 0
    merges: int = 0
    conflicts: int = 0
    renames: int = 0
    merged_files: list[str] = field(default_factory=list)
    """Files a merge brought in, the files whose conflict a merge resolved first."""


def ensure_repo(spec: RepoSpec, *, log: bool = True) -> Path:
    """The path of a checked-out repository matching ``spec``, building it if not cached."""
    root = cache_root()
    final = root / spec.key
    if (final / ".git").is_dir():
        return final
    root.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=spec.key + ".building-", dir=root))
    try:
        stats = _build(spec, building)
        try:
            building.rename(final)
        except OSError:
            if not (final / ".git").is_dir():  # not a concurrent run that finished first
                raise
            shutil.rmtree(building, ignore_errors=True)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    if log:
        print(
            f"# built {final}: {stats.commits} commits, {stats.merges} merges "
            f"({stats.conflicts} resolving a conflict), {stats.renames} renames",
            file=sys.stderr,
        )
    return final


def tracked_files(repo: Path) -> list[str]:
    """Every file in HEAD, as repository-relative POSIX paths (no quoting)."""
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=repo, check=True, capture_output=True
    ).stdout
    return [name.decode() for name in out.split(b"\0") if name]


def _git(repo: Path, *args: str, stdin: BinaryIO | None = None) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, stdin=stdin, stdout=subprocess.DEVNULL)


_MERGED_LIST: Final = "sitemap-bench-merged-files"


def merged_files(repo: Path) -> list[str]:
    """Files a merge changed (conflict resolutions first) that still exist under that name."""
    try:
        listed = (repo / ".git" / _MERGED_LIST).read_text("utf-8").splitlines()
    except OSError:
        return []
    present = set(tracked_files(repo))
    return [name for name in listed if name in present]


def _build(spec: RepoSpec, repo: Path) -> RepoStats:
    _git(repo, "init", "-q", "-b", "main")
    stream = repo / ".git" / "fast-import-stream"
    with open(stream, "wb") as out:
        stats = _History(spec).write(out)
    with open(stream, "rb") as source:
        _git(repo, "fast-import", "--quiet", stdin=source)
    stream.unlink()
    subprocess.run(["git", "branch", "-q", "-D", "topic"], cwd=repo, capture_output=True)
    _git(repo, "reset", "-q", "--hard")
    # What `git gc` leaves behind (a commit-graph without Bloom filters): neither side benefits
    # from an index a typical CI checkout would not have.
    _git(repo, "commit-graph", "write", "--reachable")
    text = "".join(name + "\n" for name in dict.fromkeys(stats.merged_files))
    (repo / ".git" / _MERGED_LIST).write_text(text, "utf-8")
    return stats


def _rst_page(path: str, title: str, revision: int, body: str) -> str:
    """A reST page: the root document holds a hidden toctree of every page (so no page is
    outside the tree and no sidebar lists thousands of them); the others carry the ``:date:``
    Pelican needs, made from the page's number so that it never changes."""
    rule = "#" * max(len(title), 3)
    if path == "docs/index.rst":
        toctree = ".. toctree::\n   :hidden:\n   :glob:\n\n   section-*/*\n   odd names/*\n"
        return f"{title}\n{rule}\n\nRevision {revision}.\n\n{toctree}"
    digits = "".join(c for c in Path(path).stem if c.isdigit()) or "0"
    day = 1 + int(digits) % 28
    month = 1 + int(digits) // 28 % 12
    return (
        f"{title}\n{rule}\n\n:date: 2016-{month:02d}-{day:02d} 10:00\n\n"
        f"Revision {revision}.\n\n{body}"
    )


def _quote(path: str) -> bytes:
    escaped = path.replace("\\", "\\\\").replace('"', '\\"')
    return b'"' + escaped.encode() + b'"'


@dataclass
class _Topic:
    fork: int
    remaining: int
    snapshot: list[str]
    shared: str | None = None
    files: dict[str, str] = field(default_factory=dict)
    tip: int = 0

    @property
    def shared_set(self) -> set[str]:
        return {self.shared} if self.shared else set()


class _History:
    """Writes the fast-import stream for one :class:`RepoSpec`, deterministically from its seed."""

    def __init__(self, spec: RepoSpec) -> None:
        self.spec = spec
        self.rng = random.Random(spec.seed)
        self.stats = RepoStats()
        self.mark = 0
        self.main_tip = 0
        self.clock = START_EPOCH
        self.step = (END_EPOCH - START_EPOCH) / max(spec.commits, 1)
        self.pending = self._planned_paths()
        self.existing: list[str] = []
        self.content: dict[str, str] = {}
        self.bodies: dict[str, str] = {}
        self.revision = 0
        self.topic: _Topic | None = None
        self.main_since_fork: set[str] = set()

    def _planned_paths(self) -> list[str]:
        count = self.spec.files
        odd = list(ODD_NAMES[: max(count - 1, 0)]) if self.spec.odd_names else []
        if self.spec.markup != "md":
            odd = [name.replace(".md", "." + self.spec.markup) for name in odd]
        suffix = "." + self.spec.markup
        paths = ["docs/index" + suffix]
        sections = max(1, round((count - len(odd) - 1) ** 0.5 / 2))
        for number in range(count - 1 - len(odd)):
            paths.append(f"docs/section-{number % sections:02d}/page-{number:05d}{suffix}")
        # Odd names appear early, so the history has time to edit and rename around them.
        return paths[:1] + odd + paths[1:]

    def write(self, out: BinaryIO) -> RepoStats:
        total = self.spec.commits
        births = len(self.pending)
        for number in range(total):
            remaining = total - number
            # Files appear over the first half of the history.
            due = min(births, max(1, (number + 1) * births * 2 // max(total, 1)))
            created = births - len(self.pending)
            topic = self.topic
            if topic is not None and (topic.remaining == 0 or remaining == 1):
                self._merge(out)
                continue
            on_topic = topic is not None and created >= due and self.rng.random() < 0.5
            if on_topic and self._topic_commit(out):
                continue
            self._main_commit(out, due - created)
            if topic is None and remaining > 40 and self.rng.random() < 20 / total:
                self._start_topic()
        out.write(b"done\n")
        return self.stats

    def _start_topic(self) -> None:
        self.topic = _Topic(
            fork=self.main_tip, remaining=self.rng.randint(3, 12), snapshot=list(self.existing)
        )
        if len(self.existing) > 1 and self.rng.random() < 0.35:
            self.topic.shared = self.rng.choice(self.existing[1:])
        self.main_since_fork = set()

    # --- commit kinds ------------------------------------------------------------------------

    def _main_commit(self, out: BinaryIO, births_due: int) -> None:
        touches = self.rng.choice((1, 1, 2, 2, 3))
        ops: list[bytes] = []
        message = "Edit pages"
        for _ in range(min(max(births_due, 0), touches)):
            path = self.pending.pop(0)
            self.existing.append(path)
            ops.append(self._modify(path))
            message = "Add pages"
        free = touches - len(ops)
        if free and self.existing and self.rng.random() < 0.01:
            ops.append(self._rename())
            free -= 1
            message = "Move a page"
        topic = self.topic
        if topic and free and topic.shared and topic.shared not in self.main_since_fork:
            ops.append(self._modify(topic.shared))  # the main line's side of the conflict
            free -= 1
        blocked = (topic.files.keys() | topic.shared_set) if topic else set()
        for path in self._pick(free, self.existing, blocked):
            ops.append(self._modify(path))
        if not ops:  # everything was blocked by the topic: touch the home page
            ops.append(self._modify(self.existing[0]))
        if self.topic is not None:
            self.main_since_fork.update(self._paths_of(ops))
        self.main_tip = self._commit(out, b"refs/heads/main", message, ops)

    def _topic_commit(self, out: BinaryIO) -> bool:
        """Commit on the topic branch; False if it found nothing it may touch."""
        topic = self.topic
        assert topic is not None
        touches = self.rng.choice((1, 2, 3))
        ops = []
        if topic.shared and not topic.tip:
            ops.append(self._modify(topic.shared, into=topic.files))  # the topic's side
        blocked = self.main_since_fork | topic.shared_set
        ops += [
            self._modify(path, into=topic.files)
            for path in self._pick(touches - len(ops), topic.snapshot, blocked)
        ]
        if not ops:
            topic.remaining = 0
            return False
        parent = None if topic.tip else topic.fork
        topic.tip = self._commit(out, b"refs/heads/topic", "Topic work", ops, parent=parent)
        topic.remaining -= 1
        return True

    def _merge(self, out: BinaryIO) -> None:
        topic = self.topic
        assert topic is not None
        self.topic = None
        if not topic.tip:
            self._main_commit(out, 0)
            return
        ops = []
        for path, text in topic.files.items():
            if path == topic.shared and path in self.main_since_fork:
                ops.append(self._modify(path))  # both sides changed it: a resolution of its own
                self.stats.conflicts += 1
                self.stats.merged_files.insert(0, path)
            else:
                self.content[path] = text
                ops.append(self._blob_op(path, text))
                self.stats.merged_files.append(path)
        self.stats.merges += 1
        self.main_tip = self._commit(
            out, b"refs/heads/main", "Merge branch 'topic'", ops, merge=topic.tip
        )

    # --- pieces ------------------------------------------------------------------------------

    def _pick(self, count: int, pool: list[str], blocked: Collection[str]) -> Iterator[str]:
        chosen: set[str] = set()
        for _ in range(count * 4):
            if len(chosen) == count or not pool:
                break
            # Half the edits go to a few hot pages (near the start of the list), half anywhere.
            spread = self.rng.random() ** 3 if self.rng.random() < 0.5 else self.rng.random()
            path = pool[int(spread * len(pool))]
            if path in chosen or path in blocked:
                continue
            chosen.add(path)
            yield path

    def _modify(self, path: str, into: dict[str, str] | None = None) -> bytes:
        self.revision += 1
        body = self.bodies.get(path)
        if body is None:
            body = self._body()
            self.bodies[path] = body
        title = Path(path).stem.replace("-", " ").capitalize()
        if self.spec.markup == "rst":
            text = _rst_page(path, title, self.revision, body)
        else:
            text = f"# {title}\n\nRevision {self.revision}.\n\n{body}"
        if into is None:
            self.content[path] = text
        else:
            into[path] = text
        return self._blob_op(path, text)

    def _body(self) -> str:
        if not self.spec.body_words:
            return ""
        words = [self.rng.choice(_WORDS) for _ in range(self.spec.body_words)]
        paragraphs = [" ".join(words[i : i + 60]) for i in range(0, len(words), 60)]
        return "\n\n".join(p.capitalize() + "." for p in paragraphs) + "\n"

    def _rename(self) -> bytes:
        candidates = [
            p
            for p in self.existing[1:]
            if not (self.topic and (p in self.topic.files or p == self.topic.shared))
        ] or self.existing[1:]
        if not candidates:
            return self._modify(self.existing[0])
        old = self.rng.choice(candidates)
        folder, _, name = old.rpartition("/")
        self.stats.renames += 1
        new = f"{folder}/moved-{self.stats.renames}-{name}"
        self.existing[self.existing.index(old)] = new
        self.content[new] = self.content.pop(old)
        self.bodies[new] = self.bodies.pop(old, "")
        if self.topic is not None:
            self.main_since_fork.add(old)
        return b"R " + _quote(old) + b" " + _quote(new) + b"\n"

    @staticmethod
    def _blob_op(path: str, text: str) -> bytes:
        data = text.encode()
        return b"M 100644 inline " + _quote(path) + b"\ndata %d\n" % len(data) + data + b"\n"

    @staticmethod
    def _paths_of(ops: list[bytes]) -> list[str]:
        paths = []
        for op in ops:
            line = op.split(b"\n", 1)[0]
            if line.startswith(b"M "):
                quoted = line.split(b" ", 3)[3]
                paths.append(quoted[1:-1].decode().replace('\\"', '"').replace("\\\\", "\\"))
        return paths

    def _commit(
        self,
        out: BinaryIO,
        ref: bytes,
        message: str,
        ops: list[bytes],
        *,
        parent: int | None = None,
        merge: int | None = None,
    ) -> int:
        self.mark += 1
        self.stats.commits += 1
        self.clock += max(1, int(self.step * self.rng.uniform(0.2, 1.8)))
        name, email, offset = self.rng.choice(COMMITTERS)
        sign = "-" if offset < 0 else "+"
        zone = f"{sign}{abs(offset) // 60:02d}{abs(offset) % 60:02d}".encode()
        who = f"{name} <{email}>".encode()
        # Some commits were rebased or applied later: the author date is older than the commit.
        late = self.rng.randint(3600, 5 * 86400) if self.rng.random() < 0.2 else 0
        authored = self.clock - late
        text = message.encode()
        out.write(b"commit " + ref + b"\nmark :%d\n" % self.mark)
        out.write(b"author " + who + b" %d " % authored + zone + b"\n")
        out.write(b"committer " + who + b" %d " % self.clock + zone + b"\n")
        out.write(b"data %d\n" % len(text) + text + b"\n")
        if parent is not None:
            out.write(b"from :%d\n" % parent)
        if merge is not None:
            out.write(b"merge :%d\n" % merge)
        out.writelines(ops)
        out.write(b"\n")
        return self.mark
