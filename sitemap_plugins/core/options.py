"""The one options schema every host maps onto.

Each option is declared once, as a dataclass field whose metadata carries its help text, what is
allowed, and the function that checks and normalises a raw value. Adapters register the same names
in their host's config system by walking :data:`OPTION_SPECS`, so the hosts cannot drift apart, and
every bad value fails in :func:`Options.from_mapping` naming the option, value and what is allowed.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, NamedTuple

CHANGEFREQS: Final = ("always", "hourly", "daily", "weekly", "monthly", "yearly", "never")
LASTMOD_SOURCES: Final = ("metadata", "git", "mtime", "build")
MAX_URLS_PER_FILE: Final = 50_000
MAX_BYTES_PER_FILE: Final = 52_428_800
MIN_BYTES_PER_FILE: Final = 1_024
MAX_SITEMAPS_PER_INDEX: Final = 50_000
"""The protocol's limit on the children of one ``<sitemapindex>``."""
NEWS_FILENAME: Final = "sitemap-news.xml"
"""The news sitemap, beside the main one (in the same folder, so under the same scope)."""
_NEWS_LANGUAGE: Final = re.compile(r"^(zh-cn|zh-tw|[a-z]{2,3})$")


class OptionError(ValueError):
    """An option has a value the schema does not allow."""

    def __init__(self, option: str, value: object, allowed: str) -> None:
        self.option = option
        self.value = value
        self.allowed = allowed
        super().__init__(f"invalid value for option {option!r}: {value!r} (allowed: {allowed})")


def _fail(allowed: str) -> ValueError:
    return ValueError(allowed)


class SecretValueError(ValueError):
    """A refused value that messages show only masked (``shown``): a key that is one character
    off is still nearly the whole secret."""

    def __init__(self, allowed: str, shown: str) -> None:
        super().__init__(allowed)
        self.shown = shown


def shown(value: object, error: BaseException | None = None) -> object:
    """A value as messages may show it: the password of a URL is replaced by ``***``, and a
    value refused with :class:`SecretValueError` (an IndexNow key) is masked.

    A base URL with credentials is refused, and saying why must not copy the secret into build
    logs that CI systems keep and often publish.
    """
    if isinstance(error, SecretValueError):
        return error.shown
    if isinstance(value, str) and "@" in value:
        return re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^/@:]*):[^/@]*@", r"\1:***@", value.strip())
    return value


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_priority(value: object) -> float:
    """A priority is a number from 0.0 to 1.0; numeric strings are accepted too."""
    number: float
    if _is_number(value):
        number = float(value)  # type: ignore[arg-type]
    elif isinstance(value, str):
        try:
            number = float(value.strip())
        except ValueError:
            raise _fail("a number from 0.0 to 1.0") from None
    else:
        raise _fail("a number from 0.0 to 1.0")
    if not math.isfinite(number) or not 0.0 <= number <= 1.0:
        raise _fail("a number from 0.0 to 1.0")
    # Four decimals is finer than any crawler reads, and keeps "1e-05" out of the XML.
    return round(number, 4)


def check_changefreq(value: object) -> str:
    """Changefreq must be one of the protocol's words, in lower case as the XSD demands."""
    if isinstance(value, str) and value in CHANGEFREQS:
        return value
    raise _fail("one of " + ", ".join(CHANGEFREQS))


def _optional(check: Callable[[object], Any]) -> Callable[[object], Any]:
    def checked(value: object) -> Any:
        return None if value is None else check(value)

    return checked


def _choice(*choices: str) -> Callable[[object], str]:
    def checked(value: object) -> str:
        if isinstance(value, str) and value in choices:
            return value
        raise _fail("one of " + ", ".join(choices))

    return checked


def _boolean(value: object) -> bool:
    if isinstance(value, bool):
        return value
    raise _fail("true or false")


def _integer(low: int, high: int) -> Callable[[object], int]:
    def checked(value: object) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
            return value
        raise _fail(f"a whole number from {low:,} to {high:,}")

    return checked


def _gzip(value: object) -> str:
    if value is True:
        return "on"
    if value is False:
        return "off"
    return _choice("off", "on", "both")(value)


def _base_url(value: object) -> str | None:
    from sitemap_plugins.core.urls import check_given_base_url

    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise _fail("an absolute http(s) URL such as https://example.org/docs/")
    return check_given_base_url(value)


