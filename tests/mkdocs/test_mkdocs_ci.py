"""``mkdocs build`` in the clones CI makes: shallow, file times of the checkout."""

from __future__ import annotations

import datetime as dt
import shlex
import shutil
import sys
from pathlib import Path

import pytest
import yaml

from tests.support.ci_history import DEPTHS, CiHistory
from tests.support.deploy_hook import push_to_deploy_hook
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.mkdocs

BASE = "https://example.org/"
SOURCES = {
    "untouched": "docs/index.md",
    "edited": "docs/edited.md",
    "main": "docs/main.md",
    "late": "docs/late.md",
}
URLS = {
    "untouched": BASE,
    "edited": BASE + "edited/",
    "main": BASE + "main/",
    "late": BASE + "late/",
}
CONFIG = {"site_name": "CI", "site_url": BASE, "plugins": ["sitemap"]}


def page(role: str, version: str) -> str:
    return f"# {role.title()}\n\nThe {role} page, {version}.\n"


@pytest.mark.parametrize("case", list(DEPTHS))
def test_a_shallow_clone_dates_what_its_history_proves(
    git_repo: GitRepo, tmp_path: Path, case: str
) -> None:
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    depth, exact = DEPTHS[case]
    clone = history.origin.clone(tmp_path / "checkout", depth=depth)
    log = output(mkdocs_build(clone.root))  # the real command line, as a CI step runs it
    entries = {
        e.loc: e.lastmod
        for e in check_sitemap_file(clone.root / "site" / "sitemap.xml", BASE + "sitemap.xml")
    }
    expected = {URLS[role]: history.truth[role] if role in exact else None for role in URLS}
    assert entries == expected
    today = dt.datetime.now(dt.timezone.utc).date().isoformat()
    assert not any(lastmod and lastmod.startswith(today) for lastmod in entries.values())
    warnings = [
        line for line in log.splitlines() if line.startswith("WARNING") and "sitemap" in line
    ]
    if exact == set(URLS):
        assert warnings == []
    else:
        [warning] = warnings
        undated = len(URLS) - len(exact)
        assert f"sitemap: {undated} pages have no lastmod: " in warning
        assert "fetch-depth: 0" in warning


def test_a_partial_clone_dates_every_page_without_fetching_old_contents(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """``actions/checkout`` with ``filter: blob:none`` (and ``git_fetch_history``, which leaves
    one) makes a partial clone: the whole history, without old file contents, which git fetches
    from the remote when a command needs one. Dating reads commits and trees only: every page is
    dated exactly with the remote gone, where any such fetch would fail."""
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    history.origin.git("config", "uploadpack.allowFilter", "true")
    checkout = history.origin.clone(tmp_path / "checkout", options=["--filter=blob:none"])
    clone = checkout.root
    missing = checkout.git("rev-list", "--objects", "--missing=print", "HEAD").split()
    assert any(line.startswith("?") for line in missing)  # old contents were left behind
    checkout.git("remote", "set-url", "origin", (tmp_path / "gone").as_uri())
    log = output(mkdocs_build(clone))
    entries = check_sitemap_file(clone / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.lastmod for e in entries} == {URLS[r]: history.truth[r] for r in URLS}
    assert [line for line in log.splitlines() if line.startswith("WARNING")] == []
    assert checkout.git("rev-list", "--objects", "--missing=print", "HEAD").split() == missing


@pytest.mark.parametrize("fetch", [False, True], ids=["option off", "git_fetch_history"])
def test_a_shallow_clone_without_a_remote_is_told_what_to_do(
    git_repo: GitRepo, tmp_path: Path, fetch: bool
) -> None:
    """A host that clones one commit without a remote: with ``git_fetch_history`` the fetch
    fails, and its warning says the clone has no remote, naming it; the warning about the
    undated pages advises the option only where it is off."""
    config = {**CONFIG, "plugins": [{"sitemap": {"git_fetch_history": fetch}}]}
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(config)}
    )
    clone = history.origin.clone(tmp_path / "checkout", depth=1)
    clone.git("remote", "remove", "origin")
    log = output(mkdocs_build(clone.root))
    entries = check_sitemap_file(clone.root / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.lastmod for e in entries} == dict.fromkeys(URLS.values())
    warnings = [line for line in log.splitlines() if line.startswith("WARNING")]
    [shallow] = [line for line in warnings if "pages have no lastmod" in line]
    assert "fetch-depth: 0" in shallow
    assert ("or set the git_fetch_history option" in shallow) is not fetch
    if not fetch:
        assert warnings == [shallow]
        return
    assert "the git_fetch_history option is on, but its fetch failed" in shallow
    [failed] = [line for line in warnings if line != shallow]
    assert f"{clone.root.resolve()}: git_fetch_history could not fetch" in failed
    assert "the clone has no remote to fetch from" in failed
    assert "partialclone" not in failed


