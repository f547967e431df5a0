"""Modification dates of source files, as far as their git history proves them.

:class:`FileDates` runs a fixed number of git processes per repository whose files it
dates, whatever their number (see :mod:`~sitemap_plugins.core.git_history` for the one pass
that dates every file exactly as ``git log -1 -- FILE`` would), keeps the pass on disk for the
next build (:mod:`~sitemap_plugins.core.git_cache`), and says why a file has no date where git
cannot give one: a shallow clone's missing history, no git, no repository. The one other
process is asked once per process, of a clone nested in the sources' repository with a
``.git`` folder: whether it is a submodule (see :mod:`~sitemap_plugins.core.nested_repos`).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import enum
import os
import re
import stat
import subprocess
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Final, NamedTuple

from sitemap_plugins.core.built_sources import BuildWindow, BuiltSources
from sitemap_plugins.core.git_background import BackgroundGit, detached_work_tree, git_env
from sitemap_plugins.core.git_cache import HistoryCache, StoredWalk
from sitemap_plugins.core.git_history import (
    NO_COMMITS,
    Commit,
    IgnoredCommits,
    covers,
    last_changes,
    log_args,
    parse_log,
    pathspecs,
    reachable,
)
from sitemap_plugins.core.model import FilePath
from sitemap_plugins.core.nested_repos import NestedRepositories
from sitemap_plugins.core.paths import absolute_path
from sitemap_plugins.core.report import Code, Reporter

__all__ = [
    "DateLookup",
    "FileDate",
    "FileDates",
    "GitRunner",
    "GitStarter",
    "Undated",
    "Why",
    "run_git",
]

FileDate = tuple[dt.datetime, str]
"""An aware datetime, and where it came from: ``"git"`` or ``"mtime"``."""

GitRunner = Callable[[Sequence[str], Path], "subprocess.CompletedProcess[bytes]"]
"""Runs ``git <args>`` in a directory; injectable so callers can count or trace git processes."""
GitStarter = Callable[[Sequence[str], Path], BackgroundGit]
"""Starts ``git <args>`` in a directory in the background (:meth:`FileDates.start`)."""

_File = tuple[str, str]  # (resolved directory, file name): files are keyed without their own link
_STATUS: Final = (
    "status", "--porcelain=v2", "--branch", "--no-ahead-behind", "-z", "--untracked-files=no",
    "--no-renames", "--ignore-submodules=all",
)  # fmt: skip
"""HEAD, and the tracked files with uncommitted changes (an untracked one is asked about alone).
``--branch`` is for HEAD's id; counting how far the branch is ahead of its upstream is not
needed, and walks the history between them (a fork far behind its upstream: thousands of
commits)."""
_LINK_MODE: Final = b"120000 "
"""How ``git log --raw`` shows a symbolic link's mode."""
_PROBE: Final = (
    "rev-parse", "--show-toplevel", "--is-shallow-repository", "--git-path", "shallow",
    "--git-path", "config",
)  # fmt: skip
# A fetch must fail rather than hang a CI build: no prompt, and a stalled transfer is given up.
# Only commits and trees are read (blob ids come from trees), so no old file contents are
# fetched where the server allows it; a server that does not simply sends everything.
_FETCH_ARGS = (
    "-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=60",
    "fetch", "--unshallow", "--filter=blob:none", "--quiet", "--no-tags",
    "--no-recurse-submodules",
)  # fmt: skip
_FETCH_TREES_ARGS = (
    "-c", "http.lowSpeedLimit=1000", "-c", "http.lowSpeedTime=60",
    "fetch", "--refetch", "--filter=blob:none", "--quiet", "--no-tags", "--no-recurse-submodules",
)  # fmt: skip
_MISSING_TREES = ("rev-list", "--missing=print", "--objects", "--filter=tree:1", "HEAD")
"""Every commit's root tree that this repository lacks, printed ``?SHA`` (never fetched)."""
_TREE_FILTER: Final = re.compile(rb"(?im)^\s*partialclonefilter\s*=\s*\S*tree:")
_NOT_A_REPOSITORY: Final = b"not a git repository"
"""What git says where no repository is found (in the C locale it runs in)."""


def run_git(args: Sequence[str], cwd: Path) -> subprocess.CompletedProcess[bytes]:
    """Run git the way :class:`FileDates` needs (see :func:`.git_background.git_env`): only a
    ``git fetch``, which runs where the user turned ``git_fetch_history`` on, reaches the
    remote."""
    env = git_env(cwd, fetch=_git_command(args) == "fetch")
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
        check=False,
    )  # fmt: skip


def _git_command(args: Sequence[str]) -> str:
    """``log`` of ``-c x=y log ...``: the git command, past the options before it."""
    words = iter(args)
    for word in words:
        if word == "-c":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return ""


class Why(str, enum.Enum):
    """Why a file has no date."""

    SHALLOW = "shallow clone"
    NO_GIT = "git not found"
    GIT_FAILED = "git failed"
    """git failed, and its own words were given then as a warning."""
    NO_REPOSITORY = "no repository behind .git"
    """A ``.git`` that leads git to no repository: a worktree's or a submodule's ``.git`` file
    naming one that is not there (the checkout copied into a container image without it), an
    empty ``.git`` folder. As for a folder without ``.git``, nothing dates the files there."""
    NOT_TRACKED = "not tracked by git"
    IGNORED = "ignored by git"
    """A file in a work tree that git neither tracks nor lists as untracked: one its ignore
    rules name, most often one a generator writes (sphinx-gallery's examples, autoapi's pages),
    which building from a clone, the fix for :attr:`NOT_TRACKED`, does not date."""
    TREELESS = "treeless clone"
    ONLY_IGNORED_COMMITS = "changed only by ignored commits"
    """A committed file every change of which is in a commit the ``git_ignore_commits``
    options leave out (a file a mass reformat created): no change that counts dates it, as
    none dates it for sphinx-last-updated-by-git or git-revision-date-localized; a page's other
    sources still do."""
    OUTSIDE = "outside the sources' repositories"
    UNCOMMITTED = "uncommitted change"
    WRITTEN_BY_BUILD = "written by the build"
    """An untracked or changed file whose time is one a build gave it (see
    :mod:`.built_sources`): the host or a plugin wrote it into the sources."""
    NOT_LOOKED_UP = "not looked up"
    """A page's file the lookup was not asked about: the lookup never gives it, the page's
    lastmod does (:class:`~.lastmod.LastmodRules`), so that a caller that dates only some files
    (``generate`` asks only about the built files git tracks) can count the listed pages it
    left undated; it has the words for why, which the core has not."""


class Undated(NamedTuple):
    """Why an existing file has no date, so that the build can say it once, with the fix.

    ``bound`` is set for :attr:`Why.SHALLOW` with committer dates: the file's last change is
    not after this instant (the boundary commit of the clone it was traced to), so a page whose
    other sources are newer is still dated exactly. That holds while committer dates do not go
    backwards along history, as git stamps them; author dates keep their first moment through
    rebases and cherry-picks, so the boundary's author date bounds nothing, and a shallow file
    without a bound leaves every page it is a source of undated.

    ``said`` is what git said, where its words are the reason (:attr:`Why.NO_REPOSITORY`).
    """

    reason: Why
    root: Path | None = None
    bound: dt.datetime | None = None
    said: str | None = None


_Outcome = FileDate | Undated | None
"""A file's date, why it has none, or None for a working-tree change (dated by its mtime)."""


class DateLookup(NamedTuple):
    """The date of every existing file asked about, or why it has none; and for each folder
    asked about, the date a file last left it (deleted, or renamed away), or why it cannot be
    known (a folder nothing ever left is not named)."""

    dates: dict[FilePath, FileDate]
    undated: dict[FilePath, Undated]
    removals: Mapping[FilePath, FileDate | Undated] = MappingProxyType({})


class _Plan(NamedTuple):
    """A history pass to run: ``git log REVISIONS`` for ``paths``, its commits added to the
    ``old`` ones of a stored walk (None: a full pass)."""

    head: str
    boundary: frozenset[bytes]
    paths: frozenset[str]
    revisions: tuple[str, ...]
    old: list[Commit] | None
    first_parent_diffs: bool = True
    """How the old commits' merges were diffed: the new ones must be diffed alike."""
    folders: frozenset[str] = frozenset()
    """The folders whose deletions are asked for besides ``paths``."""


