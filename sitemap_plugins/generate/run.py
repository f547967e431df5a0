"""``generate``'s two jobs, each a stream into the core: a built site, or a URL list.

A built site is walked once to know every file git must date (one git pass needs them all at
once), while that pass already runs in the background: the same walk reads the first pages'
heads beside git and holds what they say (a bounded number of them). The pages then go to the
core's streaming build (:meth:`~sitemap_plugins.core.SitemapBuilder.build_stream`), which sorts
and deduplicates through sorted runs on disk and streams into the writer; only a site larger
than what is held is walked a second time, for the rest of its heads. A URL list is read line by
line into the same build. Neither holds all the pages in memory."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import IO, BinaryIO, Final

from sitemap_plugins.core import LeftOut, Options, Page, Reporter, SitemapBuilder, Summary
from sitemap_plugins.core.git_dates import DateLookup, Undated, Why, run_git
from sitemap_plugins.core.html import head_of, html_lang
from sitemap_plugins.core.human_page import Listing, holds_a_listing, html_page_relpath
from sitemap_plugins.core.publish import recorded_state
from sitemap_plugins.core.report import Code
from sitemap_plugins.core.spill import DEFAULT_CHUNK
from sitemap_plugins.generate.blog import written_by_material
from sitemap_plugins.generate.errors import InputError
from sitemap_plugins.generate.file_checks import is_file
from sitemap_plugins.generate.folder_meta import FolderMeta
from sitemap_plugins.generate.generator_pages import (
    dirhtml_builds,
    generator_pages,
    pelican_subsites,
)
from sitemap_plugins.generate.host_sitemap import host_sitemaps
from sitemap_plugins.generate.hosts import HostConfig
from sitemap_plugins.generate.layouts import SourceFinder
from sitemap_plugins.generate.settings import Settings
from sitemap_plugins.generate.site import BuiltFile, SiteReader, walk_site
from sitemap_plugins.generate.urllist import url_list_pages
from sitemap_plugins.material_sitemap import material_misses_sitemap

__all__ = ["Progress", "display", "generate_site", "generate_urls"]

_HELD: Final = 10_000
"""Pages described in the first walk, while the history pass runs, and held for the build: a
site up to this size has all its heads read beside git; a larger one reads the rest after the
pass, in a second walk, so that memory stays bounded (under 1 KB a page held). Either way each
head is read once."""

Progress = Callable[[int, "int | None"], None]
"""Called with (pages done, pages in all or None when unknown); -1 done means finished."""


def display(path: Path) -> str:
    """A path as messages show it: relative to the current folder when it lies inside."""
    try:
        return (
            os.path.relpath(path) if Path(path).resolve().is_relative_to(Path.cwd()) else str(path)
        )
    except (OSError, ValueError):
        return str(path)


def generate_site(
    settings: Settings,
    reporter: Reporter,
    *,
    progress: Progress | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> Summary:
    """Write the sitemap of the built site ``settings.site_dir`` into it.

    Raises :class:`~.errors.InputError` for a folder that is not there or cannot be read
    (listed and entered), and the core's
    :class:`~sitemap_plugins.core.StrictError` / :class:`~sitemap_plugins.core.PublishError`.
    A built file or folder that cannot be read is a warning of kind ``Code.UNREADABLE``
    naming it, and the other pages are listed (the command line then exits with status 2).
    """
    site_dir = settings.site_dir
    if site_dir is None or not site_dir.is_dir():
        where = _where(settings, "site_dir")
        raise InputError(f"{where}{site_dir}: no such folder (build the site first)")
    _check_readable(site_dir, _where(settings, "site_dir"))
    if settings.source_dir is not None and not settings.source_dir.is_dir():
        where = _where(settings, "source")
        what = "" if where else " (the --source folder)"
        raise InputError(f"{where}{settings.source_dir}: no such folder{what}")
    if settings.options.base_url is None:  # settings always set it; a library caller may not
        raise InputError("no base URL: set the base_url option")
    host_warnings: list[str] = []  # said through the builder's reporter, which --strict counts
    host_files = host_sitemaps(
        site_dir, settings.options, settings.explicit, warn=host_warnings.append
    )
    options = host_files.options
    base_url = str(options.base_url)
    builder = SitemapBuilder(
        options,
        reporter,
        base_url_setting="--base-url",
        cache_dir=settings.cache_dir,
        source_folders=[settings.source_dir] if settings.source_dir is not None else [],
    )
    for message in host_warnings:
        builder.reporter.warning(Code.PUBLISH, message)
    unread = _material_misses_sitemap(settings, options)
    if unread is not None:  # counted, so that --strict fails before anything is written
        builder.reporter.warning(Code.CONFLICT, unread)
    finder = None
    if settings.layout is not None and settings.source_dir is not None:
        host = _mkdocs_family_host(settings)
        finder = SourceFinder(
            settings.layout,
            settings.source_dir,
            directory_urls=host.use_directory_urls if host is not None else None,
            site_dir=site_dir,
            languages=host.i18n if host is not None else None,
        )
    project_dirs = (Path.cwd(), site_dir.absolute().parent)  # where pelicanconf.py may lie
    reader = SiteReader(
        site_dir,
        base_url,
        finder=finder,
        keep_index=settings.keep_index_html,
        label=display(site_dir),
        images=options.images,
        warn=lambda message: builder.reporter.warning(Code.BAD_METADATA, message),
        show=display,
        read_in=_snippet_reader(settings, builder.reporter) if finder is not None else None,
        folder_sitemap=_folder_sitemap(settings, builder.reporter) if finder is not None else None,
        warn_unreadable=lambda message: builder.reporter.warning(Code.UNREADABLE, message),
        generator_pages=generator_pages(site_dir, project_dirs, _has_source(finder)),
        in_dirhtml_build=dirhtml_builds(site_dir),
        build_tops=pelican_subsites(site_dir, project_dirs),
    )
    if settings.source_dir is not None:
        builder.start(settings.source_dir)  # the history pass runs while the pages are read
    wanted = options.lastmod_sources
    # Asked first, so that a built site git does not track (the usual ignored site/) costs no
    # memory: only committed built files are kept for the git pass.
    tracked = _tracked(site_dir) if "git" in wanted else set()

    # The page for humans an earlier run wrote is ours, never a page of the site: while the
    # option is on (it is replaced), and after (the record knows it; it is removed). So is
    # the earlier page a run killed mid-publication left where the record names the new one;
    # ours to replace, or to remove once the option is off. One the record names that was
    # changed since is the user's, and one it does not name the site's own: each listed like
    # any page and never written over, even where it still holds our listing.
    page_for_humans = html_page_relpath(options.filename)
    own_page = site_dir / page_for_humans
    state = recorded_state(site_dir, page_for_humans)
    left_by_a_kill = state == "interrupted" and holds_a_listing(own_page)
    skip = state == "ours" or left_by_a_kill
    stale_page = (page_for_humans,) if left_by_a_kill and not options.html_page else ()
    site_files = (
        {page_for_humans: display(own_page)}
        if options.html_page and not skip and is_file(own_page)
        else {}
    )

    def files(*, first: bool = False) -> Iterator[BuiltFile]:
        # What cannot be read is said once, in the first walk.
        found = walk_site(site_dir, reader.unreadable if first else None)
        if not skip:
            return found
        return (file for file in found if file.relpath != page_for_humans)

    sources: set[Path] = set()
    committed: set[Path] = set()
    by_build: set[Path] = set()  # sources the build wrote itself
    held: dict[str, Page | LeftOut] = {}
    total = 0
    for file in files(first=True):
        total += 1
        path, is_built = source = reader.source_of(file)
        if len(held) < _HELD:
            held[file.relpath] = reader.page(file, source=source)
            if progress is not None:
                progress(total, None)
        if not is_built:
            found, *read_in = reader.sources(path, is_built)
            sources.add(found)
            fresh = [name for name in read_in if name not in sources]
            if fresh:  # a snippet beyond the source folder joins the pass now, not after the walk
                sources.update(fresh)
                builder.widen(fresh)
            if finder is not None and finder.blog_index(found) and written_by_material(found):
                by_build.add(found)
        elif file.relpath in tracked:
            committed.add(path)
    del tracked
    folders = finder.posts_folders() if finder is not None else []
    dates = _dates(builder, sources, committed, by_build, folders)
    described = held.values() if len(held) == total else _read_again(reader, files(), held)
    pages = _pages(reader, described, total, builder.reporter, progress)
    lang = _site_language(site_dir) if options.html_page else "en"
    summary = builder.build_stream(
        pages,
        site_dir,
        dates=dates,
        chunk=chunk,
        html_page=_plain_page(lang),
        replaces=(*host_files.replaces, *stale_page),
        in_place_of_host=host_files.in_place_of_host,
        host_files=site_files,
        named_back=True,  # each page's head names its versions: heads may disagree
    )
    if "git" in options.lastmod_sources:
        _say_unsourced(summary.undated[Why.NOT_LOOKED_UP], reader, builder.reporter)
    return summary


def _where(settings: Settings, key: str) -> str:
    """How a message about the path ``key`` begins: with the config file and the key where
    the file gave it (its paths are relative to the file, not to the current folder)."""
    if key in settings.from_config and settings.config_file is not None:
        return f"{display(settings.config_file)}: {key}: "
    return ""


def _material_misses_sitemap(settings: Settings, options: Options) -> str | None:
    """Why the host's theme, Material's (see :mod:`sitemap_plugins.material_sitemap`), would
    find no ``sitemap.xml`` this run writes, as the MkDocs plugin says it, naming the host's
    config file and where the option was given; None where no host config was read."""
    host = settings.host
    if host is None:
        return None

    def named(option: str, value: str) -> str:
        if option == "filename" and option not in settings.given_at:
            option, value = "format", str(options.format)  # the file the format names
            shown = f"{value!r} ({options.filename})"
        else:
            shown = repr(value)
        place = settings.given_at.get(option)
        if place is None:
            return f"the option {option} {shown}"
        if place.startswith("--"):
            return f"{place} {shown}"
        return f"{option} {shown} in {display(Path(place))}"

    unread = material_misses_sitemap(
        host.theme, host.theme_features, host.version_provider, options, named
    )
    return None if unread is None else f"{display(host.file)}: {unread}"


def _check_readable(site_dir: Path, where: str) -> None:
    """Raise :class:`~.errors.InputError` where the site folder cannot be listed or entered
    (a site built by another user under umask 077): nothing of it can be read, and no sitemap
    written into it, so that is one line, not a warning for each thing looked at."""
    try:
        with os.scandir(site_dir) as entries:
            next(entries, None)
        os.stat(os.path.join(site_dir, os.curdir))  # noqa: PTH116, PTH118 - Path drops "."
    except OSError as error:
        cause = error.strerror or str(error)
        raise InputError(f"{where}{display(site_dir)}: cannot read the folder ({cause})") from None


def _has_source(finder: SourceFinder | None) -> Callable[[str], bool] | None:
    """Whether a built file has a source, where a MkDocs or Zensical layout finds sources as the
    host saves them: a ``search.html`` rendered from ``docs/search.md`` is the user's page, even
    when kept out of the search index (see :mod:`.generator_pages`)."""
    if finder is None or finder.layout not in ("mkdocs", "zensical"):
        return None
    return lambda relpath: finder.find(relpath) is not None


def _mkdocs_family_host(settings: Settings) -> HostConfig | None:
    """The host's config where it renders the sources a MkDocs or Zensical layout finds: only
    then do its Markdown extensions and plugins say what a page read."""
    if settings.layout not in ("mkdocs", "zensical"):
        return None
    return settings.host


def _snippet_reader(
    settings: Settings, reporter: Reporter
) -> Callable[[Path], tuple[Path, ...]] | None:
    """What each source reads in with ``pymdownx.snippets``, where the host's config enables
    it for a MkDocs or Zensical layout (see :mod:`.snippets`); None elsewhere."""
    host = _mkdocs_family_host(settings)
    if host is None or host.snippets is None:
        return None
    try:
        from sitemap_plugins.generate.snippets import SnippetReader

        return SnippetReader(host.snippets, host.file.parent).read_in
    except ImportError:
        problem = "pymdown-extensions is not installed here"
    except Exception as error:  # Python-Markdown refuses settings in its own ways
        problem = f"its settings were refused: {error}"
    reporter.warning(
        Code.BAD_LASTMOD,
        f"{display(host.file)}: markdown_extensions enables pymdownx.snippets, but {problem}: "
        "pages are dated by their own sources, not by the files they read in",
    )
    return None


def _folder_sitemap(
    settings: Settings, reporter: Reporter
) -> Callable[[Path, object], object] | None:
    """Each source's ``sitemap`` merged over its folders' meta files, where the host's config
    enables the meta plugin for a MkDocs or Zensical layout (see :mod:`.folder_meta`)."""
    host = _mkdocs_family_host(settings)
    if host is None or host.meta_file is None or settings.source_dir is None:
        return None
    meta = FolderMeta(
        settings.source_dir,
        host.meta_file,
        warn=lambda message: reporter.warning(Code.BAD_METADATA, message),
        show=display,
    )
    return meta.sitemap


def _read_again(
    reader: SiteReader, files: Iterable[BuiltFile], held: dict[str, Page | LeftOut]
) -> Iterator[Page | LeftOut]:
    """Each file's description: the one held from the first walk, else read now."""
    for file in files:
        item = held.pop(file.relpath, None)
        yield reader.page(file) if item is None else item


