"""Publishing with the real pelican command line: always readable, always whole, never a user's
file, never a trace.

Kills and hostile disks are set up inside the pelican child process by the site's own
``pelicanconf.py`` (see :mod:`tests.support.steps`). Pelican keeps its output folder between
builds (``DELETE_OUTPUT_DIRECTORY`` is off by default), so the previous sitemap is on disk when
the next build starts.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import shutil
import signal
import stat
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.pelican.helpers import BASE, PLAIN_SETTINGS, log_of, page, plain_repo, post
from tests.support.gitrepo import GitRepo
from tests.support.hosts import output, pelican_build
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

pytestmark = pytest.mark.pelican

USER_FILES = {
    "sitemap-2.xml": '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n',
    "sitemap-7.txt": BASE + "mine/\n",
}
SETTINGS = """
from tests.support.steps import install_from_environment
install_from_environment()
STATIC_PATHS = ["extra"]
EXTRA_PATH_METADATA = {{
    f"extra/{{name}}": {{"path": name}}
    for name in ("sitemap-2.xml", "sitemap-7.txt", "robots.txt", "sitemap.xml/notes.txt")
}}
SITEMAP = {sitemap!r}
"""
FILES = {
    "content/first.md": post("First", "2024-01-05 10:00", tags="a"),
    "content/second.md": post("Second", "2024-01-06 10:00", tags="b"),
    "content/pages/about.md": page("About"),
    **{f"content/extra/{name}": text for name, text in USER_FILES.items()},
}


def site_repo(git_repo: GitRepo, **sitemap: object) -> Path:
    return plain_repo(git_repo, FILES, SETTINGS.format(sitemap=sitemap))


def edit_a_post(git_repo: GitRepo) -> None:
    """Build B: one post modified later, so its entry and the listings' dates change."""
    text = post("Second", "2024-01-06 10:00", tags="b", Modified="2024-02-01 10:00")
    git_repo.write("content/second.md", text)
    git_repo.commit("edit second", "2024-02-01T10:00:00+00:00")


def ours(out: Path) -> dict[str, bytes]:
    """Every sitemap file in ``out`` (the user's own sitemap-like files excepted)."""
    return {
        name: data
        for name, data in snapshot(out).items()
        if name.startswith("sitemap") and name not in USER_FILES
    }


def published_files(out: Path) -> dict[str, bytes]:
    """What publishing may touch: sitemap files (a user's too), robots.txt and the record."""
    return {
        name: data
        for name, data in snapshot(out).items()
        if name.startswith("sitemap") or name in ("robots.txt", RECORD)
    }


def sitemap_lines(proc: subprocess.CompletedProcess[str]) -> list[str]:
    return [line for line in output(proc).splitlines() if "sitemap: " in line]


# -- always readable ---------------------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_every_file_gets_the_mode_of_the_pages_pelican_writes(git_repo: GitRepo, mask: int) -> None:
    site = site_repo(git_repo, urls_per_file=6, gzip="both", robots_txt=True)
    with umask(mask):
        pelican_build(site)
    out = site / "output"
    names = [*ours(out), "robots.txt", RECORD]
    assert len(names) >= 2 * 2 + 2 + 2
    page_mode = stat.S_IMODE((out / "first.html").stat().st_mode)
    assert page_mode == expected_mode(mask)
    assert {name: stat.S_IMODE((out / name).stat().st_mode) for name in names} == dict.fromkeys(
        names, page_mode
    )
    check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE)


