"""Zero configuration: what a host's own config file already says about the site.

Run in a project folder that holds ``zensical.toml``, ``mkdocs.toml`` (MkDocs 2.0) or
``mkdocs.yml`` (MkDocs 1.x, also read by Zensical), ``generate`` needs no option: the host's
config gives the site's URL (``site_url``), where the sources are (``docs_dir``), where the
built site is (``site_dir``) and the URL style (``use_directory_urls``). The first of those files
found, in that order, is the one the host itself would read.

Only those four keys are read, the settings of ``pymdownx.snippets`` where
``markdown_extensions`` enables it (the files a page reads in date it too, see
:mod:`.snippets`), the name of the meta files where ``plugins`` enables Material's or
Zensical's ``meta`` plugin (a folder's file gives its pages their defaults, see
:mod:`.folder_meta`), and what Material reads ``sitemap.xml`` for: the theme's name, its
``features`` and whether ``extra.version`` names a ``provider`` (see
:mod:`sitemap_plugins.material_sitemap`). ``mkdocs.yml`` is YAML with tags of MkDocs' own
(``!ENV``, ``!!python/name:``): its top-level scalar keys are read line by line (with ``!ENV``
and ``INHERIT`` as MkDocs reads them), which is all these keys ever are; only a file that names
the snippets extension, a meta plugin, i18n, ``navigation.instant`` or ``version`` is read
whole, by PyYAML, as MkDocs reads it (``!ENV`` resolved, ``INHERIT`` merged), other tags read
as nothing.
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
    theme: str | None = None
    """The theme's name as the host resolves it (Zensical's, where none is named, is Material's:
    ``material``); None where the config does not say, or was not read for it."""
    theme_features: tuple[str, ...] = ()
    """The theme's ``features`` (Material's ``navigation.instant``...)."""
    version_provider: bool = False
    """Whether ``extra.version`` names a ``provider`` (mike): Material's version selector."""

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
        theme, features, provider = _theme_in(
            table, default="material" if host == "zensical" else None
        )
    else:
        values = _read_yaml_keys(path, set())
        host = "mkdocs"
        document = _yaml_document(path, set())
        snippets = _snippets_in(document.get("markdown_extensions"))
        meta_file = _meta_file_in(document.get("plugins"))
        i18n = _i18n_in(document.get("plugins"))
        theme, features, provider = _theme_in(document, default=None)
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
        theme=theme,
        theme_features=features,
        version_provider=provider,
    )


def _theme_in(
    config: Mapping[str, Any], *, default: str | None
) -> tuple[str | None, tuple[str, ...], bool]:
    """The theme's name, its ``features`` and whether ``extra.version`` names a ``provider``,
    as the host reads ``theme`` (a name, or a mapping with ``name``) and ``extra``. ``default``
    is the theme of a config that names none: Zensical's is Material's, MkDocs' is not."""
    theme = config.get("theme")
    settings = theme if isinstance(theme, dict) else {}
    name = theme if isinstance(theme, str) else settings.get("name")
    features = settings.get("features")
    extra = config.get("extra")
    version = extra.get("version") if isinstance(extra, dict) else None
    return (
        name if isinstance(name, str) and name else default,
        tuple(str(item) for item in features) if isinstance(features, list) else (),
        isinstance(version, dict) and bool(version.get("provider")),
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
    ``enabled`` that is no boolean (``!ENV`` naming no variable set, and no default) counts as
    on, as the plugin is by default."""
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


_WHOLE: Final = ("pymdownx", "meta", "i18n", "INHERIT", "navigation.instant", "version")
"""What an ``mkdocs.yml`` must name to be read whole: the snippets extension, a meta plugin,
i18n, what Material reads ``sitemap.xml`` for (or a file it inherits from)."""


def _yaml_document(path: Path, seen: set[Path], *, inherited: bool = False) -> dict[str, Any]:
    """An ``mkdocs.yml`` whole, as MkDocs reads it: ``!ENV`` resolved, other tags of its own
    (``!!python/name:``) read as nothing, the file it ``INHERIT``\\ s merged under it, mapping
    by mapping. Read only when the text names something of :data:`_WHOLE` (a file inherited
    from always is): most configs are never parsed whole, and give an empty mapping."""
    resolved = path.resolve()
    if resolved in seen:
        return {}  # the loop is reported by _read_yaml_keys
    seen.add(resolved)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError):
        return {}  # reported by _read_yaml_keys
    if not inherited and not any(word in text for word in _WHOLE):
        return {}
    import yaml

    class _MkDocsTags(yaml.SafeLoader):
        """``!ENV`` as MkDocs reads it; its other tags (``!!python/name:``) as nothing."""

    _MkDocsTags.add_multi_constructor("", lambda loader, suffix, node: None)
    _MkDocsTags.add_constructor("!ENV", _env_tag)
    try:
        loaded: object = yaml.load(text, Loader=_MkDocsTags)  # a SafeLoader
    except yaml.YAMLError as error:
        raise InputError(f"{path}: not YAML MkDocs could read: {error}") from None
    if not isinstance(loaded, dict):
        return {}
    document = {str(key): value for key, value in loaded.items()}
    inherit = document.pop("INHERIT", None)
    if isinstance(inherit, str):
        parent = _yaml_document(path.parent / inherit, seen, inherited=True)
        document = _merged(parent, document)
    return document


def _env_tag(loader: Any, node: Any) -> Any:
    """``!ENV NAME`` or ``!ENV [NAME, OTHER, default]`` as MkDocs reads it (pyyaml-env-tag):
    the first variable set, its text read as a YAML scalar, else the default (or None)."""
    import yaml

    default = None
    if isinstance(node, yaml.ScalarNode):
        names = [loader.construct_scalar(node)]
    elif isinstance(node, yaml.SequenceNode):
        children = node.value
        if len(children) > 1:
            default = loader.construct_object(children[-1])
            children = children[:-1]
        names = [loader.construct_scalar(child) for child in children]
    else:
        return None
    for name in names:
        if name in os.environ:
            value = os.environ[name]
            tag = loader.resolve(yaml.ScalarNode, value, (True, False))
            return loader.construct_object(yaml.ScalarNode(tag, value))
    return default


def _merged(parent: dict[str, Any], child: dict[str, Any]) -> dict[str, Any]:
    """``child`` over ``parent`` as MkDocs merges an ``INHERIT``\\ ed file: mappings key by
    key, at every depth; any other value of the child's replaces the parent's."""
    merged = dict(parent)
    for key, value in child.items():
        below = merged.get(key)
        if isinstance(below, dict) and isinstance(value, dict):
            value = _merged(below, value)
        merged[key] = value
    return merged


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
