"""Settings given on the command line (``sphinx-build -D name=value``), read the same way on
every Sphinx from 7 to 9.

Sphinx hands an override over as text and converts it by the type of the setting's declared
default (from 7.3 also where the setting is declared to take any type), each release its own
way: a list's text is split at commas, so an empty one becomes ``['']``, a list of one empty
name; Sphinx 7 takes any text but ``0`` for a true bool (``false`` is true), 8 and 9 take only
``0`` and ``1`` and stop the build with an error of their own for anything else; a number that
is not one is only a warning, and the value of ``conf.py`` is used instead.

So the extension declares each setting with a default Sphinx reads no type from, a function that
returns it (:func:`declared`): every Sphinx then hands the text over as it was given, and
:func:`read` converts it once, by the default's type, before the schema checks it and names the
option and the value when it is bad.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

__all__ = ["declared", "read"]

_BOOLEANS: Final = {"0": False, "1": True, "false": False, "true": True}
"""What Sphinx 8 and 9 take for a bool (``0``, ``1``), and the words, in any case."""


def declared(default: object) -> Callable[[Any], object]:
    """``default`` as a function of the configuration, which is how it is given to
    ``add_config_value`` (a new list each time: a list default must not be shared)."""
    if isinstance(default, list):
        items = tuple(default)
        return lambda config: list(items)
    return lambda config: default


def read(text: str, default: object) -> object:
    """``-D`` text as a value of the type of ``default``: ``0``/``1`` or ``false``/``true`` for a
    bool, a whole number for an int, the items between commas for a list (none for empty text,
    the only way to give an empty list there). Other text is kept as it is, for the schema to
    refuse with the option's name."""
    if isinstance(default, bool):
        return _BOOLEANS.get(text.lower(), text)
    if isinstance(default, int):
        return int(text) if text.isascii() and text.isdigit() else text
    if isinstance(default, (list, tuple)):
        return text.split(",") if text else []
    return text
