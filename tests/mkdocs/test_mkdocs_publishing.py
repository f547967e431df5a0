"""Publishing with real MkDocs builds: always readable, always whole, never a user's file, never a
trace.

Kills and hostile disks are set up inside a real ``mkdocs build`` child process by the site's own
hook file (``hooks: [hooks.py]``, see :mod:`tests.support.steps`). MkDocs empties ``site_dir``
on every build but ``--dirty`` ones (it keeps dotfiles, so the record survives either way), so
the tests that need the previous sitemap on disk build with ``--dirty``, as ``mkdocs serve``
does.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from mkdocs.commands.build import build

from tests.mkdocs.helpers import BASE, example_repo, load, write_config
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output
from tests.support.publishing import (
    FILLER,
    RECORD,
    REFUSED_AS_IMMUTABLE,
    expected_mode,
    make_unreplaceable,
    make_writable,
    mount_tmpfs,
    published_set,
    read_only_unavailable,
    recorded_files,
    snapshot,
    temporary_files,
    umask,
    unmount,
    whole_set_problems,
)
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.mkdocs

HOOKS = "from tests.support.steps import install_from_environment\n\ninstall_from_environment()\n"
USER_FILES = {
    "sitemap-2.xml": '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n',
    "sitemap-7.txt": BASE + "mine/\n",
}


def site_repo(repo: GitRepo, *, user_files: bool = True, **options: Any) -> Path:
    """The example site with the step hook, the user's own sitemap-like files, and options."""
    root = example_repo(repo)
    repo.write("hooks.py", HOOKS)
    if user_files:
        for name, text in USER_FILES.items():
            repo.write(f"docs/{name}", text)
    write_config(repo, plugins=[{"sitemap": options}], hooks=["hooks.py"])
    repo.commit("site", "2024-10-20T09:00:00+00:00")
    return root


def edit_a_page(repo: GitRepo) -> None:
    """Build B: one page changed (committed later), so one shard changes and the other not."""
    repo.write("docs/guide/install.md", "# Install\n\nNew steps.\n")
    repo.commit("edit install", "2024-11-05T09:00:00+00:00")


def in_process(root: Path) -> None:
    """A --dirty MkDocs build in this process (as ``mkdocs serve`` runs them)."""
    build(load(root), dirty=True)


def ours(site: Path) -> dict[str, bytes]:
    """Every sitemap file in ``site`` (the user's own sitemap-like files excepted)."""
    return {
        name: data
        for name, data in snapshot(site).items()
        if name.startswith("sitemap") and name not in USER_FILES
    }


def published_files(site: Path) -> dict[str, bytes]:
    """What publishing may touch: sitemap files (a user's too), robots.txt and the record."""
    return {
        name: data
        for name, data in snapshot(site).items()
        if name.startswith("sitemap") or name in ("robots.txt", RECORD)
    }


def error_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in output(proc).splitlines() if "sitemap: " in line]


# -- always readable ---------------------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_every_file_gets_the_mode_of_the_pages_mkdocs_writes(git_repo: GitRepo, mask: int) -> None:
    root = site_repo(git_repo, urls_per_file=3, robots_txt=True)
    with umask(mask):
        mkdocs_build(root)
    site = root / "site"
    ours_ = [*ours(site), "robots.txt", RECORD]
    assert len(ours_) == 2 * 2 + 2 + 2  # shards and index, each with .gz; robots.txt; record
    page_mode = stat.S_IMODE((site / "about" / "index.html").stat().st_mode)
    assert page_mode == expected_mode(mask)
    modes = {name: stat.S_IMODE((site / name).stat().st_mode) for name in ours_}
    assert modes == dict.fromkeys(ours_, page_mode)
    check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")


