"""Configuration: the core schema in conf.py, sphinx-sitemap's settings, base URLs, bad input."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
import sphinx
from sphinx.application import Sphinx

from sitemap_plugins.core import OPTION_SPECS
from tests.sphinx.helpers import BASE_CONF, BASE_URL, page, read_entries, write_project
from tests.support.gitrepo import GitRepo
from tests.support.hosts import sphinx_build
from tests.support.sitemap_checks import check_sitemap_file, read_index

pytestmark = pytest.mark.sphinx

PAGES = {"guide.rst": page("Guide"), "drafts/plan.rst": page("Plan")}
DATE = "2024-03-01T12:00:00+00:00"


def _project(git_repo: GitRepo, conf_extra: str = "", pages: dict[str, str] = PAGES) -> Path:
    srcdir = write_project(git_repo, pages, conf_extra=conf_extra)
    git_repo.commit("project", DATE)
    return srcdir


def test_every_core_option_is_a_sphinx_config_value(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = _project(git_repo)
    app = Sphinx(
        str(srcdir),
        str(srcdir),
        str(tmp_path / "out"),
        str(tmp_path / "doctrees"),
        "html",
        status=io.StringIO(),
        warning=io.StringIO(),
    )
    for spec in OPTION_SPECS:
        default = list(spec.default) if isinstance(spec.default, tuple) else spec.default
        assert app.config[f"sitemap_{spec.name}"] == default


def test_core_options_set_in_conf_py_and_on_the_command_line(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(
        git_repo,
        'sitemap_gzip = "both"\nsitemap_urls_per_file = 2\nsitemap_changefreq = "yearly"\n'
        'sitemap_rules = [{"pattern": "drafts/*", "priority": 0.1}]\n',
    )
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", "-D", "sitemap_robots_txt=1")

    refs = read_index(outdir / "sitemap.xml")
    names = [ref.loc.removeprefix(BASE_URL) for ref in refs]
    assert [re.sub(r"-[0-9a-f]{12}\.", ".", name) for name in names] == [
        "sitemap-1.xml",
        "sitemap-2.xml",
    ]  # shards are named after their content, in order
    assert all((outdir / name).is_file() and (outdir / f"{name}.gz").is_file() for name in names)
    assert (outdir / "sitemap.xml.gz").is_file()
    entries = {
        e.loc: e for e in check_sitemap_file(outdir / "sitemap.xml", BASE_URL + "sitemap.xml")
    }
    assert set(entries) == {BASE_URL, BASE_URL + "guide/", BASE_URL + "drafts/plan/"}
    assert {e.changefreq for e in entries.values()} == {"yearly"}
    assert entries[BASE_URL + "drafts/plan/"].priority == "0.1"
    robots = (outdir / "robots.txt").read_text(encoding="utf-8")
    assert f"Sitemap: {BASE_URL}sitemap.xml" in robots


@pytest.mark.parametrize(
    ("given", "written"), [("0", False), ("false", False), ("1", True), ("True", True)]
)
def test_a_bool_on_the_command_line_is_0_1_false_or_true(
    git_repo: GitRepo, tmp_path: Path, given: str, written: bool
) -> None:
    """The same on every Sphinx: 7 took ``false`` for true, 8 and 9 refused it."""
    srcdir = _project(git_repo)
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", "-D", f"sitemap_robots_txt={given}")
    assert (outdir / "robots.txt").is_file() is written
    assert BASE_URL + "guide/" in read_entries(outdir)


def test_lists_on_the_command_line_split_at_commas_and_empty_is_empty(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """An empty ``-D sitemap_lastmod_sources=`` writes no lastmod, as an empty list in conf.py
    does (Sphinx makes it a list of one empty name)."""
    srcdir = _project(git_repo, pages={**PAGES, "other.rst": page("Other")})
    outdir = tmp_path / "out"
    args = ("-D", "sitemap_lastmod_sources=", "-D", "sitemap_exclude=drafts/*,other/")
    sphinx_build(srcdir, outdir, "-W", *args)
    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL, BASE_URL + "guide/"}
    assert {entry.lastmod for entry in entries.values()} == {None}


def test_sphinx_sitemap_settings_on_the_command_line_as_sphinx_sitemap_took_them(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(git_repo, 'language = "en"\nsitemap_url_scheme = "{lang}{link}"\n')
    outdir = tmp_path / "out"
    args = (
        *("-D", "sitemap_show_lastmod=0", "-D", "sitemap_locales=en,fr"),
        *("-D", f"html_baseurl={BASE_URL}en/"),  # where this build is served, as README says
    )
    sphinx_build(srcdir, outdir, "-W", *args)
    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL + "en/", BASE_URL + "en/guide/", BASE_URL + "en/drafts/plan/"}
    for loc, entry in entries.items():
        assert entry.lastmod is None
        link = loc.removeprefix(BASE_URL + "en/")
        assert entry.alternates == {
            "en": f"{BASE_URL}en/{link}",
            "fr": f"{BASE_URL}fr/{link}",
            "x-default": f"{BASE_URL}en/{link}",
        }


@pytest.mark.parametrize(
    ("given", "shown"),
    [
        ("sitemap_robots_txt=yes", "'yes'"),
        ("sitemap_robots_txt=", "''"),
        ("sitemap_urls_per_file=many", "'many'"),
        ("sitemap_show_lastmod=maybe", "'maybe'"),
        ("sitemap_lastmod_sources=git,", "['git', '']"),
    ],
)
def test_a_bad_value_on_the_command_line_fails_naming_option_and_value(
    git_repo: GitRepo, tmp_path: Path, given: str, shown: str
) -> None:
    srcdir = _project(git_repo, "sitemap_urls_per_file = 2\n")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-D", given, check=False)
    assert result.returncode != 0
    name = given.partition("=")[0]
    assert f"invalid value for option {name!r}: {shown} (allowed: " in result.stdout + result.stderr
    assert not (outdir / "sitemap.xml").exists()


def test_format_txt_alone_writes_sitemap_txt(git_repo: GitRepo, tmp_path: Path) -> None:
    """No sitemap_filename is set, so none can be wrong: the name follows the format."""
    srcdir = _project(git_repo, 'sitemap_format = "txt"\n')
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    entries = read_entries(outdir, "sitemap.txt")
    assert set(entries) == {BASE_URL, BASE_URL + "guide/", BASE_URL + "drafts/plan/"}
    assert not (outdir / "sitemap.xml").exists()


@pytest.mark.parametrize(
    ("setting", "name", "shown"),
    [
        ("sitemap_priority = 2", "sitemap_priority", "2"),
        ('sitemap_changefreq = "Weekly"', "sitemap_changefreq", "'Weekly'"),
        ('sitemap_base_url = "/docs/"', "sitemap_base_url", "'/docs/'"),
        ('sitemap_url_scheme = "{lang}{lnk}"', "sitemap_url_scheme", "'{lang}{lnk}'"),
        ('sitemap_show_lastmod = "yes"', "sitemap_show_lastmod", "'yes'"),
        ('sitemap_locales = "ja"', "sitemap_locales", "'ja'"),
        ("sitemap_excludes = [3]", "sitemap_excludes", "[3]"),
        ('site_url = ["https://example.org/"]', "site_url", "['https://example.org/']"),
        (
            'sitemap_language_folders = {"fr": "../fr"}',
            "sitemap_language_folders",
            "{'fr': '../fr'}",
        ),
        ('sitemap_language_folders = ["fr"]', "sitemap_language_folders", "['fr']"),
    ],
)
def test_invalid_config_fails_naming_option_and_value(
    git_repo: GitRepo, tmp_path: Path, setting: str, name: str, shown: str
) -> None:
    srcdir = _project(git_repo, setting + "\n")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert f"invalid value for option {name!r}: {shown}" in output
    assert "allowed:" in output
    assert not (outdir / "sitemap.xml").exists()


BAD_METADATA = {
    "guide.rst": page("Guide", fields=':sitemap: {"priority": 1.5, "changefreq": "sometimes"}'),
    "other.rst": page("Other", fields=':sitemap: {"priority": 0.3}'),
}


def test_bad_page_metadata_warns_names_the_file_and_keeps_every_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(git_repo, pages=BAD_METADATA)
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir)
    assert "guide.rst: priority 1.5 is not allowed" in result.stderr
    assert "guide.rst: changefreq 'sometimes' is not allowed" in result.stderr
    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL, BASE_URL + "guide/", BASE_URL + "other/"}
    assert (entries[BASE_URL + "guide/"].priority, entries[BASE_URL + "guide/"].changefreq) == (
        None,
        None,
    )
    assert entries[BASE_URL + "other/"].priority == "0.3"


def test_bad_page_metadata_fails_under_w_unless_suppressed(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(git_repo, pages=BAD_METADATA)
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", check=False)
    assert strict.returncode != 0
    assert "priority 1.5 is not allowed" in strict.stdout + strict.stderr

    suppressed = sphinx_build(
        srcdir,
        tmp_path / "suppressed",
        "-W",
        "-D",
        "suppress_warnings=sitemap.priority,sitemap.changefreq",
    )
    assert "priority 1.5 is not allowed" not in suppressed.stderr
    assert set(read_entries(tmp_path / "suppressed")) == {
        BASE_URL,
        BASE_URL + "guide/",
        BASE_URL + "other/",
    }


SPHINX_SITEMAP_CONF = """\
import os