def _plain_page(lang: str) -> Callable[[Listing], str]:
    """The page for humans, plain: ``generate`` runs after another tool's build and has no
    theme to render through. The core publishes it with the sitemap, as one of its files
    (see :meth:`~sitemap_plugins.core.SitemapBuilder.build_stream`)."""
    return lambda listing: listing.document(lang=lang)


def _site_language(site_dir: Path) -> str:
    """The ``lang`` of the site's home page, for the plain page to say the same; else English."""
    return html_lang(head_of(site_dir / "index.html")) or "en"


def _dates(
    builder: SitemapBuilder,
    sources: set[Path],
    committed: set[Path],
    by_build: set[Path],
    folders: list[Path],
) -> DateLookup:
    """Every file's date in one lookup: the sources by git (and a working-tree change by its
    time, but not one of ``by_build``, which the build wrote), the committed built files by git
    only; and when a file last left each of ``folders`` (a blog's posts)."""
    wanted = builder.options.lastmod_sources
    use_git, use_mtime = "git" in wanted, "mtime" in wanted
    files = sources | committed
    if not (use_git or use_mtime) or not files:
        return DateLookup({}, {})
    dates = builder.file_dates.lookup(
        files, within=files, use_git=use_git, use_mtime=use_mtime, removals_in=folders
    )
    for path in committed:
        # A built file's time is the build's: changed since its commit, it has no date.
        if path in dates.dates and dates.dates[path][1] == "mtime":
            del dates.dates[path]
            dates.undated[path] = Undated(Why.UNCOMMITTED)
    for path in by_build:
        # Its time is the build's (on CI, every build's), as the plugins find it for a source
        # written after the build began: no date, and the page is as new as what it lists.
        if path in dates.dates and dates.dates[path][1] == "mtime":
            del dates.dates[path]
            dates.undated[path] = Undated(Why.WRITTEN_BY_BUILD)
    return dates


