"""Where a built page's source lies, for each kind of site: the layouts ``--layout`` names.

A layout turns the path of an HTML file in the built site (``guide/install/index.html``) into
the files in the source folder it could have been made from, in the order the generator prefers
them (for MkDocs ``guide/install/index.md``, then ``guide/install.md``). The first that exists,
and that the generator can build to that path, is the page's source, dated by git as the
plugins date theirs. A name spelled as the built path is taken first; else one that differs
from it only in case, since MkDocs 2.0 and Hugo lower-case the paths they write (and some file
systems ignore case), but only where it is the one such name: of ``Case.md`` and ``case.md``,
both pages of their own, neither is ``CASE/``'s source.

Only existence is checked here, with one listing per source folder kept for the whole walk, so
finding the sources of a site costs one ``scandir`` per folder, not a ``stat`` per candidate.
A layout also knows which front matter keys say when its pages changed
(:meth:`SourceFinder.declared_date`), and where blog posts go, by their front matter.
"""

from __future__ import annotations

import os
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from sitemap_plugins.generate.blog import post_paths
from sitemap_plugins.generate.front_matter import FrontMatter
from sitemap_plugins.generate.hosts import Languages

__all__ = ["LAYOUTS", "SourceFinder"]

_MARKDOWN: Final = (".md", ".markdown", ".mdown", ".mkdn", ".mkd")
_HUGO: Final = (".md", ".markdown", ".html", ".htm", ".adoc", ".asciidoc", ".org", ".rst", ".pdc")
_JEKYLL: Final = (".md", ".markdown", ".mkdown", ".mkdn", ".mkd", ".textile", ".html")
_JEKYLL_POST: Final = re.compile(
    r"^(?:.*/)?(?P<y>\d{4})/(?P<m>\d{2})/(?P<d>\d{2})/(?P<slug>[^/]+?)(?:\.html|/index\.html)$"
)

Candidates = Callable[[str], Iterator[str]]
"""A built page's possible sources, the generator's preferred first: made one at a time,
since the first one nearly always exists."""


def _split(relpath: str) -> tuple[str, bool]:
    """The page's stem path (``guide/install``; ``""`` for the home page) and whether the
    file was a folder's ``index.html``."""
    folder, name = posixpath.split(relpath)
    stem, _ = posixpath.splitext(name)
    if stem == "index":
        return folder, True
    return posixpath.join(folder, stem), False


def _mkdocs(relpath: str) -> Iterator[str]:
    """MkDocs 1.x, MkDocs 2.0 and Zensical: ``x/index.html`` is ``x/index.md``, else
    ``x/README.md``, else ``x.md``; ``x.html`` (``use_directory_urls: false``) is ``x.md``.

    A folder's own index comes first: where ``x.md`` and ``x/index.md`` are both built to
    ``x/index.html`` MkDocs publishes the index (and Zensical refuses to build). Whether ``x.md``
    can be built at that path at all depends on the URL style, which only
    :meth:`SourceFinder.find` knows.
    """
    stem, is_index = _split(relpath)
    if is_index:
        for name in ("index", "README"):
            yield from (_inside(stem, name + ext) for ext in _MARKDOWN)
    if stem:
        yield from (stem + ext for ext in _MARKDOWN)


def _hugo(relpath: str) -> Iterator[str]:
    """Hugo's ``content/``: a page ``x.md``, a leaf bundle ``x/index.md``, a section or the
    home page ``x/_index.md``."""
    stem, is_index = _split(relpath)
    if stem:
        yield from (stem + ext for ext in _HUGO)
    if is_index:
        for name in ("index", "_index"):
            yield from (_inside(stem, name + ext) for ext in _HUGO)


def _jekyll(relpath: str) -> Iterator[str]:
    """Jekyll's source folder: ``about.md`` for ``about.html`` or ``about/index.html``
    (``permalink: pretty``), ``about/index.md``; posts are found by :meth:`SourceFinder.find`."""
    stem, is_index = _split(relpath)
    if stem:
        yield from (stem + ext for ext in _JEKYLL)
    if is_index:
        yield from (_inside(stem, "index" + ext) for ext in _JEKYLL)


