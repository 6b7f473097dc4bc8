"""The offline game's room: a table and its bots in process, speaking the room's protocol.

``LocalTable`` answers the same commands as the room (``act``, ``chat``, ``leave``) with
the same frames (``table``, ``event``, ``turn``, ``chat``, ``error``), made by the same
protocol layer (``splitpot.protocol``) from the table's views and events, as the one
person at the table may see them. No server, no clock: the bots act at once, and the
game deals when the front end asks (``deal``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from splitpot.bots import Bot
from splitpot.cards import Deck
from splitpot.dealer import Scene, scenes
from splitpot.engine import IllegalActionError
from splitpot.protocol import (
    Act,
    Chat,
    Command,
    ErrorCode,
    JsonObject,
    Leave,
    ProtocolError,
    TableInfo,
    chat_message,
    encode_event,
    encode_state,
    event_message,
    hand_id,
    parse_command,
    refused,
    table_message,
    turn_message,
)
from splitpot.table import Table, TableConfig, TableError, TableEvent, seen_by

TABLE_ID = "offline"
PERSON = 0  # the person's table seat; the bots sit in the others


class LocalTable:
    """A person in seat 1 (table seat 0) against ``bots`` in the seats after it, every
    player with ``buy_in`` chips; ``seed`` shuffles reproducibly."""

    def __init__(
        self,
        config: TableConfig,
        name: str,
        bots: Sequence[Bot],
        buy_in: int,
        seed: int | None = None,
    ) -> None:
        self.table = Table(config)
        self.bots = dict(enumerate(bots, start=PERSON + 1))
        self.buy_in = buy_in
        self.table.sit(PERSON, name, buy_in)
        for seat, bot in self.bots.items():
            self.table.sit(seat, bot.name, buy_in)
        self.names = {seat: player.name for seat, player in enumerate(self.table.seats) if player}
        self.players = {seat: str(seat + 1) for seat in self.names}
        self.info = TableInfo(TABLE_ID, "Offline", config)
        self.seq = 0
        self.leaving = False  # the person leaves when the hand is over, folding in turn
        self._scene = Scene(config.variant)
        self._shuffle = random.Random(seed)
        self._seeded = seed is not None

    def snapshot(self) -> JsonObject:
        """The ``table`` frame: the whole table as the person sees it."""
        state = encode_state(self.table.view(PERSON), self.info, self.players)
        return table_message(TABLE_ID, self.seq, state)

    def deal(self) -> list[JsonObject]:
        """Bots that went broke buy in again; the next hand is dealt and the bots play it
        to the person's turn (or to its end). A ``TableError`` says why no hand can be
        dealt."""
        events: list[TableEvent] = []
        for seat, player in enumerate(self.table.seats):
            if seat in self.bots and player is not None and player.stack == 0:
                events += self.table.add_chips(seat, self.buy_in)
        deck, draw = (self._deck() for _ in range(2))
        events += self.table.deal(deck.cards, draw=draw.cards)
        return self._frames(events) + self._play()

    def send(self, message: JsonObject) -> list[JsonObject]:
        """One command, as the room takes it (``act``, ``chat``, ``leave``): the frames it
        causes, or an ``error`` frame that says why it was refused (nothing changed)."""
        try:
            return self._take(parse_command(message), str(message["type"]))
        except ProtocolError as error:
            return [refused(error)]

    def _take(self, command: Command, kind: str) -> list[JsonObject]:
        try:
            if isinstance(command, Act):
                return self._act(command)
            if isinstance(command, Chat):
                name, player = self.names[PERSON], self.players[PERSON]
                return [chat_message(TABLE_ID, player, name, PERSON, command.text)]
            if isinstance(command, Leave):
                self.leaving = True
                return self._play()
        except (IllegalActionError, TableError) as error:
            raise ProtocolError(ErrorCode.ILLEGAL_ACTION, str(error), command.ref) from error
        raise ProtocolError(
            ErrorCode.FORBIDDEN,
            f"the offline table takes act, chat and leave, not {kind}",
            command.ref,
        )

    def _act(self, command: Act) -> list[JsonObject]:
        current = self.table.hand
        if current is None or hand_id(TABLE_ID, current.number) != command.hand:
            raise ProtocolError(
                ErrorCode.WRONG_HAND, f"hand {command.hand} is not the hand in play", command.ref
            )
        if self.table.seat_to_act != PERSON:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "it is not your turn", command.ref)
        return self._frames(self.table.act(PERSON, command.action)) + self._play()

    def _play(self) -> list[JsonObject]:
        """The bots act, and a person leaving folds (or mucks) in turn, until the person
        is to act or the hand is over; a person leaving goes with their chips then. Ends
        with the person's ``turn`` when it is theirs."""
        frames: list[JsonObject] = []
        table = self.table
        while table.hand is not None and (seat := table.seat_to_act) is not None:
            hand = table.hand.hand
            assert hand.to_act is not None
            if seat in self.bots:
                action = self.bots[seat].decide(hand.view(hand.to_act), table.config.variant)
            elif self.leaving:
                action = hand.legal_actions().give_up()
            else:
                break
            frames += self._frames(table.act(seat, action))
        if table.hand is None and self.leaving and table.seats[PERSON] is not None:
            frames += self._frames(table.leave(PERSON))
        seat_view = table.view(PERSON)
        if table.hand is not None and seat_view.legal is not None:
            hand_name = hand_id(TABLE_ID, table.hand.number)
            frames.append(turn_message(TABLE_ID, hand_name, PERSON, seat_view.legal, None))
        return frames

    def _frames(self, events: list[TableEvent]) -> list[JsonObject]:
        """Each event as the person sees it, with the dealer's words (``text``)."""
        before, self._scene = scenes(events, self._scene)
        frames = []
        for event, scene in zip(events, before, strict=True):
            self.seq += 1
            seen = seen_by(event, PERSON)
            encoded = encode_event(seen, TABLE_ID, scene, self.names, players=self.players)
            frames.append(event_message(TABLE_ID, self.seq, encoded))
        return frames

    def _deck(self) -> Deck:
        return Deck(seed=self._shuffle.getrandbits(64)) if self._seeded else Deck()


__all__ = ["PERSON", "TABLE_ID", "LocalTable"]