def _tracked(site_dir: Path) -> set[str]:
    """The files git tracks under ``site_dir``, relative to it (posix), or none.

    Asked once, so that the built files of a site git ignores (the usual ``site/`` in
    ``.gitignore``) never reach the history pass.
    """
    try:
        proc = run_git(["-c", "core.quotepath=off", "ls-files", "-z", "--", "."], site_dir)
    except OSError:
        return set()
    if proc.returncode != 0:
        return set()
    return {os.fsdecode(name) for name in proc.stdout.split(b"\0") if name}


def _pages(
    reader: SiteReader,
    described: Iterable[Page | LeftOut],
    total: int,
    reporter: Reporter,
    progress: Progress | None,
) -> Iterator[Page | LeftOut]:
    """Each built file as the core should see it; at the end, what the walk found amiss."""
    for done, item in enumerate(described, 1):
        yield item
        if progress is not None:
            progress(done, total)
    if progress is not None:
        progress(-1, total)
    for origin, count in sorted(reader.foreign_canonicals.items()):
        reporter.warning(
            Code.BAD_URL,
            f"{count} page{'s' if count != 1 else ''} left out: their canonical link points to "
            f"{origin}, another site than the base URL {reader.base_url} (is the base URL "
            "right?)",
        )
    if reader.outside_canonicals:
        count = reader.outside_canonicals
        reporter.info(
            f"sitemap: {count} page{'s' if count != 1 else ''} left out: their canonical link "
            f"points outside the base URL {reader.base_url}, "
            f"{'such as' if count != 1 else 'to'} {reader.outside_canonical} (is the base URL "
            "right?)"
        )
    for origin, count in sorted(reader.foreign_alternates.items()):
        reporter.info(
            f"sitemap: {count} hreflang link{'s' if count != 1 else ''} to {origin} left out of "
            f"the alternates: generate names language versions on {reader.base_url}'s host only"
        )
    _say_without_alternates(reader, reporter)


