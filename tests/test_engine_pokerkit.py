"""PokerKit as an independent oracle for turn order and pot distribution.

Both engines play the same random hands (deep stacks, so one pot): fixed-limit Omaha
Hi/Lo and pot-limit Omaha, 2 to 6 players. At every step they must agree on who acts,
and at the end on every stack.
"""

import random

import pytest

from splitpot.cards import Card, format_cards
from splitpot.engine import Action, Hand, Post, PostKind, arrange_deck
from splitpot.rules import FixedLimit, GameConfig, PotLimit, Variant

pokerkit = pytest.importorskip("pokerkit")
pytestmark = pytest.mark.filterwarnings("ignore:A card being dealt")

AUTOMATIONS = (
    pokerkit.Automation.ANTE_POSTING,
    pokerkit.Automation.BET_COLLECTION,
    pokerkit.Automation.BLIND_OR_STRADDLE_POSTING,
    pokerkit.Automation.CARD_BURNING,
    pokerkit.Automation.HOLE_CARDS_SHOWING_OR_MUCKING,
    pokerkit.Automation.HAND_KILLING,
    pokerkit.Automation.CHIPS_PUSHING,
    pokerkit.Automation.CHIPS_PULLING,
)


def _play(seed: int, limit: bool) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    stacks = [rng.randrange(400, 800) for _ in range(players)]
    cards = rng.sample([Card.from_code(c) for c in range(52)], 4 * players + 5)
    holes = [cards[4 * p : 4 * p + 4] for p in range(players)]
    board = cards[4 * players :]
    button = players - 1  # PokerKit's order: p1 left of the button, the button last
    if limit:
        config = GameConfig(Variant.O8, FixedLimit(4, 8))
        theirs = pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
            AUTOMATIONS, False, 0, (2, 4), 4, 8, stacks, players
        )
    else:
        config = GameConfig(Variant.OMAHA, PotLimit(2, 4))
        theirs = pokerkit.PotLimitOmahaHoldem.create_state(
            AUTOMATIONS, False, 0, (2, 4), 4, stacks, players
        )
    small, big = (players - 1, 0) if players == 2 else (0, 1)
    posts = [Post(small, PostKind.SMALL_BLIND, 2), Post(big, PostKind.BIG_BLIND, 4)]
    ours = Hand(config, stacks, button, posts, arrange_deck(holes, board, button, 4))
    for hole in holes:
        theirs.deal_hole(format_cards(hole))
    streets = iter([board[:3], board[3:4], board[4:]])
    while not ours.is_over and ours.phase.value == "betting":
        if theirs.can_deal_board():
            theirs.deal_board(format_cards(next(streets)))
            continue
        assert theirs.actor_index == ours.to_act
        legal = ours.legal_actions()
        roll = rng.random()
        if legal.call is not None and roll < 0.15:
            theirs.fold()
            ours.apply(Action.fold())
        elif legal.bet_or_raise is not None and roll > 0.75:
            assert legal.min_to is not None and legal.max_to is not None
            to = rng.randint(legal.min_to, min(legal.max_to, legal.min_to + 40))
            assert theirs.min_completion_betting_or_raising_to_amount == legal.min_to
            if not limit:  # PokerKit's maximum in fixed limit is not the fixed amount
                assert theirs.max_completion_betting_or_raising_to_amount == legal.max_to
            theirs.complete_bet_or_raise_to(to)
            ours.apply(Action(legal.bet_or_raise, to))
        else:
            theirs.check_or_call()
            ours.apply(Action.check() if legal.check else Action.call())
    while not ours.is_over:  # showdown: every hand shown, as PokerKit's automation does
        ours.apply(Action.show())
    while theirs.can_deal_board():
        theirs.deal_board(format_cards(next(streets)))
    assert not theirs.status
    assert list(theirs.stacks) == list(ours.stacks), (seed, ours.events)


@pytest.mark.parametrize("seed", range(300))
def test_fixed_limit_omaha_hi_lo_agrees_with_pokerkit(seed: int) -> None:
    _play(seed, limit=True)


@pytest.mark.parametrize("seed", range(300))
def test_pot_limit_omaha_agrees_with_pokerkit(seed: int) -> None:
    _play(seed, limit=False)
