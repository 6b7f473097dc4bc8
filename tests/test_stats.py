"""Each player's figures over hand records (``history.stats``, issue 24): hands made by
hand with known cards (a double board, run it twice, a bomb pot, a scoop, a quartered
pot, a three-bet) and hands the room's own table host played."""

from __future__ import annotations

from fractions import Fraction

from stats_helpers import played_records, stats_hands
from test_engine_options import stacked_deck

from splitpot.engine import Action, Hand, Phase, Post, PostKind
from splitpot.history.stats import PlayerFigures, Ratio, StatsHand, statistics
from splitpot.history.table_log import hand_record
from splitpot.rules import GameConfig, NoLimit, PotLimit, Variant

IDS = (11, 12, 13, 14, 15)  # the room player id of each player, in the record's order
O8 = GameConfig(Variant.O8, PotLimit(1, 2))


def hand_of(config: GameConfig, stacks: list[int], holes: list[str], streets: list[str],
            button: int, posts: list[Post]) -> Hand:  # fmt: skip
    return Hand(config, stacks, button, posts, stacked_deck(holes, button, streets))


def to_the_end(hand: Hand, *actions: str) -> Hand:
    """The actions given, then checks and calls (and shows) to the hand's end."""
    for action in actions:
        hand.apply(Action.parse(action))
    while not hand.is_over:
        if hand.phase is Phase.RUN_IT:
            hand.run_it(2)
            continue
        legal = hand.legal_actions()
        if legal.muck or legal.show:
            hand.apply(Action.show())
        else:
            hand.apply(Action.check() if legal.check else Action.call())
    return hand


def figures(hand: Hand, viewer: int | None = None) -> dict[int, PlayerFigures]:
    """The figures of one played hand, by room player id, as ``viewer`` knows them."""
    players = len(hand.starting_stacks)
    record = hand_record(hand, [f"P{p}" for p in range(players)], list(range(players)), "t-1")
    return dict(statistics([StatsHand(record, IDS[:players], 1)], viewer).players)


def blinds(small: int, big: int) -> list[Post]:
    return [Post(small, PostKind.SMALL_BLIND, 1), Post(big, PostKind.BIG_BLIND, 2)]


def test_a_double_board_pays_four_halves_and_counts_each_boards_low_chance() -> None:
    """RULES.md 7: four all in, each wins one half of one board (the engine's own test of
    the split). Each board allows a low (K-K-7-4-2 and J-J-8-6-5): two chances each;
    the lows made are those the showdown named (7-4-3-2-A and 8-6-5-3-A; 8-6-5-2-A)."""
    config = GameConfig(Variant.O8, NoLimit(1, 2), boards=2)
    holes = ["KsKhQsQh", "Ah3hQcQd", "JhJsTcTd", "Ad2d9c9d", "5c5d6h6d"]
    streets = ["KcKd7h", "JcJd8h", "4c", "6c", "2s", "5s"]
    posts = [Post(4, PostKind.SMALL_BLIND, 1), Post(0, PostKind.BIG_BLIND, 2)]
    hand = hand_of(config, [10, 10, 10, 10, 5], holes, streets, 3, posts)
    seen = figures(to_the_end(hand, "allin", "allin", "allin", "fold", "allin"))
    p0, p1, p2, p3, p4 = (seen[i] for i in IDS)
    assert [(f.high_halves, f.low_halves, f.quartered) for f in (p0, p1, p2, p3, p4)] == [
        (1, 0, 0), (0, 1, 0), (1, 0, 0), (0, 1, 0), (0, 0, 0),
    ]  # fmt: skip
    assert [f.low_made for f in (p0, p1, p2, p3, p4)] == [
        Ratio(0, 2), Ratio(2, 2), Ratio(0, 2), Ratio(1, 2), Ratio(0, 0),
    ]  # fmt: skip
    assert [f.scoops for f in (p0, p1, p2, p3)] == [Ratio(0, 1)] * 4  # won, none whole
    assert p4.scoops == p4.wsd == p4.wtsd == Ratio(0, 0)  # folded before the flop
    assert (p1.vpip, p1.pfr, p1.three_bet) == (Ratio(1, 1), Ratio(1, 1), Ratio(0, 0))
    assert (p2.vpip, p2.pfr, p2.three_bet) == (Ratio(1, 1), Ratio(0, 1), Ratio(0, 1))
    assert (p4.vpip, p4.three_bet) == (Ratio(0, 1), Ratio(0, 1))  # the small blind folded
    assert [f.net for f in (p0, p1, p2, p3, p4)] == [1, 0, 0, 0, -1]  # 21 and 20 of 41
    assert (p0.net_bb, p4.net_bb) == (Fraction(1, 2), Fraction(-1, 2))