def test_a_rebuild_under_a_stricter_umask_keeps_the_sitemap_as_readable_as_the_pages(
    git_repo: GitRepo,
) -> None:
    """A site rebuilt by a job of another umask (a cron job, a service's ``UMask=0077``):
    Pelican writes a page again over the old one, which keeps its mode; ours were renamed over
    theirs with the new umask's, and the sitemap alone answered 403."""
    site = site_repo(git_repo, urls_per_file=6, gzip="both", robots_txt=True)
    out = site / "output"
    with umask(0o022):
        pelican_build(site)
    first = {name: (out / name).stat().st_ino for name in [*ours(out), RECORD]}
    page_before = (out / "second.html").stat()
    edit_a_post(git_repo)
    with umask(0o077):
        pelican_build(site)
    names = [*ours(out), "robots.txt", RECORD]
    assert [name for name in ours(out) if name not in first] != []  # new shards, new files
    renamed = {
        name for name in ("sitemap.xml", RECORD) if (out / name).stat().st_ino != first[name]
    }
    assert renamed == {"sitemap.xml", RECORD}  # put over the earlier ones by a rename
    written_again = out / "second.html"
    assert written_again.stat().st_ino == page_before.st_ino  # written over in place ...
    assert written_again.stat().st_mtime_ns != page_before.st_mtime_ns  # ... this build
    page_mode = stat.S_IMODE(written_again.stat().st_mode)
    assert page_mode == expected_mode(0o022)
    assert {name: stat.S_IMODE((out / name).stat().st_mode) for name in names} == dict.fromkeys(
        names, page_mode
    )
    check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE)


# -- always whole ------------------------------------------------------------------------------


def test_a_kill_at_any_step_leaves_one_whole_set_and_the_next_build_cleans_up(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    site = site_repo(git_repo, urls_per_file=6)
    out = site / "output"
    pelican_build(site)
    built = {"A": ours(out)}
    saved = tmp_path / "saved"
    shutil.copytree(out, saved)
    edit_a_post(git_repo)
    log = tmp_path / "steps.log"
    pelican_build(site, env={"SITEMAP_TEST_STEPS": str(log)})
    built["B"] = ours(out)
    steps = log.read_text().splitlines()
    assert {step.split()[0] for step in steps} == {"start", "record", "write", "publish", "remove"}
    for number, step in enumerate(steps, 1):
        shutil.rmtree(out)
        shutil.copytree(saved, out)
        env = {"SITEMAP_TEST_KILL_AT": str(number)}
        killed = pelican_build(site, env=env, check=False)
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        problems = whole_set_problems(out, ["sitemap.xml"], built)
        assert problems == [], f"killed after {step!r}: {problems}"
        pelican_build(site)  # the next build
        assert temporary_files(out) == [], f"killed after {step!r}"
        assert ours(out) == built["B"], f"killed after {step!r}"
        assert recorded_files(out) == set(built["B"])
        assert {name: (out / name).read_text() for name in USER_FILES} == USER_FILES
    check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE)


# -- never a user's file -----------------------------------------------------------------------


def test_a_users_own_sitemap_files_are_never_removed(git_repo: GitRepo) -> None:
    site = site_repo(git_repo)
    out = site / "output"
    for per_file in (3, 6, 50_000):  # several shards, then fewer, then one file
        settings = SETTINGS.format(sitemap={"urls_per_file": per_file})
        git_repo.write("pelicanconf.py", PLAIN_SETTINGS + settings)
        pelican_build(site)
        check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE)
        assert {name: (out / name).read_text() for name in USER_FILES} == USER_FILES
        assert set(ours(out)) == set(published_set(out, "sitemap.xml"))
    assert sorted(ours(out)) == ["sitemap.xml"]


OWN_SITEMAP = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
    f"<url><loc>{BASE}handmade/</loc></url></urlset>\n"
)
SITES_OWN = {
    # where the site's own sitemap.xml comes from: its source, and the settings that put it there
    "static file": (
        "content/extra/sitemap.xml",
        'STATIC_PATHS = ["extra"]\n'
        'EXTRA_PATH_METADATA = {"extra/sitemap.xml": {"path": "sitemap.xml"}}\n',
    ),
    "template page": (
        "content/tpl/sitemap.xml",
        'TEMPLATE_PAGES = {"tpl/sitemap.xml": "sitemap.xml"}\n',
    ),
}


