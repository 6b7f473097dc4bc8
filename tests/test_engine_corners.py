"""Corners of the rules: bad settings refused where they are made, the structures' own
answers, the showdown order, raising against players who can only call, the cap when a
round turns heads-up, and how the legal actions read (RULES.md 3 to 6)."""

from fractions import Fraction

import pytest
from engine_helpers import blind_posts, deal, play

from splitpot.cards import parse_cards
from splitpot.engine import (
    Action,
    ActionKind,
    Hand,
    IllegalActionError,
    LegalActions,
    Mucked,
    Shown,
    arrange_deck,
)
from splitpot.rules import (
    FixedLimit,
    GameConfig,
    Mixed,
    NoLimit,
    PotLimit,
    Rake,
    RulesError,
    Structure,
    Variant,
)

LIMIT_2_4 = GameConfig(Variant.O8, FixedLimit(2, 4))
NO_LIMIT = GameConfig(Variant.O8, NoLimit(1, 2))
BOARD = "Ad8c3hKd9s"


# ------------------------------------------------------------- bad settings


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: FixedLimit(4, 2), "big_bet must be twice the small bet of 4 .*, that is 8, not 2"),
        (lambda: FixedLimit(2, 5), "big_bet must be twice the small bet of 2 .*, that is 4, not 5"),
        (
            lambda: FixedLimit(1, 2),
            "small_blind: half the small bet of 1 would be 0 chips; set small_blind "
            "explicitly, 1 to 1 chips",
        ),
        (
            lambda: FixedLimit(2, 4, small_blind=3),
            r"small_blind must be at most the big blind \(2\), not 3",
        ),
        (
            lambda: FixedLimit(2, 4, big_blind=5),
            r"big_blind must be at most the big bet \(4\), not 5",
        ),
        (lambda: FixedLimit(2, 4, cap=1.5), "cap must be a whole number of bets, at least 1"),
        (
            lambda: FixedLimit(2, 4, cap_heads_up=0),
            "cap_heads_up must be True or False, not 0",
        ),
        (
            lambda: PotLimit(3, 2),
            r"small_blind must be at most the big blind \(2\), not 3",
        ),
        (
            lambda: NoLimit(1, 2, min_bet=1),
            "min_bet must be a whole number of chips, at least 2, not 1",
        ),
        (
            lambda: PotLimit(1, 2.0),
            "big_blind must be a whole number of chips, at least 1, not 2.0",
        ),
        (
            lambda: NoLimit(True, 2),
            "small_blind must be a whole number of chips, at least 1, not True",
        ),
        (
            lambda: FixedLimit(2.5, 5),
            "small_bet must be a whole number of chips, at least 1, not 2.5",
        ),
        (
            lambda: Mixed(FixedLimit(2, 4), PotLimit(1, 2), period=0),
            "period must be a whole number of hands, at least 1, not 0",
        ),
        (
            lambda: Mixed(FixedLimit(2, 4), PotLimit(1, 2), period=-3),
            "period must be a whole number of hands, at least 1, not -3",
        ),
        (
            lambda: Mixed(PotLimit(1, 2), FixedLimit(2, 4)),  # type: ignore[arg-type]
            r"limit must be a FixedLimit \(Mixed plays limit first, then pot limit\), not PotLimit",
        ),
        (
            lambda: Mixed(FixedLimit(2, 4), NoLimit(1, 2)),  # type: ignore[arg-type]
            r"pot_limit must be a PotLimit \(Mixed plays .*\), not NoLimit",
        ),
        (
            lambda: GameConfig(Variant.O8, "pot-limit"),  # type: ignore[arg-type]
            "betting must be FixedLimit, PotLimit or NoLimit .*, not 'pot-limit'",
        ),
        (
            lambda: GameConfig(Variant.O8, Mixed(FixedLimit(2, 4), PotLimit(1, 2))),  # type: ignore[arg-type]
            "betting must be FixedLimit, PotLimit or NoLimit .*Mixed.betting_for",
        ),
        (
            lambda: GameConfig("o8", PotLimit(1, 2)),  # type: ignore[arg-type]
            "variant must be a Variant, not 'o8'",
        ),
        (
            lambda: GameConfig(Variant.O8, PotLimit(1, 2), ante=-1),
            "ante must be a whole number of chips, at least 0, not -1",
        ),
        (
            lambda: GameConfig(Variant.O8, PotLimit(1, 2), ante=0.5),
            "ante must be a whole number of chips, at least 0, not 0.5",
        ),
        (
            lambda: GameConfig(Variant.O8, PotLimit(1, 2), rake=5),  # type: ignore[arg-type]
            "rake must be a Rake or None, not 5",
        ),
        (lambda: Rake(0.05), "rake percent must be a whole number or a Fraction, not 0.05"),
        (lambda: Rake(5, cap=-1), "rake cap must be a whole number of chips, at least 0"),
    ],
)
def test_a_bad_setting_is_refused_where_it_is_made(make: object, message: str) -> None:
    with pytest.raises(RulesError, match=message):
        make()  # type: ignore[operator]


