"""A table's fair deal (FAIRNESS.md, splitpot-deal-v1): the room announces a hand with its
commitments, the players who committed reveal their entropy, then the deck is made and
dealt. The secret half is kept with the hand, so a record can reveal what its reader may
see and a restarted room can finish the hand."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from splitpot import fair
from splitpot.cards import Card
from splitpot.engine import BoardDealt
from splitpot.i18n import said
from splitpot.protocol import ErrorCode, Json, JsonObject, ProtocolError
from splitpot.table import HandStarted


@dataclass
class PendingDeal:
    """A hand announced and waiting for its players' entropy. Seats are wire seats."""

    hand_id: str
    started: HandStarted  # what the table will deal: the seats dealt in, the button
    seats_dealt: list[int]  # in dealing order (FAIRNESS.md step 6)
    pre_order: fair.PreOrder
    seed: bytes
    players: dict[int, bytes]  # seat -> the commitment the deal uses
    hole_cards: int
    draw: tuple[Card, ...]  # the cards of a draw for the button, if the game (re)starts
    entropy: dict[int, bytes] = field(default_factory=dict)  # seat -> revealed so far

    @classmethod
    def announce(
        cls,
        hand_id: str,
        started: HandStarted,
        seats_dealt: list[int],
        commitments: dict[int, bytes],
        hole_cards: int,
        draw: tuple[Card, ...],
        pre_order: fair.PreOrder,
        seed: bytes,
    ) -> PendingDeal:
        """A new deal of the room's secret ``pre_order`` and server ``seed`` (drawn by the
        shell), with the commitments of the players dealt in who sent one (by wire seat)."""
        return cls(hand_id, started, seats_dealt, pre_order, seed, commitments, hole_cards, draw)

    def announcement(self) -> JsonObject:
        """The ``fairness`` of the ``hand_started`` event: ``D``, ``T`` and each ``u``."""
        commitments = self.pre_order.commitments()
        return {
            "scheme": fair.SCHEME,
            "deck_commitment": fair.deck_commitment(commitments).hex(),
            "server_commitment": fair.server_commitment(self.seed).hex(),
            "players": [
                {"seat": seat, "commitment": u.hex()} for seat, u in sorted(self.players.items())
            ],
        }

    def reveal(self, seat: int, entropy: bytes) -> bool:
        """Take a player's entropy (refused, naming why, if it is not the one committed);
        True once every player of the deal has revealed."""
        commitment = self.players.get(seat)
        if commitment is None:
            raise ProtocolError(
                ErrorCode.NOT_NOW,
                said(
                    "seat {seat} sent no commitment for hand {hand}", seat=seat, hand=self.hand_id
                ),
            )
        if fair.player_commitment(entropy) != commitment:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                said("reveal.entropy does not match the commitment sent for this hand"),
            )
        self.entropy[seat] = entropy
        return set(self.entropy) == set(self.players)

    def deal(self, table_id: str) -> fair.Deal:
        """The deck, from the pre-order, the server seed and the entropy revealed."""
        return fair.shuffle(table_id, self.hand_id, self.pre_order, self.seed, self.entropy)

    def secret(self) -> JsonObject:
        """What the room keeps with the hand to deal it again and to prove it."""
        return {
            "pre_order": list(self.pre_order.cards),
            "salts": [salt.hex() for salt in self.pre_order.salts],
            "server_seed": self.seed.hex(),
            "hole_cards": self.hole_cards,
            "seats_dealt": list[Json](self.seats_dealt),
            "players": [
                {
                    "seat": seat,
                    "commitment": u.hex(),
                    "entropy": self.entropy[seat].hex() if seat in self.entropy else None,
                }
                for seat, u in sorted(self.players.items())
            ],
        }


def hole_positions(secret: dict[str, Any], seats: set[int]) -> list[int]:
    """The deck positions of the hole cards of ``seats`` (wire seats), from what the room
    kept of the deal (FAIRNESS.md step 6)."""
    dealt = secret["seats_dealt"]
    holes = fair.dealing_positions(len(dealt), secret["hole_cards"])[0]
    return [
        position for index, seat in enumerate(dealt) if seat in seats for position in holes[index]
    ]


