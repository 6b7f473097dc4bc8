"""The bots at a home game's table (RULES.md 7): their answer to run it twice, on clear
cases, and whole sessions of bomb pots on a double board, straddles and votes to run it
twice played to the chip."""

import random

import pytest

from splitpot.bots import SensibleBot, run_it_answer
from splitpot.cards import Card, Deck, parse_cards
from splitpot.engine import (
    Acted,
    Action,
    BoardDealt,
    Hand,
    Phase,
    Post,
    Posted,
    PostKind,
    RunsChosen,
    arrange_deck,
)
from splitpot.evaluate import Variant
from splitpot.rules import GameConfig, NoLimit, PotLimit
from splitpot.table import DoubleBoard, Straddle, Table, TableConfig


def all_in_on_the_flop(holes: list[str], flop: str) -> Hand:
    """Heads-up no limit 1/2 at a table that runs it twice: both players all in on
    ``flop``; the hand waits for their answers."""
    config = GameConfig(Variant.O8, NoLimit(1, 2), run_it_twice=True)
    cards = [parse_cards(h) for h in holes]
    order = arrange_deck(cards, parse_cards(flop), 0, 4)
    used = {c for c in order if c is not None}
    rest = iter(Card.from_code(c) for c in range(52) if Card.from_code(c) not in used)
    deck = [card if card is not None else next(rest) for card in order] + list(rest)
    posts = [Post(0, PostKind.SMALL_BLIND, 1), Post(1, PostKind.BIG_BLIND, 2)]
    hand = Hand(config, [100, 100], 0, posts, deck)
    for action in ("call", "check", "allin", "call"):
        hand.apply(Action.parse(action))
    assert hand.phase is Phase.RUN_IT
    return hand


def test_a_big_favourite_runs_it_once_and_the_one_behind_agrees() -> None:
    """Top set against two lower pairs with no low to come in hand (the set's share is
    82%): the set declines, the underdog agrees."""
    hand = all_in_on_the_flop(["AsAhKc9d", "QhQcJsJc"], "AdKd7c")
    assert run_it_answer(hand.view(0), Variant.O8) is False
    assert run_it_answer(hand.view(1), Variant.O8) is True


def test_players_about_even_both_agree() -> None:
    """The same kings and the same low cards in other suits: each hand's share is about
    half the pot."""
    hand = all_in_on_the_flop(["KsKh9c8d", "KdKc9s8h"], "2c5hJd")
    assert run_it_answer(hand.view(0), Variant.O8) is True
    assert run_it_answer(hand.view(1), Variant.O8) is True


def test_a_player_who_cannot_see_every_hand_agrees() -> None:
    """A view without the other hand face up (nothing to weigh): the bot agrees."""
    hand = all_in_on_the_flop(["AsAhKc9d", "QhQcJsJc"], "AdKd7c")
    view = hand.view(0)
    hidden = type(view)(**{f: getattr(view, f) for f in view.__dataclass_fields__} | {"shown": {}})
    assert run_it_answer(hidden, Variant.O8) is True


def play_session(config: TableConfig, hands: int, seed: int) -> tuple[Table, list[Hand]]:
    """Six sensible bots play ``hands`` hands: every seat straddles when it may, and the
    players asked to run it twice answer as ``run_it_answer`` says; no chip is made or
    lost."""
    table = Table(config)
    bots = {seat: SensibleBot(f"Bot {seat}", seed + seat, samples=60) for seat in range(6)}
    for seat, bot in bots.items():
        table.sit(seat, bot.name, config.max_buy_in)
        if config.straddle:
            table.choose_straddle(seat, Straddle.ALWAYS)
    chips = table.chips()
    seeds = random.Random(seed)
    played: list[Hand] = []
    for _ in range(hands):
        for seat, player in enumerate(table.seats):
            if player is not None and player.stack == 0:
                table.add_chips(seat, config.max_buy_in)
                chips += config.max_buy_in
        table.deal(Deck(seeds.getrandbits(64)).cards, draw=Deck(seeds.getrandbits(64)).cards)
        current = table.hand
        assert current is not None
        played.append(current.hand)
        answered: set[int] = set()
        while table.hand is not None:
            hand = table.hand.hand
            asked = [seat for seat in table.run_it_seats if seat not in answered]
            if asked:
                seat = asked[0]
                answered.add(seat)
                player = table.hand.seats.index(seat)
                table.answer_run_it(seat, run_it_answer(hand.view(player), config.variant))
                continue
            seat = table.seat_to_act
            assert seat is not None and hand.to_act is not None
            table.act(seat, bots[seat].decide(hand.view(hand.to_act), config.variant))
        rake = sum(h.result.rake for h in played if h.result is not None)
        assert table.chips() + rake == chips
    return table, played


def test_bots_play_bomb_pots_on_a_double_board() -> None:
    """Every other hand a bomb pot of two big blinds on two boards: no one acts before
    the flop, and each pot is split between the boards."""
    config = TableConfig(
        Variant.O8, PotLimit(1, 2), bomb_pot=2, bomb_every=2, double_board=DoubleBoard.BOMB_POTS
    )
    _, played = play_session(config, 16, seed=3)
    bombs = [h for h in played if any(isinstance(e, Posted) and e.kind is PostKind.BOMB
                                      for e in h.events)]  # fmt: skip
    assert len(bombs) >= 6
    for hand in bombs:
        assert len(hand.boards) == 2
        flop = next(i for i, e in enumerate(hand.events) if isinstance(e, BoardDealt))
        assert not any(isinstance(e, Acted) for e in hand.events[:flop])
    assert any(award.board == 1 for h in bombs if h.result for award in h.result.awards)


@pytest.mark.parametrize("seed", [5, 11])
def test_bots_play_straddles_and_vote_to_run_it_twice(seed: int) -> None:
    """Every seat straddles when it may; all-in hands are put to the vote."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), straddle=True, run_it_twice=True)
    _, played = play_session(config, 20, seed)
    straddles = [
        e for h in played for e in h.events if isinstance(e, Posted) and e.kind is PostKind.STRADDLE
    ]
    assert straddles and all(e.amount == 4 for e in straddles if not e.all_in)
    runs = [(h, e.times) for h in played for e in h.events if isinstance(e, RunsChosen)]
    assert runs  # the session puts a hand to the vote
    for hand, times in runs:
        assert len(hand.boards) == times