def test_a_quartered_low_and_a_high_half() -> None:
    """Two A-2 lows share the low half (each is quartered); trip kings take the high."""
    holes = ["KsKh9s9h", "Ad2dJcJd", "Ac2cTcTd"]
    hand = hand_of(O8, [100] * 3, holes, ["3h4s7d", "Kd", "Qc"], 0, blinds(1, 2))
    ann, bob, cy = (figures(to_the_end(hand))[i] for i in IDS[:3])
    assert (ann.high_halves, ann.low_halves, ann.quartered) == (1, 0, 0)
    assert (bob.high_halves, bob.low_halves, bob.quartered) == (0, 1, 1)
    assert (cy.high_halves, cy.low_halves, cy.quartered) == (0, 1, 1)
    assert ann.scoops == bob.scoops == Ratio(0, 1)
    assert (ann.net, bob.net, cy.net) == (1, 0, -1)  # a pot of 6: 3 high, 2 and 1 low


def test_a_scoop_wins_both_halves_and_a_board_with_no_low_is_no_chance() -> None:
    scoop = hand_of(O8, [100, 100], ["Ad2dKsKh", "QcQdJcJd"], ["3h4s7d", "Kd", "Tc"], 0,
                    blinds(0, 1))  # fmt: skip
    ann, bob = (figures(to_the_end(scoop))[i] for i in IDS[:2])
    assert (ann.scoops, ann.wsd) == (Ratio(1, 1), Ratio(1, 1))
    assert (ann.high_halves, ann.low_halves) == (1, 1)
    assert (bob.scoops, bob.wsd, bob.wtsd) == (Ratio(0, 0), Ratio(0, 1), Ratio(1, 1))
    assert (ann.low_made, bob.low_made) == (Ratio(1, 1), Ratio(0, 1))
    no_low = hand_of(O8, [100, 100], ["Ad2dKsKh", "QcQdJcJd"], ["KdQsJh", "9c", "9s"], 0,
                     blinds(0, 1))  # fmt: skip
    ann, bob = (figures(to_the_end(no_low))[i] for i in IDS[:2])
    assert (ann.low_made, bob.low_made) == (Ratio(0, 0), Ratio(0, 0))
    assert (ann.scoops, ann.high_halves, ann.low_halves) == (Ratio(1, 1), 1, 0)  # kings full


def test_run_it_twice_counts_each_run_as_a_board() -> None:
    """RULES.md 7: all in before the flop and run twice: each run's halves and low
    chance count apart; the two runs' parts sum to the pot."""
    config = GameConfig(Variant.O8, NoLimit(1, 2), run_it_twice=True)
    hand = hand_of(config, [50, 50], ["Ad2dKsKh", "QcQdJcJd"], ["3h4s7d", "Kd", "Tc"], 0,
                   blinds(0, 1))  # fmt: skip
    to_the_end(hand, "allin", "call")
    assert hand.runs == 2 and len(hand.boards) == 2
    ann, bob = (figures(hand)[i] for i in IDS[:2])
    awards = hand.result.awards if hand.result else ()
    for player, seen in ((0, ann), (1, bob)):
        assert seen.high_halves == len({(a.pot, a.board) for a in awards
                                        if a.player == player and a.high})  # fmt: skip
        assert seen.low_halves == len({(a.pot, a.board) for a in awards
                                       if a.player == player and a.low})  # fmt: skip
    low_ranks = {12, 0, 1, 2, 3, 4, 5, 6}  # A, 2 ... 8
    lows = sum(len({c.rank for c in b if c and c.rank in low_ranks}) >= 3 for b in hand.boards)
    assert ann.low_made.of == bob.low_made.of == lows >= 1  # 3-4-7 on the first run
    assert ann.net == -bob.net


