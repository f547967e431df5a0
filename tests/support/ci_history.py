"""One history, cloned as CI clones it, for every host's shallow-clone test.

A site is rarely built from a full clone: GitHub Actions fetches one commit, GitLab and Read the
Docs a few dozen. This module writes a small history with a merge and a commit near midnight in a
UTC-5 zone, over four pages whose sources a host test names, and says for each clone depth which
pages changed *inside* the clone's history: those must be dated exactly, the others not at all.

History, oldest first (first parent down the left)::

    add      2024-01-05 every page
    |  \\
    |   feature: "edited"  2024-02-10 12:00+01:00   (a branch)
    main: "main"           2024-02-20 09:00Z
    |  /
    merge                  2024-03-01 08:00Z        (takes "edited" from the branch)
    readme                 2024-03-10 10:00Z        (touches no page)
    late: "late"           2024-04-01 23:30-05:00   (HEAD; 04:30 UTC the next day)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from tests.support.gitrepo import GitRepo

__all__ = ["DEPTHS", "ROLES", "CiHistory"]

ROLES = ("untouched", "edited", "main", "late")
"""What happens to each page: never changed, changed on a merged branch, on main, at HEAD."""

DEPTHS: Mapping[str, tuple[int, frozenset[str]]] = {
    # clone depth, and the roles of the pages whose last change the clone's history proves
    "depth 1": (1, frozenset()),  # HEAD is the boundary: it may have changed anything
    "boundary touches no page": (2, frozenset({"late"})),
    "deeper than history": (50, frozenset(ROLES)),  # not shallow at all
}


@dataclass(frozen=True)
class CiHistory:
    """The origin repository, the source path of each role, and each source's true date."""

    origin: GitRepo
    sources: Mapping[str, str]
    truth: Mapping[str, str]  # role -> its last commit's instant as a sitemap writes it

    @classmethod
    def write(
        cls,
        repo: GitRepo,
        sources: Mapping[str, str],
        page: Callable[[str, str], str],
        *,
        site_files: Mapping[str, str],
    ) -> CiHistory:
        """Commit ``site_files`` (config) and one page per role at ``sources[role]``.

        ``page(role, version)`` gives a page's text; the version changes with each edit.
        """
        assert set(sources) == set(ROLES), sorted(sources)
        for relpath, text in site_files.items():
            repo.write(relpath, text)
        for role, relpath in sources.items():
            repo.write(relpath, page(role, "first"))
        repo.commit("add every page", "2024-01-05T10:00:00+00:00")
        repo.checkout("feature", create=True)
        repo.write(sources["edited"], page("edited", "on a branch"))
        repo.commit("edit on a branch", "2024-02-10T12:00:00+01:00")
        repo.checkout("main")
        repo.write(sources["main"], page("main", "on main"))
        repo.commit("edit on main", "2024-02-20T09:00:00+00:00")
        repo.merge("feature", "2024-03-01T08:00:00+00:00")
        repo.write("README.txt", "not a page\n")
        repo.commit("readme", "2024-03-10T10:00:00+00:00")
        repo.write(sources["late"], page("late", "near midnight"))
        repo.commit("late edit", "2024-04-01T23:30:00-05:00")
        # ``git log -1 --format=%cI`` in the full history, with UTC written ``Z`` as W3C allows.
        truth = {
            role: repo.log_date(relpath).replace("+00:00", "Z") for role, relpath in sources.items()
        }
        return cls(repo, dict(sources), truth)
