"""The IndexNow key, as the protocol allows it, and the file that proves a site owns it.

IndexNow (the submission protocol Bing, Yandex, Seznam and Naver share) accepts a submission for a
host only when the key sent with it is served by that host, by default at ``/{key}.txt`` with the
key as the file's whole content. The ``indexnow_key`` option writes that file into the built site,
so that the deploy carries it; ``sitemap-plugins submit`` sends the key. Both check it here.

The key is not a secret once deployed (anyone can read the file), but a key shown in full in
build and CI logs is one more place it can be copied from before it is, so messages show it
masked (:func:`masked`).
"""

from __future__ import annotations

import re
from typing import Final

KEY_ALLOWED: Final = "8 to 128 characters, each a letter a-z or A-Z, a digit or '-'"
_KEY: Final = re.compile(r"[A-Za-z0-9-]{8,128}")


def check_key(value: object) -> str:
    """The key itself, or ``ValueError`` saying what a key is (never repeating the value).

    The whole value must match: ``$`` would also match before a final newline, and a key pasted
    into a CI secret with its line end would name the key file ``KEY\n.txt``.
    """
    if isinstance(value, str) and _KEY.fullmatch(value):
        return value
    raise ValueError(KEY_ALLOWED)


def key_file_name(key: str) -> str:
    """The name of the key file at the site's root: ``{key}.txt``."""
    return f"{key}.txt"


def key_file_bytes(key: str) -> bytes:
    """What the key file holds: the key itself, nothing else (engines compare it with the key
    sent); a valid key is ASCII."""
    return key.encode("ascii")


def holds_key(data: bytes, key: str) -> bool:
    """Whether a key file's ``data`` serves ``key``: the key, with any whitespace around it.

    The protocol asks for a UTF-8 text file holding the key, and a file written the usual way
    (``echo KEY > KEY.txt``, an editor that ends the line, CRLF on Windows) ends with a line
    end that engines accept. ``submit`` judges a served file by this rule and the plugins a
    file the site ships, so a file one accepts the other never warns about.
    """
    return data.decode("utf-8", errors="replace").strip() == key


def masked(key: str) -> str:
    """The key as messages show it: its first four characters, then one ``*`` per character
    left (``abcd********``), so two keys can be told apart and none can be read."""
    return key[:4] + "*" * max(0, len(key) - 4)
