"""Pages Sphinx writes outside the document list: viewcode, additional pages, collected pages.

A real project in a real git repository: modules under ``src/`` imported through ``sys.path`` in
``conf.py`` and documented with autodoc, so that viewcode writes a page per module; a page from
``html_additional_pages`` whose template lives in ``templates_path``; and a third-party-style
extension that yields pages from ``html-collect-pages``. Each source is committed on a date of
its own, and every expected lastmod is derived from those dates.
"""

from __future__ import annotations

import datetime as dt
import importlib.util
import json
import os
from pathlib import Path

import pytest

from tests.sphinx.helpers import BASE_URL, page, read_entries, write_project
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build

pytestmark = pytest.mark.sphinx

MODULES = 7  # more than five documents, so that -j 2 reads in parallel too
FIRST = "2024-01-01T08:00:00+00:00"
MODULE_DATES = {n: f"2024-02-{n + 1:02d}T08:00:00+00:00" for n in range(MODULES)}
TEMPLATE_DATE = "2024-03-03T10:00:00+02:00"

CONF = """
import os
import sys

sys.path[:0] = [os.path.abspath("../src"), os.path.abspath("_ext")]
extensions = ["sphinx.ext.autodoc", "sphinx.ext.viewcode", "extrapages", "sitemap_plugins.sphinx"]
templates_path = ["_templates"]
html_additional_pages = {"landing": "landing.html"}
"""

# Written the way extensions such as sphinx-notfound-page or sphinx-gallery's backrefs do it.
EXTENSION = """\
def collect(app):
    yield "extra/overview", {"title": "Overview", "body": "<p>From an extension.</p>"}, "page.html"
    yield "404", {"title": "Not found", "body": "<p>Nothing here.</p>"}, "page.html"
    quiet = '<meta name="robots" content="noindex" />'
    yield "quiet", {"title": "Quiet", "body": "<p>Hush.</p>", "metatags": quiet}, "page.html"


def setup(app):
    app.connect("html-collect-pages", collect)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
"""

LANDING = """\
{% extends "layout.html" %}
{% block body %}<h1>Welcome</h1><p>A page from html_additional_pages.</p>{% endblock %}
"""


def module(n: int, text: str = "") -> str:
    return f'"""Module {n}.{text}"""\n\n\ndef func{n}():\n    """Function {n}."""\n    return {n}\n'


def w3c(date: str) -> str:
    """How the sitemap writes a commit date by default: the instant, ``Z`` for UTC."""
    return dt.datetime.fromisoformat(date).isoformat().replace("+00:00", "Z")


def make_project(repo: GitRepo) -> Path:
    """The project, committed first at FIRST, then each module and the template on its date."""
    pages = {f"api/mod{n}.rst": page(f"Module {n}", f".. automodule:: pkg.mod{n}\n   :members:")
             for n in range(MODULES)}  # fmt: skip
    srcdir = write_project(repo, pages, conf_extra=CONF)
    repo.write("docs/_ext/extrapages.py", EXTENSION)
    repo.write("docs/_templates/landing.html", LANDING.replace("Welcome", "Hello"))
    repo.write("src/pkg/__init__.py", '"""A package."""\n')
    for n in range(MODULES):
        repo.write(f"src/pkg/mod{n}.py", module(n))
    repo.write(".gitignore", "__pycache__/\n")
    repo.commit("project", FIRST)
    for n, date in MODULE_DATES.items():
        repo.write(f"src/pkg/mod{n}.py", module(n, " Revised."))
        repo.commit(f"revise mod{n}", date)
    repo.write("docs/_templates/landing.html", LANDING)
    repo.commit("landing", TEMPLATE_DATE)
    return srcdir


def _link(name: str, style: str) -> str:
    """A page's URL as Sphinx links it in ``style`` (get_target_uri)."""
    if style == "dirhtml":
        return BASE_URL + (name.removesuffix("index") if name.endswith("index") else name + "/")
    return BASE_URL + name + (".html" if style == "html" else "")


def _urls(style: str) -> dict[str, str]:
    """Each extra page's URL, by page name."""
    names = [*(f"_modules/pkg/mod{n}" for n in range(MODULES)), "_modules/index"]
    return {name: _link(name, style) for name in [*names, "landing", "extra/overview"]}


