"""Publishing that never hurts the site, on real folders: readable, whole, never a user's file,
never a trace.

Kills are real: a child process runs the writer and is killed with SIGKILL between two steps of
publishing (see :mod:`tests.support.steps`); the test then looks at what a reader finds and
runs the next build. Errors are real where the machine allows (a read-only folder, a full
tmpfs); a full disk is otherwise a write that fails with ENOSPC.
"""

from __future__ import annotations

import errno
import gc
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from sitemap_plugins.core import publish
from sitemap_plugins.core.options import Options
from sitemap_plugins.core.report import Code, CollectingReporter, PublishError, StrictError
from sitemap_plugins.core.writer import write_sitemaps
from tests.core.publish_site import BASE, NEWS_OPTION, SPLIT, entries, write, write_news
from tests.support import steps
from tests.support.hosts import child_env
from tests.support.publishing import (
    FILLER,
    RECORD,
    REFUSED_AS_IMMUTABLE,
    expected_mode,
    files_of,
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

USER_FILES = {
    "sitemap-2.xml": '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n',
    "sitemap-7.txt": BASE + "mine/\n",
}


CHILD = """
import sys
from pathlib import Path
from tests.support.steps import install_from_environment
install_from_environment()
from tests.core.publish_site import SPLIT, write
write(Path(sys.argv[2]), sys.argv[1], **SPLIT)
"""


def child(version: str, out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """Write ``version`` into ``out`` in a child process, as a host's build does."""
    return subprocess.run(
        [sys.executable, "-c", CHILD, version, str(out)],
        env=child_env(env),
        capture_output=True,
        text=True,
        check=False,
    )


def ours(folder: Path) -> dict[str, bytes]:
    """What publishing left in ``folder``: everything but the user's files and the record."""
    return {name: data for name, data in snapshot(folder).items() if name not in USER_FILES}


@pytest.fixture
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, bytes]]:
    """What build A and build B each publish, written once into folders of their own."""
    built = {}
    for version in ("A", "B"):
        folder = tmp_path_factory.mktemp(f"reference-{version}")
        write(folder, version, **SPLIT)
        built[version] = {k: v for k, v in snapshot(folder).items() if k != RECORD}
    return built


# -- always readable ---------------------------------------------------------------------------


@pytest.mark.parametrize("mask", [0o022, 0o027])
def test_every_file_gets_the_mode_an_ordinary_write_gets(tmp_path: Path, mask: int) -> None:
    with umask(mask):
        write(tmp_path, "A", **SPLIT)
        (tmp_path / "ordinary.html").write_text("a page as the host writes it")
    names = files_of(tmp_path)
    assert len(names) == 1 + 4 * 2 + 2 + 1 + 1  # page, shards, index, robots.txt, record
    modes = {name: stat.S_IMODE((tmp_path / name).stat().st_mode) for name in names}
    assert modes == dict.fromkeys(names, expected_mode(mask))
    check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")


def test_a_set_written_again_under_a_stricter_umask_keeps_the_earlier_sets_mode(
    tmp_path: Path,
) -> None:
    """A rebuild by a job of another umask (a cron job, a service's ``UMask=0077``): the files
    renamed over ours keep their mode, as pages written again in place keep theirs, and a shard
    new to this set (named by its content) takes the mode of the set it replaces, or the index
    would list a part the web server cannot read. A file of no earlier set takes the umask's."""
    with umask(0o022):
        write(tmp_path, "A", **SPLIT)
    first = set(files_of(tmp_path))
    with umask(0o077):
        write(tmp_path, "B", **SPLIT)
        write(tmp_path / "fresh", "A", **SPLIT)
    names = [name for name in files_of(tmp_path) if not name.startswith("fresh/")]
    assert [name for name in names if name not in first] != []  # B's new shards
    modes = {name: stat.S_IMODE((tmp_path / name).stat().st_mode) for name in names}
    assert modes == dict.fromkeys(names, expected_mode(0o022))
    check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    fresh = files_of(tmp_path / "fresh")
    assert len(fresh) == len(first)
    modes = {name: stat.S_IMODE((tmp_path / "fresh" / name).stat().st_mode) for name in fresh}
    assert modes == dict.fromkeys(fresh, expected_mode(0o077))


