"""Zero configuration: what a host's own config file already says about the site.

Run in a project folder that holds ``zensical.toml``, ``mkdocs.toml`` (MkDocs 2.0) or
``mkdocs.yml`` (MkDocs 1.x, also read by Zensical), ``generate`` needs no option: the host's
config gives the site's URL (``site_url``), where the sources are (``docs_dir``), where the
built site is (``site_dir``) and the URL style (``use_directory_urls``). The first of those files
found, in that order, is the one the host itself would read.

Only those four keys are read. ``mkdocs.yml`` is YAML with tags of MkDocs' own (``!ENV``,
``!!python/name:``); the standard library has no YAML reader, so its top-level scalar keys are
read line by line (with ``!ENV`` and ``INHERIT`` as MkDocs reads them), which is all these keys
ever are.
"""

from __future__ import annotations

import os
import re
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


@dataclass(frozen=True, slots=True)
class HostConfig:
    """The site as its host's config describes it; folders are absolute."""

    file: Path
    host: str
    site_url: str | None
    docs_dir: Path
    site_dir: Path
    use_directory_urls: bool

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
    else:
        values = _read_yaml_keys(path, set())
        host = "mkdocs"
    folder = path.parent
    site_url = _text(path, values, "site_url")
    return HostConfig(
        file=path,
        host=host,
        site_url=site_url or None,
        docs_dir=folder / (_text(path, values, "docs_dir") or "docs"),
        site_dir=folder / (_text(path, values, "site_dir") or "site"),
        use_directory_urls=_flag(path, values, "use_directory_urls", default=True),
    )


def _text(path: Path, values: dict[str, Any], key: str) -> str | None:
    value = values.get(key)
    if value is None or isinstance(value, str):
        return value
    raise InputError(f"{path}: {key} {value!r} is not text")


def _flag(path: Path, values: dict[str, Any], key: str, *, default: bool) -> bool:
    value = values.get(key, default)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in TRUE | FALSE:
        return value.lower() in TRUE
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