class _Repo(NamedTuple):
    """What one repository says about the files asked for, before mtimes are read."""

    top: Path
    by_file: dict[_File, str]  # file -> path relative to the work tree
    outcome: dict[_File, _Outcome]


class FileDates:
    """Modification dates for source files: one git pass per repository.

    What counts as a date is what a history proves: the last commit that touched the file. A file
    time means something only for a change git shows in the working tree (an uncommitted edit, an
    untracked file), and not even there when a build gave it (:mod:`.built_sources`); everywhere
    else it records a checkout, a copy or an unpack, so a file that git cannot date is
    *undated*, with the reason, never given its file time. In a shallow clone
    the files whose last change lies inside the clone's history are exact; the others are traced
    to a boundary commit, whose parents are missing, and are undated.

    An instance may live for a whole ``serve`` session: the history pass of a repository is reused
    while its HEAD does not move and no new committed file is asked for. Uncommitted changes are
    re-read on every call (they decide which files take their mtime) but do not force a new pass,
    since committed history cannot change without HEAD moving.
    """

    def __init__(
        self,
        reporter: Reporter,
        *,
        git_date: str = "committer",
        fetch_history: bool = False,
        cache_dir: Path | None = None,
        runner: GitRunner | None = None,
        starter: GitStarter | None = None,
        ignored_commits: Iterable[str] = (),
    ) -> None:
        if git_date not in ("committer", "author"):
            raise ValueError(f"git_date must be 'committer' or 'author', not {git_date!r}")
        self._reporter = reporter
        self._format = "%cI" if git_date == "committer" else "%aI"
        self._bounded = git_date == "committer"  # see Undated.bound
        self._fetch_history = fetch_history
        self._run = runner or run_git
        # A caller tracing git through its runner sees the background processes only if it
        # traces them too.
        self._start_git = starter or (BackgroundGit if runner is None else None)
        self._ignored = IgnoredCommits(ignored_commits) if ignored_commits else NO_COMMITS
        self._cache = HistoryCache(cache_dir, self._ignored.key)
        self._built = BuiltSources(cache_dir)
        self._walks: dict[Path, StoredWalk] = {}
        self._started: dict[Path, tuple[_Plan, BackgroundGit]] = {}
        self._early: dict[Path, tuple[_Probe, BackgroundGit]] = {}  # probe and status, by top
        self._fetched: set[Path] = set()  # repositories whose history was fetched, or tried
        self._trees_here: set[Path] = set()  # treeless clones found to hold every tree
        self._trees_fetched: set[Path] = set()  # treeless clones whose trees were fetched, or tried
        self._first_parent_diffs = True  # cleared once git turns out to predate 2.31
        self._exports: dict[Path, tuple[Path, str]] = {}  # copy -> (its repository, commit)
        self._early_exports: dict[Path, tuple[_Probe, str]] = {}  # copy -> probe, commit
        self._source_folders: tuple[str, ...] = ()  # the host's source and translation folders
        self._submodules: dict[tuple[Path, str], bool] = {}  # (top, path) -> registered there

    def source_folders(self, folders: Iterable[Path]) -> None:
        """Name the folders the host reads sources and translations from (Sphinx's source
        folder and ``locale_dirs``): a git repository nested in the sources' one under them (a
        clone of the translations that repository ignores) dates the files it holds, by its
        own history. Elsewhere in a work tree only a registered submodule does (see
        :mod:`.nested_repos`)."""
        real: list[str] = []
        for folder in folders:
            with contextlib.suppress(OSError, ValueError):
                real.append(os.path.realpath(folder))
        self._source_folders = tuple(real)

    def start(self, folder: Path, *, beside: Iterable[Path] = (), ending: str = "") -> None:
        """Begin the history pass of the repository holding ``folder`` now, in a git process that
        runs while the host renders (see :mod:`.git_background`). :meth:`lookup` takes it when it
        is a pass it can use and otherwise runs its own, so the answers never differ.

        The files are those the last build asked about (the stored walk), or on a first build
        every file git tracks under ``folder``. Nothing starts for a repository whose stored walk
        already answers at HEAD, for a shallow clone whose history is to be fetched first, or
        when git fails: the lookup then does what it always does, and reports what went wrong.

        ``beside``: folders beyond ``folder`` whose tracked files named ``*ending`` date pages
        as the files in it do (Sphinx's catalogs kept outside its source folder): a first build
        covers them from the start too, rather than beginning its pass again over them.
        """
        start_git = self._start_git
        if start_git is None:
            return
        try:
            self._start(Path(os.path.realpath(folder)), start_git, (beside, ending))
        except OSError:
            return

    def _start(
        self,
        folder: Path,
        start_git: GitStarter,
        beside: tuple[Iterable[Path], str] = ((), ""),
    ) -> None:
        copy = next((copy for copy in self._exports if folder.is_relative_to(copy)), None)
        if copy is not None:
            self._start_copy(copy, folder, start_git)
            return
        out = self._git(folder, [*_PROBE, "HEAD"], quiet=True)  # fails before the first commit
        if out is None:
            return
        top, shallow_file, _ = probe = _parse_probe(out, folder)
        lines = out.split(b"\n")
        head = lines[4].strip() if len(lines) > 4 else b""
        for earlier in (self._early.pop(top, None), self._started.pop(top, None)):
            if earlier is not None:
                earlier[1].cancel()  # started by an earlier build and never used: stale now
        if self._fetches_first(probe):
            return  # the lookup decides what to fetch first, and warns if it cannot
        # What the working tree holds is read with the sources, as the host reads them.
        self._early[top] = (probe, start_git(list(_STATUS), top))
        boundary = self._boundary(top, shallow_file, quiet=True)
        if boundary is None or not head:
            return
        walk = self._stored(top, boundary)
        where = _tree_name(_inside(top), os.path.join(folder, ""))  # noqa: PTH118
        if walk is not None:
            wanted = walk.paths
        else:
            wanted = self._tracked_under(top, os.path.relpath(folder, top))
            wanted |= self._tracked_beside(top, where, *beside)
        # Deletions under the folder too: a listing of its files may ask when one last went.
        folders = frozenset() if where is None else frozenset({where.rstrip("/")})
        self._begin(top, head.decode(), boundary, wanted, folders, start_git)

    def _start_copy(self, copy: Path, folder: Path, start_git: GitStarter) -> None:
        """The pass for a copy of a commit's tree (see :meth:`exported`), begun as for a work
        tree: at that commit, over what it holds under ``folder`` and what the stored walk
        covers (a stored walk of HEAD's tree may lack files this commit holds)."""
        repository, revision = self._exports[copy]
        if revision.startswith("-"):
            return
        resolved = self._resolve_export(repository, revision, quiet=True)
        if resolved is None:
            return
        self._early_exports[copy] = resolved  # the lookup asks git no second time
        probe, commit = resolved
        top, shallow_file, _ = probe
        earlier = self._started.pop(top, None)
        if earlier is not None:
            earlier[1].cancel()
        if self._fetches_first(probe):
            return  # the lookup decides what to fetch first, and warns if it cannot
        boundary = self._boundary(top, shallow_file, quiet=True)
        if boundary is None:
            return
        where = Path(os.path.relpath(folder, copy)).as_posix()
        wanted = self._tracked_under(top, where, (copy, commit))
        walk = self._stored(top, boundary)
        if walk is not None:
            wanted |= walk.paths
        folders = frozenset({"" if where == "." else where})
        self._begin(top, commit, boundary, wanted, folders, start_git)

    def _fetches_first(self, probe: _Probe) -> bool:
        """Whether the lookup must fetch (a shallow clone's history, a treeless clone's trees)
        or decide not to before any pass runs: nothing is begun early there."""
        top, shallow_file, tree_filter = probe
        return tree_filter or (
            shallow_file is not None and self._fetch_history and top not in self._fetched
        )

    def _stored(self, top: Path, boundary: frozenset[bytes]) -> StoredWalk | None:
        """The walk an earlier build stored for ``top``, when its shallow boundary is today's
        (loaded once: the plan and the lookup start from it)."""
        walk = self._walks.get(top) or self._cache.load(top, self._format)
        if walk is None or walk.boundary != boundary:
            return None
        self._walks[top] = walk
        return walk

    def _begin(
        self,
        top: Path,
        head: str,
        boundary: frozenset[bytes],
        wanted: frozenset[str],
        folders: frozenset[str],
        start_git: GitStarter,
    ) -> None:
        """Start the pass over ``wanted`` at ``head``, with the deletions under ``folders``,
        unless a stored walk already answers."""
        if not wanted:
            return
        plan = self._plan(top, head, boundary, wanted, folders)
        if isinstance(plan, StoredWalk):
            self._walks[top] = plan
            return
        self._started[top] = (
            plan,
            start_git(self._log_args(plan.revisions, plan.paths, plan.folders), top),
        )

    def widen(self, files: Iterable[FilePath]) -> None:
        """The host has read its sources and names the files pages' dates may come from: when
        the pass :meth:`start` began leaves out a committed one (a Sphinx include, or an autodoc
        module beside the source folder), begin it again over all of them now, while the host
        writes, so that the lookup does not run a second pass once the host is done. Files of
        other repositories, and files no commit holds, change nothing; ``files`` is not read
        at all when no pass was begun."""
        start_git = self._start_git
        if not self._started or start_git is None:
            return
        tops = {top: _inside(top) for top in self._started}
        folders: dict[str, str] = {}
        names: dict[Path, set[str]] = {}
        try:
            for path in files:
                absolute = absolute_path(path)
                cut = absolute.rfind(os.sep)
                parent = absolute[:cut] or os.sep
                folder = folders.get(parent)
                if folder is None:
                    folder = folders[parent] = os.path.join(os.path.realpath(parent), "")  # noqa: PTH118
                for top, inside in tops.items():
                    relative = _tree_name(inside, folder)
                    if relative is not None:
                        names.setdefault(top, set()).add(relative + absolute[cut + 1 :])
            for top, wanted in names.items():
                plan, git = self._started[top]
                missing = sorted(wanted - plan.paths)
                tracked = self._listed(top, ["--cached"], missing, quiet=True) if missing else None
                if not tracked:
                    continue
                git.cancel()
                del self._started[top]
                wider = self._plan(
                    top, plan.head, plan.boundary, plan.paths | tracked, plan.folders
                )
                if isinstance(wider, StoredWalk):
                    self._walks[top] = wider
                    continue
                self._started[top] = (
                    wider,
                    start_git(self._log_args(wider.revisions, wider.paths, wider.folders), top),
                )
        except (OSError, ValueError):
            return  # the lookup runs what it needs, and reports what fails

    def exported(
        self, folder: Path, repository: Path, revision: str, *, within: bool = False
    ) -> None:
        """``folder`` holds a copy of the whole tree of commit ``revision`` (a name git knows)
        of the repository whose work tree holds ``repository``: what tools that build every
        version of a site from one checkout make (``git archive``, or a worktree copied out).
        Its files are dated by that commit's history, as ``git log -1 REVISION -- FILE`` dates
        them in the repository; a file the commit does not hold (the build made it) gets no
        date, never its copy's time.

        ``within``: ``folder`` is a folder somewhere in the copy, whose top the tool does not
        say. The top is then the nearest folder at or above it that holds every entry of the
        commit's own top folder (one ``git ls-tree``); where none does, or git cannot list the
        commit, nothing is registered and the copy's files are those of no repository.
        """
        real = Path(os.path.realpath(folder))
        repository = Path(os.path.realpath(repository))
        if within:
            found = self._copy_top(real, repository, revision)
            if found is None:
                return
            real = found
        self._exports[real] = (repository, revision)

    def _copy_top(self, folder: Path, repository: Path, revision: str) -> Path | None:
        """The top of the copy ``folder`` lies in (see :meth:`exported`), or None."""
        if revision.startswith("-") or _find_root(str(repository), {}) is None:
            return None
        listed = self._git(
            repository,
            ["-c", "core.quotepath=off", "ls-tree", "-z", "--name-only", revision],
            quiet=True,
        )
        entries = {os.fsdecode(name) for name in (listed or b"").split(b"\0") if name}
        if not entries:
            return None
        for candidate in (folder, *folder.parents):
            try:
                if entries <= {entry.name for entry in candidate.iterdir()}:
                    return candidate
            except OSError:
                continue
        return None

    def _tracked_beside(
        self, top: Path, where: str | None, folders: Iterable[Path], ending: str
    ) -> frozenset[str]:
        """The files named ``*ending`` git tracks under ``folders`` of the work tree ``top``,
        one listing for all of them; folders elsewhere, and under ``where``, are left out."""
        inside = _inside(top)
        names: list[str] = []
        for folder in folders:
            name = _tree_name(inside, os.path.join(os.path.realpath(folder), ""))  # noqa: PTH118
            if name and not (where is not None and name.startswith(where)):
                names.append(name.rstrip("/"))
        if not names:
            return frozenset()
        listed = self._git(
            top,
            ["-c", "core.quotepath=off", "--literal-pathspecs", "ls-files", "-z", "--", *names],
            quiet=True,
        )
        files = os.fsdecode(listed or b"").split("\0")
        return frozenset(file for file in files if file and file.endswith(ending))

    def _tracked_under(
        self, top: Path, where: str, copy: tuple[Path, str] | None = None
    ) -> frozenset[str]:
        """Every file git tracks under ``where``, and the files its links name in the same work
        tree (a link's page reads the file it names, whose history dates it too), a folder a
        link names listed in turn. With ``copy`` (a copy of a commit's tree, and the commit),
        what that commit holds, its links followed in the copy."""
        names: set[str] = set()
        folders = [where]
        listed_folders = {where}
        lister = ["ls-files", "-z", "-s"] if copy is None else ["ls-tree", "-r", "-z", copy[1]]
        while folders:
            listed = self._git(
                top,
                ["-c", "core.quotepath=off", "--literal-pathspecs", *lister, "--", *folders],
                quiet=True,
            )
            files, named_folders = _tracked_and_named(
                top if copy is None else copy[0], listed or b""
            )
            names |= files
            folders = sorted(named_folders - listed_folders)
            listed_folders.update(folders)
        return frozenset(names)

    def lookup(
        self,
        files: Iterable[FilePath],
        *,
        within: Iterable[FilePath] | None = None,
        use_git: bool = True,
        use_mtime: bool = True,
        built: BuildWindow | None = None,
        removals_in: Iterable[FilePath] = (),
    ) -> DateLookup:
        """Date each existing file, or say why it has no date; missing files are left out.

        ``within`` names the files whose repositories hold the site's sources (each page's own
        source): a file elsewhere (an installed package, the standard library, a file beside
        the checkout) never dates a page, since its file time is an install or checkout time,
        and one in a repository nested in those dates it only when that repository is the
        project's own (a submodule, a clone under a source folder: see
        :mod:`.nested_repos`). Without git (``use_git=False``) every file's mtime is taken, as
        the caller asked; ``within`` then bounds the files by the folder that holds those
        sources.

        A file git dates is not looked at on disk: git's status of the work tree, read for this
        lookup, names every tracked file that changed or went missing since its commit, and
        those are the files whose time or absence matters. That spares a ``stat`` per page on
        every build (a third of the lookup's time); every other file is still checked.

        ``built`` is the span of the build that asks: a file that would be dated by its time
        gets none when that time is one a build gave it (see :mod:`.built_sources`). Without
        it (``generate``, which runs after the build) every such file takes its time.

        ``removals_in`` names folders whose files pages list (a blog's posts, a site's
        articles): each gets the date a file last left it, deleted or renamed away, from the
        same history pass (a folder nothing ever left gets nothing). A deletion not committed
        yet is dated by the time of the folder it left, as a working-tree change is; where the
        history cannot show every deletion (a shallow clone: those before the commits it stops
        at), the folder is undated, with the bound those commits give. Folders outside the
        sources' repositories, and every folder without ``use_git``, are not answered.
        """
        located: dict[FilePath, _File] = {}
        folders: dict[str, str] = {}
        parents: dict[FilePath, str] = {}
        # Plain strings, not pathlib: this loop runs for every file of the site, every build.
        for path in files:
            try:
                absolute = absolute_path(path)
                cut = absolute.rfind(os.sep)
                parent, name = absolute[:cut] or os.sep, absolute[cut + 1 :]
                # Resolve the directory, not the file: git tracks a link as a link, and the
                # file it names is found from the pass (see _link_targets).
                folder = folders.get(parent)
                if folder is None:
                    folder = folders[parent] = os.path.realpath(parent)
            except (OSError, ValueError):
                continue
            parents[path] = parent
            located[path] = (folder, name)
        asked_folders: dict[FilePath, _File] = {}  # each as (its real path, ""): no file name
        for path in removals_in if use_git else ():
            with contextlib.suppress(OSError, ValueError):
                asked_folders[path] = (os.path.realpath(absolute_path(path)), "")
        on_disk = _OnDisk()
        # A deploy hook's checkout and a copy of a commit's tree have no .git: their top is where
        # their files' repository is found.
        roots: dict[str, Path | None] = {str(folder): folder for folder in self._exports}
        detached = detached_work_tree()
        if detached is not None:
            roots[detached[0]] = Path(detached[0])
        scope = None
        if within is not None:
            nested = NestedRepositories(
                self._source_folders, lambda folder: _find_root(folder, roots), self._is_submodule
            )
            scope = _Scope.of(within, roots, parents, folders, nested)
        # What a file gets without git depends on its folder only: each folder is decided once.
        ask: dict[str, Path] = {}  # folder -> the repository whose git dates its files
        settled: dict[str, _Outcome] = {}  # folder -> what its files get without git
        for folder in {file[0] for file in (*located.values(), *asked_folders.values())}:
            root = _find_root(folder, roots)
            if scope is not None and not scope.holds(folder, root):
                settled[folder] = Undated(Why.OUTSIDE, root)
            elif not use_git:
                settled[folder] = None
            elif root is None:
                settled[folder] = Undated(Why.NOT_TRACKED)
            else:
                ask[folder] = root
        outcomes: dict[_File, _Outcome] = {}
        by_root: dict[Path, list[_File]] = {}
        for file in (*located.values(), *asked_folders.values()):
            repository = ask.get(file[0])
            if repository is None:
                outcomes[file] = settled[file[0]]
            else:
                by_root.setdefault(repository, []).append(file)
        gone: dict[_File, list[str]] = {}  # a folder's files deleted in the working tree
        for root, repo_files in sorted(by_root.items()):
            outcomes.update(self._repo_outcomes(root, repo_files, on_disk.regular, gone))
        epoch = _source_date_epoch()
        removals: dict[FilePath, FileDate | Undated] = {}
        result = DateLookup({}, {}, removals)
        for path, file in located.items():
            if file not in outcomes:  # never committed, and not on disk either
                continue
            outcome = outcomes[file]
            if isinstance(outcome, Undated):
                # A shallow clone's file is committed (its older history is what is missing).
                if outcome.reason is Why.SHALLOW or on_disk.regular(file) is not None:
                    result.undated[path] = outcome
                continue
            if outcome is not None:  # a commit's date
                result.dates[path] = outcome
                continue
            info = on_disk.regular(file)
            if info is None:
                continue
            if built is not None and self._built.wrote(
                os.path.join(*file),  # noqa: PTH118
                info.st_mtime_ns,
                built,
            ):
                result.undated[path] = Undated(Why.WRITTEN_BY_BUILD, roots.get(file[0]))
            elif use_mtime:
                mtime = info.st_mtime
                seconds = int(mtime) if epoch is None else min(int(mtime), epoch)  # clamp, as
                # reproducible-build tools do; git dates are history, never clamped
                result.dates[path] = (dt.datetime.fromtimestamp(seconds, dt.timezone.utc), "mtime")
            else:
                result.undated[path] = Undated(Why.UNCOMMITTED, roots.get(file[0]))
        for path, file in asked_folders.items():
            outcome = outcomes.get(file)
            if file in gone:
                outcome = _deleted_in_work_tree(gone[file], built, use_mtime=use_mtime, epoch=epoch)
            if outcome is not None and not (
                isinstance(outcome, Undated) and outcome.reason is Why.OUTSIDE
            ):
                removals[path] = outcome
        if built is not None:
            self._built.save()
        return result

    # -- per repository -----------------------------------------------------------------------

    def _repo_outcomes(
        self,
        root: Path,
        files: list[_File],
        present: Callable[[_File], os.stat_result | None],
        gone: dict[_File, list[str]],
    ) -> dict[_File, _Outcome]:
        """Each file's git date, or None for a working-tree change, or why it is undated; a file
        git never committed is left out when ``present`` finds nothing on disk. A folder (a
        file without a name) gets the date a file last left it, or why that is unknown, and
        in ``gone`` the files deleted from it in the working tree."""
        try:
            if root in self._exports:
                return self._ask_export(root, files, present)
            return self._ask_repo(root, files, present, gone)
        except OSError:
            no_git: dict[_File, _Outcome] = dict.fromkeys(files, Undated(Why.NO_GIT, root))
            return no_git

    def _ask_repo(
        self,
        root: Path,
        files: list[_File],
        present: Callable[[_File], os.stat_result | None],
        gone: dict[_File, list[str]],
    ) -> dict[_File, _Outcome]:
        failed: dict[_File, _Outcome] = dict.fromkeys(files, Undated(Why.GIT_FAILED, root))
        probe, early_status = self._early.pop(root, (None, None))
        ready = self._ready(root, probe)
        if isinstance(ready, Undated):
            return dict.fromkeys(files, ready)
        top, boundary = ready
        done = early_status.result() if early_status is not None else None
        status = done.stdout if done is not None and done.returncode == 0 else None
        if status is None:  # not started, or failed: run here, where a failure is reported
            status = self._git(top, list(_STATUS))
        if status is None:
            return failed
        head, dirty = _parse_status(status)
        repo = _Repo(top, {}, {})
        inside = _inside(top)
        prefixes: dict[str, str | None] = {}
        folders: dict[_File, str] = {}  # the folders asked about, as git names them
        for file in files:
            prefix = prefixes.get(file[0], "?")
            if prefix == "?":
                prefix = prefixes[file[0]] = _tree_name(inside, file[0] + os.sep)
            if prefix is None:  # a symlink led out of the work tree
                repo.outcome[file] = Undated(Why.NOT_TRACKED, top)
            elif not file[1]:
                folders[file] = prefix.rstrip("/")
            else:
                repo.by_file[file] = prefix + file[1]
        wanted = self._history_wanted(top, head, boundary, frozenset(repo.by_file.values()), dirty)
        listed = frozenset(folders.values())
        walk = self._walked(top, head, boundary, wanted, listed)
        if walk is None and head is not None and (wanted or listed):
            return failed
        targets: dict[str, str] = {}
        if walk is not None and walk.links:
            targets = _link_targets(inside, repo.by_file, walk.links, dirty)
            beyond = sorted({name for name in targets.values() if name not in walk.paths} - dirty)
            tracked = self._listed(top, ["--cached"], beyond) if beyond else None
            if tracked:  # a file a link names, which the pass lacks: a pass over it too
                walk = self._walked(top, head, boundary, wanted | tracked, listed)
                if walk is None:
                    return failed
        for file, name in folders.items():
            deleted = _deleted_under(top, name, dirty)
            if deleted:
                gone[file] = deleted
            elif walk is not None:
                outcome = self._last_removal(top, walk, name)
                if outcome is not None:
                    repo.outcome[file] = outcome
        unknown: dict[_File, str] = {}
        parsed: dict[str, dt.datetime] = {}
        dates = walk.dates if walk is not None else {}
        cut = walk.cut if walk is not None else frozenset()
        skipped = walk.skipped if walk is not None else frozenset()
        for file, name in repo.by_file.items():
            text = dates.get(name)
            target = targets.get(name) if targets else None
            if name in dirty or (target is not None and target in dirty):
                repo.outcome[file] = None  # dated by the file the host reads, as it is now
            elif text is None and name in skipped:
                repo.outcome[file] = Undated(Why.ONLY_IGNORED_COMMITS, top)
            elif text is None:
                if present(file) is not None:  # never committed: untracked, or ignored
                    unknown[file] = name
            else:
                date = parsed.get(text)
                if date is None:
                    date = parsed[text] = commit_instant(text)
                repo.outcome[file] = _answer(top, dates, cut, name, date, target, self._bounded)
        if unknown:
            untracked = self._untracked(top, sorted(set(unknown.values())))
            for file, name in unknown.items():
                if untracked is None:
                    repo.outcome[file] = Undated(Why.GIT_FAILED, top)
                elif name in untracked:
                    repo.outcome[file] = None
                else:
                    repo.outcome[file] = Undated(Why.IGNORED, top)
        return repo.outcome

    def _last_removal(self, top: Path, walk: StoredWalk, folder: str) -> _Outcome:
        """When a file last left ``folder`` in the history ``walk`` read (None: never); in a
        shallow clone, only a deletion no older than every commit the clone stops at is sure
        to be the last one (while committer dates run forward): otherwise one before them may
        be newer than any date known, and is no later than those commits' newest date."""
        text = _newest_removal(walk.removed, folder)
        date = None if text is None else commit_instant(text)
        if not walk.boundary:
            return None if date is None else (date, "git")
        bound = commit_instant(walk.bound) if walk.bound and self._bounded else None
        if date is not None and bound is not None and date >= bound:
            return date, "git"
        return Undated(Why.SHALLOW, top, bound)

    def _ready(self, root: Path, early: _Probe | None) -> tuple[Path, frozenset[bytes]] | Undated:
        """The top of the repository holding ``root``, made ready for a history pass (a shallow
        clone's history fetched where allowed, a treeless clone's trees checked), and its shallow
        boundary; or why its files get no date. ``early``: the probe :meth:`start` ran."""
        failed = Undated(Why.GIT_FAILED, root)
        probe = self._probe(root) if early is None else early
        if not isinstance(probe, _Probe):
            return failed if probe is None else probe
        top, shallow_file, tree_filter = probe
        if shallow_file is not None and self._fetch_history and top not in self._fetched:
            self._fetched.add(top)
            if self._fetch(top):
                self._walks.pop(top, None)
                probe = self._probe(root)
                if not isinstance(probe, _Probe):
                    return failed
                top, shallow_file, tree_filter = probe
        if tree_filter and top not in self._trees_here:
            if not self._trees_complete(top):
                return Undated(Why.TREELESS, top)
            self._trees_here.add(top)
        boundary = self._boundary(top, shallow_file)
        return failed if boundary is None else (top, boundary)

    def _ask_export(
        self, root: Path, files: list[_File], present: Callable[[_File], os.stat_result | None]
    ) -> dict[_File, _Outcome]:
        """Each file of a copy of a commit's tree (see :meth:`exported`), dated by that commit's
        history: the same pass as for a work tree, at that commit rather than HEAD, with no
        working-tree state to read (the copy is the commit's)."""
        repository, revision = self._exports[root]
        if _find_root(str(repository), {}) is None:  # no work tree: as for any copied folder
            return dict.fromkeys(files, Undated(Why.NOT_TRACKED, root))
        failed: dict[_File, _Outcome] = dict.fromkeys(files, Undated(Why.GIT_FAILED, root))
        if revision.startswith("-"):  # never an option to git
            return failed
        resolved = self._early_exports.pop(root, None) or self._resolve_export(repository, revision)
        if resolved is None:
            return failed
        probe, head = resolved
        ready = self._ready(repository, probe)
        if isinstance(ready, Undated):
            return dict.fromkeys(files, ready)
        top, boundary = ready
        inside = _inside(root)
        names: dict[_File, str] = {}
        folders: dict[_File, str] = {}  # the folders asked about, as the commit names them
        outcome: dict[_File, _Outcome] = {}
        for file in files:
            prefix = _tree_name(inside, file[0] + os.sep)
            if prefix is None:  # a symlink led out of the copy
                outcome[file] = Undated(Why.NOT_TRACKED, root)
            elif not file[1]:
                folders[file] = prefix.rstrip("/")
            else:
                names[file] = prefix + file[1]
        if not names:
            return outcome
        listed = frozenset(folders.values())
        walk = self._walked(top, head, boundary, frozenset(names.values()), listed)
        if walk is None:
            return failed
        targets = _link_targets(inside, names, walk.links, set()) if walk.links else {}
        beyond = frozenset(targets.values()) - walk.paths
        if beyond:  # a file a link names, which the pass lacks: a pass over it too
            walk = self._walked(top, head, boundary, walk.paths | beyond, listed)
            if walk is None:
                return failed
        for file, name in folders.items():
            removal = self._last_removal(top, walk, name)
            if removal is not None:
                outcome[file] = removal
        for file, name in names.items():
            text = walk.dates.get(name)
            if text is None:
                if present(file) is not None:  # made by the build: no commit holds it
                    outcome[file] = Undated(Why.NOT_TRACKED, root)
                continue
            date = commit_instant(text)
            outcome[file] = _answer(
                top, walk.dates, walk.cut, name, date, targets.get(name), self._bounded
            )
        return outcome

    def _resolve_export(
        self, repository: Path, revision: str, *, quiet: bool = False
    ) -> tuple[_Probe, str] | None:
        """The repository's probe and the commit ``revision`` names, in one ``git rev-parse``;
        None where git cannot say (a failure reported unless ``quiet``)."""
        out = self._git(repository, [*_PROBE, f"{revision}^{{commit}}"], quiet=quiet)
        lines = out.split(b"\n") if out is not None else []
        commit = lines[4].strip().decode() if len(lines) > 4 else ""
        if out is None or not commit:
            return None
        return _parse_probe(out, repository), commit

    def _probe(self, root: Path) -> _Probe | Undated | None:
        """The work tree's top, and its ``shallow`` file when the clone is shallow; or why its
        files get no date where its ``.git`` leads to no repository, which git does not count
        as a failure of its own (None where git failed otherwise, and said so)."""
        proc = self._run(list(_PROBE), root)
        if proc.returncode != 0 and _NOT_A_REPOSITORY in proc.stderr:
            said = proc.stderr.decode("utf-8", "replace").strip()
            return Undated(Why.NO_REPOSITORY, root, said=said)
        out = self._checked(root, "rev-parse", proc)
        return None if out is None else _parse_probe(out, root)

    def _boundary(
        self, top: Path, shallow_file: Path | None, *, quiet: bool = False
    ) -> frozenset[bytes] | None:
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
            top,
            ["show", "-s", "--pretty=raw", "--no-color", *map(os.fsdecode, listed)],
            quiet=quiet,
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
        self._reporter.warning(
            Code.GIT,
            f"{top}: git_fetch_history could not fetch the history this shallow clone lacks "
            f"({self._not_fetched(top, 'git fetch --unshallow', proc)}); pages whose last "
            "change is older than the clone get no lastmod",
        )
        return False

    def _not_fetched(
        self, top: Path, command: str, proc: subprocess.CompletedProcess[bytes]
    ) -> str:
        """Why ``command`` fetched nothing: git's words, unless the clone has no remote at all
        (a host that clones without one), where git speaks of something else (``--filter can
        only be used with the remote configured in extensions.partialclone``). Asked only once
        the fetch failed: a build that fetches runs no other process for it."""
        remotes = self._git(top, ["remote"], quiet=True)
        if remotes is not None and not remotes.strip():
            return (
                "the clone has no remote to fetch from: add the one it was cloned from "
                "with 'git remote add origin URL' before the build"
            )
        message = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
        return f"'{command}' failed: {message}"

    def _trees_complete(self, top: Path) -> bool:
        """Whether a treeless clone holds every commit's tree, fetched in one go first when
        ``git_fetch_history`` allows it.

        ``git log --raw`` needs the tree of every commit it lists; a treeless clone (GitHub's
        advice for CI that needs history but no files, ``filter: tree:0``) has only HEAD's, and
        git fetches each missing one from the remote as it goes: thousands of round trips, a
        build that seems to hang. So the history is not read until the trees are here. The
        check itself never fetches (``rev-list --missing=print``).
        """
        missing = self._git(top, list(_MISSING_TREES))
        if missing is None:
            return False
        if b"?" not in missing:
            return True
        if not self._fetch_history or top in self._trees_fetched:
            return False
        self._trees_fetched.add(top)
        proc = self._run(list(_FETCH_TREES_ARGS), top)
        if proc.returncode != 0:
            why = self._not_fetched(top, "git fetch --refetch --filter=blob:none", proc)
            self._reporter.warning(
                Code.GIT,
                f"{top}: git_fetch_history could not fetch the trees this treeless clone lacks "
                f"({why}); its pages get no lastmod from git",
            )
            return False
        self._walks.pop(top, None)
        again = self._git(top, list(_MISSING_TREES))
        return again is not None and b"?" not in again

    def _walked(
        self,
        top: Path,
        head: str | None,
        boundary: frozenset[bytes],
        wanted: frozenset[str],
        folders: frozenset[str] = frozenset(),
    ) -> StoredWalk | None:
        """The history pass for ``wanted`` at ``head``, and the deletions under ``folders``,
        from the last one where it can be.

        Same HEAD: the last answers stand. HEAD moved: only the commits the old pass lacks are
        read (``git log HEAD ^OLD``, which also covers a rebase or a switch to another branch,
        since the old commits stay valid history) and every chain is followed again. A new
        committed file, a changed shallow boundary, or an old HEAD git no longer has: one full
        pass. A pass :meth:`start` began is taken when it is the one this needs, or one over more
        files (which answers each file as a pass over fewer would).
        """
        started = self._started.pop(top, None)
        if head is None or not (wanted or folders):
            if started is not None:
                started[1].cancel()
            return None
        if started is not None:
            plan, git = started
            if (
                plan.head == head
                and plan.boundary == boundary
                and wanted <= plan.paths
                and _covered(plan.paths, plan.folders, folders)
            ):
                walk = self._run_plan(top, plan, git)
                if walk is not None:
                    return walk
            else:
                git.cancel()
        plan_or_walk = self._plan(top, head, boundary, wanted, folders)
        if isinstance(plan_or_walk, StoredWalk):
            self._walks[top] = plan_or_walk
            return plan_or_walk
        return self._run_plan(top, plan_or_walk, None)

    def _history_wanted(
        self,
        top: Path,
        head: str | None,
        boundary: frozenset[bytes],
        names: frozenset[str],
        dirty: set[str],
    ) -> frozenset[str]:
        """The names the history pass must cover: all of them, less those no pass can answer
        when leaving them out spares one.

        A pass over the history answers a file only if HEAD's tree holds it. Git's status names
        every tracked file with uncommitted changes (dated from the working tree whatever the
        pass says), and a file the index does not hold, unless the status names it, is not in
        HEAD's tree either: an untracked page, or a generated or ignored one (``autosummary``,
        ``apidoc``). Such a file the last pass never covered would cost a whole new pass for
        answers known to be empty, and a first build with generated sources would throw away
        the pass begun while the host rendered; one ``git ls-files`` settles it instead. Any
        tracked file the last pass lacks still means a new pass, over every name.
        """
        if head is None:
            return names
        known = self._known_paths(top, head, boundary)
        missing = names - known if known else frozenset()
        if not missing:
            return names
        unstaged = sorted(name for name in missing if name not in dirty)
        tracked = self._listed(top, ["--cached"], unstaged) if unstaged else set()
        if tracked is None:
            return names
        if tracked:  # a new pass, whatever is left out: it covers the files status names too
            return names.difference(unstaged).union(tracked)
        return names - missing

    def _known_paths(self, top: Path, head: str, boundary: frozenset[bytes]) -> frozenset[str]:
        """The files the pass begun early, or the stored one, covers (none if neither can do)."""
        started = self._started.get(top)
        if started is not None and started[0].head == head and started[0].boundary == boundary:
            return started[0].paths
        walk = self._stored(top, boundary)
        return frozenset() if walk is None else walk.paths

    def _plan(
        self,
        top: Path,
        head: str,
        boundary: frozenset[bytes],
        wanted: frozenset[str],
        folders: frozenset[str] = frozenset(),
    ) -> StoredWalk | _Plan:
        """The stored walk when it answers ``wanted`` and ``folders`` at ``head``, else the
        pass to run."""
        walk = self._walks.get(top) or self._cache.load(top, self._format)
        usable = walk is not None and walk.boundary == boundary
        if (
            walk is not None
            and usable
            and wanted <= walk.paths
            and _covered(walk.paths, walk.folders, folders)
        ):
            if walk.head == head:
                return walk
            # The new commits must be diffed as the stored ones were: -m if git was old then.
            self._first_parent_diffs &= walk.first_parent_diffs
            old = walk.commits
            if old is None:
                old = self._cache.load_commits(top, self._format, walk)
            if old is not None and self._first_parent_diffs == walk.first_parent_diffs:
                revisions = (head, f"^{walk.head}")
                return _Plan(
                    head, boundary, walk.paths, revisions, old, walk.first_parent_diffs,
                    walk.folders,
                )  # fmt: skip
        if walk is not None and usable:
            wanted, folders = wanted | walk.paths, folders | walk.folders
        return _Plan(head, boundary, wanted, (head,), None, folders=folders)

    def _run_plan(self, top: Path, plan: _Plan, started: BackgroundGit | None) -> StoredWalk | None:
        """Carry out ``plan``, from the output of the git process :meth:`start` ran for it if
        there is one; a pass that only adds commits falls back to a full one if it fails."""
        commits: list[Commit] | None = None
        finished = started.finish() if started is not None else None
        if finished is not None:
            done, output = finished
            expected = self._log_args(plan.revisions, plan.paths, plan.folders)
            with output:  # read a chunk at a time: a long history prints tens of megabytes
                if done.returncode == 0 and done.args[1:] == expected:
                    with contextlib.suppress(OSError):
                        commits = parse_log(output, plan.paths)
        if commits is None:  # not started, failed or unreadable: run here, reporting failures
            commits = self._log(top, plan, quiet=plan.old is not None)
        if plan.old is not None:
            # git older than 2.31 refused --diff-merges just now: these commits were diffed
            # with -m, unlike the old ones, so only a full pass gives true answers.
            if commits is not None and self._first_parent_diffs == plan.first_parent_diffs:
                return self._keep(top, self._answer(plan, commits + plan.old))
            full = _Plan(
                plan.head, plan.boundary, plan.paths, (plan.head,), None, folders=plan.folders
            )
            return self._run_plan(top, full, None)
        if commits is None:
            return None
        return self._keep(top, self._answer(plan, commits))

    def _keep(self, top: Path, walk: StoredWalk) -> StoredWalk:
        self._walks[top] = walk
        self._cache.save(top, self._format, walk)
        return walk

    def _answer(self, plan: _Plan, commits: list[Commit]) -> StoredWalk:
        head, boundary, paths = plan.head, plan.boundary, plan.paths
        ignored = self._ignored
        found = last_changes(
            commits,
            head.encode(),
            paths,
            first_parent_diffs=self._first_parent_diffs,
            ignored=ignored,
        )
        cut = frozenset(path for path, commit in found.items() if commit.sha in boundary)
        skipped = (
            frozenset(
                path for path, commit in found.items() if path not in cut and commit.sha in ignored
            )
            if ignored  # most sites ignore no commit: no question asked per file
            else frozenset()
        )
        dates = {
            path: commit.date.decode() for path, commit in found.items() if path not in skipped
        }
        kept = reachable(commits, head.encode())
        # The last change leaves the path as HEAD holds it: its mode says whether it is a link.
        links = frozenset(
            path
            for path, commit in found.items()
            if commit.changes.get(path, b"").startswith(_LINK_MODE)
        )
        removed, bound = _removals(kept, boundary, ignored)
        return StoredWalk(
            head, boundary, paths, dates, cut, kept, self._first_parent_diffs, links,
            folders=plan.folders, removed=removed, bound=bound, skipped=skipped,
        )  # fmt: skip

    def _log(self, top: Path, plan: _Plan, *, quiet: bool) -> list[Commit] | None:
        """Parsed commits of the plan's revisions; None if git failed (warned unless
        ``quiet``)."""
        args = (plan.revisions, plan.paths, plan.folders)
        proc = self._run(self._log_args(*args), top)
        if proc.returncode != 0 and self._first_parent_diffs and b"diff-merges" in proc.stderr:
            self._first_parent_diffs = False  # git < 2.31: use -m from now on
            proc = self._run(self._log_args(*args), top)
        if quiet and proc.returncode != 0:
            return None
        out = self._checked(top, "log", proc)
        return None if out is None else parse_log(out, plan.paths)

    def _log_args(
        self, revisions: Sequence[str], paths: frozenset[str], folders: frozenset[str]
    ) -> list[str]:
        return log_args(
            revisions,
            paths,
            folders,
            first_parent_diffs=self._first_parent_diffs,
            date_format=self._format,
        )

    def _untracked(self, top: Path, names: list[str]) -> set[str] | None:
        """Which of ``names`` are untracked files git does not ignore (None if git failed)."""
        return self._listed(top, ["--others", "--exclude-standard"], names)

    def _listed(
        self, top: Path, which: list[str], names: list[str], *, quiet: bool = False
    ) -> set[str] | None:
        """Which of ``names`` ``git ls-files`` lists with ``which`` (None if git failed).

        Asked in batches, so that tens of thousands of new files never exceed what one command
        line may hold.
        """
        found: set[str] = set()
        for batch in _batches(names):
            out = self._git(
                top,
                ["--literal-pathspecs", "-c", "core.quotepath=off", "ls-files", "-z",
                 *which, "--", *batch],
                quiet=quiet,
            )  # fmt: skip
            if out is None:
                return None
            found.update(os.fsdecode(name) for name in out.split(b"\0") if name)
        return found

    def _is_submodule(self, top: Path, path: str) -> bool:
        """Whether the work tree at ``top`` registers ``path`` as a submodule (a gitlink).

        Asked only of a nested repository whose ``.git`` is a folder (see
        :mod:`.nested_repos`), and remembered for the process: a rebuild asks no git process
        again, where a build should cost none it does not need."""
        known = self._submodules.get((top, path))
        if known is None:
            out = self._git(
                top, ["--literal-pathspecs", "ls-files", "--stage", "-z", "--", path], quiet=True
            )
            known = self._submodules[top, path] = out is not None and out.startswith(b"160000 ")
        return known

    def _git(self, cwd: Path, args: list[str], *, quiet: bool = False) -> bytes | None:
        """Run git; on failure warn (unless it is merely not a repository, or ``quiet``) and
        return None."""
        proc = self._run(args, cwd)
        if quiet:
            return proc.stdout if proc.returncode == 0 else None
        return self._checked(cwd, _git_command(args), proc)

    def _checked(
        self, cwd: Path, command: str, proc: subprocess.CompletedProcess[bytes]
    ) -> bytes | None:
        if proc.returncode == 0:
            return proc.stdout
        if b"dubious ownership" in proc.stderr:
            self._reporter.warning(Code.GIT, _refused(cwd, proc.stderr))
        elif _NOT_A_REPOSITORY not in proc.stderr:
            message = proc.stderr.decode("utf-8", "replace").strip() or f"exit {proc.returncode}"
            self._reporter.warning(
                Code.GIT,
                f"{cwd}: 'git {command}' failed, so its files get no lastmod from git: {message}",
            )
        return None