def test_an_existing_robots_txt_keeps_its_mode(tmp_path: Path) -> None:
    robots = tmp_path / "robots.txt"
    robots.write_text("User-agent: *\nDisallow: /private/\n")
    robots.chmod(0o604)
    write(tmp_path, "A", robots_txt=True)
    assert robots.read_text() == (
        f"User-agent: *\nDisallow: /private/\nSitemap: {BASE}sitemap.xml\n"
    )
    assert stat.S_IMODE(robots.stat().st_mode) == 0o604
    inode = robots.stat().st_ino
    write(tmp_path, "B", robots_txt=True)
    assert robots.stat().st_ino == inode  # the same line: robots.txt is not even replaced


# -- robots.txt: our line, and only ours ----------------------------------------------------

MOVED = "https://docs.example.net/"
"""Where the site of :mod:`.publish_site` moves to: another host, as when a project gets its
own domain."""
USERS_ROBOTS = [
    "User-agent: *",
    "Disallow: /private/",
    "Sitemap: https://example.org/sitemap.xml",  # the host's root: another folder than ours
    "Sitemap: https://example.org/blog/sitemap.xml",
    "Sitemap: https://shop.example.net/sitemap.xml",
]

MOVING_CHILD = """
import sys
from pathlib import Path
from tests.support.steps import install_from_environment
install_from_environment()
from tests.core.publish_site import write
write(Path(sys.argv[2]), "A", base=sys.argv[1], robots_txt=True)
"""


def robots_lines(folder: Path) -> list[str]:
    return (folder / "robots.txt").read_text("utf-8").splitlines()


def test_robots_txt_keeps_every_other_sitemaps_line_and_ours_follows_the_site(
    tmp_path: Path,
) -> None:
    """Lines naming other sitemaps called ``sitemap.xml`` (another folder, another host) are
    the site owner's; the line our build wrote is ours, and moves with the base URL."""
    (tmp_path / "robots.txt").write_text("\n".join(USERS_ROBOTS) + "\n", "utf-8")
    write(tmp_path, "A", robots_txt=True)
    assert robots_lines(tmp_path) == [*USERS_ROBOTS, f"Sitemap: {BASE}sitemap.xml"]
    write(tmp_path, "A", base=MOVED, robots_txt=True)
    assert robots_lines(tmp_path) == [*USERS_ROBOTS, f"Sitemap: {MOVED}sitemap.xml"]
    check_sitemap_file(tmp_path / "sitemap.xml", MOVED + "sitemap.xml")


def test_a_build_with_nothing_to_list_takes_the_last_sitemap_away(tmp_path: Path) -> None:
    """A clean build of a site with nothing to list has no sitemap, so a build into the same
    folder leaves none either: the last build's files go, and our robots.txt line with them,
    while the user's files, lines and a file of ours they changed stay. Strict mode decides
    first: a strict build with nothing to list fails and changes nothing."""
    for name, text in USER_FILES.items():
        (tmp_path / name).write_text(text, "utf-8")
    (tmp_path / "robots.txt").write_text("\n".join(USERS_ROBOTS) + "\n", "utf-8")
    write(tmp_path, "A", **SPLIT)
    published = ours(tmp_path)
    assert f"Sitemap: {BASE}sitemap.xml" in robots_lines(tmp_path)
    before = snapshot(tmp_path)
    empty = Options.from_mapping({**SPLIT, "strict": True})
    reporter = CollectingReporter()
    with pytest.raises(StrictError):
        write_sitemaps(iter([]), tmp_path, base_url=BASE, options=empty, reporter=reporter,
                       before_publish=lambda: _fail_if_warned(reporter))  # fmt: skip
    assert snapshot(tmp_path) == before
    changed = next(name for name in published if name.startswith("sitemap-"))
    (tmp_path / changed).write_bytes(b"edited by hand\n")
    reporter = CollectingReporter()
    write_sitemaps(iter([]), tmp_path, base_url=BASE, options=Options.from_mapping(SPLIT),
                   reporter=reporter)  # fmt: skip
    assert reporter.codes() == [Code.EMPTY]
    assert robots_lines(tmp_path) == USERS_ROBOTS
    assert sorted(ours(tmp_path)) == sorted([RECORD, "robots.txt", changed]), changed
    for name, text in USER_FILES.items():
        assert (tmp_path / name).read_text("utf-8") == text
    assert temporary_files(tmp_path) == []
    assert recorded_files(tmp_path) == set()


