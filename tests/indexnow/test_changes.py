"""What changed between two deploys: added, lastmod moved, removed."""

from __future__ import annotations

from sitemap_plugins.indexnow import UrlSet, changes

A, B, C, D = (f"https://example.org/{name}/" for name in "abcd")


def urls(**listed: str | None) -> UrlSet:
    return UrlSet("test", {f"https://example.org/{k}/": v for k, v in listed.items()})


def test_added_moved_and_removed_urls_are_sent() -> None:
    old = urls(a="2024-05-01", b="2024-05-01", c="2024-05-01")
    new = urls(a="2024-05-01", b="2024-05-02", d="2024-05-01")
    diff = changes(new, old)
    assert (diff.added, diff.updated, diff.removed) == ((D,), (B,), (C,))
    assert diff.urls == [B, C, D]


def test_the_same_instant_written_otherwise_has_not_moved() -> None:
    old = urls(a="2024-05-01T10:00:00Z", b="2024-05-01")
    new = urls(a="2024-05-01T12:00:00+02:00", b="2024-05-01T00:00:00Z")
    assert changes(new, old).urls == []


def test_a_url_without_lastmod_is_sent_only_when_new() -> None:
    old = urls(a=None, b="2024-05-01")
    new = urls(a=None, b=None, c=None)
    diff = changes(new, old)
    assert diff.urls == [C]


def test_a_lastmod_that_appears_counts_as_moved() -> None:
    assert changes(urls(a="2024-05-01"), urls(a=None)).updated == (A,)
