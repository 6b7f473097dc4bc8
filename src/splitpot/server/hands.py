"""A finished hand as one caller may see it (RULES.md 6 "Last hands", PROTOCOL.md): their
own cards; others' when shown, or mucked at the showdown; never a folded hand, never the
deck. The room keeps every hand whole; this is the one place that cuts it for a caller:
as a history (its record) or as the events they would have received live (its log)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from splitpot import fair
from splitpot.cards import Card, parse_cards
from splitpot.engine import Hand, PotAwarded
from splitpot.fair import chain_hash
from splitpot.history import HandRecord
from splitpot.history.phh import write_phh
from splitpot.history.pokerstars import write_pokerstars
from splitpot.history.replay import arranged_deck, replay_record
from splitpot.history.report import revealed_holes
from splitpot.history.splitpot_json import from_json, to_json
from splitpot.i18n import ENGLISH, Words
from splitpot.protocol import JsonObject, award_json, utc_text
from splitpot.protocol.replay import finished_hand
from splitpot.room.deal import PendingDeal, hole_positions, revealed_fairness
from splitpot.room.recovery import replay_hand
from splitpot.room.settings import settings_of
from splitpot.store import HandLog, StoredHand
from splitpot.table import HandStarted, Table

PLAYER_IDS = "player_ids"  # the stored record's room player id of each player
DEAL_SECRET = "deal_secret"  # the stored record's fair deal: what proves it (dealing.py)
CHAIN = "chain"  # the record's link in its table's chain (FAIRNESS.md)


def hand_document(
    stored_hand: StoredHand,
    viewer: int | None,
    format: str = "json",
    *,
    seats: int | None = None,
    played: tuple[HandRecord, Hand] | None = None,
) -> dict[str, Any]:
    """The finished hand for the player ``viewer`` (a room player id; None: a watcher):
    the splitpot JSON document, or ``{"id", "format", "text"}`` for PokerStars and PHH
    (PokerStars numbers the hand by its serial, names the table, its number of ``seats``
    and the time the hand started, in UTC and Eastern Time). ``played``: the record as a
    value and the engine's hand, where the caller holds them (the table that just played
    it), in place of the stored record read and replayed."""
    stored, hand_id, table = stored_hand.record, stored_hand.id, stored_hand.table_id
    started = stored_hand.started_at
    if stored is None:
        raise ValueError(f"hand {hand_id} is not finished: it has no record yet")
    if played is None:
        record = from_json(stored)
        hand = replay_record(record).hand
    else:
        record, hand = played
    ids = stored.get(PLAYER_IDS, [])
    index = ids.index(viewer) if viewer in ids else None
    seen = revealed_holes(hand, index)
    hole_cards = record.config.variant.hole_cards
    holes = tuple(seen.get(p, (None,) * hole_cards) for p in range(len(record.players)))
    seen_only = replace(record, holes=holes, deck=None)  # the deck: the hands seen, the boards
    public = replace(seen_only, deck=arranged_deck(seen_only))
    if format == "pokerstars":  # numbered by its serial (records before it carry none)
        numbered = replace(record, serial=stored_hand.serial)
        text = write_pokerstars(
            numbered, hand, table=table, started=_utc(started), hero=index, max_seats=seats
        )
        return {"id": hand_id, "format": format, "text": text}
    if format == "phh":
        return {"id": hand_id, "format": format, "text": write_phh(public, hand.stacks)}
    document = to_json(public, hand)
    document["id"] = hand_id
    document["you"] = index
    document["table"] = table
    document["started"] = utc_text(_utc(started))
    secret = stored.get(DEAL_SECRET)
    private: list[int] = []  # the deck positions only this reader sees (FAIRNESS.md chain)
    if secret is not None:  # the boards and the hands this reader sees, with their salts
        seats_seen = {record.players[p].seat for p in seen}
        boards = [record.board, record.second_board] if record.second_board else [record.board]
        shared = fair.runs_share(*boards) if len(boards) == 2 and record.runs == 2 else None
        document["fairness"] = revealed_fairness(
            table, hand_id, secret, [len(board) for board in boards], seats_seen, shared=shared
        )
        shown_to_all = {record.players[p].seat for p in revealed_holes(hand, None)}
        private = hole_positions(secret, seats_seen - shown_to_all)
    if CHAIN in stored:
        document[CHAIN] = {**stored[CHAIN], "private": private} if private else stored[CHAIN]
    by_player = [player.seat - 1 for player in record.players]  # awards name table seats
    document["awards"] = [
        award_json(replace(event, player=by_player[event.player]))
        for event in hand.events
        if isinstance(event, PotAwarded)
    ]
    return document


def hand_events(
    log: HandLog,
    stored_hand: StoredHand,
    viewer: int | None,
    host_id: int,
    seated: Mapping[str, int],
    words: Words = ENGLISH,
) -> JsonObject:
    """The finished hand as the ``event`` frames the player ``viewer`` (a room player id
    who played it; else a watcher) received live, in ``words``' language
    (``protocol.replay``): its ``log`` played again from the table its setup kept.
    ``seated``: the player id of each name seated at the table when the hand began (the
    seats not dealt in); ``host_id``: the table's host."""
    setup, record = log.setup, stored_hand.record
    if record is None:
        raise ValueError(f"hand {log.id} is not finished: it has no record yet")
    settings = settings_of(setup["settings"])
    config = settings.config()
    before = Table.restore(config, setup["snapshot"])
    after, events = replay_hand(setup, [(a.seat, a.kind, a.amount) for a in log.actions])
    if after.hand is not None:
        raise ValueError(f"the log of hand {log.id} stops before the hand ends")
    dealt = {
        player["seat"] - 1: str(player_id)
        for player, player_id in zip(record["players"], record.get(PLAYER_IDS, []), strict=True)
    }
    players = {
        seat: str(seated[sitter.name])
        for seat, sitter in enumerate(before.seats)
        if sitter is not None and seat not in dealt
    }
    mine = None if viewer is None else str(viewer)
    seat = next((seat for seat, player in dealt.items() if player == mine), None)
    secret = setup.get("fairness")
    draw = parse_cards(" ".join(setup["draw"]))
    return finished_hand(
        before.view(seat),
        after.history[-1],
        events,
        info=settings.info(log.table_id, config, host_id, paused=False),
        players=players | dealt,
        fairness=None if secret is None else _announcement(log.id, before, draw, secret),
        words=words,
    )