# -- helpers --------------------------------------------------------------------------------------


class _Scope(NamedTuple):
    """The repositories (or, outside git, the folder) that hold the site's own sources, and
    the repositories nested in them that count with them."""

    repositories: frozenset[Path]
    folder: str | None
    nested: NestedRepositories | None = None

    @classmethod
    def of(
        cls,
        sources: Iterable[FilePath],
        roots: dict[str, Path | None],
        parents: Mapping[FilePath, str],
        real: Mapping[str, str],
        nested: NestedRepositories | None = None,
    ) -> _Scope:
        """``parents`` and ``real`` are what the lookup already knows: files' absolute folders,
        and those folders' real paths."""
        repositories: set[Path] = set()
        loose: set[str] = set()
        folders = {
            parents.get(source) or os.path.dirname(os.path.abspath(source))  # noqa: PTH100, PTH120
            for source in sources
        }
        for parent in folders:
            try:
                folder = real.get(parent) or os.path.realpath(parent)
            except (OSError, ValueError):
                continue
            root = _find_root(folder, roots)
            if root is not None:
                repositories.add(root)
            else:
                loose.add(folder)
        common = os.path.commonpath(sorted(loose)) if loose else None
        return cls(frozenset(repositories), common, nested)

    def holds(self, folder: str, root: Path | None) -> bool:
        """Whether files in ``folder`` (resolved), in repository ``root``, are the site's."""
        if root is not None:
            if self.nested is None:
                return root in self.repositories
            return self.nested.dates_files_of(root, self.repositories)
        return self.folder is not None and (
            folder == self.folder or folder.startswith(self.folder.rstrip(os.sep) + os.sep)
        )


