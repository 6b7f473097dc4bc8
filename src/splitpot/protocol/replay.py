"""A finished hand as the ``event`` objects a live watcher received (docs/protocol.md,
``GET /api/hands/{id}?format=events``), so that a page replays it with its live table
code and re-derives no rule (issue 21).

The shell plays the hand again through the table from its log; here each event is cut
for its reader and worded by the functions the room's live frames use (``seen_by``,
``encode_event``, the dealer's ``scenes``). Pure: no I/O."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from splitpot.cards import Card
from splitpot.dealer import Scene, dealer_line, scenes
from splitpot.engine import Mucked
from splitpot.history.report import revealed_holes
from splitpot.i18n import ENGLISH, Words
from splitpot.protocol.encode import (
    Json,
    JsonObject,
    TableInfo,
    cards_json,
    encode_event,
    encode_state,
    hand_id,
)
from splitpot.table import (
    HandFinished,
    HandStarted,
    InHand,
    TableEvent,
    TableHand,
    TableView,
    seen_by,
)


def finished_hand(
    start: TableView,
    played: TableHand,
    events: Sequence[TableEvent],
    *,
    info: TableInfo,
    players: Mapping[int, str],
    fairness: JsonObject | None = None,
    words: Words = ENGLISH,
) -> JsonObject:
    """``{hand, table, state, events}``: the table as it stood before the deal (``start``,
    as its viewer saw it, a ``table`` message's ``state``), then each event of the finished
    hand ``played`` (its start to its end, of ``events``) as that viewer received it live.
    A hand mucked at the showdown adds its ``cards``, and the dealer names them, as the
    last hands show once a hand is over (RULES.md 6). ``players``: the player id of each
    occupied seat; ``fairness``: the announcement of the hand's deal (FAIRNESS.md);
    ``words``: the reader's language, as the room spoke to them live."""
    told = [e for e in events if isinstance(e, (HandStarted, InHand, HandFinished))]
    started = told[0]
    if not isinstance(started, HandStarted) or not isinstance(told[-1], HandFinished):
        raise ValueError(f"hand {played.number}'s events do not run from its start to its end")
    names = dict(zip(started.seats, started.names, strict=True))
    window = _window(played)
    before, _ = scenes(told, Scene(started.variant, words=words))
    encoded: list[Json] = []
    for event, scene in zip(told, before, strict=True):
        seen = seen_by(event, start.viewer)
        fields = encode_event(seen, info.id, scene, names, fairness=fairness)
        if isinstance(seen, InHand) and isinstance(seen.event, Mucked):
            cards = window.get(seen.event.player)
            if cards is not None:
                revealed = {seen.event.player: cards}
                fields["cards"] = cards_json(cards)
                fields["text"] = dealer_line(seen, names, scene, revealed=revealed)
        encoded.append(fields)
    return {
        "hand": hand_id(info.id, started.number),
        "table": info.id,
        "state": encode_state(start, info, players),
        "events": encoded,
    }


def _window(played: TableHand) -> dict[int, tuple[Card, ...]]:
    """The hole cards anyone may see of the finished hand, by table seat (RULES.md 6:
    shown, or mucked at the showdown; never folded)."""
    seen = revealed_holes(played.hand, None)
    return {played.seats[player]: cards for player, cards in seen.items()}


__all__ = ["finished_hand"]
