"""The game variants (RULES.md section 2): how many hole cards, and how the pot splits."""

from __future__ import annotations

from enum import Enum


class Variant(Enum):
    """An Omaha variant; its value is the id used on the command line and in files."""

    O8 = "o8"
    OMAHA = "omaha"
    BIGO = "bigo"
    HILO_NO_QUALIFIER = "o-hilo-noq"

    @property
    def title(self) -> str:
        return _TITLES[self]

    @property
    def short_name(self) -> str:
        """The game as a table's header names it: "Omaha Hi/Lo", "Big O"."""
        return _SHORT_NAMES[self]

    @property
    def hole_cards(self) -> int:
        return 5 if self is Variant.BIGO else 4

    @property
    def has_low(self) -> bool:
        return self is not Variant.OMAHA

    @property
    def low_qualifier(self) -> int | None:
        """The highest rank a low may hold (8), or None for any five different ranks."""
        return None if self is Variant.HILO_NO_QUALIFIER else 8

    @classmethod
    def parse(cls, text: str | Variant) -> Variant:
        if isinstance(text, Variant):
            return text
        for variant in cls:
            if variant.value == text.strip().lower():
                return variant
        known = ", ".join(v.value for v in cls)
        raise ValueError(f"unknown variant {text!r}; known variants: {known}")


_SHORT_NAMES = {
    Variant.O8: "Omaha Hi/Lo",
    Variant.OMAHA: "Omaha",
    Variant.BIGO: "Big O",
    Variant.HILO_NO_QUALIFIER: "Omaha Hi/Lo without a qualifier",
}
_TITLES = {
    Variant.O8: "Omaha Hi/Lo, eight or better",
    Variant.OMAHA: "Omaha",
    Variant.BIGO: "Big O (five-card Omaha Hi/Lo, eight or better)",
    Variant.HILO_NO_QUALIFIER: "Omaha Hi/Lo without a qualifier",
}
