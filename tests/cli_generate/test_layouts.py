"""Sites laid out as Hugo, Jekyll and hand-written sites are: sources in git, output beside.

Each built folder is written page by page with the heads those generators write; the sources
are committed at chosen dates, so every expected lastmod is what ``git log -1`` says.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli_generate.helpers import checked, lastmods, page, redirect, run, write, written
from tests.support.gitrepo import GitRepo

BASE = "https://example.org/"
JAN = "2024-01-05T10:00:00+01:00"
FEB = "2024-02-14T22:15:00-05:00"
APR = "2024-04-30T06:00:00+00:00"


@pytest.fixture
def hugo(git_repo: GitRepo) -> GitRepo:
    """content/ committed, public/ built and ignored."""
    root = git_repo
    root.write(".gitignore", "public/\n")
    root.write("content/_index.md", "home\n")
    root.write("content/posts/_index.md", "posts\n")
    root.write("content/posts/First-Post.md", "first\n")
    root.commit("start", JAN)
    root.write("content/about/index.md", "about, a leaf bundle\n")
    root.write("content/posts/second.md", "second\n")
    root.commit("more", FEB)
    root.write("content/posts/First-Post.md", "first, edited\n")
    root.commit("edit", APR)
    public = root.root / "public"
    write(public / "index.html", page("Home", canonical=BASE))
    write(public / "posts/index.html", page("Posts", canonical=BASE + "posts/"))
    # Hugo lower-cases paths: content/posts/First-Post.md is posts/first-post/.
    write(
        public / "posts/first-post/index.html", page("First", canonical=BASE + "posts/first-post/")
    )
    write(
        public / "posts/second/index.html",
        page(
            "Second",
            head='<meta property="article:modified_time" content="2024-03-01T08:00:00+0100">',
        ),
    )
    write(public / "about/index.html", page("About", canonical="/about/"))
    write(public / "tags/index.html", page("Tags"))
    write(public / "old-name/index.html", redirect(BASE + "about/"))
    write(public / "404.html", page("Not found"))
    write(public / "drafts/wip/index.html", page("WIP"))
    write(
        public / "secret/index.html", page("Secret", head='<meta name="robots" content="noindex">')
    )
    write(public / "googleabc123.html", "google-site-verification: googleabc123.html\n")
    write(public / "dupe/index.html", page("Copy", canonical=BASE + "about/"))
    return root


def test_hugo_public_with_content_sources(hugo: GitRepo) -> None:
    done = run(
        "generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo",
        "--exclude", "drafts/*", cwd=hugo.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout == (
        "sitemap: 6 URLs in sitemap.xml; left out 6 (1 404 page, 1 canonical elsewhere, "
        "1 excluded by config, 1 noindex, 1 not a page, 1 redirect stub); "
        "lastmod from git 4, metadata 1, none 1\n"
    )
    got = lastmods(checked(hugo.root / "public", BASE), BASE)
    assert got == {
        "": written(hugo.log_date("content/_index.md")),
        "posts/": written(hugo.log_date("content/posts/_index.md")),
        "posts/first-post/": written(hugo.log_date("content/posts/First-Post.md")),
        "posts/second/": "2024-03-01T08:00:00+01:00",  # the page's own date beats git
        "about/": written(hugo.log_date("content/about/index.md")),
        "tags/": None,  # generated, and public/ is not committed
    }
    assert got["posts/first-post/"] == "2024-04-30T06:00:00Z"


def test_a_page_whose_sources_differ_from_it_and_each_other_only_in_case_has_none(
    hugo: GitRepo,
) -> None:
    """Hugo lower-cases paths, so ``posts/first-post/`` is ``First-Post.md``'s, the one name
    of that spelling. Of ``News.md`` and ``NEWS.md`` either could be ``news/``'s: neither
    dates or configures it, rather than one picked by the order of a folder's listing."""
    hugo.write("content/News.md", "---\nsitemap:\n  priority: 0.2\n---\nnews\n")
    hugo.write("content/NEWS.md", "---\nsitemap:\n  priority: 0.9\n---\nNEWS\n")
    hugo.commit("news", FEB)
    write(hugo.root / "public/news/index.html", page("News"))
    done = run(
        "generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo",
        "--exclude", "drafts/*", cwd=hugo.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entries = checked(hugo.root / "public", BASE)
    assert (entries[BASE + "news/"].lastmod, entries[BASE + "news/"].priority) == (None, None)
    first = entries[BASE + "posts/first-post/"]
    assert first.lastmod == written(hugo.log_date("content/posts/First-Post.md"))


def test_exclude_and_rules_match_the_source_file_the_layout_found(hugo: GitRepo) -> None:
    """Globs on the source file (``content/posts/*.md``) match a page whose source the layout
    found, as the plugins match them; globs on the served path (``drafts/*``) still do."""
    rules = '[{"pattern": "content/about/index.md", "priority": 0.3}]'
    done = run(
        "generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo",
        "--exclude", "content/posts/s*.md,drafts/*", "--rules", rules, cwd=hugo.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entries = checked(hugo.root / "public", BASE)
    assert BASE + "posts/second/" not in entries
    assert BASE + "drafts/wip/" not in entries
    assert BASE + "posts/first-post/" in entries  # another source in that folder
    assert entries[BASE + "about/"].priority == "0.3"
    assert "2 excluded by config" in done.stdout, done.stdout


@pytest.mark.parametrize("exclude", ["drafts/*", "drafts/*,tags/*"], ids=["tags", "no-tags"])
def test_the_no_lastmod_line_counts_only_the_pages_the_sitemap_lists(
    hugo: GitRepo, exclude: str
) -> None:
    """Pages without a source and without a committed built file have no lastmod, and one line
    says how many: only those the sitemap lists. A page left out (excluded, noindex, a redirect
    stub) is in no sitemap, and counting it would say pages lack a date where none does."""
    done = run(
        "generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo",
        "--exclude", exclude, cwd=hugo.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "1 noindex, 1 not a page, 1 redirect stub" in done.stdout, done.stdout
    got = lastmods(checked(hugo.root / "public", BASE), BASE)
    undated = len([path for path, date in got.items() if date is None])
    said = [line for line in done.stderr.splitlines() if "no lastmod" in line]
    if undated:
        assert said == [
            f"{undated} page{' has' if undated == 1 else 's have'} no lastmod: no date in the "
            "page's head, no source found for it, and the built file is not committed"
        ]
    else:
        assert said == []
    assert ("tags/" in got) is (exclude == "drafts/*")


def test_a_404_page_is_left_out_at_the_top_of_the_site_and_of_each_language_or_version(
    git_repo: GitRepo,
) -> None:
    """Hugo's multilingual output has a not-found page per language (``fr/404.html``, beside
    its ``fr/sitemap.xml``), some themes write ``404/index.html``, a versioned site one per
    version (mike's ``1.0/404.html`` and its alias ``latest/``, named in ``versions.json``, Read
    the Docs' ``en/latest/404.html`` beside Sphinx's ``searchindex.js``): each folder is known
    by what its build wrote there, whatever its name (``main/``, ``zh-hant/``, whose page says
    its language), and its 404 page is left out, as the plugins leave out ``docs/fr/404.md`` or
    Pelican's ``fr/404.html``. A page whose name only holds 404 stays, and so does a page named
    404 in any other folder (``http/404/``, about the status code, as MkDocs renders
    ``docs/http/404.md``; ``pages/404.html``; ``ui/404.html``, two letters but no language's
    build)."""
    root = git_repo
    root.write(".gitignore", "public/\n")
    root.write("content/_index.md", "home\n")
    root.write("content/fr/_index.md", "accueil\n")
    root.commit("start", JAN)
    public = root.root / "public"
    listed = ["index.html", "fr/index.html", "errors/404-codes/index.html", "x404.html"]
    listed += ["http/404/index.html", "fr/http/404/index.html", "status/404.html"]
    listed += ["pages/404.html", "ui/404.html"]
    not_found = ["404.html", "fr/404.html", "de/404/index.html", "1.0/404.html", "2.0/404.HTM"]
    not_found += ["pt-br/404.html", "en/latest/404.html", "v2/404/index.html", "latest/404.html"]
    not_found += ["main/404.html", "zh-hant/404.html"]
    for relpath in listed + not_found:
        write(public / relpath, page(relpath))
    write(public / "zh-hant/404.html", page("404").replace("lang=en", "lang=zh-Hant"))
    urlset = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>\n'
    for folder in ("fr", "de"):
        write(public / folder / "sitemap.xml", urlset)
    versions = [{"version": "1.0", "aliases": ["latest"]}, {"version": "2.0", "aliases": []}]
    write(public / "versions.json", json.dumps(versions))
    write(public / "pt-br/search/search_index.json", '{"docs": []}')
    write(public / "en/latest/searchindex.js", "Search.setIndex({})")
    write(public / "v2/objects.inv", "# Sphinx inventory version 2\n")
    write(public / "main/.buildinfo", "# Sphinx build info version 1\n")
    done = run(
        "generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo",
        cwd=root.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"left out {len(not_found)} ({len(not_found)} 404 page)" in done.stdout, done.stdout
    served = {relpath.removesuffix("index.html") for relpath in listed}
    assert set(checked(public, BASE)) == {BASE + path for path in served}


def test_a_languages_404_page_is_left_out_where_its_folder_names_the_language_without_region(
    git_repo: GitRepo,
) -> None:
    """Hugo writes each language of a multilingual site to the folder of the language's key
    (``fr/``) and its pages with ``<html lang>`` of its ``languageCode``, which often carries a
    region (``fr-fr``); with Hugo's sitemaps turned off (``disableKinds``, for ``generate`` to
    write the one sitemap) nothing else marks ``fr/`` as a build's top. A folder named by the
    language's first subtags is its folder (``fr/`` for ``fr-fr``, ``zh-hant/`` for
    ``zh-Hant-TW``); one whose name only starts with the same letters (``frank/``) is not, nor
    one that names more than the page's language (``de-at/`` for ``de``)."""
    root = git_repo
    root.write(".gitignore", "public/\n")
    root.write("content/en/guide.md", "guide\n")
    root.write("content/fr/guide.md", "guide\n")
    root.commit("start", JAN)
    public = root.root / "public"
    languages = {"fr": "fr-fr", "zh-hant": "zh-Hant-TW", "frank": "fr", "de-at": "de"}
    for folder, language in languages.items():
        write(public / folder / "index.html", page(folder).replace("lang=en", f"lang={language}"))
        write(public / folder / "404.html", page("404").replace("lang=en", f"lang={language}"))
    write(public / "index.html", page("Home").replace("lang=en", "lang=en-us"))
    write(public / "404.html", page("404").replace("lang=en", "lang=en-us"))
    done = run("generate", "public", "--base-url", BASE, cwd=root.root)
    assert done.returncode == 0, done.stderr
    assert "left out 3 (3 404 page)" in done.stdout, done.stdout
    listed = {"", "fr/", "zh-hant/", "frank/", "frank/404.html", "de-at/", "de-at/404.html"}
    assert set(checked(public, BASE)) == {BASE + path for path in listed}


HUGO_ANY_CASE = {
    "yaml": "---\nlastMod: 2022-05-05\nSitemap:\n  Priority: 0.2\n---\n",
    "toml": "+++\nLastmod = 2022-05-05\n[Sitemap]\nPriority = 0.2\n+++\n",
}


@pytest.mark.parametrize("front", HUGO_ANY_CASE.values(), ids=HUGO_ANY_CASE.keys())
def test_hugo_reads_front_matter_keys_in_any_case(git_repo: GitRepo, front: str) -> None:
    """Hugo reads front matter keys without regard to case: ``lastMod`` or ``Lastmod`` is its
    ``lastmod``, and ``Sitemap`` its ``sitemap``, so the page is dated and weighted by them."""
    git_repo.write(".gitignore", "public/\n")
    git_repo.write("content/post.md", front + "text\n")
    git_repo.commit("post", JAN)
    write(git_repo.root / "public/post/index.html", page("Post"))
    done = run(
        "generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo",
        cwd=git_repo.root,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    entry = checked(git_repo.root / "public", BASE)[BASE + "post/"]
    assert entry.lastmod is not None
    assert entry.lastmod.startswith("2022-05-05")  # the declared date, not the commit's
    assert entry.priority == "0.2"


def test_jekyll_site_with_posts(git_repo: GitRepo) -> None:
    root = git_repo
    root.write(".gitignore", "_site/\n")
    root.write("index.html", "---\nlayout: home\n---\n")
    root.write("about.md", "---\npermalink: /about/\n---\nabout\n")
    root.write("_posts/2024-01-02-hello-world.md", "hello\n")
    root.commit("start", JAN)
    root.write("blog/_posts/2024-02-10-Second.markdown", "second\n")
    root.commit("second", FEB)
    site = root.root / "_site"
    write(site / "index.html", page("Home"))
    write(site / "about/index.html", page("About"))
    write(site / "2024/01/02/hello-world.html", page("Hello"))
    write(site / "blog/2024/02/10/second.html", page("Second", head=(
        '<script type="application/ld+json">{"@type":"BlogPosting",'
        '"dateModified":"2024-02-11T09:00:00+00:00"}</script>')))  # fmt: skip
    write(site / "feed/index.html", page("Feed"))
    done = run("generate", "_site", "--base-url", BASE, "--source", ".", "--layout", "jekyll",
               "--keep-index-html", cwd=root.root)  # fmt: skip
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(site, BASE), BASE)
    assert got == {
        "index.html": written(root.log_date("index.html")),
        "about/index.html": written(root.log_date("about.md")),
        "2024/01/02/hello-world.html": written(root.log_date("_posts/2024-01-02-hello-world.md")),
        "blog/2024/02/10/second.html": "2024-02-11T09:00:00Z",
        "feed/index.html": None,
    }


def test_plain_html_site_committed_is_dated_by_its_files_history(
    git_repo: GitRepo, tmp_path: Path
) -> None:
    """A GitHub Pages branch: the HTML is what is committed; each page's last commit dates it."""
    root = git_repo
    root.write("index.html", page("Home"))
    root.write("docs/a.html", page("A"))
    root.commit("start", JAN)
    root.write("docs/b.html", page("B"))
    root.commit("b", FEB)
    root.write("docs/a.html", page("A, edited"))
    root.commit("a", APR)
    write(root.root / "docs/new.html", page("Not committed yet"))
    write(root.root / "index.html", page("Home, rebuilt"))  # changed since its commit
    done = run("generate", ".", "--base-url", BASE, cwd=root.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(root.root, BASE), BASE)
    assert got == {
        "": None,  # a built file's time is the build's, never its date
        "docs/a.html": written(root.log_date("docs/a.html")),
        "docs/b.html": written(root.log_date("docs/b.html")),
        "docs/new.html": None,
    }
    assert got["docs/a.html"] == "2024-04-30T06:00:00Z"

    # A shallow clone of the branch: only what its history proves.
    clone = root.clone(tmp_path / "shallow", depth=2)
    done = run("generate", ".", "--base-url", BASE, cwd=clone.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(clone.root, BASE), BASE)
    assert got == {"": None, "docs/a.html": "2024-04-30T06:00:00Z", "docs/b.html": None}
    assert len([line for line in done.stderr.splitlines() if "shallow clone" in line]) == 1


def test_hand_written_site_as_its_own_source_takes_working_tree_changes(
    git_repo: GitRepo,
) -> None:
    """``--layout html``: the pages are the sources; an uncommitted edit is a real change."""
    git_repo.write("index.html", page("Home"))
    git_repo.write("about.html", page("About"))
    git_repo.commit("start", JAN)
    edited = write(git_repo.root / "about.html", page("About, edited"))
    stamp = 1_717_200_000  # 2024-06-01T00:00:00Z
    os.utime(edited, (stamp, stamp))
    done = run("generate", ".", "--base-url", BASE, "--layout", "html", cwd=git_repo.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(git_repo.root, BASE), BASE)
    assert got == {
        "": written(git_repo.log_date("index.html")),
        "about.html": "2024-06-01T00:00:00Z",
    }


def test_images_of_each_pages_main_content_with_the_images_option(tmp_path: Path) -> None:
    """--images lists what each page's main content shows, never its chrome; without it, none."""
    site = tmp_path / "site"
    body = (
        '<header><img src="/logo.png"></header><nav><img src="nav.png"></nav>'
        '<main><img src="img/a.png"><img src="img/a.png"><img src="data:image/png;base64,AA">'
        '<img src="https://cdn.example.net/b.jpg"></main>'
    )
    write(site / "index.html", page("Home").replace("<h1>Home</h1>", body))
    write(site / "docs/plain.html", page("Plain"))
    done = run("generate", site, "--base-url", BASE, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert all(entry.images == () for entry in checked(site, BASE).values())
    done = run("generate", site, "--base-url", BASE, "--images", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    entries = checked(site, BASE)
    assert entries[BASE].images == (BASE + "img/a.png", "https://cdn.example.net/b.jpg")
    assert entries[BASE + "docs/plain.html"].images == ()
    assert "2 images" in done.stdout + done.stderr


def test_commits_left_out_by_flag_or_by_a_file_the_config_file_names(hugo: GitRepo) -> None:
    """``--git-ignore-commits`` takes ids (abbreviated too); a ``git_ignore_commits_file`` in
    sitemap-plugins.toml is read from that file's folder, wherever generate runs."""
    hugo.write("content/posts/First-Post.md", "first, edited, reformatted\n")
    hugo.commit("reformat", "2024-06-01T00:00:00+00:00")
    reformat = hugo.head()
    args = ("generate", "public", "--base-url", BASE, "--source", "content", "--layout", "hugo")
    done = run(*args, "--git-ignore-commits", reformat[:9], cwd=hugo.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(hugo.root / "public", BASE), BASE)
    assert got["posts/first-post/"] == "2024-04-30T06:00:00Z"

    hugo.write("site/revs", f"{reformat}  # reformat\n")
    hugo.write(
        "site/sitemap-plugins.toml",
        f'site_dir = "../public"\nsource = "../content"\nbase_url = "{BASE}"\n'
        'layout = "hugo"\ngit_ignore_commits_file = "revs"\n',
    )
    done = run("generate", "--config", "site/sitemap-plugins.toml", cwd=hugo.root)
    assert done.returncode == 0, done.stderr
    got = lastmods(checked(hugo.root / "public", BASE), BASE)
    assert got["posts/first-post/"] == "2024-04-30T06:00:00Z"

    done = run(*args, "--git-ignore-commits-file", "site/none", cwd=hugo.root)
    assert done.returncode != 0
    assert "--git-ignore-commits-file" in done.stderr
    assert str(hugo.root / "site/none") in done.stderr
