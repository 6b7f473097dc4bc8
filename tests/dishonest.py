"""A dishonest room, for the tests that must catch it (issue 19): a ``PendingDeal`` that
cheats as an operator who controls the server could, and still publishes records that are
consistent in themselves. ``cheating(monkeypatch, cheat)`` puts it in the tables' host;
the honest room is the same room without it.

The cheats:
- ``regrind``: a new server seed after the reveals (the record publishes ``T' = H(t')``);
- ``drop_entropy``: the lowest seat's revealed entropy left out of the key (``entropy: null``);
- ``omit_commitment``: the lowest seat's commitment left out of the announcement;
- ``reorder``: the hands dealt to other seats than step 6 says, ``seats_dealt`` written to
  match (the deck given to the table rearranged so the record verifies by itself);
- ``cancel``: the first hand called off after the reveals, and dealt again.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass
from typing import Any

import pytest

from splitpot import fair
from splitpot.protocol import JsonObject
from splitpot.room import host
from splitpot.room.deal import PendingDeal

CHEATS = ("regrind", "drop_entropy", "omit_commitment", "reorder", "cancel")


@dataclass(frozen=True)
class _Rearranged(fair.Deal):
    """A deal whose deck, as the table is given it, is not ``F``."""

    given: tuple[str, ...] = ()

    @property
    def deck(self) -> list[str]:
        return list(self.given)


def _dishonest(cheat: str) -> type[PendingDeal]:
    called_off: list[str] = []  # the hand cancelled (once: then the room deals it again)

    class DishonestDeal(PendingDeal):
        @classmethod
        def announce(cls, *args: Any, **kwargs: Any) -> PendingDeal:
            pending = super().announce(*args, **kwargs)
            if cheat == "omit_commitment" and pending.players:
                del pending.players[min(pending.players)]  # as if the commit never came
            return pending

        def deal(self, table_id: str) -> fair.Deal:
            if cheat == "regrind":
                self.seed = secrets.token_bytes(fair.SEED_BYTES)
            if cheat == "drop_entropy" and self.entropy:
                del self.entropy[min(self.entropy)]
            made = super().deal(table_id)
            if cheat == "reorder":
                return _reordered(made, len(self.seats_dealt), self.hole_cards)
            if cheat == "cancel" and not called_off:
                called_off.append(self.hand_id)
                raise RuntimeError("called off after the reveals")
            return made

        def secret(self) -> JsonObject:
            kept = super().secret()
            if cheat == "reorder":
                kept["seats_dealt"] = list(reversed(self.seats_dealt))
            return kept

    return DishonestDeal


def _reordered(deal: fair.Deal, players: int, hole_cards: int) -> fair.Deal:
    """``deal`` with the hole cards of the i-th seat of step 6 taken from the places of the
    i-th seat from the end: what a record saying ``seats_dealt`` reversed proves."""
    deck = deal.deck
    holes = fair.dealing_positions(players, hole_cards)[0]
    given = list(deck)
    for index in range(players):
        for mine, theirs in zip(holes[index], holes[players - 1 - index], strict=True):
            given[mine] = deck[theirs]
    return _Rearranged(
        deal.pre_order,
        deal.commitments,
        deal.deck_commitment,
        deal.seed,
        deal.key,
        deal.permutation,
        tuple(given),
    )


def cheating(monkeypatch: pytest.MonkeyPatch, cheat: str) -> None:
    """The room's tables deal with ``cheat`` from now on (this test only)."""
    assert cheat in CHEATS, cheat
    monkeypatch.setattr(host, "PendingDeal", _dishonest(cheat))
