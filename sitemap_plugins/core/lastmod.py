"""Which date is a page's ``lastmod``: the one place that decides it, for every host.

The order is the user's ``lastmod_sources``: a date the author wrote (``sitemap.lastmod``, then
the host's own modified field), the git history of the page's files, a working-tree change's file
time, and the build time only when asked for. A page without a source of its own (a listing) is
as new as what it lists, and as the last time an item left the folders its items come from: an
item gone changed the listing too, and no item it still lists shows that. A date in the future
is no modification date, and a page nothing can date gets none: the reason (a shallow clone, no
git) is said once per build with its fix, never once per page. Nor is a page dated by some of
its files (or items) while another, which git cannot date, may have changed after them (or an
item may have left since): that date would be older than the page's last change.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Final, NamedTuple

from sitemap_plugins.core.dates import as_written, format_lastmod, parse_lastmod, sort_key
from sitemap_plugins.core.git_dates import DateLookup, FileDate, Undated, Why
from sitemap_plugins.core.model import Lastmod, Page
from sitemap_plugins.core.options import Options
from sitemap_plugins.core.report import Code, Reporter

__all__ = ["CLOCK_SKEW", "Decision", "LastmodRules", "is_future", "say_why_undated"]

CLOCK_SKEW: Final = dt.timedelta(minutes=10)
"""How far ahead of this machine's clock a time may be and still count as now.

A commit made on a laptop whose clock runs a few minutes fast and built at once by CI is not a
date in the future; a time zone set wrong (hours) or a typo in a year is."""
_AHEAD_OF_UTC: Final = dt.timedelta(hours=14)
"""The most any time zone is ahead of UTC (Kiribati): a bare date is in the future only when no
one on Earth has reached that day yet."""
_DECLARED: Final = frozenset({"metadata", "listed pages"})
_NOT_LOOKED_UP: Final = Undated(Why.NOT_LOOKED_UP)
_MAY_BE_NEWER: Final = frozenset(
    {
        Why.SHALLOW,
        Why.TREELESS,
        Why.NO_GIT,
        Why.GIT_FAILED,
        Why.NOT_TRACKED,
        Why.NO_REPOSITORY,
        Why.IGNORED,
        Why.UNCOMMITTED,
    }
)
"""Why a file may have changed after every date known of a page's other files or items: it has
a history git could not read (a shallow or treeless clone, no git, git failing), or changes no
commit records (a copy with no repository, an ignored file, an edit whose file time is not
wanted). Another undated file tells nothing of the page's changes: one outside the sources'
repositories never dates a page, one the build wrote is made of what the build reads, and one
not looked up was left out by the caller (``lastmod_sources`` without files)."""


class Decision(NamedTuple):
    """A page's lastmod as it will be written, where it came from, and why it has none."""

    value: Lastmod | None
    origin: str
    undated: Undated | None = None


