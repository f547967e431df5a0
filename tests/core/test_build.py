"""The builder: from Page values in a real git repository to checked sitemap files.

Every page here has real source files committed at chosen dates, so lastmod is what git says,
not what a test double claims.
"""

from __future__ import annotations

import datetime as dt
import os
import random
from collections.abc import Sequence
from pathlib import Path
from urllib.parse import unquote

import pytest

from sitemap_plugins.core import (
    Code,
    CollectingReporter,
    Options,
    Page,
    SitemapBuilder,
    StrictError,
    Summary,
    WrittenFile,
)
from sitemap_plugins.core.git_dates import Undated, Why
from sitemap_plugins.core.lastmod import say_why_undated
from tests.support.gitrepo import GitRepo
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp, read_sitemap

BASE = "https://example.org/docs/"
JAN = "2024-01-10T09:00:00+00:00"
MAR = "2024-03-15T18:30:00+02:00"


def build(
    out: Path, pages: Sequence[Page], **options: object
) -> tuple[Summary, CollectingReporter]:
    reporter = CollectingReporter()
    values = {"base_url": BASE, **options}
    builder = SitemapBuilder(Options.from_mapping(values), reporter)
    return builder.build(pages, out), reporter


@pytest.fixture
def site(git_repo: GitRepo) -> GitRepo:
    """A small documentation source tree: three files in January, one edited in March."""
    for name in ("index.md", "guide/install.md", "guide/café.md"):
        git_repo.write(f"docs/{name}", f"# {name}\n")
    git_repo.commit("first pages", JAN)
    git_repo.write("docs/guide/install.md", "# install\n\nnow with more steps\n")
    git_repo.commit("edit install", MAR)
    return git_repo


def page(repo: GitRepo, path: str, source: str, **fields: object) -> Page:
    return Page(
        path=path, origin=f"docs/{source}", sources=(repo.path(f"docs/{source}"),), **fields
    )  # type: ignore[arg-type]


def test_lastmod_comes_from_git_and_entries_are_sorted(site: GitRepo, tmp_path: Path) -> None:
    pages = [
        page(site, "guide/install/", "guide/install.md"),
        page(site, "", "index.md"),
        page(site, "guide/café/", "guide/café.md"),
    ]
    summary, reporter = build(tmp_path / "out", pages)
    entries = check_sitemap_file(tmp_path / "out" / "sitemap.xml", BASE + "sitemap.xml")
    assert [(e.loc, e.lastmod) for e in entries] == [
        (BASE, "2024-01-10T09:00:00Z"),
        (BASE + "guide/caf%C3%A9/", "2024-01-10T09:00:00Z"),
        (BASE + "guide/install/", "2024-03-15T18:30:00+02:00"),
    ]
    assert reporter.warnings == []
    assert summary.urls == 3
    assert summary.lastmod_from == {"git": 3}
    assert "3 URLs in sitemap.xml" in summary.line()


def test_same_input_same_bytes_whatever_the_page_order(site: GitRepo, tmp_path: Path) -> None:
    pages = [
        page(site, "", "index.md", sitemap={"priority": 0.3}),
        page(site, "guide/install/", "guide/install.md", sitemap={"changefreq": "daily"}),
        page(site, "guide/café/", "guide/café.md"),
    ]
    build(tmp_path / "a", pages)
    shuffled = pages[:]
    random.Random(7).shuffle(shuffled)
    build(tmp_path / "b", shuffled[::-1])
    assert (tmp_path / "a/sitemap.xml").read_bytes() == (tmp_path / "b/sitemap.xml").read_bytes()


def test_uncommitted_edit_takes_mtime_and_explicit_dates_win(site: GitRepo, tmp_path: Path) -> None:
    edited = site.write("docs/index.md", "# index\n\nunsaved work\n")
    stamp = dt.datetime(2024, 6, 1, 12, tzinfo=dt.timezone.utc).timestamp()
    os.utime(edited, (stamp, stamp))
    pages = [
        page(site, "", "index.md"),
        page(site, "guide/install/", "guide/install.md", sitemap={"lastmod": "2023-12-24"}),
        page(site, "guide/café/", "guide/café.md", updated=dt.date(2023, 11, 5)),
    ]
    summary, reporter = build(tmp_path / "out", pages)
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE: "2024-06-01T12:00:00Z",
        BASE + "guide/install/": "2023-12-24",
        BASE + "guide/caf%C3%A9/": "2023-11-05",
    }
    assert summary.lastmod_from == {"mtime": 1, "metadata": 2}
    assert reporter.warnings == []


