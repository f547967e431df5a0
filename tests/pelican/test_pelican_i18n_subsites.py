"""Pelican with i18n_subsites: one sitemap at the main site's root for every language.

The subsites are built by the real i18n_subsites plugin, in the same ``pelican`` run, into
``output/de/`` and ``output/fr/``; the sitemap read back must list each language's pages at their
URLs under the main site, each with all its language versions, itself and ``x-default``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote

import pytest

from tests.pelican.helpers import BASE, log_of, page, plain_repo, post, sitemap, summary
from tests.support.console_script import run
from tests.support.gitrepo import GitRepo
from tests.support.hosts import pelican_build
from tests.support.sitemap_checks import UrlEntry, check_sitemap_file, parse_with_usp

pytestmark = pytest.mark.pelican
pytest.importorskip("pelican.plugins.i18n_subsites", reason="pelican-i18n-subsites not installed")

I18N = """\
PLUGINS = ["sitemap_plugins.pelican", "i18n_subsites"]
I18N_SUBSITES = {"de": {"SITENAME": "Testseite"}, "fr": {}}
"""

FILES = {
    "content/hello.md": post("Hello", "2024-01-01", Slug="hello", Lang="en"),
    "content/hallo.md": post("Hallo", "2024-01-02", Slug="hello", Lang="de"),
    "content/bonjour.md": post("Bonjour", "2024-01-03", Slug="hello", Lang="fr"),
    "content/only-english.md": post("Only English", "2024-01-04", Lang="en"),
    "content/pages/about.md": page("About", Slug="about", Lang="en"),
    "content/pages/ueber.md": page("Über", Slug="about", Lang="de"),
}


def assert_alternates_are_served_and_reciprocal(
    entries: Mapping[str, UrlEntry], base_url: str, folder: Path
) -> None:
    """Every alternate of a sitemap (``entries`` by their ``loc``, the site at ``base_url``
    written into ``folder``) names a file the build wrote, which the sitemap lists with the
    same language versions: each version names the others back, and itself."""
    for loc, entry in entries.items():
        if entry.alternates:
            assert loc in entry.alternates.values(), (loc, entry.alternates)
        for language, href in entry.alternates.items():
            assert href.startswith(base_url), (loc, language, href)
            path = unquote(href.removeprefix(base_url))
            file = folder / (path + "index.html" if not path or path.endswith("/") else path)
            assert file.is_file(), (loc, language, href)
            assert href in entries, (loc, language, href)
            assert entries[href].alternates == entry.alternates, (loc, language, href)


def assert_validate_finds_no_hreflang_problem(folder: Path) -> None:
    """``sitemap-plugins validate`` over the sitemap in ``folder``: no E7xx, no W7xx."""
    done = run("validate", folder, cwd=folder)
    said = done.stdout + done.stderr
    assert done.returncode == 0, said
    assert not any(code in said for code in ("E70", "W70")), said


def test_subsites_join_the_main_sitemap_with_every_language_version(git_repo: GitRepo) -> None:
    # strict: a sitemap warning in any language, the subsites' included, fails the build.
    site = plain_repo(git_repo, FILES, I18N + 'SITEMAP = {"strict": True}\n')
    proc = pelican_build(site, "-v")

    # One sitemap, at the main site's root; the subsites write none of their own.
    assert not (site / "output" / "de" / "sitemap.xml").exists()
    assert not (site / "output" / "fr" / "sitemap.xml").exists()
    entries = sitemap(site)
    assert summary(proc).urls == len(entries)

    hello = {
        "en": BASE + "hello.html",
        "de": BASE + "de/hello.html",
        "fr": BASE + "fr/hello.html",
        "x-default": BASE + "hello.html",
    }
    for path in ("hello.html", "de/hello.html", "fr/hello.html"):
        assert entries[path].alternates == hello, path
    about = {
        "en": BASE + "pages/about.html",
        "de": BASE + "de/pages/about.html",
        "x-default": BASE + "pages/about.html",
    }
    assert entries["pages/about.html"].alternates == about
    assert entries["de/pages/about.html"].alternates == about
    # The page has no French version: fr/ shows the English one hidden, which is left out.
    assert not any(path.startswith("fr/pages/") for path in entries)

    # Each language's listings are the same template in another language.
    home = {"en": BASE, "de": BASE + "de/", "fr": BASE + "fr/", "x-default": BASE}
    for path in ("", "de/", "fr/"):
        assert entries[path].alternates == home, path
    assert entries["de/archives.html"].alternates["en"] == BASE + "archives.html"

    # Untranslated content has no language versions to list; i18n_subsites' hidden copies
    # of it in the other languages' subsites stay out.
    assert entries["only-english.html"].alternates == {}
    assert not any("only-english" in path for path in entries if path != "only-english.html")

    # Every alternate is a URL the sitemap lists, and every group lists each of its members.
    for path, entry in entries.items():
        for href in entry.alternates.values():
            assert href.removeprefix(BASE) in entries, (path, href)
        for href in entry.alternates.values():
            assert entries[href.removeprefix(BASE)].alternates == entry.alternates, path

    # The dates are the author's, in every language.
    assert entries["de/hello.html"].lastmod == "2024-01-02T00:00:00Z"
    assert entries["fr/hello.html"].lastmod == "2024-01-03T00:00:00Z"

    # An independent reader sees the same URLs and the same language versions.
    pages = parse_with_usp(site / "output", "sitemap.xml", base_url=BASE)
    assert set(pages) == {BASE + path for path in entries}
    assert dict(pages[BASE + "de/hello.html"].alternates) == hello


def test_a_subsite_outside_the_main_site_gets_its_own_sitemap_and_a_warning(
    git_repo: GitRepo,
) -> None:
    """The subsite on another host writes its own sitemap: neither sitemap names a version in
    the other, and the versions each one lists name only versions it lists."""
    settings = I18N.replace('{"SITENAME": "Testseite"}', '{"SITEURL": "https://de.example.net"}')
    files = {
        **FILES,
        "content/seul.md": post("Seul", "2024-01-05", Slug="seul", Lang="fr"),
        "content/allein.md": post("Allein", "2024-01-06", Slug="seul", Lang="de"),
    }
    site = plain_repo(git_repo, files, settings)
    proc = pelican_build(site)
    log = log_of(proc)
    assert "'de' subsite's SITEURL 'https://de.example.net' is not under the main SITEURL" in log
    german = "https://de.example.net/"
    own = check_sitemap_file(site / "output" / "de" / "sitemap.xml", german + "sitemap.xml")
    assert german + "hello.html" in {entry.loc for entry in own}
    assert all(entry.alternates == {} for entry in own), [e for e in own if e.alternates]
    entries = sitemap(site)
    assert "fr/hello.html" in entries
    assert not any(path.startswith("de/") for path in entries)
    hello = {
        "en": BASE + "hello.html",
        "fr": BASE + "fr/hello.html",
        "x-default": BASE + "hello.html",
    }
    assert entries["hello.html"].alternates == hello
    assert entries["fr/hello.html"].alternates == hello
    assert entries["fr/seul.html"].alternates == {}  # its only version is the German one
    assert entries["pages/about.html"].alternates == {}
    home = {"en": BASE, "fr": BASE + "fr/", "x-default": BASE}
    assert entries[""].alternates == home
    assert_alternates_are_served_and_reciprocal(
        {BASE + path: entry for path, entry in entries.items()}, BASE, site / "output"
    )
    assert_validate_finds_no_hreflang_problem(site / "output")
    assert_validate_finds_no_hreflang_problem(site / "output" / "de")


def test_warnings_in_a_subsite_are_named_and_strict_fails_the_build(git_repo: GitRepo) -> None:
    files = dict(FILES)
    files["content/hallo.md"] = post(
        "Hallo", "2024-01-02", Slug="hello", Lang="de", Sitemap='{"priority": "high"}'
    )
    # Found while the German subsite is written, not when the sitemap is: it counts as well.
    files["content/pages/ueber.md"] = page("Über", Slug="about", Lang="de", Save_as="kontakt.html")
    site = plain_repo(git_repo, files, I18N)
    log = log_of(pelican_build(site))
    assert "content/hallo.md: priority 'high' is not allowed" in log
    assert "content/pages/ueber.md: URL 'pages/about.html' does not serve the file" in log
    entries = sitemap(site)
    assert entries["de/hello.html"].priority is None  # listed, without the bad value
    assert "de/kontakt.html" in entries

    settings = git_repo.path("pelicanconf.py")
    settings.write_text(settings.read_text() + 'SITEMAP = {"strict": True}\n')
    (site / "content" / "hallo.md").write_text(FILES["content/hallo.md"])
    proc = pelican_build(site, check=False)
    assert proc.returncode != 0
    assert "SitemapStrictError: sitemap: 1 warning(s)" in log_of(proc)


@pytest.mark.parametrize("untranslated", ["hide", "keep", "remove"])
def test_untranslated_content_has_no_alternates_whatever_i18n_subsites_does_with_it(
    git_repo: GitRepo, untranslated: str
) -> None:
    """i18n_subsites hides (the default), keeps or removes the copies of an untranslated article
    or page in the other subsites. Kept, each copy is the same English content at another URL:
    no translation of it, so no alternates, and never an English page labelled ``de``."""
    files = {
        "content/only.md": post("Only English", "2024-01-02", Slug="only", Lang="en"),
        "content/pages/solo.md": page("Solo", Slug="solo", Lang="en"),
    }
    settings = (
        f"{I18N}I18N_UNTRANSLATED_ARTICLES = {untranslated!r}\n"
        f"I18N_UNTRANSLATED_PAGES = {untranslated!r}\n"
    )
    site = plain_repo(git_repo, files, settings)
    pelican_build(site)
    copies = sorted(  # what i18n_subsites wrote: drafts when hidden
        path.relative_to(site / "output").as_posix()
        for folder in ("de", "fr")
        for path in (site / "output" / folder).rglob("only*.html")
    )
    assert bool(copies) == (untranslated != "remove"), copies
    entries = sitemap(site)
    assert entries["only.html"].alternates == {}
    assert entries["pages/solo.html"].alternates == {}
    listed_copies = [path for path in entries if path.startswith(("de/", "fr/")) and "only" in path]
    assert sorted(listed_copies) == (copies if untranslated == "keep" else [])
    for path in listed_copies:
        assert entries[path].alternates == {}, path
    # The listings are still the same template in each language.
    assert set(entries[""].alternates) == {"en", "de", "fr", "x-default"}


def test_a_url_metadata_written_encoded_names_each_version_encoded_once(
    git_repo: GitRepo,
) -> None:
    """``URL: caf%C3%A9.html`` is a link as the author wrote it, which Pelican and
    i18n_subsites write into every version's links: each version and each alternate is the URL
    those links reach, ``caf%C3%A9.html`` under its subsite, not ``caf%25C3%25A9.html``."""
    meta = {"Slug": "cafe", "URL": "caf%C3%A9.html", "Save_as": "café.html"}
    files = {
        "content/pages/cafe.md": page("Café", Lang="en", **meta),
        "content/pages/cafe-de.md": page("Café", Lang="de", **meta),
    }
    # One subsite: in a third, both would be copies of untranslated content at one save_as.
    site = plain_repo(git_repo, files, I18N.replace(', "fr": {}', ""))
    proc = pelican_build(site)
    entries = sitemap(site)
    cafe = {
        "en": BASE + "caf%C3%A9.html",
        "de": BASE + "de/caf%C3%A9.html",
        "x-default": BASE + "caf%C3%A9.html",
    }
    for path in ("caf%C3%A9.html", "de/caf%C3%A9.html"):
        assert entries[path].alternates == cafe, path
    assert (site / "output" / "café.html").is_file()
    assert (site / "output" / "de" / "café.html").is_file()
    assert "does not serve" not in log_of(proc)


def test_kept_copies_of_content_translated_into_other_languages_have_no_alternates(
    git_repo: GitRepo,
) -> None:
    """With ``"keep"``, a subsite also writes the content it has no version of in its own
    language, each version a copy at a URL of its own (``de/pages/about-en.html``): the same
    content as the version in its own language's subsite, not a translation. The copies get no
    alternates, and the versions in their own subsites name each other only. A copy's URL is
    i18n_subsites' link to that version: no URL the author could set right, so no warning."""
    files = {
        "content/pages/about.md": page("About", Slug="about", Lang="en"),
        "content/pages/a-propos.md": page("A propos", Slug="about", Lang="fr"),
        "content/seul.md": post("Seul", "2024-01-02", Slug="seul", Lang="fr"),
        "content/allein.md": post("Allein", "2024-01-03", Slug="seul", Lang="de"),
    }
    settings = (
        f'{I18N}I18N_UNTRANSLATED_ARTICLES = "keep"\nI18N_UNTRANSLATED_PAGES = "keep"\n'
        'SITEMAP = {"strict": True}\n'
    )
    site = plain_repo(git_repo, files, settings)
    proc = pelican_build(site, check=False)
    assert proc.returncode == 0, log_of(proc)
    assert "does not serve" not in log_of(proc)
    output = site / "output"
    # What i18n_subsites wrote: in each site, the versions in the languages of other sites.
    copies = ["de/pages/about-en.html", "de/pages/about-fr.html", "seul-de.html", "seul-fr.html"]
    assert all((output / copy).is_file() for copy in copies), sorted(output.rglob("*.html"))
    entries = sitemap(site)
    for copy in copies:
        assert entries[copy].alternates == {}, copy
    about = {
        "en": BASE + "pages/about.html",
        "fr": BASE + "fr/pages/about.html",
        "x-default": BASE + "pages/about.html",
    }
    assert entries["pages/about.html"].alternates == about
    assert entries["fr/pages/about.html"].alternates == about
    seul = {"de": BASE + "de/seul.html", "fr": BASE + "fr/seul.html"}
    assert entries["de/seul.html"].alternates == seul
    assert entries["fr/seul.html"].alternates == seul
    assert_alternates_are_served_and_reciprocal(
        {BASE + path: entry for path, entry in entries.items()}, BASE, output
    )
    assert_validate_finds_no_hreflang_problem(output)
