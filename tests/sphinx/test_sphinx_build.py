"""Real Sphinx builds: which pages, which URLs, which dates, on every kind of build."""

from __future__ import annotations

import datetime as dt
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.sphinx.helpers import (
    BASE_URL,
    PROJECT_ROOT,
    page,
    read_entries,
    write_project,
)
from tests.support.git_trace import GitTrace, git_command
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build
from tests.support.older_caches import as_an_older_release_wrote_it
from tests.support.sitemap_checks import parse_with_usp

pytestmark = pytest.mark.sphinx

EXAMPLE = PROJECT_ROOT / "example_sites" / "sphinx"
HIDDEN_PAGE = ("hidden", "index.html")


def test_example_site_lists_each_page_with_its_metadata_and_git_date(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The shared example site, built with the README's command from its own folder."""
    shutil.copytree(
        EXAMPLE, git_repo.root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("_build")
    )
    git_repo.commit("site", "2024-01-10T09:00:00+00:00")
    git_repo.write(
        "guide/configure.rst", git_repo.path("guide/configure.rst").read_text() + "\nMore.\n"
    )
    git_repo.commit("edit configure", "2024-03-05T18:30:00+01:00")

    sphinx_build(git_repo.root, Path("_build/dirhtml"), "-W")
    outdir = git_repo.root / "_build" / "dirhtml"
    entries = read_entries(outdir)

    assert set(entries) == {
        BASE_URL,
        BASE_URL + "guide/install/",
        BASE_URL + "guide/configure/",
        BASE_URL + "reference/options/",
        BASE_URL + "caf%C3%A9/",
        BASE_URL + "about/",
    }
    install = entries[BASE_URL + "guide/install/"]
    assert (install.priority, install.changefreq) == ("0.8", "monthly")
    assert install.images == (BASE_URL + "_images/where-it-goes.svg",)  # the example's image
    assert (outdir / "_images" / "where-it-goes.svg").is_file()
    assert entries[BASE_URL + "reference/options/"].changefreq == "weekly"  # MyST front matter
    assert entries[BASE_URL + "about/"].lastmod == "2024-05-01"
    assert entries[BASE_URL + "guide/configure/"].lastmod == "2024-03-05T18:30:00+01:00"
    assert entries[BASE_URL + "caf%C3%A9/"].lastmod == "2024-01-10T09:00:00Z"
    assert all(e.priority is None for loc, e in entries.items() if loc != install.loc)

    pages = parse_with_usp(outdir, "sitemap.xml", base_url=BASE_URL)
    assert set(pages) == set(entries)
    assert pages[BASE_URL + "guide/configure/"].lastmod is not None


@pytest.mark.parametrize(
    ("builder", "args", "paths"),
    [
        ("dirhtml", (), {"", "guide/", "guide/install/", "notes/"}),
        ("html", (), {"index.html", "guide/index.html", "guide/install.html", "notes.html"}),
        (
            "html",
            ("-D", "html_link_suffix="),
            {"index", "guide/index", "guide/install", "notes"},
        ),
        (
            "html",
            ("-D", "html_file_suffix=.htm"),
            {"index.htm", "guide/index.htm", "guide/install.htm", "notes.htm"},
        ),
    ],
    ids=["dirhtml", "html", "link-suffix", "file-suffix"],
)
def test_urls_are_the_ones_sphinx_links(
    git_repo: GitRepo, tmp_path: Path, builder: str, args: tuple[str, ...], paths: set[str]
) -> None:
    """URLs are get_target_uri's; search, genindex, 404, noindex and excluded pages are out."""
    srcdir = write_project(
        git_repo,
        {
            "guide/index.rst": page("Guide"),
            "guide/install.rst": page("Install"),
            "notes.rst": page("Notes"),
            "404.rst": page("Not found"),
            "hidden.rst": page("Hidden", ".. meta::\n   :robots: noindex\n\nSecret."),
            "dropped.rst": page("Dropped", fields=":sitemap: false"),
            "excluded.rst": page("Excluded", fields=':sitemap: {"exclude": true}'),
            "api.rst": page("API", ".. py:function:: spam()\n\n   A function."),
        },
        conf_extra='sitemap_exclude = ["api*"]\n',
    )
    git_repo.commit("project", "2024-02-01T12:00:00+00:00")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", *args, builder=builder)

    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL + path for path in paths}
    assert {entry.lastmod for entry in entries.values()} == {"2024-02-01T12:00:00Z"}
    for generated in ("genindex", "search", "py-modindex"):
        assert not any(generated in loc for loc in entries)
    assert "sitemap: 4 URLs in sitemap.xml" in result.stdout
    assert "1 404 page" in result.stdout
    assert "1 noindex" in result.stdout