project = "Demo"
extensions = ["sitemap_plugins.sphinx"]  # was: ["sphinx_sitemap"]
exclude_patterns = ["_build"]
language = "en"
version = "2.1"
html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL", "https://docs.example.org/")
sitemap_url_scheme = "{link}"
sitemap_filename = "doc-sitemap.xml"
sitemap_show_lastmod = True
sitemap_indent = 2
sitemap_locales = [None]
sitemap_excludes = ["search.html", "genindex.html", "drafts/*"]
"""


def test_sphinx_sitemap_conf_py_works_unchanged(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = write_project(git_repo, PAGES, conf=SPHINX_SITEMAP_CONF)
    git_repo.commit("project", DATE)
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", builder="html")

    assert not (outdir / "sitemap.xml").exists()
    entries = read_entries(outdir, "doc-sitemap.xml", "https://docs.example.org/")
    assert set(entries) == {
        "https://docs.example.org/index.html",
        "https://docs.example.org/guide.html",
    }
    assert {e.lastmod for e in entries.values()} == {"2024-03-01T12:00:00Z"}
    assert all(not e.alternates for e in entries.values())
    lines = (outdir / "doc-sitemap.xml").read_text(encoding="utf-8").splitlines()
    assert "  <url>" in lines

    rtd = tmp_path / "rtd"
    canonical = "https://demo.readthedocs.io/en/latest/"
    sphinx_build(srcdir, rtd, builder="html", env={"READTHEDOCS_CANONICAL_URL": canonical})
    assert canonical + "guide.html" in read_entries(rtd, "doc-sitemap.xml", canonical)


def test_show_lastmod_says_how_to_keep_the_footer_dates(git_repo: GitRepo, tmp_path: Path) -> None:
    """sphinx-sitemap loaded sphinx_last_updated_by_git for ``sitemap_show_lastmod = True``,
    and with it the footer's "Last updated on": one line of information says how to keep it,
    not a warning (``-W`` passes), and none once the extension is loaded."""
    note = "add 'sphinx_last_updated_by_git' to extensions in conf.py"
    srcdir = _project(git_repo, "sitemap_show_lastmod = True\n")
    result = sphinx_build(srcdir, tmp_path / "out", "-W")
    assert [line for line in result.stdout.splitlines() if note in line]
    assert note not in result.stderr
    assert read_entries(tmp_path / "out")[BASE_URL + "guide/"].lastmod == "2024-03-01T12:00:00Z"

    # A stand-in for the real extension: only its being loaded counts.
    git_repo.write("docs/_ext/sphinx_last_updated_by_git.py", "def setup(app):\n    return {}\n")
    srcdir = _project(
        git_repo,
        "import sys, os\nsys.path.insert(0, os.path.abspath('_ext'))\n"
        'extensions.append("sphinx_last_updated_by_git")\nsitemap_show_lastmod = True\n',
    )
    result = sphinx_build(srcdir, tmp_path / "with", "-W")
    assert note not in result.stdout + result.stderr
    unset = sphinx_build(_project(git_repo), tmp_path / "unset", "-W")
    assert note not in unset.stdout + unset.stderr


def test_sphinx_sitemap_url_scheme_and_show_lastmod_false(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    srcdir = _project(
        git_repo,
        'version = "2.1"\nlanguage = "en"\nsitemap_url_scheme = "{lang}{version}{link}"\n'
        # Where the build is served, as Read the Docs' canonical URL gives it: not twice.
        'html_baseurl = "https://example.org/en/2.1/"\n'
        "sitemap_show_lastmod = False\n"
        'sitemap_excludes = ["drafts/*"]\n',  # matches the link, before the prefix
    )
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    entries = read_entries(outdir)
    assert set(entries) == {BASE_URL + "en/2.1/", BASE_URL + "en/2.1/guide/"}
    assert {e.lastmod for e in entries.values()} == {None}


def test_on_read_the_docs_without_html_baseurl_pages_are_listed_where_it_serves_them(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """Read the Docs serves a build at ``READTHEDOCS_CANONICAL_URL`` (``.../en/latest/``),
    whatever ``version`` says: a ``sitemap_url_scheme`` kept from sphinx-sitemap put every page
    in ``en/latest/en/1.0/``, where nothing is served, without a word. They are listed where it
    serves them, with one warning naming both, which ``-W`` fails on."""
    conf = 'version = "1.0"\nlanguage = "en"\nsitemap_url_scheme = "{lang}{version}{link}"\n'
    unset = BASE_CONF.replace(f'html_baseurl = "{BASE_URL}"\n', "")
    assert "html_baseurl" not in unset
    srcdir = write_project(git_repo, PAGES, conf=unset, conf_extra=conf)
    git_repo.commit("project", DATE)
    canonical = "https://demo.readthedocs.io/en/latest/"
    env = {
        "READTHEDOCS": "True",
        "READTHEDOCS_CANONICAL_URL": canonical,
        "READTHEDOCS_VERSION": "latest",
    }
    result = sphinx_build(srcdir, tmp_path / "out", env=env)
    entries = read_entries(tmp_path / "out", base_url=canonical)
    assert set(entries) == {canonical + path for path in ("", "guide/", "drafts/plan/")}
    assert {entry.lastmod for entry in entries.values()} == {"2024-03-01T12:00:00Z"}
    said = "sitemap_url_scheme '{lang}{version}{link}' puts the pages in 'en/1.0/'"
    warnings = [line for line in result.stderr.splitlines() if said in line]
    assert len(warnings) == 1
    assert f"READTHEDOCS_CANONICAL_URL {canonical!r}" in warnings[0]
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", env=env, check=False)
    assert strict.returncode != 0
    assert said in strict.stderr

    # A version that is Read the Docs' own name for the build: its folder, not given twice.
    same = sphinx_build(srcdir, tmp_path / "same", "-W", "-D", "version=latest", env=env)
    assert "WARNING" not in same.stderr
    assert set(read_entries(tmp_path / "same", base_url=canonical)) == set(entries)


EXCLUDED_PAGES = {
    "guide.rst": page("Guide"),
    "secret.rst": page("Secret"),
    "private/index.rst": page("Private"),
    "private/x.rst": page("X"),
}


@pytest.mark.parametrize(
    ("builder", "conf_extra", "kept"),
    [
        # Clean links: sphinx-sitemap matched the page name with html_file_suffix all the same.
        (
            "html",
            'html_link_suffix = ""\nsitemap_excludes = ["secret.html", "private/*.html"]\n',
            ["index", "guide"],
        ),
        # A file suffix of its own, linked as .html: the file's suffix is what was matched.
        (
            "html",
            'html_file_suffix = ".htm"\nhtml_link_suffix = ".html"\n'
            'sitemap_excludes = ["secret.htm", "private/x.htm"]\n',
            ["index.html", "guide.html", "private/index.html"],
        ),
        # Before the URL scheme's prefix, which sphinx-sitemap added after matching.
        (
            "html",
            'version = "2.1"\nsitemap_url_scheme = "{version}{link}"\nhtml_link_suffix = ""\n'
            'html_baseurl = "https://example.org/2.1/"\n'
            'sitemap_excludes = ["secret.html", "private/*"]\n',
            ["2.1/index", "2.1/guide"],
        ),
        # dirhtml: the page's folder ("private/" is private/index, not what lies under it).
        (
            "dirhtml",
            'sitemap_excludes = ["secret/", "private/"]\n',
            ["", "guide/", "private/x/"],
        ),
    ],
)
def test_sphinx_sitemap_excludes_match_the_link_sphinx_sitemap_matched(
    git_repo: GitRepo, tmp_path: Path, builder: str, conf_extra: str, kept: list[str]
) -> None:
    srcdir = _project(git_repo, conf_extra, pages=EXCLUDED_PAGES)
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W", builder=builder)
    assert set(read_entries(outdir)) == {BASE_URL + path for path in kept}
    left_out = len(EXCLUDED_PAGES) + 1 - len(kept)  # the pages and index.rst
    assert f"{left_out} excluded by config" in result.stdout


def test_no_language_or_version_prefix_by_default(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = _project(git_repo, 'version = "2.1"\nlanguage = "de"\n')
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    assert set(read_entries(outdir)) == {
        BASE_URL,
        BASE_URL + "guide/",
        BASE_URL + "drafts/plan/",
    }


@pytest.mark.parametrize("order", ["ours-first", "theirs-first"])
def test_sphinx_sitemap_loaded_too_is_a_clear_error(
    git_repo: GitRepo, tmp_path: Path, order: str
) -> None:
    # A stand-in for the real package, registering the option names sphinx-sitemap registers.
    git_repo.write(
        "docs/_ext/sphinx_sitemap.py",
        "def setup(app):\n"
        "    app.add_config_value('sitemap_url_scheme', '{lang}{version}{link}', '')\n"
        "    app.add_config_value('sitemap_filename', 'sitemap.xml', '')\n"
        "    return {'parallel_read_safe': True}\n",
    )
    names = ['"sitemap_plugins.sphinx"', '"sphinx_sitemap"']
    if order == "theirs-first":
        names.reverse()
    conf_extra = (
        "import sys, os\nsys.path.insert(0, os.path.abspath('_ext'))\n"
        f"extensions = [{', '.join(names)}]\n"
    )
    srcdir = _project(git_repo, conf_extra)
    result = sphinx_build(srcdir, tmp_path / "out", check=False)
    output = result.stdout + result.stderr
    assert result.returncode != 0
    assert "remove 'sphinx_sitemap' from extensions" in output


def test_base_url_without_trailing_slash(git_repo: GitRepo, tmp_path: Path) -> None:
    srcdir = _project(git_repo, 'html_baseurl = "https://example.org/docs"\n')
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    docs = "https://example.org/docs/"
    assert set(read_entries(outdir, base_url=docs)) == {
        docs,
        docs + "guide/",
        docs + "drafts/plan/",
    }


@pytest.mark.parametrize(
    ("conf_extra", "base", "told"),
    [
        # sphinx-sitemap's own base URL, alone: no html_baseurl is needed.
        (
            'html_baseurl = ""\nsite_url = "https://example.org/docs/"\n',
            "https://example.org/docs/",
            False,
        ),
        # Both, as a version's build sets them: site_url is this version, html_baseurl the
        # canonical one; sphinx-sitemap listed this version's URLs. One line says which is
        # used, for a project that keeps site_url for its templates.
        (
            'site_url = "https://example.org/2.0/"\nhtml_baseurl = "https://example.org/latest/"\n',
            "https://example.org/2.0/",
            True,
        ),
        # Both, naming one site: nothing to choose.
        (
            'site_url = "https://example.org/2.0"\nhtml_baseurl = "https://example.org/2.0/"\n',
            "https://example.org/2.0/",
            False,
        ),
        # Our own option comes before either: it was chosen.
        (
            'site_url = "https://example.org/2.0/"\n'
            'sitemap_base_url = "https://example.org/ours/"\n',
            "https://example.org/ours/",
            False,
        ),
    ],
)
def test_sphinx_sitemap_site_url_comes_before_html_baseurl(
    git_repo: GitRepo, tmp_path: Path, conf_extra: str, base: str, told: bool
) -> None:
    srcdir = _project(git_repo, conf_extra)
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir, "-W")
    lines = [
        line for line in (result.stdout + result.stderr).splitlines() if "conf.py sets both" in line
    ]
    if told:
        [line] = lines  # which one is used, the other, and how to choose
        assert "under site_url 'https://example.org/2.0/'" in line
        assert "not html_baseurl 'https://example.org/latest/'" in line
        assert "set sitemap_base_url" in line
    else:
        assert lines == []
    assert set(read_entries(outdir, base_url=base)) == {
        base,
        base + "guide/",
        base + "drafts/plan/",
    }


def test_site_url_declared_by_another_extension_first_is_read(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A theme or extension that declares ``site_url`` itself (as sphinx-sitemap did) before
    ours is loaded: the build goes on, and the value is read."""
    git_repo.write(
        "docs/_ext/declares_site_url.py",
        "def setup(app):\n"
        "    app.add_config_value('site_url', None, '')\n"
        "    return {'parallel_read_safe': True}\n",
    )
    srcdir = _project(
        git_repo,
        "import sys, os\nsys.path.insert(0, os.path.abspath('_ext'))\n"
        'extensions = ["declares_site_url", "sitemap_plugins.sphinx"]\n'
        'site_url = "https://example.org/docs/"\n',
    )
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W")
    assert "https://example.org/docs/guide/" in read_entries(
        outdir, base_url="https://example.org/docs/"
    )