class LastmodRules:
    """The lastmod of each page of one build, from the files' dates looked up for the build."""

    def __init__(
        self,
        options: Options,
        reporter: Reporter,
        files: DateLookup,
        now: dt.datetime,
        naive_tz: dt.tzinfo = dt.timezone.utc,
    ) -> None:
        self.options = options
        self.reporter = reporter
        self.files = files
        self.now = now
        self.naive_tz = naive_tz
        self._latest = now + CLOCK_SKEW  # is_future's bound for a time, made once a build

    def decide(self, page: Page, meta: Mapping[str, Any]) -> Decision:
        """The first source in ``lastmod_sources`` that dates the page, as it will be written.

        With ``lastmod_format: date`` a declared time keeps the day its author wrote, an instant
        (a commit) becomes its UTC day.
        """
        found = self._first(page, meta)
        style = self.options.lastmod_format
        if found.value is None or style != "date":  # written as found: most sites' style
            return found
        value = as_written(found.value, style, declared=found.origin in _DECLARED)
        return Decision(value, found.origin)

    def _first(self, page: Page, meta: Mapping[str, Any]) -> Decision:
        files_done = False
        undated: Undated | None = None
        for source in self.options.lastmod_sources:
            if source == "metadata":
                explicit = self._explicit(page, meta)
                if explicit is not None and not self._future(page, explicit, "metadata"):
                    return Decision(explicit, "metadata")
            elif source in ("git", "mtime") and not files_done:
                files_done = True
                dated, undated = self._from_files(page)
                if dated is not None and self._future(page, dated[0], dated[1]):
                    dated = None
                if page.sources and _lists(page):
                    view = self._with_listed(page, dated, undated)
                    if view is not None:
                        return view
                elif dated is not None:
                    return Decision(*dated)
            elif source == "build":
                return Decision(self.now, "build time")
            if not page.sources and _lists(page):
                listed = self._listed(page)
                if listed is not None:
                    if listed.value is not None:
                        return listed
                    undated = listed.undated  # why an item may be newer: said with the others
        if undated is None and _lists(page):
            undated = self._why_items_undated(page)
        return Decision(None, "none", undated)

    def _explicit(self, page: Page, meta: Mapping[str, Any]) -> Lastmod | None:
        if page.updated is None and not meta:  # most pages: nothing declared
            return None
        for label, value in (("sitemap.lastmod", meta.get("lastmod")), ("date", page.updated)):
            if value is None or value == "":
                continue
            try:
                return parse_lastmod(value, naive_tz=self.naive_tz)
            except ValueError as error:
                self.reporter.warning(
                    Code.BAD_LASTMOD,
                    f"{page.origin}: {label} {value!r} is not a date (allowed: {error}); ignored",
                )
        return None

    def _from_files(self, page: Page) -> tuple[FileDate | None, Undated | None]:
        """The newest date of the page's files, unless a file git cannot date may be newer
        (see :data:`_MAY_BE_NEWER`): an include git ignores, say.

        In a shallow clone, a file traced to a boundary commit changed at the latest then; if
        another file of the page changed after that, the page's date is still exact.
        """
        dates, undated = self.files.dates, self.files.undated
        sources = page.sources
        if len(sources) == 1:  # most pages: one source, dated
            dated = dates.get(sources[0])
            if dated is not None:
                return dated, None
        known = [dates[path] for path in sources if path in dates]
        missing = [undated[path] for path in sources if path in undated]
        if known:
            date, origin = max(known, key=lambda item: sort_key(item[0]))
            newer = _may_be_newer(date, missing)
            if newer is None:
                return (date, origin), None
            return None, newer
        shallow = [item for item in missing if item.reason is Why.SHALLOW]
        if shallow:
            return None, shallow[0]
        if not sources:
            return None, None
        return None, undated.get(sources[0], _NOT_LOOKED_UP)

    def _with_listed(
        self, page: Page, dated: FileDate | None, undated: Undated | None
    ) -> Decision | None:
        """A page of its own that also lists others (a Material blog's front page, with its
        ``index.md`` and its newest posts): it changes when its source does and when what it
        lists does, so it is as new as the newest of both. An item git cannot date (or one
        that may have left since) may be the newest: no lastmod then, unless its own source is
        newer than any such item can be (one a shallow clone bounds); and the page's own
        source, undated, must be no newer than what the items say (a source the build wrote,
        made of what it lists, is not)."""
        listed = self._listed(page)
        if listed is None:
            if dated is None:
                return None
            newer = self._newer_item(page, dated[0])
            return Decision(*dated) if newer is None else Decision(None, "none", newer)
        if listed.value is None:
            if dated is not None and self._newer_item(page, dated[0]) is None:
                return Decision(*dated)  # what items may be newer than is older than its source
            return listed  # an item may be newer than anything known
        if dated is not None:
            newer_items = sort_key(listed.value) > sort_key(dated[0])
            return listed if newer_items else Decision(*dated)
        if undated is None or _may_be_newer(listed.value, [undated]) is None:
            return listed
        return None

    def _listed(self, page: Page) -> Decision | None:
        """A listing is as new as its newest item, whichever step dated it, or as the last
        time an item left the folders they come from, if that is newer: a listing that lost
        its newest item is not as old as the item now newest. An item dated in the future was
        reported with its own page; its date is not spread to the listings."""
        listed: list[tuple[Lastmod, str]] = []
        for raw in page.listed_dates:
            try:
                listed.append((parse_lastmod(raw, naive_tz=self.naive_tz), "listed pages"))
            except ValueError:
                continue  # the item's own page says what is wrong with it
        dates = self.files.dates
        listed += [dates[path] for path in page.listed_sources if path in dates]
        removals = self.files.removals
        for folder in page.listed_folders:
            removal = removals.get(folder)
            if removal is not None and not isinstance(removal, Undated):
                listed.append(removal)
        if not listed:
            return None
        newest = max(listed, key=lambda item: sort_key(item[0]))
        if is_future(newest[0], self.now):  # rare: only then is every item looked at
            listed = [item for item in listed if not is_future(item[0], self.now)]
            if not listed:
                return None
            newest = max(listed, key=lambda item: sort_key(item[0]))
        newer = self._newer_item(page, newest[0])
        if newer is not None:  # an item git cannot date may be the newest
            return Decision(None, "none", newer)
        return Decision(*newest)

    def _newer_item(self, page: Page, date: Lastmod) -> Undated | None:
        """Why an item the page lists may have changed after ``date``, or one may have left
        its folders since, or None if none may."""
        undated = self.files.undated
        missing = (
            [undated[path] for path in page.listed_sources if path in undated] if undated else []
        )
        removals = self.files.removals
        if removals:
            for folder in page.listed_folders:
                removal = removals.get(folder)
                if isinstance(removal, Undated):
                    missing.append(removal)
        if not missing:  # most builds: git dated every file, and saw every removal
            return None
        return _may_be_newer(date, missing)

    def _why_items_undated(self, page: Page) -> Undated | None:
        """Why a listing that nothing dates has no lastmod: an item, or the leaving of one,
        that git cannot date (a shallow clone's older change, a copy without ``.git``), so
        that the line said for that cause counts the listing with the pages."""
        undated = self.files.undated
        missing = [undated[path] for path in page.listed_sources if path in undated]
        removals = self.files.removals
        missing += [
            removal
            for folder in page.listed_folders
            if isinstance(removal := removals.get(folder), Undated)
        ]
        return next((item for item in missing if item.reason in _MAY_BE_NEWER), None)

    def _future(self, page: Page, value: Lastmod, origin: str) -> bool:
        if isinstance(value, dt.datetime):
            if value <= self._latest:  # is_future's answer, its bound made once
                return False
        elif not is_future(value, self.now):
            return False
        self.reporter.warning(
            Code.BAD_LASTMOD,
            f"{page.origin}: lastmod {format_lastmod(value, 'datetime')} (from {origin}) is in "
            "the future; not written",
        )
        return True