def revealed_fairness(
    table_id: str,
    hand_id: str,
    secret: dict[str, Any],
    board_cards: Sequence[int],
    seats_seen: set[int],
    *,
    shared: int | None = None,
) -> dict[str, object]:
    """The record's ``fairness`` for one reader, from what the room kept of the deal: the
    boards dealt (``board_cards``: how many cards each board got, one board or two; with
    ``shared``, two runs of one board sharing that many cards) and the hole cards of
    ``seats_seen`` (wire seats) revealed with their salts, nothing else."""
    positions = _board_positions(secret, len(board_cards), shared)
    board = [p for dealt, count in zip(positions, board_cards, strict=True) for p in dealt[:count]]
    deal, players = _deal(table_id, hand_id, secret)
    seats, hole_cards = secret["seats_dealt"], secret["hole_cards"]
    revealed = board + hole_positions(secret, seats_seen)
    return fair.fairness_record(deal, table_id, hand_id, hole_cards, seats, players, revealed)


def rabbit_revealed(
    table_id: str, hand_id: str, secret: dict[str, Any], hunted: Sequence[BoardDealt]
) -> JsonObject:
    """The ``fairness`` of a rabbit hunt (FAIRNESS.md "More cards from the same deck"):
    each card ``hunted`` shows, at the place of the deck it would have been dealt from
    (the rest of its board, a burn before each street), with its salt, for the hand
    ``hand_id``. The hand's record was chained when the hand ended; the rabbit comes
    after, so its cards are revealed with the event that shows them, and checked against
    that record (``verify.verify_rabbit``)."""
    boards = 1 + max((dealt.board for dealt in hunted), default=0)
    revealed: list[int] = []
    for board, places in enumerate(_board_positions(secret, boards, None)):
        shown = sum(len(dealt.cards) for dealt in hunted if dealt.board == board)
        revealed += places[len(places) - shown :]  # the rest of the board
    deal, _ = _deal(table_id, hand_id, secret)
    cards: list[Json] = [dict[str, Json](card) for card in fair.revealed_cards(deal, revealed)]
    return {"hand_id": hand_id, "revealed": cards}


def _board_positions(secret: dict[str, Any], boards: int, shared: int | None) -> list[list[int]]:
    """The deck positions of each board of the deal the room kept (``fair.board_positions``):
    two boards are a double board unless they are two runs sharing ``shared`` cards."""
    players, hole_cards = len(secret["seats_dealt"]), secret["hole_cards"]
    if shared is None:
        return fair.board_positions(players, hole_cards, boards)
    return fair.board_positions(players, hole_cards, 1, shared)


def _deal(
    table_id: str, hand_id: str, secret: dict[str, Any]
) -> tuple[fair.Deal, list[fair.Contribution]]:
    """The deal the room kept, made again, and its players' contributions."""
    players = [
        fair.Contribution(
            p["seat"],
            bytes.fromhex(p["commitment"]),
            None if p["entropy"] is None else bytes.fromhex(p["entropy"]),
        )
        for p in secret["players"]
    ]
    pre_order = fair.PreOrder(
        tuple(secret["pre_order"]), tuple(bytes.fromhex(s) for s in secret["salts"])
    )
    entropy = {p.seat: p.entropy for p in players if p.entropy is not None}
    seed = bytes.fromhex(secret["server_seed"])
    return fair.shuffle(table_id, hand_id, pre_order, seed, entropy), players


def audited(hand_id: str, number: int, status: str, secret: dict[str, Any]) -> JsonObject:
    """One hand of an end-of-session audit (FAIRNESS.md): the pre-order with every salt,
    which open the 52 commitments of the ``D`` it announced."""
    pre_order = fair.PreOrder(
        tuple(secret["pre_order"]), tuple(bytes.fromhex(s) for s in secret["salts"])
    )
    return {
        "hand": hand_id,
        "number": number,
        "status": status,
        "deck_commitment": fair.deck_commitment(pre_order.commitments()).hex(),
        "cards": list(pre_order.cards),
        "salts": list(secret["salts"]),
        "server_seed": secret["server_seed"],
    }
