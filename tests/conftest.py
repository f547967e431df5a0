"""Fixtures and checks shared by every test package."""

pytest_plugins = ["tests.support.fixtures", "tests.support.sitemap_checks"]