def test_a_dirty_rebuild_under_a_stricter_umask_keeps_the_sitemap_as_readable_as_the_pages(
    git_repo: GitRepo,
) -> None:
    """``mkdocs build --dirty`` by a job of another umask (a cron job, a service's
    ``UMask=0077``): MkDocs writes a page again over the old one, which keeps its mode; ours
    were renamed over theirs with the new umask's, and the sitemap alone answered 403."""
    root = site_repo(git_repo, urls_per_file=3, robots_txt=True)
    site = root / "site"
    with umask(0o022):
        mkdocs_build(root)
    first = {name: (site / name).stat().st_ino for name in [*ours(site), RECORD]}
    edit_a_page(git_repo)
    with umask(0o077):
        mkdocs_build(root, "--dirty")
    names = [*ours(site), "robots.txt", RECORD]
    assert len(names) == 2 * 2 + 2 + 2
    assert len([name for name in ours(site) if name not in first]) == 2  # a shard and its .gz
    renamed = {
        name for name in ("sitemap.xml", RECORD) if (site / name).stat().st_ino != first[name]
    }
    assert renamed == {"sitemap.xml", RECORD}  # put over the earlier ones by a rename
    written_again = site / "guide" / "install" / "index.html"
    assert "New steps." in written_again.read_text("utf-8")
    page_mode = stat.S_IMODE(written_again.stat().st_mode)
    assert page_mode == expected_mode(0o022)
    modes = {name: stat.S_IMODE((site / name).stat().st_mode) for name in names}
    assert modes == dict.fromkeys(names, page_mode)
    check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")


# -- always whole ------------------------------------------------------------------------------


def test_a_kill_at_any_step_leaves_one_whole_set_and_the_next_build_cleans_up(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    root = site_repo(git_repo, urls_per_file=3, gzip="off")
    site = root / "site"
    mkdocs_build(root)
    built = {"A": ours(site)}
    saved = tmp_path / "site-a"
    shutil.copytree(site, saved)
    edit_a_page(git_repo)
    log = tmp_path / "steps.log"
    mkdocs_build(root, "--dirty", env={"SITEMAP_TEST_STEPS": str(log)})
    built["B"] = ours(site)
    steps = log.read_text().splitlines()
    assert {step.split()[0] for step in steps} == {"start", "record", "write", "publish", "remove"}
    for number, step in enumerate(steps, 1):
        shutil.rmtree(site)
        shutil.copytree(saved, site)
        env = {"SITEMAP_TEST_KILL_AT": str(number)}
        killed = mkdocs_build(root, "--dirty", env=env, check=False)
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        problems = whole_set_problems(site, ["sitemap.xml"], built)
        assert problems == [], f"killed after {step!r}: {problems}"
        in_process(root)  # the next build
        assert temporary_files(site) == [], f"killed after {step!r}"
        assert ours(site) == built["B"], f"killed after {step!r}"
        assert recorded_files(site) == set(built["B"])
        assert {name: (site / name).read_text() for name in USER_FILES} == USER_FILES
    check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")


# -- never a user's file -----------------------------------------------------------------------


def test_a_users_own_sitemap_files_are_never_removed(git_repo: GitRepo) -> None:
    root = site_repo(git_repo, urls_per_file=2)
    site = root / "site"
    for urls_per_file in (2, 4, 50_000):  # three shards, then two, then one file
        write_config(
            git_repo, plugins=[{"sitemap": {"urls_per_file": urls_per_file}}], hooks=["hooks.py"]
        )
        in_process(root)
        check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
        assert {name: (site / name).read_text() for name in USER_FILES} == USER_FILES
        assert set(ours(site)) == {
            *published_set(site, "sitemap.xml"),
            *(f"{name}.gz" for name in published_set(site, "sitemap.xml")),
        }
    assert sorted(ours(site)) == ["sitemap.xml", "sitemap.xml.gz"]


OWN_SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    f"<url><loc>{BASE}handmade/</loc></url></urlset>\n"
).encode()


GEN_SITEMAP = f"""import mkdocs_gen_files

with mkdocs_gen_files.open("sitemap.xml", "wb") as written:
    written.write({OWN_SITEMAP!r})
"""


def test_a_sitemap_a_gen_files_script_writes_is_kept_and_named_by_who_made_it(
    git_repo: GitRepo,
) -> None:
    """A ``sitemap.xml`` a mkdocs-gen-files script writes is the site's, as one in docs_dir: it
    stays, with the warning. The warning named the script's temporary file, gone once the
    build ended; it names the file in the site and who made it."""
    pytest.importorskip("mkdocs_gen_files", reason="installed with MkDocs' newest only")
    root = site_repo(git_repo, user_files=False)
    git_repo.write("gen_sitemap.py", GEN_SITEMAP)
    plugins = [{"gen-files": {"scripts": ["gen_sitemap.py"]}}, "sitemap"]
    write_config(git_repo, plugins=plugins, hooks=["hooks.py"])
    git_repo.commit("a generated sitemap", "2024-10-22T09:00:00+00:00")
    done = mkdocs_build(root)
    site = root / "site"
    assert (site / "sitemap.xml").read_bytes() == OWN_SITEMAP
    [warning] = [line for line in output(done).splitlines() if line.startswith("WARNING")]
    assert "sitemap: sitemap.xml (made by mkdocs-gen-files): already written to sitemap.xml" in (
        warning
    )