def _filename(value: object) -> str | None:
    allowed = "a relative path such as sitemap.xml, without '..' or a leading '/'"
    if value is None:
        return None  # unset: sitemap.<format>, filled in by Options.from_mapping
    if not isinstance(value, str) or not value or value.startswith("/") or "\\" in value:
        raise _fail(allowed)
    parts = value.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise _fail(allowed)
    return value


def _indexnow_key(value: object) -> str | None:
    if value is None or value == "":
        return None
    from sitemap_plugins.core.indexnow import check_key, masked  # set by few sites

    try:
        return check_key(value)
    except ValueError as error:
        if isinstance(value, str):
            raise SecretValueError(str(error), masked(value)) from None
        raise


def _string_list(value: object) -> tuple[str, ...]:
    allowed = "a list of strings"
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise _fail(allowed)
    if not all(isinstance(item, str) and item for item in value):
        raise _fail(allowed)
    return tuple(value)


def _commit_ids(value: object) -> tuple[str, ...]:
    from sitemap_plugins.core.ignore_revs import check_commit_ids

    return check_commit_ids(value)


def _path(value: object) -> str | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise _fail("a path to a file")
    return value


def _lastmod_sources(value: object) -> tuple[str, ...]:
    allowed = "a list drawn from " + ", ".join(LASTMOD_SOURCES) + ", each at most once"
    try:
        sources = _string_list(value)
    except ValueError:
        raise _fail(allowed) from None
    if any(s not in LASTMOD_SOURCES for s in sources) or len(set(sources)) != len(sources):
        raise _fail(allowed)
    return sources


class NewsPublication(NamedTuple):
    """The publication a news sitemap names for every article: Google News' ``name`` (exactly
    as Google News shows it) and ``language`` (ISO 639, ``zh-cn`` or ``zh-tw`` for Chinese)."""

    name: str
    language: str


def _news(value: object) -> NewsPublication | None:
    allowed = (
        "a mapping with 'name' (the publication's name) and 'language' (an ISO 639 code in "
        "lower case such as en or fra, or zh-cn / zh-tw)"
    )
    if value is None:
        return None
    if not isinstance(value, Mapping) or set(value) != {"name", "language"}:
        raise _fail(allowed)
    name, language = value["name"], value["language"]
    if not isinstance(name, str) or not name.strip():
        raise _fail(allowed)
    if not isinstance(language, str) or not _NEWS_LANGUAGE.match(language):
        raise _fail(allowed)
    return NewsPublication(name.strip(), language)


class Rule(NamedTuple):
    """A pattern rule: pages whose path matches ``pattern`` get these values (first rule wins)."""

    pattern: str
    priority: float | None = None
    changefreq: str | None = None
    exclude: bool = False


def _rules(value: object) -> tuple[Rule, ...]:
    allowed = (
        "a list of mappings with 'pattern' (a glob) and any of 'priority', 'changefreq', 'exclude'"
    )
    if isinstance(value, (str, Mapping)) or not isinstance(value, Sequence):
        raise _fail(allowed)
    rules = []
    for item in value:
        if not isinstance(item, Mapping) or not isinstance(item.get("pattern"), str):
            raise _fail(allowed)
        unknown = set(item) - {"pattern", "priority", "changefreq", "exclude"}
        if unknown:
            raise _fail(allowed + f"; unknown key {sorted(unknown)[0]!r}")
        try:
            rules.append(
                Rule(
                    pattern=item["pattern"],
                    priority=_optional(check_priority)(item.get("priority")),
                    changefreq=_optional(check_changefreq)(item.get("changefreq")),
                    exclude=_boolean(item.get("exclude", False)),
                )
            )
        except ValueError as error:
            raise _fail(f"{allowed}; in rule {item['pattern']!r}: {error}") from None
    return tuple(rules)


def _spec(default: Any, check: Callable[[object], Any], help: str, **kw: Any) -> Any:
    """Declare one option: its default, its checker, and the help text users read."""
    if isinstance(default, (list, tuple)):
        return field(
            default_factory=lambda: tuple(default), metadata={"check": check, "help": help, **kw}
        )
    return field(default=default, metadata={"check": check, "help": help, **kw})


