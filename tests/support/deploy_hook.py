"""A server that builds what is pushed to it: a bare repository whose ``post-receive`` hook
checks the pushed branch out apart from the repository, then builds the site there.

The checkout holds no ``.git``; the hook names the repository and the checkout in ``GIT_DIR``
and ``GIT_WORK_TREE``, as git's own commands there need them. The push is real (``git push``
runs the hook as a server would), and its output holds everything the hook printed.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.support.gitrepo import GitRepo, git_env
from tests.support.hosts import child_env, output

__all__ = ["push_to_deploy_hook"]

HOOK = """#!/bin/sh
# post-receive: check the pushed branch out beside the repository and build the site there.
set -e
export GIT_DIR="$(pwd)"{work_tree}
git checkout -q -f {branch}
cd "{tree}"
{build}
"""


def push_to_deploy_hook(
    origin: GitRepo, server: Path, build: list[str], *, work_tree_in_config: bool = False
) -> tuple[Path, str]:
    """Push ``origin``'s current branch to a new bare repository in ``server`` whose hook runs
    the shell commands ``build`` in the checkout; the checkout's path, and what the push
    printed (the hook's output included). Fails if the push, so the hook, fails.

    The hook names the checkout in ``GIT_WORK_TREE``, or with ``work_tree_in_config``, the
    repository's config does (``core.worktree``, the other push-to-deploy recipe, which also
    makes the repository non-bare and lets a push update its checked-out branch)."""
    bare, tree = server / "site.git", server / "site"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], env=git_env(), check=True)
    tree.mkdir(parents=True)
    if work_tree_in_config:
        for key, value in (("core.worktree", str(tree)), ("core.bare", "false"),
                           ("receive.denyCurrentBranch", "ignore")):  # fmt: skip
            subprocess.run(["git", "--git-dir", str(bare), "config", key, value],
                           env=git_env(), check=True)  # fmt: skip
    branch = origin.current_branch()
    hook = bare / "hooks" / "post-receive"
    work_tree = "" if work_tree_in_config else f' GIT_WORK_TREE="{tree}"'
    hook.write_text(
        HOOK.format(tree=tree, branch=branch, build="\n".join(build), work_tree=work_tree),
        "utf-8",
    )
    hook.chmod(0o755)
    push = subprocess.run(
        ["git", "push", "-q", str(bare), branch], cwd=origin.root,
        env=child_env(base=git_env()), capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert push.returncode == 0, output(push)
    assert not (tree / ".git").exists()
    return tree, output(push)