@pytest.mark.parametrize("name", ["sitemap.xml", "sitemap.xml.gz"])
def test_a_sitemap_of_the_sites_own_is_kept_with_a_warning(git_repo: GitRepo, name: str) -> None:
    """A file in docs_dir that MkDocs copies where the sitemap goes is the site's: it stays as
    MkDocs copied it, no file of the set is written, and one warning names it and the
    setting, which ``--strict`` fails on. The theme's ``sitemap.xml`` (here a ``custom_dir``
    override) is still replaced without a word, and so is a file of ours that a ``--dirty``
    build leaves where MkDocs did not copy the site's (it looked up to date)."""
    root = site_repo(git_repo, user_files=False)
    git_repo.write("overrides/sitemap.xml", "THE THEME'S OWN\n")
    theme = {"name": "mkdocs", "custom_dir": "overrides"}
    write_config(git_repo, theme=theme, plugins=[{"sitemap": {}}], hooks=["hooks.py"])
    git_repo.commit("theme", "2024-10-21T09:00:00+00:00")
    site = root / "site"
    first = mkdocs_build(root)
    assert [line for line in output(first).splitlines() if "WARNING" in line] == []
    sitemap = check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert BASE + "about/" in {entry.loc for entry in sitemap}  # not the theme's
    assert sorted(recorded_files(site)) == ["sitemap.xml", "sitemap.xml.gz"]
    own = git_repo.path(f"docs/{name}")
    own.write_bytes(gzip.compress(OWN_SITEMAP, mtime=0) if name.endswith(".gz") else OWN_SITEMAP)
    git_repo.commit("a sitemap of our own", "2024-10-22T09:00:00+00:00")
    older = (site / name).stat().st_mtime - 60
    os.utime(own, (older, older))
    dirty = mkdocs_build(root, "--dirty")
    assert [line for line in error_lines(dirty) if "WARNING" in line] == []
    assert (site / name).read_bytes() != own.read_bytes()  # MkDocs left ours: replaced
    assert sorted(recorded_files(site)) == ["sitemap.xml", "sitemap.xml.gz"]
    for args in ((), ("--strict",)):  # a clean build copies the site's file
        proc = mkdocs_build(root, *args, check=False)
        assert proc.returncode == (1 if args else 0), output(proc)
        assert (site / name).read_bytes() == own.read_bytes()
        assert sorted(ours(site)) == [name]
        warnings = [line for line in output(proc).splitlines() if line.startswith("WARNING")]
        assert len(warnings) == 1, output(proc)
        setting = "filename 'sitemap.xml'" + (", gzip 'both'" if name.endswith(".gz") else "")
        assert warnings[0].endswith(
            f"sitemap: docs/{name}: already written to {name}, where the sitemap goes "
            f"({setting}); the site's file is kept and no sitemap is written: remove that "
            "file from the site, or set filename to another name"
        ), warnings[0]
        assert recorded_files(site) == set()


KEY = "0123456789abcdef0123456789abcdef"


@pytest.mark.parametrize("held", [f"{KEY}\n", f"{KEY}\r\n", f"  {KEY} \n\n"])
def test_a_key_file_of_the_sites_own_with_a_line_end_passes_strict_as_it_is(
    git_repo: GitRepo, held: str
) -> None:
    """IndexNow's key file is a text file holding the key, and one written the usual way
    (``echo KEY > KEY.txt``, CRLF on Windows) ends with a line end that ``submit`` and the
    engines accept: it was taken for a file holding something else, and ``--strict`` failed.
    It stays exactly as the site has it, with no warning, and the record never names it."""
    root = site_repo(git_repo, user_files=False, indexnow_key=KEY)
    git_repo.path(f"docs/{KEY}.txt").write_bytes(held.encode("ascii"))
    git_repo.commit("the site's own key file", "2024-10-22T09:00:00+00:00")
    proc = mkdocs_build(root, "--strict")
    assert [line for line in output(proc).splitlines() if "WARNING" in line] == []
    site = root / "site"
    assert (site / f"{KEY}.txt").read_bytes() == held.encode("ascii")
    assert sorted(recorded_files(site)) == ["sitemap.xml", "sitemap.xml.gz"]