def _fail_if_warned(reporter: CollectingReporter) -> None:
    """What the builder's strict check does just before anything is published."""
    if reporter.warnings:
        raise StrictError(len(reporter.warnings), written=False)


def test_a_line_already_there_is_not_taken_for_ours_under_another_base_url(
    tmp_path: Path,
) -> None:
    """Without a record saying we wrote it, a line naming our file name at another URL may be
    a sitemap of someone else's: it stays, and ours is added."""
    old_line = f"Sitemap: {BASE}sitemap.xml"
    (tmp_path / "robots.txt").write_text(old_line + "\n", "utf-8")
    write(tmp_path, "A", base=MOVED, robots_txt=True)
    assert robots_lines(tmp_path) == [old_line, f"Sitemap: {MOVED}sitemap.xml"]


@pytest.mark.parametrize(
    ("change", "top"),
    [
        ({"gzip": "on"}, "sitemap.xml.gz"),
        ({"filename": "map.xml"}, "map.xml"),
        ({"format": "txt"}, "sitemap.txt"),
        ({"filename": "map.xml", "base": MOVED}, "map.xml"),
    ],
    ids=["gzip on", "filename", "format txt", "filename and base URL"],
)
def test_our_line_for_a_sitemap_no_longer_published_goes_with_it(
    tmp_path: Path, change: dict[str, str], top: str
) -> None:
    """Another ``filename``, ``gzip`` or format (and a new base URL with it): the earlier
    sitemap goes, and so does the line our build wrote for it, which would name a missing
    file; the user's lines stay, a ``sitemap.xml`` in another folder of the host among them."""
    (tmp_path / "robots.txt").write_text("\n".join(USERS_ROBOTS) + "\n", "utf-8")
    write(tmp_path, "A", robots_txt=True)
    assert robots_lines(tmp_path) == [*USERS_ROBOTS, f"Sitemap: {BASE}sitemap.xml"]
    options = dict(change)
    base = options.pop("base", BASE)
    write(tmp_path, "A", base=base, robots_txt=True, **options)
    assert not (tmp_path / "sitemap.xml").exists()
    assert (tmp_path / top).is_file()
    assert robots_lines(tmp_path) == [*USERS_ROBOTS, f"Sitemap: {base}{top}"]
    write(tmp_path, "A", robots_txt=True)  # and back
    assert robots_lines(tmp_path) == [*USERS_ROBOTS, f"Sitemap: {BASE}sitemap.xml"]
    assert not (tmp_path / top).exists()


def test_the_records_own_temporary_files_of_a_killed_build_go_and_nothing_else(
    tmp_path: Path,
) -> None:
    """A build killed while it wrote the record leaves the record's temporary file, under the
    fixed name or the one of its own it takes when that cannot be opened (see
    ``_replace_record``); the next build removes both, and no file of the site's whose name
    merely starts the same way."""
    out = tmp_path / "out"
    write(out, "A")
    leftovers = [f"{RECORD}.tmp", f"{RECORD}.0123456789abcdef.tmp"]
    kept = [f"{RECORD}.notes.tmp", f"{RECORD}.tmp.txt", f"x{RECORD}.tmp"]
    for name in leftovers + kept:
        (out / name).write_text("left\n")
    write(out, "B")
    present = {path.name for path in out.iterdir()}
    assert not present & set(leftovers)
    assert present >= set(kept)


def test_a_kill_before_robots_txt_is_replaced_still_leaves_one_line_of_ours(
    tmp_path: Path,
) -> None:
    """The record names the lines of both builds until robots.txt is in place: a build killed
    just before that leaves the old line, and the next build still knows it for ours."""

    def move(out: Path, **env: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", MOVING_CHILD, MOVED, str(out)],
            env=child_env(env), capture_output=True, text=True, check=False,
        )  # fmt: skip

    start = tmp_path / "start"
    start.mkdir()
    (start / "robots.txt").write_text("\n".join(USERS_ROBOTS) + "\n", "utf-8")
    write(start, "A", robots_txt=True)
    counted = tmp_path / "counted"
    shutil.copytree(start, counted)
    log = tmp_path / "steps.log"
    assert move(counted, SITEMAP_TEST_STEPS=str(log)).returncode == 0
    counting = [step for step in log.read_text().splitlines() if not step.startswith("clean ")]
    before_robots = counting.index("publish robots.txt")  # the step number of the one before
    out = tmp_path / "out"
    shutil.copytree(start, out)
    killed = move(out, SITEMAP_TEST_KILL_AT=str(before_robots))
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    assert robots_lines(out) == [*USERS_ROBOTS, f"Sitemap: {BASE}sitemap.xml"]
    assert move(out).returncode == 0
    assert robots_lines(out) == [*USERS_ROBOTS, f"Sitemap: {MOVED}sitemap.xml"]
    assert temporary_files(out) == []


