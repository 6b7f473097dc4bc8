"""The rules of RULES.md sections 3 to 5, one test each, named after the rule."""

import pytest
from engine_helpers import deal, play

from splitpot.engine import (
    Acted,
    Action,
    ActionKind,
    BoardDealt,
    HandSetupError,
    HoleCardsDealt,
    IllegalActionError,
    Mucked,
    Post,
    PostKind,
    PotAwarded,
    Share,
    Shown,
    Street,
    UncalledBetReturned,
    replay,
    view,
)
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Variant

LIMIT_2_4 = GameConfig(Variant.O8, FixedLimit(2, 4))
POT_LIMIT = GameConfig(Variant.O8, PotLimit(1, 2))
NO_LIMIT = GameConfig(Variant.O8, NoLimit(1, 2))

# The rule book's three-player limit hand (RULES.md 4 and 5): player 0 has the button.
THREE_ACES = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"]
BOARD = "Ad8c3hKd9s"
NOBODY_RAISES = ["call", "call", "check", "bet 2", "call", "call", "bet 4", "call", "call"]


def _finish(hand, *more: str):
    play(hand, *more)
    while not hand.is_over:  # a losing hand is offered the muck and takes it
        hand.apply(Action.muck())
    return hand


def test_rule_book_limit_hand_pot_24_split_high_and_quartered_low() -> None:
    """RULES.md 5: pot 24; three Aces take the high half, 12; two players tie for low at
    8-4-3-2-A and take 6 each; stacks 110, 98, 92 from 100 each."""
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), *NOBODY_RAISES, "check", "check", "check"
    )
    assert hand.stacks == (110, 98, 92)
    awards = [(a.share, a.player, a.amount) for a in hand.result.awards]
    assert awards == [(Share.HIGH, 0, 12), (Share.LOW, 1, 6), (Share.LOW, 0, 6)]
    assert hand.result.pots[0].amount == 24


def test_rule_book_hand_turned_into_a_scoop() -> None:
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, ["AsAh4d2c", "9h9dKcQc", "KsQsJsTs"], BOARD),
        *NOBODY_RAISES,
        "check",
        "check",
        "check",
    )
    assert hand.stacks == (116, 92, 92)
    assert {a.share for a in hand.result.awards} == {Share.WHOLE}


def test_rule_book_hand_with_no_low_high_takes_all() -> None:
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, "AdKdQhJd9s"),
        *NOBODY_RAISES,
        "check",
        "check",
        "check",
    )
    # Only one low card on the board; player 2's Js Ts + Ad Kd Qh, a straight, wins it all.
    assert hand.stacks == (92, 92, 116)
    assert [(a.share, a.player, a.low) for a in hand.result.awards] == [(Share.WHOLE, 2, None)]


def test_limit_small_blind_facing_6_may_fold_call_5_or_cap_with_7() -> None:
    """RULES.md 3: 2/4, a bet and three raises; the small blind has 1 in and faces 6."""
    hand = play(
        deal(LIMIT_2_4, [100] * 4, ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs", "9c9d8h7h"], BOARD),
        "raise 4",
        "raise 6",
    )
    legal = hand.legal_actions()
    assert legal.player == 1
    assert legal.fold and legal.call == 5
    assert legal.bet_or_raise is ActionKind.RAISE and legal.min_to == legal.max_to == 8
    play(hand, "raise 8")
    assert hand.stacks[1] == 92  # 7 more
    capped = hand.legal_actions()  # the big blind: the betting is capped at four bets
    assert capped.bet_or_raise is None and capped.call == 6
    with pytest.raises(IllegalActionError, match="capped at 4 bets"):
        hand.apply(Action.raise_to(10))


def test_limit_bets_are_small_before_the_turn_and_big_after() -> None:
    hand = play(deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), "call", "call", "check")
    assert hand.legal_actions().min_to == 2  # flop: the small bet
    play(hand, "check", "check", "check")
    assert hand.street is Street.TURN
    assert hand.legal_actions().min_to == 4  # turn: the big bet
    with pytest.raises(IllegalActionError, match="bet to 2 is below the minimum of 4"):
        hand.apply(Action.bet(2))


