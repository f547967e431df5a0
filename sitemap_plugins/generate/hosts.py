"""Zero configuration: what a host's own config file already says about the site.

Run in a project folder that holds ``zensical.toml``, ``mkdocs.toml`` (MkDocs 2.0) or
``mkdocs.yml`` (MkDocs 1.x, also read by Zensical), ``generate`` needs no option: the host's
config gives the site's URL (``site_url``), where the sources are (``docs_dir``), where the
built site is (``site_dir``) and the URL style (``use_directory_urls``). The first of those files
found, in that order, is the one the host itself would read.

Only those four keys are read, the settings of ``pymdownx.snippets`` where
``markdown_extensions`` enables it (the files a page reads in date it too, see
:mod:`.snippets`), and the name of the meta files where ``plugins`` enables Material's or
Zensical's ``meta`` plugin (a folder's file gives its pages their defaults, see
:mod:`.folder_meta`). ``mkdocs.yml`` is YAML with tags of MkDocs' own (``!ENV``,
``!!python/name:``): its top-level scalar keys are read line by line (with ``!ENV`` and
``INHERIT`` as MkDocs reads them), which is all these keys ever are; only a file that names the
snippets extension or a meta plugin is read whole, by PyYAML, its tags read as nothing.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from sitemap_plugins.generate._toml import load_toml
from sitemap_plugins.generate.errors import InputError
from sitemap_plugins.generate.yaml_scalars import FALSE, TRUE, scalar, unquote, without_comment

__all__ = ["HOST_FILES", "HostConfig", "find_host_config", "read_host_config"]

HOST_FILES: Final = ("zensical.toml", "mkdocs.toml", "mkdocs.yml", "mkdocs.yaml")
_KEYS: Final = ("site_url", "docs_dir", "site_dir", "use_directory_urls")
_TOP_LEVEL: Final = re.compile(r"^(?P<key>[A-Za-z_][\w-]*)\s*:(?:\s+(?P<value>.*?))?\s*$")
_ENV: Final = re.compile(r"^!ENV\s+(?:\[(?P<list>[^\]]*)\]|(?P<name>\S+))$")
_SNIPPETS: Final = "pymdownx.snippets"
_META_PLUGINS: Final = ("meta", "material/meta")
"""The meta plugin's names: Material registers both, and Zensical reads both."""
_META_FILE: Final = ".meta.yml"


@dataclass(frozen=True, slots=True)
class Languages:
    """mkdocs-static-i18n's languages, as its ``i18n`` settings give them: each built language
    but the default is written under ``<locale>/``, from ``x.<locale>.md`` (``docs_structure:
    suffix``, its default) or ``<locale>/x.md`` (``folder``), and a page a language lacks is
    built from the default language's file (a fallback page)."""

    default: str
    others: tuple[str, ...]
    folders: bool


@dataclass(frozen=True, slots=True)
class HostConfig:
    """The site as its host's config describes it; folders are absolute."""

    file: Path
    host: str
    site_url: str | None
    docs_dir: Path
    site_dir: Path
    use_directory_urls: bool
    snippets: Mapping[str, Any] | None = None
    """The settings of ``pymdownx.snippets`` where the host renders with it, else None."""
    meta_file: str | None = None
    """The name of a folder's meta file where the host's ``meta`` plugin reads them, else None."""
    i18n: Languages | None = None
    """The languages of mkdocs-static-i18n where ``plugins`` enables it, else None."""

    @property
    def setting(self) -> str:
        """Where the site URL is set, for messages (``site_url in zensical.toml``)."""
        return f"site_url in {self.file.name}"


def find_host_config(folder: Path) -> HostConfig | None:
    """The config of the host whose project ``folder`` is, or None when it holds none."""
    for name in HOST_FILES:
        candidate = folder / name
        if candidate.is_file():
            return read_host_config(candidate)
    return None