class _OnDisk:
    """Each file's status from the file system, asked once per lookup, and only of the files
    whose presence or time decides their answer."""

    def __init__(self) -> None:
        self._seen: dict[_File, os.stat_result | None] = {}

    def regular(self, file: _File) -> os.stat_result | None:
        """The status of the regular file (a link followed) at ``file``; None if there is none."""
        if file in self._seen:
            return self._seen[file]
        folder, name = file
        try:
            info: os.stat_result | None = os.stat(os.path.join(folder, name))  # noqa: PTH116, PTH118
        except (OSError, ValueError):
            info = None
        if info is not None and not stat.S_ISREG(info.st_mode):
            info = None
        self._seen[file] = info
        return info


class _Probe(NamedTuple):
    """The work tree's top, its ``shallow`` file in a shallow clone, and whether it is a partial
    clone whose filter leaves trees out (``tree:0``): ``git log`` would fetch them one by one."""

    top: Path
    shallow_file: Path | None
    tree_filter: bool


def _parse_probe(out: bytes, cwd: Path) -> _Probe:
    """What ``git rev-parse`` said for :data:`_PROBE`, run in ``cwd`` (its paths are relative
    to it). git prints the shallow file's path only for a shallow clone; the configuration file
    is read here, a few hundred bytes, rather than asked of another git process every build."""
    lines = out.split(b"\n")
    top = Path(os.path.realpath(os.fsdecode(lines[0])))
    config = Path(os.fsdecode(lines[3])) if len(lines) > 3 else Path(".git/config")
    try:
        tree_filter = bool(_TREE_FILTER.search((cwd / config).read_bytes()))
    except OSError:
        tree_filter = False
    if lines[1:2] != [b"true"]:
        return _Probe(top, None, tree_filter)
    shallow = Path(os.fsdecode(lines[2])) if len(lines) > 2 else Path(".git/shallow")
    return _Probe(top, shallow if shallow.is_absolute() else cwd / shallow, tree_filter)