@pytest.mark.parametrize(
    ("style", "builder", "args"),
    [
        ("html", "html", ()),
        ("dirhtml", "dirhtml", ()),
        ("no-suffix", "html", ("-D", "html_link_suffix=")),
    ],
)
def test_viewcode_additional_and_collected_pages_are_listed_and_dated(
    git_repo: GitRepo, tmp_path: Path, style: str, builder: str, args: tuple[str, ...]
) -> None:
    srcdir = make_project(git_repo)
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", *args, builder=builder)
    entries = read_entries(outdir)

    urls = _urls(style)
    documents = {_link(name, style) for name in ["index", *(f"api/mod{n}" for n in range(MODULES))]}
    assert set(entries) == documents | set(urls.values())
    for n, date in MODULE_DATES.items():
        assert entries[urls[f"_modules/pkg/mod{n}"]].lastmod == w3c(date)  # its module's commit
    assert entries[urls["_modules/index"]].lastmod == w3c(max(MODULE_DATES.values()))
    assert entries[urls["landing"]].lastmod == w3c(TEMPLATE_DATE)  # its template's commit
    assert entries[urls["extra/overview"]].lastmod is None  # nothing says what it shows
    written = {path.relative_to(outdir).as_posix() for path in outdir.rglob("*.html")}
    for left_out in ("genindex", "search", "py-modindex", "404", "quiet"):
        assert any(name.startswith(left_out) for name in written), left_out  # written, not listed
        assert not any(left_out in loc for loc in entries), left_out
    summary = next(line for line in result.stdout.splitlines() if line.startswith("sitemap: "))
    for reason in ("1 404 page", "1 domain index", "1 general index", "1 noindex",
                   "1 search page"):  # fmt: skip
        assert reason in summary


def _rebuild_equals_clean(srcdir: Path, outdir: Path, clean: Path, *args: str) -> bytes:
    """Rebuild ``outdir`` as it is (no -E), build ``clean`` from scratch, compare the bytes."""
    sphinx_build(srcdir, outdir, "-W", *args, builder="html")
    sphinx_build(srcdir, clean, "-W", "-E", *args, builder="html")
    incremental = (outdir / "sitemap.xml").read_bytes()
    assert incremental == (clean / "sitemap.xml").read_bytes()
    return incremental


