"""The home game's options as table settings (RULES.md 7, docs/protocol.md "Table
settings"): what each makes of the table's configuration, the settings a store keeps read
back the same, the host's ``options`` taking exactly these fields; and the new commands
as the protocol reads them, each bad field named."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from splitpot.protocol import ErrorCode, Host, HostAction, ProtocolError, parse_command
from splitpot.protocol.commands import OPTION_FIELDS, ChooseStraddle, Rabbit, RunIt
from splitpot.room.settings import TableSettings, parse_settings, settings_of
from splitpot.rules import Rake
from splitpot.table import DoubleBoard, Kill, Straddle


def test_each_option_reaches_the_tables_configuration() -> None:
    settings = parse_settings(
        {
            "name": "Home",
            "ante": 1,
            "rake_percent": 2.5,
            "rake_cap": 6,
            "straddle": True,
            "run_it_twice": True,
            "rabbit_hunt": True,
            "bomb_pot": 3,
            "bomb_every": 10,
            "double_board": "bomb-pots",
        }
    )
    config = settings.config()
    assert config.ante == 1 and config.rake == Rake(Fraction(5, 2), 6)
    assert config.straddle and config.run_it_twice and config.rabbit_hunt
    assert (config.bomb_pot, config.bomb_every) == (3, 10)
    assert config.double_board is DoubleBoard.BOMB_POTS and config.kill is None
    assert settings_of(settings.to_json()) == settings  # as the store keeps it
    limit = parse_settings({"name": "K", "structure": "limit", "kill": "full", "kill_size": 50})
    assert limit.config().kill == Kill(full=True, size=50)


def test_a_rake_is_exact_and_none_is_no_rake() -> None:
    """RULES.md 5: a whole percent stays whole; 0.1 is a tenth, not the float's binary."""
    assert parse_settings({"name": "T", "rake_percent": 5}).config().rake == Rake(5)
    tenth = parse_settings({"name": "T", "rake_percent": 0.1}).config().rake
    assert tenth is not None and tenth.percent == Fraction(1, 10)
    assert parse_settings({"name": "T"}).config().rake is None


def test_the_hosts_options_are_the_option_settings() -> None:
    """docs/protocol.md: ``options`` takes exactly the table settings of RULES.md 7."""
    fields = set(TableSettings.__dataclass_fields__)
    options = set(OPTION_FIELDS)
    assert options <= fields
    assert fields - options == {
        "name", "variant", "structure", "small_blind", "big_blind", "seats", "min_buy_in",
        "max_buy_in", "private", "action_seconds", "time_bank_seconds", "bots",
        "sit_out_hands", "audit", "cap_heads_up", "approval", "tournament",
    }  # fmt: skip


@pytest.mark.parametrize(
    ("message", "command"),
    [
        (
            {"type": "run_it", "table": "t", "hand": "t-3", "yes": True, "ref": 4},
            RunIt("t", "t-3", True, 4),
        ),
        ({"type": "rabbit", "table": "t"}, Rabbit("t")),
        (
            {"type": "straddle", "table": "t", "straddle": "next"},
            ChooseStraddle("t", Straddle.NEXT),
        ),
        ({"type": "host", "table": "t", "action": "bomb_pot"}, Host("t", HostAction.BOMB_POT)),
        (
            {"type": "host", "table": "t", "action": "options", "ante": 2, "kill": "half",
             "colour": "red"},
            Host("t", HostAction.OPTIONS, options={"ante": 2, "kill": "half"}),
        ),
    ],
)  # fmt: skip
def test_the_new_commands(message: dict[str, Any], command: object) -> None:
    assert parse_command(message) == command


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ({"type": "run_it", "table": "t", "hand": "t-1"}, "run_it.yes must be true or false"),
        (
            {"type": "run_it", "table": "t", "yes": True},
            "run_it.hand must be text of 1 to 64 characters, not null",
        ),
        (
            {"type": "straddle", "table": "t", "straddle": True},
            "straddle.straddle must be one of off, next, always, not true",
        ),
        ({"type": "rabbit"}, "rabbit.table must be text of 1 to 64 characters, not null"),
        (
            {"type": "host", "table": "t", "action": "options", "seat": 2},
            "host.options needs one option field or more: ante, rake_percent, rake_cap, "
            "straddle, run_it_twice, rabbit_hunt, bomb_pot, bomb_every, double_board, kill, "
            "kill_size",
        ),
    ],
)
def test_bad_new_commands_name_the_field(message: dict[str, Any], error: str) -> None:
    with pytest.raises(ProtocolError) as refusal:
        parse_command(message)
    assert refusal.value.code is ErrorCode.BAD_MESSAGE
    assert refusal.value.message.startswith(error)
