"""``sitemap-plugins submit``: telling search engines what changed, with IndexNow.

The old sitemap "ping" endpoints are gone (Google's since 2023, Bing's since 2022). IndexNow is
what remains: a JSON POST of up to 10,000 URLs of one host, with a key that the host serves in a
file ``{key}.txt``, at its root or in a folder that holds every URL sent (``keyLocation``; the
core's ``indexnow_key`` option writes the file at the top of the built site, which a project
site serves in its folder). Bing, Yandex, Seznam and Naver share what any of them receives.

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
