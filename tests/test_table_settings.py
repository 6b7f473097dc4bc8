"""The room's table settings that reach the rules: `cap_heads_up` (RULES.md 3)."""

import pytest

from splitpot.room.settings import SettingsError, parse_settings
from splitpot.rules import FixedLimit, Mixed


def test_cap_heads_up_is_a_table_setting_of_limit_and_mixed_tables() -> None:
    """RULES.md 3: the cap holds heads-up unless the table is set otherwise."""
    default = parse_settings({"name": "T", "structure": "limit"}).config().betting
    assert isinstance(default, FixedLimit) and default.cap_heads_up
    limit = parse_settings({"name": "T", "structure": "limit", "cap_heads_up": False})
    betting = limit.config().betting
    assert isinstance(betting, FixedLimit) and not betting.cap_heads_up
    mixed = parse_settings({"name": "T", "structure": "mixed", "cap_heads_up": False})
    rounds = mixed.config().betting
    assert isinstance(rounds, Mixed) and not rounds.limit.cap_heads_up
    again = parse_settings(limit.to_json() | {"small_blind": 2, "big_blind": 4})  # new stakes
    assert again.cap_heads_up is False


def test_lifting_the_cap_is_refused_where_there_is_no_cap() -> None:
    """Pot and no limit have no cap: `cap_heads_up: false` is refused, naming it; the
    default, true, is taken (the settings a room writes back carry it)."""
    for structure in ("pot-limit", "no-limit"):
        with pytest.raises(SettingsError, match=f"cap_heads_up: {structure} has no cap"):
            parse_settings({"name": "T", "structure": structure, "cap_heads_up": False})
        assert parse_settings({"name": "T", "structure": structure, "cap_heads_up": True})
    with pytest.raises(SettingsError, match="cap_heads_up must be true or false"):
        parse_settings({"name": "T", "structure": "limit", "cap_heads_up": "no"})