def _lists(page: Page) -> bool:
    """Whether ``page`` lists other pages (see :class:`~.model.Page`)."""
    return bool(page.listed_dates or page.listed_sources or page.listed_folders)


def _may_be_newer(date: Lastmod, missing: list[Undated]) -> Undated | None:
    """The first file of ``missing`` that may have changed after ``date`` (see
    :data:`_MAY_BE_NEWER`), or None. A file a shallow clone traced to a boundary commit changed
    at the latest then: ``date``, no older than that bound, is still the newest; a file without
    a bound (author dates, or no history at all) may be newer than anything."""
    for item in missing:
        if item.reason not in _MAY_BE_NEWER:
            continue
        if item.bound is None or sort_key(date) < item.bound:
            return item
    return None


def is_future(value: Lastmod, now: dt.datetime) -> bool:
    """Whether ``value`` lies ahead of ``now``, allowing for clock skew and time zones.

    A bare date names a calendar day without a zone, so it is in the future only once it is
    ahead of the day in the zone furthest ahead; a time is, past :data:`CLOCK_SKEW`.
    """
    if isinstance(value, dt.datetime):
        return value > now + CLOCK_SKEW
    return value > (now.astimezone(dt.timezone.utc) + _AHEAD_OF_UTC).date()


_WARNINGS: Final[Mapping[Why, str]] = {
    Why.SHALLOW: (
        "{pages} no lastmod: {roots} {is_a} shallow clone{s}, so git cannot see when they last "
        "changed (before the oldest commit the clone holds). Fetch the whole history: "
        "'fetch-depth: 0' for actions/checkout on GitHub Actions, 'GIT_DEPTH: 0' on GitLab CI, "
        "'git fetch --unshallow' in build.jobs.post_checkout on Read the Docs (or before the "
        "build elsewhere){fetch}"
    ),
    Why.TREELESS: (
        "{pages} no lastmod: {roots} {is_a} treeless clone{s} (a partial clone with filter "
        "tree:0), which lacks the trees of older commits; reading the history would fetch them "
        "from the remote one by one, for minutes or hours, so git dates nothing. Clone with "
        "'filter: blob:none' for actions/checkout (git clone --filter=blob:none) instead, which "
        "keeps every tree and no old file contents{fetch}"
    ),
    Why.NO_GIT: (
        "{pages} no lastmod: {roots} {is_a} git work tree{s} but git was not found on PATH, "
        "so no history can be read; install git where the site is built"
    ),
}
"""The causes a build should fix (strict modes fail on them), said as warnings."""
_FETCH_ADVICE: Final[Mapping[Why, tuple[str, str]]] = {
    Why.SHALLOW: (
        ", or set the git_fetch_history option",
        "; the git_fetch_history option is on, but its fetch failed (its warning says why)",
    ),
    Why.TREELESS: (
        ", or set the git_fetch_history option to fetch the trees once, in one go",
        "; the git_fetch_history option is on, but did not fetch the trees (its warning says why)",
    ),
}
"""The end of a warning's advice, where ``git_fetch_history`` would fetch what is missing: to
set it, or, where it is set already, that it could not."""
_INFOS: Final[Mapping[Why, str]] = {
    Why.GIT_FAILED: (
        "sitemap: {pages} no lastmod: git failed in {roots} (its warning above gives git's "
        "words), so no history dates them"
    ),
    Why.NO_REPOSITORY: (
        "sitemap: {pages} no lastmod: the .git in {roots} leads git to no repository ({said}): "
        "a worktree or submodule copied without the repository it names, or an empty .git "
        "folder. No commit dates them there, and a file time records a copy, not a change; "
        "build from a git clone, or set lastmod in their metadata"
    ),
    Why.NOT_TRACKED: (
        "sitemap: {pages} no lastmod: their sources are not tracked by git, and a file time "
        "there records a copy, checkout or unpack, not a change; build from a git clone (a "
        "checkout written apart from its repository: name both in GIT_DIR and GIT_WORK_TREE), "
        "or set lastmod in their metadata"
    ),
    Why.IGNORED: (
        "sitemap: {pages} no lastmod: their sources in {roots} are ignored by git (a file a "
        "generator writes, such as sphinx-gallery's or sphinx-autoapi's, or one .gitignore "
        "names), so no commit dates them and their file time says when they were written, not "
        "changed; set lastmod in their metadata, or commit them"
    ),
    Why.WRITTEN_BY_BUILD: (
        "sitemap: {pages} no lastmod: their sources were written into the source folder by "
        "the build itself (the host or a plugin made them), so their file time is the build's, "
        "not a change; commit those files (git status lists them), set lastmod in their "
        "metadata, or have the generator write outside the sources"
    ),
    Why.UNCOMMITTED: (
        "sitemap: {pages} no lastmod: they have changes in {roots} not committed yet (an edit, "
        "or a file gone from what they list), which no commit dates, and file times are not "
        "taken for them (lastmod_sources leaves mtime out, or the build wrote there); commit "
        "the changes, or set lastmod in their metadata"
    ),
    Why.ONLY_IGNORED_COMMITS: (
        "sitemap: {pages} no lastmod: every commit that changed their sources in {roots} is "
        "one the git_ignore_commits options leave out, so no change that counts dates them; "
        "set lastmod in their metadata if they need one"
    ),
    Why.OUTSIDE: (
        "sitemap: {pages} no lastmod: their sources lie outside the repositories that hold the "
        "site's sources (in {roots}), where a file time records an install or a copy; set "
        "lastmod in their metadata"
    ),
}
"""The causes that are the user's choice or the way the site is made, said as info lines."""
_SAID_BY_CALLER: Final = frozenset({Why.NOT_LOOKED_UP})
"""Causes only the caller has the words for (see :attr:`Why.NOT_LOOKED_UP`)."""


