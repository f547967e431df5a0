"""Material's and Zensical's blogs: where a post is written, and which pages make one view.

The blog plugins write a post to ``<blog>/YYYY/MM/DD/<slug>`` (their default
``post_url_format``, ``{date}/{slug}``), the date being the post's ``date`` (or
``date.created``) and the slug its front matter's ``slug``, else its title made a slug. No
built page says which source it came from, so :mod:`.layouts` finds a post by computing that
path for each source, as the plugins do.

Which slug a title makes depends on who built the site: Material before 9.4.12 used
Python-Markdown's ``toc.slugify`` (ASCII only, runs of spaces and dashes one dash); Material
since and Zensical use ``pymdownx.slugs.slugify(case="lower")`` (Unicode kept, each space one
dash: ``Tips & tricks`` is ``tips--tricks``). Both are made, here without pymdown-extensions,
which ``generate`` may not have; each file name is looked up only where no other source was
found, so the one the site does not use costs nothing. A ``post_slugify`` of the author's own
is not followed.

A view (the blog's index, an archive, a category, an author's profile) lists its posts' excerpts
over pages of its own: ``<view>/index.html``, then ``<view>/page/2/index.html``... (the default
``pagination_url_format``, ``page/{page}``), or ``<view>.html`` then ``<view>/page/2.html``
without directory URLs. The MkDocs plugin dates every page of a view by the newest post of the
whole view, so :class:`View` names them all, from any one of them.

Material's blog writes ``<blog>/index.md`` into the source folder during the build when the site
has none (``# Blog`` and a blank line). Untracked, its time is the build's, on every CI build:
the MkDocs plugin tells that from when the build began; ``generate``, running after the build,
cannot, and knows the file by its text instead (:func:`written_by_material`).
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Final, NamedTuple

from sitemap_plugins.generate.front_matter import FrontMatter, parse_front_matter

__all__ = ["View", "post_paths", "slugify_ascii", "slugify_unicode", "written_by_material"]

_HEADING: Final = re.compile(r"^#[ \t]+(?P<title>.+?)[ \t#]*$", re.M)
_DAY: Final = re.compile(r"(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})")
_TAGS: Final = re.compile(r"</?[^>]*>")
_NOT_IN_SLUG: Final = re.compile(r"[^\w\- ]")
_LATER_PAGE: Final = re.compile(
    r"^(?:(?P<view>.+)/)?page/[1-9][0-9]*(?P<suffix>/index\.html|\.html)$", re.IGNORECASE
)
_INDEX: Final = "/index.html"
_MATERIAL_INDEX: Final = b"# Blog\n\n"
"""What Material's blog writes as the blog's ``index.md`` when a site has none (9.x)."""


def _inside(folder: str, name: str) -> str:
    return f"{folder}/{name}" if folder else name


class View(NamedTuple):
    """The pages of one blog view, named from any of them (see the module)."""

    first: str
    """Its first page, ``blog/archive/2024/index.html`` or ``blog/archive/2024.html``."""
    later: str
    """Its later pages, ``page/{}`` numbered: ``blog/archive/2024/page/{}/index.html``."""

    @classmethod
    def of(cls, relpath: str) -> View:
        """The view whose page is built at ``relpath`` (posix, relative to the site)."""
        match = _LATER_PAGE.match(relpath)
        if match is not None:
            view, indexed = match["view"] or "", match["suffix"].lower() == _INDEX
            first = _inside(view, "index.html") if indexed else f"{view}.html"
        else:
            first = relpath
            folder, name = posixpath.split(relpath)
            indexed = name.lower() == "index.html"
            view = folder if indexed else posixpath.splitext(relpath)[0]
        later = "page/{}" + (_INDEX if indexed else ".html")
        return cls(first, _inside(view, later))

    def pages(self, exists: Callable[[str], bool]) -> Iterator[str]:
        """The view's pages that ``exists`` says were built, in order: the numbered ones until
        the first missing."""
        if exists(self.first):
            yield self.first
        number = 2
        while exists(page := self.later.format(number)):
            yield page
            number += 1


def post_paths(path: Path, blog: str) -> tuple[tuple[str, ...], object] | None:
    """The URL paths a blog post may have with the default URL format, without a suffix
    (``blog/2024/01/10/hello``; one per slug style, see the module), and the post's own date
    (``date.updated``, else ``date.created``, as the MkDocs plugin takes it); None for a file
    that is no post."""
    try:
        data = path.read_bytes()
    except OSError:
        return None
    front, body = parse_front_matter(data)
    if not isinstance(front, FrontMatter):
        return None
    dates, _ = front.value("date")
    date = dates.get("created") if isinstance(dates, dict) else dates
    own = (dates.get("updated") or date) if isinstance(dates, dict) else dates
    day = _DAY.match(date) if isinstance(date, str) else None
    if day is None:
        return None
    slug, _ = front.value("slug")
    if isinstance(slug, str) and slug:
        slugs: tuple[str, ...] = (slug,)
    else:
        title, _ = front.value("title")
        if not isinstance(title, str) or not title:
            heading = _HEADING.search(data[body:].decode("utf-8", errors="replace"))
            title = heading["title"] if heading is not None else None
        if not title:
            return None
        slugs = tuple(dict.fromkeys((slugify_unicode(title), slugify_ascii(title))))
    paths = tuple(
        # As the plugins make it: the path normalised (an empty slug leaves the day's folder).
        posixpath.join(blog, posixpath.normpath(f"{day['y']}/{day['m']}/{day['d']}/{slug}"))
        for slug in slugs
    )
    return paths, own or None


def slugify_unicode(text: str) -> str:
    """What ``pymdownx.slugs.slugify(case="lower")`` makes of ``text``, the default of
    Material's blog since 9.4.12 and of Zensical's: NFC, tags dropped, lower case, every
    character but word characters, dashes and spaces dropped, each space a dash."""
    value = _TAGS.sub("", unicodedata.normalize("NFC", text)).strip().lower()
    return _NOT_IN_SLUG.sub("", value).replace(" ", "-")


def slugify_ascii(text: str) -> str:
    """What Python-Markdown's ``toc.slugify`` makes of ``text``, the default of Material's
    blog before 9.4.12: ASCII letters only, lower case, runs of spaces and dashes one dash."""
    value = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    value = re.sub(r"[^\w\s-]", "", value).strip().lower()
    return re.sub(r"[-\s]+", "-", value)


def written_by_material(path: Path) -> bool:
    """Whether the blog index at ``path`` holds what Material's blog writes there when a site
    has none (with Windows line ends too, as Python writes text there): then the build wrote it,
    and its file time says when the build ran, not when the page changed. A page the author
    wrote says more than that, and keeps its file time until it is committed."""
    try:
        with path.open("rb") as handle:
            data = handle.read(2 * len(_MATERIAL_INDEX) + 1)
    except OSError:
        return False
    return data.replace(b"\r\n", b"\n") == _MATERIAL_INDEX
