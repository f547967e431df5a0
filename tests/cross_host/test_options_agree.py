"""One schema, three hosts: every option is checked when each host reads its configuration.

The same bad value for the same option must stop MkDocs, Sphinx and Pelican while they load
their configuration, with a message naming the option and the value.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from sitemap_plugins.core import OPTION_SPECS, OptionError

BAD_VALUES: dict[str, object] = {
    "base_url": "/relative/",
    "filename": "../sitemap.xml",
    "format": "json",
    "gzip": "maybe",
    "urls_per_file": 50_001,
    "bytes_per_file": 10,
    "lastmod_sources": ["svn"],
    "git_date": "tagger",
    "git_fetch_history": "yes",
    "git_ignore_commits": ["HEAD~1"],
    "git_ignore_commits_file": 42,
    "lastmod_format": "unix",
    "changefreq": "Weekly",
    "priority": 1.5,
    "rules": [{"glob": "blog/*"}],
    "exclude": 42,
    "images": "yes",
    "news": {"name": "The Example"},
    "robots_txt": "yes",
    "indexnow_key": "abcd1234_efgh",  # one character off a key: nearly the whole secret
    "html_page": "yes",
    "indent": 99,
    "strict": "yes",
}


SHOWN: dict[str, object] = {"indexnow_key": "abcd*********"}
"""How messages show a refused value where it is not shown as written: a key, masked."""


def _shown(name: str, value: object) -> object:
    return SHOWN.get(name, value)


def _invalid(option: str, value: object) -> str:
    """The start of the core's message for a value an option does not allow, as a pattern."""
    return rf"^invalid value for option {re.escape(option)}: {re.escape(repr(value))} \(allowed: "


def test_the_table_covers_every_option() -> None:
    assert list(BAD_VALUES) == [spec.name for spec in OPTION_SPECS]


def _mkdocs_error(tmp_path: Path, name: str, value: object) -> str:
    from mkdocs.config import load_config
    from mkdocs.exceptions import Abort

    from tests.mkdocs.helpers import CONFIG_ABORT

    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "index.md").write_text("# Home\n")
    config = tmp_path / "mkdocs.yml"
    config.write_text("site_name: t\nsite_url: https://example.org/\n")
    # MkDocs logs each configuration error, then aborts: the message is in the log.
    with pytest.raises(Abort, match=CONFIG_ABORT):
        load_config(
            str(config), plugins=[{"sitemap": {name: value}}], site_dir=str(tmp_path / "site")
        )
    return ""


def _sphinx_error(tmp_path: Path, name: str, value: object) -> str:
    from sphinx.application import Sphinx
    from sphinx.errors import ConfigError

    (tmp_path / "conf.py").write_text(
        'extensions = ["sitemap_plugins.sphinx"]\nhtml_baseurl = "https://example.org/"\n'
        f"sitemap_{name} = {value!r}\n"
    )
    (tmp_path / "index.rst").write_text("Home\n====\n")
    pattern = _invalid(f"'sitemap_{name}'", _shown(name, value))
    with pytest.raises(ConfigError, match=pattern) as caught:
        Sphinx(
            str(tmp_path),
            str(tmp_path),
            str(tmp_path / "_build"),
            str(tmp_path / "_doctrees"),
            "html",
            status=None,
            warning=None,
        )
    return str(caught.value)


def _pelican_error(tmp_path: Path, name: str, value: object) -> str:
    from pelican import Pelican
    from pelican.settings import read_settings

    (tmp_path / "content").mkdir()
    settings = read_settings(
        override={
            "PATH": str(tmp_path / "content"),
            "OUTPUT_PATH": str(tmp_path / "output"),
            "SITEURL": "https://example.org",
            "PLUGINS": ["sitemap_plugins.pelican"],
            "SITEMAP": {name: value},
        }
    )
    # Raised by the plugin's handler of Pelican's ``initialized`` signal, as it is.
    pattern = _invalid(f"\"SITEMAP['{name}']\"", _shown(name, value))
    with pytest.raises(OptionError, match=pattern) as caught:
        Pelican(settings)
    return str(caught.value)


@pytest.mark.parametrize("host", ["mkdocs", "sphinx", "pelican"])
@pytest.mark.parametrize("name", list(BAD_VALUES))
def test_a_bad_value_stops_each_host_at_config_time(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, host: str, name: str
) -> None:
    value = BAD_VALUES[name]
    load = {"mkdocs": _mkdocs_error, "sphinx": _sphinx_error, "pelican": _pelican_error}[host]
    message = load(tmp_path, name, value) + caplog.text  # MkDocs logs the reason, then aborts
    assert name in message
    value = _shown(name, value)
    assert repr(value) in message or str(value) in message
    if name in SHOWN:
        assert str(BAD_VALUES[name]) not in message