def test_pot_limit_maximum_pot_100_bet_100_raise_to_at_most_400() -> None:
    """RULES.md 3: pot + all bets + the call: 100 + 100 + 100, on top of the 100 called."""
    config = GameConfig(Variant.O8, PotLimit(25, 50))
    hand = play(deal(config, [1000, 1000], ["AsAh4d2c", "4h2dKcQc"], BOARD), "call", "check")
    assert hand.pot == 100
    play(hand, "bet 100")
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (200, 400)
    before = (hand.stacks, hand.bets, len(hand.events), hand.to_act)
    with pytest.raises(
        IllegalActionError, match="raise to 401 is above the pot-limit maximum of 400"
    ):
        hand.apply(Action.raise_to(401))
    assert (hand.stacks, hand.bets, len(hand.events), hand.to_act) == before  # nothing changed
    play(hand, "raise 400")
    assert hand.bets == (400, 100)


def test_pot_limit_preflop_pot_raise_with_blinds_1_2_is_to_7() -> None:
    hand = deal(POT_LIMIT, [100] * 3, THREE_ACES, BOARD)
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (4, 7)


def test_no_limit_largest_bet_is_the_whole_stack_and_min_raise_is_the_last_raise() -> None:
    hand = play(deal(NO_LIMIT, [100, 150, 80], THREE_ACES, BOARD), "raise 10")
    legal = hand.legal_actions()
    assert (legal.min_to, legal.max_to) == (18, 150)  # at least the last raise (8); all in
    with pytest.raises(IllegalActionError, match="raise to 17 is below the minimum of 18"):
        hand.apply(Action.raise_to(17))


def test_big_blind_wins_when_all_fold_and_the_uncalled_part_returns() -> None:
    """RULES.md 4.3 and 4.5: no flop is dealt and no hand is shown."""
    hand = play(deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), "fold", "fold")
    assert hand.is_over
    assert hand.stacks == (100, 99, 101)
    assert UncalledBetReturned(2, 1) in hand.events
    assert not any(isinstance(e, BoardDealt | Shown) for e in hand.events)


def test_big_blind_has_the_option_when_no_one_raised() -> None:
    hand = play(deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), "call", "call")
    legal = hand.legal_actions()
    assert legal.player == 2 and legal.check and legal.bet_or_raise is ActionKind.RAISE


def test_heads_up_button_posts_small_blind_acts_first_preflop_and_last_after() -> None:
    """RULES.md 4.1."""
    hand = deal(LIMIT_2_4, [100, 100], ["AsAh4d2c", "4h2dKcQc"], BOARD, button=1)
    assert [
        e.player for e in hand.events if hasattr(e, "kind") and e.kind is PostKind.SMALL_BLIND
    ] == [1]
    assert hand.to_act == 1
    play(hand, "call", "check")
    assert hand.street is Street.FLOP and hand.to_act == 0


def test_deal_starts_left_of_the_button_one_card_at_a_time() -> None:
    """RULES.md 4.2: the button is dealt last; one card at a time round the table."""
    hand = deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD, button=0)
    dealt = [e.player for e in hand.events if isinstance(e, HoleCardsDealt)]
    assert dealt == [1, 2, 0]
    assert hand.deck[0] == hand.holes[1][0] and hand.deck[1] == hand.holes[2][0]
    assert hand.deck[2] == hand.holes[0][0] and hand.deck[3] == hand.holes[1][1]


def test_a_card_is_burned_before_each_street() -> None:
    hand = play(deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), "call", "call", "check")
    assert hand.board == list(hand.deck[13:16])  # 12 hole cards, a burn, the flop


def test_everyone_folding_ends_the_hand_at_once_on_the_river() -> None:
    hand = play(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), *NOBODY_RAISES, "bet 4", "fold", "fold"
    )
    assert hand.is_over and len(hand.board) == 5
    assert hand.stacks == (92, 116, 92)
    assert UncalledBetReturned(1, 4) in hand.events


