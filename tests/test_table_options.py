"""The home game's options at the table (RULES.md 7): chips conserved over random hands
with every option on and off, and the decisions docs/rules.md records, each pinned."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from table_helpers import act, finish, posts, posts_of, table_of
from test_engine_options import stacked_deck
from test_engine_properties import random_action

from splitpot.cards import Deck, parse_cards
from splitpot.engine import (
    Action,
    ActionKind,
    BoardDealt,
    Posted,
    PostKind,
    PotAwarded,
    RunItOffered,
    RunsChosen,
    Share,
    Street,
)
from splitpot.engine.hand import most_players
from splitpot.rules import FixedLimit, NoLimit, PotLimit, Rake, Variant
from splitpot.table import (
    BombPotCalled,
    DoubleBoard,
    HandStarted,
    InHand,
    Kill,
    KillDue,
    RabbitHunted,
    RunItAnswered,
    Straddle,
    StraddleChosen,
    Table,
    TableConfig,
    TableError,
    TableEvent,
)

DRAW = parse_cards("2c3c4c5c6c7c8c9cTc")  # the button goes to the last seat sitting in

# ------------------------------------------------------- chips over random hands


@st.composite
def option_tables(draw: st.DrawFn) -> tuple[Table, random.Random]:
    """A table with a random set of the home game's options, players with random stacks."""
    variant = draw(st.sampled_from(list(Variant)))
    structure = draw(st.sampled_from(["limit", "pot", "no"]))
    betting = {"limit": FixedLimit(2, 4), "pot": PotLimit(1, 2), "no": NoLimit(1, 2)}[structure]
    bomb = draw(st.sampled_from([0, 0, 2, 5]))
    double = draw(st.sampled_from(list(DoubleBoard)))
    if double is DoubleBoard.BOMB_POTS and not bomb:
        double = DoubleBoard.OFF
    seats = draw(
        st.integers(
            2, min(6, most_players(variant.hole_cards, 1 + (double is not DoubleBoard.OFF)))
        )
    )
    kills = [None, Kill(), Kill(full=True), Kill(size=8)]
    config = TableConfig(
        variant,
        betting,
        seats=seats,
        ante=draw(st.sampled_from([0, 1])),
        rake=draw(st.sampled_from([None, Rake(5, 3), Rake(10)])),
        straddle=structure != "limit" and draw(st.booleans()),
        run_it_twice=draw(st.booleans()),
        rabbit_hunt=draw(st.booleans()),
        bomb_pot=bomb,
        bomb_every=draw(st.sampled_from([0, 3])) if bomb else 0,
        double_board=double,
        kill=draw(st.sampled_from(kills)) if structure == "limit" else None,
    )
    table = Table(config)
    for seat in range(seats):
        table.sit(seat, f"p{seat}", draw(st.integers(1, 150)), kept=True)
    return table, random.Random(draw(st.integers(0, 2**32)))


def between_hands(table: Table, rng: random.Random) -> int:
    """Random commands of players and host between hands; the chips they add."""
    config, added = table.config, 0
    for seat, player in enumerate(table.seats):
        assert player is not None
        if config.straddle and rng.random() < 0.5:
            table.choose_straddle(seat, rng.choice(list(Straddle)))
        if player.stack == 0 and rng.random() < 0.5:
            table.add_chips(seat, config.min_buy_in)
            added += config.min_buy_in
        if rng.random() < 0.05:
            if player.sitting_out:
                table.sit_in(seat, post_now=rng.random() < 0.5)
            else:
                table.sit_out(seat)
    if config.bomb_pot and not table.bomb_called and rng.random() < 0.15:
        table.call_bomb_pot()
    return added


def play_out(table: Table, rng: random.Random, check: Callable[[], None]) -> None:
    """Random legal actions, random answers to running it twice, until the hand is over."""
    answered: set[int] = set()  # a hand asks once at most
    while table.hand is not None:
        asked = table.run_it_seats
        if asked:
            if rng.random() < 0.1:
                table.run_it_timed_out()
            else:
                seat = rng.choice([s for s in asked if s not in answered])
                answered.add(seat)
                table.answer_run_it(seat, rng.random() < 0.7)
        else:
            seat = table.seat_to_act
            assert seat is not None
            table.act(seat, random_action(table.hand.hand.legal_actions(), rng))
        check()