def test_myst_front_matter_leaves_a_page_out_or_sets_its_entry(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """MyST hands front matter over as field values of its own making: a YAML ``false`` as the
    text ``False``, a mapping as JSON. Each means what it means in a reST field list, under
    ``-W``, where a value read as unreadable would fail the build."""
    srcdir = write_project(
        git_repo,
        {
            "secret.md": "---\nsitemap: false\n---\n# Secret\n\nText.\n",
            "kept.md": "---\nsitemap: true\n---\n# Kept\n\nText.\n",
            "dropped.md": "---\nsitemap:\n  exclude: true\n---\n# Dropped\n\nText.\n",
            "tuned.md": (
                "---\nsitemap:\n  priority: 0.9\n  changefreq: weekly\n---\n# Tuned\n\nText.\n"
            ),
        },
        conf_extra='extensions.append("myst_parser")\n'
        'source_suffix = {".rst": "restructuredtext", ".md": "markdown"}\n',
    )
    git_repo.commit("project", "2024-02-01T12:00:00+00:00")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", builder="dirhtml")

    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL, BASE_URL + "kept/", BASE_URL + "tuned/"}
    tuned = entries[BASE_URL + "tuned/"]
    assert (tuned.priority, tuned.changefreq) == ("0.9", "weekly")
    assert entries[BASE_URL + "kept/"].priority is None
    assert "2 excluded by metadata" in result.stdout


_FLAT_BUILDER = """\
import datetime as dt
import os
from pathlib import Path

from sphinx.builders.html import StandaloneHTMLBuilder


class FlatHTMLBuilder(StandaloneHTMLBuilder):
    \"\"\"Every page in the output folder itself: guide/install becomes guide--install.html.\"\"\"

    name = "flathtml"

    def get_target_uri(self, docname, typ=None):
        return docname.replace("/", "--") + self.link_suffix

    def get_outfilename(self, pagename):  # Sphinx 7 and 8 write here
        return os.path.join(self.outdir, pagename.replace("/", "--") + self.out_suffix)

    def get_output_path(self, page_name):  # Sphinx 9 writes here
        return Path(self.outdir, page_name.replace("/", "--") + self.out_suffix)


def setup(app):
    app.add_builder(FlatHTMLBuilder)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
"""


