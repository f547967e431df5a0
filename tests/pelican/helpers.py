"""Real Pelican sites in real git repositories, and reading their sitemaps back.

Builds run the real ``pelican`` command line in a subprocess, through
:func:`tests.support.hosts.pelican_build`: each build then starts from a clean process (Pelican's
logging de-duplicates warnings process-wide), and exit codes (``strict``, ``--fatal warnings``)
are what the shell sees.
"""

from __future__ import annotations

import re
import subprocess
import textwrap
from collections import Counter
from pathlib import Path
from typing import NamedTuple

from tests.support.gitrepo import GitRepo
from tests.support.hosts import output
from tests.support.sitemap_checks import UrlEntry, check_sitemap_file

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "example_sites" / "pelican"
BASE = "https://example.org/"

# The example site's sources, each committed on its own date (committer date = git lastmod).
COMMITS = {
    "content/pages/index.md": "2024-01-10T09:00:00+00:00",
    "content/pages/guide/install.md": "2024-02-11T09:00:00+00:00",
    "content/images/where-it-goes.svg": "2024-02-11T09:00:00+00:00",  # shown by guide/install
    "content/pages/guide/configure.md": "2024-03-12T09:00:00+00:00",
    "content/pages/reference/options.md": "2024-04-13T09:00:00+00:00",
    "content/pages/café.md": "2024-06-14T09:00:00+00:00",
    "content/pages/about.md": "2024-07-15T09:00:00+00:00",
    "content/pages/internal.md": "2024-08-16T09:00:00+00:00",
    "content/pages/404.md": "2024-09-17T09:00:00+00:00",
    "content/pages/hidden.md": "2024-09-18T09:00:00+00:00",
    "content/blog/first-post.md": "2024-10-01T09:00:00+00:00",
    "content/blog/second-post.md": "2024-10-02T09:00:00+00:00",
    "content/blog/second-post-fr.md": "2024-10-03T09:00:00+00:00",
    "content/blog/salt-and-pepper.md": "2024-10-04T09:00:00+00:00",
    "content/blog/creme-brulee.md": "2024-10-05T09:00:00+00:00",
    "content/blog/draft.md": "2024-10-06T09:00:00+00:00",
}

# A plain site for the focused tests: the settings of a new user, plus what each test adds.
PLAIN_SETTINGS = """\
AUTHOR = "Author"
SITENAME = "Test site"
SITEURL = "https://example.org"
PATH = "content"
TIMEZONE = "UTC"
DEFAULT_LANG = "en"
PLUGINS = ["sitemap_plugins.pelican"]
FEED_ALL_ATOM = None
CATEGORY_FEED_ATOM = None
TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = None
AUTHOR_FEED_RSS = None
"""


def post(title: str, date: str, *, tags: str = "misc", category: str = "News", **meta: str) -> str:
    lines = [f"Title: {title}", f"Date: {date}", f"Category: {category}", f"Tags: {tags}"]
    lines += [f"{key}: {value}" for key, value in meta.items()]
    return "\n".join(lines) + f"\n\nSome text about {title.lower()}.\n"


def page(title: str, **meta: str) -> str:
    lines = [f"Title: {title}"] + [f"{key}: {value}" for key, value in meta.items()]
    return "\n".join(lines) + f"\n\nSome text about {title.lower()}.\n"


def example_repo(repo: GitRepo, extra_settings: str = "") -> Path:
    """The example site committed file by file, with ``extra_settings`` appended."""
    for relpath, date in COMMITS.items():
        repo.write(relpath, (EXAMPLE / relpath).read_text(encoding="utf-8"))
        repo.commit(f"add {relpath}", date, relpath)
    settings = (EXAMPLE / "pelicanconf.py").read_text(encoding="utf-8")
    repo.write("pelicanconf.py", settings + extra_settings)
    repo.write(".gitignore", "output/\n")
    repo.commit("settings", "2024-12-01T09:00:00+00:00")
    return repo.root


def plain_repo(repo: GitRepo, files: dict[str, str], settings: str = "", date: str = "") -> Path:
    """A small site: ``files`` under the repo root, committed together at ``date``."""
    for relpath, text in files.items():
        repo.write(relpath, text)
    repo.write("pelicanconf.py", PLAIN_SETTINGS + textwrap.dedent(settings))
    repo.write(".gitignore", "output/\n")
    repo.commit("site", date or "2024-05-05T12:00:00+00:00")
    return repo.root


def sitemap(site: Path, name: str = "sitemap.xml") -> dict[str, UrlEntry]:
    """The checked sitemap of a built site, by path relative to the base URL."""
    path = site / "output" / name
    entries = check_sitemap_file(path, BASE + name, site_dir=site / "output", base_url=BASE)
    return {entry.loc.removeprefix(BASE): entry for entry in entries}


def log_of(proc: subprocess.CompletedProcess[str]) -> str:
    """Everything the build printed, on one line (Pelican wraps long log lines)."""
    return " ".join(output(proc).split())


SUMMARY = re.compile(r"sitemap: (?P<urls>\d+) URLs? in (?P<files>[^;]+?)(?P<rest>;.*)?$")
LEFT_OUT = re.compile(r"^; left out (?P<count>\d+) \((?P<reasons>[^)]*)\)")


class Summary(NamedTuple):
    """Our summary line of a build: URLs written, the files named, what was left out and why."""

    urls: int
    files: str
    left_out: Counter[str]


def summary(proc: subprocess.CompletedProcess[str]) -> Summary:
    """The one summary line of a ``-v`` build, read: only that line, as Pelican's own log names
    drafts and hidden pages too."""
    found = [m for line in output(proc).splitlines() if (m := SUMMARY.search(line))]
    assert len(found) == 1, f"not one summary line in:\n{output(proc)}"
    rest = found[0]["rest"] or ""
    left_out: Counter[str] = Counter()
    if (listed := LEFT_OUT.match(rest)) is not None:
        for part in listed["reasons"].split(", "):
            count, _, reason = part.partition(" ")
            left_out[reason] += int(count)
        assert sum(left_out.values()) == int(listed["count"]), found[0].group(0)
    return Summary(int(found[0]["urls"]), found[0]["files"].strip(), left_out)
