"""Real MkDocs builds with unusual input: an internationalised host, credentials in a URL, a
percent sign in a file name, a lastmod in the future.

Each test builds the example site in a temporary git repository whose commits carry chosen dates,
and checks the written sitemap with the shared checks (schema, protocol, read-back).
"""

from __future__ import annotations

import logging
import re
from urllib.parse import unquote

import pytest
import yaml
from mkdocs.exceptions import Abort

from tests.mkdocs.helpers import (
    BASE,
    BUILD_ABORT,
    CONFIG_ABORT,
    build_site,
    english_and_french,
    example_repo,
    i18n_version,
    load,
    sitemap,
    sitemap_warnings,
    write_config,
)
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo
from tests.support.hosts import mkdocs_build, output
from tests.support.sitemap_checks import check_sitemap_file

pytestmark = pytest.mark.mkdocs


def test_an_internationalised_site_url_is_written_in_ascii(git_repo: GitRepo) -> None:
    root = example_repo(git_repo, site_url="https://bücher.example/docs/")
    entries = sitemap(build_site(root), "https://xn--bcher-kva.example/docs/")
    assert len(entries) == 6
    assert all(loc.startswith("https://xn--bcher-kva.example/docs/") for loc in entries)
    assert "https://xn--bcher-kva.example/docs/caf%C3%A9/" in entries


