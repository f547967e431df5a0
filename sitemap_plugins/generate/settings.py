"""What one ``generate`` run is asked to do: command-line flags, a TOML file, the host's config.

Every sitemap option is the core's (:data:`~sitemap_plugins.core.OPTION_SPECS`): a flag named
after it (``urls_per_file`` is ``--urls-per-file``) and a key of the same name in the config
file, checked by the same schema as in every host. The config file is ``sitemap-plugins.toml``
in the current folder, ``[tool.sitemap-plugins]`` in its ``pyproject.toml``, or the file
``--config`` names; it also takes the keys of :data:`RUN_KEYS` (the site folder, the source
folder and its layout...). Where neither says, the host's config (:mod:`.hosts`) does.

Precedence: flag, then config file, then the host's config, then the schema's default.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.core import (
    OPTION_SPECS,
    READ_THE_DOCS_URL,
    OptionError,
    Options,
    OptionSpec,
    shown,
)
from sitemap_plugins.core.urls import check_base_url
from sitemap_plugins.generate._toml import load_toml
from sitemap_plugins.generate.errors import UsageError
from sitemap_plugins.generate.hosts import HOST_FILES, HostConfig, find_host_config
from sitemap_plugins.generate.layouts import LAYOUTS

__all__ = [
    "CONFIG_FILE",
    "RUN_KEYS",
    "Settings",
    "find_config_file",
    "flag_name",
    "option_kind",
    "option_value",
    "resolve_settings",
]

CONFIG_FILE: Final = "sitemap-plugins.toml"
RUN_KEYS: Final[Mapping[str, str]] = {
    "site_dir": "the built site's folder (SITE_DIR)",
    "source": "the folder of the pages' sources (--source)",
    "layout": "how built pages map to sources: " + ", ".join(LAYOUTS) + " (--layout)",
    "keep_index_html": "list folder pages as dir/index.html, not dir/ (--keep-index-html)",
    "urls": "a URL list to read instead of a site (--urls)",
}
"""Config-file keys of ``generate`` itself, beside the sitemap options; the paths among them
are relative to the file, as a file kept in ``conf/`` means them, wherever the run starts."""


def flag_name(spec: OptionSpec) -> str:
    """The command-line flag of an option: ``urls_per_file`` is ``--urls-per-file``."""
    return "--" + spec.name.replace("_", "-")


def option_kind(spec: OptionSpec) -> str:
    """How a flag takes its value: ``switch`` (``--x``/``--no-x``), ``list`` (repeatable),
    ``integer`` or ``text``; derived from the option's default, so a new option gets a flag."""
    if isinstance(spec.default, bool):
        return "switch"
    if isinstance(spec.default, tuple):
        return "list"
    if isinstance(spec.default, int):
        return "integer"
    return "text"


def option_value(spec: OptionSpec, texts: Sequence[str]) -> object:
    """The raw value of a flag given as ``texts`` (each use of it), for the schema to check.

    A list flag takes comma-separated items or JSON (``--rules '[{"pattern": "x/*",
    "exclude": true}]'``), and may be repeated; an empty text is an empty list. A mapping is
    JSON too (``--news '{"name": "The Example", "language": "en"}'``).
    """
    kind = option_kind(spec)
    if kind == "list":
        items: list[object] = []
        for text in texts:
            stripped = text.strip()
            if stripped.startswith(("[", "{")):
                try:
                    parsed = json.loads(stripped)
                except ValueError as error:
                    raise UsageError(
                        f"{flag_name(spec)}: {text!r} is not valid JSON ({error})"
                    ) from None
                items.extend(parsed if isinstance(parsed, list) else [parsed])
            else:
                items.extend(item.strip() for item in stripped.split(",") if item.strip())
        return items
    text = texts[-1]
    if text.strip().startswith("{"):
        try:
            mapping: object = json.loads(text)
        except ValueError as error:
            raise UsageError(f"{flag_name(spec)}: {text!r} is not valid JSON ({error})") from None
        return mapping
    if kind == "integer":
        try:
            return int(text.replace("_", "").replace(",", ""))
        except ValueError:
            return text  # the schema says what is allowed
    return text


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything one run needs, checked."""

    options: Options
    site_dir: Path | None
    source_dir: Path | None
    layout: str | None
    keep_index_html: bool
    urls: str | None
    host: HostConfig | None
    config_file: Path | None
    explicit: frozenset[str] = frozenset()
    """The options given by a flag or in the config file (not by a default or the host)."""
    from_config: frozenset[str] = frozenset()
    """The paths the config file gave (``site_dir``, ``source``, ``urls``), not a flag: a
    message about one names the file and the key, where the value was written."""
    given_at: Mapping[str, str] = dataclasses.field(default_factory=dict)
    """Where each option of :attr:`explicit` was given, for a message about its value: its
    flag (``--gzip``), or the config file's path."""

    @property
    def cache_dir(self) -> Path | None:
        """Where the git pass is kept for the next run: beside the host's config, as the
        MkDocs plugin keeps it; nowhere for a site without one (a one-off run)."""
        return None if self.host is None else self.host.file.parent / ".cache" / "sitemap-plugins"


