"""The protocol's decoders against its encoders: a structure and its stakes, and a turn's
legal actions, encoded to JSON text and read back, are the values the table played."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_engine_properties import hands, random_action

from splitpot.engine import Hand, LegalActions
from splitpot.protocol import (
    betting_from_json,
    betting_json,
    encode_legal,
    hand_betting_from_json,
    legal_from_json,
)
from splitpot.rules import Betting, FixedLimit, Mixed, NoLimit, PotLimit


def over_the_wire(value: Any) -> Any:
    """The JSON as a client reads it: written as text and parsed again."""
    return json.loads(json.dumps(value))


@st.composite
def structures(draw: st.DrawFn) -> Betting | Mixed:
    big = draw(st.integers(1, 10_000))
    small = draw(st.integers(1, big))
    limit = FixedLimit(big, 2 * big, small_blind=small, big_blind=big)
    pot_limit = PotLimit(small, big)
    mixed = Mixed(limit, pot_limit, draw(st.none() | st.integers(2, 20)))
    return draw(st.sampled_from([limit, pot_limit, NoLimit(small, big), mixed]))


@given(structures())
def test_a_structure_and_its_stakes_read_back_as_the_same_value(betting: Betting | Mixed) -> None:
    fields = over_the_wire(betting_json(betting))
    assert betting_from_json(fields) == betting
    played = betting.betting_for(0) if isinstance(betting, Mixed) else betting
    assert hand_betting_from_json(fields) == played


@pytest.mark.parametrize(
    "betting",
    [FixedLimit(2, 4), PotLimit(1, 2), NoLimit(5, 10), Mixed(FixedLimit(2, 4), PotLimit(1, 2))],
)
def test_the_tables_defaults_read_back(betting: Betting | Mixed) -> None:
    assert betting_from_json(over_the_wire(betting_json(betting))) == betting


def as_sent(legal: LegalActions) -> LegalActions:
    """What a turn says of ``legal``: the all-in total only when going all in is offered."""
    return legal if legal.all_in else replace(legal, all_in_to=None)


@given(hands())
def test_every_turn_of_a_hand_reads_back_as_the_engines_legal_actions(
    case: tuple[Hand, random.Random],
) -> None:
    hand, rng = case
    while not hand.is_over:
        legal = hand.legal_actions()
        back = legal_from_json(legal.player, over_the_wire(encode_legal(legal)))
        assert back == as_sent(legal)
        assert back.describe() == legal.describe()
        hand.apply(random_action(legal, rng))
