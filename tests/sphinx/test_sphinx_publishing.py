"""Publishing with the real sphinx-build command line: always readable, always whole, never a
user's file, never a trace.

Kills and hostile disks are set up inside the sphinx-build child process by the project's own
``conf.py`` (see :mod:`tests.support.steps`). Sphinx keeps its output folder between builds, so
every later build here is incremental, as it is for users.
"""

from __future__ import annotations

import errno
import grp
import os
import re
import shutil
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
import sphinx

from tests.sphinx.helpers import BASE_URL, page, read_entries, write_project
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, sphinx_build
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
    record_as_older_releases_wrote_it,
    recorded_files,
    snapshot,
    temporary_files,
    umask,
    unmount,
    whole_set_problems,
)
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.sphinx

HOOK = """
from tests.support.steps import install_from_environment
install_from_environment()
html_extra_path = ["extra"]
"""
PAGES = {name: page(name.title()) for name in ("guide", "install", "usage", "about", "api")}
PAGES = {f"{name}.rst": text for name, text in PAGES.items()}
USER_FILES = {
    "sitemap-2.xml": '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n',
    "sitemap-7.txt": BASE_URL + "mine/\n",
}


def project(git_repo: GitRepo, conf_extra: str = "", **extra: str) -> Path:
    """Six pages, the step hook, and files copied into the output as they are (the user's own
    sitemap-like files, and ``extra``)."""
    srcdir = write_project(git_repo, PAGES, conf_extra=HOOK + conf_extra)
    for name, text in {**USER_FILES, **extra}.items():
        git_repo.write(f"docs/extra/{name}", text)
    git_repo.commit("project", "2024-03-01T12:00:00+00:00")
    return srcdir


def edit_a_page(git_repo: GitRepo) -> None:
    """Build B: one page changed (committed later), so one shard changes and the other not."""
    git_repo.write("docs/usage.rst", page("Usage", "Used differently now."))
    git_repo.commit("edit usage", "2024-04-01T12:00:00+00:00")


def ours(outdir: Path) -> dict[str, bytes]:
    """Every sitemap file in ``outdir`` (the user's own sitemap-like files excepted)."""
    return {
        name: data
        for name, data in snapshot(outdir).items()
        if name.startswith("sitemap") and name not in USER_FILES
    }


def published_files(outdir: Path) -> dict[str, bytes]:
    """What publishing may touch: sitemap files (a user's too), robots.txt and the record."""
    return {
        name: data
        for name, data in snapshot(outdir).items()
        if name.startswith("sitemap") or name in ("robots.txt", RECORD)
    }


# -- always readable ---------------------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_every_file_gets_the_mode_of_the_pages_sphinx_writes(
    git_repo: GitRepo, tmp_path: Path, mask: int
) -> None:
    conf = "sitemap_urls_per_file = 3\nsitemap_gzip = 'both'\nsitemap_robots_txt = True\n"
    srcdir = project(git_repo, conf)
    outdir = tmp_path / "out"
    with umask(mask):
        sphinx_build(srcdir, outdir, "-j", "2")
        edit_a_page(git_repo)
        sphinx_build(srcdir, outdir, "-j", "2")  # incremental: replaces files, same modes
    names = [*ours(outdir), "robots.txt", RECORD]
    assert len(names) == 2 * 2 + 2 + 2
    page_mode = stat.S_IMODE((outdir / "guide" / "index.html").stat().st_mode)
    assert page_mode == expected_mode(mask)
    assert {name: stat.S_IMODE((outdir / name).stat().st_mode) for name in names} == dict.fromkeys(
        names, page_mode
    )
    read_entries(outdir)


