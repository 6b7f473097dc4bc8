"""A tournament's settings as the room takes them: every refusal names its field, and
nothing of a refused request is made (RULES.md 8, docs/protocol.md "Tournaments")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from splitpot.room.settings import SettingsError
from splitpot.room.tournament_settings import (
    Kind,
    Registration,
    parse_tournament,
    settings_from_json,
)

NOW = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)
LATER = (NOW + timedelta(hours=2)).isoformat()


def test_a_sit_and_go_takes_its_seats_as_its_field_and_reads_back_as_written() -> None:
    settings = parse_tournament({"name": "Friday", "seats": 9, "buy_in": 10, "fee": 1}, NOW)
    assert settings.kind is Kind.SIT_AND_GO and settings.most_entrants == 9
    assert settings_from_json(settings.to_json()) == settings
    level = settings.table_settings(7, 2, 0)
    assert level.tournament == 7 and level.seats == 9 and level.config().tournament


def test_a_scheduled_tournament_reads_back_with_its_start_and_registration() -> None:
    settings = parse_tournament(
        {"name": "Sunday", "kind": "scheduled", "start_at": LATER, "registration": "invite"},
        NOW,
    )
    assert settings.start_at == NOW + timedelta(hours=2)
    assert settings.registration is Registration.INVITE and settings.most_entrants == 1000
    assert settings_from_json(settings.to_json()) == settings


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "name: a tournament needs a name"),
        ({"name": "x", "size": 6}, "unknown setting 'size'"),
        ({"name": "x", "seats": 11}, "seats must be from 2 to 10, not 11"),
        ({"name": "x", "buy_in": 2.5}, "buy_in must be a whole number, not 2.5"),
        ({"name": "x", "starting_stack": True}, "starting_stack must be a whole number"),
        ({"name": "x", "kind": "knockout"}, "kind must be one of sit-and-go, scheduled"),
        ({"name": "x", "structure": "spread"}, "structure must be one of"),
        ({"name": "x", "kind": "scheduled"}, "start_at: a scheduled tournament needs a start"),
        ({"name": "x", "kind": "scheduled", "start_at": "tomorrow"}, "start_at must be an ISO"),
        (
            {"name": "x", "kind": "scheduled", "start_at": "2026-12-04T20:00:00"},
            "start_at needs its offset",
        ),
        ({"name": "x", "kind": "scheduled", "start_at": "2026-12-01T20:00:00Z"}, "is past"),
        ({"name": "x", "start_at": LATER}, "start_at: a sit-and-go starts when its seats"),
        ({"name": "x", "seats": 6, "most_entrants": 9}, "most_entrants: a sit-and-go is one"),
        ({"name": "x", "late_levels": 2}, "late_levels: a sit-and-go has no late"),
        ({"name": "x", "seats": 6, "bots": 6}, "bots must leave a seat free: 6 of 6"),
        ({"name": "x", "payouts": [{"entrants": None, "percents": [60, 30]}]}, "payouts: "),
        ({"name": "x", "schedule": {"clock": "days", "levels": []}}, "schedule: "),
        (
            {
                "name": "x",
                "kind": "scheduled",
                "start_at": LATER,
                "late_levels": 2,
                "schedule": {
                    "clock": "hands",
                    "levels": [{"small_blind": 1, "big_blind": 2, "length": 5}],
                },
            },
            "late_levels: a late registration needs levels by minutes",
        ),
        ({"name": "x", "variant": "bigo", "seats": 10}, "deals 5 hole cards"),
        ({"name": "x", "variant": "o9"}, "variant: unknown variant 'o9'"),
    ],
)
def test_a_bad_field_is_refused_by_name(body: dict[str, Any], words: str) -> None:
    with pytest.raises(SettingsError) as refused:
        parse_tournament(body, NOW)
    assert words in str(refused.value)