@pytest.mark.parametrize("kind", list(SITES_OWN))
def test_a_sitemap_of_the_sites_own_is_kept_with_a_warning(git_repo: GitRepo, kind: str) -> None:
    """A ``sitemap.xml`` Pelican copies or renders into the output is the site's: it stays
    as Pelican wrote it, no file of the set is written (not even the ``.gz``, and the one an
    earlier build published goes), and one warning names its source and the setting, which
    ``strict`` and ``--fatal warnings`` fail on. Once the file leaves the site, the next build
    writes the sitemap again."""
    source, settings = SITES_OWN[kind]
    site = plain_repo(git_repo, FILES, "SITEMAP = {'gzip': 'both'}\n")
    out = site / "output"
    pelican_build(site)
    assert sorted(ours(out)) == ["sitemap.xml", "sitemap.xml.gz"]
    git_repo.write(source, OWN_SITEMAP)
    git_repo.write("pelicanconf.py", (site / "pelicanconf.py").read_text("utf-8") + settings)
    git_repo.commit("a sitemap of our own", "2024-06-01T10:00:00+00:00")
    for _ in range(2):  # the earlier build's files, then none of ours
        proc = pelican_build(site, "-v")
        # As Pelican wrote it (a template loses its last newline).
        assert (out / "sitemap.xml").read_text("utf-8").strip() == OWN_SITEMAP.strip()
        assert not (out / "sitemap.xml.gz").exists()
        log = log_of(proc)
        assert log.count("WARNING") == 1, log
        assert (
            f"sitemap: {source}: already written to sitemap.xml, where the sitemap goes "
            "(filename 'sitemap.xml'); the site's file is kept and no sitemap is written: "
            "remove that file from the site, or set filename to another name"
        ) in log
        assert recorded_files(out) == set()
    configured = (site / "pelicanconf.py").read_text("utf-8")
    strict = configured.replace("{'gzip': 'both'}", "{'gzip': 'both', 'strict': True}")
    for text, args in ((strict, ()), (configured, ("--fatal", "warnings"))):
        git_repo.write("pelicanconf.py", text)
        failed = pelican_build(site, *args, check=False)
        assert failed.returncode != 0, output(failed)
        assert (out / "sitemap.xml").read_text("utf-8").strip() == OWN_SITEMAP.strip()
    git_repo.remove(source)
    git_repo.write("pelicanconf.py", configured.replace(settings, ""))
    git_repo.commit("no sitemap of our own", "2024-06-02T10:00:00+00:00")
    pelican_build(site)  # Pelican leaves its last copy in the output: no longer the site's
    entries = check_sitemap_file(
        out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE
    )
    assert BASE + "pages/about.html" in {entry.loc for entry in entries}
    assert sorted(recorded_files(out)) == ["sitemap.xml", "sitemap.xml.gz"]


def test_a_news_sitemap_of_the_sites_own_is_kept_with_a_warning(git_repo: GitRepo) -> None:
    """A ``sitemap-news.xml`` the site copies into the output stays, and no news sitemap goes
    over it, with one warning; the sitemap itself is written."""
    now = dt.datetime.now(dt.timezone.utc) - dt.timedelta(hours=3)
    files = {
        **FILES,
        "content/fresh.md": post("Fresh", now.strftime("%Y-%m-%d %H:%M")),
        "content/extra/sitemap-news.xml": OWN_SITEMAP,
    }
    settings = (
        'STATIC_PATHS = ["extra"]\n'
        'EXTRA_PATH_METADATA = {"extra/sitemap-news.xml": {"path": "sitemap-news.xml"}}\n'
        'SITEMAP = {"news": {"name": "The Example", "language": "en"}}\n'
    )
    site = plain_repo(git_repo, files, settings)
    out = site / "output"
    proc = pelican_build(site, "-v")
    assert (out / "sitemap-news.xml").read_text("utf-8") == OWN_SITEMAP
    log = log_of(proc)
    assert log.count("WARNING") == 1, log
    assert (
        "sitemap: content/extra/sitemap-news.xml: already written to sitemap-news.xml, where "
        "the news sitemap goes (the news option, beside filename 'sitemap.xml'); the site's "
        "file is kept and no news sitemap is written: remove that file from the site, or turn "
        "news off"
    ) in log
    entries = check_sitemap_file(
        out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE
    )
    assert BASE + "fresh.html" in {entry.loc for entry in entries}
    assert recorded_files(out) == {"sitemap.xml"}
    assert "news: 1 article of the last two days, no news sitemap written" in log


