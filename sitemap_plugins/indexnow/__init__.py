"""``sitemap-plugins submit``: telling search engines what changed, with IndexNow.

The old sitemap "ping" endpoints are gone (Google's since 2023, Bing's since 2022). IndexNow is
what remains: a JSON POST of up to 10,000 URLs of one host, with a key that the host serves at
``/{key}.txt`` (the core's ``indexnow_key`` option writes that file into the built site). Bing,
Yandex, Seznam and Naver share what any of them receives.

:mod:`.urls` reads sitemap sets and compares two deploys, :mod:`.submit` plans the requests and
sends them, :mod:`.client` speaks HTTP with bounded retries. Standard library only.
"""

from sitemap_plugins.defaults import DEFAULT_ENDPOINT
from sitemap_plugins.indexnow.client import (
    MAX_URLS_PER_REQUEST,
    Answer,
    IndexNowClient,
    RetryPolicy,
    SubmitError,
)
from sitemap_plugins.indexnow.submit import Plan, PlanError, Request, Sent, plan, preview, send
from sitemap_plugins.indexnow.urls import Changes, UrlSet, changes, read_urls

__all__ = [
    "DEFAULT_ENDPOINT",
    "MAX_URLS_PER_REQUEST",
    "Answer",
    "Changes",
    "IndexNowClient",
    "Plan",
    "PlanError",
    "Request",
    "RetryPolicy",
    "Sent",
    "SubmitError",
    "UrlSet",
    "changes",
    "plan",
    "preview",
    "read_urls",
    "send",
]