def test_rules_error_is_a_value_error() -> None:
    assert issubclass(RulesError, ValueError)


def test_limit_blinds_set_explicitly_may_be_equal() -> None:
    """FixedLimit(1, 2) has no half-chip small blind: the table states it (here 1 and 1),
    as the PHH hand with a single blind of a full small bet does."""
    betting = FixedLimit(1, 2, small_blind=1)
    assert (betting.small_blind, betting.big_blind) == (1, 1)
    assert FixedLimit(3, 6).small_blind == 1  # half of 3, rounded down


# ------------------------------------------------------- the structures' answers


def test_each_structure_answers_its_unit_name_stakes_settings_and_buy_in() -> None:
    limit = FixedLimit(2, 4)
    assert [limit.bet_unit(street) for street in range(4)] == [2, 2, 4, 4]
    assert (limit.name, limit.stakes, limit.stake_amounts) == ("Fixed Limit", "2/4", (2, 4))
    assert list(limit.params().items()) == [
        ("small_bet", 2),
        ("big_bet", 4),
        ("small_blind", 1),
        ("big_blind", 2),
        ("cap", 4),
        ("cap_heads_up", True),
    ]
    assert limit.default_buy_in == (20, 200)  # RULES.md 6: 10 to 100 small bets
    pot = PotLimit(1, 2, min_bet=4)
    assert [pot.bet_unit(street) for street in range(4)] == [4, 4, 4, 4]
    assert (pot.name, pot.stakes, pot.stake_amounts) == ("Pot Limit", "1/2", (1, 2))
    assert list(pot.params().items()) == [("small_blind", 1), ("big_blind", 2), ("min_bet", 4)]
    assert pot.default_buy_in == (80, 200)  # RULES.md 6: 40 to 100 big blinds
    no = NoLimit(5, 10)
    assert (no.name, no.stakes, no.stake_amounts, no.default_buy_in) == (
        "No Limit",
        "5/10",
        (5, 10),
        (400, 1000),
    )
    mixed = Mixed(FixedLimit(4, 8), PotLimit(1, 2))
    assert (mixed.name, mixed.stakes, mixed.default_buy_in) == (
        "Mixed Limit / Pot Limit",
        "4/8 and 1/2",
        (40, 400),
    )
    assert mixed.structure is Structure.MIXED and mixed.betting_for(1) == PotLimit(1, 2)


def test_config_accepts_a_fraction_rake_and_a_zero_ante() -> None:
    config = GameConfig(Variant.O8, PotLimit(1, 2), ante=0, rake=Rake(Fraction(5, 2), cap=0))
    assert config.rake is not None and config.rake.cuts([100]) == [0]


# ---------------------------------------------------- raising against a caller


