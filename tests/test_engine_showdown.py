"""The showdown as its own object (RULES.md 5): the hands' values, the awards, the order
of showing, and the muck offered only to a hand that wins nothing and beats nothing shown.
Whole hands through their showdowns are in test_engine_rules.py and the corpus."""

from __future__ import annotations

import pytest

from splitpot.cards import Card, parse_cards
from splitpot.engine import Action, IllegalActionError, Mucked, Pot, Shown
from splitpot.engine.showdown import ShowdownRound
from splitpot.evaluate import Variant

BOARD = parse_cards("KsKh9c8d2s")  # no low can qualify
HOLES = [
    parse_cards("AsAdQcJc"),  # aces and kings
    parse_cards("9h9s3c4c"),  # nines full of kings: wins
    parse_cards("7c6c5h4h"),  # a pair of kings: wins nothing, beats nothing
]
POT = Pot(30, (0, 1, 2))


def showdown(
    aggressor: int | None = None,
    face_up: bool = False,
    holes: list[tuple[Card | None, ...]] | None = None,
) -> ShowdownRound:
    return ShowdownRound(
        Variant.OMAHA, holes or HOLES, [0, 1, 2], [BOARD], [POT], 2, aggressor, face_up
    )


def test_each_hand_is_valued_and_the_pot_awarded_by_the_values() -> None:
    round_ = showdown()
    assert [round_.values[p].high.name for p in range(3)] == [
        "two pair, Aces and Kings",
        "a full house, Nines full of Kings",
        "a pair of Kings",
    ]
    assert all(value.low is None for value in round_.values.values())
    assert [(a.player, a.amount) for a in round_.awards] == [(1, 30)]


def test_the_losing_hand_alone_is_offered_the_muck() -> None:
    round_ = showdown()
    assert round_.order == (0, 1, 2)  # no river bet: left of the button first
    assert [(type(e), e.player) for e in round_.reveal()] == [(Shown, 0), (Shown, 1)]
    assert round_.to_act == 2
    legal = round_.legal_actions()
    assert (legal.player, legal.show, legal.muck) == (2, True, True)
    with pytest.raises(IllegalActionError, match="show or muck, not fold"):
        round_.check(Action.fold())
    assert round_.to_act == 2  # a refused action changes nothing
    assert round_.apply(Action.muck()) == [Mucked(2)]
    assert round_.to_act is None


def test_the_rivers_aggressor_shows_first_and_then_every_better_hand() -> None:
    round_ = showdown(aggressor=2)
    assert [e.player for e in round_.reveal() if isinstance(e, Shown)] == [2, 0, 1]
    assert round_.to_act is None


def test_all_face_up_every_known_hand_shows_and_an_unknown_one_is_mucked() -> None:
    holes: list[tuple[Card | None, ...]] = [*HOLES[:2], (None, None, None, None)]
    round_ = showdown(face_up=True, holes=holes)
    assert [(type(e), e.player) for e in round_.reveal()] == [
        (Shown, 0),
        (Shown, 1),
        (Mucked, 2),
    ]
    assert round_.to_act is None
