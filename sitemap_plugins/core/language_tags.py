"""Locale names as ``hreflang`` wants them: BCP 47 language tags.

Hosts name a language the way gettext does (Sphinx's ``language`` and the folders of its
``locale_dirs``, Pelican's ``lang``, the locales of MkDocs' i18n plugins):
``language[_territory][.codeset][@modifier]``, such as ``pt_BR``, ``zh_TW.Big5`` or
``sr@latin``, the three spellings Sphinx ships catalogs under. A BCP 47 tag joins its subtags
with ``-`` and has neither a codeset nor a modifier. The codeset says nothing of the language
and goes. A modifier that names a script or a variant in the IANA language subtag registry
becomes that subtag, the script before the territory and the variant after it: ``sr@latin`` is
``sr-Latn``, ``sr_RS@latin`` is ``sr-Latn-RS``, ``ca@valencia`` is ``ca-valencia``. ``@euro``
(a currency, in older glibc locale names) says nothing of the language either and goes. Any
other modifier has no BCP 47 equivalent, and the name is then no tag: dropping the modifier
could name another language (``aa_ER@saaho`` is Saho, not the Afar ``aa-ER`` names).

Only the ``hreflang`` value changes: the folder a language is served from is the host's, and
keeps the locale's own name (``/sr@latin/``).
"""

from __future__ import annotations

import functools
import re
from typing import Final

__all__ = ["language_tag"]

_WELL_FORMED: Final = re.compile(r"^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$")
"""The shape of a language tag as the sitemap's XHTML schema types ``hreflang``."""
_MODIFIERS: Final[dict[str, tuple[str, str]]] = {
    # modifier: (script subtag, variant subtag)
    "latin": ("Latn", ""),
    "latn": ("Latn", ""),
    "cyrillic": ("Cyrl", ""),
    "cyrl": ("Cyrl", ""),
    "arabic": ("Arab", ""),
    "devanagari": ("Deva", ""),
    "hebrew": ("Hebr", ""),
    "shaw": ("Shaw", ""),  # en@shaw: English in the Shavian alphabet
    "valencia": ("", "valencia"),  # ca@valencia: Valencian
    "ijekavian": ("", "ijekavsk"),  # sr@ijekavian: Serbian, Ijekavian pronunciation
    "ijekavianlatin": ("Latn", "ijekavsk"),
    "euro": ("", ""),
}
"""gettext's modifiers that have a BCP 47 equivalent (or none needed), in lower case."""


@functools.lru_cache(maxsize=1_024)  # a site has a few languages, asked for on every page
def language_tag(locale: str) -> str | None:
    """``locale`` as a BCP 47 tag for ``hreflang``, or None when it cannot be one."""
    name, has_modifier, modifier = locale.partition("@")
    subtags = name.partition(".")[0].replace("_", "-").split("-")
    if has_modifier:
        known = _MODIFIERS.get(modifier.lower())
        if known is None:
            return None
        script, variant = known
        if script:
            subtags.insert(1, script)
        if variant:
            subtags.append(variant)
    tag = "-".join(subtags)
    return tag if _WELL_FORMED.match(tag) else None