def test_a_bomb_pot_has_no_betting_before_the_flop() -> None:
    """RULES.md 7: every player posts the bomb and sees the flop: no VPIP, PFR or
    three-bet chance; went to the showdown of every hand that saw a flop."""
    posts = [Post(p, PostKind.BOMB, 4) for p in range(3)]
    holes = ["KsKh9s9h", "Ad2dJcJd", "Ac2cTcTd"]
    hand = hand_of(O8, [100] * 3, holes, ["3h4s7d", "Kd", "Qc"], 0, posts)
    for seen in figures(to_the_end(hand)).values():
        assert (seen.vpip, seen.pfr, seen.three_bet) == (Ratio(), Ratio(), Ratio())
        assert seen.wtsd == Ratio(1, 1) and seen.hands == 1


def test_a_three_bet_and_the_chances_to_make_one() -> None:
    """The first raise over the blinds opens; the next player re-raises (a three-bet);
    the others face two raises: no chance. The big blind's check is not voluntary."""
    holes = ["KsKh9s9h", "Ad2dJcJd", "Ac2cTcTd", "5c5d6h6d"]
    hand = hand_of(O8, [100] * 4, holes, ["3h4s7d", "Kd", "Qc"], 0, blinds(1, 2))
    # button 0, small blind 1, big blind 2: player 3 raises, 0 three-bets, 1 and 2 fold
    seen = figures(to_the_end(hand, "raise 6", "raise 18", "fold", "fold", "call"))
    p0, p1, p2, p3 = (seen[i] for i in IDS[:4])
    assert (p3.pfr, p3.three_bet) == (Ratio(1, 1), Ratio(0, 0))
    assert (p0.pfr, p0.three_bet, p0.vpip) == (Ratio(1, 1), Ratio(1, 1), Ratio(1, 1))
    assert (p1.three_bet, p2.three_bet) == (Ratio(0, 0), Ratio(0, 0))  # faced two raises
    assert (p1.vpip, p2.vpip) == (Ratio(0, 1), Ratio(0, 1))


def test_a_hand_won_without_a_showdown_counts_its_cards_only_for_its_owner() -> None:
    """Privacy: Bob folds to Ann's river bet; her cards were never shown, so her low
    chance counts in her own figures only, never in another viewer's."""
    hand = hand_of(O8, [100, 100], ["Ad2dKsKh", "QcQdJcJd"], ["3h4s7d", "Kd", "Tc"], 0,
                   blinds(0, 1))  # fmt: skip
    for action in ("call", "check", "check", "check", "check", "check", "check", "bet 4", "fold"):
        hand.apply(Action.parse(action))
    assert hand.is_over
    own, bobs, watchers = figures(hand, IDS[0]), figures(hand, IDS[1]), figures(hand, None)
    assert own[IDS[0]].low_made == Ratio(1, 1)
    assert bobs[IDS[0]].low_made == watchers[IDS[0]].low_made == Ratio(0, 0)
    assert own[IDS[0]].wtsd == Ratio(0, 1)  # saw the flop, no showdown
    assert {i: f for i, f in own.items() if i != IDS[0]} == {
        i: f for i, f in bobs.items() if i != IDS[0]
    }


def test_hands_the_room_played_add_up() -> None:
    """Hands of random bots on the room's own table host: each player's net is the sum
    of their results; the nets and the rake sum to nothing; the chips after each hand
    are the hand's finishing stacks, hand by hand."""
    records = played_records(12, seed=5, players=3, rake_percent=5)
    seen = statistics(stats_hands(records), None)
    rake = sum(record["result"]["rake"] for record in records)
    assert sum(f.net for f in seen.players.values()) == -rake
    for player_id, points in seen.chips.items():
        stacks = [
            (number, record["result"]["stacks"][record["player_ids"].index(player_id)])
            for number, record in enumerate(records, start=1)
            if player_id in record["player_ids"]
        ]
        assert [(p.hand, p.stack) for p in points] == stacks
        assert seen.players[player_id].hands == len(stacks)