def _refused(cwd: Path, stderr: bytes) -> str:
    """What to say when git will not read a repository that another user owns.

    Since 2.35.2, git refuses such a repository (its config could make git run commands) unless
    ``safe.directory`` names it: the usual case of a build in a container, whose user is not the
    owner of the mounted checkout. The fix is the build user's to make, not ours: setting it
    for them would lift that protection. Said in one line, with the folder git asks for.
    """
    text = stderr.decode("utf-8", "replace")
    asked = _SAFE_DIRECTORY.search(text)
    folder = asked.group(1).strip() if asked else str(cwd)
    return (
        f"{cwd}: git will not read this repository, which belongs to another user than the "
        'one running the build (git\'s "dubious ownership" check), so its files get no '
        f"lastmod from git; as the build's user, run 'git config --global --add "
        f"safe.directory {folder}' to let git read it"
    )


_SAFE_DIRECTORY: Final = re.compile(r"--add safe\.directory (.+)")


def _source_date_epoch() -> int | None:
    try:
        return int(os.environ["SOURCE_DATE_EPOCH"])
    except (KeyError, ValueError):
        return None


_ARGUMENTS_BUDGET: Final = 24 * 1024
"""Bytes of file names per git command line: under every system's limit (Windows' is the
smallest, 32,767 characters for the whole line)."""