def test_short_all_in_does_not_reopen_the_betting_no_limit() -> None:
    """RULES.md 3: an all-in for less than a full raise does not reopen the betting."""
    hand = deal(NO_LIMIT, [300, 300, 160], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    play(hand, "raise 100", "call", "allin")  # player 2 all in to 160: 60 more, short of 98
    legal = hand.legal_actions()
    assert legal.player == 0 and legal.bet_or_raise is None and legal.call == 60
    with pytest.raises(IllegalActionError, match="short all-in did not reopen"):
        hand.apply(Action.raise_to(300))


def test_a_player_who_has_not_acted_may_raise_a_short_all_in() -> None:
    hand = deal(
        NO_LIMIT, [130, 300, 300, 300], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs", "9c9d8h7h"], BOARD
    )
    play(hand, "raise 100", "allin")  # player 0 all in to 130, short of a full raise
    legal = hand.legal_actions()
    assert legal.player == 1  # who has not acted yet
    assert legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 228


def test_fixed_limit_half_bet_rule() -> None:
    """RULES.md 3: an all-in of at least half a bet counts as a full raise."""
    config = GameConfig(Variant.O8, FixedLimit(10, 20))
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"]
    short = play(deal(config, [200, 200, 24], holes, BOARD), "call", "call", "check", "bet 10")
    play(short, "allin", "call")  # 14: 4 more than the bet, less than half of 10
    legal = short.legal_actions()
    assert legal.player == 1 and legal.bet_or_raise is None and legal.call == 4
    half = play(deal(config, [200, 200, 25], holes, BOARD), "call", "call", "check", "bet 10")
    play(half, "allin", "call")  # 15: half a bet more, a full raise
    legal = half.legal_actions()
    assert legal.player == 1
    assert legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 25


def test_fixed_limit_short_all_ins_adding_up_to_half_a_bet_reopen_the_betting() -> None:
    """RULES.md 3: at 2/4, A bets 4, B is all in for 5, C all in for 6: A faces 2 more,
    half a bet, and may raise (to a full bet above the last full one, as D might); X, who
    called 5 and faces 1 more, may only call or fold."""
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs", "7c7d6h5h", "JdJhTdTh"]
    hand = deal(LIMIT_2_4, [100, 7, 100, 8, 100], holes, BOARD, button=4)
    play(hand, "call", "call", "call", "call", "check", *["check"] * 5)
    play(hand, "bet 4", "allin", "call", "allin", "call")  # A, B 5, X, C 6, D
    legal = hand.legal_actions()
    assert legal.player == 0 and legal.call == 2
    assert legal.bet_or_raise is ActionKind.RAISE and legal.min_to == legal.max_to == 8
    play(hand, "raise 8")  # a full raise: X may raise again
    legal = hand.legal_actions()
    assert legal.player == 2 and legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 12
    short = deal(LIMIT_2_4, [100, 7, 100, 8, 100], holes, BOARD, button=4)
    play(short, "call", "call", "call", "call", "check", *["check"] * 5)
    play(short, "bet 4", "allin", "call", "allin", "call", "call")  # A calls 6
    legal = short.legal_actions()
    assert legal.player == 2 and legal.call == 1 and legal.bet_or_raise is None


def test_the_cap_holds_heads_up_unless_the_table_says_otherwise() -> None:
    holes = ["AsAh4d2c", "4h2dKcQc"]
    capped = play(
        deal(LIMIT_2_4, [100, 100], holes, BOARD, button=1), "raise 4", "raise 6", "raise 8"
    )
    assert capped.legal_actions().bet_or_raise is None
    open_ = GameConfig(Variant.O8, FixedLimit(2, 4, cap_heads_up=False))
    uncapped = play(
        deal(open_, [100, 100], holes, BOARD, button=1), "raise 4", "raise 6", "raise 8"
    )
    assert uncapped.legal_actions().min_to == 10


def test_side_pots_are_split_high_low_among_their_own_players() -> None:
    """RULES.md 4.6: a low held by a player not in the side pot gives it no low half."""
    holes = ["6h5c4d2c", "KhKcQcJc", "KsQsJsTs"]  # player 0 has the only low
    hand = deal(NO_LIMIT, [20, 200, 200], holes, BOARD)
    play(hand, "allin", "call", "call", "bet 50", "call")
    hand = _finish(hand, "check", "check", "check", "check")
    main, side = hand.result.pots
    assert main.eligible == (0, 1, 2) and main.amount == 60
    assert side.eligible == (1, 2) and side.amount == 100
    side_awards = [a for a in hand.result.awards if a.pot == 1]
    assert [a.share for a in side_awards] == [Share.WHOLE]  # no low half in the side pot
    main_awards = [(a.share, a.player, a.amount) for a in hand.result.awards if a.pot == 0]
    assert main_awards == [(Share.HIGH, 1, 30), (Share.LOW, 0, 30)]
    assert hand.stacks == (30, 260, 130)


def test_one_level_of_live_chips_is_one_pot_with_every_chip_in_it() -> None:
    """The usual case, every player still in having put in as much: one pot of every chip
    (dead money, and a folded player's chips above the level too), for every player in."""
    from splitpot.engine.pots import Pot, side_pots

    live = [True, True, False, True, False, True]
    assert side_pots([2, 2, 1, 2, 0, 2], live) == [Pot(9, (0, 1, 3, 5))]
    assert side_pots([10, 10, 30], [True, True, False], 5) == [Pot(55, (0, 1))]
    assert side_pots([0, 0, 0], [True, True, True], 3) == [Pot(3, (0, 1, 2))]
    # two levels: a main pot for all and a side pot for those who put in more
    assert side_pots([10, 30, 30], [True, True, True], 5) == [
        Pot(35, (0, 1, 2)),
        Pot(40, (1, 2)),
    ]


def test_odd_chip_goes_high_then_to_the_first_winner_left_of_the_button() -> None:
    """RULES.md 5: 25 chips: 13 high, 12 low; a tied low half of 13 is 7 + 6."""
    from splitpot.engine.pots import Pot, award_pot
    from splitpot.evaluate import best_high, best_low

    board = "Ad8c3hKd9s"
    hands = {0: "AsAh6d5c", 1: "4h2dKcQc", 2: "4c2hQhJh"}
    highs = {p: best_high(h, board) for p, h in hands.items()}
    lows = {p: best_low(h, board) for p, h in hands.items()}
    awards = award_pot(0, Pot(25, (0, 1, 2)), highs, lows, button=1, seats=3)
    # Player 0's aces take the high half with the odd chip; 1 and 2 tie for low.
    assert [(a.share, a.player, a.amount) for a in awards] == [
        (Share.HIGH, 0, 13),
        (Share.LOW, 2, 6),
        (Share.LOW, 1, 6),
    ]
    quartered = award_pot(0, Pot(26, (0, 1, 2)), highs, lows, button=1, seats=3)
    low_half = [(a.player, a.amount) for a in quartered if a.share is Share.LOW]
    assert low_half == [(2, 7), (1, 6)]  # 13 split: the first left of the button gets 7


def test_same_players_tying_both_halves_split_the_whole_pot_evenly() -> None:
    """RULES.md 5: a 26-chip pot between two such players is 13 and 13."""
    from splitpot.engine.pots import Pot, award_pot
    from splitpot.evaluate import best_high, best_low

    board = "3d4h5sKcQd"
    hands = {0: "Ac2c9h9d", 1: "Ad2d9s9c"}  # both: wheel straight high and wheel low
    highs = {p: best_high(h, board) for p, h in hands.items()}
    lows = {p: best_low(h, board) for p, h in hands.items()}
    awards = award_pot(0, Pot(26, (0, 1)), highs, lows, button=0, seats=2)
    assert sorted(a.amount for a in awards) == [13, 13]
    assert {a.share for a in awards} == {Share.WHOLE}


def test_showdown_order_last_river_aggressor_shows_first() -> None:
    """RULES.md 5: the river bettor shows first, even a hand that wins nothing; then,
    clockwise, the winner, and player 1, who ties the bettor's high and the best low."""
    hand = play(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD),
        *NOBODY_RAISES,
        "check",
        "bet 4",
        "call",
        "call",
    )
    assert hand.is_over  # no one was offered the muck
    assert [e.player for e in hand.events if isinstance(e, Shown | Mucked)] == [2, 0, 1]
    assert all(isinstance(e, Shown) for e in hand.events if isinstance(e, Shown | Mucked))
    assert hand.result.won(2) == 0