# -- always whole ------------------------------------------------------------------------------


def count_steps(
    tmp_path: Path, reference: dict[str, dict[str, bytes]], *, robots_emptied: bool = False
) -> list[str]:
    """The steps of publishing B over A, as a child process goes through them; with
    ``robots_emptied``, over A's robots.txt emptied (a host that copies the site's own
    robots.txt anew), to which B adds its line again."""
    folder = tmp_path / "count"
    folder.mkdir()
    write(folder, "A", **SPLIT)
    if robots_emptied:
        (folder / "robots.txt").write_bytes(b"")
    log = tmp_path / "steps.log"
    assert child("B", folder, SITEMAP_TEST_STEPS=str(log)).returncode == 0
    assert ours(folder) == {**reference["B"], RECORD: (folder / RECORD).read_bytes()}
    return log.read_text().splitlines()


def test_a_kill_at_any_step_leaves_one_whole_set_and_the_next_build_cleans_up(
    tmp_path: Path, reference: dict[str, dict[str, bytes]]
) -> None:
    """B's robots.txt line is added again (a host copied the site's own robots.txt over A's),
    so that every step of putting robots.txt in place is one a kill may follow."""
    all_steps = count_steps(tmp_path, reference, robots_emptied=True)
    kinds = {step.split()[0] for step in all_steps}
    assert kinds == {"start", "record", "write", "publish", "remove"}, all_steps
    assert len(all_steps) > 20
    start = tmp_path / "start"
    start.mkdir()
    for name, text in USER_FILES.items():
        (start / name).write_text(text)
    write(start, "A", **SPLIT)
    (start / "robots.txt").write_bytes(b"")
    for number, step in enumerate(all_steps, 1):
        out = tmp_path / f"kill-{number}"
        shutil.copytree(start, out)
        killed = child("B", out, SITEMAP_TEST_KILL_AT=str(number))
        assert killed.returncode == -signal.SIGKILL, (step, killed.stderr)
        # What a reader finds right after the kill: each entry point whole, from one build.
        problems = whole_set_problems(out, ["sitemap.xml", "sitemap.xml.gz"], reference)
        assert problems == [], f"killed after {step!r}: {problems}"
        assert snapshot(out).items() >= {k: v.encode() for k, v in USER_FILES.items()}.items()
        robots = (out / "robots.txt").read_bytes()
        assert robots in (b"", reference["B"]["robots.txt"]), f"killed after {step!r}: {robots!r}"
        # The next build: B exactly, nothing left of A or of the killed build, user files kept.
        assert child("B", out).returncode == 0
        assert temporary_files(out) == [], f"killed after {step!r}"
        assert ours(out) == {**reference["B"], RECORD: (out / RECORD).read_bytes()}, step
        assert recorded_files(out) == set(reference["B"]) - {"robots.txt"}
        check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml")
        shutil.rmtree(out)


@pytest.mark.skipif(not Path("/proc/locks").is_file(), reason="needs Linux's /proc/locks")
def test_a_build_waits_for_one_publishing_and_never_takes_its_temporary_files(
    tmp_path: Path, reference: dict[str, dict[str, bytes]]
) -> None:
    """A second build into the same folder waits on the folder's lock while the first holds it
    (seen in /proc/locks, not by timing), then publishes over a whole set."""
    out = tmp_path / "out"
    write(out, "A", **SPLIT)
    first_steps = count_steps(tmp_path, reference)
    pause_at = next(n for n, step in enumerate(first_steps, 1) if step.startswith("publish"))
    # The first build stops itself (SIGSTOP) with its files written, not yet in place.
    first = subprocess.Popen(
        [sys.executable, "-c", PAUSING_CHILD, "B", str(out), str(pause_at)],
        env=child_env(),
    )
    try:
        _wait_for(lambda: _stopped(first.pid), f"first build stopped at step {pause_at}")
        temporaries = temporary_files(out)
        assert temporaries
        second = subprocess.Popen(
            [sys.executable, "-c", CHILD, "A", str(out)],
            env=child_env(),
        )
        _wait_for(lambda: _waits_for_a_lock(second.pid), "second build waiting on the lock")
        assert temporary_files(out) == temporaries
        assert whole_set_problems(out, ["sitemap.xml", "sitemap.xml.gz"], reference) == []
        os.kill(first.pid, signal.SIGCONT)
        assert first.wait(timeout=60) == 0
        assert second.wait(timeout=60) == 0
    finally:
        for proc in (first,):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    assert temporary_files(out) == []
    assert ours(out) == {**reference["A"], RECORD: (out / RECORD).read_bytes()}


