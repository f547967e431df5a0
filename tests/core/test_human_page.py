"""The page for humans (``html_page``): what the core lists, how it groups it, the plain page.

Pages come from a real git repository with dated commits, through the real builder, so the
dates on the page are the sitemap's own. The plain page is also opened in a real headless
Chromium (skipped, with what to install, where none is found).
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import stat
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import quote

import pytest

from sitemap_plugins.core import (
    Code,
    CollectingReporter,
    Options,
    Page,
    PublishError,
    SitemapBuilder,
    StrictError,
    Summary,
)
from sitemap_plugins.core.html import head_title
from sitemap_plugins.core.human_page import Listed, listing, write_html_page
from tests.support.browser import anchors_in, check_in_browser
from tests.support.gitrepo import GitRepo
from tests.support.hosts import run_python
from tests.support.publishing import expected_mode, umask
from tests.support.sitemap_checks import read_sitemap

BASE = "https://example.org/docs/"
JAN = "2024-01-10T09:00:00+00:00"
MAR = "2024-03-15T23:30:00-05:00"

TITLES = {
    "index.md": "Welcome",
    "about.md": "About us",
    "guide/index.md": "The guide",
    "guide/install.md": "Install <it> & run",
    "guide/café.md": "Café",
    "reference/options.md": "Options",
    "faq/index.md": "Questions",
}


@pytest.fixture
def site(git_repo: GitRepo) -> GitRepo:
    for name, title in TITLES.items():
        git_repo.write(f"docs/{name}", f"# {title}\n")
    git_repo.commit("first pages", JAN)
    git_repo.write("docs/guide/install.md", "# Install\n\nmore steps\n")
    git_repo.commit("edit install", MAR)
    return git_repo


def _path(source: str) -> str:
    stem = source.removesuffix(".md")
    if stem == "index":
        return ""
    return stem.removesuffix("index") if stem.endswith("/index") else stem + "/"


def pages(repo: GitRepo, *, titled: bool = True) -> list[Page]:
    return [
        Page(
            path=_path(name),
            origin=f"docs/{name}",
            sources=(repo.path(f"docs/{name}"),),
            title=title if titled else None,
        )
        for name, title in TITLES.items()
    ]


def build(out: Path, items: list[Page], **options: object) -> Summary:
    builder = SitemapBuilder(
        Options.from_mapping({"base_url": BASE, **options}), CollectingReporter()
    )
    return builder.build(items, out)


class _Outline(HTMLParser):
    """The structure a reader relies on: lang, main, headings, list items, links and times."""

    def __init__(self) -> None:
        super().__init__()
        self.lang: str | None = None
        self.tags: list[str] = []
        self.headings: list[tuple[str, str]] = []
        self.times: list[tuple[str, str]] = []
        self._open: str | None = None
        self._attrs: dict[str, str | None] = {}

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag == "html":
            self.lang = dict(attrs).get("lang")
        if tag in ("h1", "h2", "time"):
            self._open, self._attrs = tag, dict(attrs)

    def handle_data(self, data: str) -> None:
        if self._open in ("h1", "h2"):
            self.headings.append((self._open, data))
        elif self._open == "time":
            self.times.append((str(self._attrs.get("datetime")), data))
        self._open = None


def outline(text: str) -> _Outline:
    parser = _Outline()
    parser.feed(text)
    parser.close()
    return parser


def test_pages_are_grouped_by_section_with_titles_and_the_sitemaps_dates(
    site: GitRepo, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    summary = build(out, pages(site), html_page=True)
    assert summary.listing is not None
    entries = {e.loc: e for e in read_sitemap(out / "sitemap.xml")}
    sections = [(s.title, [(rel, p.title) for rel, p in s.pages]) for s in summary.listing.sections]
    assert sections == [
        # The top: the home page first, then by URL; a folder with only its index joins it.
        ("Welcome", [("", "Welcome"), ("about/", "About us"), ("faq/", "Questions")]),
        # Each folder: named after its index page, which comes first.
        (
            "The guide",
            [
                ("guide/", "The guide"),
                ("guide/caf%C3%A9/", "Café"),
                ("guide/install/", "Install <it> & run"),
            ],
        ),
        # No index page: the folder's name.
        ("Reference", [("reference/options/", "Options")]),
    ]
    listed = {p.loc: p.lastmod for s in summary.listing.sections for _, p in s.pages}
    assert set(listed) == set(entries)
    page = summary.listing.document(site_name="Docs")
    structure = outline(page)
    # The date a reader sees is the one the sitemap carries: datetime attribute and day.
    assert sorted(structure.times) == sorted(
        (entries[loc].lastmod, entries[loc].lastmod[:10]) for loc in entries
    )
    assert ("2024-03-15T23:30:00-05:00", "2024-03-15") in structure.times


def test_the_plain_page_is_accessible_and_escapes_every_title(
    site: GitRepo, tmp_path: Path
) -> None:
    summary = build(tmp_path / "out", pages(site), html_page=True)
    assert summary.listing is not None
    page = summary.listing.document(lang="fr", site_name="A & B")
    structure = outline(page)
    assert structure.lang == "fr"
    assert structure.tags.count("main") == 1
    assert structure.headings[0] == ("h1", "Sitemap · A & B")
    assert [text for level, text in structure.headings if level == "h2"] == [
        "Welcome",
        "The guide",
        "Reference",
    ]
    assert structure.tags.count("ul") == 3
    assert "<it>" not in page
    assert "Install &lt;it&gt; &amp; run" in page
    links = anchors_in(page, BASE + "sitemap.html", "sitemap-pages")
    assert {link.url for link in links} == {
        e.loc for e in read_sitemap(tmp_path / "out" / "sitemap.xml")
    }
    assert ("Install <it> & run") in {link.text for link in links}


def test_date_style_shows_the_utc_day_the_sitemap_writes(site: GitRepo, tmp_path: Path) -> None:
    summary = build(tmp_path / "out", pages(site), html_page=True, lastmod_format="date")
    assert summary.listing is not None
    times = outline(summary.listing.body()).times
    # 23:30 at UTC-5 is the next day in UTC, which is what the sitemap says.
    assert ("2024-03-16", "2024-03-16") in times


def test_off_by_default_and_nothing_listed_without_a_sitemap(site: GitRepo, tmp_path: Path) -> None:
    assert build(tmp_path / "a", pages(site)).listing is None
    assert build(tmp_path / "b", [], html_page=True).listing is None


def test_a_file_the_host_wrote_at_its_path_is_left_as_it_is(site: GitRepo, tmp_path: Path) -> None:
    """The host's own file where the page would go is the site's: no listing to write over
    it, one warning naming its source and the path, which strict mode fails on before any
    file is written."""
    others = {"index.html": "docs/index.md", "about/sitemap.html": "docs/about/sitemap.md"}
    host_files = {**others, "sitemap.html": "docs/sitemap.md"}
    for strict in (False, True):
        reporter = CollectingReporter()
        options = Options.from_mapping({"base_url": BASE, "html_page": True, "strict": strict})
        builder = SitemapBuilder(options, reporter)
        out = tmp_path / f"strict-{strict}"
        if strict:
            with pytest.raises(StrictError):
                builder.build(pages(site), out, host_files=host_files)
            assert not (out / "sitemap.xml").exists()
        else:
            summary = builder.build(pages(site), out, host_files=host_files)
            assert summary.listing is None
            assert summary.top == "sitemap.xml"  # the sitemap itself is written
        assert reporter.codes() == [Code.CONFLICT]
        message = reporter.warnings[0][1]
        assert message.startswith("docs/sitemap.md: already written to sitemap.html")
    # Files elsewhere take nothing from the page.
    reporter = CollectingReporter()
    options = Options.from_mapping({"base_url": BASE, "html_page": True, "strict": True})
    builder = SitemapBuilder(options, reporter)
    free = builder.build(pages(site), tmp_path / "free", host_files=others)
    assert not reporter.warnings
    assert free.listing is not None
    assert free.listing.relpath == "sitemap.html"


def test_a_page_without_a_host_title_takes_its_own_title_tag(site: GitRepo, tmp_path: Path) -> None:
    html = tmp_path / "built.html"
    html.write_text("<html><head><title>Tags &amp; <b>more</b>\n</title></head><body>", "utf-8")
    item = Page(path="tags/", origin="tags.html", html=html)
    summary = build(tmp_path / "out", [*pages(site, titled=False)[:1], item], html_page=True)
    assert summary.listing is not None
    titles = [p.title for s in summary.listing.sections for _, p in s.pages]
    assert titles == [None, "Tags & more"]
    assert head_title("<head><title> </title></head>") is None
    # Without a title at all, the link shows the path.
    assert '<a href="./">/</a>' in summary.listing.body()


def test_the_page_goes_beside_a_sitemap_in_a_folder_and_links_from_there() -> None:
    found = listing(
        [Listed(BASE + "maps/a/", "A", None), Listed(BASE + "maps/b/c", "C", dt.date(2024, 1, 2))],
        scope=BASE + "maps/",
        sitemap_relpath="maps/sitemap.xml",
        style="datetime",
    )
    assert found.relpath == "maps/sitemap.html"
    body = found.body(up="../")
    assert [link.url for link in anchors_in(body, BASE + "maps/sitemap/", "sitemap-pages")] == [
        BASE + "maps/a/",
        BASE + "maps/b/c",
    ]


@pytest.mark.parametrize("mask", [0o022, 0o027, 0o077])
def test_written_whole_with_the_umask_and_a_clear_error(tmp_path: Path, mask: int) -> None:
    with umask(mask):
        target = write_html_page(tmp_path, "sub/sitemap.html", "<p>é</p>")
    assert target.read_text("utf-8") == "<p>é</p>"
    assert stat.S_IMODE(target.stat().st_mode) == expected_mode(mask)
    assert [p.name for p in target.parent.iterdir()] == ["sitemap.html"]
    (tmp_path / "blocked" / "sitemap.html").mkdir(parents=True)  # a folder in the way
    with pytest.raises(PublishError, match=r"^cannot write .*blocked/sitemap\.html: "):
        write_html_page(tmp_path, "blocked/sitemap.html", "x")
    assert list((tmp_path / "blocked").iterdir()) == [tmp_path / "blocked" / "sitemap.html"]


def test_written_again_it_keeps_its_mode_under_another_umask(tmp_path: Path) -> None:
    """As a host's page written again over the old one: a rebuild by a job of a stricter umask
    must not make the page alone unreadable to a web server of another user."""
    with umask(0o022):
        target = write_html_page(tmp_path, "sitemap.html", "<p>one</p>")
    inode = target.stat().st_ino
    with umask(0o077):
        write_html_page(tmp_path, "sitemap.html", "<p>two</p>")
        fresh = write_html_page(tmp_path, "other/sitemap.html", "<p>new</p>")
    assert target.stat().st_ino != inode  # renamed over the old one
    assert target.read_text("utf-8") == "<p>two</p>"
    assert stat.S_IMODE(target.stat().st_mode) == expected_mode(0o022)
    assert stat.S_IMODE(fresh.stat().st_mode) == expected_mode(0o077)  # a new file: the umask's


def test_a_killed_builds_temporary_page_is_removed_by_the_next(tmp_path: Path) -> None:
    """What a build killed between writing and renaming leaves; a user's look-alike stays."""
    left = tmp_path / ".sitemap.html.4242.tmp"
    left.write_text("half a page", "utf-8")
    users = tmp_path / ".sitemap.html.notes.tmp"
    users.write_text("mine", "utf-8")
    write_html_page(tmp_path, "sitemap.html", "<p>whole</p>")
    assert sorted(p.name for p in tmp_path.iterdir()) == [users.name, "sitemap.html"]


