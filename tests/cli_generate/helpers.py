"""Running ``sitemap-plugins generate`` as CI runs it, and writing built pages by hand.

Sites laid out as Hugo's and Jekyll's outputs are written here page by page, with the heads
those generators write (canonical links, Open Graph dates, alias redirect stubs): the tests then
hold ``generate`` to what such a head says, and to the git history of the sources beside it.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from tests.support.console_script import ENV, SCRIPT
from tests.support.sitemap_checks import UrlEntry, check_sitemap_file, parse_with_usp


def run(
    *args: str | Path,
    cwd: Path,
    stdin: str | None = None,
    env: dict[str, str] | None = None,
    via: Sequence[str] = (),
) -> subprocess.CompletedProcess[str]:
    """The installed console script, in ``cwd``; never a traceback, whatever the outcome.
    ``via`` is a command that runs it (``setpriv`` with its options)."""
    if not SCRIPT.exists():
        pytest.fail(f"{SCRIPT} is missing: install the project (pip install .) to test it")
    done = subprocess.run(
        [*via, str(SCRIPT), *map(str, args)],
        cwd=cwd,
        env={**ENV, **(env or {})},
        input=stdin,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return done


def page(title: str, *, head: str = "", canonical: str | None = None) -> str:
    """A built page as static site generators write them."""
    link = f'<link rel="canonical" href="{canonical}">' if canonical else ""
    return (
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8>"
        f"<title>{title}</title>{link}{head}</head>\n<body><h1>{title}</h1></body></html>\n"
    )


def redirect(target: str) -> str:
    """A redirect stub, as Hugo writes for an alias and Jekyll's redirect-from plugin does."""
    return (
        "<!DOCTYPE html><html><head><title>Redirecting</title>"
        f'<link rel="canonical" href="{target}">'
        f'<meta http-equiv="refresh" content="0; url={target}"></head></html>\n'
    )


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def checked(site_dir: Path, base_url: str, name: str = "sitemap.xml") -> dict[str, UrlEntry]:
    """Every entry of the written sitemap, by loc, after the protocol checks, the XSD, our
    validator and ultimate-sitemap-parser (which must find exactly the same URLs and dates)."""
    entries = check_sitemap_file(
        site_dir / name, base_url + name, site_dir=site_dir, base_url=base_url
    )
    by_loc = {entry.loc: entry for entry in entries}
    assert len(by_loc) == len(entries)
    seen = parse_with_usp(site_dir, name, base_url=base_url)
    assert set(seen) == set(by_loc)
    for loc, info in seen.items():
        assert (info.lastmod is None) == (by_loc[loc].lastmod is None), loc
    return by_loc


def lastmods(entries: dict[str, UrlEntry], base_url: str) -> dict[str, str | None]:
    """Each entry's lastmod by its path under the base URL."""
    return {loc.removeprefix(base_url): entry.lastmod for loc, entry in entries.items()}


def written(date: str | None) -> str | None:
    """A git date (``%cI``) as the sitemap writes it: UTC as ``Z``."""
    if date is None or date == "":
        return None
    return date[:-6] + "Z" if date.endswith("+00:00") else date


def zensical_build(folder: Path) -> None:
    """``zensical build --clean`` in the project ``folder``, as CI runs it before ``generate``."""
    done = subprocess.run(
        [sys.executable, "-m", "zensical", "build", "--clean"],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert (folder / "site" / "sitemap.xml").is_file(), "Zensical wrote no sitemap of its own"
