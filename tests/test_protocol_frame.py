"""``frame``, the room's one serialiser of WebSocket messages (orjson), writes the text
Python's ``json`` would, compact and not escaped to ASCII, for every value a message
holds (its floats are rounded: seconds to a tenth, equity to four places; any other float
may be written with another exponent, ``1e-6`` for ``1e-06``, and reads back the same)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from splitpot.protocol import frame

TEXT = st.text(st.characters(exclude_categories=["Cs"]))  # no lone surrogates (refused)
FLOATS = st.floats(allow_nan=False, allow_infinity=False)
ROUNDED = st.floats(-1e12, 1e12).map(lambda value: round(value, 4))  # as the room's


def values(floats: st.SearchStrategy[float]) -> st.SearchStrategy[Any]:
    scalars = st.none() | st.booleans() | st.integers(-(2**63), 2**63 - 1) | floats | TEXT
    return st.recursive(
        scalars,
        lambda inner: (
            st.lists(inner, max_size=5)
            | st.dictionaries(TEXT | st.integers(-1000, 1000), inner, max_size=5)
        ),
        max_leaves=30,
    )


def python_json(message: Any) -> str:
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


@given(st.dictionaries(TEXT, values(ROUNDED), max_size=6))
def test_a_frame_is_the_text_python_json_writes(message: dict[str, Any]) -> None:
    assert frame(message) == python_json(message)


@given(st.dictionaries(TEXT, values(FLOATS), max_size=6))
def test_a_frame_reads_back_as_python_jsons_text_does(message: dict[str, Any]) -> None:
    assert json.loads(frame(message)) == json.loads(python_json(message))


def test_a_frame_of_the_room_escapes_as_json_does() -> None:
    message = {
        "type": "event",
        "said": 'Анна ставит 40 — 「ベット」 "quoted" \\ \n\t\x00\x1f \u2028',
        "seats": {1: "Ann", 2: None},  # a number as a key is written as its text
        "cards": ("As", "Kd"),  # a tuple as a list
        "seconds": 0.1,
    }
    assert frame(message) == python_json(message)
    assert json.loads(frame(message))["seats"] == {"1": "Ann", "2": None}