def test_another_users_temporary_page_in_a_sticky_folder_is_written_around(
    tmp_path: Path,
) -> None:
    """A leftover of another user's killed build, in a shared folder with the sticky bit,
    cannot be removed: removing it was part of the write, which then failed every later
    build's page. The page is written all the same, and the leftover stays."""
    setpriv = shutil.which("setpriv")
    if os.geteuid() != 0 or setpriv is None:
        pytest.skip("needs root and setpriv to run without the right to act as any owner")
    nobody = 65534
    tmp_path.chmod(0o1777)
    left = tmp_path / ".sitemap.html.4242.tmp"
    left.write_text("half a page", "utf-8")
    os.chown(left, nobody, nobody)
    os.chown(tmp_path, nobody, nobody)
    code = (
        "import sys; from pathlib import Path; "
        "from sitemap_plugins.core.human_page import write_html_page; "
        "write_html_page(Path(sys.argv[1]), 'sitemap.html', '<p>whole</p>')"
    )
    try:
        done = run_python("-c", code, tmp_path, cwd=tmp_path, check=False,
                          via=[setpriv, "--bounding-set=-fowner"])  # fmt: skip
    finally:
        os.chown(tmp_path, 0, 0)
        tmp_path.chmod(0o755)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "sitemap.html").read_text("utf-8") == "<p>whole</p>"
    assert left.read_text("utf-8") == "half a page"


def test_the_plain_page_in_a_real_browser(site: GitRepo, tmp_path: Path) -> None:
    out = tmp_path / "out"
    summary = build(out, pages(site), html_page=True)
    assert summary.listing is not None
    write_html_page(out, summary.listing.relpath, summary.listing.document(site_name="Docs"))
    titles = {BASE + quote(_path(name)): title for name, title in TITLES.items()}
    view = check_in_browser(
        out,
        "sitemap.html",
        base_url=BASE,
        sitemap_relpath="sitemap.xml",
        titles=titles,
        shot=tmp_path / "plain.png",
    )
    assert "<main>" in view.dom
