"""``generate --html-page``: the plain page for humans after another tool's build.

``generate`` has no theme to render through, so it writes the core's plain page; it must list
exactly what the sitemap lists (with each page's own ``<title>``), and a second run must not
take the first run's page for a page of the site.
"""

from __future__ import annotations

import json
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.cli_generate.helpers import page, run, write
from tests.support.browser import check_in_browser
from tests.support.gitrepo import GitRepo
from tests.support.hosts import child_env
from tests.support.publishing import recorded_files, temporary_files
from tests.support.sitemap_checks import check_sitemap_file

BASE = "https://example.org/"
JAN = "2024-01-10T09:00:00+00:00"
APR = "2024-04-30T08:00:00+02:00"


def test_generate_writes_the_plain_page_and_never_lists_it(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    root = git_repo
    root.write("index.html", page("Home").replace("lang=en", "lang=de"))
    root.write("docs/a.html", page("A &amp; B"))
    root.write("docs/index.html", page("Docs"))
    root.commit("start", JAN)
    root.write("blog/post.html", page("Post"))
    root.commit("post", APR)
    for _ in range(2):  # the second run finds the first run's sitemap.html
        done = run("generate", ".", "--base-url", BASE, "--html-page", cwd=root.root)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("sitemap: 4 URLs in sitemap.xml"), done.stdout
    entries = check_sitemap_file(root.root / "sitemap.xml", BASE + "sitemap.xml")
    assert BASE + "sitemap.html" not in {entry.loc for entry in entries}
    text = (root.root / "sitemap.html").read_text("utf-8")
    assert '<html lang="de">' in text  # the site's own language
    assert '<time datetime="2024-04-30T08:00:00+02:00">2024-04-30</time>' in text
    check_in_browser(
        root.root,
        "sitemap.html",
        base_url=BASE,
        sitemap_relpath="sitemap.xml",
        titles={
            BASE: "Home",
            BASE + "blog/post.html": "Post",
            BASE + "docs/": "Docs",
            BASE + "docs/a.html": "A & B",
        },
        shot=tmp_path / "generate.png",
    )


def test_without_the_option_no_page(git_repo: GitRepo) -> None:
    git_repo.write("index.html", page("Home"))
    git_repo.commit("start", JAN)
    done = run("generate", ".", "--base-url", BASE, cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    assert not (git_repo.root / "sitemap.html").exists()


def test_an_earlier_runs_page_is_never_listed_and_goes_with_the_option(git_repo: GitRepo) -> None:
    """The page is recorded with the sitemap's files (``.sitemap-plugins.json``): a later run
    without ``--html-page`` never takes it for a page of the site and removes it, as it
    removes a ``.gz`` it no longer writes. A page of the site's own under that name is its
    own: listed, and never removed."""
    root = git_repo.root
    git_repo.write("index.html", page("Home"))
    git_repo.write("guide/index.html", page("Guide"))
    git_repo.commit("start", JAN)
    pages = {BASE, BASE + "guide/"}
    done = run("generate", ".", "--base-url", BASE, "--html-page", cwd=root)
    assert done.returncode == 0, done.stderr
    assert (root / "sitemap.html").is_file()
    assert (
        "sitemap.html" in json.loads((root / ".sitemap-plugins.json").read_text("utf-8"))["files"]
    )
    done = run("generate", ".", "--base-url", BASE, cwd=root)
    assert done.returncode == 0, done.stderr
    assert {entry.loc for entry in check_sitemap_file(root / "sitemap.xml")} == pages
    assert not (root / "sitemap.html").exists()
    write(root / "sitemap.html", page("Site map"))  # the site's own page of that name
    for _ in range(2):
        done = run("generate", ".", "--base-url", BASE, cwd=root)
        assert done.returncode == 0, done.stderr
        listed = {entry.loc for entry in check_sitemap_file(root / "sitemap.xml")}
        assert listed == pages | {BASE + "sitemap.html"}
        assert "Site map" in (root / "sitemap.html").read_text("utf-8")


def test_the_sites_own_page_of_that_name_is_kept_and_listed_with_a_warning(
    git_repo: GitRepo,
) -> None:
    """With ``--html-page`` on, a ``sitemap.html`` no earlier run wrote is the site's own
    page (a page the host built, a copied file): writing over it would lose it, and leave the
    sitemap listing a page no longer there. It is kept and listed, the conflict is said, and
    ``--strict`` fails before anything is written."""
    root = git_repo.root
    git_repo.write("index.html", page("Home"))
    git_repo.write("sitemap.html", page("Our own map"))
    git_repo.commit("start", JAN)
    before = (root / "sitemap.html").read_bytes()
    strict = run("generate", ".", "--base-url", BASE, "--html-page", "--strict", cwd=root)
    assert strict.returncode == 1, strict.stdout + strict.stderr
    assert not (root / "sitemap.xml").exists()
    for _ in range(2):
        done = run("generate", ".", "--base-url", BASE, "--html-page", cwd=root)
        assert done.returncode == 0, done.stderr
        assert "sitemap.html: already written to sitemap.html" in done.stderr
        assert "html_page left it as it is" in done.stderr
        assert (root / "sitemap.html").read_bytes() == before
        listed = {entry.loc for entry in check_sitemap_file(root / "sitemap.xml")}
        assert listed == {BASE, BASE + "sitemap.html"}
        assert "sitemap.html" not in recorded_files(root)


def test_a_page_you_changed_since_is_yours_kept_and_listed(git_repo: GitRepo) -> None:
    """A ``sitemap.html`` an earlier run wrote and you changed since (it still holds the
    listing) is yours: never written over, listed as a page, said with a warning that
    ``--strict`` fails on; and kept once the option is off."""
    root = git_repo.root
    git_repo.write("index.html", page("Home"))
    git_repo.commit("start", JAN)
    assert run("generate", ".", "--base-url", BASE, "--html-page", cwd=root).returncode == 0
    own = root / "sitemap.html"
    edited = own.read_text("utf-8").replace("</body>", "<p>Our note.</p></body>")
    own.write_text(edited, "utf-8")
    strict = run("generate", ".", "--base-url", BASE, "--html-page", "--strict", cwd=root)
    assert strict.returncode == 1, strict.stdout + strict.stderr
    for flags in (("--html-page",), ()):
        done = run("generate", ".", "--base-url", BASE, *flags, cwd=root)
        assert done.returncode == 0, done.stderr
        assert own.read_text("utf-8") == edited
        listed = {entry.loc for entry in check_sitemap_file(root / "sitemap.xml")}
        assert listed == {BASE, BASE + "sitemap.html"}
    assert "html_page left it as it is" in strict.stderr


GENERATE = """
import sys
from tests.support.steps import install_from_environment
install_from_environment()
from sitemap_plugins.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _generate(root: Path, *flags: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``generate`` in a child process that :mod:`tests.support.steps` can count or kill."""
    return subprocess.run(
        [sys.executable, "-c", GENERATE, "generate", ".", "--base-url", BASE, *flags],
        cwd=root,
        env=child_env(env),
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_after_a_kill_at_any_step_a_run_without_the_option_takes_the_page_away(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Killed between recording its set and putting the new page in place, a run leaves the
    earlier page where the record names the new one: still ours, never listed by the next run
    without the option, and removed, as the page of a run that finished is."""
    git_repo.write("index.html", page("Home"))
    git_repo.commit("start", JAN)
    assert _generate(git_repo.root, "--html-page").returncode == 0
    git_repo.write("guide/index.html", page("Guide"))
    git_repo.commit("guide", APR)
    log = tmp_path / "steps.log"
    counted = tmp_path / "counted"
    shutil.copytree(git_repo.root, counted)
    assert _generate(counted, "--html-page", SITEMAP_TEST_STEPS=str(log)).returncode == 0
    for number, step in enumerate(log.read_text().splitlines(), 1):
        out = tmp_path / f"kill-{number}"
        shutil.copytree(git_repo.root, out)
        killed = _generate(out, "--html-page", SITEMAP_TEST_KILL_AT=str(number))
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        done = _generate(out)
        assert done.returncode == 0, (step, done.stderr)
        listed = {entry.loc for entry in check_sitemap_file(out / "sitemap.xml")}
        assert listed == {BASE, BASE + "guide/"}, step
        assert not (out / "sitemap.html").exists(), step
        assert temporary_files(out) == [], step


def test_a_kill_at_any_step_leaves_a_whole_page_and_the_next_run_puts_it_right(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The page is published in the sitemap's own set: a run killed at any step leaves the
    earlier page or the new one, whole, and the next run publishes the new one, records it and
    leaves no temporary file; a run without the option then removes it."""
    git_repo.write("index.html", page("Home"))
    git_repo.commit("start", JAN)
    assert _generate(git_repo.root, "--html-page").returncode == 0
    earlier = (git_repo.root / "sitemap.html").read_bytes()
    git_repo.write("guide/index.html", page("Guide"))  # the next run's page lists it too
    git_repo.commit("guide", APR)
    counted = tmp_path / "counted"
    shutil.copytree(git_repo.root, counted)
    log = tmp_path / "steps.log"
    assert _generate(counted, "--html-page", SITEMAP_TEST_STEPS=str(log)).returncode == 0
    later = (counted / "sitemap.html").read_bytes()
    assert later != earlier
    all_steps = log.read_text().splitlines()
    assert "publish sitemap.html" in all_steps, all_steps
    for number, step in enumerate(all_steps, 1):
        out = tmp_path / f"kill-{number}"
        shutil.copytree(git_repo.root, out)
        killed = _generate(out, "--html-page", SITEMAP_TEST_KILL_AT=str(number))
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        assert (out / "sitemap.html").read_bytes() in (earlier, later), step
        assert _generate(out, "--html-page").returncode == 0, step
        assert (out / "sitemap.html").read_bytes() == later, step
        assert temporary_files(out) == [], step
        assert "sitemap.html" in recorded_files(out), step
        done = _generate(out)
        assert done.returncode == 0, (step, done.stderr)
        assert not (out / "sitemap.html").exists(), step
        listed = {entry.loc for entry in check_sitemap_file(out / "sitemap.xml")}
        assert listed == {BASE, BASE + "guide/"}, step
