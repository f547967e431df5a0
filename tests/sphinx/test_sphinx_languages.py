"""A Sphinx project built once per language into ``<lang>/`` folders, as the README shows.

Real translations (a ``.po`` catalog that Sphinx compiles and applies), one real ``sphinx-build``
per language, and the sitemaps read back: each language's sitemap sits in its folder and lists
its pages there, every page with its version in each language, itself and ``x-default``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sphinx

from tests.sphinx.helpers import BASE_URL, canonical_link, page, write_project
from tests.support.git_trace import GitTrace
from tests.support.gitrepo import GitRepo
from tests.support.hosts import run_python, sphinx_build
from tests.support.sitemap_checks import check_sitemap_file, parse_with_usp, read_index

pytestmark = pytest.mark.sphinx

LANGUAGES = ("en", "de")
CONF = """\
language = "en"
locale_dirs = ["locales"]
sitemap_url_scheme = "{lang}{link}"
sitemap_locales = ["en", "de"]
"""
CATALOG = """\
msgid ""
msgstr ""
"Content-Type: text/plain; charset=UTF-8\\n"

msgid "Guide"
msgstr "Anleitung"

msgid "Hello world."
msgstr "Hallo Welt."
"""
DOCS = ("", "guide/", "api/")
TRANSLATED = "2024-02-01T08:00:00+00:00"


def options_for(language: str, folder: str | None = None) -> tuple[str, ...]:
    """The options of one language's build, as README gives them: the language, and the URL
    the build is served at (``folder``, the language's name by default) as its
    ``html_baseurl``, which Sphinx writes every page's canonical link from."""
    served_at = BASE_URL + (folder or language).strip("/") + "/"
    return ("-D", f"language={language}", "-D", f"html_baseurl={served_at}")


def _project(git_repo: GitRepo) -> Path:
    srcdir = write_project(
        git_repo,
        {"guide.rst": page("Guide", "Hello world."), "api/index.rst": page("API")},
        conf_extra=CONF,
    )
    git_repo.write(".gitignore", "*.mo\n")  # Sphinx compiles the catalogs into the sources
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    git_repo.write("docs/locales/de/LC_MESSAGES/guide.po", CATALOG)
    git_repo.commit("German translation of the guide", TRANSLATED)
    return srcdir


def test_each_language_build_lists_every_version_of_each_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(git_repo)
    site = tmp_path / "site"
    for lang in LANGUAGES:
        sphinx_build(srcdir, site / lang, "-W", *options_for(lang))
    assert "Hallo Welt." in (site / "de" / "guide" / "index.html").read_text("utf-8")

    listed: set[str] = set()
    for lang in LANGUAGES:
        # Each sitemap is checked at its own URL: it may list only what is under its folder.
        entries = check_sitemap_file(site / lang / "sitemap.xml", f"{BASE_URL}{lang}/sitemap.xml")
        assert {entry.loc for entry in entries} == {f"{BASE_URL}{lang}/{doc}" for doc in DOCS}
        for entry in entries:
            doc = entry.loc.removeprefix(f"{BASE_URL}{lang}/")
            assert entry.alternates == {
                "en": f"{BASE_URL}en/{doc}",
                "de": f"{BASE_URL}de/{doc}",
                "x-default": f"{BASE_URL}en/{doc}",
            }
            # The German guide changed with its catalog; the rest with their sources.
            dated = TRANSLATED if (lang, doc) == ("de", "guide/") else "2024-01-01T08:00:00+00:00"
            assert entry.lastmod == dated.replace("+00:00", "Z"), entry.loc
        listed |= {entry.loc for entry in entries}
        pages = parse_with_usp(site, f"{lang}/sitemap.xml", base_url=BASE_URL)
        assert {loc: dict(info.alternates) for loc, info in pages.items()} == {
            entry.loc: entry.alternates for entry in entries
        }
    # Every alternate is a page one of the builds lists.
    assert listed == {f"{BASE_URL}{lang}/{doc}" for lang in LANGUAGES for doc in DOCS}


def test_a_split_language_sitemap_and_its_robots_line_are_in_its_folder(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(git_repo)
    outdir = tmp_path / "site" / "de"
    args = (*options_for("de"), "-D", "sitemap_urls_per_file=2", "-D", "sitemap_robots_txt=1")
    sphinx_build(srcdir, outdir, "-W", *args)
    parts = [ref.loc for ref in read_index(outdir / "sitemap.xml")]
    assert len(parts) == 2
    assert all(loc.startswith(f"{BASE_URL}de/sitemap-") for loc in parts)
    assert (outdir / "robots.txt").read_text() == f"Sitemap: {BASE_URL}de/sitemap.xml\n"
    entries = check_sitemap_file(
        outdir / "sitemap.xml",
        f"{BASE_URL}de/sitemap.xml",
        site_dir=outdir,
        base_url=f"{BASE_URL}de/",
    )
    assert {entry.loc for entry in entries} == {f"{BASE_URL}de/{doc}" for doc in DOCS}
    assert all(len(entry.alternates) == 3 for entry in entries)


def test_the_index_command_joins_the_languages_at_the_root(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The README's last step: one index at the root over every language's sitemap."""
    srcdir = _project(git_repo)
    site = tmp_path / "site"
    for lang in LANGUAGES:
        sphinx_build(srcdir, site / lang, *options_for(lang))
    run_python("-m", "sitemap_plugins", "index", site, "--base-url", BASE_URL, cwd=tmp_path)
    entries = check_sitemap_file(
        site / "sitemap.xml", BASE_URL + "sitemap.xml", site_dir=site, base_url=BASE_URL
    )
    assert {entry.loc for entry in entries} == {
        f"{BASE_URL}{lang}/{doc}" for lang in LANGUAGES for doc in DOCS
    }
    assert all(set(entry.alternates) == {"en", "de", "x-default"} for entry in entries)
    assert (site / "robots.txt").read_text() == f"Sitemap: {BASE_URL}sitemap.xml\n"


KEPT_APART_CONF = """\
language = "en"
locale_dirs = ["../locales"]
sitemap_url_scheme = "{lang}{link}"
sitemap_locales = ["en", "fr"]
"""
FRENCH = CATALOG.replace("Anleitung", "Le guide").replace("Hallo Welt.", "Bonjour le monde.")


def _translations_kept_apart(git_repo: GitRepo, tmp_path: Path, kept: str) -> tuple[Path, GitRepo]:
    """A project whose French catalogs live in a repository of their own (as python-docs-fr
    does), taken in at ``locales/fr`` after the catalog's last change: as a submodule, or as a
    clone the project's repository ignores. Returns the source folder and that repository."""
    french = GitRepo(tmp_path / "french")
    french.write("LC_MESSAGES/guide.po", FRENCH)
    french.commit("French translation of the guide", "2024-05-05T08:00:00+00:00")
    french.write("README.txt", "French translation.\n")
    french.commit("readme", "2024-05-20T08:00:00+00:00")
    srcdir = write_project(
        git_repo, {"guide.rst": page("Guide", "Hello world.")}, conf_extra=KEPT_APART_CONF
    )
    git_repo.write(".gitignore", "*.mo\n")
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    if kept == "submodule":
        git_repo.git("-c", "protocol.file.allow=always", "submodule", "add", "-q",
                     french.root.resolve().as_uri(), "locales/fr")  # fmt: skip
    else:
        french.clone(git_repo.path("locales/fr"))
        git_repo.write(".gitignore", "*.mo\nlocales/fr/\n")
    git_repo.commit("take in the French translation", "2024-06-01T08:00:00+00:00")
    return srcdir, french


@pytest.mark.parametrize("kept", ["submodule", "clone"])
def test_a_catalog_in_a_repository_of_its_own_dates_its_page(
    git_repo: GitRepo, tmp_path: Path, kept: str
) -> None:
    """The catalog's own last commit dates the translated page: neither the project's commit
    that took the catalogs in (newer) nor the page's source (older)."""
    srcdir, french = _translations_kept_apart(git_repo, tmp_path, kept)
    outdir = tmp_path / "site" / "fr"
    sphinx_build(srcdir, outdir, "-W", *options_for("fr"))
    assert "Bonjour le monde." in (outdir / "guide" / "index.html").read_text("utf-8")
    entries = check_sitemap_file(outdir / "sitemap.xml", f"{BASE_URL}fr/sitemap.xml")
    catalog_date = french.log_date("LC_MESSAGES/guide.po").replace("+00:00", "Z")
    assert {entry.loc: entry.lastmod for entry in entries} == {
        f"{BASE_URL}fr/": "2024-01-01T08:00:00Z",
        f"{BASE_URL}fr/guide/": catalog_date,
    }


def test_a_shallow_submodule_of_catalogs_dates_no_page_older_than_its_catalog(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """CI fetches submodules shallow: the catalog's last change is then not in the history,
    so its page, whose source is older than the commit the submodule's clone stops at, gets
    no lastmod (never its source's date), and the one warning names the submodule."""
    _translations_kept_apart(git_repo, tmp_path, "submodule")
    ci = git_repo.clone(tmp_path / "ci", options=["--recurse-submodules", "--shallow-submodules"])
    outdir = tmp_path / "site" / "fr"
    proc = sphinx_build(ci.path("docs"), outdir, *options_for("fr"))
    entries = check_sitemap_file(outdir / "sitemap.xml", f"{BASE_URL}fr/sitemap.xml")
    assert {entry.loc: entry.lastmod for entry in entries} == {
        f"{BASE_URL}fr/": "2024-01-01T08:00:00Z",
        f"{BASE_URL}fr/guide/": None,
    }
    [warning] = [line for line in proc.stderr.splitlines() if "WARNING" in line]
    assert "1 page has no lastmod" in warning
    assert f"{ci.path('locales/fr').resolve()} is a shallow clone" in warning


ROOT_CONF = """\
language = "en"
version = "3"
locale_dirs = ["locales"]
sitemap_url_scheme = "{lang}{version}{link}"
sitemap_locales = ["en", "pt_BR"]
sitemap_language_folders = {"en": "", "pt_BR": "pt-br"}
"""


def test_a_language_at_the_root_and_one_in_a_folder_of_another_name(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """The layout of docs.python.org: English at /3/, Brazilian Portuguese at /pt-br/3/."""
    srcdir = write_project(
        git_repo,
        {"guide.rst": page("Guide", "Hello world."), "api/index.rst": page("API")},
        conf_extra=ROOT_CONF,
    )
    git_repo.write(".gitignore", "*.mo\n")
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    site = tmp_path / "site"
    served = {"en": "3/", "pt_BR": "pt-br/3/"}
    for lang, folder in served.items():
        sphinx_build(srcdir, site / folder, "-W", *options_for(lang, folder))
    for folder in served.values():
        # Each sitemap at its own URL, listing only what is under its folder.
        entries = check_sitemap_file(
            site / folder / "sitemap.xml", f"{BASE_URL}{folder}sitemap.xml"
        )
        assert {entry.loc for entry in entries} == {f"{BASE_URL}{folder}{doc}" for doc in DOCS}
        for entry in entries:
            doc = entry.loc.removeprefix(BASE_URL + folder)
            assert entry.alternates == {
                "en": f"{BASE_URL}3/{doc}",
                "pt-BR": f"{BASE_URL}pt-br/3/{doc}",
                "x-default": f"{BASE_URL}3/{doc}",
            }
        pages = parse_with_usp(site, f"{folder}sitemap.xml", base_url=BASE_URL)
        assert {loc: dict(info.alternates) for loc, info in pages.items()} == {
            entry.loc: entry.alternates for entry in entries
        }
    # One index at the root over both, found by the globs README gives for this layout.
    globs = ("--glob", "3/sitemap.xml", "--glob", "*/3/sitemap.xml")
    run_python("-m", "sitemap_plugins", "index", site, "--base-url", BASE_URL, *globs,
               cwd=tmp_path)  # fmt: skip
    entries = check_sitemap_file(
        site / "sitemap.xml", BASE_URL + "sitemap.xml", site_dir=site, base_url=BASE_URL
    )
    assert {entry.loc for entry in entries} == {
        f"{BASE_URL}{folder}{doc}" for folder in served.values() for doc in DOCS
    }


FOUND_CONF = """\
language = "en"
locale_dirs = ["locales"]
sitemap_url_scheme = "{lang}{link}"
"""


def test_languages_found_in_locale_dirs_are_those_with_catalogs(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Without ``sitemap_locales``, the languages are the folders of ``locale_dirs`` that hold
    ``LC_MESSAGES``, where Sphinx reads catalogs: not the ``pot`` folder sphinx-intl's users
    write the templates to, nor the ``.git`` of a translations repository cloned as the
    locales folder."""
    translations = GitRepo(tmp_path / "translations")
    translations.write("fr/LC_MESSAGES/guide.po", FRENCH)
    translations.commit("French translation of the guide", "2024-05-05T08:00:00+00:00")
    srcdir = write_project(
        git_repo, {"guide.rst": page("Guide", "Hello world.")}, conf_extra=FOUND_CONF
    )
    git_repo.write(".gitignore", "*.mo\ndocs/locales/\n")
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    translations.clone(srcdir / "locales")
    sphinx_build(srcdir, srcdir / "locales" / "pot", builder="gettext")  # as sphinx-intl's do
    assert (srcdir / "locales" / "pot" / "guide.pot").is_file()

    outdir = tmp_path / "site" / "fr"
    sphinx_build(srcdir, outdir, "-W", *options_for("fr"))  # -W: no warning either
    entries = check_sitemap_file(outdir / "sitemap.xml", f"{BASE_URL}fr/sitemap.xml")
    assert {entry.loc for entry in entries} == {f"{BASE_URL}fr/", f"{BASE_URL}fr/guide/"}
    for entry in entries:
        doc = entry.loc.removeprefix(f"{BASE_URL}fr/")
        assert entry.alternates == {
            "en": f"{BASE_URL}en/{doc}",
            "fr": f"{BASE_URL}fr/{doc}",
            "x-default": f"{BASE_URL}en/{doc}",
        }


SERBIAN = CATALOG.replace("Anleitung", "Uputstvo").replace("Hallo Welt.", "Zdravo svete.")


def test_a_language_named_with_a_gettext_modifier_gets_its_bcp47_tag(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Sphinx names Serbian in Latin script ``sr@latin``, as gettext does (it ships its own
    catalog under that name); ``hreflang`` wants ``sr-Latn``. The folder keeps the name."""
    srcdir = write_project(
        git_repo, {"guide.rst": page("Guide", "Hello world.")}, conf_extra=FOUND_CONF
    )
    git_repo.write(".gitignore", "*.mo\n")
    git_repo.write("docs/locales/sr@latin/LC_MESSAGES/guide.po", SERBIAN)
    git_repo.commit("project", "2024-01-01T08:00:00+00:00")
    site = tmp_path / "site"
    for lang in ("en", "sr@latin"):
        sphinx_build(srcdir, site / lang, "-W", *options_for(lang))  # -W: no warning
    assert "Zdravo svete." in (site / "sr@latin" / "guide" / "index.html").read_text("utf-8")
    for lang in ("en", "sr@latin"):
        entries = check_sitemap_file(site / lang / "sitemap.xml", f"{BASE_URL}{lang}/sitemap.xml")
        assert {entry.loc for entry in entries} == {
            f"{BASE_URL}{lang}/{doc}" for doc in ("", "guide/")
        }
        for entry in entries:
            doc = entry.loc.removeprefix(f"{BASE_URL}{lang}/")
            assert entry.alternates == {
                "en": f"{BASE_URL}en/{doc}",
                "sr-Latn": f"{BASE_URL}sr@latin/{doc}",
                "x-default": f"{BASE_URL}en/{doc}",
            }


COMPILE_CATALOGS = """\
import pathlib, sys
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
for po in pathlib.Path(sys.argv[1]).rglob("*.po"):
    mo = po.with_suffix(".mo")
    if not mo.exists() or mo.stat().st_mtime <= po.stat().st_mtime:
        with po.open("rb") as source, mo.open("wb") as target:
            write_mo(target, read_po(source))
"""
"""What ``sphinx-intl build`` does: each ``.po`` not older than its ``.mo`` compiled with Babel
into the ``.mo`` beside it, which Sphinx then takes as it is (newer than its ``.po``)."""


@pytest.mark.parametrize(
    ("mo_files", "compiled_by", "jobs"),
    [("ignored", "sphinx", "1"), ("untracked", "sphinx", "2"), ("ignored", "the user", "2")],
)
def test_a_translated_page_keeps_its_catalogs_date_in_incremental_builds(
    git_repo: GitRepo, tmp_path: Path, mo_files: str, compiled_by: str, jobs: str
) -> None:
    """Sphinx records each document's compiled catalog (``.mo``) as a dependency, kept for the
    documents an incremental build does not read again. The ``.mo`` is written at build time
    (by Sphinx or by the user's ``sphinx-intl build``), ignored or untracked, and must never
    date the page: the second build gives the first one's bytes, the German guide dated by its
    ``.po``; an edit of the ``.po`` alone dates it anew."""
    srcdir = _project(git_repo)
    if mo_files == "untracked":
        git_repo.write(".gitignore", "")
        git_repo.commit("*.mo no longer ignored", "2024-01-15T08:00:00+00:00")
    locales = srcdir / "locales"
    outdir = tmp_path / "site" / "de"

    def build() -> dict[str, str | None]:
        if compiled_by == "the user":
            run_python("-c", COMPILE_CATALOGS, locales, cwd=srcdir)
        sphinx_build(srcdir, outdir, "-W", "-j", jobs, *options_for("de"))
        assert (locales / "de" / "LC_MESSAGES" / "guide.mo").is_file()
        entries = check_sitemap_file(outdir / "sitemap.xml", f"{BASE_URL}de/sitemap.xml")
        return {entry.loc: entry.lastmod for entry in entries}

    source = "2024-01-01T08:00:00Z"
    dated = {f"{BASE_URL}de/": source, f"{BASE_URL}de/api/": source}
    catalog = TRANSLATED.replace("+00:00", "Z")
    assert build() == {**dated, f"{BASE_URL}de/guide/": catalog}
    clean = (outdir / "sitemap.xml").read_bytes()
    assert build() == {**dated, f"{BASE_URL}de/guide/": catalog}
    assert (outdir / "sitemap.xml").read_bytes() == clean

    po = "docs/locales/de/LC_MESSAGES/guide.po"
    git_repo.write(po, CATALOG.replace("Welt", "Erde"))
    # The .po alone is committed: an untracked .mo stays untracked.
    git_repo.commit("German: a better word", "2024-03-01T08:00:00+00:00", po)
    assert build() == {**dated, f"{BASE_URL}de/guide/": "2024-03-01T08:00:00Z"}
    assert "Hallo Erde." in (outdir / "guide" / "index.html").read_text("utf-8")


@pytest.mark.parametrize("compiled_by", ["sphinx", "the user"])
def test_compiled_catalogs_never_reach_git(
    git_repo: GitRepo, tmp_path: Path, compiled_by: str
) -> None:
    """Sphinx names each document's ``.mo`` among its dependencies, which the history pass
    begun at builder-inited is widened with once every document is read. A ``.mo`` never
    dates a page, so git is never asked about it (it was: one more ``git ls-files`` in every
    build after HEAD moved); the pages keep their dates, the German guide its ``.po``'s."""
    srcdir = _project(git_repo)
    locales = srcdir / "locales"
    outdir = tmp_path / "site" / "de"
    trace = GitTrace(tmp_path / "trace")
    source = "2024-01-01T08:00:00Z"
    for day in ("2024-03-01", "2024-03-02"):
        if compiled_by == "the user":
            run_python("-c", COMPILE_CATALOGS, locales, cwd=srcdir)
        trace.clear()
        sphinx_build(srcdir, outdir, "-W", *options_for("de"), env=trace.env)
        assert (locales / "de" / "LC_MESSAGES" / "guide.mo").is_file()
        asked = [args for args in trace.commands() if any(a.endswith(".mo") for a in args)]
        assert asked == [], trace.commands()
        entries = check_sitemap_file(outdir / "sitemap.xml", f"{BASE_URL}de/sitemap.xml")
        assert {entry.loc: entry.lastmod for entry in entries} == {
            f"{BASE_URL}de/": source,
            f"{BASE_URL}de/api/": source,
            f"{BASE_URL}de/guide/": TRANSLATED.replace("+00:00", "Z"),
        }
        # A commit that changes none of the pages: the next build's pass begins at a new HEAD.
        git_repo.write("README.txt", f"Changed on {day}.\n")
        git_repo.commit("readme", f"{day}T08:00:00+00:00")


def _catalogs_kept_in(repo: GitRepo, locales: str) -> Path:
    """The project of :func:`_project`, its catalogs in the repository's ``locales`` folder
    (``docs/locales``, inside the source folder, or ``locales``, beside it): the guide's
    ``.po`` newer than the guide, the API page's older than the page's last edit."""
    folder = locales.removeprefix("docs/") if locales.startswith("docs/") else f"../{locales}"
    locale_dirs = f'locale_dirs = ["{folder}"]'
    srcdir = write_project(
        repo,
        {"guide.rst": page("Guide", "Hello world."), "api/index.rst": page("API")},
        conf_extra=CONF.replace('locale_dirs = ["locales"]', locale_dirs),
    )
    repo.write(".gitignore", "*.mo\n")
    repo.commit("project", "2024-01-01T08:00:00+00:00")
    repo.write(f"{locales}/de/LC_MESSAGES/guide.po", CATALOG)
    repo.write(f"{locales}/de/LC_MESSAGES/api/index.po", CATALOG.replace("Guide", "API"))
    repo.commit("German translation", TRANSLATED)
    repo.write("docs/api/index.rst", page("API", "Changed."))
    repo.commit("API page changed", "2024-02-15T08:00:00+00:00")
    return srcdir


def test_catalogs_beside_the_source_folder_are_in_the_one_history_pass(tmp_path: Path) -> None:
    """With ``locale_dirs = ["../locales"]`` the catalogs lie beyond the source folder, where
    the history pass begun at builder-inited did not look: every first build asked git about
    each ``.po`` once Sphinx was done and ran a second ``git log``. The pass covers them from
    the start, as it does catalogs inside the source folder: as many ``git log`` in each
    build, no ``.mo`` asked about, and each page dated by the newer of its source and ``.po``."""
    logs: dict[str, list[int]] = {}
    for locales in ("docs/locales", "locales"):
        repo = GitRepo(tmp_path / locales.replace("/", "-"))
        srcdir = _catalogs_kept_in(repo, locales)
        outdir = tmp_path / "site" / locales.replace("/", "-") / "de"
        trace = GitTrace(tmp_path / "trace" / locales.replace("/", "-"))
        logs[locales] = []
        for day in ("2024-03-01", "2024-03-02"):
            trace.clear()
            sphinx_build(srcdir, outdir, "-W", *options_for("de"), env=trace.env)
            assert (repo.root / locales / "de" / "LC_MESSAGES" / "guide.mo").is_file()
            logs[locales].append(trace.count("log"))
            asked = [args for args in trace.commands() if any(a.endswith(".mo") for a in args)]
            assert asked == [], trace.commands()
            entries = check_sitemap_file(outdir / "sitemap.xml", f"{BASE_URL}de/sitemap.xml")
            assert {entry.loc: entry.lastmod for entry in entries} == {
                f"{BASE_URL}de/": "2024-01-01T08:00:00Z",
                f"{BASE_URL}de/api/": "2024-02-15T08:00:00Z",
                f"{BASE_URL}de/guide/": TRANSLATED.replace("+00:00", "Z"),
            }
            repo.write("README.txt", f"Changed on {day}.\n")
            repo.commit("readme", f"{day}T08:00:00+00:00")
    assert logs["locales"] == logs["docs/locales"]


def _written_canonical(base: str, link: str, builder: str) -> str:
    """The canonical link Sphinx writes into the page it links as ``link``, from ``base``
    (``html_baseurl``). Sphinx 7.0 to 8.0 write a dirhtml page's as the html builder names the
    page (their ``handle_page`` joins the page name and ``.html``; Sphinx issue 9730):
    ``guide.html``, where dirhtml serves nothing (it writes ``guide/index.html``), and
    ``index.html``, ``api/index.html``, files it does write. From 8.1 it is the page's link."""
    if builder != "dirhtml" or sphinx.version_info >= (8, 1):
        return base + link
    if link in ("", "api/"):
        return base + link + "index.html"
    return base + link.removesuffix("/") + ".html"


@pytest.mark.parametrize("builder", ["dirhtml", "html"])
def test_each_language_s_pages_are_listed_at_their_canonical_links(
    git_repo: GitRepo, tmp_path: Path, builder: str
) -> None:
    """README's recipe: each build's html_baseurl is where it is served, so the canonical link
    Sphinx writes into each page is the URL the sitemap lists it at (with dirhtml, from Sphinx
    8.1: see :func:`_written_canonical`); the scheme's {lang} does not add the folder twice,
    and still gives every language's version."""
    srcdir = _project(git_repo)
    site = tmp_path / "site"
    for lang in LANGUAGES:
        sphinx_build(srcdir, site / lang, "-W", *options_for(lang), builder=builder)
    for lang in LANGUAGES:
        entries = check_sitemap_file(site / lang / "sitemap.xml", f"{BASE_URL}{lang}/sitemap.xml")
        assert len(entries) == len(DOCS)
        for entry in entries:
            link = entry.loc.removeprefix(f"{BASE_URL}{lang}/")
            written = site / lang / (link + "index.html" if builder == "dirhtml" else link)
            assert written.is_file()  # served at the URL the sitemap lists
            canonical = canonical_link(written)
            assert canonical == _written_canonical(f"{BASE_URL}{lang}/", link, builder)
            if canonical != entry.loc:  # Sphinx 7.0 to 8.0, dirhtml: said in README
                named = site / lang / canonical.removeprefix(f"{BASE_URL}{lang}/")
                assert named.is_file() == named.name.endswith("index.html"), named
            assert entry.alternates["en"] == f"{BASE_URL}en/{link}"
            assert entry.alternates["de"] == f"{BASE_URL}de/{link}"


def test_canonical_links_elsewhere_are_said_once_and_their_pages_left_out(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """html_baseurl the site's root with {lang}{link}: Sphinx writes every German page's
    canonical link without the language's folder, where this build serves nothing. The pages
    are left out, as any page whose canonical link names another URL, with one warning naming
    both settings and one page's two URLs, which -W fails on."""
    srcdir = _project(git_repo)
    outdir = tmp_path / "site" / "de"
    failed = sphinx_build(srcdir, outdir, "-W", "-D", "language=de", check=False)
    assert failed.returncode != 0
    assert not (outdir / "sitemap.xml").exists()
    # Sphinx 7 stops at it (-W), and shows no warning's type.
    said = [line for line in failed.stderr.splitlines() if "put the pages in two places" in line]
    assert len(said) == 1, failed.stderr
    # What Sphinx wrote, not where the page is served.
    assert canonical_link(outdir / "index.html") == _written_canonical(BASE_URL, "", "dirhtml")
    for words in (
        f"html_baseurl {BASE_URL!r}",
        "sitemap_url_scheme '{lang}{link}'",
        f"would list {BASE_URL}de/,",
        f"writes {canonical_link(outdir / 'index.html')} into that page",
        f"-D html_baseurl={BASE_URL}de/",
    ):
        assert words in said[0], said[0]

    built = sphinx_build(srcdir, outdir, "-D", "language=de")  # without -W: built, left out
    said = [line for line in built.stderr.splitlines() if "put the pages in two places" in line]
    assert len(said) == 1, built.stderr
    assert "[sitemap." not in said[0] or said[0].endswith("[sitemap.conflict]")  # Sphinx 8+
    assert f"left out {len(DOCS) + 2} (3 canonical elsewhere" in built.stdout
    assert not (outdir / "sitemap.xml").exists()