def find_config_file(folder: Path) -> tuple[Path, dict[str, Any]] | None:
    """``sitemap-plugins.toml`` in ``folder``, else ``[tool.sitemap-plugins]`` of its
    ``pyproject.toml``, with the table read; None when there is neither."""
    own = folder / CONFIG_FILE
    if own.is_file():
        return own, _table(own)
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        tool = load_toml(pyproject).get("tool", {})
        table = tool.get("sitemap-plugins") if isinstance(tool, dict) else None
        if isinstance(table, dict):
            return pyproject, table
    return None


def _table(path: Path) -> dict[str, Any]:
    document = load_toml(path)
    if path.name == "pyproject.toml":
        tool = document.get("tool", {})
        table = tool.get("sitemap-plugins", {}) if isinstance(tool, dict) else {}
        if not isinstance(table, dict):
            raise UsageError(f"{path}: [tool.sitemap-plugins] is not a table")
        return table
    return document


def resolve_settings(
    *,
    flags: Mapping[str, object],
    site_dir: str | None = None,
    source: str | None = None,
    layout: str | None = None,
    keep_index_html: bool | None = None,
    urls: str | None = None,
    config: str | None = None,
    cwd: Path | None = None,
    use_host_config: bool = True,
) -> Settings:
    """Merge flags, the config file and the host's config; raise :class:`UsageError` (or
    :class:`~.errors.InputError` for a file that cannot be read) with one line."""
    cwd = cwd or Path.cwd()
    found: tuple[Path, dict[str, Any]] | None
    if config:
        if not Path(config).is_file():
            raise UsageError(f"{config}: no such config file")
        found = Path(config), _table(Path(config))
    else:
        found = find_config_file(cwd)
    file_values: dict[str, Any] = {}
    config_file: Path | None = None
    if found is not None:
        config_file, file_values = found
        known = {spec.name for spec in OPTION_SPECS} | set(RUN_KEYS)
        for key in file_values:
            if key not in known:
                raise UsageError(
                    f"{config_file}: unknown key {key!r} (allowed: {', '.join(sorted(known))})"
                )
    base = config_file.parent if config_file is not None else cwd

    def from_file(key: str) -> Any:
        value = file_values.get(key)
        if value is not None and not isinstance(value, bool if key == "keep_index_html" else str):
            kind = "true or false" if key == "keep_index_html" else "text"
            raise UsageError(f"{config_file}: {key} {value!r} is not {kind}")
        return value

    given = {"site_dir": site_dir, "source": source, "urls": urls}
    from_config = frozenset(key for key, value in given.items() if value is None) & {
        key for key, value in file_values.items() if value
    }
    if urls is None:
        urls_text = from_file("urls")  # "-" is standard input, not a file beside the config
        urls = str(base / urls_text) if urls_text and urls_text != "-" else urls_text
    site_text = site_dir if site_dir is not None else from_file("site_dir")
    site = (Path(site_dir) if site_dir is not None else base / site_text) if site_text else None
    host = None
    if use_host_config and urls is None:
        host = find_host_config(cwd)
        if host is not None and site is not None and site.resolve() != host.site_dir.resolve():
            host = None  # another site than the host's: its config says nothing about it
    if site is None and host is not None:
        site = host.site_dir
    if site is None:
        what = "OUTPUT_DIR for --urls" if urls is not None else "SITE_DIR"
        raise UsageError(
            f"no {what} given, and no {', '.join(HOST_FILES)} or {CONFIG_FILE} here to read it from"
        )

    layout = layout or from_file("layout") or (host.host if host is not None else None)
    source_text = source if source is not None else from_file("source")
    source_dir = (
        (Path(source) if source is not None else base / source_text) if source_text else None
    )
    if source_dir is None and host is not None:
        source_dir = host.docs_dir
    if layout is not None and layout not in LAYOUTS:
        raise UsageError(f"--layout {layout!r} is not known (allowed: {', '.join(LAYOUTS)})")
    if source_dir is not None and layout is None:
        raise UsageError(
            f"--source {source_dir} needs --layout to map pages to sources ({', '.join(LAYOUTS)})"
        )
    if layout is not None and source_dir is None:
        if layout != "html":
            raise UsageError(f"--layout {layout} needs --source, the folder of the sources")
        source_dir = site  # a hand-written site is its own source
    if keep_index_html is None:
        keep_index_html = from_file("keep_index_html")
    if keep_index_html is None:
        keep_index_html = host is not None and not host.use_directory_urls

    raw: dict[str, object] = {}
    where: dict[str, str] = {}
    given_at: dict[str, str] = {}
    for spec in OPTION_SPECS:
        if spec.name in flags:
            raw[spec.name], where[spec.name] = flags[spec.name], flag_name(spec)
            given_at[spec.name] = flag_name(spec)
        elif spec.name in file_values:
            raw[spec.name], where[spec.name] = file_values[spec.name], f"{config_file}: {spec.name}"
            given_at[spec.name] = str(config_file)
    explicit = frozenset(raw)
    # Not the option's own check, which refuses a URL naming a page: the host took its site
    # URL for a folder too, and so does Read the Docs, which names the folder it serves.
    default_base_url = None if "base_url" in raw else _default_base_url(host)
    try:
        # A path on the command line is the shell's, one in the config file the file's.
        folder = cwd if "git_ignore_commits_file" in flags else base
        options = Options.from_mapping(raw, folder=folder)
    except OptionError as error:
        place = where.get(error.option, error.option)
        raise _not_allowed(place, error.value, error.allowed) from None
    if default_base_url is not None:
        options = dataclasses.replace(options, base_url=default_base_url)
    if options.base_url is None:
        hint = f" (or site_url in {host.file.name})" if host is not None else ""
        raise UsageError(f"no base URL: give --base-url URL, the URL the site is served at{hint}")
    return Settings(
        options=options,
        site_dir=site,
        source_dir=source_dir,
        layout=layout,
        keep_index_html=bool(keep_index_html),
        urls=urls,
        host=host,
        config_file=config_file,
        explicit=explicit,
        from_config=from_config,
        given_at=given_at,
    )


def _default_base_url(host: HostConfig | None) -> str | None:
    """The base URL where neither a flag nor the config file gives one: the host's site URL,
    else Read the Docs' URL of this build, checked as :class:`~.core.SitemapBuilder` checks
    them (a site URL ending in ``index.html`` is the host's folder ``index.html/``)."""
    if host is not None and host.site_url:
        place, value = host.setting, host.site_url
    elif os.environ.get(READ_THE_DOCS_URL):
        place, value = f"${READ_THE_DOCS_URL}", os.environ[READ_THE_DOCS_URL]
    else:
        return None
    try:
        return check_base_url(value)
    except ValueError as error:
        raise _not_allowed(place, shown(value, error), str(error)) from None


def _not_allowed(place: str, value: object, allowed: str) -> UsageError:
    return UsageError(f"{place}: {shown(value)!r} is not allowed (allowed: {allowed})")