def test_an_attached_image_still_goes_beside_its_article(git_repo: GitRepo) -> None:
    """Looking at where Pelican copies the static files does not pin them where they are: an
    article's ``{attach}`` still moves its image next to the article, without a warning, with
    the page for humans too."""
    files = {
        "content/posts/post.md": "Title: Post\nDate: 2024-01-01\n\n![pic]({attach}pic.png)\n",
        "content/posts/pic.png": "not really a PNG",
    }
    settings = 'STATIC_PATHS = ["posts"]\nARTICLE_SAVE_AS = "blog/{slug}.html"\n'
    settings += 'ARTICLE_URL = "blog/{slug}.html"\n'
    site = plain_repo(git_repo, files, settings)
    out = site / "output"
    for sitemap in ({}, {"html_page": True}):
        git_repo.write("pelicanconf.py", PLAIN_SETTINGS + settings + f"SITEMAP = {sitemap!r}\n")
        shutil.rmtree(out, ignore_errors=True)
        proc = pelican_build(site)
        assert "WARNING" not in output(proc), output(proc)
        assert (out / "blog" / "pic.png").is_file()
        assert '<img alt="pic" src="https://example.org/blog/pic.png"' in (
            out / "blog" / "post.html"
        ).read_text("utf-8")


# -- never a trace -----------------------------------------------------------------------------


@pytest.fixture
def tmpfs_output(git_repo: GitRepo) -> Iterator[Path | None]:
    """A small tmpfs mounted as the site's output folder where the machine allows it."""
    mounted = mount_tmpfs(git_repo.root / "output", "8m")
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
def test_an_io_fault_is_one_logged_line_and_the_previous_sitemap_stays(
    git_repo: GitRepo, tmp_path: Path, tmpfs_output: Path | None, kind: str
) -> None:
    git_repo.write("content/extra/robots.txt", "User-agent: *\n")
    site = site_repo(git_repo, urls_per_file=6, robots_txt=True)
    out = site / "output"
    env: dict[str, str] = {}
    if kind == "disk full":
        action = f"fill:{out}:0" if tmpfs_output is not None else "enospc:0"
        env["SITEMAP_TEST_AT_START"] = action
    if kind == "read-only folder":
        reason = read_only_unavailable(tmp_path / "probe")
        if reason is not None:
            pytest.skip(reason)
        env["SITEMAP_TEST_AT_START"] = f"readonly:{out}"
    pelican_build(site)
    before = published_files(out)
    edit_a_post(git_repo)
    if kind == "robots.txt not UTF-8":
        latin1 = "User-agent: *\nDisallow: /privé/\n".encode("latin-1")
        git_repo.path("content/extra/robots.txt").write_bytes(latin1)
    if kind == "sitemap.xml is a folder":
        for name in [*ours(out), RECORD]:
            (out / name).unlink()
        git_repo.write("content/extra/sitemap.xml/notes.txt", "a user's folder")
        assert pelican_build(site, check=False).returncode == 1  # the first build hits it too
        before = published_files(out)
    # Pelican copies static files on every build, before the sitemap is written: robots.txt is
    # then the user's own again, and stays so when the sitemap cannot be written.
    before["robots.txt"] = git_repo.path("content/extra/robots.txt").read_bytes()
    try:
        proc = pelican_build(site, env=env, check=False)
    finally:
        if kind == "read-only folder":
            make_writable(out)
    assert proc.returncode == 1, output(proc)
    assert "Traceback" not in output(proc)
    [line] = sitemap_lines(proc)
    path = out / ("robots.txt" if kind == "robots.txt not UTF-8" else "sitemap.xml")
    verb = "update" if kind == "robots.txt not UTF-8" else "write"
    pattern = rf"CRITICAL +SitemapPublishError: sitemap: cannot {verb} {re.escape(str(path))}: "
    assert re.search(pattern + CAUSES[kind], line), line
    (out / FILLER).unlink(missing_ok=True)
    assert published_files(out) == before  # every file as it was
    assert temporary_files(out) == []
    if kind != "sitemap.xml is a folder":
        check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE)