def test_no_raise_when_the_only_opponent_left_can_only_call() -> None:
    """Player 0 is all in for 100; player 2, the big blind, has 100 in all: player 1 may
    call or fold but not raise, for no one could call more (PokerKit refuses it too)."""
    hand = deal(NO_LIMIT, [100, 500, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    play(hand, "allin")
    legal = hand.legal_actions()
    assert legal.player == 1 and legal.call == 99 and legal.fold
    assert legal.bet_or_raise is None and not legal.all_in
    with pytest.raises(
        IllegalActionError, match="every other player still in is all in or can only call 100"
    ):
        hand.apply(Action.raise_to(300))
    with pytest.raises(IllegalActionError, match="cannot go all in"):
        hand.apply(Action.all_in())
    play(hand, "call")
    assert hand.legal_actions().bet_or_raise is None  # the big blind: call all in, or fold


def test_a_raise_is_offered_when_one_opponent_can_go_past_the_bet() -> None:
    hand = deal(NO_LIMIT, [100, 500, 101], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    play(hand, "allin")
    legal = hand.legal_actions()
    assert legal.bet_or_raise is ActionKind.RAISE and (legal.min_to, legal.max_to) == (198, 500)


def test_the_only_opponent_who_can_only_call_agrees_with_pokerkit() -> None:
    """The same spot in PokerKit (its seats: small blind, big blind, button)."""
    pokerkit = pytest.importorskip("pokerkit")
    automations = tuple(
        a for a in pokerkit.Automation if a is not pokerkit.Automation.RUNOUT_COUNT_SELECTION
    )
    theirs = pokerkit.NoLimitTexasHoldem.create_state(
        automations, False, 0, (1, 2), 2, [500, 100, 100], 3
    )
    theirs.complete_bet_or_raise_to(100)  # the button all in
    assert theirs.actor_index == 0 and not theirs.can_complete_bet_or_raise_to()
    ours = deal(NO_LIMIT, [100, 500, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    play(ours, "allin")
    assert ours.to_act == 1 and ours.legal_actions().bet_or_raise is None


# ------------------------------------------------------------------ the cap


def test_a_round_capped_three_handed_stays_capped_when_a_fold_leaves_two() -> None:
    """TDA: raising is unlimited heads-up only when the round becomes heads-up before the
    cap is reached (cap_heads_up=False)."""
    config = GameConfig(Variant.O8, FixedLimit(2, 4, cap_heads_up=False))
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"]
    capped = play(deal(config, [100] * 3, holes, BOARD), "raise 4", "raise 6", "raise 8", "fold")
    legal = capped.legal_actions()
    assert legal.player == 1 and legal.bet_or_raise is None and legal.call == 2
    with pytest.raises(IllegalActionError, match="the betting is capped at 4 bets"):
        capped.apply(Action.raise_to(10))
    open_ = play(deal(config, [100] * 3, holes, BOARD), "raise 4", "fold", "raise 6", "raise 8")
    legal = open_.legal_actions()  # heads-up before the cap: no cap
    assert legal.player == 2 and legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 10
    play(open_, "raise 10", "raise 12", "raise 14")
    assert open_.legal_actions().min_to == 16


def test_without_the_heads_up_cap_players_all_in_do_not_count() -> None:
    """RULES.md 3: cap_heads_up=False lifts the cap while only two players who can still
    bet are in the round: a third all in (before the round, or by the raise reaching the
    cap) does not count."""
    config = GameConfig(Variant.O8, FixedLimit(2, 4, cap_heads_up=False))
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"]
    earlier = play(deal(config, [100, 100, 3], holes, BOARD), "raise 4", "call", "allin")
    play(earlier, "bet 2", "raise 4", "raise 6", "raise 8")  # the flop: four bets
    legal = earlier.legal_actions()
    assert legal.player == 1 and legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 10
    now = play(deal(config, [100, 100, 8], holes, BOARD), "raise 4", "raise 6", "allin")
    legal = now.legal_actions()  # the big blind's all-in raise to 8 is the fourth bet
    assert legal.player == 0 and legal.bet_or_raise is ActionKind.RAISE and legal.min_to == 10
    capped = play(deal(LIMIT_2_4, [100, 100, 8], holes, BOARD), "raise 4", "raise 6", "allin")
    assert capped.legal_actions().bet_or_raise is None  # the cap holds by default


def test_the_cap_holds_heads_up_by_default_even_after_a_fold() -> None:
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"]
    hand = play(deal(LIMIT_2_4, [100] * 3, holes, BOARD), "raise 4", "fold", "raise 6", "raise 8")
    assert hand.legal_actions().bet_or_raise is None


# ---------------------------------------------------------------- showdown

FOUR = ["AsAh4d2c", "7c6dQhJh", "5c4h6s7s", "JdTc6h5h"]  # 0 scoops; 1, 2, 3 win nothing
CHECKED_DOWN_4 = ["call", "call", "call", *["check"] * 13]


def _shown(hand: Hand) -> list[int]:
    return [e.player for e in hand.events if isinstance(e, Shown)]


def test_the_first_to_show_shows_even_a_hand_that_wins_nothing() -> None:
    """RULES.md 5: no river betting, so player 1, left of the button, shows first."""
    hand = play(deal(LIMIT_2_4, [100] * 4, FOUR, BOARD), *CHECKED_DOWN_4)
    assert _shown(hand)[0] == 1 and hand.result is None
    assert hand.to_act == 3


def test_a_hand_that_beats_the_best_low_shown_so_far_shows() -> None:
    """Player 2's 8-5-4-3-A beats player 1's 8-7-6-3-A; its high, ace-king-nine, does not
    beat player 1's ace-king-queen: it wins nothing but shows."""
    hand = play(deal(LIMIT_2_4, [100] * 4, FOUR, BOARD), *CHECKED_DOWN_4)
    assert _shown(hand) == [1, 2]


def test_a_hand_that_neither_wins_nor_beats_may_show_or_muck() -> None:
    """Player 3's 8-6-5-3-A and ace-king-jack beat nothing shown: show or muck, its choice."""
    mucked = play(deal(LIMIT_2_4, [100] * 4, FOUR, BOARD), *CHECKED_DOWN_4)
    legal = mucked.legal_actions()
    assert (legal.player, legal.show, legal.muck, legal.fold) == (3, True, True, False)
    play(mucked, "muck")
    assert Mucked(3) in mucked.events and _shown(mucked) == [1, 2, 0]
    shown = play(deal(LIMIT_2_4, [100] * 4, FOUR, BOARD), *CHECKED_DOWN_4, "show")
    assert shown.is_over and _shown(shown) == [1, 2, 3, 0]
    assert mucked.stacks == shown.stacks == (106, 98, 98, 98)


def test_a_hand_that_ties_the_best_high_shown_so_far_shows_though_it_wins_nothing() -> None:
    """Players 1 and 2 both hold kings, ace, queen, nine, and no low; player 0 scoops."""
    holes = ["AsAh4d2c", "KcQc7h7d", "KsQsJsTs"]
    hand = play(deal(LIMIT_2_4, [100] * 3, holes, BOARD), "call", "call", "check", *["check"] * 9)
    assert hand.is_over and _shown(hand) == [1, 2, 0]
    assert hand.result is not None and hand.result.won(1) == hand.result.won(2) == 0


def test_the_last_river_raiser_shows_first_and_a_worse_hand_after_may_muck() -> None:
    """Player 3 bets the river and player 1 raises: player 1 shows first (queens, and
    8-7-6-3-A, winning nothing); player 2's fives and no low beat nothing shown: show or
    muck; player 3's 8-5-4-3-A beats the low shown and shows; player 0 scoops."""
    holes = ["AsAh4d2c", "7c6dQhQc", "JdTc5s5d", "5c4h6s7s"]
    hand = play(
        deal(LIMIT_2_4, [100] * 4, holes, BOARD),
        *CHECKED_DOWN_4[:-2],
        "bet 4",
        "call",
        "raise 8",
        "call",
        "call",
        "call",
    )
    assert _shown(hand) == [1] and hand.to_act == 2
    play(hand, "muck")
    assert _shown(hand) == [1, 3, 0] and Mucked(2) in hand.events
    assert hand.stacks == (130, 90, 90, 90)


# ------------------------------------------------------- the words of the client


def test_an_all_in_that_is_the_only_raise_is_listed_once() -> None:
    """Player 0 has 4: raising to 4, the fixed amount, is all in."""
    hand = deal(LIMIT_2_4, [4, 100, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    assert hand.legal_actions().describe() == ["fold", "call 2", "raise 4 (allin)"]
    short = deal(LIMIT_2_4, [3, 100, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    assert short.legal_actions().describe() == ["fold", "call 2", "raise 3 (allin)"]


def test_an_all_in_that_is_a_call_or_the_top_of_a_range_is_listed_on_it() -> None:
    caller = deal(LIMIT_2_4, [2, 100, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    assert caller.legal_actions().describe() == ["fold", "call 2 (allin)"]
    ranged = deal(NO_LIMIT, [32, 100, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    assert ranged.legal_actions().describe() == ["fold", "call 2", "raise 4..32 (allin at 32)"]
    pot_limit = GameConfig(Variant.O8, PotLimit(1, 2))
    deep = deal(pot_limit, [300, 100, 100], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], BOARD)
    assert deep.legal_actions().describe() == ["fold", "call 2", "raise 4..7"]  # not all in


def test_an_all_in_of_its_own_is_listed_with_its_amount() -> None:
    legal = LegalActions(0, fold=True, call=2, all_in_to=50, all_in=True, check=False)
    assert legal.describe() == ["fold", "call 2 (allin)"]
    odd = LegalActions(0, fold=True, all_in_to=50, all_in=True)
    assert odd.describe() == ["fold", "allin (50)"]


def test_an_unknown_hand_at_the_showdown_is_offered_the_muck_only() -> None:
    """A replayed history without player 1's cards: player 1 cannot show; player 2, the
    next, is then the first to show, though it wins nothing."""
    holes = [parse_cards("AsAh4d2c"), None, parse_cards("KsQsJsTs")]
    deck = arrange_deck(holes, parse_cards(BOARD), 0, 4)
    hand = Hand(LIMIT_2_4, [100] * 3, 0, blind_posts(3, 0, 1, 2), deck)
    play(hand, "call", "call", "check", *["check"] * 9)
    legal = hand.legal_actions()
    assert (legal.player, legal.show, legal.muck) == (1, False, True)
    with pytest.raises(IllegalActionError, match="cannot show: the hole cards are not known"):
        hand.apply(Action.show())
    play(hand, "muck")
    assert hand.is_over and _shown(hand) == [2, 0]


def test_the_river_bettor_shows_first_though_a_player_went_all_in_earlier() -> None:
    """RULES.md 5: every hand is face up when a player is all in, but the order is still
    the river's last bettor first, then clockwise."""
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs", "7c7d6h6s"]
    hand = deal(LIMIT_2_4, [100, 100, 100, 2], holes, "Ad8c3hKd9s")
    play(hand, "call", "call", "call", "check")  # player 3 is all in for the big blind
    play(hand, "check", "check", "check", "check", "check", "check")  # flop and turn
    play(hand, "check", "bet 4", "call", "call")  # river: player 2 bets
    assert hand.is_over
    assert [e.player for e in hand.events if isinstance(e, Shown)] == [2, 3, 0, 1]


def test_a_board_run_out_after_an_all_in_shows_from_left_of_the_button() -> None:
    """No betting on the river (the board was run out): the first player left of the
    button shows first."""
    holes = ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"]
    hand = deal(LIMIT_2_4, [100, 100, 4], holes, "Ad8c3hKd9s")
    play(hand, "raise 4", "fold", "call")  # button 0 raises, 2 (the big blind) calls all in
    assert hand.is_over
    assert [e.player for e in hand.events if isinstance(e, Shown)] == [2, 0]


@pytest.mark.parametrize(
    "make",
    [
        lambda: FixedLimit(2, 4, small_blind=False),
        lambda: FixedLimit(2, 4, big_blind=0.0),
        lambda: PotLimit(1, 2, min_bet=False),
    ],
)
def test_false_and_zero_point_zero_are_not_the_default(make) -> None:  # type: ignore[no-untyped-def]
    """0 asks for a structure's default; a bool or a float is refused (docs/rules.md)."""
    with pytest.raises(RulesError, match="must be a whole number of chips"):
        make()


@pytest.mark.parametrize("text", ["raise ²", "bet ٣", "raise 1.5", "bet -2"])
def test_an_amount_is_written_in_ascii_digits(text: str) -> None:
    """``Action.parse`` reads an amount of plain digits; anything else is named."""
    with pytest.raises(ValueError, match="needs one whole amount"):
        Action.parse(text)


def test_giving_up_is_a_fold_in_the_betting_and_a_muck_at_the_showdown() -> None:
    """What the room does for a player leaving or out of time (LegalActions.give_up)."""
    assert LegalActions(0, fold=True, call=2).give_up() == Action.fold()
    assert LegalActions(0, show=True, muck=True).give_up() == Action.muck()