def test_a_rebuild_under_a_stricter_umask_keeps_the_sitemap_as_readable_as_the_pages(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A site rebuilt by a job of another umask (a cron job, a service's ``UMask=0077``): Sphinx
    writes a page again over the old one, which keeps its mode; ours were renamed over theirs
    with the new umask's, and the sitemap alone answered 403 to a web server of another user."""
    conf = "sitemap_urls_per_file = 3\nsitemap_gzip = 'both'\nsitemap_robots_txt = True\n"
    srcdir = project(git_repo, conf)
    outdir = tmp_path / "out"
    with umask(0o022):
        sphinx_build(srcdir, outdir)
    first = {name: (outdir / name).stat().st_ino for name in [*ours(outdir), RECORD]}
    edit_a_page(git_repo)
    with umask(0o077):
        sphinx_build(srcdir, outdir)
    names = [*ours(outdir), "robots.txt", RECORD]
    assert len(names) == 2 * 2 + 2 + 2
    new_parts = [name for name in ours(outdir) if name not in first]
    assert len(new_parts) == 2  # the changed shard and its .gz, under new names
    renamed = {
        name for name in ("sitemap.xml", RECORD) if (outdir / name).stat().st_ino != first[name]
    }
    assert renamed == {"sitemap.xml", RECORD}  # put over the earlier ones by a rename
    written_again = outdir / "usage" / "index.html"
    assert "Used differently now." in written_again.read_text("utf-8")
    page_mode = stat.S_IMODE(written_again.stat().st_mode)
    assert page_mode == expected_mode(0o022)
    assert {name: stat.S_IMODE((outdir / name).stat().st_mode) for name in names} == dict.fromkeys(
        names, page_mode
    )
    read_entries(outdir)


def test_files_the_owner_gave_the_web_servers_group_keep_it_through_a_rebuild(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A site whose files the owner gave the web server's group, readable by it alone
    (``chgrp -R www-data``, mode ``0640``): Sphinx writes a page again in place, which keeps
    both; ours were renamed over theirs with the build user's group, and the web server
    could read every page but the sitemap."""
    conf = "sitemap_urls_per_file = 3\nsitemap_gzip = 'both'\nsitemap_robots_txt = True\n"
    srcdir = project(git_repo, conf)
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    server = next(group.gr_gid for group in grp.getgrall() if group.gr_gid != os.getegid())
    for path in outdir.rglob("*"):
        if path.is_file():
            os.chown(path, -1, server)
            path.chmod(0o640)
    edit_a_page(git_repo)
    sphinx_build(srcdir, outdir)
    written_again = outdir / "usage" / "index.html"
    assert "Used differently now." in written_again.read_text("utf-8")
    page = written_again.stat()
    assert (page.st_gid, stat.S_IMODE(page.st_mode)) == (server, 0o640)
    names = [*ours(outdir), "robots.txt", RECORD]
    assert len(names) == 2 * 2 + 2 + 2
    found = {name: (outdir / name).stat() for name in names}
    assert {name: (info.st_gid, stat.S_IMODE(info.st_mode)) for name, info in found.items()} == (
        dict.fromkeys(names, (server, 0o640))
    )
    read_entries(outdir)


# -- always whole ------------------------------------------------------------------------------


def test_a_kill_at_any_step_leaves_one_whole_set_and_the_next_build_cleans_up(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = project(git_repo, "sitemap_urls_per_file = 3\n")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    built = {"A": ours(outdir)}
    saved = tmp_path / "saved"
    shutil.copytree(outdir, saved)
    edit_a_page(git_repo)
    log = tmp_path / "steps.log"
    sphinx_build(srcdir, outdir, env={"SITEMAP_TEST_STEPS": str(log)})
    built["B"] = ours(outdir)
    steps = log.read_text().splitlines()
    assert {step.split()[0] for step in steps} == {"start", "record", "write", "publish", "remove"}
    for number, step in enumerate(steps, 1):
        shutil.rmtree(outdir)
        shutil.copytree(saved, outdir)
        env = {"SITEMAP_TEST_KILL_AT": str(number)}
        killed = sphinx_build(srcdir, outdir, env=env, check=False)
        assert killed.returncode == -signal.SIGKILL, (step, output(killed))
        problems = whole_set_problems(outdir, ["sitemap.xml"], built)
        assert problems == [], f"killed after {step!r}: {problems}"
        sphinx_build(srcdir, outdir)  # the next build
        assert temporary_files(outdir) == [], f"killed after {step!r}"
        assert ours(outdir) == built["B"], f"killed after {step!r}"
        assert recorded_files(outdir) == set(built["B"])
        assert {name: (outdir / name).read_text() for name in USER_FILES} == USER_FILES
    read_entries(outdir)


# -- never a user's file -----------------------------------------------------------------------


def test_a_users_own_sitemap_files_are_never_removed(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = project(git_repo)
    outdir = tmp_path / "out"
    for per_file in (2, 4, 50_000):  # three shards, then two, then one file
        sphinx_build(srcdir, outdir, "-D", f"sitemap_urls_per_file={per_file}")
        check_sitemap_file(outdir / "sitemap.xml", BASE_URL + "sitemap.xml")
        assert {name: (outdir / name).read_text() for name in USER_FILES} == USER_FILES
        assert set(ours(outdir)) == set(published_set(outdir, "sitemap.xml"))
    assert sorted(ours(outdir)) == ["sitemap.xml"]


OWN_SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    f"<url><loc>{BASE_URL}handmade/</loc></url></urlset>\n"
)


@pytest.mark.parametrize(
    ("source", "conf"),
    [
        ("extra/sitemap.xml", ""),  # in a folder html_extra_path names (the hook's)
        ("own/sitemap.xml", 'html_extra_path.append("own/sitemap.xml")\n'),  # named itself
    ],
)
def test_a_sitemap_of_the_sites_own_is_kept_with_a_warning(
    git_repo: GitRepo, tmp_path: Path, source: str, conf: str
) -> None:
    """A ``sitemap.xml`` Sphinx copies from ``html_extra_path`` is the site's: it stays as
    Sphinx copied it, at every build, no file of the set is written (the one an earlier build
    published goes from the record), and one warning names it and the setting, which ``-W``
    fails on."""
    srcdir = project(git_repo, conf + "sitemap_gzip = 'both'\n")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    assert sorted(recorded_files(outdir)) == ["sitemap.xml", "sitemap.xml.gz"]
    git_repo.write(f"docs/{source}", OWN_SITEMAP)
    edit_a_page(git_repo)  # Sphinx 7.0 copies nothing where no page is to be written
    for _ in range(2):  # the earlier build's files, then none of ours
        proc = sphinx_build(srcdir, outdir)
        assert (outdir / "sitemap.xml").read_text("utf-8") == OWN_SITEMAP
        assert not (outdir / "sitemap.xml.gz").exists()
        warnings = [line for line in output(proc).splitlines() if "WARNING" in line]
        assert [line.removesuffix(" [sitemap.conflict]") for line in warnings] == [
            f"WARNING: {source}: already written to sitemap.xml, where the sitemap goes "
            "(filename 'sitemap.xml'); the site's file is kept and no sitemap is written: "
            "remove that file from the site, or set filename to another name"
        ]
        assert recorded_files(outdir) == set()
    failed = sphinx_build(srcdir, outdir, "-W", check=False)
    assert failed.returncode != 0, output(failed)
    assert (outdir / "sitemap.xml").read_text("utf-8") == OWN_SITEMAP


# -- never a trace -----------------------------------------------------------------------------


@pytest.fixture
def tmpfs_out(tmp_path: Path) -> Iterator[Path | None]:
    """A small tmpfs for the output folder where the machine allows mounting one, else None."""
    mounted = mount_tmpfs(tmp_path / "tmpfs", "8m")
    yield mounted
    if mounted is not None:
        unmount(mounted)


CAUSES = {
    "disk full": r"No space left on device",
    "read-only folder": r"(Permission denied|Operation not permitted|Read-only file system)",
    "sitemap.xml is a folder": r"Is a directory",
    "robots.txt not UTF-8": r"not UTF-8 text \(byte 0xe9 at offset 29\); save it as UTF-8",
}


@pytest.mark.parametrize("kind", list(CAUSES))
def test_an_io_fault_is_one_error_line_and_the_previous_sitemap_stays(
    git_repo: GitRepo, tmp_path: Path, tmpfs_out: Path | None, kind: str
) -> None:
    conf = "sitemap_urls_per_file = 3\nsitemap_robots_txt = True\n"
    srcdir = project(git_repo, conf, **{"robots.txt": "User-agent: *\n"})
    outdir = tmp_path / "out"
    env: dict[str, str] = {}
    if kind == "disk full":
        outdir = tmpfs_out if tmpfs_out is not None else outdir
        action = f"fill:{outdir}:0" if tmpfs_out is not None else "enospc:0"
        env["SITEMAP_TEST_AT_START"] = action
    if kind == "read-only folder":
        reason = read_only_unavailable(tmp_path / "probe")
        if reason is not None:
            pytest.skip(reason)
        env["SITEMAP_TEST_AT_START"] = f"readonly:{outdir}"
    sphinx_build(srcdir, outdir, "-j", "2")
    before = published_files(outdir)
    edit_a_page(git_repo)
    if kind == "robots.txt not UTF-8":
        latin1 = "User-agent: *\nDisallow: /privé/\n".encode("latin-1")
        git_repo.path("docs/extra/robots.txt").write_bytes(latin1)
    if kind == "sitemap.xml is a folder":
        shutil.rmtree(outdir)
        git_repo.write("docs/extra/sitemap.xml/notes.txt", "a user's folder")
        assert sphinx_build(srcdir, outdir, check=False).returncode == 1  # the first build too
        before = published_files(outdir)
    # Sphinx copies html_extra_path on every build, before the sitemap is written: robots.txt is
    # then the user's own again, and stays so when the sitemap cannot be written.
    before["robots.txt"] = git_repo.path("docs/extra/robots.txt").read_bytes()
    try:
        proc = sphinx_build(srcdir, outdir, "-j", "2", env=env, check=False)
    finally:
        if kind == "read-only folder":
            make_writable(outdir)
    assert proc.returncode == 1, output(proc)
    text = output(proc)
    for crash in ("Traceback", "Extension error", "please open an issue", "Sitemap error"):
        assert crash not in text
    [line] = [line for line in text.splitlines() if "sitemap: " in line]
    path = outdir / ("robots.txt" if kind == "robots.txt not UTF-8" else "sitemap.xml")
    verb = "update" if kind == "robots.txt not UTF-8" else "write"
    assert re.fullmatch(
        rf"ERROR: sitemap: cannot {verb} {re.escape(str(path))}: {CAUSES[kind]}", line
    )
    (outdir / FILLER).unlink(missing_ok=True)
    assert published_files(outdir) == before  # every file as it was
    assert temporary_files(outdir) == []
    if kind != "sitemap.xml is a folder":
        check_sitemap_file(outdir / "sitemap.xml", BASE_URL + "sitemap.xml")


@pytest.mark.parametrize(
    ("builder", "written", "how"),
    [
        ("html", "sitemap.html", "immutable"),
        ("dirhtml", "sitemap/index.html", "immutable"),
        ("dirhtml", "sitemap/index.html", "not writable"),
    ],
)
def test_a_page_for_humans_that_cannot_be_written_fails_the_build_before_the_sitemap_is(
    git_repo: GitRepo, tmp_path: Path, builder: str, written: str, how: str
) -> None:
    """Sphinx writes the page for humans over the file there once the sitemap is published,
    and a page it cannot write is only a warning: one that cannot be written over must be
    found before, or the build leaves the new sitemap beside the page that lists the old one."""
    srcdir = project(git_repo, "sitemap_html_page = True\n")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, builder=builder)
    before = published_files(outdir)
    assert written in before
    edit_a_page(git_repo)
    human = outdir / written
    via: list[str] = []
    if how == "not writable":
        human.chmod(0o444)
        via = _without_the_right_to_write_any_file(human)
        cause = f"{os.strerror(errno.EACCES)} (the file is not writable)"
    else:
        reason = make_unreplaceable(human)
        if reason is not None:
            pytest.skip(reason)
        cause = REFUSED_AS_IMMUTABLE
    try:
        proc = sphinx_build(srcdir, outdir, builder=builder, check=False, via=via)
        after = published_files(outdir)
    finally:
        make_writable(human)
        human.chmod(0o644)
    assert proc.returncode == 1, output(proc)
    assert after == before
    assert temporary_files(outdir) == []
    text = output(proc)
    for crash in ("Traceback", "Extension error", "please open an issue", "Sitemap error"):
        assert crash not in text
    [line] = [line for line in text.splitlines() if "sitemap: " in line]
    assert line == f"ERROR: sitemap: cannot write {human}: {cause}"
    sphinx_build(srcdir, outdir, builder=builder)  # writable again: the next build publishes
    assert published_files(outdir)[written] != before[written]


def _without_the_right_to_write_any_file(probe: Path) -> list[str]:
    """How to run a build that file modes apply to: as it is for a user other than root; for
    root, through ``setpriv`` without the capability that lets root write any file. Skips
    the test when neither is possible here, or ``probe``, not writable, is written all the
    same."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("run as root, and no setpriv to drop root's right to write any file")
    via = [setpriv, "--bounding-set=-dac_override"]
    tried = subprocess.run([*via, "sh", "-c", f": >> '{probe}'"], capture_output=True, check=False)
    if tried.returncode == 0:
        pytest.skip(f"run as root, and setpriv cannot drop root's right to write: {tried!r}")
    return via


@pytest.mark.parametrize(
    "flags", [(), ("-W",), ("-W", "--keep-going")], ids=["sitemap_strict", "-W", "-W --keep-going"]
)
def test_strict_mode_is_a_build_error_and_writes_no_sitemap(
    git_repo: GitRepo, tmp_path: Path, flags: tuple[str, ...]
) -> None:
    """Our option, and -W alike: from Sphinx 8.1 a warning under -W fails the build only once
    it is over, which would be after the sitemap was written; before 8.1, -W --keep-going
    does the same."""
    strict = "sphinx-build -W" if flags else "sitemap_strict"
    conf = "" if flags else "sitemap_strict = True\n"
    srcdir = project(git_repo, conf + "sitemap_urls_per_file = 3\n")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    before = ours(outdir)
    git_repo.write("docs/usage.rst", page("Usage", fields=':sitemap: {"priority": 1.5}'))
    git_repo.commit("bad", "2024-04-01T12:00:00+00:00")
    proc = sphinx_build(srcdir, outdir, *flags, check=False)
    text = output(proc)
    assert proc.returncode != 0, text
    for crash in ("Traceback", "Extension error", "please open an issue"):
        assert crash not in text
    assert "usage.rst: priority 1.5 is not allowed" in text
    errors = [line for line in text.splitlines() if "ERROR" in line]
    if flags == ("-W",) and sphinx.version_info < (8, 1):
        assert "Warning, treated as error:" in text  # Sphinx 7 stops at the warning itself
        assert errors == []
    else:
        assert proc.returncode == 1, text
        assert errors == [
            f"ERROR: sitemap: 1 warning(s) and {strict} is on (see above); no sitemap written"
        ]
    assert ours(outdir) == before
    assert temporary_files(outdir) == []


@pytest.mark.parametrize("flags", [("-W",), ("-W", "--keep-going")], ids=["-W", "--keep-going"])
def test_a_damaged_record_stops_one_w_build_and_no_more(
    git_repo: GitRepo, tmp_path: Path, flags: tuple[str, ...]
) -> None:
    """Sphinx keeps its output folder: put back by the ``-W`` build that stopped on it (before
    Sphinx 8.1, at the warning itself), a damaged record would stop every later one too."""
    srcdir = project(git_repo)
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    before = ours(outdir)
    (outdir / RECORD).write_bytes(b'{"version": 1, "files"')
    stopped = sphinx_build(srcdir, outdir, *flags, check=False)
    assert stopped.returncode != 0
    assert f"{outdir / RECORD} is not readable as the record" in output(stopped)
    assert ours(outdir) == before
    sphinx_build(srcdir, outdir, *flags)  # no warning: -W passes
    check_sitemap_file(outdir / "sitemap.xml", BASE_URL + "sitemap.xml")
    assert recorded_files(outdir) == {"sitemap.xml"}


def test_an_upgrade_that_renames_the_sitemap_takes_the_older_releases_robots_txt_line_away(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A record written before robots.txt's lines were recorded names its sitemap as an entry
    point: the older release's line named it, and goes with it, as when this release wrote
    both; it stayed for good, naming a file the same build removed. The site's own lines stay:
    one for another sitemap.xml, and one for the gzipped copy, for which the older release
    wrote no line."""
    srcdir = project(git_repo, "sitemap_robots_txt = True\nsitemap_gzip = 'both'\n")
    outdir = tmp_path / "out"
    outdir.mkdir()
    users = [
        "User-agent: *",
        f"Sitemap: {BASE_URL}blog/sitemap.xml",
        f"Sitemap: {BASE_URL}sitemap.xml.gz",
    ]
    (outdir / "robots.txt").write_text("\n".join(users) + "\n", "utf-8")
    for _ in range(2):  # a build of the older release, then the upgrade's, as it was
        sphinx_build(srcdir, outdir)
        robots = (outdir / "robots.txt").read_text("utf-8").splitlines()
        assert robots == [*users, f"Sitemap: {BASE_URL}sitemap.xml"]
        record_as_older_releases_wrote_it(outdir)
    conf = srcdir / "conf.py"
    conf.write_text(conf.read_text("utf-8") + 'sitemap_filename = "map.xml"\n', "utf-8")
    for _ in range(2):  # the upgrade's build with the sitemap renamed, and the next one
        sphinx_build(srcdir, outdir)
        assert not (outdir / "sitemap.xml").exists()
        check_sitemap_file(outdir / "map.xml", BASE_URL + "map.xml")
        robots = (outdir / "robots.txt").read_text("utf-8").splitlines()
        assert robots == [*users, f"Sitemap: {BASE_URL}map.xml"]


LOCK_USAGE = """
import os

def _lock_usage(app, exception):
    # After Sphinx wrote usage/index.html and before the sitemap reads it back: a link that
    # loops, which no user can read, root included.
    page = os.path.join(app.outdir, "usage", "index.html")
    os.remove(page)
    os.symlink("index.html", page)

def setup(app):
    app.connect("build-finished", _lock_usage, priority=100)
"""


def test_a_page_that_cannot_be_read_back_is_listed_with_a_warning_and_w_fails(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Sphinx published the page, so it stays listed; what its head would say is unknown, and
    the user hears of it in one line naming the file and the cause, never a trace."""
    srcdir = project(git_repo, LOCK_USAGE)
    outdir = tmp_path / "out"
    proc = sphinx_build(srcdir, outdir)
    text = output(proc)
    assert "Traceback" not in text
    [line] = [line for line in text.splitlines() if "cannot read" in line]
    assert line.removesuffix(" [sitemap.unreadable]") == (  # the kind: from Sphinx 8 on
        f"WARNING: usage.rst: cannot read {outdir / 'usage' / 'index.html'} "
        f"({os.strerror(errno.ELOOP)}); "
        "listed without checking its head for a noindex or a redirect"
    )
    assert BASE_URL + "usage/" in read_entries(outdir)
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", check=False)
    assert strict.returncode != 0
    assert "cannot read" in output(strict)
    assert not (tmp_path / "strict" / "sitemap.xml").exists()