def test_a_gz_twin_that_cannot_be_replaced_fails_the_build_before_sitemap_xml_is_replaced(
    git_repo: GitRepo,
) -> None:
    """With ``gzip: both``, ``sitemap.xml`` goes in place before its ``.gz``: a ``.gz`` that
    cannot be replaced (immutable here; another user's in a folder with the sticky bit is
    alike) must be found first, or the failed build leaves a new ``sitemap.xml`` served beside
    the old ``sitemap.xml.gz``. One logged line names it and why; every file stays as it was."""
    site = site_repo(git_repo, urls_per_file=6, gzip="both")
    out = site / "output"
    pelican_build(site)
    before = published_files(out)
    edit_a_post(git_repo)
    twin = out / "sitemap.xml.gz"
    reason = make_unreplaceable(twin)
    if reason is not None:
        pytest.skip(reason)
    try:
        proc = pelican_build(site, check=False)
        after = published_files(out)
    finally:
        make_writable(twin)
    assert proc.returncode == 1, output(proc)
    assert "Traceback" not in output(proc)
    assert after == before  # sitemap.xml and the shards too
    assert temporary_files(out) == []
    [line] = sitemap_lines(proc)
    cause = re.escape(f"{twin}: {REFUSED_AS_IMMUTABLE}")
    assert re.search(rf"CRITICAL +SitemapPublishError: sitemap: cannot replace {cause}", line), line
    pelican_build(site)  # replaceable again: the next build publishes
    assert published_files(out)["sitemap.xml.gz"] != before["sitemap.xml.gz"]
    check_sitemap_file(out / "sitemap.xml.gz", BASE + "sitemap.xml.gz", site_dir=out, base_url=BASE)


def test_a_page_for_humans_that_cannot_be_written_fails_the_build_before_the_sitemap_is(
    git_repo: GitRepo,
) -> None:
    """Pelican's writer writes the page for humans over the file there once the sitemap is
    published: one that cannot be written over must be found before, or the failed build
    leaves the new sitemap beside the page that lists the old one."""
    site = site_repo(git_repo, html_page=True)
    out = site / "output"
    pelican_build(site)
    before = published_files(out)
    edit_a_post(git_repo)
    human = out / "sitemap.html"
    reason = make_unreplaceable(human)
    if reason is not None:
        pytest.skip(reason)
    try:
        proc = pelican_build(site, check=False)
        after = published_files(out)
    finally:
        make_writable(human)
    assert proc.returncode == 1, output(proc)
    assert "Traceback" not in output(proc)
    assert after == before
    assert temporary_files(out) == []
    [line] = sitemap_lines(proc)
    cause = re.escape(f"{human}: {REFUSED_AS_IMMUTABLE}")
    assert re.search(rf"CRITICAL +SitemapPublishError: sitemap: cannot write {cause}", line), line
    pelican_build(site)  # writable again: the next build publishes
    assert published_files(out)["sitemap.html"] != before["sitemap.html"]


def test_strict_mode_writes_no_sitemap_and_keeps_the_previous_one(git_repo: GitRepo) -> None:
    site = site_repo(git_repo, strict=True, urls_per_file=6)
    out = site / "output"
    pelican_build(site)
    before = ours(out)
    git_repo.write("content/second.md", post("Second", "2024-01-06 10:00", Priority="high"))
    git_repo.commit("bad", "2024-02-01T10:00:00+00:00")
    proc = pelican_build(site, check=False)
    assert proc.returncode == 1
    assert "Traceback" not in output(proc)
    lines = sitemap_lines(proc)
    assert any("content/second.md: priority 'high' is not allowed" in line for line in lines)
    [error] = [line for line in lines if "CRITICAL" in line]
    assert re.search(
        r"CRITICAL +SitemapStrictError: sitemap: 1 warning\(s\) and SITEMAP\['strict'\] is on; "
        r"no sitemap written( |$)",
        error,
    )
    assert ours(out) == before
    assert temporary_files(out) == []