PAUSING_CHILD = """
import os, signal, sys
from pathlib import Path
from sitemap_plugins.core import publish
from tests.core.publish_site import SPLIT, write
count = 0
def hook(step):
    global count
    count += 1
    if count == int(sys.argv[3]):
        os.kill(os.getpid(), signal.SIGSTOP)
publish.step_hook = hook
write(Path(sys.argv[2]), sys.argv[1], **SPLIT)
"""


def _wait_for(check: object, what: str, limit: float = 60.0) -> None:
    import time

    deadline = time.monotonic() + limit
    while not check():  # type: ignore[operator]
        if time.monotonic() > deadline:
            pytest.fail(f"no {what} after {limit:.0f} s")
        time.sleep(0.05)


def _stopped(pid: int) -> bool:
    status = Path(f"/proc/{pid}/stat").read_text()
    return status.rpartition(")")[2].split()[0] == "T"


def _waits_for_a_lock(pid: int) -> bool:
    """A blocked flock shows in /proc/locks as a line with '->' and the waiter's pid."""
    for line in Path("/proc/locks").read_text().splitlines():
        fields = line.split()
        if "->" in fields and "FLOCK" in fields and str(pid) in fields:
            return True
    return False


# -- never a user's file -----------------------------------------------------------------------


def test_an_unreadable_record_removes_nothing_and_says_so(tmp_path: Path) -> None:
    write(tmp_path, "A", **SPLIT)
    old = set(files_of(tmp_path)) - {RECORD, "robots.txt"}
    (tmp_path / RECORD).write_text("{not json")
    reporter = write(tmp_path, "B", **SPLIT)
    assert reporter.codes() == [Code.PUBLISH]
    assert "not readable as the record of published sitemap files" in reporter.warnings[0][1]
    assert old <= set(files_of(tmp_path))  # A's files stay: nothing is known to be ours
    published = published_set(tmp_path, "sitemap.xml").keys()
    assert recorded_files(tmp_path) == published | {f"{name}.gz" for name in published}


def _strict_write(out: Path, version: str, reporter: CollectingReporter) -> None:
    """Write ``version`` as a strict build does: any warning before publishing stops it."""
    write_sitemaps(iter(entries(version)), out, base_url=BASE,
                   options=Options.from_mapping({**SPLIT, "strict": True}), reporter=reporter,
                   before_publish=lambda: _fail_if_warned(reporter))  # fmt: skip


@pytest.mark.parametrize(
    "damage",
    [b"{not json", b"", b'{"version": 1, "files": []}', b'["version", 1]'],
    ids=["truncated", "empty", "files not a mapping", "not a mapping"],
)
def test_a_damaged_record_stops_one_strict_build_and_no_more(tmp_path: Path, damage: bytes) -> None:
    """A damaged record names nothing usable: the strict build that warns of it publishes
    nothing, yet writes the record anew, as the warning says, so that the next strict build
    is not stopped by it again (MkDocs keeps the record when it empties ``site_dir``)."""
    write(tmp_path, "A", **SPLIT)
    (tmp_path / RECORD).write_bytes(damage)
    before = {name: data for name, data in snapshot(tmp_path).items() if name != RECORD}
    reporter = CollectingReporter()
    with pytest.raises(StrictError):
        _strict_write(tmp_path, "B", reporter)
    [(code, message)] = reporter.warnings
    assert code is Code.PUBLISH
    assert message.startswith(f"{tmp_path / RECORD} is not readable as the record")
    assert "written anew, also by a build that strict mode stops" in message
    assert {name: data for name, data in snapshot(tmp_path).items() if name != RECORD} == before
    assert temporary_files(tmp_path) == []
    reporter = CollectingReporter()
    _strict_write(tmp_path, "B", reporter)
    assert reporter.warnings == []
    check_sitemap_file(tmp_path / "sitemap.xml", BASE + "sitemap.xml")
    assert before.keys() <= snapshot(tmp_path).keys()  # A's files stay: none was known as ours
    assert temporary_files(tmp_path) == []


