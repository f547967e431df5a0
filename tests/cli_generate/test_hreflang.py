"""Language versions after the build: each page's ``hreflang`` links become its alternates.

Hugo, Jekyll's multilingual plugins and most themes link every language version of a page in
its head; ``generate`` lists them as the plugins list a host's translations: the page itself
included, ``x-default`` where it names one of them, checked against the XSD with the ``xhtml``
namespace.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urljoin

from tests.cli_generate.helpers import checked, run, write

BASE = "https://ex.org/"


def built(lang: str | None, links: dict[str, str]) -> str:
    """A built page whose head links its language versions (hreflang -> href)."""
    opening = f'<html lang="{lang}">' if lang else "<html>"
    head = "".join(f'<link rel="alternate" hreflang="{k}" href="{v}">' for k, v in links.items())
    return f"<!DOCTYPE html>\n{opening}<head><title>T</title>{head}</head><body>x</body></html>\n"


def test_hreflang_links_become_alternates(tmp_path: Path) -> None:
    home = {"en": BASE, "de": BASE + "de/", "x-default": BASE}
    write(tmp_path / "site/index.html", built("en", home))
    write(tmp_path / "site/de/index.html", built("de", home))
    # Links to the other version only, relative and root-relative: the page adds itself.
    write(tmp_path / "site/about/index.html", built("en", {"de": "../de/about/"}))
    write(tmp_path / "site/de/about/index.html", built("de", {"en": "/about/"}))
    # No <html lang> to place the page itself: no alternates rather than a set without it.
    write(tmp_path / "site/fr/index.html", built(None, {"en": "/"}))
    # A version on another host: left out, so only the page itself stays, and no set.
    write(
        tmp_path / "site/ext/index.html", built("en", {"en": "/ext/", "fr": "https://fr.ex.org/"})
    )
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entries = checked(tmp_path / "site", BASE)
    got = {loc.removeprefix(BASE): dict(entry.alternates) for loc, entry in entries.items()}
    pair = {"en": BASE, "de": BASE + "de/"}
    assert got[""] == got["de/"] == {**pair, "x-default": BASE}
    assert got["about/"] == got["de/about/"] == {"en": BASE + "about/", "de": BASE + "de/about/"}
    assert got["fr/"] == got["ext/"] == {}
    assert "1 hreflang link to https://fr.ex.org left out of the alternates" in done.stderr
    assert (
        "1 page without alternates: their hreflang links leave the page itself out" in done.stderr
    )
    assert "no <html lang> says which language it is (site/fr/index.html)" in done.stderr


def test_versions_in_a_sibling_folder_of_the_base_url(tmp_path: Path) -> None:
    """The English build is served at /en/ and the German one beside it at /de/."""
    links = {"en": "https://ex.org/en/guide/", "de": "https://ex.org/de/guide/"}
    write(tmp_path / "en/guide/index.html", built("en", links))
    done = run("generate", "en", "--base-url", BASE + "en/", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    [entry] = checked(tmp_path / "en", BASE + "en/").values()
    assert dict(entry.alternates) == links


def test_versions_on_the_base_urls_host_spelled_another_way_are_alternates(
    tmp_path: Path,
) -> None:
    """A link may spell the base URL's host in Unicode, with the scheme's default port: the
    same site, so its versions are alternates, written as the sitemap writes the base URL."""
    links = {"en": "https://bücher.example:443/en/", "de": "https://BÜCHER.example/de/"}
    write(tmp_path / "site/en/index.html", built("en", links))
    write(tmp_path / "site/de/index.html", built("de", links))
    done = run("generate", "site", "--base-url", "https://bücher.example/", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    base = "https://xn--bcher-kva.example/"
    entries = checked(tmp_path / "site", base)
    want = {"en": base + "en/", "de": base + "de/"}
    assert set(entries) == set(want.values())
    assert all(dict(entry.alternates) == want for entry in entries.values())
    assert "left out of the alternates" not in done.stderr


def test_alternates_keep_the_links_form_for_servers_that_keep_index_html(tmp_path: Path) -> None:
    links = {"en": "/index.html", "de": "/de/index.html"}
    write(tmp_path / "site/index.html", built("en", links))
    write(tmp_path / "site/de/index.html", built("de", links))
    done = run("generate", "site", "--base-url", BASE, "--keep-index-html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entries = checked(tmp_path / "site", BASE)
    assert set(entries) == {BASE + "index.html", BASE + "de/index.html"}
    want = {"en": BASE + "index.html", "de": BASE + "de/index.html"}
    assert all(dict(entry.alternates) == want for entry in entries.values())


def test_versions_left_out_are_no_alternates(tmp_path: Path) -> None:
    """A version whose head says noindex is left out of the sitemap, so no other version names
    it: alternates name each other back, from indexable URLs; a page left alone has none."""
    links = {"en": "/guide/", "de": "/de/guide/", "fr": "/fr/guide/", "x-default": "/de/guide/"}
    write(tmp_path / "site/guide/index.html", built("en", links))
    write(tmp_path / "site/fr/guide/index.html", built("fr", links))
    noindex = '<meta name="robots" content="noindex"><title>'
    write(tmp_path / "site/de/guide/index.html", built("de", links).replace("<title>", noindex))
    pair = {"en": "/tour/", "de": "/de/tour/"}
    write(tmp_path / "site/tour/index.html", built("en", pair))
    write(tmp_path / "site/de/tour/index.html", built("de", pair).replace("<title>", noindex))
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entries = checked(tmp_path / "site", BASE)
    assert set(entries) == {BASE + "guide/", BASE + "fr/guide/", BASE + "tour/"}
    want = {"en": BASE + "guide/", "fr": BASE + "fr/guide/"}  # x-default named de/: gone too
    assert dict(entries[BASE + "guide/"].alternates) == want
    assert dict(entries[BASE + "fr/guide/"].alternates) == want
    assert dict(entries[BASE + "tour/"].alternates) == {}


def test_alternates_are_spelled_as_the_pages_are_listed(tmp_path: Path) -> None:
    """Links to ``x/index.html`` name the page the sitemap lists as ``x/``: each entry's
    alternates then include its own URL, and name only URLs the sitemap lists."""
    home = {"en": "index.html", "de": "de/index.html", "x-default": "index.html"}
    write(tmp_path / "site/index.html", built("en", home))
    german = {"en": "../index.html", "de": "index.html", "x-default": "../index.html"}
    write(tmp_path / "site/de/index.html", built("de", german))
    write(tmp_path / "site/a/index.html", built("en", {"de": "../de/a/index.htm"}))
    write(tmp_path / "site/de/a/index.htm", built("de", {"en": "../../a/index.html"}))
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entries = checked(tmp_path / "site", BASE)
    assert set(entries) == {BASE, BASE + "de/", BASE + "a/", BASE + "de/a/"}
    for loc, entry in entries.items():
        assert loc in entry.alternates.values(), loc
        assert set(entry.alternates.values()) <= set(entries), loc
    assert dict(entries[BASE].alternates) == {"en": BASE, "de": BASE + "de/", "x-default": BASE}
    assert dict(entries[BASE + "de/"].alternates) == dict(entries[BASE].alternates)
    done = run("validate", "site", cwd=tmp_path)
    assert "W701" not in done.stdout + done.stderr


def test_only_versions_that_name_each_other_back_are_alternates(tmp_path: Path) -> None:
    """Heads that disagree: ``en/a/`` links its French and German versions, the French one
    links only the English one, the German one links nothing. Search engines ignore a link that
    is not returned, so each entry keeps the versions that name it back, ``x-default`` only
    where it names one of them, and one line says how many links were left out, naming one."""
    a = {"en": "/en/a/", "fr": "/fr/a/", "de": "/de/a/", "x-default": "/de/a/"}
    write(tmp_path / "site/en/a/index.html", built("en", a))
    write(tmp_path / "site/fr/a/index.html", built("fr", {"fr": "/fr/a/", "en": "/en/a/"}))
    write(tmp_path / "site/de/a/index.html", built("de", {}))
    # Only one page links the other: neither keeps a version, so neither has alternates.
    write(tmp_path / "site/en/b/index.html", built("en", {"fr": "../../fr/b/"}))
    write(tmp_path / "site/fr/b/index.html", built("fr", {}))
    # Heads that agree keep every version, x-default too.
    c = {"en": "/en/c/", "fr": "/fr/c/", "x-default": "/en/c/"}
    write(tmp_path / "site/en/c/index.html", built("en", c))
    write(tmp_path / "site/fr/c/index.html", built("fr", c))
    done = run("generate", "site", "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entries = checked(tmp_path / "site", BASE)
    got = {loc.removeprefix(BASE): dict(entry.alternates) for loc, entry in entries.items()}
    pair = {"en": BASE + "en/a/", "fr": BASE + "fr/a/"}
    assert got["en/a/"] == got["fr/a/"] == pair
    assert got["de/a/"] == got["en/b/"] == got["fr/b/"] == {}
    both = {"en": BASE + "en/c/", "fr": BASE + "fr/c/", "x-default": BASE + "en/c/"}
    assert got["en/c/"] == got["fr/c/"] == both
    for loc, entry in entries.items():  # every alternate names the entry back
        for other in entry.alternates.values():
            assert loc in entries[other].alternates.values(), (loc, other)
    assert "warning" not in done.stderr.lower()  # the site's heads say so: nothing to fix here
    [line] = [line for line in done.stderr.splitlines() if "does not link back" in line]
    said = re.search(
        r"^2 hreflang links left out of the alternates: .*\(such as (\S+): "
        r'hreflang="(\w+)" to (\S+), which does not name (\S+) back\)$',
        line,
    )
    assert said is not None, line
    named, lang, target, own = said.groups()
    own_head = (tmp_path / named).read_text(encoding="utf-8")
    assert own == BASE + named.removeprefix("site/").removesuffix("index.html")
    assert target in {urljoin(own, href) for href in head_links(own_head, lang)}  # truly linked
    assert own not in entries[target].alternates.values()  # and not linked back
    assert (target, own) in {(BASE + "de/a/", BASE + "en/a/"), (BASE + "fr/b/", BASE + "en/b/")}


def head_links(head: str, lang: str) -> list[str]:
    """The hrefs of a page's hreflang links for ``lang``, as its head writes them."""
    return re.findall(rf'<link rel="alternate" hreflang="{lang}" href="([^"]*)">', head)