@settings(max_examples=200, deadline=None)
@given(option_tables())
def test_chips_are_conserved_over_hands_with_every_option_on_and_off(
    case: tuple[Table, random.Random],
) -> None:
    """Up to 25 random hands a table: ``table.chips()`` stays the chips bought in, less the
    rake taken, after every command, and no stack goes below 0; a rabbit hunt changes no
    chip; each hand starts as ``next_hand`` announced it before its deck was known, and
    as a table restored from the snapshot before it deals it."""
    table, rng = case
    total = table.chips()

    def check() -> None:
        raked = sum(played.hand.result.rake for played in table.history if played.hand.result)
        assert table.chips() + raked == total
        assert all(s is None or s.stack >= 0 for s in table.seats)
        if table.hand is not None:
            assert all(stack >= 0 for stack in table.hand.hand.stacks)

    for _ in range(25):
        total += between_hands(table, rng)
        if sum(1 for s in table.seats if s is not None and not s.absent) < 2:
            break
        played = table.hands_played
        draw = Deck(rng.randrange(2**32)).cards
        deck = Deck(rng.randrange(2**32)).cards
        announced = table.next_hand(draw)
        twin = Table.restore(table.config, table.snapshot())
        events = table.deal(deck, draw=draw)
        assert events[: len(announced.events)] == announced.events  # FAIRNESS.md
        assert twin.deal(deck, draw=draw) == events  # a shell's snapshot rebuilds the table
        check()
        play_out(table, rng, check)
        assert table.hands_played == played + 1
        last = table.history[-1].hand
        if table.config.rabbit_hunt and last.street is not Street.RIVER:
            table.rabbit_hunt(rng.choice(table.history[-1].seats))
            check()


# ------------------------------------------------------------------ helpers


def deal_stacked(table: Table, holes: dict[int, str], streets: Sequence[str]) -> list[TableEvent]:
    """Deal the next hand from a deck that gives each seat its hole cards (every seat
    dealt in must be named) and then ``streets``, a burn card before each."""
    order = table.next_hand(DRAW).seats_dealt
    deck = stacked_deck([holes[seat] for seat in order], len(order) - 1, streets)
    return table.deal(deck, draw=DRAW)


def deal_seeded(table: Table, seed: int) -> list[TableEvent]:
    return table.deal(Deck(seed).cards, draw=DRAW)


def state(table: Table) -> tuple[object, ...]:
    """Everything a refused command must leave as it was."""
    hand = table.latest
    return (
        repr(table.seats),
        table.bomb_called,
        table.kill_seat,
        table.run_it_seats,
        len(table.history),
        None if hand is None else (len(hand.hand.events), hand.hand.phase, hand.hand.stacks),
    )


def refused(table: Table, command: Callable[[], object], message: str) -> None:
    """The command raises a ``TableError`` saying ``message`` and changes nothing."""
    before = state(table)
    with pytest.raises(TableError) as refusal:
        command()
    assert str(refusal.value) == message
    assert state(table) == before


def started(events: Sequence[TableEvent]) -> HandStarted:
    return next(e for e in events if isinstance(e, HandStarted))


def in_hand(events: Sequence[TableEvent], kind: type) -> list[Any]:
    return [e.event for e in events if isinstance(e, InHand) and isinstance(e.event, kind)]


def order_to_act(table: Table) -> list[int]:
    """The seats as they act when everyone calls or checks, up to the end of the round."""
    assert table.hand is not None
    street, seats = table.hand.hand.street, []
    while table.hand is not None and table.hand.hand.street is street:
        seat = table.seat_to_act
        assert seat is not None
        seats.append(seat)
        legal = table.hand.hand.legal_actions()
        table.act(seat, Action.check() if legal.check else Action.call())
    return seats


# ------------------------------------------------------------------ straddle


def straddle_table(players: int = 4, **chips: int) -> Table:
    """No limit 1/2 with straddles; the button is the last seat, the straddle's seat 2."""
    table = Table(TableConfig(Variant.O8, NoLimit(1, 2), straddle=True))
    for seat in range(players):
        table.sit(seat, "ABCDEF"[seat], chips.get("ABCDEF"[seat], 100), kept=True)
    return table


def test_the_straddler_acts_last_before_the_flop_and_the_smallest_raise_is_the_straddle() -> None:
    """RULES.md 7: the player left of the big blind posts 4 live; play starts left of
    them; the smallest raise is the straddle (to 8, four big blinds); called round, the
    straddler has the option."""
    table = straddle_table()
    assert table.choose_straddle(2, Straddle.NEXT) == [StraddleChosen(2, "C", Straddle.NEXT)]
    deal_seeded(table, 1)
    assert posts(table) == [("A", "small blind", 1), ("B", "big blind", 2), ("C", "straddle", 4)]
    assert table.seat_to_act == 3
    assert table.hand is not None
    legal = table.hand.hand.legal_actions()
    assert (legal.call, legal.bet_or_raise, legal.min_to) == (4, ActionKind.RAISE, 8)
    act(table, "call", "call", "call")
    assert table.seat_to_act == 2
    option = table.hand.hand.legal_actions()
    assert option.check and option.bet_or_raise is ActionKind.RAISE and option.min_to == 8


def test_a_straddle_chosen_for_the_next_hand_is_spent_when_posted_always_is_kept() -> None:
    table = straddle_table(5)
    table.choose_straddle(2, Straddle.NEXT)
    table.choose_straddle(3, Straddle.ALWAYS)
    deal_seeded(table, 1)  # button E (seat 4): A and B blinds, C straddles
    assert posts_of(table, "C") == [("straddle", 4)]
    finish(table)
    assert table.seats[2] is not None and table.seats[2].straddle == "off"
    deal_seeded(table, 2)  # button A: B and C blinds, D straddles
    assert posts_of(table, "D") == [("straddle", 4)]
    finish(table)
    assert table.seats[3] is not None and table.seats[3].straddle == "always"
    deal_seeded(table, 3)  # C and D blinds, E does not straddle
    assert [kind for _, kind, _ in posts(table)] == ["small blind", "big blind"]