def test_a_record_of_a_newer_release_is_kept_by_a_build_that_stops_on_it(tmp_path: Path) -> None:
    """A newer release's record is not this release's to read, but it is that release's
    knowledge of its files: a strict build stops on it and leaves it as it is, saying what to
    do; a build that goes on removes nothing and writes a record of its own."""
    write(tmp_path, "A", **SPLIT)
    record = json.loads((tmp_path / RECORD).read_bytes())
    (tmp_path / RECORD).write_text(json.dumps({**record, "version": 2, "more": {}}), "utf-8")
    before = snapshot(tmp_path)
    reporter = CollectingReporter()
    with pytest.raises(StrictError):
        _strict_write(tmp_path, "B", reporter)
    [(code, message)] = reporter.warnings
    assert code is Code.PUBLISH
    newer = "written by a newer release of sitemap-plugins (record version 2;"
    assert message.startswith(f"{tmp_path / RECORD} is a record of published sitemap files {newer}")
    assert message.endswith("upgrade sitemap-plugins, or remove the file")
    assert snapshot(tmp_path) == before
    assert write(tmp_path, "B", **SPLIT).codes() == [Code.PUBLISH]
    assert set(before) - {RECORD} <= set(files_of(tmp_path))  # A's files stay
    published = published_set(tmp_path, "sitemap.xml").keys()
    assert recorded_files(tmp_path) == published | {f"{name}.gz" for name in published}


def test_a_record_naming_files_outside_the_folder_is_not_followed(tmp_path: Path) -> None:
    outside = tmp_path / "outside.xml"
    outside.write_text("precious")
    out = tmp_path / "out"
    write(out, "A")
    record = json.loads((out / RECORD).read_text())
    digest = record["files"]["sitemap.xml"]
    record["files"]["../outside.xml"] = {**digest, "size": len("precious")}
    record["temporary"] = ["../.sitemap-plugins-0123456789abcdef-"]
    (out / RECORD).write_text(json.dumps(record))
    write(out, "B")
    assert outside.read_text() == "precious"


def test_a_file_written_in_place_of_the_hosts_is_recorded_so_while_it_is_ours(
    tmp_path: Path,
) -> None:
    """``generate`` writes ``sitemap.xml.gz`` because the host wrote one; its next run finds only
    ours there, and the record must tell it that this file stands for the host's. Only while
    the build that last wrote it said so, and only while its bytes are the ones we wrote."""
    gz = "sitemap.xml.gz"

    def build(*in_place_of_host: str) -> None:
        write_sitemaps(
            iter(entries("A")),
            tmp_path,
            base_url=BASE,
            options=Options.from_mapping({"gzip": "both"}),
            reporter=CollectingReporter(),
            in_place_of_host=in_place_of_host,
        )

    build(gz)
    assert publish.written_in_place_of_host(tmp_path, gz)
    assert not publish.written_in_place_of_host(tmp_path, "sitemap.xml")
    build()  # a build that writes it for its own reasons (an explicit --gzip both)
    assert publish.is_ours(tmp_path, gz)
    assert not publish.written_in_place_of_host(tmp_path, gz)
    build(gz)
    (tmp_path / gz).write_bytes((tmp_path / gz).read_bytes() + b"\n")  # the host's again
    assert not publish.written_in_place_of_host(tmp_path, gz)


# -- never a trace: one line naming the path and the cause, the previous sitemap intact ---------