def _say_without_alternates(reader: SiteReader, reporter: Reporter) -> None:
    """One line for each reason pages got no alternates (see
    :meth:`~.site.SiteReader._translations`), naming a page and what its head says, for the
    user to look at."""
    count = reader.langless_alternates
    if count and reader.langless_example is not None:
        such = "such as " if count != 1 else ""
        reporter.info(
            f"sitemap: {count} page{'s' if count != 1 else ''} without alternates: their "
            "hreflang links leave the page itself out, and no <html lang> says which language "
            f"it is ({such}{reader.langless_example})"
        )
    count = reader.own_language_elsewhere
    if count and reader.own_language_example is not None:
        such = "such as " if count != 1 else ""
        page, lang, url = reader.own_language_example
        reporter.info(
            f"sitemap: {count} page{'s' if count != 1 else ''} without alternates: their "
            "hreflang link for their own language points to another URL, not to the page "
            f'({such}{page}: <html lang="{lang}">, hreflang="{lang}" to {url})'
        )


def _say_unsourced(unsourced: int, reader: SiteReader, reporter: Reporter) -> None:
    """One line for the listed pages git could not date because nothing dated was found for
    them: their built file stands in for a source, and only a committed one is dated (see
    :func:`_dates`). The core counts them (:attr:`~sitemap_plugins.core.Summary.undated`),
    since only it knows which pages the sitemap lists: an excluded page needs no date."""
    if unsourced:
        reporter.info(
            f"sitemap: {unsourced} page{'s have' if unsourced != 1 else ' has'} no lastmod: "
            "no date in the page's head, no source found for it"
            + ("" if reader.finder is not None else " (give --source and --layout)")
            + ", and the built file is not committed"
        )