def test_a_key_file_of_the_sites_own_holding_another_key_fails_strict(git_repo: GitRepo) -> None:
    """Whitespace around the key is all that is let pass: another key, line end or not, is
    kept, said, and fails ``--strict``."""
    root = site_repo(git_repo, user_files=False, indexnow_key=KEY)
    git_repo.write(f"docs/{KEY}.txt", KEY[::-1] + "\n")
    git_repo.commit("the site's own key file", "2024-10-22T09:00:00+00:00")
    proc = mkdocs_build(root, "--strict", check=False)
    assert proc.returncode == 1, output(proc)
    [warning] = [line for line in output(proc).splitlines() if line.startswith("WARNING")]
    assert "a file of the site's own is where the IndexNow key file goes" in warning
    assert (root / "site" / f"{KEY}.txt").read_bytes() == (KEY[::-1] + "\n").encode("ascii")


# -- never a trace -----------------------------------------------------------------------------


@pytest.fixture
def tmpfs_site(tmp_path: Path) -> Iterator[Path | None]:
    """A small tmpfs for site_dir where the machine allows mounting one, else None."""
    mounted = mount_tmpfs(tmp_path / "tmpfs", "4m")
    yield mounted
    if mounted is not None:
        unmount(mounted)


def failing_build(
    git_repo: GitRepo, tmp_path: Path, kind: str, tmpfs: Path | None
) -> tuple[subprocess.CompletedProcess[str], Path, dict[str, bytes]]:
    """Build A, then build B under ``kind`` of trouble; return B's run, site_dir and A's files."""
    options: dict[str, Any] = {"urls_per_file": 3}
    env: dict[str, str] = {}
    site_dir = tmp_path / "site"
    if kind == "disk full":
        site_dir = tmpfs if tmpfs is not None else site_dir
        action = f"fill:{site_dir}:0" if tmpfs is not None else "enospc:0"
        env["SITEMAP_TEST_AT_START"] = action
    if kind == "read-only folder":
        reason = read_only_unavailable(tmp_path / "probe")
        if reason is not None:
            pytest.skip(reason)
        env["SITEMAP_TEST_AT_START"] = f"readonly:{site_dir}"
    if kind == "robots.txt not UTF-8":
        options["robots_txt"] = True
        git_repo.write("docs/robots.txt", "User-agent: *\n")
    root = site_repo(git_repo, **options)
    write_config(
        git_repo, plugins=[{"sitemap": options}], hooks=["hooks.py"], site_dir=str(site_dir)
    )
    mkdocs_build(root)
    before = published_files(site_dir)
    edit_a_page(git_repo)
    if kind == "robots.txt not UTF-8":
        robots = git_repo.path("docs/robots.txt")
        robots.write_bytes("User-agent: *\nDisallow: /privé/\n".encode("latin-1"))
        os.utime(robots, (robots.stat().st_atime, robots.stat().st_mtime + 10))
        before["robots.txt"] = robots.read_bytes()
    if kind == "sitemap.xml is a folder":
        shutil.rmtree(site_dir)
        git_repo.write("docs/sitemap.xml/notes.txt", "a user's folder")
        first = mkdocs_build(root, "--dirty", check=False)
        assert first.returncode != 0  # the first build hits it too
        before = published_files(site_dir)
    try:
        proc = mkdocs_build(root, "--dirty", env=env, check=False)
    finally:
        if kind == "read-only folder":
            make_writable(site_dir)
    return proc, site_dir, before


CAUSES = {
    "disk full": r"No space left on device",
    "read-only folder": r"(Permission denied|Operation not permitted|Read-only file system)",
    "sitemap.xml is a folder": r"Is a directory",
    "robots.txt not UTF-8": r"not UTF-8 text \(byte 0xe9 at offset 29\); save it as UTF-8",
}


@pytest.mark.parametrize("kind", list(CAUSES))
def test_an_io_fault_is_one_error_line_and_the_previous_sitemap_stays(
    git_repo: GitRepo, tmp_path: Path, tmpfs_site: Path | None, kind: str
) -> None:
    import re

    proc, site, before = failing_build(git_repo, tmp_path, kind, tmpfs_site)
    assert proc.returncode == 1, proc.stderr
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output
    [line] = error_lines(proc)
    path = site / ("robots.txt" if kind == "robots.txt not UTF-8" else "sitemap.xml")
    verb = "update" if kind == "robots.txt not UTF-8" else "write"
    assert re.search(
        rf"ERROR +- +sitemap: cannot {verb} {re.escape(str(path))}: {CAUSES[kind]}$", line
    )
    assert "Aborted with a BuildError!" in output
    (site / FILLER).unlink(missing_ok=True)
    assert published_files(site) == before  # every file as it was
    assert temporary_files(site) == []
    if kind != "sitemap.xml is a folder":
        check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")