def test_date_style_gives_the_utc_day_of_a_commit_and_the_declared_day_of_metadata(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    git_repo.write("docs/late.md", "# late\n")
    git_repo.write("docs/declared.md", "# declared\n")
    git_repo.commit("near midnight in New York", "2024-05-01T23:30:00-05:00")
    pages = [
        page(git_repo, "late/", "late.md"),
        page(git_repo, "declared/", "declared.md", updated="2024-05-01T23:30:00-05:00"),
    ]
    build(tmp_path / "date", pages, lastmod_format="date")
    by_day = {e.loc: e.lastmod for e in check_sitemap_file(tmp_path / "date/sitemap.xml")}
    assert by_day == {BASE + "late/": "2024-05-02", BASE + "declared/": "2024-05-01"}
    build(tmp_path / "instant", pages)
    exact = {e.loc: e.lastmod for e in check_sitemap_file(tmp_path / "instant/sitemap.xml")}
    assert set(exact.values()) == {"2024-05-01T23:30:00-05:00"}


def test_a_page_with_several_sources_takes_the_newest(site: GitRepo, tmp_path: Path) -> None:
    combined = Page(
        path="",
        origin="docs/index.md",
        sources=(site.path("docs/index.md"), site.path("docs/guide/install.md")),
    )
    build(tmp_path / "out", [combined])
    assert [e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [
        "2024-03-15T18:30:00+02:00"
    ]


def test_files_named_by_strings_or_written_files_are_read_and_dated_as_paths(
    site: GitRepo, tmp_path: Path
) -> None:
    """Adapters may name sources and written pages by plain strings (a ``WrittenFile`` for the
    page, since a bare string there is its text): the same entries as with ``Path`` objects."""
    written = tmp_path / "written"
    written.mkdir()
    (written / "hidden.html").write_text(
        '<html><head><meta name="robots" content="noindex"></head><body></body></html>', "utf-8"
    )
    (written / "shown.html").write_text("<html><head></head><body></body></html>", "utf-8")

    def pages(name: type[str] | type[Path], html: type[WrittenFile] | type[Path]) -> list[Page]:
        def source(rel: str) -> str | Path:
            return name(site.path(f"docs/{rel}"))

        return [
            Page(
                path="",
                origin="index",
                sources=(source("index.md"),),
                html=html(os.fspath(written / "shown.html")),
            ),
            Page(
                path="guide/install/",
                origin="install",
                sources=(source("guide/café.md"), source("guide/install.md")),
            ),
            Page(
                path="hidden/",
                origin="hidden",
                sources=(source("index.md"),),
                html=html(os.fspath(written / "hidden.html")),
            ),
        ]

    as_paths, _ = build(tmp_path / "paths", pages(Path, Path))
    as_strings, reporter = build(tmp_path / "strings", pages(str, WrittenFile))
    assert reporter.warnings == []
    assert as_strings.left_out == as_paths.left_out == {"noindex": 1}
    assert [(e.loc, e.lastmod) for e in read_sitemap(tmp_path / "strings/sitemap.xml")] == [
        (BASE, "2024-01-10T09:00:00Z"),
        (BASE + "guide/install/", "2024-03-15T18:30:00+02:00"),
    ]
    assert (tmp_path / "strings/sitemap.xml").read_bytes() == (
        tmp_path / "paths/sitemap.xml"
    ).read_bytes()


def test_shallow_clone_dates_pages_changed_inside_it_and_says_once_what_is_undated(
    site: GitRepo, tmp_path: Path
) -> None:
    site.write("docs/guide/café.md", "# café\n\nedited after the boundary\n")
    site.commit("edit café", "2024-05-02T23:30:00-05:00")
    clone = site.clone(tmp_path / "ci", depth=2)  # boundary: "edit install" (MAR)
    pages = [
        page(clone, "", "index.md"),
        page(clone, "guide/install/", "guide/install.md"),
        page(clone, "guide/café/", "guide/café.md"),
        # index.md is undated, but it cannot be newer than the boundary, which café.md is.
        Page(path="both/", origin="both", sources=(clone.path("docs/guide/café.md"),
                                                   clone.path("docs/index.md"))),
    ]  # fmt: skip
    summary, reporter = build(tmp_path / "out", pages)
    entries = {e.loc: e.lastmod for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE: None,
        BASE + "guide/install/": None,
        BASE + "guide/caf%C3%A9/": "2024-05-02T23:30:00-05:00",
        BASE + "both/": "2024-05-02T23:30:00-05:00",
    }
    [(code, message)] = reporter.warnings
    assert code is Code.GIT
    assert message.startswith("2 pages have no lastmod: ")
    assert str(clone.root.resolve()) in message
    for fix in ("fetch-depth: 0", "GIT_DEPTH: 0", "git fetch --unshallow", "git_fetch_history"):
        assert fix in message
    assert summary.lastmod_from == {"git": 2, "none": 2}


@pytest.mark.parametrize("why", list(Why))
def test_every_cause_of_a_missing_lastmod_is_said_once_with_the_count(
    why: Why, tmp_path: Path
) -> None:
    """No page goes without lastmod unexplained: each cause is one line for the whole build,
    counting the pages, except the one only the caller has words for (``generate``'s pages it
    found nothing to date by)."""
    reporter = CollectingReporter()
    root = tmp_path / "site"
    said = "fatal: not a git repository: /gone/.git/worktrees/site"
    say_why_undated([Undated(why, root, said=said), Undated(why, root, said=said), None], reporter)
    lines = [message for _, message in reporter.warnings] + reporter.infos
    if why is Why.NOT_LOOKED_UP:
        assert lines == []
        return
    [line] = lines
    assert "2 pages have no lastmod: " in line
    if why is not Why.NOT_TRACKED and why is not Why.WRITTEN_BY_BUILD:
        assert str(root) in line  # the repository, or the folder, it is about
    if why is Why.NO_REPOSITORY:
        assert said in line


def test_a_page_that_also_lists_others_is_as_new_as_the_newest_of_both(
    site: GitRepo, tmp_path: Path
) -> None:
    """A blog's front page has a source and shows its newest posts: as new as the newer of the
    two; in a shallow clone its undated source may be newer than what it lists, unless what it
    lists is newer than the boundary that bounds the source."""

    def front(root: GitRepo, *listed: str) -> Page:
        return Page(
            path="", origin="index", sources=(root.path("docs/index.md"),), listed_dates=listed
        )

    build(tmp_path / "older", [front(site, "2024-01-01")])
    build(tmp_path / "newer", [front(site, "2024-02-01")])
    assert [e.lastmod for e in read_sitemap(tmp_path / "older/sitemap.xml")] == [
        "2024-01-10T09:00:00Z"  # docs/index.md's commit
    ]
    assert [e.lastmod for e in read_sitemap(tmp_path / "newer/sitemap.xml")] == ["2024-02-01"]
    site.write("docs/guide/café.md", "# café\n\nedited after the boundary\n")
    site.commit("edit café", "2024-05-02T23:30:00-05:00")
    clone = site.clone(tmp_path / "ci", depth=2)  # index.md undated, bounded by March
    build(tmp_path / "shallow-after", [front(clone, "2024-06-01")])
    build(tmp_path / "shallow-before", [front(clone, "2024-02-01")])
    assert [e.lastmod for e in read_sitemap(tmp_path / "shallow-after/sitemap.xml")] == [
        "2024-06-01"
    ]
    assert [e.lastmod for e in read_sitemap(tmp_path / "shallow-before/sitemap.xml")] == [None]


def test_a_listing_in_a_shallow_clone_is_not_dated_older_than_an_item_it_cannot_date(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A merged branch brings a commit into the clone that is older than its boundary: the
    item it dates is exact, but the item changed at the boundary may be newer (it is, here).
    The listing is dated as a full clone dates it, or not at all, never by the older item."""
    repo = git_repo
    for name in ("a1", "a2"):
        repo.write(f"docs/{name}.md", f"# {name}\n")
    repo.commit("first", "2024-01-01T00:00:00+00:00")
    repo.checkout("side", create=True)
    repo.write("docs/a2.md", "# a2\n\non a branch\n")
    repo.commit("a2 on a branch", "2024-03-10T00:00:00+00:00")
    repo.checkout("main")
    repo.write("docs/a1.md", "# a1\n\nedited\n")
    repo.commit("a1", "2024-05-01T00:00:00+00:00")
    repo.write("other.txt", "other\n")
    repo.commit("other", "2024-06-01T00:00:00+00:00")
    repo.merge("side", "2024-07-01T00:00:00+00:00")

    def listing(root: GitRepo) -> Page:
        items = (root.path("docs/a1.md"), root.path("docs/a2.md"))
        return Page(path="", origin="index", listed_sources=items)

    build(tmp_path / "full", [listing(repo)])
    [truth] = read_sitemap(tmp_path / "full/sitemap.xml")
    assert truth.lastmod == "2024-05-01T00:00:00Z"
    clone = repo.clone(tmp_path / "ci", depth=3)  # the "a1" commit is at the boundary
    assert clone.log_date("docs/a2.md") == "2024-03-10T00:00:00+00:00"  # exact, and older
    summary, reporter = build(tmp_path / "out", [listing(clone)])
    [entry] = read_sitemap(tmp_path / "out/sitemap.xml")
    assert entry.lastmod is None
    [(code, message)] = reporter.warnings
    assert code is Code.GIT
    assert message.startswith("1 page has no lastmod: ")
    assert summary.lastmod_from == {"none": 1}


@pytest.mark.parametrize("where", ["copy", "no git"])
def test_a_listing_is_not_dated_older_than_an_item_git_cannot_date(
    site: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    """Where git cannot say when a listed item last changed (a copy of the sources without
    ``.git``, git not installed), that item may be the newest: the listing gets no lastmod, as
    in a shallow clone, never the date of its other items, older than its last change. So does
    a page that lists others, with such a source of its own."""

    def pages(root: Path) -> list[Page]:
        return [
            Page(path="", origin="index", listed_dates=("2024-02-01",),
                 listed_sources=(root / "docs/guide/install.md",)),  # March
            Page(path="blog/", origin="docs/index.md", sources=(root / "docs/index.md",),
                 listed_dates=("2024-01-01",)),  # its source: January 10
        ]  # fmt: skip

    build(tmp_path / "full", pages(site.root))
    truth = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "full/sitemap.xml")}
    assert truth == {BASE: "2024-03-15T18:30:00+02:00", BASE + "blog/": "2024-01-10T09:00:00Z"}
    root = site.root
    if where == "copy":
        root = site.archive(tmp_path / "copy")
    else:
        (tmp_path / "bin").mkdir()
        monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    summary, _ = build(tmp_path / "out", pages(root))
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert entries == {BASE: None, BASE + "blog/": None}
    assert summary.undated == {Why.NOT_TRACKED if where == "copy" else Why.NO_GIT: 2}


def test_a_listing_is_as_new_as_the_last_time_an_item_left_its_folder(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A post deleted (or renamed away) from the posts folder is gone from every listing that
    showed it: the listings changed then, though every post they still show is older. A
    listing is as new as its newest item or that deletion, whichever is newer, never as old as
    the item now newest; a deletion elsewhere does not move it. One not committed yet is dated
    by the time of the folder the post left, as an edit is by its file's time."""
    repo = git_repo
    repo.write("docs/index.md", "# Blog\n")
    repo.write("docs/posts/old.md", "# Old\n")
    repo.write("docs/other.md", "# Other\n")
    repo.commit("blog", "2024-01-10T09:00:00+00:00")
    repo.write("docs/posts/new.md", "# New\n")
    repo.commit("new post", "2024-02-05T12:00:00+00:00")
    posts = repo.path("docs/posts")

    def pages(*listed: str) -> list[Page]:
        return [
            Page(path="archive/", origin="archive", listed_dates=listed, listed_folders=(posts,)),
            Page(path="", origin="docs/index.md", sources=(repo.path("docs/index.md"),),
                 listed_dates=listed, listed_folders=(posts,)),
            Page(path="tags/", origin="tags", listed_dates=listed),  # no folder: as before
        ]  # fmt: skip

    def dates(out: str, *listed: str) -> dict[str, str | None]:
        _, reporter = build(tmp_path / out, pages(*listed))
        assert reporter.warnings == []
        return {
            e.loc.removeprefix(BASE): e.lastmod
            for e in read_sitemap(tmp_path / out / "sitemap.xml")
        }

    both = dates("both", "2024-01-05", "2024-02-05")
    assert both == {"": "2024-02-05", "archive/": "2024-02-05", "tags/": "2024-02-05"}
    repo.remove("docs/posts/new.md")
    repo.commit("unpublish the new post", "2024-07-01T12:00:00+00:00")
    removed = dates("removed", "2024-01-05")
    assert removed == {
        "": "2024-07-01T12:00:00Z",
        "archive/": "2024-07-01T12:00:00Z",
        "tags/": "2024-01-05",  # told of no folder, it cannot know
    }
    repo.remove("docs/other.md")
    repo.commit("remove a page that no listing shows", "2024-08-01T12:00:00+00:00")
    assert dates("elsewhere", "2024-01-05") == removed
    repo.path("docs/posts/old.md").unlink()  # not committed: a working-tree change
    when = dt.datetime.fromtimestamp(int(posts.stat().st_mtime), dt.timezone.utc)
    assert dates("uncommitted")["archive/"] == when.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_listing_is_not_dated_where_an_item_may_have_left_unseen(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Where the history that would show a deletion is missing (a shallow clone stops after
    it, a copy of the sources has no ``.git``), the listing may have lost an item after the
    newest one it shows: no lastmod, the cause said once, unless what it shows is no older than
    the commits the clone stops at (committer dates run forward: a deletion before them is
    older)."""
    repo = git_repo
    repo.write("docs/posts/a.md", "# A\n")
    repo.write("docs/posts/b.md", "# B\n")
    repo.commit("posts", "2024-01-10T09:00:00+00:00")
    repo.remove("docs/posts/b.md")
    repo.commit("unpublish b", "2024-02-01T09:00:00+00:00")
    repo.write("docs/posts/c.md", "# C\n")
    repo.commit("post c", "2024-03-01T09:00:00+00:00")
    repo.write("docs/posts/a.md", "# A\n\nedited\n")
    repo.commit("edit a", "2024-04-01T09:00:00+00:00")

    def listings(root: Path) -> list[Page]:
        posts = (root / "docs/posts",)
        a, c = root / "docs/posts/a.md", root / "docs/posts/c.md"
        old = ("2024-01-05",)
        return [
            Page(path="by-date/", origin="l1", listed_dates=old, listed_folders=posts),
            Page(path="by-file/", origin="l2", listed_sources=(a, c), listed_folders=posts),
            # Its own source changed after the clone's oldest commit: newer than any deletion
            # the clone cannot show.
            Page(path="front/", origin="f", sources=(a,), listed_dates=old, listed_folders=posts),
        ]

    build(tmp_path / "full", listings(repo.root))
    truth = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "full/sitemap.xml")}
    assert truth == {BASE + "by-date/": "2024-02-01T09:00:00Z",
                     BASE + "by-file/": "2024-04-01T09:00:00Z",
                     BASE + "front/": "2024-04-01T09:00:00Z"}  # fmt: skip
    clone = repo.clone(tmp_path / "ci", depth=2)  # stops at "post c": b's deletion unseen
    summary, reporter = build(tmp_path / "shallow", listings(clone.root))
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "shallow/sitemap.xml")}
    assert entries == {BASE + "by-date/": None, BASE + "by-file/": "2024-04-01T09:00:00Z",
                       BASE + "front/": "2024-04-01T09:00:00Z"}  # fmt: skip
    [(code, message)] = reporter.warnings
    assert code is Code.GIT
    assert message.startswith("1 page has no lastmod: ")
    assert summary.undated == {Why.SHALLOW: 1}
    copy = repo.archive(tmp_path / "copy")
    build(tmp_path / "copied", listings(copy))
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "copied/sitemap.xml")}
    assert entries == {BASE + "by-date/": None, BASE + "by-file/": None, BASE + "front/": None}


def test_a_page_is_not_dated_older_than_a_file_git_cannot_date(
    site: GitRepo, tmp_path: Path
) -> None:
    """A page's include or listed item that git ignores (a CI step generated it), or that was
    edited since its commit where file times are not wanted, may have changed after every
    other file of the page: no lastmod. A file outside the repository, or one the build wrote,
    tells nothing of the page's changes: the other files date the page."""
    site.write(".gitignore", "docs/generated/\n")
    site.commit("ignore what CI generates", "2024-04-01T00:00:00+00:00")
    ignored = site.write("docs/generated/table.md", "| a | b |\n")
    edited = site.write("docs/guide/café.md", "# café\n\nnot committed\n")
    before = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=1)).timestamp()
    for path in (ignored, edited):
        os.utime(path, (before, before))
    beside = tmp_path / "beside.md"
    beside.write_text("copied next to the checkout just now\n", encoding="utf-8")
    options = Options.from_mapping({"base_url": BASE, "lastmod_sources": ["metadata", "git"]})
    builder = SitemapBuilder(options, CollectingReporter(), cache_dir=tmp_path / "cache")
    builder.start(site.path("docs"))
    made = site.write("docs/made/by-the-build.md", "# made\n")
    index = site.path("docs/index.md")  # January 10
    feb = ("2024-02-01",)
    pages = [
        Page(path="ignored/", origin="ignored", sources=(index, ignored)),
        Page(path="edited/", origin="edited", sources=(index, edited)),
        Page(path="list-ignored/", origin="l1", listed_dates=feb, listed_sources=(ignored,)),
        Page(path="list-edited/", origin="l2", listed_dates=feb, listed_sources=(edited,)),
        Page(path="front/", origin="front", sources=(ignored,), listed_dates=feb),
        Page(path="beside/", origin="beside", sources=(index, beside)),
        Page(path="list-made/", origin="l3", listed_dates=feb, listed_sources=(made,)),
        Page(path="front-made/", origin="front-made", sources=(made,), listed_dates=feb),
    ]
    summary = builder.build(pages, tmp_path / "out")
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE + "beside/": "2024-01-10T09:00:00Z",
        BASE + "edited/": None,
        BASE + "front-made/": "2024-02-01",
        BASE + "front/": None,
        BASE + "ignored/": None,
        BASE + "list-edited/": None,
        BASE + "list-ignored/": None,
        BASE + "list-made/": "2024-02-01",
    }
    assert summary.undated == {Why.IGNORED: 3, Why.UNCOMMITTED: 2}


def test_author_dates_of_a_shallow_clone_bound_nothing(git_repo: GitRepo, tmp_path: Path) -> None:
    """Author dates keep their first moment through a rebase, so the boundary commit's may be
    older than the change before it: a page with a source changed at the boundary is then not
    dated by its other, exact source, while committer dates (which git stamps in order) bound
    it and date it."""
    repo = git_repo
    repo.write("docs/page.md", "# page\n")
    repo.write("docs/note.md", "note\n")
    repo.commit("first", "2024-01-01T00:00:00+00:00")
    repo.write("docs/page.md", "# page\n\nedited\n")
    repo.commit("page", "2024-09-01T00:00:00+00:00")
    repo.write("docs/other.md", "other\n")  # rebased: its author date is older than its parent's
    repo.commit("other", "2024-10-01T00:00:00+00:00", author_date="2024-03-01T00:00:00+00:00")
    repo.write("docs/note.md", "note\n\nedited\n")
    repo.commit("note", "2024-11-01T00:00:00+00:00", author_date="2024-05-01T00:00:00+00:00")
    clone = repo.clone(tmp_path / "ci", depth=2)  # the boundary: "other"
    pages = [Page(path="", origin="page", sources=(clone.path("docs/page.md"),
                                                    clone.path("docs/note.md")))]  # fmt: skip
    for git_date, expected in (("committer", "2024-11-01T00:00:00Z"), ("author", None)):
        build(tmp_path / git_date, pages, git_date=git_date)
        [entry] = read_sitemap(tmp_path / git_date / "sitemap.xml")
        assert entry.lastmod == expected, git_date
    build(tmp_path / "full", [Page(path="", origin="page", sources=(
        repo.path("docs/page.md"), repo.path("docs/note.md")))], git_date="author")  # fmt: skip
    [truth] = read_sitemap(tmp_path / "full/sitemap.xml")
    assert truth.lastmod == "2024-09-01T00:00:00Z"  # newer than the note the clone can date


def test_no_git_in_a_work_tree_is_one_warning_and_no_file_times(
    site: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    pages = [page(site, "", "index.md"), page(site, "guide/install/", "guide/install.md")]
    _, reporter = build(tmp_path / "out", pages)
    assert [e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [None, None]
    [(code, message)] = reporter.warnings
    assert code is Code.GIT
    assert message.startswith("2 pages have no lastmod: ")
    assert "git was not found" in message


def test_sources_outside_git_get_no_file_time_and_one_info_line(tmp_path: Path) -> None:
    unpacked = tmp_path / "sdist" / "docs"
    unpacked.mkdir(parents=True)
    (unpacked / "index.md").write_text("# unpacked\n", encoding="utf-8")
    pages = [Page(path="", origin="docs/index.md", sources=(unpacked / "index.md",))]
    _, reporter = build(tmp_path / "out", pages)
    assert [e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [None]
    assert reporter.warnings == []
    [info] = [line for line in reporter.infos if "no lastmod" in line]
    assert info.startswith("sitemap: 1 page has no lastmod: ")
    assert "not tracked by git" in info
    build(tmp_path / "asked", pages, lastmod_sources=["metadata", "mtime"])
    [written] = [e.lastmod for e in read_sitemap(tmp_path / "asked/sitemap.xml")]
    assert written is not None  # file times only when asked for without git


def test_sources_git_ignores_get_one_info_line_without_clone_advice(
    site: GitRepo, tmp_path: Path
) -> None:
    """Pages a generator writes into an ignored folder (sphinx-gallery, autoapi) are built
    from a clone already: the line says git ignores them and what helps, not to clone."""
    site.write(".gitignore", "docs/generated/\n")
    site.commit("ignore generated pages", "2024-05-01T10:00:00+00:00")
    site.write("docs/generated/api.md", "# api\n")
    pages = [page(site, "", "index.md"), page(site, "generated/api/", "generated/api.md")]
    summary, reporter = build(tmp_path / "out", pages)
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert entries[BASE + "generated/api/"] is None
    assert entries[BASE] is not None
    assert summary.undated == {Why.IGNORED: 1}
    assert reporter.warnings == []
    [info] = [line for line in reporter.infos if "no lastmod" in line]
    assert info.startswith("sitemap: 1 page has no lastmod: their sources in ")
    assert "ignored by git" in info
    assert "clone" not in info


def test_pages_the_build_wrote_get_no_lastmod_and_one_info_line(
    site: GitRepo, tmp_path: Path
) -> None:
    """Sources written after the build began (a plugin's generated pages) are the build's:
    no lastmod, one info line for all of them with what to do, counted by cause; an edit saved
    before the build began keeps its file time. The next build begins at its own start."""
    edited = site.write("docs/index.md", "# index\n\nunsaved work\n")
    saved = dt.datetime.now(dt.timezone.utc) - dt.timedelta(minutes=1)
    os.utime(edited, (saved.timestamp(), saved.timestamp()))
    reporter = CollectingReporter()
    builder = SitemapBuilder(
        Options.from_mapping({"base_url": BASE}), reporter, cache_dir=tmp_path / "cache"
    )
    builder.start(site.path("docs"))
    for name in ("one.md", "two.md"):
        site.write(f"docs/generated/{name}", f"# {name}\n")
    pages = [
        page(site, "", "index.md"),
        page(site, "guide/install/", "guide/install.md"),
        page(site, "generated/one/", "generated/one.md"),
        page(site, "generated/two/", "generated/two.md"),
    ]
    summary = builder.build(pages, tmp_path / "out")
    entries = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE: saved.strftime("%Y-%m-%dT%H:%M:%SZ"),
        BASE + "generated/one/": None,
        BASE + "generated/two/": None,
        BASE + "guide/install/": "2024-03-15T18:30:00+02:00",
    }
    assert summary.undated == {Why.WRITTEN_BY_BUILD: 2}
    assert reporter.warnings == []
    [info] = [line for line in reporter.infos if "no lastmod" in line]
    assert info.startswith("sitemap: 2 pages have no lastmod: ")
    assert "written into the source folder by the build itself" in info
    assert "commit those files" in info
    # Edited by hand between the builds: the next build, begun after, dates it by its time.
    rewritten = site.write("docs/generated/two.md", "# two, by hand\n")
    by_hand = dt.datetime.now(dt.timezone.utc) - dt.timedelta(seconds=1)
    os.utime(rewritten, (by_hand.timestamp(), by_hand.timestamp()))
    builder.start(site.path("docs"))
    builder.build(pages, tmp_path / "out")
    again = {e.loc: e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")}
    assert again[BASE + "generated/one/"] is None  # as the first build left it
    assert again[BASE + "generated/two/"] == by_hand.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_a_dependency_outside_the_repository_never_dates_a_page(
    site: GitRepo, tmp_path: Path
) -> None:
    beside = tmp_path / "beside.rst"
    beside.write_text("copied next to the checkout just now\n", encoding="utf-8")
    pages = [
        Page(
            path="",
            origin="docs/index.md",
            sources=(site.path("docs/index.md"), Path(os.__file__), beside),
        )
    ]
    build(tmp_path / "out", pages)
    assert [e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [
        "2024-01-10T09:00:00Z"
    ]


def test_a_clone_in_a_source_folder_named_at_construction_dates_its_files_without_start(
    site: GitRepo, tmp_path: Path
) -> None:
    """The folders that decide which nested clones date files are part of the builder, not of
    :meth:`SitemapBuilder.start`, a head start a caller may skip: the answer is the same."""
    site.write(".gitignore", "docs/locales/\n")
    site.commit("ignore the translations clone", JAN)
    catalogs = GitRepo(site.path("docs/locales"))
    catalogs.write("fr/index.po", "msgid ''\n")
    catalogs.commit("French", MAR)
    pages = [
        Page(
            path="fr/",
            origin="docs/index.md",
            sources=(site.path("docs/index.md"), catalogs.path("fr/index.po")),
        )
    ]
    # The catalog's commit, newer than the source, where the clone counts; the source's, not.
    for folders, expected in (([site.path("docs")], MAR), ([], "2024-01-10T09:00:00Z")):
        out = tmp_path / f"out{len(folders)}"
        builder = SitemapBuilder(
            Options.from_mapping({"base_url": BASE}), CollectingReporter(), source_folders=folders
        )
        builder.build(pages, out)
        assert [entry.lastmod for entry in read_sitemap(out / "sitemap.xml")] == [expected]


def test_bad_metadata_warns_naming_file_and_value_and_keeps_the_rest(
    site: GitRepo, tmp_path: Path
) -> None:
    pages = [
        page(site, "", "index.md", sitemap={"priority": 1.5, "changefreq": "weekly"}),
        page(site, "guide/install/", "guide/install.md", sitemap={"changefreq": "Weekly"}),
        page(site, "guide/café/", "guide/café.md", sitemap={"lastmod": "last tuesday"}),
    ]
    _, reporter = build(tmp_path / "out", pages, priority=0.4)
    entries = {e.loc: e for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    assert len(entries) == 3
    home = entries[BASE]
    assert (home.priority, home.changefreq) == ("0.4", "weekly")  # bad field only is dropped
    assert entries[BASE + "guide/install/"].changefreq is None
    assert entries[BASE + "guide/caf%C3%A9/"].lastmod == "2024-01-10T09:00:00Z"  # git instead
    assert reporter.codes() == [Code.BAD_PRIORITY, Code.BAD_CHANGEFREQ, Code.BAD_LASTMOD]
    messages = [message for _, message in reporter.warnings]
    assert "docs/index.md" in messages[0]
    assert "1.5" in messages[0]
    assert "docs/guide/install.md" in messages[1]
    assert "'Weekly'" in messages[1]
    assert "docs/guide/café.md" in messages[2]
    assert "'last tuesday'" in messages[2]


def test_exclusions_by_metadata_config_and_rules(site: GitRepo, tmp_path: Path) -> None:
    pages = [
        page(site, "", "index.md"),
        page(site, "guide/install/", "guide/install.md", sitemap=False),
        page(site, "guide/café/", "guide/café.md", sitemap={"exclude": True}),
        Page(path="search/", origin="search.html"),
        Page(path="drafts/x/", origin="docs/drafts/x.md"),
        Page(path="blog/post/", origin="docs/blog/post.md", sitemap='{"priority": 0.9}'),
        Page(path="blog/", origin="docs/blog/index.md"),
    ]
    summary, _ = build(
        tmp_path / "out",
        pages,
        exclude=["search/"],
        rules=[
            {"pattern": "docs/drafts/*", "exclude": True},
            {"pattern": "blog/*", "priority": 0.7, "changefreq": "daily"},
        ],
        lastmod_sources=[],
    )
    entries = {
        e.loc: (e.priority, e.changefreq) for e in read_sitemap(tmp_path / "out/sitemap.xml")
    }
    assert entries == {
        BASE: (None, None),
        BASE + "blog/": ("0.7", "daily"),
        BASE + "blog/post/": ("0.9", "daily"),  # metadata (JSON, as MyST passes it) beats rules
    }
    assert summary.left_out == {
        "excluded by metadata": 2,
        "excluded by config": 1,
        "excluded by rule": 1,
    }
    assert summary.lastmod_from == {"none": 3}


def test_duplicates_are_listed_once_with_a_warning(tmp_path: Path) -> None:
    pages = [Page(path="a/", origin="a.md"), Page(path="a/", origin="a/index.md")]
    _, reporter = build(tmp_path / "out", pages)
    assert [e.loc for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [BASE + "a/"]
    assert reporter.codes() == [Code.DUPLICATE]
    assert "a.md" in reporter.warnings[0][1]
    assert "a/index.md" in reporter.warnings[0][1]


def test_no_base_url_writes_nothing_and_says_which_setting(tmp_path: Path) -> None:
    reporter = CollectingReporter()
    builder = SitemapBuilder(Options.from_mapping({}), reporter, base_url_setting="site_url")
    summary = builder.build([Page(path="", origin="index.md")], tmp_path)
    assert list(tmp_path.iterdir()) == []
    assert reporter.codes() == [Code.NO_BASE_URL]
    assert "site_url" in reporter.warnings[0][1]
    assert summary.urls == 0


@pytest.mark.parametrize(
    ("value", "base"), [("https://example.org/site", "https://example.org/site/"), (None, None)]
)
def test_the_host_base_url_stands_in_for_an_unset_option(
    tmp_path: Path, value: str | None, base: str | None
) -> None:
    reporter = CollectingReporter()
    builder = SitemapBuilder(Options.from_mapping({}), reporter, base_url_setting="SITEURL")
    builder.build([Page(path="a/", origin="a.md")], tmp_path, host_base_urls=[("SITEURL", value)])
    if base is None:
        assert reporter.codes() == [Code.NO_BASE_URL]
        assert list(tmp_path.iterdir()) == []
    else:
        assert [e.loc for e in read_sitemap(tmp_path / "sitemap.xml")] == [base + "a/"]
        assert reporter.warnings == []


def test_an_unusable_host_base_url_warns_naming_setting_and_value(tmp_path: Path) -> None:
    reporter = CollectingReporter()
    builder = SitemapBuilder(Options.from_mapping({}), reporter)
    summary = builder.build(
        [Page(path="a/", origin="a.md")], tmp_path, host_base_urls=[("html_baseurl", "/")]
    )
    assert list(tmp_path.iterdir()) == []
    assert reporter.codes() == [Code.BAD_URL]
    assert "html_baseurl '/' is not usable as the site's base URL" in reporter.warnings[0][1]
    assert summary.warnings == 1
    # The option, when set, wins over whatever the host says.
    explicit = SitemapBuilder(Options.from_mapping({"base_url": BASE}), CollectingReporter())
    explicit.build(
        [Page(path="a/", origin="a.md")], tmp_path, host_base_urls=[("html_baseurl", "/")]
    )
    assert [e.loc for e in read_sitemap(tmp_path / "sitemap.xml")] == [BASE + "a/"]


def test_read_the_docs_url_comes_after_the_hosts_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    canonical = "https://demo.readthedocs.io/en/latest/"
    monkeypatch.setenv("READTHEDOCS_CANONICAL_URL", canonical)
    outcomes = {}
    for setting in (None, "", "https://own.example/", "/"):
        reporter = CollectingReporter()
        out = tmp_path / repr(setting)
        SitemapBuilder(Options.from_mapping({}), reporter).build(
            [Page(path="a/", origin="a.md")], out, host_base_urls=[("site_url", setting)]
        )
        written = out / "sitemap.xml"
        locs = [e.loc for e in read_sitemap(written)] if written.exists() else []
        outcomes[setting] = (locs, reporter.codes())
    assert outcomes == {
        None: ([canonical + "a/"], []),
        "": ([canonical + "a/"], []),
        "https://own.example/": (["https://own.example/a/"], []),
        "/": ([], [Code.BAD_URL]),  # set, but unusable: said, not replaced
    }


def test_out_of_scope_and_overlong_urls_are_left_out(tmp_path: Path) -> None:
    pages = [
        Page(path="ok/", origin="ok.md"),
        Page(path="../escape/", origin="escape.md"),
        Page(path="x" * 2_100, origin="long.md"),
        Page(path="\ud800/", origin="broken.md"),
    ]
    summary, reporter = build(tmp_path / "out", pages)
    assert [e.loc for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [BASE + "ok/"]
    assert reporter.codes() == [Code.BAD_URL] * 3
    assert "broken.md" in reporter.warnings[2][1]
    assert summary.left_out == {"bad URL": 3}


def test_alternates_list_self_others_and_x_default(tmp_path: Path) -> None:
    langs = {"en": "about/", "pt_BR": "pt-br/about/"}
    pages = [
        Page(path="about/", origin="about.md", translations=langs, default_locale="en"),
        Page(path="pt-br/about/", origin="about.pt.md", translations=langs, default_locale="en"),
        Page(path="solo/", origin="solo.md", translations={"en": "solo/"}, default_locale="en"),
        # No default language known: no x-default, the versions still list each other.
        Page(path="a/", origin="a.md", translations={"en": "a/", "de": "de/a/"}),
    ]
    build(tmp_path / "out", pages)
    entries = {e.loc: e.alternates for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    expected = {
        "en": BASE + "about/",
        "pt-BR": BASE + "pt-br/about/",  # a locale name as hreflang wants it: BCP 47
        "x-default": BASE + "about/",
    }
    assert entries == {
        BASE + "about/": expected,
        BASE + "pt-br/about/": expected,
        BASE + "solo/": {},
        BASE + "a/": {"de": BASE + "de/a/", "en": BASE + "a/"},
    }


@pytest.mark.parametrize(
    ("locale", "tag"),
    [
        ("sr@latin", "sr-Latn"),  # gettext's names: a modifier for the script or variant
        ("sr_RS@latin", "sr-Latn-RS"),  # the script before the territory
        ("sr@cyrillic", "sr-Cyrl"),
        ("uz@cyrillic", "uz-Cyrl"),
        ("be@latin", "be-Latn"),
        ("ca@valencia", "ca-valencia"),  # a variant the IANA registry holds
        ("sr@ijekavianlatin", "sr-Latn-ijekavsk"),
        ("de_DE@euro", "de-DE"),  # a currency: nothing to say about the language
        ("zh_TW.Big5", "zh-TW"),  # a codeset, as Sphinx names one of its catalogs
        ("aa_ER@saaho", None),  # Saho, which aa-ER would call Afar: no tag
    ],
)
def test_a_gettext_locale_name_is_written_as_its_bcp47_tag(
    tmp_path: Path, locale: str, tag: str | None
) -> None:
    """The tag is the language's; its folder in the URL stays as the host wrote it."""
    langs = {"en": "a/", locale: f"{locale}/a/"}
    pages = [
        Page(path="a/", origin="a.md", translations=langs, default_locale="en"),
        Page(path=f"{locale}/a/", origin="a.x.md", translations=langs, default_locale="en"),
    ]
    _, reporter = build(tmp_path / "out", pages)
    entries = {e.loc: e.alternates for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    [translated] = set(entries) - {BASE + "a/"}
    assert unquote(translated) == BASE + f"{locale}/a/"
    if tag is None:
        assert entries == {BASE + "a/": {}, translated: {}}
        assert reporter.codes() == [Code.BAD_METADATA] * 2  # each page says it
        assert all(f"hreflang {locale!r} is not a language tag" in m for _, m in reporter.warnings)
    else:
        expected = {"en": BASE + "a/", tag: translated, "x-default": BASE + "a/"}
        assert entries == {BASE + "a/": expected, translated: expected}
        assert reporter.warnings == []


def test_a_page_says_whether_its_path_is_already_encoded(tmp_path: Path) -> None:
    """MkDocs hands over encoded URLs; Sphinx dirhtml and Pelican hand over file names."""
    fr = {"en": "a%20b/", "fr": "fr/a%20b/"}
    pages = [
        Page(path="a%20b/", origin="raw.md", encoded=False, translations=fr),
        Page(path="c%20d/", origin="encoded.md", translations={"en": "c%20d/"}),
    ]
    build(tmp_path / "out", pages)
    entries = {e.loc: e.alternates for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE + "a%2520b/": {"en": BASE + "a%2520b/", "fr": BASE + "fr/a%2520b/"},
        BASE + "c%20d/": {},
    }


def test_a_query_is_part_of_the_url_its_rules_and_its_limits(tmp_path: Path) -> None:
    """A URL list's pages keep their query: encoded once, XML-escaped by the renderer, matched
    by the globs, and counted in the protocol's length."""
    pages = [
        Page(path="search", origin="list:1", query="q=caf\u00e9 cr\u00e8me&page=2"),
        Page(path="item", origin="list:2", query="id=1&ref=a%20b"),  # kept as encoded
        Page(path="item", origin="list:3", query="id=2&sort=new"),
        Page(path="item", origin="list:4"),  # no query: another URL
        Page(path="raw", origin="list:5", query="a=100%25", encoded=False),  # a percent sign
        Page(path="long", origin="list:6", query="x=" + "y" * 2_100),
        Page(path="broken", origin="list:7", query="q=\ud800"),
    ]
    summary, reporter = build(
        tmp_path / "out",
        pages,
        exclude=["*&sort=*"],
        rules=[{"pattern": "item[?]id=1&*", "priority": 0.9}],
    )
    text = (tmp_path / "out/sitemap.xml").read_text()
    assert "item?id=1&amp;ref=a%20b" in text
    entries = {e.loc: e.priority for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE + "item": None,
        BASE + "item?id=1&ref=a%20b": "0.9",
        BASE + "raw?a=100%2525": None,
        BASE + "search?q=caf%C3%A9%20cr%C3%A8me&page=2": None,
    }
    assert set(parse_with_usp(tmp_path / "out", "sitemap.xml", base_url=BASE)) == set(entries)
    assert summary.left_out == {"excluded by config": 1, "bad URL": 2}
    assert reporter.codes() == [Code.BAD_URL] * 2
    assert reporter.warnings[0][1].startswith("list:6: URL is 2,")
    assert reporter.warnings[1][1] == (
        "list:7: URL query 'q=\\ud800' holds characters that have no UTF-8 encoding; left out"
    )


def test_generated_pages_take_the_newest_listed_date(tmp_path: Path) -> None:
    listed = (dt.date(2024, 1, 1), dt.datetime(2024, 2, 3, 4, tzinfo=dt.timezone.utc))
    pages = [Page(path="tags/x/", origin="tags/x/index.html", listed_dates=listed)]
    summary, _ = build(tmp_path / "out", pages)
    assert [e.lastmod for e in read_sitemap(tmp_path / "out/sitemap.xml")] == [
        "2024-02-03T04:00:00Z"
    ]
    assert summary.lastmod_from == {"listed pages": 1}


def test_listed_items_without_a_date_count_by_their_files(site: GitRepo, tmp_path: Path) -> None:
    """A listing's undated items are dated by their sources, like any source; newest wins."""
    february = dt.date(2024, 2, 1)
    june = dt.datetime(2024, 6, 1, tzinfo=dt.timezone.utc)
    pages = [
        Page(
            path="a/",
            origin="a/index.html",
            listed_dates=(february,),
            listed_sources=(site.path("docs/guide/install.md"),),  # March, newer
        ),
        Page(
            path="b/",
            origin="b/index.html",
            listed_dates=(june,),
            listed_sources=(site.path("docs/index.md"),),  # January, older
        ),
        Page(path="c/", origin="c/index.html", listed_sources=(site.path("docs/guide/café.md"),)),
    ]
    summary, reporter = build(tmp_path / "out", pages)
    entries = {e.loc: e.lastmod for e in check_sitemap_file(tmp_path / "out/sitemap.xml")}
    assert entries == {
        BASE + "a/": "2024-03-15T18:30:00+02:00",
        BASE + "b/": "2024-06-01T00:00:00Z",
        BASE + "c/": "2024-01-10T09:00:00Z",
    }
    assert summary.lastmod_from == {"git": 2, "listed pages": 1}
    assert reporter.warnings == []

    build(tmp_path / "no-git", pages, lastmod_sources=["metadata"])
    entries = {e.loc: e.lastmod for e in check_sitemap_file(tmp_path / "no-git/sitemap.xml")}
    assert entries == {
        BASE + "a/": "2024-02-01",
        BASE + "b/": "2024-06-01T00:00:00Z",
        BASE + "c/": None,
    }


def test_build_time_only_when_asked(tmp_path: Path) -> None:
    pages = [Page(path="", origin="generated")]
    build(tmp_path / "default", pages)
    assert [e.lastmod for e in read_sitemap(tmp_path / "default/sitemap.xml")] == [None]
    build(tmp_path / "asked", pages, lastmod_sources=["metadata", "build"])
    today = dt.datetime.now(dt.timezone.utc).date()
    [written] = [e.lastmod for e in read_sitemap(tmp_path / "asked/sitemap.xml")]
    assert written is not None
    assert abs((dt.datetime.fromisoformat(written.replace("Z", "+00:00")).date() - today).days) <= 1


def test_robots_txt_names_the_sitemap(tmp_path: Path) -> None:
    summary, _ = build(tmp_path / "out", [Page(path="", origin="i")], robots_txt=True)
    assert summary.sitemap_url == BASE + "sitemap.xml"
    assert (tmp_path / "out/robots.txt").read_text() == f"Sitemap: {BASE}sitemap.xml\n"


@pytest.mark.parametrize("taken", ["index", "shard"])
def test_a_file_the_host_wrote_where_the_set_goes_is_kept_and_no_set_is_written(
    tmp_path: Path, taken: str
) -> None:
    """A file the host wrote this build at a name of the set (the index, a shard: a static
    file of the site's own) stays, and no file of the set is written, with one warning naming
    its source, which strict mode fails on; the set an earlier build published goes, as its
    record allows. While the file there is still ours (the host did not write it again), it
    is replaced as ever."""
    out = tmp_path / "out"
    pages = [Page(path=f"p{n}/", origin=f"p{n}.md") for n in range(5)]
    reporter = CollectingReporter()
    options = {"base_url": BASE, "urls_per_file": 2, "gzip": "both"}
    builder = SitemapBuilder(Options.from_mapping(options), reporter)
    first = builder.build(pages, out)
    assert len(first.files) == 8  # three shards and the index, each with its .gz
    name = "sitemap.xml" if taken == "index" else first.files[0]
    host_files = {name: "static/own.xml"}
    assert builder.build(pages, out, host_files=host_files).files == first.files
    assert reporter.warnings == []
    (out / name).write_text("the site's own\n")  # as the host copies it
    strict = SitemapBuilder(Options.from_mapping({**options, "strict": True}), reporter)
    with pytest.raises(StrictError):
        strict.build(pages, out, host_files=host_files)
    assert sorted(path.name for path in out.glob("sitemap*")) == sorted(first.files)
    summary = builder.build(pages, out, host_files=host_files)
    assert (out / name).read_text() == "the site's own\n"
    assert [path.name for path in out.glob("sitemap*")] == [name]
    assert (summary.urls, summary.files) == (5, ())
    assert reporter.codes() == [Code.CONFLICT, Code.CONFLICT]
    assert reporter.warnings[-1][1].startswith(
        f"static/own.xml: already written to {name}, where the sitemap goes (filename "
        "'sitemap.xml'); the site's file is kept and no sitemap is written: "
    )


def test_independent_parser_reads_it_back(site: GitRepo, tmp_path: Path) -> None:
    pages = [
        page(site, "", "index.md", sitemap={"priority": 0.8, "changefreq": "monthly"}),
        page(site, "guide/install/", "guide/install.md"),
        page(site, "guide/café/", "guide/café.md"),
    ]
    build(tmp_path / "out", pages, urls_per_file=2, gzip="both")
    parsed = parse_with_usp(tmp_path / "out", "sitemap.xml", base_url=BASE)
    assert sorted(parsed) == [BASE, BASE + "guide/caf%C3%A9/", BASE + "guide/install/"]
    assert parsed[BASE + "guide/install/"].lastmod is not None
    assert parsed[BASE + "guide/install/"].lastmod.date() == dt.date(2024, 3, 15)
    assert parsed[BASE].changefreq == "monthly"


# -- a lastmod in the future -------------------------------------------------------------------

NOW = dt.datetime(2024, 6, 1, 12, 0, tzinfo=dt.timezone.utc)


def build_at(
    now: dt.datetime, out: Path, pages: Sequence[Page], **options: object
) -> tuple[Summary, CollectingReporter]:
    """Build with this machine's clock set to ``now``."""
    reporter = CollectingReporter()
    values = {"base_url": BASE, **options}
    builder = SitemapBuilder(Options.from_mapping(values), reporter, clock=lambda: now)
    return builder.build(pages, out), reporter


def test_a_lastmod_in_the_future_is_a_warning_naming_the_page_and_is_not_written(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    git_repo.write("docs/skewed.md", "# committed on a laptop 5 minutes fast\n")
    git_repo.commit("skewed", "2024-06-01T12:05:00+00:00")
    git_repo.write("docs/ahead.md", "# committed with a clock two hours ahead\n")
    git_repo.commit("ahead", "2024-06-01T14:00:00+00:00")
    git_repo.write("docs/typo.md", "# a year typed wrong in front matter\n")
    git_repo.commit("typo", "2024-05-01T10:00:00+00:00")
    pages = [
        page(git_repo, "skewed/", "skewed.md"),
        page(git_repo, "ahead/", "ahead.md"),
        page(git_repo, "typo/", "typo.md", sitemap={"lastmod": "2042-05-01"}),
        Page(path="kiribati/", origin="kiribati", sitemap={"lastmod": "2024-06-02"}),
        Page(path="later/", origin="later", sitemap={"lastmod": "2024-06-03"}),
    ]
    summary, reporter = build_at(NOW, tmp_path / "out", pages)
    entries = check_sitemap_file(tmp_path / "out/sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc.removeprefix(BASE): e.lastmod for e in entries} == {
        "skewed/": "2024-06-01T12:05:00Z",  # clock skew, not the future
        "ahead/": None,
        "typo/": "2024-05-01T10:00:00Z",  # the metadata is refused, git still knows
        "kiribati/": "2024-06-02",  # already that day somewhere on Earth
        "later/": None,
    }
    assert reporter.codes() == [Code.BAD_LASTMOD] * 3
    messages = sorted(message for _, message in reporter.warnings)
    assert messages == [
        "docs/ahead.md: lastmod 2024-06-01T14:00:00Z (from git) is in the future; not written",
        "docs/typo.md: lastmod 2042-05-01 (from metadata) is in the future; not written",
        "later: lastmod 2024-06-03 (from metadata) is in the future; not written",
    ]
    assert summary.lastmod_from == {"git": 2, "metadata": 1, "none": 2}


def test_a_listed_date_in_the_future_does_not_spread_to_listing_pages(tmp_path: Path) -> None:
    future = dt.datetime(2099, 1, 1, tzinfo=dt.timezone.utc)
    listed = (dt.date(2024, 5, 1), future)
    pages = [
        Page(path="blog/", origin="blog/index.html", listed_dates=listed),
        Page(path="tags/x/", origin="tags/x/index.html", listed_dates=(future,)),
        Page(path="post/", origin="post.md", updated=future),
    ]
    _, reporter = build_at(NOW, tmp_path / "out", pages)
    entries = check_sitemap_file(tmp_path / "out/sitemap.xml", BASE + "sitemap.xml")
    assert {e.loc.removeprefix(BASE): e.lastmod for e in entries} == {
        "blog/": "2024-05-01",
        "tags/x/": None,
        "post/": None,
    }
    # Reported once, with the page that carries it; the listings stay quiet.
    assert [message for _, message in reporter.warnings] == [
        "post.md: lastmod 2099-01-01T00:00:00Z (from metadata) is in the future; not written"
    ]


def test_strict_mode_fails_on_a_future_lastmod_before_writing(tmp_path: Path) -> None:
    pages = [Page(path="", origin="index.md", sitemap={"lastmod": "2099-01-01"})]
    build_at(NOW, tmp_path, [Page(path="", origin="index.md")])
    before = (tmp_path / "sitemap.xml").read_bytes()
    with pytest.raises(StrictError, match=r"^1 warning in strict mode; no sitemap written$"):
        build_at(NOW, tmp_path, pages, strict=True)
    assert (tmp_path / "sitemap.xml").read_bytes() == before
