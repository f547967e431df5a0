"""How ``generate`` reads a built site: each head once, while the history pass runs, and the
same sitemap whether it holds every page's description or only the first ones.

The site is an MkDocs-style build of sources committed at chosen dates, with the pages that
must stay out (a robots ``noindex``, a redirect stub, a canonical link to another site, a 404)
spread among the others, so that some fall among the pages held and some after them.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

import sitemap_plugins.core.git_dates as git_dates
import sitemap_plugins.generate.run as run_module
import sitemap_plugins.generate.site as site_module
from sitemap_plugins.core import CollectingReporter, SitemapBuilder, Summary
from sitemap_plugins.core.git_background import BackgroundGit
from sitemap_plugins.generate import resolve_settings
from sitemap_plugins.generate.run import generate_site
from tests.cli_generate.helpers import checked, lastmods, page, redirect, write, written
from tests.support.git_trace import git_command
from tests.support.gitrepo import GitRepo

BASE = "https://example.org/"
DATES = [f"2024-0{month}-1{month}T0{month}:30:00+0{month}:00" for month in range(1, 10)]
STAYS_OUT = {
    "secret/index.html": page("Secret", head='<meta name="robots" content="noindex">'),
    "moved/index.html": redirect(BASE + "a/"),
    "elsewhere/index.html": page("Copy", canonical="https://other.example/a/"),
    "404.html": page("Not found"),
}


@pytest.fixture
def site(git_repo: GitRepo) -> GitRepo:
    """docs/ committed, one page a commit; site/ built and ignored."""
    git_repo.write(".gitignore", "site/\n")
    for number, date in enumerate(DATES):
        name = "index" if number == 0 else f"p{number}"
        git_repo.write(f"docs/{name}.md", f"page {number}\n")
        git_repo.commit(f"page {number}", date)
        built = "index.html" if number == 0 else f"{name}/index.html"
        write(git_repo.root / "site" / built, page(f"Page {number}", canonical=BASE + built[:-10]))
    # Declared dates beat git: one page says its own.
    write(
        git_repo.root / "site/p5/index.html",
        page("Page 5", head='<meta property="article:modified_time" content="2023-12-01">'),
    )
    for relpath, text in STAYS_OUT.items():
        write(git_repo.root / "site" / relpath, text)
    return git_repo


def _generate(root: Path) -> tuple[Summary, CollectingReporter]:
    settings = resolve_settings(
        flags={"base_url": BASE},
        site_dir=str(root / "site"),
        source=str(root / "docs"),
        layout="mkdocs",
        cwd=root,
        use_host_config=False,
    )
    reporter = CollectingReporter()
    return generate_site(settings, reporter), reporter


def _expected(site: GitRepo) -> dict[str, str | None]:
    want = {"": written(site.log_date("docs/index.md"))}
    for number in range(1, len(DATES)):
        want[f"p{number}/"] = written(site.log_date(f"docs/p{number}.md"))
    want["p5/"] = "2023-12-01"
    return want


@pytest.mark.parametrize("held", [2, 6, 1_000])
def test_every_head_is_read_once_and_the_sitemap_is_the_same_however_many_are_held(
    site: GitRepo, monkeypatch: pytest.MonkeyPatch, held: int
) -> None:
    reads: Counter[str] = Counter()
    real_read_head = site_module.read_head

    def counted(path: Path) -> str:
        reads[Path(path).relative_to(site.root / "site").as_posix()] += 1
        return real_read_head(path)

    monkeypatch.setattr(site_module, "read_head", counted)
    monkeypatch.setattr(run_module, "_HELD", held)
    summary, reporter = _generate(site.root)

    built = {
        path.relative_to(site.root / "site").as_posix() for path in site.root.glob("site/**/*.html")
    }
    assert reads == Counter(dict.fromkeys(built - {"404.html"}, 1))
    assert lastmods(checked(site.root / "site", BASE), BASE) == _expected(site)
    assert dict(summary.left_out) == {
        "404 page": 1,
        "canonical elsewhere": 1,
        "noindex": 1,
        "redirect stub": 1,
    }
    # The page with a foreign canonical link is counted once, in one warning.
    assert [message for _, message in reporter.warnings] == [
        "1 page left out: their canonical link points to https://other.example, another site "
        f"than the base URL {BASE} (is the base URL right?)"
    ]


def test_the_history_pass_runs_while_the_pages_are_read_and_answers_as_one_run_after(
    site: GitRepo, monkeypatch: pytest.MonkeyPatch
) -> None:
    events: list[str] = []
    real_read_head, real_run_git = site_module.read_head, git_dates.run_git

    def read_head(path: Path) -> str:
        events.append("head")
        return real_read_head(path)

    def started(args: list[str], cwd: Path) -> BackgroundGit:
        events.append(f"started {git_command(args)}")
        return BackgroundGit(args, cwd)

    def ran(args: list[str], cwd: Path) -> object:
        events.append(f"ran {git_command(args)}")
        return real_run_git(args, cwd)

    monkeypatch.setattr(site_module, "read_head", read_head)
    monkeypatch.setattr(git_dates, "BackgroundGit", started)
    monkeypatch.setattr(git_dates, "run_git", ran)
    _generate(site.root)
    early = (site.root / "site/sitemap.xml").read_bytes()

    assert "started log" in events
    assert events.index("started log") < events.index("head")
    # The pass started early is the one used: no second history pass.
    assert events.count("started log") == 1
    assert not any(event == "ran log" for event in events)

    monkeypatch.setattr(SitemapBuilder, "start", lambda self, source_dir: None)
    events.clear()
    _generate(site.root)
    assert "started log" not in events
    assert (site.root / "site/sitemap.xml").read_bytes() == early
    assert lastmods(checked(site.root / "site", BASE), BASE) == _expected(site)
