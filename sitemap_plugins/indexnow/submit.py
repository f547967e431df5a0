"""``sitemap-plugins submit``: which URLs to send, in which requests, and sending them.

:func:`plan` reads the sitemap (and the previous one, with ``since``) and cuts the URLs into
requests: one host per request, at most :data:`~.client.MAX_URLS_PER_REQUEST` URLs each, with the
key and its location. :func:`send` checks that the key file is served where the requests say,
then posts them one after the other and stops at the first refusal. Neither prints anything:
both hand back lines for the command line to show, with the key masked.

Where the key file is: IndexNow takes it anywhere on the URLs' host, named by ``keyLocation``,
but one in a folder vouches only for the URLs under that folder. The ``indexnow_key`` option
writes it at the site's root, beside the sitemap, and a project site is served from a folder
(GitHub Pages' ``/repo/``): without ``--key-location`` the requests name the key file in the
folder holding every URL of the host, and :func:`send` looks in each parent up to the host's
root when it is not there. A URL the key file's folder does not cover is never sent.
"""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Final
from urllib.parse import urlsplit

from sitemap_plugins.core.indexnow import check_key, holds_key, key_file_name, masked
from sitemap_plugins.core.report import counted
from sitemap_plugins.core.urls import normal_path, web_origin
from sitemap_plugins.indexnow.client import MAX_URLS_PER_REQUEST, IndexNowClient, SubmitError
from sitemap_plugins.indexnow.urls import UrlSet, changes, read_urls
from sitemap_plugins.validate.collect import ListingError
from sitemap_plugins.validate.reading import ReadError, uncompressed, url_chunks


class PlanError(ValueError):
    """The submission cannot be planned: the command line or an input is wrong (exit 2)."""


@dataclass(frozen=True, slots=True)
class Request:
    """One IndexNow request: a host, the key's location there, and its URLs."""

    host: str
    key_location: str
    urls: tuple[str, ...]

    def document(self, key: str) -> dict[str, object]:
        """The JSON body the protocol asks for."""
        return {
            "host": self.host,
            "key": key,
            "keyLocation": self.key_location,
            "urlList": list(self.urls),
        }


@dataclass(slots=True)
class Plan:
    """What :func:`plan` found: the requests, and lines saying how they were chosen."""

    requests: list[Request] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    fallbacks: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A key location chosen by default -> where else :func:`send` looks when it is not
    served: the key file in each parent folder, up to the host's root, covers the URLs too."""

    @property
    def urls(self) -> int:
        return sum(len(request.urls) for request in self.requests)


def plan(
    sitemap: str,
    *,
    key: str | None,
    key_location: str | None = None,
    since: str | None = None,
    all_urls: bool = False,
    base_url: str | None = None,
    timeout: float = 30.0,
    batch_size: int = MAX_URLS_PER_REQUEST,
    progress: Callable[[str], None] | None = None,
) -> Plan:
    """Read the sitemap set and cut the URLs to send into requests; raises :class:`PlanError`."""
    if key is None:
        raise PlanError("no key: pass --key, or set INDEXNOW_KEY")
    try:
        check_key(key)
    except ValueError as error:
        raise PlanError(
            f"the key ({len(key)} characters) is not an IndexNow key: {error}"
        ) from None
    if since is None and not all_urls:
        raise PlanError(
            "say what to send: --since PREVIOUS (the sitemap live before this deploy) sends "
            "what changed; --all sends every URL"
        )
    if not 1 <= batch_size <= MAX_URLS_PER_REQUEST:
        raise PlanError(f"a request holds 1 to {MAX_URLS_PER_REQUEST:,} URLs")
    result = Plan()
    new = _read(sitemap, base_url, timeout, progress)
    result.lines.extend(_described(new))
    if since is not None:
        old = _read(since, base_url, timeout, progress)
        result.lines.extend(_described(old))
        diff = changes(new, old)
        urls = diff.urls
        result.lines.append(
            f"Since {since}: {len(diff.added):,} added, {len(diff.updated):,} with a new "
            f"lastmod, {len(diff.removed):,} removed: {counted(len(urls), 'URL')} to submit."
        )
    else:
        urls = sorted(new.urls)
    hosts: dict[str, list[str]] = {}
    for url in urls:
        host, on_host = _on_its_host(url)
        hosts.setdefault(host, []).append(on_host)
    site: dict[str, list[str]] = {}  # the sitemap's folder and its URLs, by host: the site's
    for url in [*new.urls, *([new.folder] if new.folder else [])]:
        host, on_host = _on_its_host(url)
        site.setdefault(host, []).append(on_host)
    for host, listed in sorted(hosts.items()):
        if key_location is not None:
            location = _given_location(key_location, host, listed, key)
        else:
            location, *parents = _default_locations([*listed, *site.get(host, [])], host, key)
            if parents:
                result.fallbacks[location] = tuple(parents)
        for start in range(0, len(listed), batch_size):
            result.requests.append(
                Request(host, location, tuple(listed[start : start + batch_size]))
            )
    return result


