"""What this client was told before each deal (FAIRNESS.md "What the player's own client
checks"): the ``hand_started`` of every hand it saw announced, with its own commitment and
entropy, kept on disk per table; each finished hand's record is checked against it, and a
hand called off after the reveals is counted. The room cannot rewrite what is kept here."""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from splitpot.client.identity import client_folder
from splitpot.i18n import ENGLISH, Words
from splitpot.verify import Check, Own, say, spoken, verify_hand

KEPT = 50  # hands kept per table: the room's last hands (RULES.md 6) and more


def default_folder() -> Path:
    """Where the terminal client keeps what the room announced: in its data folder."""
    return client_folder() / "announced"


@dataclass
class Announced:
    """One hand as this client saw it announced; ``seat``, ``commitment`` and ``entropy``
    are this client's own (None where it had none)."""

    event: dict[str, Any]  # the hand_started event, with its table
    seat: int | None = None
    commitment: str | None = None  # sent for this hand before it was announced
    entropy: str | None = None  # revealed for it
    cancelled: bool = False

    @property
    def hand(self) -> str:
        return str(self.event["hand"])

    def asked_for_reveals(self) -> bool:
        """The announcement listed commitments: players revealed, or could have."""
        fairness = self.event.get("fairness") or {}
        return bool(fairness.get("players"))


class Announcements:
    """The announcements of one table of one room, kept in ``folder`` (None: in memory)."""

    def __init__(self, folder: Path | None, room: str, table: str, words: Words = ENGLISH) -> None:
        self.words = words
        name = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{room}-{table}")
        self.path = None if folder is None else folder / f"{name}.json"
        self.table = table
        self.hands: list[Announced] = self._load()

    def _load(self) -> list[Announced]:
        if self.path is None or not self.path.exists():
            return []
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
            return [Announced(**entry) for entry in kept]
        except (OSError, ValueError, TypeError):
            return []  # a file this client cannot read: start again, never trust it

    def _save(self) -> None:
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        kept = json.dumps([asdict(entry) for entry in self.hands[-KEPT:]])
        self.path.write_text(kept, encoding="utf-8")

    def started(
        self, event: Mapping[str, Any], seat: int | None, commitment: str | None
    ) -> list[str]:
        """A hand announced: kept; a warning, at once, if it leaves out the commitment this
        client sent for it (the room would deal without this player's entropy)."""
        entry = Announced({**event, "table": self.table}, seat, commitment)
        self.hands.append(entry)
        self._save()
        listed = {p.get("seat") for p in (event.get("fairness") or {}).get("players", [])}
        if seat is not None and commitment is not None and seat not in listed:
            return [
                self.words.say(
                    "WARNING: hand {hand} was announced without your commitment: the room is "
                    "dealing it without your entropy.",
                    hand=entry.hand,
                )
            ]
        return []

    def revealed(self, hand: str, entropy: str) -> None:
        entry = self.of(hand)
        if entry is not None:
            entry.entropy = entropy
            self._save()

    def cancelled(self, hand: str) -> list[str]:
        """A hand called off: counted, and reported if players had been asked to reveal."""
        entry = self.of(hand)
        if entry is None or not entry.asked_for_reveals():
            return []
        entry.cancelled = True
        self._save()
        return [
            self.words.say(
                "WARNING: hand {hand} was called off after the players revealed their entropy "
                "(a room that cancels until it likes the cards could do this). Hands called "
                "off after the reveals at this table: {count}.",
                hand=hand,
                count=self.cancelled_after_reveals(),
            )
        ]

    def cancelled_after_reveals(self) -> int:
        return sum(entry.cancelled for entry in self.hands)

    def of(self, hand: str) -> Announced | None:
        """The hand's last announcement that was not called off."""
        for entry in reversed(self.hands):
            if entry.hand == hand and not entry.cancelled:
                return entry
        return None

    def check(self, record: Mapping[str, Any]) -> list[Check]:
        """The record against what this client was told (and its own entropy)."""
        entry = self.of(str(record.get("id")))
        if entry is None:
            return [
                Check(say("announced"), False, say("this client kept no announcement of the hand"))
            ]
        own = None
        if entry.seat is not None and entry.entropy is not None:
            own = Own(entry.seat, bytes.fromhex(entry.entropy))
        return verify_hand(record, entry.event, own)


def unrevealed(
    record: Mapping[str, Any], own_seat: int | None, words: Words = ENGLISH
) -> list[str]:
    """FAIRNESS.md: each other seat whose listed commitment the record shows with
    ``entropy: null``, named with its player (the room says they did not reveal in time)."""
    fairness = record.get("fairness")
    listed = fairness.get("players") if isinstance(fairness, dict) else None
    if not isinstance(listed, list):
        return []
    names = {
        p.get("seat"): p.get("name") for p in record.get("players") or [] if isinstance(p, dict)
    }
    lines = []
    for player in listed:
        seat = player.get("seat") if isinstance(player, dict) else None
        if seat is None or seat == own_seat or player.get("entropy") is not None:
            continue
        if names.get(seat):
            who = words.say("seat {seat} ({name})", seat=seat, name=names[seat])
        else:
            who = words.say("seat {seat}", seat=seat)
        lines.append(
            words.say(
                "Note: hand {hand}: {who} was dealt in without their entropy: the room says "
                "they did not reveal in time.",
                hand=record.get("id"),
                who=who,
            )
        )
    return lines


def verdict(hand: str, checks: list[Check], words: Words = ENGLISH) -> list[str]:
    """A check of a hand in words: one line when it holds, the failures loudly when not."""
    failed = [check for check in checks if not check.passed]
    if not failed:
        return [
            words.say_n(
                "Hand {hand}: the deal checks out against its announcement ({count} checks).",
                "Hand {hand}: the deal checks out against its announcement ({count} checks).",
                len(checks),
                hand=hand,
            )
        ]
    lines = [words.say("WARNING: hand {hand} is not the deal the room announced:", hand=hand)]
    return lines + [
        words.say(
            "  {check}: {detail}",
            check=spoken(check.name, words),
            detail=spoken(check.detail, words),
        )
        for check in failed
    ]
