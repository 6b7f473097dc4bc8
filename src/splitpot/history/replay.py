"""Replay a hand history through the engine and compare it with what the file says."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from splitpot.cards import Card
from splitpot.engine import (
    Action,
    ActionKind,
    Award,
    Hand,
    HandSetupError,
    IllegalActionError,
    LegalActions,
    Phase,
    Street,
    arrange_deck,
)
from splitpot.engine.hand import BOARD_SIZES, deck_size
from splitpot.history.model import UNKNOWN, HandRecord, HistoryError, RecordedAward


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


def arranged_deck(record: HandRecord) -> tuple[Card | None, ...]:
    """The record's deck; where it gives none, a deck that deals its known hole cards and
    boards, None where a card is unknown. RULES.md 7 and FAIRNESS.md: a double board deals
    each street on each board in turn, a burn before each; a second run follows the whole
    first one, a burn before each of its own streets."""
    if record.deck:
        return record.deck
    hole_cards = record.config.variant.hole_cards
    count = len(record.players)
    deck = arrange_deck(record.holes, (), record.button, hole_cards)[: count * hole_cards]
    first, second = record.board, record.second_board
    if record.config.boards == 2:
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            deck += _street(first, street) + _street(second, street)
    else:
        shared = next(
            (at for at, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
            min(len(first), len(second)),
        )
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            deck += _street(first, street)
        for street in (Street.FLOP, Street.TURN, Street.RIVER):
            if second and Street.of_board(shared) < street:
                deck += _street(second, street)
    needed = deck_size(count, hole_cards, record.config.boards)
    return tuple(deck + [None] * (needed - len(deck)))


def _street(board: Sequence[Card], street: Street) -> list[Card | None]:
    """A street's place in the deck: the burn (unknown), then its cards, None for each
    card the board never reached."""
    start = {Street.FLOP: 0, Street.TURN: 3, Street.RIVER: 4}[street]
    size = BOARD_SIZES[street]
    cards: list[Card | None] = list(board[start : start + size])
    return [None, *cards, *[None] * (size - len(cards))]


def replay_record(record: HandRecord) -> Replay:
    """Play the recorded actions through the engine (RULES.md 7: the board run as many
    times as the record says the players chose, once when it does not say); raise
    HistoryError where the file's actions cannot be played under the rules."""
    names = record.names
    config = record.config
    deck = arranged_deck(record)
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
        if hand.phase is Phase.RUN_IT:
            hand.run_it(record.runs or 1)
            continue
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
    if outcome.awards is not None:
        theirs_awards = _awards_text(outcome.awards, names)
        ours_awards = _awards_text(result.awards, names)
        if theirs_awards != ours_awards:
            found.append(Difference("awards", theirs_awards, ours_awards))
    if outcome.total_pot is not None:
        pairs = zip(returned, file_uncalled, strict=True)
        unrecorded = sum(max(0, ours - theirs) for ours, theirs in pairs)
        if outcome.total_pot not in (total, total + unrecorded):
            found.append(Difference("total pot", str(outcome.total_pot), str(total)))
    return found


def _awards_text(awards: Sequence[Award | RecordedAward], names: Sequence[str]) -> str:
    """Awards in one order, as a difference shows them: ``pot 0, board 2, high: Ann 12``
    (RULES.md 7: a part of a pot for each board or run)."""
    parts = sorted((a.pot, a.board, a.share.value, names[a.player], a.amount) for a in awards)
    return "; ".join(
        f"pot {pot}, board {board + 1}, {share}: {name} {amount}"
        for pot, board, share, name, amount in parts
    )