def _read(
    target: str, base_url: str | None, timeout: float, progress: Callable[[str], None] | None
) -> UrlSet:
    try:
        return read_urls(target, base_url=base_url, timeout=timeout, progress=progress)
    except ListingError as error:
        raise PlanError(f"cannot read {error.label}: {error.message}") from None


def _described(found: UrlSet) -> Iterator[str]:
    files = counted(found.files, "file")
    skipped = (
        f"; {counted(found.skipped, 'entry', 'entries')} that are not http(s) URLs left out"
        if found.skipped
        else ""
    )
    yield f"Read {found.source}: {counted(len(found.urls), 'URL')} in {files}{skipped}."
    if found.first_outside is not None:
        url, scope = found.first_outside
        yield (
            f"Left out {counted(found.outside, 'URL')} outside the folder and host its sitemap "
            f"may list (validate's E305), such as {url}, not under {scope}."
        )


def _on_its_host(url: str) -> tuple[str, str]:
    """The host ``url`` is submitted for, as RFC 3986 compares hosts (``Example.org:443`` is
    ``example.org`` over https), and ``url`` with its scheme and host written so: a request
    names one host and the endpoint takes only URLs of that host. The rest of the URL is sent
    as the sitemap spells it. A text that is no URL (a ``--key-location`` of ``key.txt``) is
    on no host."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        return "", url
    ends = [found for found in (rest.find(mark) for mark in "/?#") if found != -1]
    end = min(ends, default=len(rest))
    origin = web_origin(scheme, rest[:end])
    return origin.partition("://")[2], origin + rest[end:]


def _given_location(given: str, host: str, listed: list[str], key: str) -> str:
    """``--key-location`` as the requests for ``host`` name it; :class:`PlanError` when it
    cannot vouch for every URL of ``listed``."""
    key_host, location = _on_its_host(given)
    if key_host != host:
        raise PlanError(
            f"--key-location {_mask(given, key)} is not on {host}, the host of "
            f"{counted(len(listed), 'URL')} to submit: IndexNow accepts a key file only on the "
            "URLs' own host"
        )
    folder = _folder(location)
    outside = [url for url in listed if not _path(url).startswith(folder)]
    if outside:
        raise PlanError(
            f"--key-location {_mask(given, key)} is in {folder}, which does not hold "
            f"{counted(len(outside), 'URL')} to submit, such as {outside[0]}: a key file vouches "
            "only for the URLs under its folder (at the host's root, for all of them)"
        )
    return location


def _default_locations(urls: list[str], host: str, key: str) -> list[str]:
    """The key file in the deepest folder holding every one of ``urls`` (among them the
    sitemap's own folder where it is known: the site's base URL, where the ``indexnow_key``
    option writes it), then in each parent up to the host's root: each covers them all."""
    schemes = {urlsplit(url).scheme.lower() for url in urls}
    scheme = "https" if "https" in schemes else "http"
    folders = [_folder(url).split("/")[1:-1] for url in urls]
    shared: list[str] = []
    for segments in zip(*folders, strict=False):
        if len(set(segments)) != 1:
            break
        shared.append(segments[0])
    name = key_file_name(key)
    return [
        f"{scheme}://{host}/{''.join(segment + '/' for segment in shared[:depth])}{name}"
        for depth in range(len(shared), -1, -1)
    ]


def _path(url: str) -> str:
    """The path of ``url`` as a server resolves it (``/docs/%2e%2e/admin`` is ``/admin``)."""
    return normal_path(urlsplit(url).path or "/")


def _folder(url: str) -> str:
    """The folder of ``url``'s path, ending with ``/``: what a key file there vouches for."""
    path = _path(url)
    return path[: path.rfind("/") + 1]


def _mask(text: str, key: str) -> str:
    """``text`` with the key masked, also where a message quotes it escaped (``repr``), so that
    a key :func:`send` is given unchecked is not shown in full either."""
    for form in dict.fromkeys((key, repr(key)[1:-1])):
        if form:
            text = text.replace(form, masked(key))
    return text


class Outcome(str, enum.Enum):
    """How a submission ended, and its exit status."""

    DONE = "done"
    REFUSED = "refused"

    @property
    def exit_status(self) -> int:
        return 0 if self is Outcome.DONE else 1


