"""Posting to an IndexNow endpoint: one JSON request, its answer, and bounded retries.

The protocol's answers: 200 and 202 mean accepted; 400 a request the endpoint cannot read; 403 a
key it could not find at its location (or a file there without the key); 422 URLs that are not on
the key's host, or a key that breaks the protocol's rules; 429 too many requests. 429 and server
errors (5xx), and a connection that fails, are tried again after a wait: the endpoint's
``Retry-After`` when it sends one, else a doubling backoff, within a number of tries per request
and a total waiting time for the whole run, so a run always ends. Waiting goes through ``sleep``
and time is read through ``clock``, both injectable, so tests need no real time at all.
"""

from __future__ import annotations

import email.utils
import http.client
import json
import socket
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from sitemap_plugins import __version__
from sitemap_plugins.defaults import DEFAULT_ENDPOINT, DEFAULT_TIMEOUT

MAX_URLS_PER_REQUEST: Final = 10_000
USER_AGENT: Final = f"sitemap-plugins/{__version__} (submit)"

REFUSALS: Final[Mapping[int, str]] = {
    400: "the endpoint cannot read the request (bad JSON or fields)",
    403: "the key was not found at its location, or the file there does not hold the key",
    422: "URLs that are not on the key's host, or a key the protocol does not allow",
}


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How long one run may keep trying: ``attempts`` per request (the first included), waits
    doubling from ``first_wait`` up to ``max_wait`` seconds each, ``budget`` seconds in all."""

    attempts: int = 5
    first_wait: float = 2.0
    max_wait: float = 120.0
    budget: float = 600.0


class SubmitError(Exception):
    """A request that did not succeed; ``str()`` is one line naming the cause.

    ``status`` is the HTTP status of the last answer (None when the endpoint never answered).
    """

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True, slots=True)
class Answer:
    """What the endpoint said to one request."""

    status: int
    reason: str
    retry_after: str | None = None


Send = Callable[[str, bytes, float], Answer]
"""``(url, body, timeout) -> Answer``; raises ``OSError`` when no answer came."""


def http_send(url: str, body: bytes, timeout: float) -> Answer:
    """POST ``body`` as JSON with urllib; redirects are not followed (a POST must not turn into
    a GET elsewhere), proxies come from the environment as usual."""
    opener = urllib.request.OpenerDirector()
    for handler in (
        urllib.request.ProxyHandler(),
        urllib.request.HTTPHandler(),
        urllib.request.HTTPSHandler(),
        urllib.request.UnknownHandler(),
    ):
        opener.add_handler(handler)
    request = urllib.request.Request(
        url,
        data=body,
        method="POST",
        headers={"Content-Type": "application/json; charset=utf-8", "User-Agent": USER_AGENT},
    )
    try:
        with opener.open(request, timeout=timeout) as response:
            response.read(65_536)
            return Answer(response.status, response.reason, response.headers.get("Retry-After"))
    except urllib.error.URLError as error:
        reason = error.reason
        raise reason if isinstance(reason, OSError) else OSError(str(reason)) from None
    except http.client.HTTPException as error:
        raise OSError(f"bad HTTP answer ({type(error).__name__})") from None


class IndexNowClient:
    """Sends request bodies to one endpoint, trying again where the protocol allows it."""

    def __init__(
        self,
        endpoint: str = DEFAULT_ENDPOINT,
        *,
        timeout: float = DEFAULT_TIMEOUT,
        retry: RetryPolicy | None = None,
        send: Send = http_send,
        sleep: Callable[[float], None] = time.sleep,
        clock: Callable[[], float] = time.time,
        log: Callable[[str], None] | None = None,
    ) -> None:
        self.endpoint = endpoint
        self.timeout = timeout
        self.retry = retry or RetryPolicy()
        self._send = send
        self._sleep = sleep
        self._clock = clock
        self._log = log
        self.waited = 0.0
        self.requests = 0

    def post(self, document: Mapping[str, object]) -> Answer:
        """Send one submission; returns the accepting answer or raises :class:`SubmitError`."""
        body = json.dumps(document, ensure_ascii=False).encode("utf-8")
        policy = self.retry
        for attempt in range(1, policy.attempts + 1):
            self.requests += 1
            try:
                answer = self._send(self.endpoint, body, self.timeout)
            except OSError as error:
                problem, status, hint = _network(error, self.timeout), None, None
            else:
                if answer.status in (200, 202):
                    return answer
                if answer.status in REFUSALS:
                    raise SubmitError(
                        f"HTTP {answer.status} {answer.reason}: {REFUSALS[answer.status]}",
                        answer.status,
                    )
                if answer.status != 429 and answer.status < 500:
                    raise SubmitError(
                        f"HTTP {answer.status} {answer.reason}: not an answer IndexNow gives; "
                        "is --endpoint an IndexNow endpoint?",
                        answer.status,
                    )
                problem = f"HTTP {answer.status} {answer.reason}"
                status, hint = answer.status, answer.retry_after
            if attempt == policy.attempts:
                raise SubmitError(f"{problem}, {attempt} times; stopped (try again later)", status)
            wait = self._wait(attempt, hint, problem, status)
            if self._log is not None:
                self._log(f"{problem}; trying again in {wait:g} s ({attempt + 1} of "
                          f"{policy.attempts})")  # fmt: skip
            self._sleep(wait)
            self.waited += wait
        raise SubmitError("no attempt was made", None)  # pragma: no cover - attempts >= 1

    def _wait(
        self, attempt: int, retry_after: str | None, problem: str, status: int | None
    ) -> float:
        policy = self.retry
        backoff = min(policy.max_wait, policy.first_wait * 2 ** (attempt - 1))
        asked = _retry_after(retry_after, self._clock())
        wait = backoff if asked is None else asked
        if wait > policy.max_wait:
            raise SubmitError(
                f"{problem}: the endpoint asks to wait {wait:g} s (Retry-After), longer than "
                f"{policy.max_wait:g} s; stopped (try again later)",
                status,
            )
        if self.waited + wait > policy.budget:
            raise SubmitError(
                f"{problem}: waited {self.waited:g} s already, and {policy.budget:g} s is the "
                "most one run waits; stopped (try again later)",
                status,
            )
        return wait


def _retry_after(value: str | None, now: float) -> float | None:
    """Seconds to wait from a ``Retry-After`` header: a number of seconds or an HTTP date."""
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isdigit():
        return float(int(text))
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - now)


def _network(error: OSError, timeout: float) -> str:
    if isinstance(error, (TimeoutError, socket.timeout)):
        return f"no answer within {timeout:g} s"
    if isinstance(error, socket.gaierror):
        return f"cannot resolve the endpoint's host ({error.strerror})"
    return f"cannot reach the endpoint: {error.strerror or error}"