def read_host_config(path: Path) -> HostConfig:
    """Read one host config file; raises :class:`InputError` naming the file and the problem."""
    if path.suffix == ".toml":
        document = load_toml(path)
        table = document.get("project", document)
        if not isinstance(table, dict):
            raise InputError(f"{path}: [project] is not a table")
        values = {key: table[key] for key in _KEYS if key in table}
        host = "zensical" if path.name == "zensical.toml" else "mkdocs"
        snippets = _snippets_in(table.get("markdown_extensions"))
        # MkDocs 2.0 (mkdocs.toml) runs no plugins: only Zensical's meta plugin reads files.
        meta_file = _meta_file_in(table.get("plugins")) if host == "zensical" else None
        i18n = None  # a MkDocs 1.x plugin
    else:
        values = _read_yaml_keys(path, set())
        host = "mkdocs"
        extensions, plugins = _yaml_lists(path, set())
        snippets = _snippets_in(extensions)
        meta_file = _meta_file_in(plugins)
        i18n = _i18n_in(plugins)
    folder = path.parent
    site_url = _text(path, values, "site_url")
    return HostConfig(
        file=path,
        host=host,
        site_url=site_url or None,
        docs_dir=folder / (_text(path, values, "docs_dir") or "docs"),
        site_dir=folder / (_text(path, values, "site_dir") or "site"),
        use_directory_urls=_flag(path, values, "use_directory_urls", default=True),
        snippets=snippets,
        meta_file=meta_file,
        i18n=i18n,
    )


def _snippets_in(extensions: object) -> dict[str, Any] | None:
    """The snippets extension's settings in ``markdown_extensions`` as the host reads it: a
    list of names and one-key mappings (MkDocs, Zensical), or a table of names, where
    ``pymdownx`` may hold its extensions one level down (Zensical)."""
    if isinstance(extensions, dict):
        nested = extensions.get("pymdownx")
        if isinstance(nested, dict) and "snippets" in nested:
            return _settings(nested["snippets"])
        return _settings(extensions[_SNIPPETS]) if _SNIPPETS in extensions else None
    if isinstance(extensions, list):
        for item in extensions:
            if item == _SNIPPETS:
                return {}
            if isinstance(item, dict) and _SNIPPETS in item:
                return _settings(item[_SNIPPETS])
    return None


def _settings(value: object) -> dict[str, Any] | None:
    if value is False:
        return None
    return {str(key): item for key, item in value.items()} if isinstance(value, dict) else {}


def _meta_file_in(plugins: object) -> str | None:
    """The meta files' name where ``plugins`` enables the meta plugin: a list of names and
    one-key mappings, or a mapping of names (MkDocs), or a table of tables (Zensical). An
    ``enabled`` MkDocs' tags hide (``!ENV``) counts as on, as the plugin is by default."""
    if isinstance(plugins, list):
        entries = [
            (item, None) if isinstance(item, str) else next(iter(item.items()))
            for item in plugins
            if isinstance(item, str) or (isinstance(item, dict) and len(item) == 1)
        ]
    elif isinstance(plugins, dict):
        entries = list(plugins.items())
    else:
        return None
    for name, settings in entries:
        if name in _META_PLUGINS:
            settings = settings if isinstance(settings, dict) else {}
            if settings.get("enabled") is False:
                return None
            name_given = settings.get("meta_file")
            return name_given if isinstance(name_given, str) and name_given else _META_FILE
    return None


def _i18n_in(plugins: object) -> Languages | None:
    """mkdocs-static-i18n's languages where ``plugins`` enables it (see :class:`Languages`)."""
    entries = plugins.items() if isinstance(plugins, dict) else []
    if isinstance(plugins, list):
        entries = [next(iter(item.items())) for item in plugins if isinstance(item, dict)]
    settings = next((value for name, value in entries if name == "i18n"), None)
    if not isinstance(settings, dict) or settings.get("enabled") is False:
        return None
    languages = settings.get("languages")
    if not isinstance(languages, list):
        return None
    locales = [
        (str(item["locale"]), item.get("default") is True)
        for item in languages
        if isinstance(item, dict) and item.get("locale") and item.get("build") is not False
    ]
    if not locales:
        return None
    default = next((locale for locale, is_default in locales if is_default), locales[0][0])
    others = tuple(locale for locale, _ in locales if locale != default)
    return Languages(default, others, settings.get("docs_structure") == "folder")