def test_no_straddle_with_three_players_dealt_in() -> None:
    """RULES.md 7: at least four players dealt in."""
    table = straddle_table(3)
    for seat in range(3):
        table.choose_straddle(seat, Straddle.NEXT)
    deal_seeded(table, 1)
    assert [kind for _, kind, _ in posts(table)] == ["small blind", "big blind"]
    assert [s.straddle for s in table.seats if s is not None] == ["next"] * 3  # not spent


def test_no_straddle_from_a_player_posting_a_blind_owed_or_without_more_than_it() -> None:
    """docs/rules.md: a new player who posts to play now in the straddle's seat posts the
    blind owed, not a straddle; a stack of 4 or less does not straddle (it would be all in)."""
    table = Table(TableConfig(Variant.O8, NoLimit(1, 2), straddle=True))
    for seat in (0, 1, 2, 4):
        table.sit(seat, "ABCDE"[seat], 100)
    deal_seeded(table, 1)  # button E (seat 4), blinds A and B
    finish(table)
    table.sit(3, "D", 100, post_now=True)
    table.choose_straddle(3, Straddle.ALWAYS)
    deal_seeded(table, 2)  # button A, blinds B and C; D is left of the big blind
    assert posts_of(table, "D") == [("live post", 2)]
    assert table.seat_to_act == 3  # a live post is not positional: D acts first
    short = straddle_table(C=4)
    short.choose_straddle(2, Straddle.ALWAYS)
    deal_seeded(short, 1)
    assert posts_of(short, "C") == []
    enough = straddle_table(C=5)
    enough.choose_straddle(2, Straddle.ALWAYS)
    deal_seeded(enough, 1)
    assert posts_of(enough, "C") == [("straddle", 4)]


def test_a_straddle_in_pot_limit_counts_in_the_pot() -> None:
    """RULES.md 7: the straddle is live: facing it, a pot-limit raise is at most the call
    (4) and the pot after it (1 + 2 + 4 + 4): to 15; at least the straddle: to 8."""
    table = Table(TableConfig(Variant.O8, PotLimit(1, 2), straddle=True))
    for seat in range(4):
        table.sit(seat, "ABCD"[seat], 100)
    table.choose_straddle(2, Straddle.ALWAYS)
    deal_seeded(table, 1)
    assert table.hand is not None
    legal = table.hand.hand.legal_actions()
    assert (legal.call, legal.min_to, legal.max_to) == (4, 8, 15)


def test_a_straddle_at_a_table_with_antes() -> None:
    """RULES.md 7 does not bar a straddle where antes are played: the ante is not a blind
    owed (docs/rules.md), so C, left of the big blind, straddles after the antes, with
    more than the straddle left after the ante."""
    table = Table(TableConfig(Variant.O8, NoLimit(1, 2), ante=1, straddle=True))
    for seat in range(4):
        table.sit(seat, "ABCD"[seat], 100)
    table.choose_straddle(2, Straddle.ALWAYS)
    deal_seeded(table, 1)
    assert posts_of(table, "C") == [("ante", 1), ("straddle", 4)]
    assert table.seat_to_act == 3
    short = Table(table.config)
    for seat, chips in enumerate([100, 100, 5, 100]):  # C: 4 after the ante, no more
        short.sit(seat, "ABCD"[seat], chips, kept=True)
    short.choose_straddle(2, Straddle.ALWAYS)
    deal_seeded(short, 1)
    assert posts_of(short, "C") == [("ante", 1)]


def test_choosing_a_straddle_at_a_table_without_is_refused() -> None:
    table = table_of({0: "A", 1: "B"}, TableConfig(Variant.O8, NoLimit(1, 2)))
    refused(
        table, lambda: table.choose_straddle(0, Straddle.ALWAYS), "this table plays no straddle"
    )


# ------------------------------------------------------------------ bomb pots


def bomb_table(**options: object) -> Table:
    config = TableConfig(Variant.O8, NoLimit(1, 2), ante=1, bomb_pot=2, **options)  # type: ignore[arg-type]
    return table_of({0: "A", 1: "B", 2: "C", 3: "D"}, config)


def twin_hand(table: Table, snapshot: dict[str, object]) -> tuple[int, list[tuple[str, str, int]]]:
    """The button and posts of the hand a table restored from ``snapshot`` deals."""
    twin = Table.restore(table.config, snapshot)
    deal_seeded(twin, 99)
    assert twin.hand is not None
    return twin.hand.button_seat, posts(twin)