def generate_urls(
    settings: Settings,
    reporter: Reporter,
    *,
    stdin: BinaryIO | None = None,
    progress: Progress | None = None,
    chunk: int = DEFAULT_CHUNK,
) -> Summary:
    """Write the sitemap of the URL list ``settings.urls`` (``-``: ``stdin``) into
    ``settings.site_dir``, created if missing."""
    output = settings.site_dir
    base_url = settings.options.base_url
    if output is None or settings.urls is None or base_url is None:
        raise InputError("a URL list needs an output folder, the list and a base URL")
    try:
        output.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        where = _where(settings, "site_dir")
        raise InputError(f"{where}{output}: cannot create the folder: {error.strerror}") from None
    builder = SitemapBuilder(settings.options, reporter, base_url_setting="--base-url")
    label = "<stdin>" if settings.urls == "-" else display(Path(settings.urls))

    def counted(done: int) -> None:
        if progress is not None:
            progress(done, None)

    stream: IO[bytes]
    if settings.urls == "-":
        if stdin is None:
            raise InputError("--urls -: no standard input to read")
        stream = stdin
    else:
        try:
            stream = open(settings.urls, "rb")  # noqa: SIM115 - closed below
        except OSError as error:
            where = _where(settings, "urls")
            raise InputError(f"{where}{label}: cannot read: {error.strerror or error}") from None
    try:
        pages = url_list_pages(_lines(stream, label), label, base_url, builder.reporter, counted)
        return builder.build_stream(
            pages, output, dates=DateLookup({}, {}), chunk=chunk, html_page=_plain_page("en")
        )
    finally:
        if stream is not stdin:
            stream.close()


def _lines(stream: IO[bytes], label: str) -> Iterator[bytes]:
    try:
        yield from stream
    except OSError as error:
        raise InputError(f"{label}: cannot read: {error.strerror or error}") from None
