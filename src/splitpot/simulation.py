"""Bots playing hands at one table: the loop behind ``splitpot simulate``."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from splitpot.bots import Bot
from splitpot.cards import Deck
from splitpot.table import Table, TableConfig, TableHand


@dataclass
class SimulationResult:
    hands: int
    seconds: float
    chips_before: int  # every chip bought in
    chips_after: int  # every stack at the end, plus the rake taken
    results: dict[str, int]  # chips won (or lost) by each seat's player
    rake: int

    @property
    def hands_per_second(self) -> float:
        return self.hands / self.seconds if self.seconds else 0.0


def play_bots(table: Table, bots: Mapping[int, Bot]) -> None:
    """Let the bots act, each with what its seat may see, until the hand is over or a
    seat without a bot (a person) is to act."""
    variant = table.config.variant
    while table.hand is not None and (seat := table.seat_to_act) in bots:
        hand = table.hand.hand
        assert seat is not None and hand.to_act is not None
        table.play(seat, bots[seat].decide(hand.view(hand.to_act), variant))


def play_hand(
    table: Table, bots: dict[int, Bot], deck: Deck, draw: random.Random | int
) -> TableHand:
    """Deal one hand and let the bots play it out; ``draw`` shuffles a deck apart for a
    draw for the button, when the game (re)starts (RULES.md 4.1: only then is it dealt)."""
    table.deal(deck.cards, draw=Deck(draw).cards if table.draws_for_button else None)
    dealt = table.latest
    assert dealt is not None
    play_bots(table, bots)
    return dealt


def _shuffler(seeds: random.Random | None) -> random.Random | int:
    """What shuffles a deck: secret randomness, or the next seed of a seeded run (the
    same deals every run)."""
    return random.SystemRandom() if seeds is None else seeds.getrandbits(64)


def simulate(
    config: TableConfig,
    bots: Sequence[Bot],
    hands: int,
    *,
    buy_in: int | None = None,
    seed: int | None = None,
    played: Callable[[TableHand], None] | None = None,
    progress: Callable[[int], None] | None = None,
) -> SimulationResult:
    """Bots play ``hands`` hands; a bot that goes broke buys in again (counted as chips in).
    ``played`` is given each hand as it ends (a history written as it goes keeps every
    hand played when the run is stopped)."""
    table = Table(config)
    chips = buy_in or config.max_buy_in
    bought = {}
    for seat, bot in enumerate(bots):
        table.sit(seat, bot.name, chips)
        bought[seat] = chips
    by_seat = dict(enumerate(bots))
    seeds = None if seed is None else random.Random(seed)
    rake = 0
    start = time.perf_counter()
    for number in range(hands):
        for seat, player in enumerate(table.seats):
            if player is not None and player.stack == 0:
                table.add_chips(seat, chips)
                bought[seat] += chips
        deck, draw = Deck(_shuffler(seeds)), _shuffler(seeds)
        dealt = play_hand(table, by_seat, deck, draw)
        result = dealt.hand.result
        assert result is not None
        rake += result.rake
        if played is not None:
            played(dealt)
        if progress is not None:
            progress(number + 1)
    seconds = time.perf_counter() - start
    results = {
        bots[seat].name: (player.stack if player is not None else 0) - bought[seat]
        for seat, player in enumerate(table.seats[: len(bots)])
    }
    return SimulationResult(
        hands, seconds, sum(bought.values()), table.chips() + rake, results, rake
    )
