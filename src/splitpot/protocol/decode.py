"""The room's JSON read back into the core's values, beside their encoders
(``encode.py``): a client gets the very values the table plays, so it names the stakes and
words the legal actions exactly as the table does.

Each decoder reads what its encoder writes (PROTOCOL.md); a field the wire does not carry
(a limit game's cap, a minimum bet other than the big blind) comes back as its default.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from splitpot.engine import ActionKind, LegalActions
from splitpot.rules import Betting, FixedLimit, Mixed, NoLimit, PotLimit, Structure

Fields = Mapping[str, Any]  # a JSON object as it came off the wire


def betting_from_json(fields: Fields) -> Betting | Mixed:
    """A structure and its stakes from ``betting_json``'s fields (a summary, a hand,
    ``hand_started``, ``stakes_changed``)."""
    structure = Structure(fields["structure"])
    small, big = int(fields["small_blind"]), int(fields["big_blind"])
    if structure is Structure.FIXED_LIMIT:
        return FixedLimit(
            int(fields["small_bet"]), int(fields["big_bet"]), small_blind=small, big_blind=big
        )
    if structure is Structure.POT_LIMIT:
        return PotLimit(small, big)
    if structure is Structure.NO_LIMIT:
        return NoLimit(small, big)
    limit, pot_limit = betting_from_json(fields["limit"]), betting_from_json(fields["pot_limit"])
    assert isinstance(limit, FixedLimit) and isinstance(pot_limit, PotLimit)
    return Mixed(limit, pot_limit, fields.get("period"))


def hand_betting_from_json(fields: Fields) -> Betting:
    """The structure one hand plays; where the fields name a mixed game (a table's summary),
    its first round's, limit (RULES.md 3)."""
    betting = betting_from_json(fields)
    return betting.betting_for(0) if isinstance(betting, Mixed) else betting


def legal_from_json(seat: int, legal: Iterable[Fields]) -> LegalActions:
    """A ``turn``'s ``legal`` list (``encode_legal``) as the engine's value for ``seat``;
    the all-in total comes back only when going all in is offered, as the wire says it."""
    by_name = {str(entry["action"]): entry for entry in legal}
    kind = next((k for k in (ActionKind.BET, ActionKind.RAISE) if k.value in by_name), None)
    sized = by_name[kind.value] if kind is not None else {}
    return LegalActions(
        player=seat,
        fold="fold" in by_name,
        check="check" in by_name,
        call=by_name["call"]["amount"] if "call" in by_name else None,
        bet_or_raise=kind,
        min_to=sized.get("min"),
        max_to=sized.get("max"),
        all_in_to=by_name["allin"]["amount"] if "allin" in by_name else None,
        all_in="allin" in by_name,
        show="show" in by_name,
        muck="muck" in by_name,
    )


__all__ = ["betting_from_json", "hand_betting_from_json", "legal_from_json"]