def test_a_cache_from_a_commit_a_partial_clone_never_fetched_fetches_nothing(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A pull request's job builds the test merge commit the forge makes and saves the cache;
    the push build after it, in a partial clone of the branch that never fetched that commit,
    restores the cache. Asked what is new since the cached HEAD, the clone's git would fetch
    that commit from the remote, at build time. Nothing is fetched: the build reads the whole
    history once, and dates every page as without the cache."""
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    origin = history.origin
    origin.git("config", "uploadpack.allowFilter", "true")
    origin.checkout("pull-request", create=True)
    origin.write(SOURCES["untouched"], page("untouched", "in a pull request"))
    origin.commit("pull request", "2024-05-01T10:00:00+00:00")
    origin.checkout("main")
    merge = origin.merge("pull-request", "2024-05-02T10:00:00+00:00")
    origin.git("update-ref", "refs/pull/1/merge", merge)
    origin.git("reset", "-q", "--hard", "HEAD~1")
    origin.git("branch", "-q", "-D", "pull-request")
    where = tmp_path / "checkout"  # the same folder for both jobs, as on a CI runner
    pull_request = origin.clone(where, options=["--filter=blob:none"])
    pull_request.git("fetch", "-q", "origin", "+refs/pull/1/merge:refs/remotes/pull/1/merge")
    pull_request.checkout("refs/remotes/pull/1/merge")
    mkdocs_build(where)
    (where / ".cache").rename(tmp_path / "saved-cache")
    shutil.rmtree(where)
    push = origin.clone(where, options=["--filter=blob:none"])
    (tmp_path / "saved-cache").rename(where / ".cache")
    requests = tmp_path / "requests"
    upload_pack = f"echo request >> {shlex.quote(str(requests))}; git-upload-pack"
    push.git("config", "remote.origin.uploadpack", upload_pack)
    log = output(mkdocs_build(where))
    assert not requests.exists()  # the remote was never asked for anything
    entries = check_sitemap_file(where / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.lastmod for e in entries} == {URLS[r]: history.truth[r] for r in URLS}
    assert [line for line in log.splitlines() if line.startswith("WARNING")] == []
    unfetched = {"GIT_NO_LAZY_FETCH": "1", "GIT_ALLOW_PROTOCOL": ""}
    assert push.run("cat-file", "-e", merge, env=unfetched, check=False).returncode != 0


@pytest.mark.parametrize("fetch", [False, True], ids=["as cloned", "git_fetch_history"])
def test_a_treeless_clone_is_not_read_tree_by_tree_from_the_remote(
    git_repo: GitRepo, tmp_path: Path, fetch: bool
) -> None:
    """``filter: tree:0`` (GitHub's advice for CI that needs history but not files) keeps only
    HEAD's tree: ``git log`` would fetch every other one from the remote as it went, a round
    trip each. As cloned, nothing is fetched: no page is dated, and one warning gives the fix
    (strict mode fails). With ``git_fetch_history`` the trees come in one fetch, and every page
    is dated exactly; the next build needs the remote no more."""
    config = {**CONFIG, "plugins": [{"sitemap": {"git_fetch_history": fetch}}]}
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(config)}
    )
    history.origin.git("config", "uploadpack.allowFilter", "true")
    checkout = history.origin.clone(tmp_path / "checkout", options=["--filter=tree:0"])
    missing = checkout.git("rev-list", "--objects", "--missing=print", "--filter=tree:1", "HEAD")
    assert "?" in missing  # older commits' trees were left behind
    build = mkdocs_build(checkout.root, "--strict", check=False)
    warnings = [line for line in output(build).splitlines() if line.startswith("WARNING")]
    if not fetch:
        assert build.returncode != 0  # --strict counts the warning, and writes no sitemap
        assert not (checkout.root / "site" / "sitemap.xml").exists()
        [warning] = warnings
        assert "treeless clone" in warning, warning
        assert "filter: blob:none" in warning, warning
        mkdocs_build(checkout.root)  # without --strict: every page, none dated
        entries = check_sitemap_file(checkout.root / "site" / "sitemap.xml", BASE + "sitemap.xml")
        assert {e.loc: e.lastmod for e in entries} == dict.fromkeys(URLS.values())
        after = checkout.git("rev-list", "--objects", "--missing=print", "--filter=tree:1", "HEAD")
        assert after == missing  # nothing was fetched
        return
    entries = check_sitemap_file(checkout.root / "site" / "sitemap.xml", BASE + "sitemap.xml")
    lastmods = {e.loc: e.lastmod for e in entries}
    assert build.returncode == 0, output(build)
    assert warnings == []
    assert lastmods == {URLS[role]: history.truth[role] for role in URLS}
    checkout.git("remote", "set-url", "origin", (tmp_path / "gone").as_uri())
    (checkout.root / "site").rename(tmp_path / "first-site")
    mkdocs_build(checkout.root, "--strict")
    again = check_sitemap_file(checkout.root / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.lastmod for e in again} == lastmods


@pytest.mark.parametrize(
    ("step", "work_tree_in_config"),
    [("plugin", False), ("generate", False), ("plugin", True)],
    ids=["plugin", "generate", "plugin, core.worktree"],
)
def test_a_site_built_by_the_deploy_hook_of_a_bare_repository_is_dated_by_its_history(
    git_repo: GitRepo, tmp_path: Path, step: str, work_tree_in_config: bool
) -> None:
    """``git push`` to a server whose bare repository's hook checks the branch out apart from
    the repository and builds it there: with the plugin, or ``mkdocs build`` then
    ``sitemap-plugins generate``, as a host without plugins needs. Every page gets its last
    commit, never the checkout's file times."""
    config = CONFIG if step == "plugin" else {k: v for k, v in CONFIG.items() if k != "plugins"}
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(config)}
    )
    python = shlex.quote(sys.executable)
    build = [f"{python} -m mkdocs build"]
    if step == "generate":
        build.append(f"{python} -m sitemap_plugins generate")
    tree, log = push_to_deploy_hook(
        history.origin, tmp_path / "srv", build, work_tree_in_config=work_tree_in_config
    )
    entries = check_sitemap_file(tree / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.lastmod for e in entries} == {URLS[r]: history.truth[r] for r in URLS}
    assert "WARNING" not in log