@pytest.mark.parametrize(
    ("setting", "expected"),
    [
        ('html_baseurl = "/"', "html_baseurl '/' is not usable as the site's base URL"),
        (  # a host no URL may have: a backslash, a '<'
            r'html_baseurl = "https://example.org\\docs/"',
            r"html_baseurl 'https://example.org\\docs/' is not usable as the site's base URL",
        ),
        (
            'html_baseurl = "https://exa<mple.org/"',
            "html_baseurl 'https://exa<mple.org/' is not usable as the site's base URL",
        ),
        ('html_baseurl = ""', "the site's base URL is not set (set html_baseurl in conf.py)"),
    ],
)
def test_unusable_or_missing_base_url_warns_and_writes_nothing(
    git_repo: GitRepo, tmp_path: Path, setting: str, expected: str
) -> None:
    srcdir = _project(git_repo, setting + "\n")
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir)
    assert expected in result.stderr
    assert (outdir / "index.html").is_file()
    assert not (outdir / "sitemap.xml").exists()
    strict = sphinx_build(srcdir, tmp_path / "strict", "-W", check=False)
    assert strict.returncode != 0


def test_locales_without_lang_in_the_url_scheme_warn(git_repo: GitRepo, tmp_path: Path) -> None:
    """sphinx-sitemap put {lang} in every URL by default; we do not, so say what to set."""
    srcdir = _project(git_repo, 'sitemap_locales = ["de", "fr"]\n')
    outdir = tmp_path / "out"
    result = sphinx_build(srcdir, outdir)
    assert "sitemap_locales ['de', 'fr'] has no effect" in result.stderr
    assert "sitemap_url_scheme" in result.stderr
    folders = _project(git_repo, 'sitemap_language_folders = {"en": ""}\n')
    result = sphinx_build(folders, tmp_path / "folders")
    assert "sitemap_language_folders {'en': ''} has no effect" in result.stderr
    entries = read_entries(outdir)
    assert BASE_URL + "guide/" in entries
    assert all(not entry.alternates for entry in entries.values())