def test_a_gz_twin_that_cannot_be_replaced_fails_the_build_before_sitemap_xml_is_replaced(
    git_repo: GitRepo,
) -> None:
    """With ``gzip: both``, MkDocs' default, ``sitemap.xml`` goes in place before its ``.gz``:
    a ``.gz`` that cannot be replaced (immutable here; another user's in a folder with the
    sticky bit is alike) must be found first, or the failed build leaves a new ``sitemap.xml``
    served beside the old ``sitemap.xml.gz``. One error line names it and why; every file
    stays as it was."""
    root = site_repo(git_repo)
    mkdocs_build(root)
    site = root / "site"
    before = published_files(site)
    edit_a_page(git_repo)
    twin = site / "sitemap.xml.gz"
    reason = make_unreplaceable(twin)
    if reason is not None:
        pytest.skip(reason)
    try:
        proc = mkdocs_build(root, "--dirty", check=False)
        after = published_files(site)
    finally:
        make_writable(twin)
    assert proc.returncode == 1, output(proc)
    assert "Traceback" not in output(proc)
    assert after == before  # sitemap.xml too
    assert temporary_files(site) == []
    [line] = error_lines(proc)
    assert re.search(
        rf"ERROR +- +sitemap: cannot replace {re.escape(f'{twin}: {REFUSED_AS_IMMUTABLE}')}$",
        line,
    ), line
    assert "Aborted with a BuildError!" in output(proc)
    mkdocs_build(root, "--dirty")  # replaceable again: the next build publishes
    assert published_files(site)["sitemap.xml.gz"] != before["sitemap.xml.gz"]
    check_sitemap_file(site / "sitemap.xml.gz", BASE + "sitemap.xml.gz")


def test_a_page_for_humans_that_cannot_be_replaced_fails_the_build_before_the_sitemap_is(
    git_repo: GitRepo,
) -> None:
    """The page for humans is written once the sitemap is published: one that cannot be
    replaced must be found before, or the failed build leaves the new sitemap beside the
    page that lists the old one."""
    root = site_repo(git_repo, html_page=True)
    mkdocs_build(root)
    site = root / "site"
    before = published_files(site)
    edit_a_page(git_repo)
    human = site / "sitemap.html"
    reason = make_unreplaceable(human)
    if reason is not None:
        pytest.skip(reason)
    try:
        proc = mkdocs_build(root, "--dirty", check=False)
        after = published_files(site)
    finally:
        make_writable(human)
    assert proc.returncode == 1, output(proc)
    assert "Traceback" not in output(proc)
    assert after == before
    assert temporary_files(site) == []
    [line] = error_lines(proc)
    cause = re.escape(f"{human}: {REFUSED_AS_IMMUTABLE}")
    assert re.search(rf"ERROR +- +sitemap: cannot write {cause}$", line), line
    mkdocs_build(root, "--dirty")  # replaceable again: the next build publishes
    assert published_files(site)["sitemap.html"] != before["sitemap.html"]


@pytest.mark.parametrize("strict", ["option", "--strict"])
def test_strict_mode_writes_no_sitemap_and_keeps_the_previous_one(
    git_repo: GitRepo, strict: str
) -> None:
    """Our ``strict`` option and MkDocs' ``--strict`` alike: the build that warns writes no
    sitemap (MkDocs aborts only once every page is written)."""
    options = {"strict": True} if strict == "option" else {}
    root = site_repo(git_repo, urls_per_file=3, **options)
    mkdocs_build(root)
    site = root / "site"
    before = ours(site)
    git_repo.write("docs/bad.md", "---\nsitemap:\n  priority: 1.5\n---\n\n# Bad\n")
    git_repo.commit("bad", "2024-11-01T00:00:00+00:00")
    flags = ("--dirty",) if strict == "option" else ("--dirty", "--strict")
    proc = mkdocs_build(root, *flags, check=False)
    assert proc.returncode == 1
    assert "Traceback" not in proc.stdout + proc.stderr
    lines = error_lines(proc)
    assert any("docs/bad.md: priority 1.5 is not allowed" in line for line in lines)
    assert [line for line in lines if "ERROR" in line] == [
        next(line for line in lines if "ERROR" in line)
    ]
    assert any(
        line.endswith("sitemap: 1 warning in strict mode; no sitemap written") for line in lines
    )
    assert ours(site) == before
    assert temporary_files(site) == []


