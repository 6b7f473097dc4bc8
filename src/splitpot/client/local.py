"""The offline game's room: the room's own table host (``room/host.py``) in process, with
its bots, speaking the room's protocol.

``LocalTable`` answers the same commands as the room (``act``, ``chat``, ``leave``,
``preferences``, and at a home game's table ``run_it``, ``rabbit`` and ``straddle``,
RULES.md 7) with the same frames (``table``, ``event``, ``turn``, ``chat``,
``error``), made by the same code from the host's tells, as the one person at the table
may see them. It is the room's rules, not a copy of them; only the clock differs: no
turn ever runs out, the bots act at once, and the game deals when the front end asks
(``deal``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from splitpot.bots import Bot
from splitpot.engine import IllegalActionError
from splitpot.i18n import ENGLISH, Words
from splitpot.protocol import (
    Act,
    Chat,
    Command,
    ErrorCode,
    JsonObject,
    Leave,
    Preferences,
    ProtocolError,
    event_message,
    parse_command,
    refused,
    to_act_event,
)
from splitpot.protocol.commands import ChooseStraddle, Rabbit, RunIt
from splitpot.room import commands as host_commands
from splitpot.room import messages
from splitpot.room.driver import MemoryKeeper, run
from splitpot.room.effects import Announce, OfferTurn, Publish, SayChat, Tell, ToAct
from splitpot.room.host import HostOptions, TableHost
from splitpot.room.refusals import worded
from splitpot.room.settings import TableSettings
from splitpot.table import Table, TableConfig, TableError, seen_by

TABLE_ID = "offline"
PERSON = 0  # the person's table seat; the bots sit in the others
# No pause and no clock of its own: the front end paces the game.
AT_ONCE = HostOptions(hand_pause=0, street_pause=0, show_pause=0, reveal_wait=0, bot_delay=0)


class LocalTable:
    """A person in seat 1 (table seat 0) against ``bots`` in the seats after it, every
    player with ``buy_in`` chips; ``seed`` shuffles reproducibly; the dealer speaks
    ``words``' language (the host's scenes are told again in it)."""

    def __init__(
        self,
        config: TableConfig,
        name: str,
        bots: Sequence[Bot],
        buy_in: int,
        seed: int | None = None,
        *,
        words: Words = ENGLISH,
    ) -> None:
        self.words = words
        self.person = host_commands.Person(PERSON + 1, name)
        settings = TableSettings("Offline", seats=config.seats)
        self.host = TableHost(TABLE_ID, settings, self.person.id, AT_ONCE, table=Table(config))
        self.keeper = MemoryKeeper(
            TABLE_ID, random.Random(seed) if seed is not None else random.SystemRandom()
        )
        self.host.seat(PERSON, self.person, buy_in)
        for seat, bot in enumerate(bots, start=PERSON + 1):
            self.host.seat(seat, host_commands.Person(seat + 1, bot.name), buy_in, bot)
        self.now = 0.0  # the host's time: it moves only to a timer the game lets fire

    @property
    def table(self) -> Table:
        return self.host.table

    def snapshot(self) -> JsonObject:
        """The ``table`` frame: the whole table as the person sees it."""
        view = self.host.table.view(PERSON)
        return messages.table(self.host, view, lambda _: True)

    def deal(self) -> list[JsonObject]:
        """The next hand is dealt and the bots play it to the person's turn (or to its
        end). A ``TableError`` says why no hand can be dealt."""
        frames = self._frames(run(self.host.schedule(self.now), self.keeper))
        due = self.host.next_timer()
        if self.host.table.hand is not None or due is None:
            raise TableError("no hand can be dealt: two players with chips are needed")
        self.now = max(self.now, due)
        return frames + self._play(run(self.host.tick(self.now), self.keeper))

    def send(self, message: JsonObject) -> list[JsonObject]:
        """One command, as the room takes it (``act``, ``chat``, ``leave``,
        ``preferences``, ``run_it``, ``rabbit``, ``straddle``): the frames it causes, or an
        ``error`` frame that says why it was refused (nothing changed)."""
        try:
            command = self._command(parse_command(message), str(message["type"]))
            return self._play(run(self.host.handle(command, self.now), self.keeper))
        except ProtocolError as error:
            return [refused(error)]
        except (IllegalActionError, TableError) as error:  # as the room answers it
            return [refused(ProtocolError(ErrorCode.ILLEGAL_ACTION, worded(error)))]

    def _command(self, command: Command, kind: str) -> host_commands.TableCommand:
        who = self.person
        match command:
            case Act(action=action, hand=hand):
                return host_commands.Act(who, action, hand)
            case Chat(text=text):
                return host_commands.Chat(who, text, watching=True)
            case Leave():
                return host_commands.Leave(who)
            case Preferences(muck_losing=muck_losing):
                return host_commands.Preferences(who, muck_losing)
            case RunIt(hand=hand, yes=yes):
                return host_commands.RunIt(who, yes, hand)
            case Rabbit():
                return host_commands.Rabbit(who)
            case ChooseStraddle(straddle=straddle):
                return host_commands.ChooseStraddle(who, straddle)
        raise ProtocolError(
            ErrorCode.FORBIDDEN,
            "the offline table takes act, chat, leave, preferences, run_it, rabbit and "
            f"straddle, not {kind}",
            command.ref,
        )

    def _play(self, told: list[Tell]) -> list[JsonObject]:
        """The frames of ``told``, then the decisions the host makes at once (the bots', a
        person leaving or at the showdown) until the person is to act on the clock, is
        asked to run it twice, or the hand is over; the person's clock never runs out here."""
        told += run(self.host.schedule(self.now), self.keeper)
        table = self.host.table
        while table.hand is not None and self.host.turn is None and not self.asked():
            due = self.host.next_timer()
            if due is None:
                break
            self.now = max(self.now, due)
            told += run(self.host.tick(self.now), self.keeper)
            told += run(self.host.schedule(self.now), self.keeper)
        return self._frames(told)

    def asked(self) -> bool:
        """Whether the person is asked to run it twice and has not answered (RULES.md 7):
        the hand waits for them (the bots' answers, and the question's clock, too)."""
        playing = self.host.playing
        answered = playing is not None and PERSON in playing.answered
        return PERSON in self.host.table.run_it_seats and not answered

    def _frames(self, told: list[Tell]) -> list[JsonObject]:
        """Each tell as the person sees it, with the dealer's words."""
        frames: list[JsonObject] = []
        for tell in told:
            match tell:
                case Publish(events=events, scenes=scenes, seq=seq, fairness=fairness):
                    for offset, (event, scene) in enumerate(zip(events, scenes, strict=True)):
                        seen = seen_by(event, PERSON)
                        spoken = scene.speaking(self.words)
                        frames.append(
                            messages.event(self.host, seen, spoken, seq + offset, fairness)
                        )
                case Announce(event=event, seq=seq):
                    frames.append(event_message(TABLE_ID, seq, event))
                case ToAct(hand=hand, seat=seat, seq=seq):
                    frames.append(
                        event_message(TABLE_ID, seq, to_act_event(hand, seat, None, None))
                    )
                case OfferTurn():
                    frames.append(messages.turn(TABLE_ID, tell, None))
                case SayChat():
                    frames.append(messages.chat(TABLE_ID, tell))
        return frames


__all__ = ["PERSON", "TABLE_ID", "LocalTable"]