def _inside(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


def _html(relpath: str) -> Iterator[str]:
    """A hand-written site: each page is its own source, at the same path."""
    yield relpath


LAYOUTS: Final[dict[str, Candidates]] = {
    "mkdocs": _mkdocs,
    "zensical": _mkdocs,
    "hugo": _hugo,
    "jekyll": _jekyll,
    "html": _html,
}
"""Every layout by the name ``--layout`` takes."""
_MODIFIED_KEYS: Final[dict[str, tuple[str, ...]]] = {
    "hugo": ("lastmod", "modified"),  # what Hugo's own .Lastmod reads, after git
    "jekyll": ("last_modified_at",),  # jekyll-last-modified-at's, read by jekyll-sitemap
}
"""The front matter keys in which a layout's authors say when a page last changed."""


@dataclass(frozen=True, slots=True)
class _Folder:
    """One source folder's names as spelled on disk, each with whether it is a folder, and
    the names by their lower case (``case.md`` -> ``Case.md``, ``case.md``)."""

    kinds: dict[str, bool]
    by_case: dict[str, tuple[str, ...]]

    def named(self, name: str, *, folder: bool) -> str | None:
        """``name`` as spelled on disk where a file (or with ``folder`` a folder) has it:
        exactly, else the one name of that kind that differs from it only in case. Where
        several do (``Case.md`` and ``case.md``, two pages on a file system that tells them
        apart) and none is ``name``, picking one would date and configure a page by another
        page's source: None, as where nothing is found."""
        kind = self.kinds.get(name)
        if kind is not None:
            return name if kind == folder else None
        found = [
            other for other in self.by_case.get(name.lower(), ()) if self.kinds[other] == folder
        ]
        return found[0] if len(found) == 1 else None


class SourceFinder:
    """Finds the source of each built page in ``source_dir``, by ``layout``.

    For the MkDocs and Zensical layouts, ``directory_urls`` is the host's
    ``use_directory_urls`` where its config was read: ``x.md`` is built to ``x/index.html``
    with it, to ``x.html`` without, never to both. Where it is not known (None), the built site
    in ``site_dir`` tells: beside an ``x.html``, ``x/index.html`` is not ``x.md``'s.

    ``languages`` are mkdocs-static-i18n's, where the host's config enables it: a page under
    ``<locale>/`` is then that language's file, else the default language's (a fallback page,
    dated by it as the MkDocs plugin dates it), and a page at the root the default language's.
    """

    def __init__(
        self,
        layout: str,
        source_dir: Path,
        *,
        directory_urls: bool | None = None,
        site_dir: Path | None = None,
        languages: Languages | None = None,
    ) -> None:
        self.layout = layout
        self.languages = languages if layout in ("mkdocs", "zensical") else None
        self.source_dir = source_dir
        self.directory_urls = directory_urls
        self.site_dir = site_dir
        self._candidates = LAYOUTS[layout]
        self._folders: dict[str, _Folder] = {}
        self._posts: dict[str, str] | None = None
        self._blog: dict[str, str] | None = None
        self._blogs: set[str] = set()  # the blogs' folders (those holding a posts folder)
        self._post_dates: dict[Path, object] = {}  # each blog post's own date, by its source

    def find(self, relpath: str) -> Path | None:
        """The source of the built page at ``relpath`` (posix, relative to the site), or None."""
        mkdocs = self.layout in ("mkdocs", "zensical")
        if self.languages is not None:
            found = self._translated(relpath, self.languages)
            if found is not None:
                return self.source_dir / found
        for candidate in self._candidates(relpath):
            found = self._exists(candidate)
            if found is not None and (not mkdocs or self._builds(candidate, relpath)):
                return self.source_dir / found
        if mkdocs:
            post = self._blog_posts().get(relpath.lower())
            if post is not None:
                return self.source_dir / post
        if self.layout == "jekyll":
            match = _JEKYLL_POST.match(relpath)
            if match is not None:
                key = f"{match['y']}-{match['m']}-{match['d']}-{match['slug']}".lower()
                post = self._jekyll_posts().get(key)
                if post is not None:
                    return self.source_dir / post
        return None

    def _translated(self, relpath: str, languages: Languages) -> str | None:
        """The source mkdocs-static-i18n builds to ``relpath``: the page's language's own
        file (``x.<locale>.md``, or ``<locale>/x.md`` in the folder structure), else the
        default language's, which it builds in that language's place (a fallback page)."""
        locale, _, rest = relpath.partition("/")
        if locale not in languages.others or not rest:
            locale, rest = languages.default, relpath
        wanted = [locale] if locale == languages.default else [locale, languages.default]
        for candidate in _mkdocs(rest):
            if not self._builds(candidate, rest):
                continue
            stem, ext = posixpath.splitext(candidate)
            for language in wanted:
                if languages.folders:
                    names = [f"{language}/{candidate}"]
                elif language == languages.default:
                    names = [candidate, f"{stem}.{language}{ext}"]
                else:
                    names = [f"{stem}.{language}{ext}"]
                for name in names:
                    found = self._exists(name)
                    if found is not None:
                        return found
        return None

    def copied_as_is(self, relpath: str) -> bool:
        """Whether the built HTML file at ``relpath`` is a file of the source folder that
        MkDocs or Zensical copied as it is (``docs/legacy/old.html``): a static file, not a
        page the host rendered, which the MkDocs plugin does not list either."""
        if self.layout not in ("mkdocs", "zensical"):
            return False
        return self._exists(relpath) is not None

    @property
    def any_case(self) -> bool:
        """Whether front matter keys match without regard to case: Hugo's do (``lastMod``)."""
        return self.layout == "hugo"

    def declared_date(self, source: Path, front: FrontMatter) -> object:
        """The date the source's front matter says the page last changed, or None: a
        Material or Zensical blog post's own ``date`` (``date.updated``, else ``date.created``,
        as the MkDocs plugin takes it; other pages' ``date`` often says when they were first
        written), Hugo's ``lastmod``, Jekyll's ``last_modified_at``."""
        if self.layout in ("mkdocs", "zensical"):
            return self._post_dates.get(source)  # read when the posts were found
        for key in _MODIFIED_KEYS.get(self.layout, ()):
            value, _ = front.value(key, any_case=self.any_case)
            if value:
                return value
        return None

    def post_date(self, relpath: str) -> object:
        """The own date of the blog post built at ``relpath``, or None when no post is there."""
        if self.layout not in ("mkdocs", "zensical"):
            return None
        found = self.find(relpath)
        return None if found is None else self._post_dates.get(found)

    def blog_index(self, source: Path) -> bool:
        """Whether ``source`` (a file :meth:`find` gave) is a blog's own page: the
        ``index.md`` beside the blog's ``posts`` folder, as Material and Zensical lay a blog
        out (``blog/index.md``, ``blog/posts/``). It shows the blog's newest posts, so the
        MkDocs plugin dates it by them too."""
        if self.layout not in ("mkdocs", "zensical") or source.name.lower() != "index.md":
            return False
        try:
            folder = source.parent.relative_to(self.source_dir).as_posix()
        except ValueError:
            return False
        return self._listing("" if folder == "." else folder).kinds.get("posts") is True

    def posts_folder(self, relpath: str) -> Path | None:
        """The posts folder of the Material or Zensical blog whose view (its own page, an
        archive, a category) is built at ``relpath``: the innermost blog whose folder holds
        it, or None where no blog does. A post deleted there left the view."""
        if self.layout not in ("mkdocs", "zensical"):
            return None
        self._blog_posts()
        holding = [blog for blog in self._blogs if not blog or relpath.startswith(blog + "/")]
        if not holding:
            return None
        blog = max(holding, key=len)
        return self.source_dir / blog / "posts" if blog else self.source_dir / "posts"

    def posts_folders(self) -> list[Path]:
        """Every blog's posts folder (see :meth:`posts_folder`)."""
        if self.layout not in ("mkdocs", "zensical"):
            return []
        self._blog_posts()
        return [self.source_dir / blog / "posts" if blog else self.source_dir / "posts"
                for blog in sorted(self._blogs)]  # fmt: skip

    def _builds(self, source: str, relpath: str) -> bool:
        """Whether MkDocs or Zensical builds ``source`` (a candidate of :func:`_mkdocs`) to
        ``relpath``: a folder's ``index.md`` or ``README.md`` always to its ``index.html``;
        ``x.md`` to ``x/index.html`` with directory URLs only, to ``x.html`` without only.

        Not told which (the host's config not read), the site says: ``x.md`` built ``x.html``
        where the site holds no ``x/index.html`` that only ``x.md`` could have built (no
        ``x/index.md`` goes before it), else ``x/index.html``, as with MkDocs' default: an
        ``x.html`` beside it is then another file, the search plugin's ``search.html`` beside
        the user's ``search/`` page."""
        stem, is_index = _split(relpath)
        if posixpath.splitext(source)[0].lower() != stem.lower():
            return True  # x/index.md, x/README.md
        directory_urls = self.directory_urls
        if directory_urls is None:
            site = self.site_dir
            directory_urls = (
                is_index
                if site is None
                else not (site / f"{stem}.html").is_file() or self._folder_page_of(stem, site)
            )
        return is_index == directory_urls

    def _folder_page_of(self, stem: str, site: Path) -> bool:
        """Whether the site's ``x/index.html`` can only be ``x.md``'s: no source of the
        folder's own (``x/index.md``, ``x/README.md``) goes before it, and it is no file MkDocs
        copied as it is (``docs/x/index.html``)."""
        folder_page = f"{stem}/index.html"
        if not (site / folder_page).is_file():
            return False
        own = [name for name in _mkdocs(folder_page) if not name.startswith(stem + ".")]
        return all(self._exists(name) is None for name in (*own, folder_page))

    def _exists(self, relpath: str) -> str | None:
        """``relpath`` as spelled on disk if such a file exists (see :meth:`_Folder.named`),
        else None."""
        real = ""
        parts = relpath.split("/")
        for number, part in enumerate(parts):
            name = self._listing(real).named(part, folder=number < len(parts) - 1)
            if name is None:
                return None
            real = f"{real}/{name}" if real else name
        return real

    def _listing(self, folder: str) -> _Folder:
        """The names in a source folder spelled as on disk, listed once."""
        listing = self._folders.get(folder)
        if listing is None:
            kinds: dict[str, bool] = {}
            try:
                with os.scandir(self.source_dir / folder) as entries:
                    for entry in entries:
                        try:
                            kinds[entry.name] = entry.is_dir()
                        except OSError:
                            continue
            except OSError:
                pass
            by_case: dict[str, list[str]] = {}
            for name in kinds:
                by_case.setdefault(name.lower(), []).append(name)
            listing = _Folder(kinds, {key: tuple(names) for key, names in by_case.items()})
            self._folders[folder] = listing
        return listing

    def _jekyll_posts(self) -> dict[str, str]:
        """Jekyll's posts (``_posts/`` and ``<category>/_posts/``, any depth) by their
        ``YYYY-MM-DD-slug`` in lower case."""
        if self._posts is None:
            self._posts = {}
            for folder, dirs, files in os.walk(self.source_dir):
                dirs[:] = sorted(d for d in dirs if not d.startswith((".", "_site")))
                relative = os.path.relpath(folder, self.source_dir).replace(os.sep, "/")
                if "_posts" not in relative.split("/"):
                    continue
                for name in sorted(files):
                    stem, ext = posixpath.splitext(name)
                    if ext.lower() in _JEKYLL:
                        path = posixpath.normpath(posixpath.join(relative, name))
                        self._posts.setdefault(stem.lower(), path)
        return self._posts

    def _blog_posts(self) -> dict[str, str]:
        """Material and Zensical blog posts (``<blog>/posts/**.md``) by the file their default
        URL format writes, in lower case: ``<blog>/YYYY/MM/DD/<slug>/index.html``, or
        ``<blog>/YYYY/MM/DD/<slug>.html`` without directory URLs (both where the URL style is
        not known: a post is looked for only where no other source was found).

        The slug is the post's ``slug``, else its title (``title``, else the first heading)
        made a slug as the blog plugins' defaults do (see :mod:`.blog`); the date is ``date``
        or ``date.created``. A post written to another URL (a custom ``post_url_format``) is not
        found, and gets its lastmod from the built file's history instead, if any.
        """
        if self._blog is None:
            self._blog = {}
            for folder, dirs, files in os.walk(self.source_dir):
                dirs[:] = sorted(d for d in dirs if not d.startswith("."))
                relative = os.path.relpath(folder, self.source_dir).replace(os.sep, "/")
                parts = relative.split("/")
                if "posts" not in parts[1:] and parts[0] != "posts":
                    continue
                blog = "/".join(parts[: parts.index("posts")])
                blog = "" if blog == "." else blog
                self._blogs.add(blog)
                for name in sorted(files):
                    if posixpath.splitext(name)[1].lower() not in _MARKDOWN:
                        continue
                    path = posixpath.normpath(posixpath.join(relative, name))
                    source = self.source_dir / path
                    post = post_paths(source, blog)
                    if post is None:
                        continue
                    stems, date = post
                    for stem in stems:
                        for built in self._built_post(stem.lower()):
                            if self._blog.setdefault(built, path) == path:
                                self._post_dates[source] = date
        return self._blog

    def _built_post(self, stem: str) -> tuple[str, ...]:
        """The files a post whose URL is ``stem`` is written to, by the URL style."""
        if self.directory_urls is None:
            return (f"{stem}/index.html", f"{stem}.html")
        return (f"{stem}/index.html",) if self.directory_urls else (f"{stem}.html",)