def say_why_undated(
    undated: Iterable[Undated | None], reporter: Reporter, *, fetch_history: bool = False
) -> None:
    """One line per cause for the pages listed without lastmod: never one line per page.
    ``fetch_history``: the ``git_fetch_history`` option is on, so its advice is not to set it."""
    pages: Counter[Why] = Counter()
    roots: dict[Why, set[str]] = {}
    said: dict[Why, set[str]] = {}
    for item in undated:
        if item is not None:
            pages[item.reason] += 1
            if item.root is not None:
                roots.setdefault(item.reason, set()).add(str(item.root))
            if item.said:
                said.setdefault(item.reason, set()).add(item.said)
    for why, count in sorted(pages.items()):
        if why in _SAID_BY_CALLER:
            continue
        named = sorted(roots.get(why, ()))
        # A site may take pages from submodules: each one is a repository of its own.
        one = len(named) < 2
        message = (_WARNINGS.get(why) or _INFOS[why]).format(
            pages=f"{count} page has" if count == 1 else f"{count} pages have",
            roots=", ".join(named) or "the sources",
            is_a="is a" if one else "are",
            s="" if one else "s",
            said="; ".join(f"git says: {text}" for text in sorted(said.get(why, ()))),
            fetch=_FETCH_ADVICE.get(why, ("", ""))[fetch_history],
        )
        if why in _WARNINGS:
            reporter.warning(Code.GIT, message)
        else:
            reporter.info(message)