def _announcement(
    hand_id: str, table: Table, draw: tuple[Card, ...], secret: dict[str, Any]
) -> JsonObject:
    """The ``fairness`` the hand's start announced (FAIRNESS.md), from the deal's secret
    half the room kept: the room's own announcement of it (``PendingDeal``)."""
    started: HandStarted = table.next_hand(draw).started
    pending = PendingDeal(
        hand_id=hand_id,
        started=started,
        seats_dealt=list(secret["seats_dealt"]),
        pre_order=fair.PreOrder(
            tuple(secret["pre_order"]), tuple(bytes.fromhex(s) for s in secret["salts"])
        ),
        seed=bytes.fromhex(secret["server_seed"]),
        players={p["seat"]: bytes.fromhex(p["commitment"]) for p in secret["players"]},
        hole_cards=secret["hole_cards"],
        draw=draw,
    )
    return pending.announcement()


def chain_link(
    previous: bytes, stored_hand: StoredHand, played: tuple[HandRecord, Hand] | None = None
) -> dict[str, str]:
    """The hand's link in its table's chain (FAIRNESS.md), over its document as anyone
    sees it (no session): ``previous`` and this link's ``hash``, in hex."""
    made = chain_hash(previous, hand_document(stored_hand, None, played=played))
    return {"previous": previous.hex(), "hash": made.hex()}


def _utc(moment: datetime) -> datetime:
    """The store's times are UTC, stored without a zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
