"""The home game's options in the engine (RULES.md 7): a board run twice and a double
board split exactly as an independent calculation says, and the engine's rules of each."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence

from hypothesis import given
from hypothesis import strategies as st

from splitpot.cards import FULL_DECK, Card, Deck, parse_cards
from splitpot.engine import (
    Acted,
    Action,
    ActionKind,
    BoardDealt,
    Hand,
    Phase,
    Post,
    Posted,
    PostKind,
    RunItOffered,
    Share,
    Shown,
    Street,
    UncalledBetReturned,
    deal_order,
)
from splitpot.engine.hand import most_players
from splitpot.evaluate import best_high, best_low
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Variant

# ------------------------------------------------------------------ decks


def stacked_deck(holes: Sequence[str], button: int, streets: Sequence[str]) -> list[Card]:
    """A deck that deals ``holes`` (one text per player, by player index) one card at a
    time from the left of the button, then each of ``streets`` in order with a burn card
    before it (RULES.md 4.4 and 7); every other position holds the unused cards in order."""
    players = len(holes)
    hole_cards = [parse_cards(h) for h in holes]
    wanted: list[Card | None] = []
    for round_ in range(len(hole_cards[0])):
        wanted += [hole_cards[p][round_] for p in deal_order(players, button)]
    for cards in streets:
        wanted += [None, *parse_cards(cards)]
    spare = iter(card for card in FULL_DECK if card not in wanted)
    return [card if card is not None else next(spare) for card in wanted] + list(spare)


def boards_from_deck(
    deck: Sequence[Card | None], players: int, hole_cards: int, layout: str, known: int = 0
) -> list[list[Card | None]]:
    """The boards a hand deals, read from the deck's positions as RULES.md 7 and
    FAIRNESS.md order them: ``single`` (burn, flop, burn, turn, burn, river), ``double``
    (each street to the first board then the second, a burn before each) or ``twice``
    (the first run as usual, then the second run from the next card: a burn before each
    street it deals, after the ``known`` cards both runs share)."""
    at = players * hole_cards
    sizes = [3, 1, 1]
    if layout == "double":
        boards: list[list[Card | None]] = [[], []]
        for size in sizes:
            for board in boards:
                board += deck[at + 1 : at + 1 + size]
                at += 1 + size
        return boards
    first: list[Card | None] = []
    for size in sizes:
        first += deck[at + 1 : at + 1 + size]
        at += 1 + size
    if layout == "single":
        return [first]
    second = first[:known]
    for size in sizes[{0: 0, 3: 1, 4: 2}[known] :]:
        second += deck[at + 1 : at + 1 + size]
        at += 1 + size
    return [first, second]


# ------------------------------------------------- the independent calculation


def holes_from_deck(
    deck: Sequence[Card | None], players: int, hole_cards: int, button: int
) -> list[list[Card | None]]:
    """Each player's hole cards, read from the deck: one at a time from the left of the
    button (RULES.md 4.2)."""
    holes: list[list[Card | None]] = [[] for _ in range(players)]
    order = deal_order(players, button)
    for round_ in range(hole_cards):
        for position, player in enumerate(order):
            holes[player].append(deck[round_ * players + position])
    return holes


def chips_in(hand: Hand) -> tuple[list[int], int, list[bool]]:
    """What each player put in the pots, the dead money (antes, dead small blinds), and
    who folded: from the events alone (posts, actions, bets returned). A bomb is no bet
    but each player's stake in the pots (RULES.md 7: one short of it is all in for what
    they have); antes are the main pot's (docs/rules.md)."""
    live, dead, folded = [0] * hand.players, 0, [False] * hand.players
    for event in hand.events:
        if isinstance(event, Posted):
            if event.kind.live or event.kind is PostKind.BOMB:
                live[event.player] += event.amount
            else:
                dead += event.amount
        elif isinstance(event, Acted):
            live[event.player] += event.added
            folded[event.player] |= event.kind is ActionKind.FOLD
        elif isinstance(event, UncalledBetReturned):
            live[event.player] -= event.amount
    return live, dead, folded


def pots_by_levels(live: list[int], dead: int, still_in: list[int]) -> list[tuple[int, list[int]]]:
    """The main pot and side pots: one for each level at which a player still in is all
    in, the dead money in the main pot, a folded player's chips above the last level in
    the last pot (RULES.md 4.6)."""
    pots: list[tuple[int, list[int]]] = []
    floor = 0
    for level in sorted({live[p] for p in still_in}):
        amount = sum(min(c, level) - min(c, floor) for c in live)
        pots.append((amount, [p for p in still_in if live[p] >= level]))
        floor = level
    pots[0] = (pots[0][0] + dead, pots[0][1])
    pots[-1] = (pots[-1][0] + sum(max(c - floor, 0) for c in live), pots[-1][1])
    return pots