@pytest.fixture
def published(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """A folder holding build A's sitemap, and the bytes of every file in it."""
    out = tmp_path / "out"
    write(out, "A", **SPLIT)
    return out, snapshot(out)


def test_a_read_only_folder_is_one_named_error(published: tuple[Path, dict[str, bytes]]) -> None:
    out, before = published
    reason = read_only_unavailable(out)
    if reason is not None:
        pytest.skip(reason)
    steps.make_read_only(out)
    try:
        with pytest.raises(
            PublishError,
            match=rf"^cannot write {out}/sitemap\.xml: "
            r"(Permission denied|Operation not permitted|Read-only file system)$",
        ):
            write(out, "B", **SPLIT)
    finally:
        make_writable(out)
    assert snapshot(out) == before


def test_a_folder_where_the_sitemap_goes_is_one_named_error(tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "sitemap.xml").mkdir(parents=True)
    (out / "sitemap.xml" / "notes.txt").write_text("a user's folder")
    with pytest.raises(PublishError, match=rf"^cannot write {out}/sitemap\.xml: Is a directory$"):
        write(out, "B", **SPLIT)
    assert snapshot(out) == {"sitemap.xml/notes.txt": b"a user's folder"}


def test_a_file_where_the_sitemap_folder_goes_is_one_named_error(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "maps").write_text("a user's file")
    with pytest.raises(
        PublishError, match=rf"^cannot create the folder {out}/maps/deeper: Not a directory$"
    ):
        write(out, "B", filename="maps/deeper/sitemap.xml")
    assert snapshot(out) == {"maps": b"a user's file"}


def test_a_robots_txt_that_is_not_utf8_is_one_named_error(
    published: tuple[Path, dict[str, bytes]],
) -> None:
    out, _ = published
    (out / "robots.txt").write_bytes("User-agent: *\nDisallow: /privé/\n".encode("latin-1"))
    before = snapshot(out)
    with pytest.raises(
        PublishError,
        match=rf"^cannot update {out}/robots\.txt: not UTF-8 text \(byte 0xe9 at offset 29\); "
        r"save it as UTF-8$",
    ):
        write(out, "B", **SPLIT)
    assert snapshot(out) == before


IMMUTABLE = re.escape(REFUSED_AS_IMMUTABLE)


def test_a_robots_txt_that_cannot_be_replaced_fails_the_build_before_any_sitemap_is(
    published: tuple[Path, dict[str, bytes]],
) -> None:
    """robots.txt goes in place after the entry points: that it cannot be replaced must be
    found before them, or the failed build has already published its sitemap."""
    out, _ = published
    robots = out / "robots.txt"
    robots.write_text("User-agent: *\n")  # the site's own, without our line: B adds it
    before = snapshot(out)
    reason = make_unreplaceable(robots)
    if reason is not None:
        pytest.skip(reason)
    try:
        with pytest.raises(PublishError, match=rf"^cannot update {out}/robots\.txt: {IMMUTABLE}$"):
            write(out, "B", **SPLIT)
        assert snapshot(out) == before
    finally:
        make_writable(robots)
    write(out, "B", **SPLIT)  # replaceable again: the next build publishes
    assert robots_lines(out) == ["User-agent: *", f"Sitemap: {BASE}sitemap.xml"]
    assert temporary_files(out) == []
    check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml")


# A file of the set that goes over one an earlier build left, with the options that write it.
# Refused half-way, a rename would leave part of the new set published: the .gz twin and the news
# sitemap go in place after the first entry point, the index after the new shards. (The IndexNow
# key file is never written over: ours holds the key already, and a file of the site's is kept.)
UNREPLACEABLE = {
    "sitemap.xml.gz": SPLIT,
    "sitemap.xml": SPLIT,
    "sitemap.txt": {"format": "txt", "robots_txt": True},
    "sitemap-news.xml": {"gzip": "off", "news": NEWS_OPTION},
    "sitemap.html": SPLIT,
}


def write_with(out: Path, version: str, name: str) -> None:
    """Write ``version`` into ``out`` with what makes the set of :data:`UNREPLACEABLE` case
    ``name``: its options, its news sitemap, or its page for humans (as ``generate`` has it)."""
    options = dict(UNREPLACEABLE[name])
    if "news" in options:
        options.pop("news")
        write_news(out, version, **options)
        return
    page = [("sitemap.html", f"<p>the pages of build {version}</p>".encode())]
    write_sitemaps(iter(entries(version)), out, base_url=BASE,
                   options=Options.from_mapping(options), reporter=CollectingReporter(),
                   also=(lambda: page) if name == "sitemap.html" else None)  # fmt: skip


@pytest.mark.parametrize("name", list(UNREPLACEABLE))
def test_a_file_of_the_set_that_cannot_be_replaced_fails_the_build_before_any_is_put_in_place(
    tmp_path: Path, name: str
) -> None:
    """Every file the build replaces is shown replaceable before the first rename: one that
    is not (immutable here; another user's in a folder with the sticky bit is alike) fails the
    build with one line naming it and why, and every file is as it was, the record too."""
    out = tmp_path / "out"
    write_with(out, "A", name)
    target = out / name
    before = snapshot(out)
    assert before[name] != b""
    reason = make_unreplaceable(target)
    if reason is not None:
        pytest.skip(reason)
    try:
        with pytest.raises(PublishError) as refused:
            write_with(out, "B", name)
        assert snapshot(out) == before
    finally:
        make_writable(target)
    assert str(refused.value) == f"cannot replace {out / name}: {REFUSED_AS_IMMUTABLE}"
    write_with(out, "B", name)  # replaceable again: the next build publishes
    assert (out / name).read_bytes() != before[name]
    assert temporary_files(out) == []


@pytest.mark.parametrize("flag", ["u", "c"], ids=["undeletable", "compressed"])
def test_a_file_whose_flags_refuse_no_rename_is_replaced(
    published: tuple[Path, dict[str, bytes]], flag: str
) -> None:
    """Flags that Linux keeps but that refuse no rename (``chattr +u``, ``+c``) are not taken
    for the ones that do: each system numbers its flags its own way (macOS's ``uchg``, its
    immutable flag, is Linux's ``u``; its ``uappnd`` is Linux's ``c``)."""
    out, _ = published
    target = out / "sitemap.xml.gz"
    if os.geteuid() != 0 or shutil.which("chattr") is None:
        pytest.skip("needs root and chattr to set a file's flags")
    try:
        subprocess.run(["chattr", f"+{flag}", str(target)], check=True, capture_output=True)
    except subprocess.CalledProcessError as error:
        pytest.skip(f"cannot set the flag here: {error.stderr.decode().strip()}")
    before = target.read_bytes()
    try:
        write(out, "B", **SPLIT)
    finally:
        subprocess.run(["chattr", f"-{flag}", str(target)], check=False, capture_output=True)
    assert target.read_bytes() != before
    check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml")


def test_a_full_disk_on_a_real_tmpfs_is_one_named_error(tmp_path: Path) -> None:
    out = mount_tmpfs(tmp_path / "small", "256k")
    if out is None:
        pytest.skip("cannot mount a tmpfs here (needs root and mount); the ENOSPC test stands in")
    try:
        write(out, "A", **SPLIT)
        before = snapshot(out)
        for room in (0, 6_000):  # nothing left; room for the record but not for the sitemaps
            steps.fill(out, room)
            with pytest.raises(
                PublishError,
                match=rf"^cannot write {out}/sitemap\.xml(\.gz)?: No space left on device$",
            ):
                write(out, "B", **SPLIT)
            (out / FILLER).unlink()
            assert snapshot(out) == before
        write(out, "B", **SPLIT)  # room again: the next build publishes
        check_sitemap_file(out / "sitemap.xml", BASE + "sitemap.xml")
        assert temporary_files(out) == []
    finally:
        unmount(out)


@pytest.mark.parametrize("room", [0, 100, 1_000])
def test_a_full_disk_by_injection_is_one_named_error(
    published: tuple[Path, dict[str, bytes]], monkeypatch: pytest.MonkeyPatch, room: int
) -> None:
    """Every write of a sitemap file fails with ENOSPC past ``room`` bytes, as on a full disk;
    nothing left behind writes again when the collector finds it (a gzip layer whose header
    write failed did, and Python printed its ignored exception long after the error)."""
    out, before = published
    ignored: list[object] = []
    monkeypatch.setattr(sys, "unraisablehook", ignored.append)
    with monkeypatch.context() as patch:
        patch.setattr(publish.TempFile, "__init__", publish.TempFile.__init__)
        steps.fail_writes_after(room)
        with pytest.raises(
            PublishError,
            match=rf"^cannot write {out}/sitemap\.xml(\.gz)?: {os.strerror(errno.ENOSPC)}$",
        ):
            write(out, "B", **SPLIT)
    gc.collect()
    assert ignored == []
    assert snapshot(out) == before
    write(out, "B", **SPLIT)
    assert temporary_files(out) == []