@dataclass(slots=True)
class Sent:
    """What :func:`send` did."""

    outcome: Outcome = Outcome.DONE
    accepted: int = 0
    lines: list[str] = field(default_factory=list)

    @property
    def exit_status(self) -> int:
        return self.outcome.exit_status


def preview(found: Plan, key: str, endpoint: str, *, check_key_file: bool = True) -> Iterator[str]:
    """The requests a dry run shows: each as it would be posted, the key masked. A dry run
    looks for no key file (the site it reads may not be deployed yet): where a real run would
    look further (:attr:`Plan.fallbacks`), a line says where, and that it names the first that
    serves the key."""
    for number, request in enumerate(found.requests, 1):
        yield f"POST {endpoint} (request {number} of {len(found.requests)}, not sent)"
        document = request.document(masked(key))
        document["keyLocation"] = _mask(request.key_location, key)
        yield json.dumps(document, indent=2, ensure_ascii=False)
        further = found.fallbacks.get(request.key_location, ()) if check_key_file else ()
        if further:
            places = ", then ".join(_mask(place, key) for place in further)
            yield (
                f"(keyLocation: where the key file is served, checked when sent: there, else "
                f"{places})"
            )


def send(
    found: Plan,
    client: IndexNowClient,
    *,
    key: str,
    check_key_file: bool = True,
    timeout: float = 30.0,
    progress: Callable[[str], None] | None = None,
) -> Sent:
    """Check each key location (and where else the plan says to look), then post every request
    in turn, naming the key file where it was found, stopping at a refusal."""
    sent = Sent()
    requests = found.requests
    if check_key_file:
        served: dict[str, str] = {}
        for location in dict.fromkeys(request.key_location for request in requests):
            tried: list[tuple[str, str]] = []
            for candidate in (location, *found.fallbacks.get(location, ())):
                problem = key_file_problem(candidate, key, timeout)
                if problem is None:
                    served[location] = candidate
                    break
                tried.append((candidate, problem))
            else:
                sent.outcome = Outcome.REFUSED
                sent.lines.append(_mask(_not_served(tried), key))
                return sent
        requests = [
            dataclasses.replace(request, key_location=served[request.key_location])
            for request in requests
        ]
    total = len(requests)
    for number, request in enumerate(requests, 1):
        if progress is not None:
            urls = counted(len(request.urls), "URL")
            progress(f"request {number} of {total}: {urls} for {request.host}")
        try:
            answer = client.post(request.document(key))
        except SubmitError as error:
            sent.outcome = Outcome.REFUSED
            left = found.urls - sent.accepted
            sent.lines.append(
                f"{request.host}: {_mask(str(error), key)}; {counted(left, 'URL')} not submitted"
            )
            return sent
        sent.accepted += len(request.urls)
        sent.lines.append(
            f"{request.host}: {counted(len(request.urls), 'URL')} accepted "
            f"(HTTP {answer.status} {answer.reason})"
        )
    return sent


KEY_FILE_LIMIT: Final = 4096
"""Bytes of a key file read, sent and uncompressed: a key has at most 128 characters."""


def key_file_problem(location: str, key: str, timeout: float) -> str | None:
    """Why ``location`` does not serve ``key`` (so engines would answer 403), or None.

    The request accepts gzip (as every fetch of :func:`url_chunks` does), and servers that
    compress ``text/plain`` (nginx's ``gzip_types``, CDNs) then send the key gzipped: the body
    is read through :func:`uncompressed`, with the same cap on what it unpacks to.
    """
    try:
        data = _key_file_bytes(location, timeout)
    except ReadError as error:
        return error.message
    if not holds_key(data, key):
        return "a file is served there, but does not hold the key"
    return None


def _not_served(tried: list[tuple[str, str]]) -> str:
    """The line saying that no place looked at serves the key file, and what to do."""
    places = ", nor ".join(f"at {location} ({problem})" for location, problem in tried)
    return (
        f"the key file is not served {places}: deploy it first (the indexnow_key option writes "
        "it into the built site, beside the sitemap), name where it is served with "
        "--key-location, or pass --no-check-key; nothing sent"
    )


def _key_file_bytes(location: str, timeout: float) -> bytes:
    """The key file's content, uncompressed; at most :data:`KEY_FILE_LIMIT` bytes and one more
    (enough to tell that it is not a key), however far a gzip body would unpack."""
    data = b""
    pieces = uncompressed(url_chunks(location, timeout=timeout, limit=KEY_FILE_LIMIT))
    try:
        for piece in pieces:
            data += piece[: KEY_FILE_LIMIT + 1 - len(data)]
            if len(data) > KEY_FILE_LIMIT:
                break
    finally:
        pieces.close()
    return data
