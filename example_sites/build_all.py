"""Build every example site with its real host, say where each sitemap landed, validate them.

Each site is built from its own folder with the host's own command line, exactly as a user
would, so this doubles as a check that the README's per-host quick starts work as written. The
built sites are then checked with ``sitemap-plugins validate``, as a CI step would check them
before deploying: no network, the folders and the sites' base URL.
"""

from __future__ import annotations

import io
import subprocess
import sys
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
NS = "{http://www.sitemaps.org/schemas/sitemap/0.9}"
BASE_URL = "https://example.org/"  # site_url, html_baseurl and SITEURL of the three examples


@dataclass(frozen=True)
class Site:
    host: str
    command: tuple[str, ...]
    output: str

    def folder(self) -> Path:
        return HERE / self.host


SITES = (
    Site("mkdocs", ("-m", "mkdocs", "build", "--strict"), "site"),
    Site(
        "sphinx", ("-m", "sphinx", "-W", "-b", "dirhtml", ".", "_build/dirhtml"), "_build/dirhtml"
    ),
    Site("pelican", ("-m", "pelican", "content", "-s", "pelicanconf.py"), "output"),
)


def _count(sitemap: Path) -> int:
    """URLs in a sitemap, following an index to its children next to it."""
    root = ET.parse(sitemap).getroot()
    if root.tag == f"{NS}sitemapindex":
        children = [loc.text or "" for loc in root.iter(f"{NS}loc")]
        return sum(_count(sitemap.parent / child.rsplit("/", 1)[-1]) for child in children)
    return len(root.findall(f"{NS}url"))


def main() -> int:
    # Piped (CI, a log file), stdout is block-buffered while the builds and the validator write
    # straight through: every header would come out after what it heads. One line at a time.
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)
    failed = []
    built = []
    for site in SITES:
        if not site.folder().is_dir():
            continue
        print(f"== {site.host}: python {' '.join(site.command)}  (in example_sites/{site.host})")
        result = subprocess.run([sys.executable, *site.command], cwd=site.folder(), check=False)
        sitemap = site.folder() / site.output / "sitemap.xml"
        if result.returncode != 0 or not sitemap.is_file():
            failed.append(site.host)
            continue
        built.append((site.host, sitemap))
    print("\nSitemaps:")
    for host, sitemap in built:
        print(f"  {host:8} {sitemap.relative_to(HERE.parent)}  ({_count(sitemap)} URLs)")
    print("\nPages for humans (html_page), in each site's theme:")
    for host, sitemap in built:
        pages = [sitemap.parent / name for name in ("sitemap.html", "sitemap/index.html")]
        found = next((page for page in pages if page.is_file()), None)
        print(f"  {host:8} {found.relative_to(HERE.parent) if found else 'missing'}")
        if found is None:
            failed.append(f"{host} (no page for humans)")
    status = _validate([sitemap.parent for _, sitemap in built]) if built else 0
    if failed:
        print(f"build failed: {', '.join(failed)}", file=sys.stderr)
        return 1
    return status


def _validate(folders: list[Path]) -> int:
    """Run the validate command on the built sites, showing the command and what it says."""
    shown = [str(folder.relative_to(HERE.parent)) for folder in folders]
    print(f"\n== sitemap-plugins validate --base-url {BASE_URL} {' '.join(shown)}")
    command = [sys.executable, "-m", "sitemap_plugins", "validate", "--base-url", BASE_URL]
    result = subprocess.run([*command, *shown], cwd=HERE.parent, check=False)
    if result.returncode != 0:
        print(f"validate found problems (exit status {result.returncode})", file=sys.stderr)
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
