"""What a page's WebSocket frames may hold: no hole card of another seat before that seat's
hand is shown (``shown``, or ``face_up`` when a player is all in), checked on the text of
every frame against the whole hands the store keeps. (A hand's start may name cards of
the draw for the button: those are no hole cards.)"""

from __future__ import annotations

import json

from test_room_privacy import Truth, cards_named, hand_of


def hidden_cards_received(raws: list[str], seat: int | None, truths: dict[str, Truth]) -> list[str]:
    """The frames (with the cards) that held a hole card of a seat other than ``seat``
    (None: a watcher) before that seat's cards were shown in the hand."""
    found: list[str] = []
    hand: str | None = None
    shown: set[int] = set()
    for raw in raws:
        frame = json.loads(raw)
        event = frame.get("event") or {}
        of = hand_of(frame)
        if of is not None and of != hand:
            hand, shown = of, set()
        if event.get("kind") in ("shown", "face_up"):
            shown.add(event["seat"])
        truth = truths.get(hand) if hand is not None else None
        if truth is None:
            continue
        hidden = {
            card
            for owner, cards in truth.holes.items()
            if owner != seat and owner not in shown
            for card in cards
        }
        drawn = {draw["card"] for draw in event.get("draw", [])}  # the draw for the button
        if seen := cards_named(raw) & hidden - drawn:
            found.append(f"{sorted(seen)} in {raw}")
    return found