def test_a_bomb_pot_no_blinds_no_antes_no_preflop_betting_the_button_stays() -> None:
    """RULES.md 7: the game's first hand is never a bomb (it needs a button): a bomb called
    before it is the second hand. Every player puts in the bomb, dead, and no ante; the
    flop comes at once and the first player left of the button acts; the button stays,
    and the next hand's blinds are those it would have had without the bomb pot."""
    table = bomb_table()
    assert table.call_bomb_pot() == [BombPotCalled(2)]
    first = started(deal_seeded(table, 1))
    assert [kind for _, kind, _ in posts(table)] == ["ante"] * 4 + ["small blind", "big blind"]
    finish(table)
    assert table.bomb_called
    snapshot = table.snapshot()
    snapshot["bomb_called"] = False
    twin = twin_hand(table, snapshot)
    events = deal_seeded(table, 2)
    assert started(events).button == first.button == 3
    assert posts(table) == [(name, "bomb", 4) for name in "ABCD"]
    assert not table.bomb_called
    assert table.hand is not None
    assert len(table.hand.hand.board) == 3 and table.hand.hand.street is Street.FLOP
    assert [e.street for e in in_hand(events, BoardDealt)] == [Street.FLOP]
    assert table.seat_to_act == 0  # left of the button
    finish(table)
    deal_seeded(table, 99)
    assert table.hand is not None
    assert (table.hand.button_seat, posts(table)) == twin


def test_a_bomb_pot_deals_in_a_player_who_owes_a_blind_who_still_owes_it_after() -> None:
    """docs/rules.md: every player sitting in with chips is dealt into a bomb pot and pays
    the bomb; blind debts are neither paid nor added by it. A player short of the bomb is
    all in for it."""
    table = bomb_table()
    deal_seeded(table, 1)  # button D, blinds A and B
    finish(table)
    table.sit_out(2)
    deal_seeded(table, 2)  # the big blind passes C, who misses it
    finish(table)
    seat_c = table.seats[2]
    assert seat_c is not None and seat_c.missed_big
    table.sit_in(2)  # waits for the big blind
    table.sit(4, "E", 3, kept=True)  # new, waiting for the big blind, short of the bomb
    table.call_bomb_pot()
    deal_seeded(table, 3)
    assert posts_of(table, "C") == [("bomb", 4)]
    assert posts_of(table, "E") == [("bomb", 3)]
    assert table.hand is not None and table.hand.hand.stacks[-1] == 0
    finish(table)
    assert seat_c.missed_big and not seat_c.sitting_out
    seat_e = table.seats[4]
    assert seat_e is not None and (seat_e.waiting or seat_e.stack == 0)


def test_a_player_all_in_for_less_than_the_bomb_wins_only_what_they_matched() -> None:
    """RULES.md 7 and 4.6: B, all in for less than the bomb of 60, wins the main pot of
    three times what B put in; the rest of A's and C's bombs is a side pot between them."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), bomb_pot=30)
    table = Table(config)
    for seat, (name, chips) in enumerate([("A", 100), ("B", 20), ("C", 150)]):
        table.sit(seat, name, chips, kept=True)
    deal_seeded(table, 1)
    finish(table)
    short = table.seats[1]
    assert short is not None and short.stack < 60
    put_in = short.stack
    table.call_bomb_pot()
    order = table.next_hand(DRAW).seats_dealt
    holes = {1: SCOOP, order[0] if order[0] != 1 else order[1]: LOSERS[0]}
    holes.update({seat: LOSERS[1] for seat in order if seat not in holes})
    deal_stacked(table, holes, SCOOP_BOARD)
    assert posts_of(table, "B") == [("bomb", put_in)]
    events = bettor_plays(table)
    won = {(a.pot, a.player): a.amount for a in in_hand(events, PotAwarded)}
    assert won[(0, 1)] == 3 * put_in
    assert sum(n for (_, player), n in won.items() if player != 1) == 2 * (60 - put_in)
    assert short.stack == 3 * put_in


def test_a_bomb_pot_every_n_hands_and_a_double_board_for_bomb_pots() -> None:
    table = bomb_table(bomb_every=3, double_board=DoubleBoard.BOMB_POTS)
    kinds = []
    for seed in range(1, 7):
        deal_seeded(table, seed)
        assert table.hand is not None
        kinds.append((posts(table)[0][1], len(table.hand.hand.boards)))
        finish(table)
    assert kinds == [("ante", 1), ("ante", 1), ("bomb", 2)] * 2


def test_calling_a_bomb_pot_twice_or_at_a_table_without_is_refused() -> None:
    table = bomb_table()
    table.call_bomb_pot()
    refused(table, table.call_bomb_pot, "a bomb pot is already called for the next hand")
    plain = table_of({0: "A", 1: "B"}, TableConfig(Variant.O8, NoLimit(1, 2)))
    refused(plain, plain.call_bomb_pot, "this table plays no bomb pots")


# ------------------------------------------------------------------ run it twice


def test_run_it_twice_with_three_players_and_a_side_pot() -> None:
    """RULES.md 7 (issue 23's example): all in for 20, 40 and 60, asked and agreed. The main
    pot (60) is cut 30 and 30, the side pot (40) 20 and 20. First run: A's three aces win
    the main pot's high half, C's 7-5-4-2-A its low half, and C scoops the side pot's part
    (Jacks over nines, and the low). Second run, no low: B's three nines scoop both parts."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=3, run_it_twice=True)
    table = Table(config)
    for seat, (name, chips) in enumerate([("A", 20), ("B", 40), ("C", 60)]):
        table.sit(seat, name, chips, kept=True)
    holes = {0: "AsAhKsKh", 1: "2c3d9h9d", 2: "4c5dJhJd"}
    deal_stacked(table, holes, ["Ac7s8d", "Kd", "2h", "9sTsQd", "3h", "6c"])
    events = act(table, "allin", "allin", "allin")  # C (button), A, B
    assert in_hand(events, RunItOffered) == [RunItOffered((0, 1, 2))]
    assert table.run_it_seats == (0, 1, 2)
    events = table.answer_run_it(1, True) + table.answer_run_it(0, True)
    assert events == [RunItAnswered(1, 1, True), RunItAnswered(1, 0, True)]
    events = table.answer_run_it(2, True)
    assert in_hand(events, RunsChosen) == [RunsChosen(2)]
    awards = [(a.pot, a.board, a.share, a.player, a.amount) for a in in_hand(events, PotAwarded)]
    assert awards == [
        (1, 0, Share.WHOLE, 2, 20),
        (1, 1, Share.WHOLE, 1, 20),
        (0, 0, Share.HIGH, 0, 15),
        (0, 0, Share.LOW, 2, 15),
        (0, 1, Share.WHOLE, 1, 30),
    ]
    assert [s.stack for s in table.seats if s is not None] == [15, 50, 55]
    assert table.history[-1].hand.boards == [
        list(parse_cards("Ac7s8dKd2h")),
        list(parse_cards("9sTsQd3h6c")),
    ]


def run_it_table() -> Table:
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=3, run_it_twice=True)
    return table_of({0: "A", 1: "B", 2: "C"}, config)