def raked(pots: list[tuple[int, list[int]]], rake: Rake | None) -> list[tuple[int, list[int]]]:
    """RULES.md 5 and 7: the percentage of each pot, rounded down, main pot first, until
    the cap; before the split."""
    if rake is None:
        return pots
    left = rake.cap
    out = []
    for amount, eligible in pots:
        cut = amount * rake.percent // 100
        if left is not None:
            cut = min(cut, left)
            left -= cut
        out.append((amount - cut, eligible))
    return out


def shared(chips: int, players: list[int], button: int, seats: int) -> dict[int, int]:
    """Chips shared evenly; leftovers one each to the first players left of the button."""
    ordered = sorted(players, key=lambda p: (p - button - 1) % seats)
    each, odd = divmod(chips, len(ordered))
    return {p: each + (i < odd) for i, p in enumerate(ordered)}


def expected_awards(hand: Hand, boards: list[list[Card | None]]) -> Counter[tuple[int, int]]:
    """Chips per (player, board) as RULES.md 5 and 7 say, computed from scratch: each
    contested pot cut in one part per board (the odd chip to the first), each part split
    high/low on its own board (the odd chip of the halves high, leftovers of a half one
    each to the first players left of the button; the same players winning both halves
    share the part as one); a pot with one player is theirs (on the first board)."""
    variant, players, button = hand.config.variant, hand.players, hand.button
    holes = holes_from_deck(hand.deck, players, variant.hole_cards, button)
    live, dead, folded = chips_in(hand)
    still_in = [p for p in range(players) if not folded[p]]
    awards: Counter[tuple[int, int]] = Counter()
    for amount, eligible in raked(pots_by_levels(live, dead, still_in), hand.config.rake):
        if len(eligible) == 1:
            awards[(eligible[0], 0)] += amount
            continue
        half = amount // len(boards)
        parts = [amount - half * (len(boards) - 1)] + [half] * (len(boards) - 1)
        for index, (part, board) in enumerate(zip(parts, boards, strict=True)):
            highs = {p: best_high(holes[p], board) for p in eligible}
            high_winners = [p for p in eligible if highs[p] == max(highs.values())]
            lows = {}
            if variant.has_low:
                lows = {p: best_low(holes[p], board, variant.low_qualifier) for p in eligible}
                lows = {p: low for p, low in lows.items() if low is not None}
            low_winners = [p for p in lows if lows[p] == max(lows.values())]
            if not low_winners or set(low_winners) == set(high_winners):
                split = [(part, high_winners)]
            else:
                split = [(part - part // 2, high_winners), (part // 2, low_winners)]
            for chips, winners in split:
                for player, won in shared(chips, winners, button, players).items():
                    awards[(player, index)] += won
    return +awards  # only the positive counts


# ------------------------------------------------------------ random all-ins


@st.composite
def all_in_hands(draw: st.DrawFn, bombs: bool = False) -> tuple[Hand, random.Random, Street]:
    """A hand where the players shove from a random street on (some fold), with two
    boards or run twice, side pots from random stacks, antes sometimes, rake sometimes;
    with ``bombs``, a bomb pot of 10 (no blinds, no preflop betting)."""
    variant = draw(st.sampled_from(list(Variant)))
    betting = draw(st.sampled_from([FixedLimit(2, 4), PotLimit(1, 2), NoLimit(1, 2)]))
    double = draw(st.booleans())
    rake = draw(st.sampled_from([None, Rake(5, 3), Rake(10)]))
    config = GameConfig(
        variant,
        betting,
        rake=rake,
        boards=2 if double else 1,
        run_it_twice=not double,
    )
    players = draw(st.integers(2, most_players(variant.hole_cards, 2)))
    stacks = draw(st.lists(st.integers(1, 80), min_size=players, max_size=players))
    button = draw(st.integers(0, players - 1))
    sb = button if players == 2 else (button + 1) % players
    posts = [Post(sb, PostKind.SMALL_BLIND, 1), Post((sb + 1) % players, PostKind.BIG_BLIND, 2)]
    if bombs:
        posts = [Post(p, PostKind.BOMB, 10) for p in range(players)]
    elif draw(st.booleans()):
        posts += [Post(p, PostKind.ANTE, 1) for p in range(players)]
    deck = Deck(draw(st.integers(0, 2**32))).cards
    shove_from = draw(st.sampled_from([Street.PREFLOP, Street.FLOP, Street.TURN]))
    rng = random.Random(draw(st.integers(0, 2**32)))
    return Hand(config, stacks, button, posts, deck), rng, shove_from


def shove(hand: Hand, rng: random.Random, shove_from: Street) -> Action:
    """Check or call before ``shove_from``; from then on mostly all in, sometimes fold."""
    legal = hand.legal_actions()
    if legal.show or legal.muck:
        return Action.muck() if legal.muck else Action.show()
    if hand.street < shove_from:
        return Action.check() if legal.check else Action.call()
    if legal.call is not None and rng.random() < 0.15:
        return Action.fold()
    if legal.all_in:
        return Action(ActionKind.ALL_IN)
    if legal.bet_or_raise is not None and legal.max_to is not None:
        return Action(legal.bet_or_raise, legal.max_to)
    return Action.check() if legal.check else Action.call()


@given(all_in_hands())
def test_two_runs_and_two_boards_split_as_an_independent_calculation_says(
    case: tuple[Hand, random.Random, Street],
) -> None:
    played_as_calculated(*case)


@given(all_in_hands(bombs=True))
def test_bomb_pots_split_as_an_independent_calculation_says(
    case: tuple[Hand, random.Random, Street],
) -> None:
    """A player all in for less than the bomb is in the pots up to what they put in."""
    played_as_calculated(*case)


def played_as_calculated(hand: Hand, rng: random.Random, shove_from: Street) -> None:
    """Play the hand out (two runs when asked, mostly) and check every player's chips on
    every board against ``expected_awards``."""
    known = 0
    while not hand.is_over:
        if hand.phase is Phase.RUN_IT:
            known = len(hand.board)
            hand.run_it(2 if rng.random() < 0.8 else 1)
        else:
            hand.apply(shove(hand, rng, shove_from))
    result = hand.result
    assert result is not None
    live = [p for p in range(hand.players) if not hand.folded[p]]
    if len(live) == 1:
        assert sum(result.stacks) + result.rake == sum(hand.starting_stacks)
        return
    variant = hand.config.variant
    layout = "double" if hand.config.boards == 2 else "twice" if hand.runs == 2 else "single"
    boards = boards_from_deck(hand.deck, hand.players, variant.hole_cards, layout, known)
    assert hand.boards == boards
    engine: Counter[tuple[int, int]] = Counter()
    for award in result.awards:
        engine[(award.player, award.board)] += award.amount
    assert +engine == expected_awards(hand, boards)
    assert sum(result.stacks) + result.rake == sum(hand.starting_stacks)


# ------------------------------------------------------------------ rules


def play(hand: Hand, *actions: str) -> Hand:
    for action in actions:
        hand.apply(Action.parse(action))
    return hand


def test_a_double_board_gives_one_pot_four_shares_in_o8() -> None:
    """RULES.md 7: each board's part split high/low on that board alone: four players
    win a high and a low on each board. The pot of 41 (four all in for 10, a folded small
    blind's 1) is cut 21 and 20; the first board's odd chip goes high."""
    holes = ["KsKhQsQh", "Ah3hQcQd", "JhJsTcTd", "Ad2d9c9d", "5c5d6h6d"]
    streets = ["KcKd7h", "JcJd8h", "4c", "6c", "2s", "5s"]  # flop, flop, turn, turn, ...
    config = GameConfig(Variant.O8, NoLimit(1, 2), boards=2)
    posts = [Post(4, PostKind.SMALL_BLIND, 1), Post(0, PostKind.BIG_BLIND, 2)]
    deck = stacked_deck(holes, 3, streets)
    hand = play(Hand(config, [10, 10, 10, 10, 5], 3, posts, deck), "allin", "allin", "allin")
    play(hand, "fold", "allin")
    while not hand.is_over:
        hand.apply(Action.show())
    assert hand.result is not None
    shares = [(a.pot, a.board, a.share, a.player, a.amount) for a in hand.result.awards]
    assert shares == [
        (0, 0, Share.HIGH, 0, 11),
        (0, 0, Share.LOW, 1, 10),
        (0, 1, Share.HIGH, 2, 10),
        (0, 1, Share.LOW, 3, 10),
    ]
    assert [e.board for e in hand.events if isinstance(e, BoardDealt)] == [0, 1, 0, 1, 0, 1]
    shown = {e.player: e.boards for e in hand.events if isinstance(e, Shown)}
    lows = [(board_1[1], board_2[1]) for board_1, board_2 in (shown[p] for p in range(4))]
    assert [(a and a.name, b and b.name) for a, b in lows] == [
        (None, None),
        ("7,4,3,2,A", "8,6,5,3,A"),
        (None, None),
        (None, "8,6,5,2,A"),
    ]


def test_run_it_twice_is_not_offered_with_a_double_board() -> None:
    """docs/rules.md: a double board is never run twice (four boards would be too many)."""
    config = GameConfig(Variant.O8, NoLimit(1, 2), boards=2, run_it_twice=True)
    hand = Hand(
        config,
        [50, 50],
        0,
        [Post(0, PostKind.SMALL_BLIND, 1), Post(1, PostKind.BIG_BLIND, 2)],
        Deck(3).cards,
    )
    play(hand, "allin", "call")
    assert hand.runs == 1
    assert not any(isinstance(e, RunItOffered) for e in hand.events)


def test_run_it_twice_is_offered_only_when_the_deck_holds_the_second_run() -> None:
    """docs/rules.md: eight Big O hands use 40 cards and a board 8 more: a second run from
    before the flop (8 more) would pass the 52nd card, so it is not asked; from the flop on
    (4 more) it is."""
    config = GameConfig(Variant.BIGO, NoLimit(1, 2), run_it_twice=True)
    posts = [Post(1, PostKind.SMALL_BLIND, 1), Post(2, PostKind.BIG_BLIND, 2)]
    preflop = Hand(config, [20] * 8, 0, posts, Deck(5).cards)
    while not preflop.is_over:
        legal = preflop.legal_actions()
        preflop.apply(Action(ActionKind.ALL_IN) if legal.all_in else Action.show())
    assert preflop.runs == 1
    assert not any(isinstance(e, RunItOffered) for e in preflop.events)
    flop = Hand(config, [20] * 8, 0, posts, Deck(5).cards)
    while flop.street is Street.PREFLOP:
        flop.apply(Action.check() if flop.legal_actions().check else Action.call())
    while flop.phase is Phase.BETTING:
        flop.apply(Action(ActionKind.ALL_IN))
    assert flop.phase is Phase.RUN_IT
    assert flop.run_it_players == tuple(range(8))


def test_the_engine_refuses_to_run_it_unless_asked_and_changes_nothing() -> None:
    config = GameConfig(Variant.O8, NoLimit(1, 2), run_it_twice=True)
    posts = [Post(0, PostKind.SMALL_BLIND, 1), Post(1, PostKind.BIG_BLIND, 2)]
    hand = Hand(config, [50, 50], 0, posts, Deck(3).cards)
    events = list(hand.events)
    for times in (1, 2):
        try:
            hand.run_it(times)
        except ValueError as refusal:
            assert str(refusal) == "the players are not being asked to run it twice"
        else:
            raise AssertionError("run_it was taken while no one was asked")
    assert hand.events == events
    play(hand, "allin", "call")
    assert hand.phase is Phase.RUN_IT
    try:
        hand.apply(Action.check())
    except ValueError as refusal:
        assert str(refusal) == "no one is to act: the players are asked to run it twice"
    try:
        hand.run_it(3)
    except ValueError as refusal:
        assert str(refusal) == "the board is run once or twice, not 3"
    assert hand.phase is Phase.RUN_IT


def test_the_rake_comes_out_before_the_two_boards_split_it() -> None:
    """RULES.md 5 and 7: 10% of a pot of 41, capped at 3, leaves 38: 19 for each board."""
    holes = ["KsKhQsQh", "Ah3hQcQd", "JhJsTcTd", "Ad2d9c9d", "5c5d6h6d"]
    streets = ["KcKd7h", "JcJd8h", "4c", "6c", "2s", "5s"]
    config = GameConfig(Variant.O8, NoLimit(1, 2), rake=Rake(10, 3), boards=2)
    posts = [Post(4, PostKind.SMALL_BLIND, 1), Post(0, PostKind.BIG_BLIND, 2)]
    deck = stacked_deck(holes, 3, streets)
    hand = play(Hand(config, [10, 10, 10, 10, 5], 3, posts, deck), "allin", "allin", "allin")
    play(hand, "fold", "allin")
    while not hand.is_over:
        hand.apply(Action.show())
    assert hand.result is not None and hand.result.rake == 3
    assert [(a.board, a.player, a.amount) for a in hand.result.awards] == [
        (0, 0, 10),
        (0, 1, 9),
        (1, 2, 10),
        (1, 3, 9),
    ]
