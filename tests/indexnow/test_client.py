"""The IndexNow client's answers and retries, with an injected transport, clock and sleep."""

from __future__ import annotations

import email.utils

import pytest

from sitemap_plugins.indexnow import Answer, IndexNowClient, RetryPolicy, SubmitError

DOCUMENT = {"host": "example.org", "key": "abcdefgh", "urlList": ["https://example.org/"]}


class Script:
    """Answers given in turn; an ``OSError`` in the list is raised instead."""

    def __init__(self, *answers: Answer | OSError) -> None:
        self.answers = list(answers)
        self.bodies: list[bytes] = []

    def __call__(self, url: str, body: bytes, timeout: float) -> Answer:
        self.bodies.append(body)
        answer = self.answers.pop(0)
        if isinstance(answer, OSError):
            raise answer
        return answer


def client(script: Script, waits: list[float], **policy: float) -> IndexNowClient:
    return IndexNowClient(
        "https://indexnow.test/indexnow",
        retry=RetryPolicy(**policy),  # type: ignore[arg-type]
        send=script,
        sleep=waits.append,
        clock=lambda: 1_700_000_000.0,
    )


@pytest.mark.parametrize("status", [200, 202])
def test_200_and_202_are_success_at_once(status: int) -> None:
    waits: list[float] = []
    script = Script(Answer(status, "OK"))
    assert client(script, waits).post(DOCUMENT).status == status
    assert waits == []
    assert len(script.bodies) == 1


@pytest.mark.parametrize(
    ("status", "cause"),
    [
        (400, "cannot read the request"),
        (403, "key was not found at its location"),
        (422, "not on the key's host"),
        (404, "not an answer IndexNow gives"),
    ],
)
def test_refusals_stop_at_once_naming_the_cause(status: int, cause: str) -> None:
    waits: list[float] = []
    script = Script(Answer(status, "No"))
    with pytest.raises(SubmitError, match=f"HTTP {status} No: .*{cause}") as caught:
        client(script, waits).post(DOCUMENT)
    assert caught.value.status == status
    assert waits == []
    assert len(script.bodies) == 1


def test_429_and_5xx_back_off_doubling_until_accepted() -> None:
    waits: list[float] = []
    script = Script(Answer(429, "Slow"), Answer(500, "Oops"), Answer(503, "Busy"), Answer(202, ""))
    assert client(script, waits, first_wait=2, max_wait=60).post(DOCUMENT).status == 202
    assert waits == [2, 4, 8]


def test_retry_after_in_seconds_and_as_a_date_is_honoured() -> None:
    waits: list[float] = []
    later = email.utils.formatdate(1_700_000_000 + 7, usegmt=True)
    script = Script(Answer(429, "Slow", "3"), Answer(503, "Busy", later), Answer(200, "OK"))
    client(script, waits).post(DOCUMENT)
    assert waits == [3, 7]


def test_tries_are_bounded_in_count() -> None:
    waits: list[float] = []
    script = Script(*[Answer(503, "Busy")] * 3)
    with pytest.raises(SubmitError, match=r"HTTP 503 Busy, 3 times; stopped") as caught:
        client(script, waits, attempts=3, first_wait=1).post(DOCUMENT)
    assert caught.value.status == 503
    assert waits == [1, 2]
    assert len(script.bodies) == 3


def test_waiting_is_bounded_in_time() -> None:
    waits: list[float] = []
    script = Script(*[Answer(429, "Slow", "40")] * 5)
    with pytest.raises(SubmitError, match=r"waited 80 s already, and 100 s is the most"):
        client(script, waits, budget=100, max_wait=60).post(DOCUMENT)
    assert waits == [40, 40]


def test_a_retry_after_longer_than_allowed_stops_without_waiting() -> None:
    waits: list[float] = []
    script = Script(Answer(429, "Slow", "3600"))
    with pytest.raises(SubmitError, match=r"asks to wait 3600 s \(Retry-After\), longer than"):
        client(script, waits, max_wait=120).post(DOCUMENT)
    assert waits == []


def test_a_failed_connection_is_tried_again() -> None:
    waits: list[float] = []
    script = Script(
        ConnectionRefusedError(111, "Connection refused"), TimeoutError(), Answer(202, "")
    )
    assert client(script, waits, first_wait=1).post(DOCUMENT).status == 202
    assert waits == [1, 2]


def test_an_endpoint_that_never_answers_ends_with_the_cause() -> None:
    waits: list[float] = []
    script = Script(*[ConnectionRefusedError(111, "Connection refused")] * 2)
    with pytest.raises(
        SubmitError, match=r"cannot reach the endpoint: Connection refused, 2 times"
    ):
        client(script, waits, attempts=2).post(DOCUMENT)