def test_one_no_or_the_clock_runs_it_once() -> None:
    """RULES.md 7: anyone answering no, or not in time, counts as no: the board is dealt once."""
    for answer in ("no", "time"):
        table = run_it_table()
        deal_seeded(table, 4)
        act(table, "allin", "allin", "allin")
        table.answer_run_it(0, True)
        events = table.answer_run_it(2, False) if answer == "no" else table.run_it_timed_out()
        assert in_hand(events, RunsChosen) == [RunsChosen(1)]
        assert {a.board for a in in_hand(events, PotAwarded)} == {0}
        assert table.hand is None and table.history[-1].hand.runs == 1


def test_answers_to_run_it_twice_out_of_turn_are_refused() -> None:
    table = run_it_table()
    refused(table, lambda: table.answer_run_it(0, True), "no one is being asked to run it twice")
    refused(table, table.run_it_timed_out, "no one is being asked to run it twice")
    deal_seeded(table, 4)
    refused(table, lambda: table.answer_run_it(0, True), "no one is being asked to run it twice")
    act(table, "allin", "fold", "allin")  # C all in, A folds, B calls all in
    assert table.run_it_seats == (1, 2)
    refused(table, lambda: table.answer_run_it(0, True), "seat 1 is not asked to run it twice")
    table.answer_run_it(1, True)
    refused(table, lambda: table.answer_run_it(1, False), "seat 2 has already answered")
    refused(table, lambda: table.answer_run_it(9, True), "there is no seat 10: the table has 3")


# ------------------------------------------------------------------ rabbit hunt


def test_the_rabbit_is_the_next_cards_of_the_deck_with_their_burns_and_changes_nothing() -> None:
    """RULES.md 7 and FAIRNESS.md: a hand over on the flop shows the turn and the river
    from the deck's next positions, a burn before each; on two boards, each street to the
    first board then the second."""
    for double in (DoubleBoard.OFF, DoubleBoard.ALWAYS):
        config = TableConfig(Variant.O8, NoLimit(1, 2), rabbit_hunt=True, double_board=double)
        table = table_of({0: "A", 1: "B", 2: "C"}, config)
        deck = Deck(7).cards
        table.deal(deck, draw=DRAW)
        act(table, "call", "call", "check", "bet 2", "fold", "fold")  # over on the flop
        boards = 2 if double is DoubleBoard.ALWAYS else 1
        at = 3 * 4 + 4 * boards  # hole cards, then a burn and the flop on each board
        expected = []
        for street in (Street.TURN, Street.RIVER):
            for board in range(boards):
                expected.append(BoardDealt(street, (deck[at + 1],), board))
                at += 2
        before = state(table)
        events = table.rabbit_hunt(1)
        assert events == [RabbitHunted(1, 1, tuple(expected))]
        assert state(table) == before
        assert table.history[-1].hand.boards == [list(deck[13:16]), list(deck[17:20])][:boards]