def test_a_base_url_option_with_credentials_is_a_config_error(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    plugins = [{"sitemap": {"base_url": "https://user:s3cret@example.org/"}}]
    example_repo(git_repo, plugins=plugins)
    with pytest.raises(Abort, match=CONFIG_ABORT):
        load(git_repo.root)
    errors = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert "'base_url': 'https://user:***@example.org/' is not allowed" in errors
    assert "without a user name or password" in errors
    assert "s3cret" not in caplog.text


def test_a_site_url_with_credentials_writes_no_sitemap(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    root = example_repo(git_repo)
    config = yaml.safe_load(git_repo.path("mkdocs.yml").read_text(encoding="utf-8"))
    config["site_url"] = "https://user:s3cret@example.org/"
    git_repo.write("mkdocs.yml", yaml.safe_dump(config))
    site = build_site(root)
    [warning] = sitemap_warnings(caplog)
    assert "site_url in mkdocs.yml 'https://user:***@example.org/' is not usable" in warning
    assert "without a user name or password" in warning
    assert "s3cret" not in caplog.text
    assert not (site / "sitemap.xml").exists()


BAD_HOSTS = ["https://example.org /docs/", "https://example.org\\docs/", "https://exa<mple.org/"]
"""Hosts no URL may have: a stray space, a backslash, a ``<``."""
ALLOWED_HOST = "whose host is a name of letters, digits and hyphens between dots"


@pytest.mark.parametrize("site_url", BAD_HOSTS)
def test_a_site_url_with_a_bad_host_writes_no_sitemap_and_strict_fails(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture, site_url: str
) -> None:
    root = example_repo(git_repo, site_url=site_url)
    site = build_site(root)
    [warning] = sitemap_warnings(caplog)
    assert f"site_url in mkdocs.yml {site_url!r} is not usable" in warning
    assert ALLOWED_HOST in warning
    assert not (site / "sitemap.xml").exists()
    with pytest.raises(Abort):
        build_site(root, strict=True)
    assert not (site / "sitemap.xml").exists()


def test_a_base_url_option_with_a_bad_host_is_a_config_error(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    example_repo(git_repo, plugins=[{"sitemap": {"base_url": "https://example.org /docs/"}}])
    with pytest.raises(Abort, match=CONFIG_ABORT):
        load(git_repo.root)
    errors = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert "'base_url': 'https://example.org /docs/' is not allowed" in errors
    assert ALLOWED_HOST in errors


PAGE = "https://example.org/docs/index.html"
"""The home page's URL, copied from a browser: a page, not the folder the site is served from."""


def test_a_base_url_option_naming_a_page_is_a_config_error_and_a_site_url_a_folder(
    git_repo: GitRepo,
) -> None:
    """Taken for the folder ``index.html/``, the option listed every URL under it, each one
    missing: it is refused when ``mkdocs build`` reads mkdocs.yml, naming the folder to give
    instead. A folder stays a folder, with or without its slash, also one named ``x.html/``.
    mkdocs.yml's own ``site_url`` is not refused: MkDocs took it for a folder too, and its
    pages' links say so; the plugin and ``generate`` after the build list the pages there."""
    root = example_repo(git_repo, plugins=[{"sitemap": {"base_url": PAGE}}])
    refused = mkdocs_build(root, check=False)
    assert refused.returncode == 1
    assert (
        f"Plugin 'sitemap' option 'base_url': {PAGE!r} is not allowed (allowed: the URL of the "
        "folder the site is served from, such as https://example.org/docs/; index.html is a "
        "page in it)"
    ) in output(refused)
    assert not (root / "site").exists()
    for base_url in ("https://example.org/docs", "https://example.org/docs/v2.html/"):
        write_config(git_repo, plugins=[{"sitemap": {"base_url": base_url}}])
        mkdocs_build(root)
        folder = base_url.rstrip("/") + "/"
        entries = sitemap(root / "site", folder)
        assert {folder, folder + "guide/install/", folder + "caf%C3%A9/"} <= set(entries)

    write_config(git_repo, site_url=PAGE, plugins=["sitemap"])
    mkdocs_build(root)
    folder = PAGE + "/"
    page = (root / "site/guide/install/index.html").read_text(encoding="utf-8")
    canonical = re.search(r'<link rel="canonical" href="([^"]*)"', page)
    assert canonical is not None
    assert canonical[1] == folder + "guide/install/"
    plugin = sitemap(root / "site", folder)
    assert folder + "guide/install/" in plugin
    for name in ("sitemap.xml", "sitemap.xml.gz"):
        (root / "site" / name).unlink()
    done = run("generate", cwd=root)
    assert done.returncode == 0, done.stdout + done.stderr
    generated = check_sitemap_file(root / "site/sitemap.xml", folder + "sitemap.xml")
    assert {entry.loc for entry in generated} == set(plugin)


MATERIAL_READS = "Material reads sitemap.xml"


@pytest.mark.parametrize(
    ("options", "cause"),
    [
        ({"gzip": "on"}, "gzip 'on'"),
        ({"filename": "map.xml"}, "filename 'map.xml'"),
        ({"format": "txt"}, "format 'txt'"),  # the option set, not the name it gives
    ],
)
def test_material_reading_a_sitemap_xml_the_options_leave_unwritten_is_a_warning(
    git_repo: GitRepo, options: dict[str, str], cause: str
) -> None:
    """Material's instant navigation follows in place only the links its ``sitemap.xml`` lists,
    and its version selector finds the same page in another version there: with no such file,
    both fell back without a word (every page loaded in full)."""
    theme = {"name": "material", "features": ["navigation.instant"]}
    root = example_repo(git_repo, theme=theme, plugins=[{"sitemap": options}])
    done = mkdocs_build(root)
    [line] = [line for line in output(done).splitlines() if MATERIAL_READS in line]
    assert line.startswith("WARNING")
    assert f"the sitemap option {cause} in mkdocs.yml" in line
    assert "its instant navigation loads every page in full" in line
    assert "version selector" not in line
    site = root / "site"
    assert not (site / "sitemap.xml").exists()
    bundles = list((site / "assets" / "javascripts").glob("bundle.*.min.js"))
    assert any("sitemap.xml" in bundle.read_text("utf-8") for bundle in bundles)  # it does read it
    assert mkdocs_build(root, "--strict", check=False).returncode != 0

    extra = {"version": {"provider": "mike"}}
    write_config(git_repo, theme={"name": "material"}, extra=extra, plugins=[{"sitemap": options}])
    [line] = [line for line in output(mkdocs_build(root)).splitlines() if MATERIAL_READS in line]
    assert "its version selector lands on a version's home page" in line
    assert "instant navigation" not in line

    # sitemap.xml kept beside what was asked, or another theme: not a word.
    write_config(git_repo, theme=theme, extra=extra, plugins=[{"sitemap": {"gzip": "both"}}])
    assert MATERIAL_READS not in output(mkdocs_build(root, "--strict"))
    write_config(git_repo, theme={"name": "mkdocs"}, extra=extra, plugins=[{"sitemap": options}])
    assert MATERIAL_READS not in output(mkdocs_build(root, "--strict"))


MADE_BY_A_HOOK = """
import tempfile
from pathlib import Path

from mkdocs.structure.files import File

def on_files(files, config):
    # As mkdocs-gen-files adds the files its scripts write: from a folder of its own.
    folder = tempfile.mkdtemp()
    Path(folder, "sitemap.xml").write_text(OWN, "utf-8")
    files.append(File("sitemap.xml", folder, config.site_dir, config.use_directory_urls))
    return files
"""


@pytest.mark.parametrize("made", ["in docs_dir", "by a hook"])
def test_material_reading_a_sitemap_xml_of_the_sites_own_is_not_warned_of(
    git_repo: GitRepo, made: str
) -> None:
    """A site that publishes a ``sitemap.xml`` of its own, from ``docs/`` or made during the
    build (mkdocs-gen-files, a hook), and gives ours another name, as README advises: Material
    reads the site's file, and ``--strict`` builds pass. The one a hook made was taken for the
    theme's and dropped, and the build failed on a warning that no sitemap.xml was left."""
    theme = {"name": "material", "features": ["navigation.instant"]}
    root = example_repo(git_repo, theme=theme, plugins=[{"sitemap": {"filename": "docs.xml"}}])
    own = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n'
    if made == "in docs_dir":
        git_repo.write("docs/sitemap.xml", own)
    else:
        git_repo.write("hooks.py", f"OWN = {own!r}\n{MADE_BY_A_HOOK}")
        settings = {"theme": theme, "plugins": [{"sitemap": {"filename": "docs.xml"}}]}
        write_config(git_repo, hooks=["hooks.py"], **settings)
    git_repo.commit("own sitemap", "2024-11-01T09:00:00+00:00")
    done = mkdocs_build(root, "--strict")
    assert MATERIAL_READS not in output(done)
    assert (root / "site" / "sitemap.xml").read_text("utf-8") == own
    check_sitemap_file(root / "site" / "docs.xml", BASE + "docs.xml")


THEME_SITEMAP = "<urlset>{% for file in pages %}{{ file.page.canonical_url }}{% endfor %}"


@pytest.mark.parametrize("custom_dir", ["overrides", "../shared/overrides"])
def test_a_themes_sitemap_template_overridden_in_custom_dir_is_not_published(
    git_repo: GitRepo, custom_dir: str
) -> None:
    """MkDocs documents overriding the theme's ``sitemap.xml`` in ``custom_dir``: the theme's
    template, replaced by ours. Written with ``..`` (overrides shared by the projects of a
    monorepo), MkDocs keeps the path unnormalised, and the raw template was published instead
    of the sitemap, with a warning that --strict failed on."""
    project = git_repo.root / "proj"
    for relpath, text in {
        "docs/index.md": "# Home\n",
        "docs/guide.md": "# Guide\n",
        f"{custom_dir}/sitemap.xml": THEME_SITEMAP,
    }.items():
        target = (project / relpath).resolve()
        git_repo.write(target.relative_to(git_repo.root).as_posix(), text)
    config = {
        "site_name": "Demo",
        "site_url": BASE,
        "theme": {"name": "mkdocs", "custom_dir": custom_dir},
        "plugins": ["sitemap"],
    }
    git_repo.write("proj/mkdocs.yml", yaml.safe_dump(config))
    git_repo.commit("site", "2024-11-01T09:00:00+00:00")
    done = mkdocs_build(project, "--strict")
    assert "already written" not in output(done)
    entries = check_sitemap_file(project / "site" / "sitemap.xml", BASE + "sitemap.xml")
    assert sorted(entry.loc for entry in entries) == [BASE, BASE + "guide/"]


def test_material_reading_a_sitemap_xml_the_build_leaves_out_is_warned_of(
    git_repo: GitRepo,
) -> None:
    """A ``docs/sitemap.xml`` that ``exclude_docs`` keeps out of the build is no file Material
    can read: the warning was not said, and the site had no sitemap.xml at all."""
    theme = {"name": "material", "features": ["navigation.instant"]}
    settings = {"theme": theme, "exclude_docs": "sitemap.xml\n"}
    root = example_repo(git_repo, plugins=[{"sitemap": {"gzip": "on"}}], **settings)
    git_repo.write("docs/sitemap.xml", "<urlset/>\n")
    git_repo.commit("own sitemap, left out", "2024-11-01T09:00:00+00:00")
    done = mkdocs_build(root)
    assert output(done).count(MATERIAL_READS) == 1
    assert not (root / "site" / "sitemap.xml").exists()


@pytest.mark.skipif(i18n_version() < (1, 0), reason="needs mkdocs-static-i18n 1.x")
def test_material_reading_no_sitemap_xml_is_said_once_for_every_language(
    git_repo: GitRepo,
) -> None:
    """mkdocs-static-i18n builds each further language inside the build: the warning was said
    once for each of them."""
    theme = {"name": "material", "features": ["navigation.instant"]}
    plugins = english_and_french()
    plugins[0] = {"sitemap": {"gzip": "on"}}
    root = example_repo(git_repo, theme=theme, plugins=plugins)
    git_repo.write("docs/index.fr.md", "# Accueil\n")
    git_repo.commit("french", "2024-11-01T09:00:00+00:00")
    done = mkdocs_build(root)
    assert (root / "site" / "fr" / "index.html").is_file()
    assert output(done).count(MATERIAL_READS) == 1


def test_a_percent_in_a_file_name_is_encoded_once(git_repo: GitRepo) -> None:
    """MkDocs' file.url is already percent-encoded: it must not be decoded or encoded again."""
    root = example_repo(git_repo)
    git_repo.write("docs/a%20b.md", "# A file named a%20b\n")
    git_repo.write("docs/100%.md", "# One hundred percent\n")
    git_repo.commit("percent", "2024-10-01T10:00:00+00:00")
    site = build_site(root)
    entries = sitemap(site)
    assert {BASE + "a%2520b/", BASE + "100%25/"} <= set(entries)
    for loc in (BASE + "a%2520b/", BASE + "100%25/"):
        assert (site / unquote(loc.removeprefix(BASE)) / "index.html").is_file(), loc


FUTURE = "---\nsitemap:\n  lastmod: 2099-01-01\n---\n\n# Future\n\nA date typed wrong.\n"


def test_a_lastmod_in_the_future_is_a_warning_and_strict_writes_no_sitemap(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    root = example_repo(git_repo)
    git_repo.write("docs/future.md", FUTURE)
    git_repo.commit("future", "2024-10-01T10:00:00+00:00")
    site = build_site(root)
    entries = sitemap(site)
    assert entries[BASE + "future/"].lastmod == "2024-10-01T10:00:00Z"  # git still knows
    assert sitemap_warnings(caplog) == [
        "sitemap: docs/future.md: lastmod 2099-01-01 (from metadata) is in the future; not written"
    ]
    before = {name: (site / name).read_bytes() for name in ("sitemap.xml", "sitemap.xml.gz")}
    git_repo.write("docs/later.md", FUTURE.replace("Future", "Later"))
    git_repo.commit("later", "2024-10-02T10:00:00+00:00")
    write_config(git_repo, plugins=[{"sitemap": {"strict": True}}])
    with pytest.raises(Abort, match=BUILD_ABORT):
        build_site(root, dirty=True)
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert "sitemap: 2 warnings in strict mode; no sitemap written" in errors
    assert {name: (site / name).read_bytes() for name in before} == before


def test_the_revision_date_plugins_ignored_commits_file_dates_the_sitemap(
    git_repo: GitRepo, caplog: pytest.LogCaptureFixture
) -> None:
    """A site switching from mkdocs-git-revision-date-localized-plugin keeps its
    ``ignored_commits_file`` (a ``.git-blame-ignore-revs``, relative to mkdocs.yml): a reformat
    listed there dates no page; our own option, set, is the list; that plugin's file not there
    leaves out no commit, as for that plugin, and our own not there stops the build naming it."""
    pytest.importorskip("mkdocs_git_revision_date_localized_plugin")
    root = example_repo(git_repo)
    for name in ("docs/index.md", "docs/guide/install.md"):
        git_repo.write(name, git_repo.path(name).read_text(encoding="utf-8") + "\n")
    git_repo.commit("reformat", "2024-10-01T00:00:00+00:00")
    reformat = git_repo.head()
    git_repo.write(".git-blame-ignore-revs", f"# reformat\n{reformat}\n")
    incumbent = {"git-revision-date-localized": {"ignored_commits_file": ".git-blame-ignore-revs"}}
    write_config(git_repo, plugins=["search", incumbent, "sitemap"])
    git_repo.commit("ignore the reformat", "2024-11-01T00:00:00+00:00")
    entries = sitemap(build_site(root))
    assert entries[BASE].lastmod == "2024-01-10T09:00:00Z"
    assert entries[BASE + "guide/install/"].lastmod == "2024-02-11T09:00:00Z"

    write_config(
        git_repo, plugins=["search", incumbent, {"sitemap": {"git_ignore_commits": ["0000"]}}]
    )
    git_repo.commit("our own list", "2024-11-02T00:00:00+00:00")
    entries = sitemap(build_site(root))
    assert entries[BASE].lastmod == "2024-10-01T00:00:00Z"

    # That plugin builds when its file is not there (it logs an error): so does ours, with
    # no commit left out, where the file is that plugin's and not ours.
    missing = {"git-revision-date-localized": {"ignored_commits_file": "revs.txt"}}
    write_config(git_repo, plugins=["search", missing, "sitemap"])
    entries = sitemap(build_site(root))
    assert entries[BASE].lastmod == "2024-10-01T00:00:00Z"

    write_config(git_repo, plugins=[{"sitemap": {"git_ignore_commits_file": "revs.txt"}}])
    with pytest.raises(Abort):
        build_site(root)
    errors = " ".join(r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR)
    assert "'git_ignore_commits_file'" in errors
    assert str(root / "revs.txt") in errors
