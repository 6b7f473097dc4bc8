"""The bots: one that plays random legal actions, one that plays sensible Omaha Hi/Lo;
and how every bot answers the question to run it twice (``run_it_answer``)."""

from __future__ import annotations

import random
from typing import Protocol

import numpy as np

from splitpot.bots.estimate import estimate_boards
from splitpot.cards import Card, format_cards
from splitpot.engine import Action, HandView, LegalActions, Street
from splitpot.equity import calculate
from splitpot.evaluate import Variant

FAVOURITE = 0.4  # run it once: a share of the pot this far from an even one to all of it


class Bot(Protocol):
    """A player: given what its seat may see, a legal action."""

    name: str

    def decide(self, view: HandView, variant: Variant) -> Action: ...


def _showdown_choice(legal: LegalActions) -> Action | None:
    if legal.show or legal.muck:
        return Action.muck() if legal.muck else Action.show()
    return None


class RandomBot:
    """Plays uniformly random legal actions; for testing."""

    def __init__(self, name: str = "random", seed: int | None = None) -> None:
        self.name = name
        self._rng = random.Random(seed)

    def decide(self, view: HandView, variant: Variant) -> Action:
        legal = view.legal
        assert legal is not None
        shown = _showdown_choice(legal)
        if shown is not None:
            return shown
        choices: list[Action | None] = []  # None: the bet or raise, made only when drawn
        if legal.call is not None:
            choices += [Action.fold(), Action.call()]
        if legal.check:
            choices.append(Action.check())
        to = None
        if legal.bet_or_raise is not None and legal.min_to is not None and legal.max_to is not None:
            to = self._rng.randint(legal.min_to, legal.max_to)
            choices.append(None)
        chosen = self._rng.choice(choices)
        if chosen is None:
            assert legal.bet_or_raise is not None and to is not None
            return Action(legal.bet_or_raise, to)
        return chosen


class SensibleBot:
    """Plays Omaha Hi/Lo by hand strength: it enters with hands that can scoop (aces with
    low cards, A-2, low connected cards), then bets and raises by its share of the pot
    against the players left and by how often it scoops, calls when the pot pays for
    it, and folds otherwise."""

    def __init__(self, name: str = "sensible", seed: int | None = None, samples: int = 300) -> None:
        self.name = name
        self.samples = samples
        self._rng = np.random.default_rng(seed)

    def decide(self, view: HandView, variant: Variant) -> Action:
        legal = view.legal
        assert legal is not None and view.hole is not None
        shown = _showdown_choice(legal)
        if shown is not None:
            return shown
        hole = [c for c in view.hole if c is not None]
        boards = [[c for c in board if c is not None] for board in view.boards]
        opponents = sum(not f for f in view.folded) - 1
        odds = estimate_boards(hole, boards, opponents, variant, self.samples, self._rng)
        fair = 1 / (opponents + 1)
        to_call = legal.call or 0
        price = to_call / (view.pot + to_call) if to_call else 0.0
        strength = odds.share / fair  # 1.0: an average hand among those left
        preflop = view.street is Street.PREFLOP
        if preflop and variant.has_low:
            strength *= 1 + _low_potential(hole)
        if legal.bet_or_raise is not None and (strength > 1.7 or odds.scoop > 0.55):
            return self._raise(legal, view, strength)
        if to_call == 0:
            return Action.check()
        needed = price * (1.25 if preflop else 1.0)
        if odds.share > needed and strength > (0.95 if preflop else 0.6):
            return Action.call()
        return Action.fold()

    def _raise(self, legal: LegalActions, view: HandView, strength: float) -> Action:
        assert (
            legal.bet_or_raise is not None and legal.min_to is not None and legal.max_to is not None
        )
        if legal.min_to == legal.max_to:
            return Action(legal.bet_or_raise, legal.min_to)
        fraction = min(1.0, 0.5 + (strength - 1.7) / 4)
        target = legal.min_to + int((legal.max_to - legal.min_to) * fraction)
        pot_sized = max(legal.min_to, min(legal.max_to, view.pot + max(view.bets)))
        return Action(legal.bet_or_raise, min(target, pot_sized))


def run_it_answer(view: HandView, variant: Variant) -> bool:
    """A bot's answer when asked to run it twice (RULES.md 7), from ``view``, the hand as
    its seat sees it while the players are asked (every hand still in is face up).

    Running it twice leaves each player's expected share of the pot as it is and makes
    the result less of a gamble, so a bot agrees when it is behind or about even; it
    declines as a big favourite, whose share is at least ``FAVOURITE`` of the way from an
    even share to the whole pot (heads-up: 70% or more), keeping its chance to scoop
    the whole of it on one board. The share is exact, from the hands face up."""
    assert view.viewer is not None and view.hole is not None
    live = [p for p, folded in enumerate(view.folded) if not folded]
    own = tuple(c for c in view.hole if c is not None)
    hands = [own if p == view.viewer else view.shown.get(p, ()) for p in live]
    if view.viewer not in live or not all(hands):
        return True  # not a player still in with every hand face up: no favourite known
    board = format_cards((c for c in view.board if c is not None), "")
    texts = [format_cards(cards, "") for cards in hands]
    share = calculate(texts, board=board, variant=variant).players[live.index(view.viewer)]
    even = 1 / len(live)
    return float(share.equity) < even + FAVOURITE * (1 - even)


def _low_potential(hole: list[Card]) -> float:
    """A preflop bonus for the cards that make the nut low: A-2, A-3, 2-3, and an ace."""
    low = {12 if c.rank == 12 else c.rank for c in hole if c.rank <= 3 or c.rank == 12}
    bonus = 0.0
    if 12 in low and 0 in low:
        bonus += 0.25
    elif 12 in low and 1 in low:
        bonus += 0.12
    elif 0 in low and 1 in low:
        bonus += 0.05
    return bonus


BOTS = {"random": RandomBot, "sensible": SensibleBot}


def make_bot(kind: str, name: str, seed: int | None = None) -> Bot:
    """A bot by kind: ``random`` or ``sensible``."""
    if kind not in BOTS:
        raise ValueError(f"unknown bot {kind!r}; bots are: {', '.join(BOTS)}")
    bot: Bot = BOTS[kind](name, seed)
    return bot