def test_a_rabbit_twice_after_a_whole_board_or_at_a_table_without_is_refused() -> None:
    config = TableConfig(Variant.O8, NoLimit(1, 2), rabbit_hunt=True)
    table = table_of({0: "A", 1: "B", 2: "C"}, config)
    refused(table, lambda: table.rabbit_hunt(0), "seat 1 was not dealt in the last hand")
    deal_seeded(table, 5)
    act(table, "fold", "fold")
    table.rabbit_hunt(0)
    refused(table, lambda: table.rabbit_hunt(1), "the rabbit of hand 1 is already shown")
    deal_seeded(table, 6)
    bettor_plays(table)  # checked and called down to the river
    refused(table, lambda: table.rabbit_hunt(0), "hand 2 saw its whole board")
    plain = table_of({0: "A", 1: "B"}, TableConfig(Variant.O8, NoLimit(1, 2)))
    deal_seeded(plain, 5)
    act(plain, "fold")
    refused(plain, lambda: plain.rabbit_hunt(0), "this table plays no rabbit hunt")


# ------------------------------------------------------------------ rake and antes


def last_rake(table: Table) -> int:
    result = table.history[-1].hand.result
    assert result is not None
    return result.rake


def test_the_rake_no_flop_no_drop_and_its_cap() -> None:
    config = TableConfig(Variant.O8, NoLimit(1, 2), rake=Rake(10, 3))
    table = table_of({0: "A", 1: "B", 2: "C"}, config)
    deal_seeded(table, 1)
    act(table, "raise 10", "call", "raise 30", "fold", "fold")  # 30 in the pot, no flop
    assert last_rake(table) == 0
    deal_seeded(table, 2)
    act(table, "call", "call", "check")  # 6 in the pot: 10% is 0
    finish(table)
    assert last_rake(table) == 0
    deal_seeded(table, 3)
    act(table, "raise 20", "call", "call")  # 60: 10% is 6, capped at 3
    finish(table)
    assert last_rake(table) == 3
    assert sum(s.stack for s in table.seats if s is not None) == 300 - 3


def test_an_ante_counts_in_the_pot_for_the_pot_limit_maximum() -> None:
    """RULES.md 7: four antes of 1 and the blinds make 7; the first to act may call 2 and
    raise the pot of 9: to 11 (without antes it would be 7). A player who cannot cover the
    ante is all in for it."""
    config = TableConfig(Variant.O8, PotLimit(1, 2), ante=1)
    table = table_of({0: "A", 1: "B", 2: "C", 3: "D"}, config)
    deal_seeded(table, 1)
    assert posts(table)[:4] == [(name, "ante", 1) for name in "ABCD"]
    assert table.hand is not None
    assert table.hand.hand.legal_actions().max_to == 11
    short = Table(config)
    for seat, chips in enumerate([100, 100, 1]):
        short.sit(seat, "ABC"[seat], chips, kept=True)
    deal_seeded(short, 1)
    assert posts_of(short, "C") == [("ante", 1)]
    assert short.hand is not None and short.hand.hand.all_in(2)


# ------------------------------------------------------------------ kill pots

SCOOP = "QsQhTcTd"  # three queens on the board below, which has no low
LOSERS = ["2c2d5c5d", "6c6d7c7d", "2s2h5s5h", "6s6h7s7h"]
SCOOP_BOARD = ["QcJd9s", "4h", "3c"]
HIGH, LOW = "KsKhTc9c", "Ad2d8s8h"  # three kings, and 7-5-4-2-A, on the board below
SPLIT_LOSERS = ["JhJs9h9s", "QsQhTsTh"]
SPLIT_BOARD = ["Kc7d5s", "4h", "Qc"]


def kill_table(kill: Kill | None = None, **chips: int) -> Table:
    """Fixed limit 2/4 (blinds 1 and 2) with kill pots; the button is seat 3, A and B
    the blinds of the first hand."""
    config = TableConfig(Variant.O8, FixedLimit(2, 4), kill=kill or Kill(), bomb_pot=20)
    table = Table(config)
    for seat in range(4):
        table.sit(seat, "ABCD"[seat], chips.get("ABCD"[seat], 100), kept=True)
    return table


def scoop_for(table: Table, winner: int) -> dict[int, str]:
    order = table.next_hand(DRAW).seats_dealt
    losers = iter(LOSERS)
    return {seat: SCOOP if seat == winner else next(losers) for seat in order}


def bettor_plays(
    table: Table, *bettors: int, raises: bool = False, passive: str = "call"
) -> list[TableEvent]:
    """Play the hand out: the ``bettors`` bet every street they may (and raise, with
    ``raises``); the others call (``passive="fold"``: check or fold); losing hands muck."""
    events: list[TableEvent] = []
    while table.hand is not None:
        seat = table.seat_to_act
        assert seat is not None
        legal = table.hand.hand.legal_actions()
        aggressive = (ActionKind.BET, ActionKind.RAISE) if raises else (ActionKind.BET,)
        if legal.muck or legal.show:
            action = Action.muck() if legal.muck else Action.show()
        elif seat in bettors and legal.bet_or_raise in aggressive:
            assert legal.bet_or_raise is not None
            action = Action(legal.bet_or_raise, legal.max_to)
        elif legal.check:
            action = Action.check()
        else:
            action = Action.call() if passive == "call" else Action.fold()
        events += table.act(seat, action)
    return events