def test_a_builder_that_places_pages_its_own_way_is_asked_where_each_page_is(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Pages are read where the builder wrote them, not where html or dirhtml would have: the
    noindex page is found in its own file (read elsewhere, it would be listed)."""
    srcdir = write_project(
        git_repo,
        {
            "guide/install.rst": page("Install"),
            "guide/hidden.rst": page("Hidden", ".. meta::\n   :robots: noindex\n\nSecret."),
            "flat_builder.py": _FLAT_BUILDER,
        },
        conf_extra="import sys, os\nsys.path.insert(0, os.path.dirname(__file__))\n"
        'extensions.append("flat_builder")\n',
    )
    git_repo.commit("project", "2024-02-01T12:00:00+00:00")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", builder="flathtml")

    assert (outdir / "guide--hidden.html").is_file()
    assert not (outdir / "guide").exists()
    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL + "index.html", BASE_URL + "guide--install.html"}
    assert "1 noindex" in result.stdout


def _built(git_repo: GitRepo, tmp_path: Path, pages: dict[str, str], builder: str = "html") -> Any:
    """A project of ``pages`` built in this process, for a look at the application after it."""
    from sphinx.application import Sphinx

    srcdir = write_project(git_repo, pages)
    app = Sphinx(
        str(srcdir), str(srcdir), str(tmp_path / "out"), str(tmp_path / "doctrees"), builder,
        status=None, warning=None, freshenv=True,
    )  # fmt: skip
    app.build()
    return app


def test_source_files_named_by_the_adapter_are_the_ones_sphinx_reads(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The adapter takes each document's file from where Sphinx keeps it (asking makes a new
    path object per page): for every document, the same file ``doc2path`` names."""
    from sitemap_plugins.sphinx import _Catalogs, _Sources

    names = ["guide/index", "guide/install", "notes", "deep/er/index"]
    app = _built(git_repo, tmp_path, {f"{name}.rst": page(name) for name in names})
    catalogs = _Catalogs(app.config, Path(app.srcdir))
    sources = _Sources(app.env, os.fspath(app.srcdir), catalogs.compiled)
    docs = sorted(app.env.found_docs)
    assert {"index", *names} <= set(docs)
    assert {doc: sources(doc)[0] for doc in docs} == {
        doc: os.fspath(app.env.doc2path(doc, True)) for doc in docs
    }
    assert all(Path(sources(doc)[0]).is_file() for doc in docs)


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_page_files_made_by_the_adapter_are_the_ones_sphinx_writes(
    git_repo: GitRepo, tmp_path: Path, builder: str
) -> None:
    """The adapter makes html's and dirhtml's file paths itself (asking costs as much as the
    rest of a page's description): for every document, the same path the builder gives."""
    from sitemap_plugins.sphinx import _html_files

    names = ["guide/index", "guide/install", "guide/indexes", "notes", "deep/er/index", "x"]
    app = _built(git_repo, tmp_path, {f"{name}.rst": page(name) for name in names}, builder=builder)
    made = _html_files(app.builder)
    docs = sorted(app.env.found_docs)
    assert {"index", *names} <= set(docs)
    asked = {doc: os.fspath(type(app.builder).get_outfilename(app.builder, doc)) for doc in docs}
    assert {doc: os.fspath(made(doc)) for doc in docs} == asked  # the same text, not only file
    assert all(Path(path).is_file() for path in asked.values())


@pytest.mark.parametrize("builder", ["html", "dirhtml"])
def test_links_made_by_the_adapter_are_the_ones_sphinx_makes(
    git_repo: GitRepo, tmp_path: Path, builder: str
) -> None:
    """The adapter links html's documents itself when quoting would change nothing (quoting
    is most of what asking costs): for every document, the same link the builder gives,
    names that need quoting included."""
    from sitemap_plugins.sphinx import _target_uris

    names = ["guide/index", "a-b_c.d~e", "100%", "café", "a b", "q&a", "deep/er/index"]
    app = _built(git_repo, tmp_path, {f"{name}.rst": page(name) for name in names}, builder=builder)
    made = _target_uris(app.builder)
    docs = sorted(app.env.found_docs)
    assert {"index", *names} <= set(docs)
    asked = {doc: type(app.builder).get_target_uri(app.builder, doc) for doc in docs}
    assert {doc: made(doc) for doc in docs} == asked
    assert asked["100%"] in ("100%25.html", "100%/")  # quoted by html, raw in dirhtml


def test_a_sphinx_that_links_html_pages_otherwise_is_asked_for_every_link(
    git_repo: GitRepo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The adapter's own links rest on how Sphinx 7 to 9 link a page (quoted name and suffix);
    one asked link tells, so a Sphinx that links otherwise is asked for each link."""
    from sphinx.builders import html

    from sitemap_plugins.sphinx import _target_uris

    app = _built(git_repo, tmp_path, {"guide.rst": page("Guide")})
    monkeypatch.setattr(html, "quote", lambda name: "v2/" + name)  # links another way
    made = _target_uris(app.builder)
    assert made("guide") == app.builder.get_target_uri("guide") == "v2/guide.html"


def _project_with_history(git_repo: GitRepo, count: int = 12) -> Path:
    pages = {f"chapter{n:02d}.rst": page(f"Chapter {n}") for n in range(count)}
    srcdir = write_project(git_repo, pages)
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    for n in range(0, count, 3):
        git_repo.write(f"docs/chapter{n:02d}.rst", page(f"Chapter {n}", f"Revision {n}."))
        git_repo.commit(f"edit {n}", f"2024-02-{n + 1:02d}T08:00:00+00:00")
    return srcdir


def test_incremental_build_gives_the_same_sitemap_as_a_clean_build(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """sphinx-sitemap lists only the pages written in the run; here all pages stay."""
    srcdir = _project_with_history(git_repo)
    outdir = tmp_path / "incremental"
    sphinx_build(srcdir, outdir)
    before = read_entries(outdir)

    git_repo.write("docs/chapter04.rst", page("Chapter 4", "A later edit."))
    git_repo.commit("edit 4", "2024-06-15T10:00:00+00:00")
    result = sphinx_build(srcdir, outdir)  # no -E: only chapter04 is read and written again
    assert "chapter04" in result.stdout
    assert "chapter05" not in result.stdout.replace("chapter04", "")
    incremental = (outdir / "sitemap.xml").read_bytes()

    clean = tmp_path / "clean"
    sphinx_build(srcdir, clean, "-E")
    assert incremental == (clean / "sitemap.xml").read_bytes()
    after = read_entries(outdir)
    assert set(after) == set(before)
    assert after[BASE_URL + "chapter04/"].lastmod == "2024-06-15T10:00:00Z"
    assert before[BASE_URL + "chapter04/"].lastmod == "2024-01-01T08:00:00Z"


def test_a_page_memo_an_older_release_wrote_is_not_used(git_repo: GitRepo, tmp_path: Path) -> None:
    """A doctree folder CI restored from a build that ran an older release, which read a robots
    meta of ``none`` as no noindex: what it kept of the page's file, as the file still is, says
    the page is listed. An incremental build, which does not write the page again, reads it all
    the same, and leaves it out, as a build without what was kept does."""
    hidden = ".. meta::\n   :robots: none\n\n" + page("Hidden")
    srcdir = write_project(git_repo, {"hidden.rst": hidden, "guide.rst": page("Guide")})
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    sphinx_build(srcdir, outdir)  # nothing to write: each page is read from its file, and kept
    [memo] = (outdir / ".doctrees" / "sitemap-plugins").glob("pages-*.json")

    def listed(data: dict[str, Any]) -> None:
        [name] = [name for name in data["files"] if Path(name).parts[-2:] == HIDDEN_PAGE]
        assert data["files"][name][4] == "NOINDEX"  # as this release read the page
        data["files"][name][4] = None

    as_an_older_release_wrote_it(memo, listed)
    git_repo.write("docs/guide.rst", page("Guide", "Edited."))
    git_repo.commit("edit the guide", "2024-02-01T08:00:00+00:00")
    sphinx_build(srcdir, outdir)  # writes the guide again, not the hidden page
    with_memo = (outdir / "sitemap.xml").read_bytes()
    memo.unlink()
    sphinx_build(srcdir, outdir)
    assert with_memo == (outdir / "sitemap.xml").read_bytes()
    entries = read_entries(outdir)
    assert BASE_URL + "hidden/" not in entries
    assert entries[BASE_URL + "guide/"].lastmod == "2024-02-01T08:00:00Z"


def test_an_incremental_build_with_nothing_to_list_leaves_no_sitemap(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """As a clean build of the same project: once every page is excluded, the last build's
    sitemap does not stay behind, listing pages that are out."""
    srcdir = write_project(git_repo, {"guide.rst": page("Guide")})
    git_repo.commit("project", "2024-02-01T12:00:00+00:00")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    assert set(read_entries(outdir)) == {BASE_URL, BASE_URL + "guide/"}
    git_repo.write("docs/conf.py", (srcdir / "conf.py").read_text() + 'sitemap_exclude = ["*"]\n')
    result = sphinx_build(srcdir, outdir)
    assert "no sitemap written to sitemap.xml: no pages" in result.stdout + result.stderr
    clean = tmp_path / "clean"
    sphinx_build(srcdir, clean)
    assert not (clean / "sitemap.xml").exists()
    assert not (outdir / "sitemap.xml").exists()


def test_parallel_build_writes_the_same_bytes(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = _project_with_history(git_repo, count=16)
    sphinx_build(srcdir, tmp_path / "serial", "-j", "1")
    sphinx_build(srcdir, tmp_path / "parallel", "-j", "2")
    serial = (tmp_path / "serial" / "sitemap.xml").read_bytes()
    assert serial == (tmp_path / "parallel" / "sitemap.xml").read_bytes()
    entries = read_entries(tmp_path / "parallel")
    assert len(entries) == 17
    assert entries[BASE_URL + "chapter09/"].lastmod == "2024-02-10T08:00:00Z"


def test_included_and_literalincluded_files_date_the_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = write_project(
        git_repo,
        {
            "usage.rst": page("Usage", ".. include:: snippets/note.txt"),
            "example.rst": page("Example", ".. literalinclude:: ../src/example.py"),
            "plain.rst": page("Plain"),
        },
    )
    git_repo.write("docs/snippets/note.txt", "A shared note.\n")
    git_repo.write("src/example.py", "print('hello')\n")
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    git_repo.write("docs/snippets/note.txt", "A shared note, edited.\n")
    git_repo.commit("edit note", "2024-04-02T08:00:00+00:00")
    git_repo.write("src/example.py", "print('hello, world')\n")
    git_repo.commit("edit code", "2024-05-03T08:00:00+00:00")

    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    entries = read_entries(outdir)
    assert entries[BASE_URL + "usage/"].lastmod == "2024-04-02T08:00:00Z"
    assert entries[BASE_URL + "example/"].lastmod == "2024-05-03T08:00:00Z"
    assert entries[BASE_URL + "plain/"].lastmod == "2024-01-01T08:00:00Z"


def test_only_dependencies_inside_the_repository_date_a_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """autodoc of the project's own module dates its page; the standard library, an installed
    package and a file beside the checkout (their times are install or copy times) never do."""
    outside = tmp_path / "beside" / "snippet.txt"
    outside.parent.mkdir()
    srcdir = write_project(
        git_repo,
        {
            "api.rst": page("API", ".. automodule:: mymod\n   :members:"),
            "installed.rst": page(
                "Installed",
                ".. autofunction:: json.dumps\n\n.. autofunction:: docutils.core.publish_string",
            ),
            "beside.rst": page("Beside", ".. literalinclude:: ../../beside/snippet.txt"),
        },
        conf_extra=(
            "import os, sys\n"
            "sys.path.insert(0, os.path.abspath('../src'))\n"
            "extensions.append('sphinx.ext.autodoc')\n"
        ),
    )
    git_repo.write("src/mymod.py", '"""My module."""\n\n\ndef f():\n    """Do it."""\n')
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    git_repo.write("src/mymod.py", '"""My module."""\n\n\ndef f():\n    """Do it well."""\n')
    git_repo.commit("edit module", "2024-06-06T06:00:00+02:00")
    outside.write_text("copied here a moment ago\n", encoding="utf-8")

    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    entries = read_entries(outdir)
    assert entries[BASE_URL + "api/"].lastmod == "2024-06-06T06:00:00+02:00"
    assert entries[BASE_URL + "installed/"].lastmod == "2024-01-01T08:00:00Z"
    assert entries[BASE_URL + "beside/"].lastmod == "2024-01-01T08:00:00Z"


def test_a_checkout_in_a_virtualenv_under_the_sources_never_dates_a_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """``pip install -e git+...`` checks a theme out into ``.venv/src/NAME``, a git clone: a
    virtualenv made in the source folder puts it under that folder, where a clone of the
    translations would date its files. An installed package's files never date a page."""
    srcdir = write_project(
        git_repo,
        {"theme.rst": page("Theme", ".. literalinclude:: .venv/src/theme/snippet.txt")},
        conf_extra='exclude_patterns.append(".venv")\n',
    )
    git_repo.write(".gitignore", ".venv/\n")
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    git_repo.write("docs/.venv/pyvenv.cfg", "home = /usr/bin\n")
    theme = GitRepo(git_repo.path("docs/.venv/src/theme"))
    theme.write("snippet.txt", "From the theme.\n")
    theme.commit("theme", "2024-06-06T08:00:00+00:00")

    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")  # -W: the file is found, and included
    assert read_entries(outdir)[BASE_URL + "theme/"].lastmod == "2024-01-01T08:00:00Z"


def test_uncommitted_edit_takes_the_file_time(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = write_project(git_repo, {"draft.rst": page("Draft")})
    git_repo.commit("project", "2020-01-01T08:00:00+00:00")
    git_repo.write("docs/draft.rst", page("Draft", "Not committed yet."))
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir)
    entries = read_entries(outdir)
    assert entries[BASE_URL].lastmod == "2020-01-01T08:00:00Z"
    assert entries[BASE_URL + "draft/"].lastmod != "2020-01-01T08:00:00Z"


def test_singlehtml_lists_its_one_page_and_epub_gets_no_sitemap(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = write_project(git_repo, {"a.rst": page("A"), "b.rst": page("B")})
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    git_repo.write("docs/b.rst", page("B", "Edited."))
    git_repo.commit("edit b", "2024-07-08T08:00:00+00:00")

    single = tmp_path / "single"
    sphinx_build(srcdir, single, "-W", builder="singlehtml")
    entries = read_entries(single)
    assert set(entries) == {BASE_URL + "index.html"}
    assert entries[BASE_URL + "index.html"].lastmod == "2024-07-08T08:00:00Z"  # newest of its parts

    epub = tmp_path / "epub"
    sphinx_build(srcdir, epub, builder="epub")
    assert not list(epub.rglob("sitemap*"))


def test_failed_build_writes_no_sitemap(git_repo: GitRepo, tmp_path: Path) -> None:
    conf_extra = (
        "def _boom(app, env):\n"
        "    raise RuntimeError('the build breaks here')\n\n"
        "def setup(app):\n"
        "    app.connect('env-updated', _boom)\n"
    )
    srcdir = write_project(git_repo, {"a.rst": page("A")}, conf_extra=conf_extra)
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, check=False)
    assert result.returncode != 0
    assert "the build breaks here" in result.stdout + result.stderr
    assert not (outdir / "sitemap.xml").exists()


@pytest.mark.parametrize(
    "conf_language", ['language = "en"\n', ""], ids=["set-in-conf", "sphinx-default"]
)
def test_locales_give_hreflang_alternates_with_x_default(
    git_repo: GitRepo, tmp_path: Path, conf_language: str
) -> None:
    """x-default is conf.py's language, or Sphinx's default one where conf.py sets none: a
    translation build overrides it, and its sitemap still lists every language."""
    srcdir = write_project(
        git_repo,
        {"guide.rst": page("Guide")},
        conf_extra=conf_language + 'sitemap_url_scheme = "{lang}{link}"\n',
    )
    for locale in ("ja", "pt_BR"):
        git_repo.write(f"docs/locales/{locale}/LC_MESSAGES/guide.po", 'msgid ""\nmsgstr ""\n')
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")

    english = tmp_path / "en"
    sphinx_build(srcdir, english, "-W", "-D", f"html_baseurl={BASE_URL}en/")
    entries = read_entries(english)
    assert set(entries) == {BASE_URL + "en/", BASE_URL + "en/guide/"}
    assert entries[BASE_URL + "en/guide/"].alternates == {
        "en": BASE_URL + "en/guide/",
        "ja": BASE_URL + "ja/guide/",
        "pt-BR": BASE_URL + "pt_BR/guide/",
        "x-default": BASE_URL + "en/guide/",
    }

    japanese = tmp_path / "ja"
    sphinx_build(srcdir, japanese, "-D", "language=ja", "-D", f"html_baseurl={BASE_URL}ja/")
    translated = read_entries(japanese)
    assert set(translated) == {BASE_URL + "ja/", BASE_URL + "ja/guide/"}
    assert (
        translated[BASE_URL + "ja/guide/"].alternates == entries[BASE_URL + "en/guide/"].alternates
    )


def test_the_history_pass_starts_with_the_build_and_is_the_only_one(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """git reads the history while Sphinx reads and writes (started at builder-inited, the
    build's first git command), and the sitemap takes that pass: one git log and one git status
    a build, and no log at all for an incremental build at the same HEAD."""
    shutil.copytree(
        EXAMPLE, git_repo.root, dirs_exist_ok=True, ignore=shutil.ignore_patterns("_build")
    )
    git_repo.commit("site", "2024-01-10T09:00:00+00:00")
    trace = GitTrace(tmp_path / "trace")
    sphinx_build(git_repo.root, Path("_build/html"), "-W", builder="html", env=trace.env)
    outdir = git_repo.root / "_build" / "html"
    first = read_entries(outdir)
    assert first[BASE_URL + "caf%C3%A9.html"].lastmod == "2024-01-10T09:00:00Z"
    started = trace.commands()[0]
    assert (started[0], started[-1]) == ("rev-parse", "HEAD"), trace.commands()
    assert (trace.count("log"), trace.count("status")) == (1, 1), trace.commands()
    trace.clear()
    sphinx_build(git_repo.root, Path("_build/html"), "-W", builder="html", env=trace.env)
    assert read_entries(outdir) == first
    assert (trace.count("log"), trace.count("status")) == (0, 1), trace.commands()


def test_pages_git_does_not_track_leave_the_one_pass_alone(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A CI step that generates pages git ignores (as ``sphinx-apidoc`` does) and a page not
    committed yet: no commit holds them, so the pass begun at builder-inited still serves the
    whole site, and the next build at the same HEAD reads no history at all."""
    git_repo.write(".gitignore", "docs/api/\n")
    srcdir = write_project(git_repo, {"guide.rst": page("Guide")})
    git_repo.commit("site", "2024-01-10T09:00:00+00:00")
    git_repo.write("docs/api/module.rst", page("Module", fields=":orphan:"))
    git_repo.write("docs/draft.rst", page("Draft", fields=":orphan:"))
    trace = GitTrace(tmp_path / "trace")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir, "-W", builder="html", env=trace.env)
    first = read_entries(outdir)
    assert trace.count("log") == 1, trace.commands()
    assert first[BASE_URL + "guide.html"].lastmod == "2024-01-10T09:00:00Z"
    draft_time = int(git_repo.path("docs/draft.rst").stat().st_mtime)
    assert first[BASE_URL + "draft.html"].lastmod == dt.datetime.fromtimestamp(
        draft_time, dt.timezone.utc
    ).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert first[BASE_URL + "api/module.html"].lastmod is None  # ignored: no date to prove
    trace.clear()
    git_repo.write("docs/api/other.rst", page("Other", fields=":orphan:"))  # generated anew
    sphinx_build(srcdir, outdir, "-W", builder="html", env=trace.env)
    second = read_entries(outdir)
    assert trace.count("log") == 0, trace.commands()
    assert set(second) == set(first) | {BASE_URL + "api/other.html"}
    assert {loc: second[loc].lastmod for loc in first} == {
        loc: entry.lastmod for loc, entry in first.items()
    }


GENERATOR = """
import pathlib
import time

def setup(app):
    def generate(app):
        source = pathlib.Path(app.srcdir, "generated.rst")
        text = "Generated\\n=========\\n\\nWritten by the build.\\n"
        if not source.is_file() or source.read_text() != text:  # else left as it is
            source.write_text(text)
        time.sleep(0.2)  # the rest of its work (autoapi parses the code it documents)
    app.connect("builder-inited", generate, priority=100)  # before the sitemap's handler
"""
"""A local extension that writes a page into the source folder, as sphinx-autoapi with
``autoapi_keep_files`` does: anew when its text changes, else left as it is. It runs before
the sitemap's own ``builder-inited``, and goes on working after writing the page."""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_page_the_build_writes_into_the_source_folder_has_no_lastmod(
    git_repo: GitRepo, tmp_path: Path, jobs: str
) -> None:
    """Untracked, the generated page's file time is the build's: no lastmod, this build or the
    next one that finds it as the build left it, and one line (not a warning: ``-W`` passes)
    saying why and what to do. A page edited before the build, not committed, keeps its file
    time; committed, the generated page is dated by its commit."""
    pages = {"guide.rst": page("Guide"), "other.rst": page("Other")}
    srcdir = write_project(git_repo, pages, conf_extra=GENERATOR)
    git_repo.commit("site", "2024-01-10T09:00:00+00:00")
    edited = git_repo.write("docs/guide.rst", page("Guide", "Edited, not committed."))
    edited_at = dt.datetime.fromtimestamp(int(edited.stat().st_mtime), dt.timezone.utc)
    outdir = tmp_path / "html"
    for run in ("first build", "incremental build"):
        result = sphinx_build(srcdir, outdir, "-W", "-j", jobs, builder="html")
        assert "?? docs/generated.rst" in git_repo.git("status", "--short"), run
        entries = read_entries(outdir)
        assert entries[BASE_URL + "generated.html"].lastmod is None, run
        assert entries[BASE_URL + "guide.html"].lastmod == edited_at.strftime(
            "%Y-%m-%dT%H:%M:%SZ"
        ), run
        assert entries[BASE_URL + "other.html"].lastmod == "2024-01-10T09:00:00Z", run
        why = [line for line in result.stdout.splitlines() if "by the build itself" in line]
        assert len(why) == 1, result.stdout
        assert why[0].startswith("sitemap: 1 page has no lastmod"), why
    git_repo.commit("keep the generated page", "2024-02-01T00:00:00+00:00", "docs/generated.rst")
    sphinx_build(srcdir, outdir, "-W", "-j", jobs, builder="html")
    assert read_entries(outdir)[BASE_URL + "generated.html"].lastmod == "2024-02-01T00:00:00Z"


def test_a_second_build_of_one_application_begins_when_it_reads(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """An application built twice in one process (a tool driving Sphinx's API) has no second
    ``builder-inited``: the second build begins when it reads, and a page an extension writes
    then (here, at every read) is the build's, not a change."""
    from sphinx.application import Sphinx

    rewrite = (
        "\nimport pathlib\n\ndef setup(app):\n"
        "    def generate(app, env, docnames):\n"
        "        text = 'Generated\\n=========\\n\\nWritten at every read.\\n'\n"
        "        pathlib.Path(app.srcdir, 'generated.rst').write_text(text)\n"
        "    app.connect('env-before-read-docs', generate)\n"
    )
    srcdir = write_project(git_repo, {"guide.rst": page("Guide")}, conf_extra=rewrite)
    git_repo.commit("site", "2024-01-10T09:00:00+00:00")
    outdir = tmp_path / "out"
    app = Sphinx(
        str(srcdir), str(srcdir), str(outdir), str(tmp_path / "doctrees"), "html",
        status=None, warning=None,
    )  # fmt: skip
    app.build()  # writes generated.rst after Sphinx looked for sources: not a page yet
    app.build()  # reads it, and writes it again
    entries = read_entries(outdir)
    assert entries[BASE_URL + "guide.html"].lastmod == "2024-01-10T09:00:00Z"
    assert entries[BASE_URL + "generated.html"].lastmod is None


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_files_beyond_the_source_folder_join_the_pass_before_sphinx_writes(
    git_repo: GitRepo, tmp_path: Path, jobs: str
) -> None:
    """A page including a file from the project root (as autodoc documents a module beside
    ``docs/``): Sphinx names it once every document is read, and the pass begun at
    builder-inited is begun again over it then, so no git log runs after Sphinx has written
    (a marker extension notes in the trace when build-finished comes)."""
    trace = GitTrace(tmp_path / "trace")
    marker = (
        "\ndef setup(app):\n"
        "    def mark(app, exception):\n"
        f"        with open({str(trace.log)!r}, 'a') as log:\n"
        "            log.write('build-finished\\n')\n"
        "    app.connect('build-finished', mark, priority=100)\n"
    )
    guide = page("Guide", ".. literalinclude:: ../src/module.py")
    pages = {f"part-{n}.rst": page(f"Part {n}") for n in range(8)}  # enough to read in parallel
    srcdir = write_project(git_repo, {"guide.rst": guide, **pages}, conf_extra=marker)
    git_repo.write("src/module.py", "VALUE = 1\n")
    git_repo.commit("site", "2024-01-10T09:00:00+00:00")
    git_repo.write("src/module.py", "VALUE = 2\n")
    git_repo.commit("change the code", "2024-02-20T12:00:00+00:00")
    outdir = tmp_path / "html"
    sphinx_build(srcdir, outdir, "-W", "-j", jobs, builder="html", env=trace.env)
    entries = read_entries(outdir)
    assert entries[BASE_URL + "guide.html"].lastmod == "2024-02-20T12:00:00Z"
    assert entries[BASE_URL + "index.html"].lastmod == "2024-01-10T09:00:00Z"
    commands = [git_command(args) for args in trace.commands()]
    assert commands.count("build-finished") == 1, commands
    assert "log" not in commands[commands.index("build-finished") :], commands
    assert commands.count("log") == 2, commands  # the pass begun, then begun again wider
    trace.clear()
    sphinx_build(srcdir, outdir, "-W", builder="html", env=trace.env)
    assert read_entries(outdir) == entries
    assert trace.count("log") == 0, trace.commands()
