"""One schema: every bad value fails with the option's name, the value and what is allowed."""

from __future__ import annotations

import dataclasses

import pytest

from sitemap_plugins.core.options import OPTION_SPECS, OptionError, Options, Rule


def test_defaults_write_no_priority_or_changefreq() -> None:
    options = Options.from_mapping({})
    assert options.priority is None
    assert options.changefreq is None
    assert options.lastmod_sources == ("metadata", "git", "mtime")
    assert options.urls_per_file == 50_000
    assert options.bytes_per_file == 52_428_800


def test_every_option_has_help_and_a_default_that_passes_its_own_check() -> None:
    names = {f.name for f in dataclasses.fields(Options)}
    assert {spec.name for spec in OPTION_SPECS} == names
    for spec in OPTION_SPECS:
        assert spec.help.strip(), spec.name
        if spec.default is not None:
            spec.check(list(spec.default) if isinstance(spec.default, tuple) else spec.default)


@pytest.mark.parametrize(
    ("option", "value", "allowed"),
    [
        ("priority", 1.5, "0.0 to 1.0"),
        ("priority", "high", "0.0 to 1.0"),
        ("priority", True, "0.0 to 1.0"),
        ("changefreq", "Weekly", "weekly"),
        ("changefreq", "sometimes", "weekly"),
        ("urls_per_file", 50_001, "50,000"),
        ("urls_per_file", 0, "50,000"),
        ("bytes_per_file", 52_428_801, "52,428,800"),
        ("format", "json", "xml, txt"),
        ("gzip", "yes", "off, on, both"),
        ("lastmod_sources", ["git", "svn"], "metadata, git, mtime"),
        ("lastmod_sources", ["git", "git"], "at most once"),
        ("base_url", "/docs/", "absolute http"),
        ("filename", "../sitemap.xml", "relative path"),
        ("exclude", "search.html", "list of strings"),
        ("rules", [{"pattern": "a/*", "priority": 2}], "0.0 to 1.0"),
        ("rules", [{"glob": "a/*"}], "pattern"),
        ("strict", "yes", "true or false"),
        ("images", "yes", "true or false"),
        ("news", {"name": "The Times", "language": "English"}, "ISO 639 code in lower case"),
        ("no_such_option", 1, "one of the options"),
    ],
)
def test_bad_values_name_option_value_and_allowed(option: str, value: object, allowed: str) -> None:
    with pytest.raises(OptionError) as caught:
        Options.from_mapping({option: value}, prefix="sitemap_")
    message = str(caught.value)
    assert f"'sitemap_{option}'" in message
    assert repr(value) in message
    assert allowed in message


def test_values_are_normalised() -> None:
    options = Options.from_mapping(
        {
            "base_url": "https://example.org/docs",
            "priority": "0.5",
            "gzip": True,
            "rules": [{"pattern": "blog/*", "changefreq": "weekly", "exclude": False}],
            "exclude": ["search.html"],
        }
    )
    assert options.base_url == "https://example.org/docs/"
    assert options.priority == 0.5
    assert options.gzip == "on"
    assert options.rules == (Rule("blog/*", None, "weekly", False),)
    assert options.exclude == ("search.html",)


def test_host_defaults_are_checked_too() -> None:
    assert Options.from_mapping({}, defaults={"gzip": "both"}).gzip == "both"
    assert Options.from_mapping({"gzip": "off"}, defaults={"gzip": "both"}).gzip == "off"
    with pytest.raises(
        OptionError,
        match=r"^invalid value for option 'gzip': 'maybe' \(allowed: one of off, on, both\)$",
    ):
        Options.from_mapping({}, defaults={"gzip": "maybe"})


def test_the_file_name_follows_the_format_unless_set() -> None:
    """Hosts pass an unset option as None (MkDocs and Sphinx fill every option in)."""
    assert Options.from_mapping({}).filename == "sitemap.xml"
    assert Options.from_mapping({"format": "txt"}).filename == "sitemap.txt"
    assert Options.from_mapping({"format": "txt", "filename": None}).filename == "sitemap.txt"
    assert (
        Options.from_mapping({"format": "txt", "filename": "a/urls.txt"}).filename == "a/urls.txt"
    )
    with pytest.raises(
        OptionError,
        match=r"^invalid value for option 'filename': 'sitemap\.xml' "
        r"\(allowed: a name ending in \.txt for format txt\)$",
    ):
        Options.from_mapping({"format": "txt", "filename": "sitemap.xml"})


def test_a_base_url_with_credentials_is_refused_without_showing_the_password() -> None:
    with pytest.raises(
        OptionError,
        match=r"^invalid value for option 'sitemap_base_url': 'https://user:\*\*\*@example\.org/' "
        r"\(allowed: .* without a user name or password\)$",
    ):
        Options.from_mapping({"base_url": "https://user:s3cret@example.org/"}, prefix="sitemap_")


def test_options_built_directly_name_the_file_after_the_format() -> None:
    assert Options().filename == "sitemap.xml"
    assert Options(format="txt").filename == "sitemap.txt"