def test_showdown_without_river_betting_starts_left_of_the_button() -> None:
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), *NOBODY_RAISES, "check", "check", "check"
    )
    first_shown = next(e for e in hand.events if isinstance(e, Shown | Mucked))
    assert first_shown.player == 1


def test_a_hand_that_can_win_is_never_offered_the_muck() -> None:
    """Player 3 neither wins nor beats the hands shown before it (1 and 2): it alone is
    offered the muck; player 0, who scoops, shows after it."""
    holes = ["AsAh4d2c", "7c6dQhJh", "5c4h6s7s", "JdTc6h5h"]
    hand = play(deal(LIMIT_2_4, [100] * 4, holes, BOARD), "call", "call", "call", *["check"] * 13)
    assert [e.player for e in hand.events if isinstance(e, Shown)] == [1, 2]
    assert hand.to_act == 3
    with pytest.raises(IllegalActionError, match="show or muck, not fold"):
        hand.apply(Action.fold())
    play(hand, "muck")
    assert hand.is_over and Mucked(3) in hand.events
    assert [e.player for e in hand.events if isinstance(e, Shown)] == [1, 2, 0]


def test_all_hands_face_up_when_all_in_betting_is_over() -> None:
    hand = deal(NO_LIMIT, [50, 50, 50], THREE_ACES, BOARD)
    play(hand, "allin", "call", "call")
    assert hand.is_over  # no one is offered the muck
    assert sorted(e.player for e in hand.events if isinstance(e, Shown)) == [0, 1, 2]
    assert len(hand.board) == 5