def test_without_git_on_path_a_work_tree_gets_one_warning_and_no_dates(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    no_git = tmp_path / "bin"
    no_git.mkdir()
    log = output(mkdocs_build(history.origin.root, env={"PATH": str(no_git)}))
    site = history.origin.root / "site"
    entries = check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert [entry.lastmod for entry in entries] == [None] * len(URLS)
    [warning] = [line for line in log.splitlines() if line.startswith("WARNING")]
    assert f"sitemap: {len(URLS)} pages have no lastmod: " in warning
    assert "git was not found" in warning


@pytest.mark.parametrize("dot_git", ["worktree copied", "empty folder"])
def test_a_dot_git_that_leads_to_no_repository_is_said_once_with_what_git_said(
    git_repo: GitRepo, tmp_path: Path, dot_git: str
) -> None:
    """A linked worktree copied into a container image without the repository its ``.git``
    file names, or a copy that kept an empty ``.git`` folder: no page is dated, as in any
    folder that is not a git work tree, and one info line says why, naming the folder and
    what git said."""
    history = CiHistory.write(
        git_repo, SOURCES, page, site_files={"mkdocs.yml": yaml.safe_dump(CONFIG)}
    )
    image = tmp_path / "image"
    if dot_git == "worktree copied":
        worktree = tmp_path / "worktree"
        history.origin.git("worktree", "add", "-q", "--detach", str(worktree), "HEAD")
        shutil.copytree(worktree, image)
        history.origin.git("worktree", "remove", "--force", str(worktree))
    else:
        history.origin.archive(image)
        (image / ".git").mkdir()
    log = output(mkdocs_build(image))
    entries = check_sitemap_file(image / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc: e.lastmod for e in entries} == dict.fromkeys(URLS.values())
    assert [line for line in log.splitlines() if line.startswith("WARNING")] == []
    [said] = [line for line in log.splitlines() if "no lastmod" in line]
    assert said.startswith("INFO"), said
    assert f"sitemap: {len(URLS)} pages have no lastmod: " in said
    assert f"the .git in {image.resolve()} leads git to no repository" in said
    assert "not a git repository" in said  # git's own words


def test_pages_from_a_submodule_are_dated_by_its_own_history(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A site whose docs take in another repository as a git submodule: those pages are dated
    by the submodule's commits, never by the superproject's commits that move its pointer. In
    the shallow clone CI makes of both, no page is dated, one warning names both repositories,
    and ``git_fetch_history`` fetches both histories and dates every page."""
    ext = GitRepo(tmp_path / "ext")
    ext.write("guide.md", "# Guide\n")
    ext.commit("guide", "2021-03-04T05:06:07+00:00")
    ext.write("other.md", "# Other\n")
    ext.commit("other", "2024-02-02T00:00:00+00:00")
    git_repo.write("docs/index.md", "# Home\n")
    git_repo.write("mkdocs.yml", yaml.safe_dump(CONFIG))
    git_repo.commit("home", "2022-01-01T00:00:00+00:00")
    git_repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q",
                 ext.root.resolve().as_uri(), "docs/ext")  # fmt: skip
    git_repo.commit("take in ext", "2024-03-01T00:00:00+00:00")
    truth = {  # each page's last commit, in its own repository; UTC is written Z
        BASE: "2022-01-01T00:00:00Z",
        BASE + "ext/guide/": "2021-03-04T05:06:07Z",
        BASE + "ext/other/": "2024-02-02T00:00:00Z",
    }

    def dated(root: Path) -> tuple[dict[str, str | None], list[str]]:
        log = output(mkdocs_build(root))
        entries = check_sitemap_file(root / "site" / "sitemap.xml", BASE + "sitemap.xml")
        warnings = [line for line in log.splitlines() if line.startswith("WARNING")]
        return {e.loc: e.lastmod for e in entries}, warnings

    full = git_repo.clone(tmp_path / "full", options=["--recurse-submodules"]).root
    assert dated(full) == (truth, [])

    shallow = ["--recurse-submodules", "--shallow-submodules"]
    ci = git_repo.clone(tmp_path / "ci", depth=1, options=shallow).root
    entries, [warning] = dated(ci)
    assert entries == dict.fromkeys(truth)
    roots = f"{ci.resolve()}, {(ci / 'docs' / 'ext').resolve()} are shallow clones"
    assert f"sitemap: 3 pages have no lastmod: {roots}, so git cannot see" in warning

    config = {**CONFIG, "plugins": [{"sitemap": {"git_fetch_history": True}}]}
    (ci / "mkdocs.yml").write_text(yaml.safe_dump(config), encoding="utf-8")
    assert dated(ci) == (truth, [])