@dataclass(frozen=True, slots=True)
class Options:
    """Validated options; construct with :meth:`from_mapping` so that every value is checked."""

    base_url: str | None = _spec(
        None,
        _base_url,
        "Absolute URL of the folder the site is served from (one that names a page, "
        "https://example.org/index.html copied from a browser, is refused). Defaults to the "
        "host's own setting (MkDocs site_url; Sphinx site_url, as sphinx-sitemap read it, "
        "then html_baseurl; Pelican SITEURL), then to Read the Docs' "
        "READTHEDOCS_CANONICAL_URL, the URL it serves the build at.",
    )
    # Unset by default rather than "sitemap.xml": the name follows the format, and a host that
    # filled in "sitemap.xml" itself would make `format: txt` alone an error about a filename
    # the user never set.
    filename: str = _spec(
        None,
        _filename,
        "Name of the sitemap (or of the index, when it is split): sitemap.xml, or sitemap.txt "
        "when format is txt.",
    )
    format: str = _spec("xml", _choice("xml", "txt"), "xml (a urlset) or txt (one URL per line).")
    gzip: str = _spec(
        "off",
        _gzip,
        "off, on (write only NAME.gz) or both (NAME and NAME.gz). MkDocs defaults to both.",
    )
    urls_per_file: int = _spec(
        MAX_URLS_PER_FILE,
        _integer(1, MAX_URLS_PER_FILE),
        "Split into several files plus an index beyond this many URLs (protocol limit 50,000).",
    )
    bytes_per_file: int = _spec(
        MAX_BYTES_PER_FILE,
        _integer(MIN_BYTES_PER_FILE, MAX_BYTES_PER_FILE),
        "Split beyond this many uncompressed bytes (protocol limit 52,428,800).",
    )
    lastmod_sources: tuple[str, ...] = _spec(
        ("metadata", "git", "mtime"),
        _lastmod_sources,
        "Where lastmod comes from, in order: metadata, git, mtime, build (the build time, "
        "only if you ask for it). An empty list writes no lastmod.",
    )
    git_date: str = _spec(
        "committer", _choice("committer", "author"), "Which git date is a file's lastmod."
    )
    git_fetch_history: bool = _spec(
        False,
        _boolean,
        "In a shallow clone, fetch the missing history from the clone's own remote once before "
        "reading dates (git fetch --unshallow); in a treeless clone (filter tree:0), the "
        "missing trees (git fetch --refetch --filter=blob:none); if that fails, one warning and "
        "no guessed dates.",
    )
    git_ignore_commits: tuple[str, ...] = _spec(
        (),
        _commit_ids,
        "Commits whose changes date no file (a mass reformat, a licence-header sweep): full or "
        "abbreviated ids (4 to 64 hex digits, each matching the commits it starts). A file is "
        "dated by its last change in another commit; one changed only by these gets no git date. "
        "Sphinx: defaults to sphinx-last-updated-by-git's git_exclude_commits.",
    )
    git_ignore_commits_file: str | None = _spec(
        None,
        _path,
        "A file of such commits in git's .git-blame-ignore-revs format (one id a line, # "
        "comments), relative to the project's folder; added to git_ignore_commits. MkDocs: "
        "defaults to the git-revision-date-localized plugin's ignored_commits_file.",
    )
    lastmod_format: str = _spec(
        "datetime",
        _choice("datetime", "date"),
        "datetime: the full W3C timestamp with the commit's offset; date: YYYY-MM-DD, the UTC "
        "day of an instant (a date an author wrote keeps its day).",
    )
    changefreq: str | None = _spec(
        None, _optional(check_changefreq), "Default changefreq; unset writes none."
    )
    priority: float | None = _spec(
        None, _optional(check_priority), "Default priority; unset writes none."
    )
    rules: tuple[Rule, ...] = _spec(
        (),
        _rules,
        "Pattern rules: globs on the page path (served path or source file) setting priority, "
        "changefreq or exclude. The first matching rule wins; page metadata beats rules.",
    )
    exclude: tuple[str, ...] = _spec(
        (), _string_list, "Globs on the page path (served path or source file) to leave out."
    )
    images: bool = _spec(
        False,
        _boolean,
        "List the images each page shows in its main content (image sitemap 1.1). Reads each "
        "page's whole HTML instead of its head only.",
    )
    # _spec returns a dataclasses.field, as for every option (ruff cannot tell for this type).
    news: NewsPublication | None = _spec(  # noqa: RUF009
        None,
        _news,
        "Google News: {name, language} of the publication. Articles published in the last "
        "two days go to sitemap-news.xml, beside the sitemap.",
    )
    robots_txt: bool = _spec(
        False, _boolean, "Add or update a 'Sitemap:' line in robots.txt in the output directory."
    )
    indexnow_key: str | None = _spec(
        None,
        _indexnow_key,
        "IndexNow key: writes {key}.txt holding it at the root of the output directory, so the "
        "deploy carries the file engines check (see sitemap-plugins submit); a file of the "
        "site's own by that name is kept (with a warning unless it holds the key; a line end "
        "after it is fine), and ours goes when the key changes or the option is unset.",
    )
    html_page: bool = _spec(
        False,
        _boolean,
        "Also write sitemap.html beside the sitemap: the same pages for people, grouped by "
        "section with their titles and dates, in the site's theme where the host allows.",
    )
    indent: int = _spec(
        0, _integer(0, 8), "Indent the XML by this many spaces per level (0 writes it compact)."
    )
    strict: bool = _spec(
        False,
        _boolean,
        "Fail the build on bad page metadata. MkDocs --strict and sphinx-build -W do the same.",
    )

    def __post_init__(self) -> None:
        # An unset filename follows the format, also for Options built directly.
        if self.filename is None:
            object.__setattr__(self, "filename", f"sitemap.{self.format}")

    @classmethod
    def from_mapping(
        cls,
        values: Mapping[str, object],
        *,
        prefix: str = "",
        defaults: Mapping[str, object] = {},
        folder: Path | None = None,
    ) -> Options:
        """Check every value; the error names the option as the user wrote it (``prefix`` + name).

        ``defaults`` lets a host change a default (MkDocs writes gzip too) without a second schema.
        ``folder`` is the project's, which a relative ``git_ignore_commits_file`` is read from
        (the current folder if None): the ids it holds join ``git_ignore_commits`` now, so that
        options equal only where they leave out the same commits, and a missing file fails here.
        """
        known = {spec.name for spec in OPTION_SPECS}
        for name in values:
            if name not in known:
                raise OptionError(
                    prefix + name, values[name], "one of the options " + ", ".join(sorted(known))
                )
        checked: dict[str, Any] = {}
        for spec in OPTION_SPECS:
            if spec.name in values:
                raw = values[spec.name]
            elif spec.name in defaults:
                raw = defaults[spec.name]
            else:
                continue
            try:
                checked[spec.name] = spec.check(raw)
            except ValueError as error:
                raise OptionError(prefix + spec.name, shown(raw, error), str(error)) from None
        fmt = checked.get("format", "xml")
        if checked.get("filename") is None:
            checked["filename"] = f"sitemap.{fmt}"
        elif not checked["filename"].endswith(f".{fmt}"):
            raise OptionError(
                prefix + "filename",
                checked["filename"],
                f"a name ending in .{fmt} for format {fmt}",
            )
        stem = checked["filename"].rpartition("/")[2].rpartition(".")[0]
        if checked.get("news") is not None and stem == NEWS_FILENAME.rpartition(".")[0]:
            raise OptionError(
                prefix + "filename",
                checked["filename"],
                f"a name other than {NEWS_FILENAME}'s, which the news option writes",
            )
        revs = checked.get("git_ignore_commits_file")
        if revs is not None:
            from sitemap_plugins.core.ignore_revs import read_ignore_revs

            try:
                ids = read_ignore_revs(Path(folder or ".", revs))
            except ValueError as error:
                raise OptionError(prefix + "git_ignore_commits_file", revs, str(error)) from None
            given = checked.get("git_ignore_commits", ())
            checked["git_ignore_commits"] = tuple(sorted({*given, *ids}))
        return cls(**checked)


class OptionSpec(NamedTuple):
    """One option as adapters see it when they register it with their host."""

    name: str
    default: Any
    help: str
    check: Callable[[object], Any]


def _option_specs() -> tuple[OptionSpec, ...]:
    specs = []
    for f in dataclasses.fields(Options):
        factory = f.default_factory
        default = f.default if factory is dataclasses.MISSING else factory()
        specs.append(OptionSpec(f.name, default, f.metadata["help"], f.metadata["check"]))
    return tuple(specs)


OPTION_SPECS: Final[tuple[OptionSpec, ...]] = _option_specs()
"""Every option, in declaration order, for adapters to register under the same names."""
