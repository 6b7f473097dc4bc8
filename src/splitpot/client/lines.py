"""The line-by-line game (``splitpot play --lines``), offline or at the room: the table and
the legal actions printed, one command read a line when the game waits for one (a turn,
"Your move: ..."; at the room also the table, the seat, sitting out, no chips left).

At the room the frames are read on a thread of their own all the time and printed as they
come, while a line is awaited too: the connection answers the room's pings, comes back
after a drop, and a script waiting for "Your move" gets it. The lines are read on another
thread, one each time the game asks; one loop takes both in the order they come, so the
game itself is only ever touched by that loop.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from splitpot.client.game import Game
from splitpot.client.state import Frame


@dataclass(frozen=True, slots=True)
class Line:
    """A line the person gave (None: their input has ended)."""

    text: str | None


class Inbox:
    """The room's frames and the person's lines, each read by a thread of its own, in
    the order they come; a line is read only when ``ask`` asks for one (so lines given
    ahead, as a script's, answer the prompts one by one)."""

    def __init__(self, game: Game, lines: Iterator[str]) -> None:
        self._items: queue.Queue[Frame | Line] = queue.Queue()
        self._asks: queue.Queue[None] = queue.Queue()
        self.asked = False  # a line is asked for and has not come yet
        threading.Thread(target=self._listen, args=(game,), name="frames", daemon=True).start()
        threading.Thread(target=self._read, args=(lines,), name="lines", daemon=True).start()

    def _listen(self, game: Game) -> None:
        """The game's frames as they come; a failure ends the game on one line."""
        try:
            for frame in game.listen():
                self._items.put(frame)
        except Exception as error:  # any: the person gets one line, never a thread's traceback
            said = game.words.say("the room's connection failed: {reason}", reason=error)
            self._items.put({"type": "lost", "message": said})

    def _read(self, lines: Iterator[str]) -> None:
        while True:
            self._asks.get()
            self._items.put(Line(next(lines, None)))

    def ask(self) -> None:
        """Ask for the person's next line (once until it comes)."""
        if not self.asked:
            self.asked = True
            self._asks.put(None)

    def next(self) -> Frame | Line:
        """The next frame or line, waiting for it."""
        item = self._items.get()
        if isinstance(item, Line):
            self.asked = False
        return item


def play_lines(game: Game, lines: Iterator[str]) -> int:
    """Play to the session's end: print every reply; when the game waits for the person,
    the table (with "Your move: ..." on a turn) and read a line; an illegal command is
    answered with the reason. The end of input leaves at once, folding a hand in play
    (no one is left to ask). A connection to the room lost for good raises
    ``ConnectionError``, its message the one line to print."""
    reply = game.start()
    inbox = Inbox(game, lines)
    while True:
        _print(reply.lines)
        if reply.over:
            return 0
        waiting = game.waiting()
        if game.paced and not waiting:
            reply = game.advance()
            continue
        if waiting and not inbox.asked:
            _print(game.table_lines())
            inbox.ask()
        item = inbox.next()
        if isinstance(item, Line):
            reply = game.quit() if item.text is None else game.command(item.text)
        elif item.get("type") == "lost":
            raise ConnectionError(item["message"])
        else:
            reply = game.take(item)


def _print(lines: Sequence[str]) -> None:
    if lines:
        print("\n".join(lines), flush=True)


__all__ = ["play_lines"]
