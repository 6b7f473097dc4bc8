"""Small helpers to set up hands in tests."""

from collections.abc import Sequence

from splitpot.cards import parse_cards
from splitpot.engine import Action, Hand, Post, PostKind, arrange_deck
from splitpot.rules import GameConfig


def blind_posts(players: int, button: int, small: int, big: int) -> list[Post]:
    """Small blind left of the button, big blind next; heads-up the button posts the small."""
    sb = button if players == 2 else (button + 1) % players
    bb = (sb + 1) % players
    return [Post(sb, PostKind.SMALL_BLIND, small), Post(bb, PostKind.BIG_BLIND, big)]


def deal(
    config: GameConfig,
    stacks: Sequence[int],
    holes: Sequence[str],
    board: str,
    button: int = 0,
    posts: Sequence[Post] | None = None,
) -> Hand:
    hole_cards = [parse_cards(h) for h in holes]
    deck = arrange_deck(hole_cards, parse_cards(board), button, config.variant.hole_cards)
    betting = config.betting
    if posts is None:
        posts = blind_posts(len(stacks), button, betting.small_blind, betting.big_blind)
    return Hand(config, stacks, button, posts, deck)


def play(hand: Hand, *actions: str) -> Hand:
    for action in actions:
        hand.apply(Action.parse(action))
    return hand