def test_incremental_builds_keep_every_extra_page_and_drop_the_gone(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The html builder, where viewcode skips module pages that are newer than their module."""
    srcdir = make_project(git_repo)
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", builder="html")
    first = (outdir / "sitemap.xml").read_bytes()
    urls = _urls("html")

    # Nothing changed: Sphinx 7 then skips writing altogether; the sitemap stays the same.
    assert _rebuild_equals_clean(srcdir, outdir, tmp_path / "clean0") == first

    # One module edited: viewcode writes that module's page again and skips the others.
    modules = outdir / "_modules" / "pkg"
    for n in range(MODULES):
        with open(modules / f"mod{n}.html", "a", encoding="utf-8") as handle:
            handle.write("<!-- from the first build -->\n")
    edited = git_repo.write("src/pkg/mod2.py", module(2, " Edited again."))
    git_repo.commit("edit mod2", "2024-05-05T05:05:00-04:00")
    page_time = (modules / "mod2.html").stat().st_mtime_ns
    os.utime(edited, ns=(page_time + 10**9, page_time + 10**9))  # newer than its page, surely
    _rebuild_equals_clean(srcdir, outdir, tmp_path / "clean1")
    assert "from the first build" not in (modules / "mod2.html").read_text(encoding="utf-8")
    assert "from the first build" in (modules / "mod3.html").read_text(encoding="utf-8")
    entries = read_entries(outdir)
    assert entries[urls["_modules/pkg/mod2"]].lastmod == w3c("2024-05-05T05:05:00-04:00")
    assert entries[urls["_modules/pkg/mod3"]].lastmod == w3c(MODULE_DATES[3])
    assert entries[urls["_modules/index"]].lastmod == w3c("2024-05-05T05:05:00-04:00")

    # One document edited: every module page is skipped, and every one is still listed.
    git_repo.write("docs/api/mod4.rst", page("Module 4", "Now with a preamble.\n\n"
                   ".. automodule:: pkg.mod4\n   :members:"))  # fmt: skip
    git_repo.commit("edit the doc of mod4", "2024-06-06T06:00:00+00:00")
    _rebuild_equals_clean(srcdir, outdir, tmp_path / "clean2")
    assert "from the first build" in (modules / "mod4.html").read_text(encoding="utf-8")
    entries = read_entries(outdir)
    assert set(urls.values()) <= set(entries)
    assert entries[urls["_modules/pkg/mod4"]].lastmod == w3c(MODULE_DATES[4])

    # The only document of mod5 removed: its page leaves, though its old file stays behind.
    git_repo.remove("docs/api/mod5.rst")
    git_repo.commit("drop mod5 from the docs", "2024-07-07T07:00:00+00:00")
    _rebuild_equals_clean(srcdir, outdir, tmp_path / "clean3")
    assert (modules / "mod5.html").is_file()
    entries = read_entries(outdir)
    assert urls["_modules/pkg/mod5"] not in entries
    assert urls["_modules/pkg/mod6"] in entries

    # The additional page taken out of conf.py: it leaves the sitemap too.
    conf = git_repo.path("docs/conf.py")
    conf.write_text(
        conf.read_text(encoding="utf-8").replace('{"landing": "landing.html"}', "{}"),
        encoding="utf-8",
    )
    git_repo.commit("no landing page", "2024-08-08T08:00:00+00:00")
    _rebuild_equals_clean(srcdir, outdir, tmp_path / "clean4")
    assert (outdir / "landing.html").is_file()
    assert urls["landing"] not in read_entries(outdir)


def test_a_damaged_record_is_written_again_by_the_next_build(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The record lives in the doctree folder, which CI restores from a cache: one holding bytes
    that are not UTF-8 is no record. The next build that writes pages goes on, lists what a
    clean build lists, and replaces it whole, with no temporary file left beside it."""
    srcdir = make_project(git_repo)
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", builder="html")
    record = outdir / ".doctrees" / "sitemap-pages-html.json"
    record.write_bytes(b"\xff\xfe\x00 not a record")
    edited = git_repo.write("src/pkg/mod2.py", module(2, " Edited again."))
    git_repo.commit("edit mod2", "2024-05-05T05:05:00-04:00")
    page_time = (outdir / "_modules" / "pkg" / "mod2.html").stat().st_mtime_ns
    os.utime(edited, ns=(page_time + 10**9, page_time + 10**9))  # newer than its page, surely
    _rebuild_equals_clean(srcdir, outdir, tmp_path / "clean")
    assert "_modules/pkg/mod2" in json.loads(record.read_bytes())["pages"]
    assert [path.name for path in record.parent.iterdir() if "sitemap-pages" in path.name] == [
        record.name
    ]
    entries = read_entries(outdir)
    assert entries[_urls("html")["_modules/pkg/mod2"]].lastmod == w3c("2024-05-05T05:05:00-04:00")


def test_parallel_build_writes_the_same_bytes_with_extra_pages(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Documents are written in forked processes, extra pages in the main one."""
    srcdir = make_project(git_repo)
    for builder in ("html", "dirhtml"):
        serial, parallel = tmp_path / f"{builder}-1", tmp_path / f"{builder}-2"
        sphinx_build(srcdir, serial, "-W", "-j", "1", builder=builder)
        sphinx_build(srcdir, parallel, "-W", "-j", "2", builder=builder)
        assert (serial / "sitemap.xml").read_bytes() == (parallel / "sitemap.xml").read_bytes()
        assert set(_urls(builder).values()) <= set(read_entries(parallel))


def test_singlehtml_lists_its_page_and_the_additional_pages(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """singlehtml writes html_additional_pages but no viewcode or collected pages."""
    srcdir = make_project(git_repo)
    outdir = tmp_path / "single"
    sphinx_build(srcdir, outdir, "-W", builder="singlehtml")
    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL + "index.html", BASE_URL + "landing.html"}
    assert entries[BASE_URL + "landing.html"].lastmod == w3c(TEMPLATE_DATE)
    assert entries[BASE_URL + "index.html"].lastmod == w3c(max(MODULE_DATES.values()))


def test_exclude_patterns_match_extra_pages_by_path(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = make_project(git_repo)
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", "-D", "sitemap_exclude=_modules/*", builder="html")
    entries = read_entries(outdir)
    assert not any("/_modules/" in loc for loc in entries)
    assert _urls("html")["landing"] in entries
    assert f"{MODULES + 1} excluded by config" in result.stdout


@pytest.mark.skipif(
    importlib.util.find_spec("notfound") is None, reason="sphinx-notfound-page is not installed"
)
@pytest.mark.parametrize("builder", ["html", "dirhtml"])
@pytest.mark.parametrize("own_document", [False, True], ids=["its-page", "a-document"])
def test_the_404_page_of_sphinx_notfound_page_is_left_out_under_the_name_it_is_given(
    git_repo: GitRepo, tmp_path: Path, builder: str, own_document: bool
) -> None:
    """sphinx-notfound-page writes its 404 page as ``notfound_pagename``, or takes the document
    of that name as the page where there is one: under any name, it is written and not listed."""
    pages = {"guide.rst": page("Guide")}
    if own_document:
        pages["not-found.rst"] = page("Not found", "Nothing here.")
    conf = 'extensions.insert(0, "notfound.extension")\nnotfound_pagename = "not-found"\n'
    srcdir = write_project(git_repo, pages, conf_extra=conf)
    git_repo.commit("project", FIRST)
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", builder=builder)

    entries = read_entries(outdir)
    written = outdir / ("not-found/index.html" if builder == "dirhtml" else "not-found.html")
    assert written.is_file()
    assert set(entries) == {_link("index", builder), _link("guide", builder)}
    summary = next(line for line in result.stdout.splitlines() if line.startswith("sitemap: "))
    assert "1 404 page" in summary


def test_the_shallow_clone_warning_counts_the_list_of_modules_it_leaves_undated(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """In a clone of one commit nothing is dated, the list of modules with the modules' pages,
    since each module may have changed at that commit; the one warning counts it too."""
    srcdir = make_project(git_repo)
    clone = git_repo.clone(tmp_path / "checkout", depth=1)
    outdir = tmp_path / "out"
    result = sphinx_build(clone.root / srcdir.relative_to(git_repo.root), outdir, builder="html")
    entries = read_entries(outdir)
    urls = _urls("html")
    assert entries[urls["_modules/index"]].lastmod is None
    undated = [loc for loc, entry in entries.items() if entry.lastmod is None]
    shallow = [loc for loc in undated if loc != urls["extra/overview"]]  # nothing dates that one
    [warning] = [line for line in result.stderr.splitlines() if "no lastmod" in line]
    assert f": {len(shallow)} pages have no lastmod: " in warning
    assert "shallow clone" in warning
