"""Players' text as the room shows it: characters named by their code point in refusals,
and the characters that show nothing or reorder what follows them."""

from __future__ import annotations

import re
import unicodedata

# Letters and a symbol that are printed as nothing at all: the Hangul fillers and the
# blank Braille pattern (format characters, category Cf, show nothing either).
BLANKS = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069):
# they turn the text after them around ("\u202egnp.exe" shows as "exe.png").
BIDI_CONTROLS = re.compile(r"[\u202a-\u202e\u2066-\u2069]")


def code_point(char: str) -> str:
    """A character as the refusals name it: ``U+200B ZERO WIDTH SPACE``."""
    category = unicodedata.category(char)
    fallback = "(a control character)" if category == "Cc" else f"(category {category})"
    return f"U+{ord(char):04X} {unicodedata.name(char, fallback)}"


def shows_nothing(char: str) -> bool:
    """A character printed as nothing: a blank letter, or a format character (Cf)."""
    return char in BLANKS or unicodedata.category(char) == "Cf"