def test_an_existing_robots_txt_keeps_its_mode(git_repo: GitRepo) -> None:
    """A mode the site owner gave robots.txt in the output stays: Pelican copies the static file
    into the existing one, and our update of the Sitemap line keeps its mode too."""
    git_repo.write("content/extra/robots.txt", "User-agent: *\n")
    site = site_repo(git_repo, robots_txt=True)
    pelican_build(site)
    robots = site / "output" / "robots.txt"
    robots.chmod(0o640)
    pelican_build(site)
    assert robots.read_text() == f"User-agent: *\nSitemap: {BASE}sitemap.xml\n"
    assert stat.S_IMODE(robots.stat().st_mode) == 0o640


def test_an_output_folder_pelican_empties_first_is_a_first_build_each_time(
    git_repo: GitRepo,
) -> None:
    """With DELETE_OUTPUT_DIRECTORY the record goes too: nothing is known to be ours, nothing
    is removed, and the user's files Pelican copies again are left alone."""
    site = site_repo(git_repo, urls_per_file=4)
    settings = (site / "pelicanconf.py").read_text() + "DELETE_OUTPUT_DIRECTORY = True\n"
    git_repo.write("pelicanconf.py", settings)
    out = site / "output"
    for _ in range(2):
        pelican_build(site)
        check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml", site_dir=out, base_url=BASE)
        assert set(ours(out)) == set(published_set(out, "sitemap.xml"))
        assert {name: (out / name).read_text() for name in USER_FILES} == USER_FILES
        assert temporary_files(out) == []


def test_the_plain_page_for_humans_is_written_where_the_check_for_it_allowed(
    git_repo: GitRepo,
) -> None:
    """A theme whose ``page`` template fails gets the core's plain page for humans (one without
    it gets Pelican's own, from its simple theme). Publishing
    checked that page by the rule of a write over it in place, as Pelican writes a page: the
    plain page must be written so too, or a writable ``sitemap.html`` of another user's in a
    folder with the sticky bit (a shared web root), which a rename cannot replace, fails the
    build after the new sitemap is published beside the page that lists the old one."""
    import pelican

    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run without the right to act as any owner")
    theme = git_repo.root / "theme"
    simple = Path(pelican.__file__).parent / "themes" / "simple" / "templates"
    shutil.copytree(simple, theme / "templates", ignore=shutil.ignore_patterns("page.html"))
    (theme / "templates" / "page.html").write_text("{{ no_such_thing.at_all }}\n", "utf-8")
    files = {name: text for name, text in FILES.items() if not name.startswith("content/pages")}
    settings = SETTINGS.format(sitemap={"html_page": True}) + f"THEME = {str(theme)!r}\n"
    site = plain_repo(git_repo, files, settings)
    out = site / "output"
    pelican_build(site)
    before = published_files(out)
    edit_a_post(git_repo)
    human = out / "sitemap.html"
    via = [setpriv, "--bounding-set=-fowner"]
    nobody = 65534
    out.chmod(0o1777)
    human.chmod(0o666)
    for path in (out, human):
        os.chown(path, nobody, nobody)
    try:
        probe = out / "probe.tmp"
        probe.write_bytes(b"")
        tried = subprocess.run([*via, "mv", "-f", str(probe), str(human)], capture_output=True,
                               check=False)  # fmt: skip
        probe.unlink(missing_ok=True)
        if tried.returncode == 0:
            pytest.skip("another user's file in a folder with the sticky bit was replaced here")
        proc = pelican_build(site, "-v", check=False, via=via)
    finally:
        out.chmod(0o755)
        for path in (out, human):
            os.chown(path, 0, 0)
    assert proc.returncode == 0, output(proc)
    assert "written plain" in output(proc), output(proc)
    after = published_files(out)
    assert after["sitemap.xml"] != before["sitemap.xml"]
    assert after["sitemap.html"] != before["sitemap.html"]
    assert "second.html" in after["sitemap.html"].decode("utf-8")
    assert temporary_files(out) == []