def test_missed_blinds_post_3_at_2_4_with_2_live_and_1_dead() -> None:
    """RULES.md 6: the big blind amount is live, the small blind amount dead."""
    posts = [
        Post(1, PostKind.SMALL_BLIND, 1),
        Post(2, PostKind.BIG_BLIND, 2),
        Post(3, PostKind.LIVE, 2),
        Post(3, PostKind.DEAD, 1),
    ]
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs", "9c9d8h7h"]
    hand = deal(LIMIT_2_4, [100] * 4, holes, BOARD, posts=posts)
    assert hand.stacks[3] == 97 and hand.bets[3] == 2 and hand.pot == 6
    legal = hand.legal_actions()  # player 3's live 2 is a bet: a check is enough
    assert legal.player == 3 and legal.check and legal.call is None
    play(hand, "check", "call", "call", "check")
    assert hand.street is Street.FLOP and hand.pot == 9


def test_rake_comes_out_of_the_pot_before_the_split_and_not_without_a_flop() -> None:
    raked = GameConfig(Variant.O8, FixedLimit(2, 4), rake=Rake(percent=10, cap=2))
    hand = _finish(
        deal(raked, [100] * 3, THREE_ACES, BOARD), *NOBODY_RAISES, "check", "check", "check"
    )
    assert hand.result.rake == 2 and hand.result.pots[0].amount == 22
    assert sum(hand.stacks) == 298
    no_flop = play(deal(raked, [100] * 3, THREE_ACES, BOARD), "fold", "fold")
    assert no_flop.result.rake == 0 and sum(no_flop.stacks) == 300