def test_sphinx_last_updated_by_gits_excluded_commits_date_the_sitemap_as_the_footer(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A site switching from sphinx-sitemap keeps sphinx-last-updated-by-git for its footers
    and its ``git_exclude_commits`` (a reformat): the sitemap is dated as the footer is, by the
    last change before the reformat; our own option, once set, is the one that counts."""
    pytest.importorskip("sphinx_last_updated_by_git")
    pages = {"guide.rst": page("Guide"), "api.rst": page("API")}
    conf = 'html_theme = "classic"\nextensions.append("sphinx_last_updated_by_git")\n'
    srcdir = _project(git_repo, conf, pages)
    git_repo.write("docs/guide.rst", page("Guide", "Reformatted text. "))
    git_repo.write("docs/api.rst", page("API", "Reformatted text. "))
    git_repo.commit("reformat", "2024-05-05T05:05:05+00:00")
    reformat = git_repo.head()
    conf += f"git_exclude_commits = [{reformat!r}]\n"
    git_repo.write("docs/conf.py", BASE_CONF + conf)
    git_repo.commit("leave the reformat out of dates", "2024-06-01T00:00:00+00:00")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", builder="html")
    entries = read_entries(outdir)
    for name in ("guide.html", "api.html"):
        assert entries[BASE_URL + name].lastmod == "2024-03-01T12:00:00Z"
        footer = (outdir / name).read_text("utf-8")
        assert "Last updated on Mar 01, 2024" in footer

    # Ours set: it is the list, not the extension's.
    git_repo.write("docs/conf.py", BASE_CONF + conf + "sitemap_git_ignore_commits = ['0000']\n")
    git_repo.commit("our own list", "2024-06-02T00:00:00+00:00")
    sphinx_build(srcdir, tmp_path / "ours", "-W", builder="html")
    entries = read_entries(tmp_path / "ours")
    assert entries[BASE_URL + "guide.html"].lastmod == "2024-05-05T05:05:05Z"


def test_an_excluded_commit_that_is_no_commit_id_matches_none_and_ours_stops_the_build(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """sphinx-last-updated-by-git compares ``git_exclude_commits`` with full ids: an entry
    that is none (a tag name) matches no commit there, and the build goes on; so here. Our own
    option's file not there stops the build, naming it."""
    pytest.importorskip("sphinx_last_updated_by_git")
    conf = 'extensions.append("sphinx_last_updated_by_git")\ngit_exclude_commits = ["HEAD~1"]\n'
    srcdir = _project(git_repo, conf)
    result = sphinx_build(srcdir, tmp_path / "out", "-W", check=False)
    assert result.returncode == 0, result.stdout + result.stderr
    assert read_entries(tmp_path / "out")
    srcdir = _project(git_repo, "sitemap_git_ignore_commits_file = '.git-blame-ignore-revs'\n")
    result = sphinx_build(srcdir, tmp_path / "out", check=False)
    assert result.returncode != 0
    assert "sitemap_git_ignore_commits_file" in result.stderr
    assert str(srcdir / ".git-blame-ignore-revs") in result.stderr


def test_sphinx_last_updated_by_gits_excluded_patterns_date_no_page(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """``git_exclude_patterns`` (relative to the source folder): a matching include leaves the
    page dated by its other files, as its footer is; a matching page has no lastmod, as it has
    no footer date."""
    pytest.importorskip("sphinx_last_updated_by_git")
    pages = {
        "guide.rst": page("Guide", ".. include:: parts/snippet.txt"),
        "generated/api.rst": page("API"),
    }
    conf = (
        'html_theme = "classic"\nextensions.append("sphinx_last_updated_by_git")\n'
        'git_exclude_patterns = ["parts/*.txt", "generated/*"]\n'
    )
    git_repo.write("docs/parts/snippet.txt", "A shared paragraph.\n")
    srcdir = _project(git_repo, conf, pages)
    git_repo.write("docs/parts/snippet.txt", "A shared paragraph, edited.\n")
    git_repo.commit("edit the snippet", "2024-05-05T05:05:05+00:00")
    outdir = tmp_path / "out"
    sphinx_build(srcdir, outdir, "-W", builder="html")
    entries = read_entries(outdir)
    assert entries[BASE_URL + "guide.html"].lastmod == "2024-03-01T12:00:00Z"
    if sphinx.version_info < (9,):  # Sphinx 9 keeps dependencies absolute, which the
        # extension matches its patterns against: its footer there counts the include still.
        assert "Last updated on Mar 01, 2024" in (outdir / "guide.html").read_text("utf-8")
    assert entries[BASE_URL + "generated/api.html"].lastmod is None
    assert "Last updated on" not in (outdir / "generated/api.html").read_text("utf-8")
