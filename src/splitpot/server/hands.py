"""A finished hand as one caller may see it (RULES.md 6 "Last hands", PROTOCOL.md): their
own cards; others' when shown, or mucked at the showdown; never a folded hand, never the
deck. The room keeps every hand whole; this is the one place that cuts it for a caller."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from splitpot.engine import PotAwarded, arrange_deck
from splitpot.fair import chain_hash
from splitpot.history.phh import write_phh
from splitpot.history.pokerstars import write_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.report import revealed_holes
from splitpot.history.splitpot_json import from_json, to_json
from splitpot.protocol import award_json, utc_text
from splitpot.server.dealing import hole_positions, revealed_fairness
from splitpot.store import Hand

PLAYER_IDS = "player_ids"  # the stored record's room player id of each player
DEAL_SECRET = "deal_secret"  # the stored record's fair deal: what proves it (dealing.py)
CHAIN = "chain"  # the record's link in its table's chain (FAIRNESS.md)


def hand_document(
    stored_hand: Hand,
    viewer: int | None,
    format: str = "json",
    *,
    seats: int | None = None,
) -> dict[str, Any]:
    """The finished hand for the player ``viewer`` (a room player id; None: a watcher):
    the splitpot JSON document, or ``{"id", "format", "text"}`` for PokerStars and PHH
    (PokerStars numbers the hand by its serial, names the table, its number of ``seats``
    and the time the hand started, in UTC and Eastern Time)."""
    stored, hand_id, table = stored_hand.record, stored_hand.id, stored_hand.table_id
    started = stored_hand.started_at
    if stored is None:
        raise ValueError(f"hand {hand_id} is not finished: it has no record yet")
    record = from_json(stored)
    hand = replay_record(record).hand
    ids = stored.get(PLAYER_IDS, [])
    index = ids.index(viewer) if viewer in ids else None
    seen = revealed_holes(hand, index)
    hole_cards = record.config.variant.hole_cards
    holes = tuple(seen.get(p, (None,) * hole_cards) for p in range(len(record.players)))
    deck = arrange_deck(holes, record.board, record.button, hole_cards)
    public = replace(record, holes=holes, deck=tuple(deck))
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
    if secret is not None:  # the board and the hands this reader sees, with their salts
        seats_seen = {record.players[p].seat for p in seen}
        document["fairness"] = revealed_fairness(
            table, hand_id, secret, len(record.board), seats_seen
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


def chain_link(previous: bytes, stored_hand: Hand) -> dict[str, str]:
    """The hand's link in its table's chain (FAIRNESS.md), over its document as anyone
    sees it (no session): ``previous`` and this link's ``hash``, in hex."""
    made = chain_hash(previous, hand_document(stored_hand, None))
    return {"previous": previous.hex(), "hash": made.hex()}


def _utc(moment: datetime) -> datetime:
    """The store's times are UTC, stored without a zone."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
