"""The variant registry: one interface to every family's protocols, scoring and checking.

Like python-chess's variants, each rule family is a :class:`Variant` registered under its family
key (``rules.variants``). The rest of Pulka (the command line, the Django side) reads and writes
protocols, scores and checks them only through this interface and never branches on a family's
name: adding a family adds a package with its ``variant`` module (its :class:`Variant`, built on
:mod:`scoring.variant_base`) and a registration here, not ``if variant == …`` elsewhere. The
registry imports the families; no family imports the registry or another family.

Documents carry their family: a JSON document by its ``format`` (``pulka-protocol`` for Russian,
``pulka-balkan-protocol`` for the Balkan games, ``pulka-pot-protocol`` for the pot games,
``pulka-priffe-protocol`` for Priffe), a text file by its ``format:`` line (``pulka 1``,
``balkan 1``, ``pot 1``, ``priffe 1``) or, failing that, by the family of its ``convention:``
line.

>>> v = variant_for_convention("leningrad")
>>> v.key, v.protocol_format, v.table_sizes
('russian', 'pulka-protocol', (3, 4))
>>> find_variant("srpski").key
'balkan'
>>> sorted(VARIANTS)
['balkan', 'pot', 'priffe', 'russian']
"""

from __future__ import annotations

from typing import Any, Final

from rules.conventions import InvalidConventionError
from rules.variants import FAMILIES, RUSSIAN, family_of_convention, find_family

from .balkan.variant import BalkanVariant
from .jsonio import Json, JsonFormatError, _decode, dumps_document
from .notation_lexer import NotationError
from .pot.variant import PotVariant
from .priffe.variant import PriffeVariant
from .russian.variant import RussianVariant
from .variant_base import Variant

__all__ = [
    "Variant",
    "VARIANTS",
    "find_variant",
    "variant_for_convention",
    "variant_of",
    "read_document",
    "read_json_document",
    "read_text_document",
    "decode_json",
]


VARIANTS: Final[dict[str, Variant]] = {
    v.key: v for v in (RussianVariant(), BalkanVariant(), PotVariant(), PriffeVariant())
}
assert set(VARIANTS) == set(FAMILIES), "every rule family needs its scoring variant"


def find_variant(name: str) -> Variant:
    """A variant by family key or alias, or by one of its conventions' keys or aliases.

    :raises rules.conventions.InvalidConventionError: for a name nobody knows.
    """
    return VARIANTS[find_family(name).key]


def variant_for_convention(convention: str) -> Variant:
    """The variant a convention (key or alias) belongs to."""
    return VARIANTS[family_of_convention(convention).key]


def variant_of(protocol: object) -> Variant:
    """The variant of a protocol object."""
    for variant in VARIANTS.values():
        if isinstance(protocol, variant.protocol_type):
            return variant
    raise TypeError(f"not a protocol of any registered variant: {type(protocol).__name__}")


def decode_json(text: str) -> Json:
    """JSON text decoded, or :class:`scoring.jsonio.JsonFormatError` naming where it broke."""
    return _decode(text)


def read_json_document(data: Json) -> tuple[Variant, Any, Any]:
    """A decoded protocol document of any family, told by its ``format``."""
    found = data.get("format") if isinstance(data, dict) else None
    for variant in VARIANTS.values():
        if found == variant.protocol_format:
            protocol, sheet = variant.from_dict(data)
            return variant, protocol, sheet
    known = ", ".join(repr(v.protocol_format) for v in VARIANTS.values())
    raise JsonFormatError("$.format", f"expected one of {known}, found {found!r}")


def _text_family(text: str) -> Variant:
    """The variant a text file declares in its headers (``format:``, then ``convention:``)."""
    convention: tuple[int, str] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, sep, value = line.partition(":")
        if not sep:
            break  # the first deal line ends the headers
        key = key.strip().lower()
        value = value.strip().strip('"')
        if key in ("format", "формат"):
            word = value.split()[0].lower() if value.split() else ""
            for variant in VARIANTS.values():
                if word == variant.text_format:
                    return variant
            known = ", ".join(v.text_format for v in VARIANTS.values())
            raise NotationError(number, 1, "UNKNOWN_FORMAT", value=repr(value), known=known)
        if key in ("convention", "конвенция", "variant", "konvencija", "pravila", "konvention") and convention is None:
            convention = (number, value)
    if convention is not None:
        try:
            return variant_for_convention(convention[1])
        except InvalidConventionError:
            return VARIANTS[RUSSIAN.key]  # its own reader names the bad convention
    return VARIANTS[RUSSIAN.key]


def read_text_document(text: str) -> tuple[Variant, Any, Any]:
    """A protocol in JSON or the text notation, of any family: ``(variant, protocol, sheet)``.

    :raises ValueError: a :class:`~scoring.notation_lexer.NotationError` or
        :class:`~scoring.jsonio.JsonFormatError` naming where the input is wrong.
    """
    if text.lstrip().startswith("{"):
        return read_json_document(decode_json(text))
    variant = _text_family(text)
    protocol, sheet = variant.parse_text(text)
    return variant, protocol, sheet


def read_document(text: str) -> tuple[Variant, Any, Any]:
    """Alias of :func:`read_text_document`."""
    return read_text_document(text)


def dumps(data: Json) -> str:
    """A document as the command line prints it."""
    return dumps_document(data, 2)
