"""Layer 1: the official schemas.

``sitemap-all.xsd`` from the shared schema folder (``../shared/xsd`` from the project root, or
``$SITEMAP_XSD_DIR``) accepts a ``<urlset>`` or a ``<sitemapindex>`` with every extension
namespace, validated by lxml/libxml2. The folder is not part of the project: on a fresh clone it
is absent and only this layer is skipped, with the reason shown (see :mod:`.deferred_skip`). The
W3C ``xml.xsd`` import is resolved through the folder's ``catalog.xml`` and the network is never
used (``no_network=True``; the local resolution is verified once per process).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path
from typing import Any, Final

from lxml import etree  # type: ignore[import-untyped,unused-ignore]

from tests.support.sitemap_checks.deferred_skip import schema_unavailable
from tests.support.sitemap_checks.model import MAX_REPORTED, read_uncompressed

__all__ = ["schema_skip_reason", "validate_xsd", "xsd_dir"]

_XSD_ENV: Final = "SITEMAP_XSD_DIR"
_PROJECT_ROOT: Final = Path(__file__).resolve().parents[3]


def xsd_dir() -> Path | None:
    """The folder with the official schemas, or None where it is absent (a user's fresh clone).

    ``$SITEMAP_XSD_DIR`` wins over ``../shared/xsd`` next to the project root, so the suite can run
    wherever the folder sits.
    """
    candidate = _xsd_candidate()
    return candidate if (candidate / "sitemap-all.xsd").is_file() else None


def _xsd_candidate() -> Path:
    override = os.environ.get(_XSD_ENV)
    return Path(override) if override else _PROJECT_ROOT.parent / "shared" / "xsd"


def schema_skip_reason() -> str | None:
    """Why schema validation cannot run here, or None when it can."""
    if xsd_dir() is not None:
        return None
    return f"official schemas not found at {_xsd_candidate()}; set {_XSD_ENV}"


class _CatalogResolver(etree.Resolver):  # type: ignore[misc,unused-ignore]
    """Resolve the URIs listed in ``catalog.xml`` to the local copies.

    libxml2 reads ``XML_CATALOG_FILES`` once, at its first catalog lookup: if anything in the
    process did one before us (another schema with an import, say), setting the variable has no
    effect. This resolver applies the same catalog file itself, so the result does not depend on
    what ran first; the catalog stays the single place that says which URL maps to which file.
    """

    def __init__(self, catalog: Path) -> None:
        super().__init__()
        self._map: dict[str, Path] = {}
        ns = "{urn:oasis:names:tc:entity:xmlns:xml:catalog}"
        root = etree.parse(str(catalog), etree.XMLParser(no_network=True)).getroot()
        for entry in root:
            key = entry.get("name") if entry.tag == f"{ns}uri" else entry.get("systemId")
            target = entry.get("uri")
            if key and target:
                self._map[key] = (catalog.parent / target).resolve()

    def resolve(  # type: ignore[override,unused-ignore]
        self, system_url: str | None, public_id: str | None, context: Any
    ) -> Any:
        local = self._map.get(system_url or "")
        if local is None:
            return None  # not in the catalog: libxml2 decides (and no_network forbids HTTP)
        return self.resolve_filename(str(local), context)  # type: ignore[attr-defined,unused-ignore]


def _secure_parser(resolver: etree.Resolver | None = None) -> etree.XMLParser:
    parser = etree.XMLParser(no_network=True, resolve_entities=False, load_dtd=False)
    if resolver is not None:
        parser.resolvers.add(resolver)
    return parser


@functools.cache
def _compiled_schema(folder: Path) -> etree.XMLSchema:
    """Compile ``sitemap-all.xsd`` once per process and folder (it takes ~100 ms)."""
    catalog = folder / "catalog.xml"
    entry = f"file://{catalog}"
    current = os.environ.get("XML_CATALOG_FILES", "")
    if entry not in current.split() and str(catalog) not in current.split():
        os.environ["XML_CATALOG_FILES"] = f"{current} {entry}".strip()
    resolver = _CatalogResolver(catalog)
    _verify_local_xml_xsd(folder, resolver)
    parser = _secure_parser(resolver)
    return etree.XMLSchema(etree.parse(str(folder / "sitemap-all.xsd"), parser))


def _verify_local_xml_xsd(folder: Path, resolver: etree.Resolver) -> None:
    """Prove that the W3C URL of ``xml.xsd`` resolves to the local copy, with the network off.

    ``xhtml1-strict.xsd`` imports ``http://www.w3.org/2001/xml.xsd`` by URL. With the network
    disabled an unresolved import is only a warning to libxml2, and the schema then fails later,
    far from the cause; a schema that did fetch it would hide a network dependency. This probe
    imports it by URL alone and uses ``xml:lang``, so it compiles only if the catalog worked.
    """
    probe = b"""<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:probe">
      <xs:import namespace="http://www.w3.org/XML/1998/namespace"
                 schemaLocation="http://www.w3.org/2001/xml.xsd"/>
      <xs:element name="p"><xs:complexType><xs:attribute ref="xml:lang"/></xs:complexType>
      </xs:element></xs:schema>"""
    doc = etree.fromstring(probe, _secure_parser(resolver), base_url=str(folder / "probe.xsd"))
    try:
        etree.XMLSchema(doc)
    except etree.XMLSchemaParseError as error:
        raise AssertionError(
            f"http://www.w3.org/2001/xml.xsd does not resolve to {folder / 'xml.xsd'} through "
            f"{folder / 'catalog.xml'} (network is disabled): {error}"
        ) from error


def validate_xsd(path: Path) -> None:
    """Validate a ``.xml`` or ``.xml.gz`` sitemap or index against the official schemas.

    Raises AssertionError with libxml2's messages and line numbers. Where the schema folder is
    absent this skips (or, under the plugin, defers the skip to the end of the test).
    """
    reason = schema_skip_reason()
    if reason is not None:
        schema_unavailable(reason)
        return
    folder = xsd_dir()
    assert folder is not None
    schema = _compiled_schema(folder.resolve())
    data = read_uncompressed(path, limit=None)
    try:
        doc = etree.fromstring(data, _secure_parser(), base_url=str(path)).getroottree()
    except etree.XMLSyntaxError as error:
        raise AssertionError(f"{path}: not well-formed XML: {error}") from error
    try:
        valid = schema.validate(doc)
    except etree.XMLSchemaValidateError as error:  # libxml2 gives up (an unexpanded entity)
        raise AssertionError(f"{path}: XSD validation could not run: {error}") from error
    if not valid:
        errors: list[Any] = list(schema.error_log)  # type: ignore[call-overload,unused-ignore]
        lines = [f"{path}:{e.line}:{e.column}: {e.message}" for e in errors]
        raise AssertionError("XSD validation failed:\n" + "\n".join(lines[:MAX_REPORTED]))