def test_a_damaged_record_stops_one_strict_build_and_no_more(git_repo: GitRepo) -> None:
    """MkDocs keeps the record, a dotfile, when it empties ``site_dir``: put back by the strict
    build that stopped on it, a damaged one would stop every later strict build too."""
    root = site_repo(git_repo)
    mkdocs_build(root)
    site = root / "site"
    (site / RECORD).write_text('{"version": 1, "files": {"sitema', "utf-8")
    stopped = mkdocs_build(root, "--strict", check=False)
    assert stopped.returncode == 1
    [warning] = [line for line in error_lines(stopped) if "WARNING" in line]
    assert f"sitemap: {site / RECORD} is not readable as the record" in warning
    assert warning.endswith("so that the next one does not warn again")
    assert not (site / "sitemap.xml").exists()
    passed = mkdocs_build(root, "--strict")
    assert [line for line in error_lines(passed) if "INFO" not in line] == []
    check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")
    assert recorded_files(site) == {"sitemap.xml", "sitemap.xml.gz"}


def test_a_users_file_where_an_old_shard_stood_survives_a_clean_build(git_repo: GitRepo) -> None:
    """MkDocs empties site_dir but keeps the record (a dotfile): a file of the user's that now
    stands under the name of one of our earlier shards is not ours, and is not removed."""
    root = site_repo(git_repo, urls_per_file=3)
    mkdocs_build(root)
    site = root / "site"
    [old_shard, *_] = [name for name in ours(site) if name.startswith("sitemap-")]
    git_repo.write(f"docs/{old_shard}", "the user's own file, by chance under that name\n")
    write_config(git_repo, plugins=[{"sitemap": {}}], hooks=["hooks.py"])
    git_repo.commit("one file", "2024-11-01T09:00:00+00:00")
    mkdocs_build(root)  # a clean build: MkDocs copies the user's file
    assert (site / old_shard).read_text() == "the user's own file, by chance under that name\n"
    assert old_shard not in recorded_files(site)
    check_sitemap_file(site / "sitemap.xml", BASE + "sitemap.xml")


def test_robots_txt_names_only_the_files_a_dirty_build_publishes(git_repo: GitRepo) -> None:
    """``gzip: both`` (MkDocs' default), then ``on``: the next build (``--dirty``, as ``mkdocs
    serve`` builds) removes ``sitemap.xml``, and the line the first build wrote for it goes
    too, which would name a missing file; the site's own lines stay."""
    root = site_repo(git_repo, robots_txt=True)
    git_repo.write("docs/robots.txt", "User-agent: *\nDisallow: /drafts/\n")
    git_repo.commit("robots", "2024-11-01T09:00:00+00:00")
    mkdocs_build(root)
    robots = root / "site" / "robots.txt"
    theirs = ["User-agent: *", "Disallow: /drafts/"]
    assert robots.read_text().splitlines() == [*theirs, f"Sitemap: {BASE}sitemap.xml"]
    write_config(git_repo, plugins=[{"sitemap": {"robots_txt": True, "gzip": "on"}}],
                 hooks=["hooks.py"])  # fmt: skip
    git_repo.commit("gzip only", "2024-11-02T09:00:00+00:00")
    mkdocs_build(root, "--dirty")
    assert not (root / "site" / "sitemap.xml").exists()
    assert robots.read_text().splitlines() == [*theirs, f"Sitemap: {BASE}sitemap.xml.gz"]
    check_sitemap_file(root / "site" / "sitemap.xml.gz", BASE + "sitemap.xml.gz")


def test_an_existing_robots_txt_keeps_its_mode(git_repo: GitRepo) -> None:
    root = site_repo(git_repo, robots_txt=True)
    git_repo.write("docs/robots.txt", "User-agent: *\n")
    git_repo.commit("robots", "2024-11-01T09:00:00+00:00")
    mkdocs_build(root)
    robots = root / "site" / "robots.txt"
    robots.chmod(0o604)
    write_config(
        git_repo,
        site_url="https://example.org/docs/",
        plugins=[{"sitemap": {"robots_txt": True}}],
        hooks=["hooks.py"],
    )
    in_process(root)  # --dirty: MkDocs leaves the unchanged robots.txt, we update our line
    assert robots.read_text() == "User-agent: *\nSitemap: https://example.org/docs/sitemap.xml\n"
    assert stat.S_IMODE(robots.stat().st_mode) == 0o604
