"""splitpot-deal-v1 (FAIRNESS.md): a deal fixed jointly by the room and the players before
anyone could know it, that anyone can check afterwards. Standard library only, so that a
player can run the checks with nothing but Python.

The room makes a ``PreOrder`` (a secret order of the 52 cards and their salts) and a
server seed; the players add entropy; ``shuffle`` gives the deck; ``dealing_positions``
and ``board_positions`` say which place of the deck each card dealt came from.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SCHEME = "splitpot-deal-v1"
RANKS = "23456789TJQKA"
SUITS = "cdhs"
CARDS = tuple(rank + suit for rank in RANKS for suit in SUITS)  # the 52, in a fixed order
SALT_BYTES = 16
SEED_BYTES = 32  # a server seed, and a player's entropy


class FairnessError(ValueError):
    """A value that does not fit the scheme (a bad length, a card that is no card)."""


def random_bytes(size: int, rng: random.Random | None = None) -> bytes:
    """Secret random bytes; from ``rng`` only in tests (a seeded generator)."""
    return secrets.token_bytes(size) if rng is None else rng.randbytes(size)


def sha256(*parts: bytes) -> bytes:
    """``H`` of the parts joined (``||``)."""
    return hashlib.sha256(b"".join(parts)).digest()


def u8(number: int) -> bytes:
    return number.to_bytes(1, "big")


def lp(text: str) -> bytes:
    """A length-prefixed string: ``u32(len(utf8(s))) || utf8(s)``."""
    data = text.encode("utf-8")
    return len(data).to_bytes(4, "big") + data


def card_commitment(salt: bytes, card: str) -> bytes:
    """FAIRNESS.md step 1: ``H("splitpot-card-v1" || r || 0x00 || card)``."""
    if card not in CARDS:
        raise FairnessError(f"{card!r} is not a card (rank then suit, like 'As' or 'Td')")
    return sha256(b"splitpot-card-v1", salt, b"\x00", card.encode("ascii"))


def deck_commitment(commitments: Sequence[bytes]) -> bytes:
    """``D``: the hash of the 52 card commitments in pre-order."""
    if len(commitments) != len(CARDS):
        raise FairnessError(f"a deck commitment needs 52 card commitments, not {len(commitments)}")
    return sha256(*commitments)


def server_commitment(seed: bytes) -> bytes:
    """FAIRNESS.md step 2: ``T = H("splitpot-srv-v1" || t)``."""
    return sha256(b"splitpot-srv-v1", seed)


def player_commitment(entropy: bytes) -> bytes:
    """FAIRNESS.md step 3: ``u_p = H("splitpot-player-v1" || x_p)``."""
    return sha256(b"splitpot-player-v1", entropy)


def deal_key(
    table_id: str,
    hand_id: str,
    deck: bytes,
    seed: bytes,
    entropy: dict[int, bytes],
) -> bytes:
    """FAIRNESS.md step 4: ``K``, from the seats that contributed, in increasing seat
    number (``entropy`` maps a seat, from 1, to its 32 bytes)."""
    parts = [b"splitpot-deal-v1", lp(table_id), lp(hand_id), deck, seed]
    for seat in sorted(entropy):
        parts += [u8(seat), entropy[seat]]
    return sha256(*parts)


def permutation(key: bytes) -> list[int]:
    """FAIRNESS.md step 5: the Fisher-Yates shuffle of 0..51 driven by ``HMAC(K, ...)``."""
    order = list(range(len(CARDS)))
    for i in range(len(CARDS) - 1, 0, -1):
        mac = hmac.new(key, b"fy" + u8(i), hashlib.sha256).digest()
        j = int.from_bytes(mac, "big") % (i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def dealing_order(button: int, seats: Sequence[int]) -> list[int]:
    """FAIRNESS.md step 6: the seats dealt in (table seats, numbered clockwise), in the
    order their cards are dealt: from the first seat left of the ``button`` round to it."""
    ordered = sorted(seats)
    first = next((index for index, seat in enumerate(ordered) if seat > button), 0)
    return ordered[first:] + ordered[:first]


HOLE_CARDS: Mapping[str, int] = {"o8": 4, "omaha": 4, "o-hilo-noq": 4, "bigo": 5}
"""FAIRNESS.md step 6: how many hole cards each player is dealt, by the variant's id (four
rounds, five in Big O): the rules' ``Variant.hole_cards``, here so that a verifier derives
it with the standard library alone (a test holds the two equal)."""


def dealing_positions(players: int, hole_cards: int) -> tuple[list[list[int]], list[int]]:
    """FAIRNESS.md step 6: the deck positions of each dealt-in player's hole cards (in
    dealing order, one card a round) and of the five board cards (a burn before the flop,
    the turn and the river)."""
    holes: list[list[int]] = [[] for _ in range(players)]
    for round_ in range(hole_cards):
        for player in range(players):
            holes[player].append(round_ * players + player)
    return holes, board_positions(players, hole_cards)[0]


STREET_SIZES = (3, 1, 1)  # the cards of the flop, the turn and the river
STREET_ENDS = (0, 3, 4)  # the cards on a board before each street: where a run may start


def board_positions(
    players: int, hole_cards: int, boards: int = 1, shared: int | None = None
) -> list[list[int]]:
    """The deck positions of the five cards of each board (FAIRNESS.md "More cards from
    the same deck", in the order RULES.md 7 deals them), after the hole cards: one board,
    a burn before the flop, the turn and the river; a double board (``boards`` 2), each
    street to the first board and then the second, a burn before each; a board run twice
    (``shared``: the cards both runs share, 0, 3 or 4), the whole first run, then the
    second run's own streets, a burn before each. A card never dealt sits where it would
    have come: the rabbit hunt shows the rest of each board from these places."""
    if shared is not None and (boards != 1 or shared not in STREET_ENDS):
        raise FairnessError(f"a board run twice shares 0, 3 or 4 cards of one board, not {shared}")
    at = players * hole_cards
    dealt: list[list[int]] = [[] for _ in range(boards)]
    for size in STREET_SIZES:
        for board in dealt:
            board.extend(range(at + 1, at + 1 + size))  # after its burn
            at += 1 + size
    if shared is None:
        return dealt
    second = dealt[0][:shared]
    for start, size in zip(STREET_ENDS, STREET_SIZES, strict=True):
        if start >= shared:
            second.extend(range(at + 1, at + 1 + size))
            at += 1 + size
    return [dealt[0], second]


def runs_share(first: Sequence[object], second: Sequence[object]) -> int:
    """A board run twice: the cards both runs share, the board as it was when the players
    agreed (no card, the flop or the turn): the last street's end up to which the two
    agree (RULES.md 7)."""
    agree = next(
        (at for at, (a, b) in enumerate(zip(first, second, strict=False)) if a != b),
        min(len(first), len(second)),
    )
    return max(end for end in STREET_ENDS if end <= agree)


@dataclass(frozen=True)
class PreOrder:
    """The room's secret before a hand: the 52 cards in a random order and a salt each."""

    cards: tuple[str, ...]
    salts: tuple[bytes, ...]

    def __post_init__(self) -> None:
        if sorted(self.cards) != sorted(CARDS):
            raise FairnessError("a pre-order holds each of the 52 cards once")
        if len(self.salts) != len(CARDS) or any(len(s) != SALT_BYTES for s in self.salts):
            raise FairnessError(f"a pre-order has 52 salts of {SALT_BYTES} bytes")

    @classmethod
    def draw(cls, rng: random.Random | None = None) -> PreOrder:
        """A new secret pre-order from the operating system's CSPRNG (``rng``: a test's
        seeded generator, for deals that repeat)."""
        cards = list(CARDS)
        for i in range(len(cards) - 1, 0, -1):
            j = secrets.randbelow(i + 1) if rng is None else rng.randrange(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cls(tuple(cards), tuple(random_bytes(SALT_BYTES, rng) for _ in cards))

    def commitments(self) -> list[bytes]:
        return [card_commitment(s, c) for s, c in zip(self.salts, self.cards, strict=True)]


@dataclass(frozen=True)
class Deal:
    """One hand's deal: the deck ``F`` and what is needed to prove it."""

    pre_order: PreOrder
    commitments: tuple[bytes, ...]
    deck_commitment: bytes
    seed: bytes
    key: bytes
    permutation: tuple[int, ...]

    @property
    def deck(self) -> list[str]:
        """``F[k] = P0[pi[k]]``."""
        return [self.pre_order.cards[p] for p in self.permutation]

    def salt_at(self, position: int) -> bytes:
        """The salt of the card at ``position`` of the deck."""
        return self.pre_order.salts[self.permutation[position]]


def shuffle(
    table_id: str,
    hand_id: str,
    pre_order: PreOrder,
    seed: bytes,
    entropy: dict[int, bytes],
) -> Deal:
    """The deck of FAIRNESS.md steps 1 to 5."""
    for seat, value in entropy.items():
        if len(value) != SEED_BYTES:
            raise FairnessError(f"seat {seat}'s entropy is {len(value)} bytes, not {SEED_BYTES}")
    if len(seed) != SEED_BYTES:
        raise FairnessError(f"a server seed is {SEED_BYTES} bytes, not {len(seed)}")
    commitments = tuple(pre_order.commitments())
    deck = deck_commitment(commitments)
    key = deal_key(table_id, hand_id, deck, seed, entropy)
    return Deal(pre_order, commitments, deck, seed, key, tuple(permutation(key)))


# ------------------------------------------------------------------ the record


@dataclass(frozen=True)
class Contribution:
    """A player's part in a deal: the commitment sent before it, and the entropy revealed
    at it (None: not revealed in time, dealt in without it)."""

    seat: int
    commitment: bytes
    entropy: bytes | None = None


def fairness_record(
    deal: Deal,
    table_id: str,
    hand_id: str,
    hole_cards: int,
    seats_dealt: Sequence[int],
    players: Sequence[Contribution],
    revealed: Sequence[int],
) -> dict[str, object]:
    """The ``fairness`` object of a hand's record (FAIRNESS.md "After the hand"), revealing
    the cards at the deck positions ``revealed`` with their salts."""
    return {
        "scheme": SCHEME,
        "table_id": table_id,
        "hand_id": hand_id,
        "commitments": [c.hex() for c in deal.commitments],
        "deck_commitment": deal.deck_commitment.hex(),
        "server_commitment": server_commitment(deal.seed).hex(),
        "server_seed": deal.seed.hex(),
        "hole_cards": hole_cards,
        "seats_dealt": list(seats_dealt),
        "players": [
            {
                "seat": p.seat,
                "commitment": p.commitment.hex(),
                "entropy": None if p.entropy is None else p.entropy.hex(),
            }
            for p in sorted(players, key=lambda p: p.seat)
        ],
        "revealed": revealed_cards(deal, revealed),
    }


def revealed_cards(deal: Deal, positions: Sequence[int]) -> list[dict[str, int | str]]:
    """The cards at the deck ``positions``, each with its position and salt, in deck order
    (FAIRNESS.md "After the hand": ``revealed``)."""
    deck = deal.deck
    return [
        {"position": k, "card": deck[k], "salt": deal.salt_at(k).hex()}
        for k in sorted(set(positions))
    ]


# ------------------------------------------------------------------ the chain


def canonical(record: Mapping[str, Any]) -> bytes:
    """FAIRNESS.md: JSON with sorted keys and no spaces, as UTF-8, without the record's
    own ``chain`` field."""
    body = {key: value for key, value in record.items() if key != "chain"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def chain_hash(previous: bytes, record: Mapping[str, Any]) -> bytes:
    """``h_n = H(h_{n-1} || H(canonical(record_n)))``."""
    return sha256(previous, sha256(canonical(record)))


GENESIS = bytes(32)
