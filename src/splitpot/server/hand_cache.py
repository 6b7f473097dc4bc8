"""Finished hands' documents, built once for each way of reading them and kept: a finished
hand never changes, and building its document (replaying the hand and its deal) takes
milliseconds of CPU that must not be spent on the event loop, which serves every table.

A document depends on its reader only through the seat they played in the hand: anyone
else (a watcher, a player of another hand) reads it as a watcher does. Documents are kept
as the bodies the room answers with (JSON: splitpot's, OHH or the hand's events; or the
text of PokerStars and PHH), at most ``MAX_BYTES`` of them, the least recently read
dropped first."""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from functools import partial

from splitpot.history.ohh import ohh_document
from splitpot.history.replay import replay_record
from splitpot.history.splitpot_json import from_json
from splitpot.i18n import ENGLISH, Words
from splitpot.server.hands import PLAYER_IDS, hand_document, hand_events
from splitpot.store import HandLog, StoredHand

MAX_BYTES = 32 * 1024 * 1024  # the documents kept, in bytes of their bodies

# A document's key: the hand, its reader's room player id if they played in it (None: as
# a watcher reads it), the format, and the table fact it prints: its seats (PokerStars),
# or its host (the events' state).
Key = tuple[str, int | None, str, int | None]
EVENTS = "events"  # the format of a hand as its events (hand_events)
# What the events of a hand are built from, read from the store only when not kept: the
# hand's log, and who sat at the table when it began (names -> player ids).
Replay = tuple[HandLog, Mapping[str, int]]


class HandDocuments:
    """The bodies of finished hands' documents, built on a thread of their own (one: a
    flood of requests keeps one core busy at most, never the event loop) and kept."""

    def __init__(self, most_bytes: int = MAX_BYTES) -> None:
        self._kept: OrderedDict[Key, bytes] = OrderedDict()  # read only on the event loop
        self._bytes = 0
        self._most = most_bytes
        self._builder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="hands")

    async def bodies(
        self,
        hands: Sequence[StoredHand],
        viewer: int | None,
        format: str = "json",
        seats: int | None = None,
    ) -> list[bytes]:
        """Each finished hand's document for the player ``viewer`` (None: a watcher), as
        the body of an answer: those not kept yet are built, all in one go, off the loop.
        Raises what ``hand_document`` raises (a format that cannot hold a hand)."""
        keys = [(hand.id, _reader(hand, viewer), format, seats) for hand in hands]
        found = {key: self._kept[key] for key in keys if key in self._kept}
        for key in found:
            self._kept.move_to_end(key)
        missing = [(key, hand) for key, hand in zip(keys, hands, strict=True) if key not in found]
        if missing:
            loop = asyncio.get_running_loop()
            built = await loop.run_in_executor(self._builder, partial(_build, missing))
            for key, body in built.items():
                self._keep(key, body)
            found |= built
        return [found[key] for key in keys]

    async def events(
        self,
        hand: StoredHand,
        viewer: int | None,
        host_id: int,
        load: Callable[[], Awaitable[Replay]],
        words: Words = ENGLISH,
    ) -> bytes:
        """The finished hand's events for the player ``viewer`` (None: a watcher), as the
        body of an answer (``hand_events``); ``load`` reads what they are built from, only
        when they are not kept; in ``words``' language. Built off the loop, as the other
        documents are."""
        key = (hand.id, _reader(hand, viewer), f"{EVENTS}:{words.language.value}", host_id)
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return kept
        log, seated = await load()
        loop = asyncio.get_running_loop()
        build = partial(hand_events, log, hand, key[1], host_id, seated, words)
        body = _json(await loop.run_in_executor(self._builder, build)).encode()
        self._keep(key, body)
        return body

    def close(self) -> None:
        self._builder.shutdown(wait=False, cancel_futures=True)

    def _keep(self, key: Key, body: bytes) -> None:
        if key in self._kept or len(body) > self._most:
            return
        self._kept[key] = body
        self._bytes += len(body)
        while self._bytes > self._most:
            _, dropped = self._kept.popitem(last=False)
            self._bytes -= len(dropped)


def _reader(hand: StoredHand, viewer: int | None) -> int | None:
    """The viewer if they played in the hand, else None: they read it as a watcher."""
    players = (hand.record or {}).get(PLAYER_IDS, [])
    return viewer if viewer in players else None


def _build(missing: list[tuple[Key, StoredHand]]) -> dict[Key, bytes]:
    """The bodies of the documents not kept (on the builder's thread)."""
    built: dict[Key, bytes] = {}
    for key, hand in missing:
        _, reader, format, seats = key
        if format == "ohh":
            built[key] = _json(_ohh(hand, reader, seats)).encode()
            continue
        document = hand_document(hand, reader, format, seats=seats)
        built[key] = (document["text"] if format != "json" else _json(document)).encode()
    return built


def _ohh(hand: StoredHand, reader: int | None, seats: int | None) -> dict[str, object]:
    """The finished hand as OHH, its hero the reader when they played it (else none, as a
    watcher reads it): the cards ``report.revealed_holes`` lets them see."""
    stored = hand.record
    assert stored is not None, "only finished hands are built"
    record = from_json(stored)
    ids = stored.get(PLAYER_IDS, [])
    hero = ids.index(reader) if reader in ids else None
    played = replay_record(record).hand
    return ohh_document(
        record, played, started=hand.started_at, hero=hero, table=hand.table_id, seats=seats
    )


def _json(document: Mapping[str, object]) -> str:
    """JSON as the room's other answers are written (Starlette's JSONResponse)."""
    return json.dumps(document, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
