"""Engine speed: 6-handed pot-limit Omaha Hi/Lo, random legal actions, played to the end;
and ``splitpot simulate``'s loop (a table of random bots, each deciding from its seat's
view of the hand: what the room's bots do at every action).

Run: ``.venv/bin/python benchmarks/engine.py [--hands N] [--peer-hands N]``. PokerKit,
where installed, plays the same kind of hands (its pot-limit Omaha with a hi/lo
evaluator is not offered, so it plays fixed-limit Omaha Hi/Lo, its closest game, and
pot-limit Omaha high) in the same run.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from common import best_rate, print_table

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.engine import Action, Hand, LegalActions, Post, PostKind
from splitpot.rules import FixedLimit, GameConfig, PotLimit, Variant
from splitpot.simulation import simulate
from splitpot.table import TableConfig

PLAYERS = 6


def choose(legal: LegalActions, rng: random.Random) -> Action:
    if legal.show or legal.muck:
        return Action.show() if legal.show else Action.muck()
    roll = rng.random()
    if legal.call is not None and roll < 0.2:
        return Action.fold()
    if legal.bet_or_raise is not None and roll > 0.8:
        assert legal.min_to is not None and legal.max_to is not None
        return Action(legal.bet_or_raise, rng.randint(legal.min_to, legal.max_to))
    return Action.check() if legal.check else Action.call()


def splitpot_hands(count: int, config: GameConfig, seed: int) -> None:
    rng = random.Random(seed)
    posts = [Post(0, PostKind.SMALL_BLIND, 1), Post(1, PostKind.BIG_BLIND, 2)]
    for n in range(count):
        hand = Hand(config, [200] * PLAYERS, PLAYERS - 1, posts, Deck(seed + n).cards)
        while not hand.is_over:
            hand.apply(choose(hand.legal_actions(), rng))


def simulated_hands(count: int, seed: int) -> None:
    """``splitpot simulate --bots random``: six random bots at a pot-limit O8 table."""
    bots = [make_bot("random", f"Bot {seat}", seed + seat) for seat in range(PLAYERS)]
    simulate(TableConfig(Variant.O8, PotLimit(1, 2), seats=PLAYERS), bots, count, seed=seed)


def pokerkit_hands(count: int, limit: bool, seed: int) -> None:
    import pokerkit

    rng = random.Random(seed)
    automations = tuple(
        a for a in pokerkit.Automation if a is not pokerkit.Automation.RUNOUT_COUNT_SELECTION
    )
    for _ in range(count):
        if limit:
            state = pokerkit.FixedLimitOmahaHoldemHighLowSplitEightOrBetter.create_state(
                automations, False, 0, (1, 2), 2, 4, [200] * PLAYERS, PLAYERS
            )
        else:
            state = pokerkit.PotLimitOmahaHoldem.create_state(
                automations, False, 0, (1, 2), 2, [200] * PLAYERS, PLAYERS
            )
        while state.status:
            roll = rng.random()
            if state.can_fold() and roll < 0.2:
                state.fold()
            elif state.can_complete_bet_or_raise_to() and roll > 0.8:
                low = state.min_completion_betting_or_raising_to_amount
                high = state.max_completion_betting_or_raising_to_amount
                state.complete_bet_or_raise_to(rng.randint(low, high))
            elif state.can_check_or_call():
                state.check_or_call()


def rate(run: Callable[[int], None], hands: int) -> float:
    return best_rate(lambda: run(hands), hands, repeats=1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5_000)
    parser.add_argument("--peer-hands", type=int, default=200)
    args = parser.parse_args()
    o8_pl = GameConfig(Variant.O8, PotLimit(1, 2))
    splitpot_hands(20, o8_pl, seed=0)  # compile the evaluator and build its tables first
    rows = [
        (
            "splitpot, pot-limit Omaha Hi/Lo",
            rate(lambda n: splitpot_hands(n, o8_pl, 1), args.hands),
        ),
        (
            "splitpot, fixed-limit Omaha Hi/Lo",
            rate(
                lambda n: splitpot_hands(n, GameConfig(Variant.O8, FixedLimit(2, 4)), 2), args.hands
            ),
        ),
        (
            "splitpot, pot-limit Omaha",
            rate(
                lambda n: splitpot_hands(n, GameConfig(Variant.OMAHA, PotLimit(1, 2)), 3),
                args.hands,
            ),
        ),
        (
            "splitpot simulate, random bots (a view each action)",
            rate(lambda n: simulated_hands(n, 6), args.hands),
        ),
    ]
    peer: float | None = None
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        pass
    else:
        peer = rate(lambda n: pokerkit_hands(n, True, 4), args.peer_hands)
        rows.append(("PokerKit, fixed-limit Omaha Hi/Lo", peer))
        rows.append(
            (
                "PokerKit, pot-limit Omaha",
                rate(lambda n: pokerkit_hands(n, False, 5), args.peer_hands),
            )
        )
    title = f"{PLAYERS}-handed hands, random legal actions to the end, one thread"
    print_table(title, "hands/s", rows, peer)


if __name__ == "__main__":
    main()