def test_illegal_actions_are_named_and_change_nothing() -> None:
    hand = deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD)
    snapshot = (hand.stacks, hand.bets, len(hand.events), hand.to_act, hand.street)
    for action, message in [
        (Action.check(), "cannot check: 2 to call"),
        (Action.bet(4), "cannot bet: there is a bet of 2; raise instead"),
        (Action.raise_to(6), "raise to 6 is above the fixed-limit amount of 4"),
        (Action.raise_to(3), "raise to 3 is below the minimum of 4"),
        (Action.raise_to(500), "raise to 500 is more than the 100 in front of the player"),
        (Action.show(), "cannot show while the betting goes on"),
    ]:
        with pytest.raises(IllegalActionError, match=message):
            hand.apply(action)
    assert (hand.stacks, hand.bets, len(hand.events), hand.to_act, hand.street) == snapshot


def test_no_action_after_the_hand_is_over() -> None:
    hand = play(deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), "fold", "fold")
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.apply(Action.check())
    with pytest.raises(IllegalActionError, match="the hand is over"):
        hand.legal_actions()


@pytest.mark.parametrize(
    ("stacks", "button", "message"),
    [
        ([100], 0, "a hand needs 2 to 10 players, not 1"),
        ([100, 0, 100], 0, "player 1 has a stack of 0"),
        ([100, 100], 2, "button 2 is not one of the players 0..1"),
    ],
)
def test_bad_setups_are_rejected(stacks: list[int], button: int, message: str) -> None:
    with pytest.raises(HandSetupError, match=message):
        deal(
            LIMIT_2_4,
            stacks,
            ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"][: len(stacks)],
            BOARD,
            button,
            posts=[],
        )


def test_big_o_seats_at_most_8_players_so_the_deck_covers_every_card() -> None:
    """docs/rules.md: 9 players of Big O would need 45 hole cards, 3 burns and 5 board."""
    from splitpot.cards import Deck
    from splitpot.engine import Hand

    config = GameConfig(Variant.BIGO, FixedLimit(2, 4))
    with pytest.raises(HandSetupError, match="9 players would need 53 cards of 52"):
        Hand(config, [100] * 9, 0, [], Deck(1).cards)
    assert Hand(config, [100] * 8, 0, [], Deck(1).cards).to_act == 1


def test_a_duplicate_card_in_the_deck_is_rejected() -> None:
    from splitpot.cards import parse_cards
    from splitpot.engine import Hand

    deck = list(parse_cards("AsAh")) * 10
    with pytest.raises(HandSetupError, match="deck: duplicate card: As"):
        Hand(LIMIT_2_4, [100, 100], 0, [], deck)


def test_hole_cards_are_seen_by_their_owner_only_and_shown_cards_by_all() -> None:
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), *NOBODY_RAISES, "check", "check", "check"
    )
    for viewer in (None, 0, 1, 2):
        for event in hand.visible_events(viewer):
            if isinstance(event, HoleCardsDealt):
                visible = event.player == viewer
                assert (None not in event.cards) == visible
    assert view(hand.events[-1], None) == hand.events[-1]
    assert any(isinstance(e, Shown) for e in hand.visible_events(None))


def test_the_log_replays_to_the_identical_state() -> None:
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD),
        *NOBODY_RAISES,
        "check",
        "bet 4",
        "call",
        "call",
    )
    again = replay(
        hand.config, hand.starting_stacks, hand.button, hand.posts, hand.deck, hand.actions
    )
    assert again.events == hand.events and again.stacks == hand.stacks


def test_every_event_kind_of_a_hand_is_reported_in_order() -> None:
    hand = _finish(
        deal(LIMIT_2_4, [100] * 3, THREE_ACES, BOARD), *NOBODY_RAISES, "check", "check", "check"
    )
    kinds = [type(e).__name__ for e in hand.events]
    assert kinds[:5] == ["Posted", "Posted", "HoleCardsDealt", "HoleCardsDealt", "HoleCardsDealt"]
    assert kinds[-1] == "HandEnded"
    assert sum(isinstance(e, PotAwarded) for e in hand.events) == 3
    assert sum(isinstance(e, Acted) for e in hand.events) == 12