def _yaml_lists(path: Path, seen: set[Path]) -> tuple[object, object]:
    """``markdown_extensions`` and ``plugins`` of an ``mkdocs.yml``, each from the file it
    ``INHERIT``\\ s where it has none of its own. Read whole only when the text names the
    snippets extension, a meta plugin or i18n (or inherits): most configs are never parsed
    whole."""
    resolved = path.resolve()
    if resolved in seen:
        return None, None  # the loop is reported by _read_yaml_keys
    seen.add(resolved)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return None, None  # reported by _read_yaml_keys
    document: Any = None
    if "pymdownx" in text or "meta" in text or "i18n" in text or "INHERIT" in text:
        import yaml

        class _AnyTag(yaml.SafeLoader):
            """MkDocs' own tags (``!ENV``, ``!!python/name:``) read as nothing."""

        _AnyTag.add_multi_constructor("", lambda loader, suffix, node: None)
        try:
            document = yaml.load(text, Loader=_AnyTag)  # a SafeLoader
        except yaml.YAMLError as error:
            raise InputError(f"{path}: not YAML MkDocs could read: {error}") from None
    if not isinstance(document, dict):
        return None, None
    keys = ("markdown_extensions", "plugins")
    inherit = document.get("INHERIT")
    if isinstance(inherit, str) and not all(key in document for key in keys):
        inherited = dict(zip(keys, _yaml_lists(path.parent / inherit, seen), strict=True))
        document = {**inherited, **document}
    return document.get(keys[0]), document.get(keys[1])


def _text(path: Path, values: dict[str, Any], key: str) -> str | None:
    value = values.get(key)
    if value is None or isinstance(value, str):
        return value
    raise InputError(f"{path}: {key} {value!r} is not text")


def _flag(path: Path, values: dict[str, Any], key: str, *, default: bool) -> bool:
    value = values.get(key, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value in TRUE | FALSE:
        return value in TRUE
    raise InputError(f"{path}: {key} {value!r} is not true or false")


def _read_yaml_keys(path: Path, seen: set[Path]) -> dict[str, Any]:
    """The top-level scalar values of :data:`_KEYS` in an ``mkdocs.yml`` (and what it
    ``INHERIT``\\ s, as MkDocs merges it: this file's keys win)."""
    resolved = path.resolve()
    if resolved in seen:
        raise InputError(f"{path}: INHERIT loops back to this file")
    seen.add(resolved)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except OSError as error:
        raise InputError(f"{path}: cannot read: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    values: dict[str, Any] = {}
    inherit: str | None = None
    for number, line in enumerate(text.splitlines(), 1):
        match = _TOP_LEVEL.match(line)
        if match is None or match["key"] not in (*_KEYS, "INHERIT"):
            continue
        value = _yaml_scalar(path, number, match["value"] or "")
        if match["key"] == "INHERIT":
            inherit = value if isinstance(value, str) else None
        else:
            values[match["key"]] = value
    if inherit:
        parent = _read_yaml_keys(path.parent / inherit, seen)
        return {**parent, **values}
    return values


def _yaml_scalar(path: Path, number: int, raw: str) -> Any:
    """One scalar as MkDocs reads it: :func:`.yaml_scalars.scalar`, or ``!ENV``."""
    text = without_comment(raw).strip()
    env = _ENV.match(text)
    if env is not None:
        names = env["list"].split(",") if env["list"] is not None else [env["name"]]
        items = [unquote(name.strip()) for name in names]
        default: str | None = None
        if len(items) > 1:
            *items, default = items
        for variable in items:
            if variable in os.environ:
                return os.environ[variable]
        return default  # with several items, the last is the default, as MkDocs reads it
    try:
        return scalar(text)
    except ValueError as error:
        raise InputError(f"{path}:{number}: {error}") from None