def _batches(names: list[str]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for name in names:
        if batch and size + len(name) + 1 > _ARGUMENTS_BUDGET:
            yield batch
            batch, size = [], 0
        batch.append(name)
        size += len(name.encode("utf-8", "surrogateescape")) + 1
    if batch:
        yield batch


def _inside(top: Path) -> str:
    """The work tree's top as the start of the paths inside it."""
    return str(top).rstrip(os.sep) + os.sep


def _tree_name(inside: str, path: str) -> str | None:
    """``path`` as git names it in the work tree ``inside`` (:func:`_inside`), None outside."""
    return path[len(inside) :].replace(os.sep, "/") if path.startswith(inside) else None


def _tracked_and_named(top: Path, listed: bytes) -> tuple[set[str], set[str]]:
    """The files ``git ls-files -s`` listed and the files its links name in the same work
    tree; apart, the folders its links name there."""
    inside = _inside(top)
    names: set[str] = set()
    folders: set[str] = set()
    for entry in listed.split(b"\0"):
        info, tab, name = entry.partition(b"\t")
        if not tab:
            continue
        path = os.fsdecode(name)
        names.add(path)
        if info.startswith(_LINK_MODE):
            real = os.path.realpath(os.path.join(top, path))  # noqa: PTH118
            named = _tree_name(inside, real)
            if named is not None:
                (folders if os.path.isdir(real) else names).add(named)  # noqa: PTH112
    return names, folders


def _link_targets(
    inside: str, by_file: dict[_File, str], links: frozenset[str], dirty: set[str]
) -> dict[str, str]:
    """The file each committed link among ``by_file`` names, where the same work tree holds it
    (a link out of it keeps only its own date, as before links were followed)."""
    targets: dict[str, str] = {}
    for file, name in by_file.items():
        if name in links and name not in dirty:
            target = _tree_name(inside, os.path.realpath(os.path.join(*file)))  # noqa: PTH118
            if target is not None and target != name:
                targets[name] = target
    return targets


def _answer(
    top: Path,
    dates: Mapping[str, str],
    cut: frozenset[str],
    name: str,
    date: dt.datetime,
    target: str | None,
    bounded: bool,
) -> _Outcome:
    """What the pass says of committed file ``name`` (last changed at ``date``): its date, or a
    bound where that change is a shallow boundary (where dates are ``bounded``, see
    :class:`Undated`); for a link, with the file it names (``target``) when the pass knows it
    (see :func:`_newest`)."""
    named = dates.get(target) if target is not None else None
    if target is not None and named is not None:
        return _newest(
            top, (date, name in cut), (commit_instant(named), target in cut), bounded=bounded
        )
    if name in cut:
        return Undated(Why.SHALLOW, top, date if bounded else None)
    return date, "git"


def _covered(paths: frozenset[str], folders: frozenset[str], asked: frozenset[str]) -> bool:
    """Whether a pass over ``paths`` and ``folders`` sees every deletion under the ``asked``
    folders (its pathspecs hold each of them)."""
    if not asked or asked <= folders:
        return True
    specs = pathspecs(paths, folders)
    return all(covers(specs, folder) for folder in asked)


def _removals(
    commits: Sequence[Commit], boundary: frozenset[bytes], ignored: IgnoredCommits = NO_COMMITS
) -> tuple[dict[str, str], str]:
    """Each folder ``commits`` deleted a file from, with the newest such commit's date, and
    the newest date of the ``boundary`` commits among them ("" for none), all as git wrote
    them. Every commit HEAD reaches counts, not only those ``git log -1`` would follow: a
    deletion a side branch brought in changed what the folder holds when it was merged, a
    commit no older, and one that a merge undid dates a listing later than needed, never
    earlier. An ``ignored`` commit's deletions do not count, as its other changes do not."""
    newest: dict[str, tuple[dt.datetime, str]] = {}
    bound: tuple[dt.datetime, str] | None = None
    for commit in commits:
        if not commit.removed and commit.sha not in boundary:
            continue
        text = commit.date.decode()
        instant = commit_instant(text)
        for folder in () if ignored and commit.sha in ignored else commit.removed:
            known = newest.get(folder)
            if known is None or instant > known[0]:
                newest[folder] = (instant, text)
        if commit.sha in boundary and (bound is None or instant > bound[0]):
            bound = (instant, text)
    return {folder: text for folder, (_, text) in newest.items()}, "" if bound is None else bound[1]


def _newest_removal(removed: Mapping[str, str], folder: str) -> str | None:
    """The date, as git wrote it, a file last left ``folder`` or a folder in it, or None."""
    found: tuple[dt.datetime, str] | None = None
    for name, text in removed.items():
        if folder and name != folder and not name.startswith(folder + "/"):
            continue
        instant = commit_instant(text)
        if found is None or instant > found[0]:
            found = (instant, text)
    return None if found is None else found[1]


def _deleted_under(top: Path, folder: str, dirty: set[str]) -> list[str]:
    """The files under ``folder`` deleted in the working tree (changed, by git's status, and
    gone from the disk), as paths on disk."""
    inside = folder + "/" if folder else ""
    deleted = []
    for name in dirty:
        if name.startswith(inside):
            path = os.path.join(top, name)  # noqa: PTH118
            if not os.path.lexists(path):
                deleted.append(path)
    return deleted


def _deleted_in_work_tree(
    paths: list[str], built: BuildWindow | None, *, use_mtime: bool, epoch: int | None
) -> FileDate | Undated:
    """When files were deleted in the working tree, as far as a file time tells: the time of
    the folder each left (the nearest that is still there), the newest of them, as a
    working-tree change is dated by its file's time. Not where ``mtime`` is not wanted, nor
    where that time is one the build gave the folder by writing a file there."""
    if not use_mtime:
        return Undated(Why.UNCOMMITTED)
    newest: int | None = None
    for path in paths:
        folder = os.path.dirname(path)  # noqa: PTH120
        while True:
            try:
                mtime_ns = os.stat(folder).st_mtime_ns  # noqa: PTH116
                break
            except OSError:
                parent = os.path.dirname(folder)  # noqa: PTH120
                if parent == folder:
                    return Undated(Why.UNCOMMITTED)
                folder = parent
        if built is not None and built.holds(mtime_ns):
            return Undated(Why.UNCOMMITTED)
        newest = mtime_ns if newest is None else max(newest, mtime_ns)
    if newest is None:
        return Undated(Why.UNCOMMITTED)
    seconds = newest // 1_000_000_000
    if epoch is not None:
        seconds = min(seconds, epoch)
    return dt.datetime.fromtimestamp(seconds, dt.timezone.utc), "mtime"


_ISO_OFFSET: Final = re.compile(r"(.*[0-9])([+-])([0-9]{2}):?([0-9]{2})")


def commit_instant(text: str) -> dt.datetime:
    """A commit's date as ``git log`` prints it in strict ISO 8601 (``%cI``, ``%aI``).

    Old and imported histories hold commits with a time zone no clock has (``+9999``, which
    ``git fsck`` calls badTimezone); git prints their local time with that offset, which Python
    refuses. Taking the offset back off the local time gives the commit's instant all the same,
    in UTC.
    """
    try:
        return dt.datetime.fromisoformat(text)
    except ValueError:
        found = _ISO_OFFSET.fullmatch(text)
        if found is None:
            raise
        local = dt.datetime.fromisoformat(found[1])
        offset = dt.timedelta(hours=int(found[3]), minutes=int(found[4]))
        instant = local - offset if found[2] == "+" else local + offset
        return instant.replace(tzinfo=dt.timezone.utc)


def _newest(
    top: Path, link: tuple[dt.datetime, bool], named: tuple[dt.datetime, bool], *, bounded: bool
) -> _Outcome:
    """A link's page is the file it names: it changed when either last changed, so the newer
    date. A date traced to a shallow boundary only bounds the true one from above (and only
    where dates are ``bounded``): it decides nothing unless the other date is exact and no
    older (as for a page's several sources)."""
    (first, first_cut), (second, second_cut) = link, named
    if not first_cut and not second_cut:
        return max(first, second), "git"
    if not bounded:
        return Undated(Why.SHALLOW, top)
    if first_cut and second_cut:
        return Undated(Why.SHALLOW, top, max(first, second))
    exact, bound = (second, first) if first_cut else (first, second)
    return (exact, "git") if exact >= bound else Undated(Why.SHALLOW, top, bound)


def _find_root(directory: str, seen: dict[str, Path | None]) -> Path | None:
    """The nearest directory holding ``.git``: found by stat, so no git process per directory.

    Strings rather than pathlib, like the lookup loop that calls it for every file.
    """
    climbed: list[str] = []
    current = directory
    while current not in seen:
        climbed.append(current)
        if os.path.exists(os.path.join(current, ".git")):  # noqa: PTH110, PTH118
            seen[current] = Path(current)
            break
        parent = os.path.dirname(current)  # noqa: PTH120
        if parent == current:
            seen[current] = None
            break
        current = parent
    found = seen[current]
    for step in climbed:
        seen[step] = found
    return found


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