def scoop(table: Table, winner: int) -> list[TableEvent]:
    """Deal a hand the winner scoops, bet by the winner and called by all."""
    events = deal_stacked(table, scoop_for(table, winner), SCOOP_BOARD)
    return events + bettor_plays(table, winner)


def test_a_scoop_of_the_kill_size_kills_the_next_hand_and_the_killer_acts_last() -> None:
    """RULES.md 7: A scoops 48 (at least ten big blinds): the next hand is a half kill, A
    posts a live kill blind of 3 on the button, the bets are 3/6, and A acts last before
    the flop with the option."""
    table = kill_table()
    events = scoop(table, 0)
    assert [e for e in events if isinstance(e, KillDue)] == [KillDue(0, "A", 3)]
    assert table.kill_seat == 0
    events = deal_seeded(table, 2)  # button A, blinds B and C
    assert started(events).betting == FixedLimit(3, 6, 1, 2)
    assert posts(table) == [("B", "small blind", 1), ("C", "big blind", 2), ("A", "kill blind", 3)]
    assert table.history[-1].base_betting == FixedLimit(2, 4)
    for seat in (1, 2, 3):
        assert table.seat_to_act == seat
        act(table, "call")
    assert table.hand is not None and table.seat_to_act == 0
    legal = table.hand.hand.legal_actions()
    assert legal.check and legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 6


@pytest.mark.parametrize(("winner", "blind"), [(1, "small blind"), (2, "big blind")])
def test_a_killer_in_a_blind_posts_the_kill_instead_and_acts_last(winner: int, blind: str) -> None:
    """RULES.md 7: next hand B is the small blind, C the big blind; a killer there posts
    the kill blind instead of that blind, and acts last before the flop."""
    table = kill_table()
    scoop(table, winner)
    deal_seeded(table, 2)
    name = "ABCD"[winner]
    assert posts_of(table, name) == [("kill blind", 3)]
    assert blind not in [kind for _, kind, _ in posts(table)]
    assert order_to_act(table)[-1] == winner


@pytest.mark.parametrize(
    ("kill", "blind", "bets"), [(Kill(), 3, (3, 6)), (Kill(full=True), 4, (4, 8))]
)
def test_a_killer_who_scoops_the_kill_pot_kills_again_at_the_same_ratio(
    kill: Kill, blind: int, bets: tuple[int, int]
) -> None:
    """RULES.md 7: limits never climb further: 2/4 killed is 3/6 (4/8), killed again 3/6 (4/8)."""
    table = kill_table(kill)
    scoop(table, 0)
    for _ in range(2):
        events = scoop(table, 0)
        assert started(events).betting == FixedLimit(*bets, 1, 2)
        assert (0, PostKind.KILL, blind) in [
            (p.player, p.kind, p.amount) for p in in_hand(events, Posted)
        ]
        assert [e for e in events if isinstance(e, KillDue)] == [KillDue(0, "A", blind)]


def test_no_scoop_no_kill() -> None:
    """RULES.md 7: a split pot never starts a kill, and a kill pot split ends the kills."""
    table = kill_table()
    scoop(table, 0)
    order = table.next_hand(DRAW).seats_dealt
    holes = dict(zip(order, [HIGH, LOW, *SPLIT_LOSERS], strict=True))
    deal_stacked(table, holes, SPLIT_BOARD)
    events = bettor_plays(table, 0)
    shares = {a.share for a in in_hand(events, PotAwarded)}
    assert shares == {Share.HIGH, Share.LOW}
    assert not [e for e in events if isinstance(e, KillDue)] and table.kill_seat is None
    events = deal_seeded(table, 3)
    assert started(events).betting == FixedLimit(2, 4)
    assert "kill blind" not in [kind for _, kind, _ in posts(table)]


@pytest.mark.parametrize(("size", "kills"), [(48, True), (49, False)])
def test_a_scoop_kills_when_it_is_at_least_the_kill_size(size: int, kills: bool) -> None:
    table = kill_table(Kill(size=size))
    events = scoop(table, 0)  # 48
    assert [e for e in events if isinstance(e, KillDue)] == ([KillDue(0, "A", 3)] if kills else [])
    assert table.kill_seat == (0 if kills else None)


def test_a_killer_who_busts_in_a_bomb_pot_kills_no_more() -> None:
    """docs/rules.md: a bomb pot neither starts nor spends a kill; a killer not dealt in
    (here busted in the bomb pot between) means no kill."""
    table = kill_table(A=10)
    events = scoop(table, 0)  # A bets all 10 and scoops 40
    assert [e for e in events if isinstance(e, KillDue)] == [KillDue(0, "A", 3)]
    table.call_bomb_pot()  # a bomb of 20 big blinds: 40
    order = table.next_hand(DRAW).seats_dealt
    losers = iter(LOSERS)
    holes = {seat: SCOOP if seat == 3 else next(losers) for seat in order}
    events = deal_stacked(table, holes, SCOOP_BOARD)
    assert posts_of(table, "A") == [("bomb", 40)]
    events += bettor_plays(table, passive="fold")
    assert not [e for e in events if isinstance(e, KillDue)]
    assert table.kill_seat == 0 and table.seats[0] is not None and table.seats[0].stack == 0
    events = deal_seeded(table, 3)
    assert started(events).betting == FixedLimit(2, 4)
    assert "kill blind" not in [kind for _, kind, _ in posts(table)]


