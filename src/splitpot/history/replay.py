"""Replay a hand history through the engine and compare it with what the file says."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from splitpot.cards import Card
from splitpot.engine import (
    Action,
    ActionKind,
    Hand,
    HandSetupError,
    IllegalActionError,
    LegalActions,
    Phase,
    arrange_deck,
)
from splitpot.history.model import UNKNOWN, HandRecord, HistoryError


@dataclass(frozen=True, slots=True)
class Difference:
    """Where the file and the rules disagree: what, as the file says, as the rules give."""

    what: str
    file: str
    rules: str


@dataclass(frozen=True, slots=True)
class Replay:
    record: HandRecord
    hand: Hand
    differences: tuple[Difference, ...]

    @property
    def agrees(self) -> bool | None:
        """True or False against the file's recorded outcome; None if it records none."""
        if self.record.outcome is None:
            return None
        return not self.differences


def _as_the_rules_read_it(action: Action, legal: LegalActions) -> Action:
    """PHH's ``cc`` is a check or a call, ``cbr`` a bet or a raise: read them as legal."""
    if action.kind is ActionKind.CALL and legal.call is None and legal.check:
        return Action.check()
    if action.kind is ActionKind.CHECK and legal.call is not None and not legal.check:
        return Action.call()
    if action.kind in (ActionKind.BET, ActionKind.RAISE) and legal.bet_or_raise is not None:
        return Action(legal.bet_or_raise, action.amount)
    return action


def replay_record(record: HandRecord) -> Replay:
    """Play the recorded actions through the engine; raise HistoryError where the file's
    actions cannot be played under the rules."""
    names = record.names
    config = record.config
    deck = record.deck or tuple(
        arrange_deck(record.holes, record.board, record.button, config.variant.hole_cards)
    )
    try:
        hand = Hand(
            config,
            [p.stack for p in record.players],
            record.button,
            record.posts,
            deck,
            recorded_rake=record.rake,
            recorded_pots=record.pots,
        )
    except HandSetupError as error:
        raise HistoryError(f"hand {record.id}: {error}") from error
    _check_holes_dealt(record, hand.holes)
    decisions = {
        a.player: a.action
        for a in record.actions
        if a.action.kind in (ActionKind.SHOW, ActionKind.MUCK)
    }
    betting = [a for a in record.actions if a.action.kind not in (ActionKind.SHOW, ActionKind.MUCK)]
    for number, recorded in enumerate(betting, start=1):
        where = f"hand {record.id}, action {number} ({names[recorded.player]}: {recorded.action})"
        if hand.phase is not Phase.BETTING or hand.to_act is None:
            raise HistoryError(f"{where}: the betting is already over")
        if hand.to_act != recorded.player:
            raise HistoryError(f"{where}: it is {names[hand.to_act]}'s turn to act")
        try:
            hand.apply(_as_the_rules_read_it(recorded.action, hand.legal_actions()))
        except (IllegalActionError, HandSetupError) as error:  # a recorded rake past the pot
            raise HistoryError(f"{where}: {error}") from error
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        if hand.phase is not Phase.SHOWDOWN:
            raise HistoryError(f"hand {record.id}: the file ends while {names[player]} is to act")
        legal = hand.legal_actions()
        choice = decisions.get(player, Action.show() if legal.show else Action.muck())
        try:
            hand.apply(choice if legal.show or choice.kind is ActionKind.MUCK else Action.muck())
        except (IllegalActionError, HandSetupError) as error:
            raise HistoryError(f"hand {record.id}, the showdown: {error}") from error
    return Replay(record, hand, tuple(_differences(record, hand)))


def _check_holes_dealt(record: HandRecord, dealt: Sequence[tuple[Card | None, ...]]) -> None:
    """A record that gives its deck and its hole cards must give the same cards: else
    HistoryError names the player, the cards the record gives and those its deck deals."""
    for name, given, cards in zip(record.names, record.holes, dealt, strict=True):
        if any(card is not None and card not in cards for card in given):
            raise HistoryError(
                f"hand {record.id}: {name}'s hole cards {_shown(given)} contradict the deck, "
                f"which deals {name} {_shown(cards)}"
            )


def _shown(cards: Sequence[Card | None]) -> str:
    """Cards as a history prints them, ``??`` for an unknown one: ``As Kd ?? ??``."""
    return " ".join(UNKNOWN if card is None else str(card) for card in cards)


def _differences(record: HandRecord, hand: Hand) -> list[Difference]:
    outcome = record.outcome
    result = hand.result
    assert result is not None
    if outcome is None:
        return []
    names = record.names
    found: list[Difference] = []

    def compare(what: str, file_values: tuple[int, ...] | None, ours: list[int]) -> None:
        if file_values is None:
            return
        for name, theirs, mine in zip(names, file_values, ours, strict=True):
            if theirs != mine:
                found.append(Difference(f"{what} of {name}", str(theirs), str(mine)))

    compare("finishing stack", outcome.finishing_stacks, list(result.stacks))
    players = range(len(names))
    returned = [sum(chips for p, chips in result.uncalled if p == player) for player in players]
    total = sum(pot.amount for pot in result.pots) + result.rake
    file_uncalled = outcome.uncalled or (0,) * len(names)
    if outcome.total_pot == total and not any(file_uncalled):
        file_uncalled = tuple(returned)  # old histories print no "Uncalled bet" lines
    if outcome.collected is not None:
        # What decides a player's chips is what comes back from the middle: collected
        # from pots plus a bet returned. Some histories count a returned bet as collected.
        theirs = tuple(c + u for c, u in zip(outcome.collected, file_uncalled, strict=True))
        ours = [result.won(p) + returned[p] for p in players]
        compare("chips back (collected + returned)", theirs, ours)
    if outcome.total_pot is not None:
        pairs = zip(returned, file_uncalled, strict=True)
        unrecorded = sum(max(0, ours - theirs) for ours, theirs in pairs)
        if outcome.total_pot not in (total, total + unrecorded):
            found.append(Difference("total pot", str(outcome.total_pot), str(total)))
    return found
