"""Invariants over random legal play: every variant and structure, 2 to 10 players."""

import random

from hypothesis import given
from hypothesis import strategies as st

from splitpot.cards import Deck
from splitpot.engine import (
    Action,
    ActionKind,
    Hand,
    HoleCardsDealt,
    LegalActions,
    Post,
    PostKind,
    Shown,
    replay,
)
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Variant


def random_action(legal: LegalActions, rng: random.Random) -> Action:
    if legal.show or legal.muck:
        return Action.show() if legal.show and rng.random() < 0.5 else Action.muck()
    choices = ["fold"] if legal.call is not None else []
    choices += ["check"] if legal.check else []
    choices += ["call"] * 3 if legal.call is not None else []
    choices += ["raise"] * 2 if legal.bet_or_raise is not None else []
    choices += ["allin"] if legal.all_in else []
    choice = rng.choice(choices)
    if choice == "raise":
        assert (
            legal.bet_or_raise is not None and legal.min_to is not None and legal.max_to is not None
        )
        return Action(legal.bet_or_raise, rng.randint(legal.min_to, legal.max_to))
    return Action.parse(choice)


@st.composite
def hands(draw: st.DrawFn) -> tuple[Hand, random.Random]:
    variant = draw(st.sampled_from(list(Variant)))
    structure = draw(st.sampled_from(["limit", "pot", "no"]))
    betting = {"limit": FixedLimit(2, 4), "pot": PotLimit(1, 2), "no": NoLimit(1, 2)}[structure]
    rake = draw(st.sampled_from([None, Rake(5, 3)]))
    config = GameConfig(variant, betting, rake=rake)
    players = draw(st.integers(2, 8 if variant is Variant.BIGO else 10))
    stacks = draw(st.lists(st.integers(1, 120), min_size=players, max_size=players))
    button = draw(st.integers(0, players - 1))
    sb = button if players == 2 else (button + 1) % players
    posts = [Post(sb, PostKind.SMALL_BLIND, 1), Post((sb + 1) % players, PostKind.BIG_BLIND, 2)]
    if players > 3 and draw(st.booleans()):  # a returning player owes both blinds
        late = (sb + 2) % players
        posts += [Post(late, PostKind.LIVE, 2), Post(late, PostKind.DEAD, 1)]
    if draw(st.booleans()):
        posts += [Post(p, PostKind.ANTE, 1) for p in range(players)]
    deck = Deck(draw(st.integers(0, 2**32))).cards
    return Hand(config, stacks, button, posts, deck), random.Random(draw(st.integers(0, 2**32)))


@given(hands())
def test_chips_are_conserved_at_every_step_and_the_log_replays(
    case: tuple[Hand, random.Random],
) -> None:
    hand, rng = case
    total = sum(hand.starting_stacks)
    assert hand.chips_in_play() == total
    while not hand.is_over:
        hand.apply(random_action(hand.legal_actions(), rng))
        assert hand.chips_in_play() == total
        assert all(stack >= 0 for stack in hand.stacks)
    result = hand.result
    assert result is not None
    assert sum(result.stacks) + result.rake == total
    assert sum(a.amount for a in result.awards) == sum(p.amount for p in result.pots)
    for award in result.awards:  # every pot goes to its own players only
        assert award.player in result.pots[award.pot].eligible
        assert not hand.folded[award.player]
    again = replay(
        hand.config, hand.starting_stacks, hand.button, hand.posts, hand.deck, hand.actions
    )
    assert again.events == hand.events
    assert again.stacks == hand.stacks


@given(hands())
def test_no_viewer_ever_sees_a_card_it_may_not(case: tuple[Hand, random.Random]) -> None:
    hand, rng = case
    while not hand.is_over:
        hand.apply(random_action(hand.legal_actions(), rng))
    shown = {e.player for e in hand.events if isinstance(e, Shown)}
    for viewer in [None, *range(hand.players)]:
        for event in hand.visible_events(viewer):
            if isinstance(event, HoleCardsDealt):
                assert (None not in event.cards) == (event.player == viewer)
            if isinstance(event, Shown):
                assert event.player in shown


def _state(hand: Hand) -> tuple[object, ...]:
    return (hand.stacks, hand.bets, len(hand.events), hand.to_act, hand.street, hand.phase)


@given(hands(), st.sampled_from(list(ActionKind)), st.integers(-5, 500))
def test_an_illegal_action_changes_nothing_and_check_refuses_as_apply_does(
    case: tuple[Hand, random.Random], kind: ActionKind, amount: int
) -> None:
    """``apply`` of an illegal action changes nothing; ``check`` refuses exactly the
    actions ``apply`` refuses, with the same message, and never changes anything."""
    hand, rng = case
    while not hand.is_over:
        legal = hand.legal_actions()
        before = _state(hand)
        try:
            attempt = Action(kind, amount if kind in (ActionKind.BET, ActionKind.RAISE) else None)
        except ValueError:
            hand.apply(random_action(legal, rng))
            continue
        try:
            hand.check(attempt)
            checked = None
        except ValueError as refusal:
            checked = str(refusal)
        assert _state(hand) == before
        try:
            hand.apply(attempt)
        except ValueError as refusal:
            assert checked == str(refusal)
            assert _state(hand) == before
            hand.apply(random_action(legal, rng))
        else:
            assert checked is None