def test_a_killer_who_busts_in_the_kill_pot_passes_the_kill_to_its_scooper() -> None:
    """RULES.md 7: A (10 chips) scoops 40 and kills; in the kill pot A raises all in and
    loses it all to D's scoop (everyone raising to the cap): D kills the next hand at the
    same ratio, and A, broke, is not dealt in."""
    table = kill_table(A=10)
    scoop(table, 0)
    events = deal_stacked(table, scoop_for(table, 3), SCOOP_BOARD)
    assert started(events).betting == FixedLimit(3, 6, 1, 2)
    events += bettor_plays(table, 0, 1, 2, 3, raises=True)
    assert table.seats[0] is not None and table.seats[0].stack == 0
    assert [e for e in events if isinstance(e, KillDue)] == [KillDue(3, "D", 3)]
    events = deal_seeded(table, 3)
    assert started(events).seats == (1, 2, 3)
    assert started(events).betting == FixedLimit(3, 6, 1, 2)
    assert posts_of(table, "D") == [("kill blind", 3)]


@pytest.mark.parametrize("away", ["sits out", "leaves"])
def test_a_killer_not_dealt_in_kills_no_hand(away: str) -> None:
    table = kill_table()
    scoop(table, 0)
    if away == "sits out":
        table.sit_out(0)
    else:
        table.leave(0)
        assert table.kill_seat is None
    events = deal_seeded(table, 2)
    assert started(events).betting == FixedLimit(2, 4)
    assert "kill blind" not in [kind for _, kind, _ in posts(table)]
    finish(table)
    assert table.kill_seat is None


def test_a_scoop_of_every_pot_the_winner_is_in_kills_though_a_side_pot_goes_to_another() -> None:
    """RULES.md 7: a scoop is both halves of the main pot and every side pot the winner is
    in. A, all in for 10 on the river, scoops the main pot of 38 with three queens; C
    raises B on the river and wins the side pot with three jacks: A kills the next hand."""
    table = kill_table(A=10)
    holes = {0: SCOOP, 1: LOSERS[0], 2: "JhJs8h8d", 3: LOSERS[1]}
    deal_stacked(table, holes, SCOOP_BOARD)
    act(table, "call", "call", "call", "check")  # C, D, A, B
    act(table, "bet 2", "call", "call", "call", "bet 4", "call", "call", "call")
    act(table, "allin", "call")  # A all in for 2, B calls
    assert table.hand is not None
    raise_to = table.hand.hand.legal_actions().min_to
    events = act(table, f"raise {raise_to}", "fold", "call") + bettor_plays(table, passive="fold")
    won = {(a.pot, a.player) for a in in_hand(events, PotAwarded)}
    assert won == {(0, 0), (1, 2)}
    assert [e for e in events if isinstance(e, KillDue)] == [KillDue(0, "A", 3)]


# ------------------------------------------------------------------ settings


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"variant": Variant.OMAHA, "seats": 10, "double_board": DoubleBoard.ALWAYS},
            "two boards of omaha need more cards: a table with a double board has 2 to 9 "
            "seats, not 10",
        ),
        (
            {"variant": Variant.BIGO, "seats": 8, "double_board": DoubleBoard.ALWAYS},
            "two boards of bigo need more cards: a table with a double board has 2 to 7 "
            "seats, not 8",
        ),
        (
            {"betting": FixedLimit(6, 12, 3, 5), "kill": Kill()},
            "a half kill needs an even big blind and small bet, not 5 and 6",
        ),
        ({"kill": Kill()}, "kill pots are played in fixed limit only"),
        (
            {"betting": FixedLimit(2, 4), "straddle": True},
            "a straddle is played in pot limit and no limit, not fixed limit",
        ),
        ({"bomb_every": 5}, "a bomb pot every 5 hands needs a bomb"),
        ({"double_board": DoubleBoard.BOMB_POTS}, "a double board for bomb pots needs a bomb"),
    ],
)
def test_options_that_cannot_be_played_together_are_refused(
    options: dict[str, object], message: str
) -> None:
    """docs/rules.md: a double board caps the seats (Omaha 9, Big O 7); a half kill needs
    whole kill blinds and bets; kills are fixed limit's, straddles pot and no limit's."""
    settings: dict[str, object] = {"variant": Variant.O8, "betting": NoLimit(1, 2), **options}
    with pytest.raises(TableError) as refusal:
        TableConfig(**settings)  # type: ignore[arg-type]
    assert str(refusal.value) == message
    if "kill" in options and "betting" in options:  # a full kill is whole: 10 and 12
        TableConfig(**{**settings, "kill": Kill(full=True)})  # type: ignore[arg-type]
