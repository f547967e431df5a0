"""The pytest plugin that defers the schema skip to the end of a test.

``pytest.skip`` ends a test at the point it is called, so a schema skip raised inside
:func:`~tests.support.sitemap_checks.check_sitemap_file` would also drop every assertion the test
makes afterwards. Registered as a pytest plugin (``tests/conftest.py`` names
``tests.support.sitemap_checks``, whose ``pytest_plugins`` names this module), the schema layer
instead records here that it was unavailable, and the test is skipped only after its body has
passed, with the reason; a failure in the body still fails. Without the plugin,
:func:`schema_unavailable` skips at once: at the end of ``check_sitemap_file`` (after the own
checks) or inside ``validate_xsd``.
"""

from __future__ import annotations

from collections.abc import Generator

import pytest

__all__ = ["schema_unavailable"]

_plugin_active = False
_deferred_skips: list[str] = []


def schema_unavailable(reason: str) -> None:
    """Say that the schema layer cannot run: recorded under the plugin, a skip without it."""
    if _plugin_active:
        if reason not in _deferred_skips:
            _deferred_skips.append(reason)
        return
    pytest.skip(reason)


def pytest_configure(config: pytest.Config) -> None:
    """Plugin hook: from now on schema skips are deferred to the end of each test."""
    global _plugin_active
    _plugin_active = True


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Plugin hook: a new test starts with no recorded skip (fixtures may record one)."""
    _deferred_skips.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Plugin hook: after a test body passed, turn a recorded schema skip into a skip."""
    try:
        result = yield
    except BaseException:
        _deferred_skips.clear()
        raise
    if _deferred_skips:
        reason = "; ".join(_deferred_skips)
        _deferred_skips.clear()
        pytest.skip(f"all other checks passed; schema validation skipped: {reason}")
    return result
