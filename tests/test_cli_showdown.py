"""``splitpot showdown``: text, JSON and errors."""

import json

import pytest

from splitpot.cli import main


def test_showdown_text_names_hands_and_winners(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["showdown", "--board", "Jd4d3cQd5h", "AdKd3s2s", "7h7c8s9s"]) == 0
    out = capsys.readouterr().out
    assert "high: a flush, Ace high (Ad Kd Qd Jd 4d)" in out
    assert "low:  5,4,3,2,A (the wheel)" in out
    assert "Player 1 wins the high half with a flush, Ace high" in out
    assert "Player 1 wins the low half with 5,4,3,2,A (the wheel)" in out


def test_showdown_json_has_the_documented_fields(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["showdown", "--board", "Kc Kd 2h 3s 7d", "Ac4cQhQs", "Ad4d9h9s", "KhJhJsTs", "--json"]
    )
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["variant"] == "o8"
    assert result["board"] == "KcKd2h3s7d"
    assert [p["share"] for p in result["players"]] == ["1/4", "1/4", "1/2"]
    assert result["high_winners"] == [2]
    assert result["low_winners"] == [0, 1]
    assert result["players"][0]["low"] == {"cards": "Ac4c7d3s2h", "name": "7,4,3,2,A"}
    assert result["players"][2]["low"] is None
    assert result["players"][2]["high"]["name"] == "three of a kind, Kings"


def test_no_low_is_reported(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["showdown", "--board", "2h3sKdQcJc", "Ac2d3c4d", "KhKs9c9d"]) == 0
    out = capsys.readouterr().out
    assert "No low hand qualified" in out
    assert "Player 2 wins the whole pot with three of a kind, Kings" in out


def test_the_game_without_a_qualifier_never_says_no_low_qualified(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """o-hilo-noq has no qualifier: "no low" only when no hand makes five different ranks."""
    hands = ["AsAd2s2d", "3c3d4h4s"]
    assert main(["showdown", "--variant", "o-hilo-noq", "--board", "KhKdKs7c7d", *hands]) == 0
    out = capsys.readouterr().out
    assert "qualified" not in out
    assert out.splitlines()[-1] == "No low for the pot: no hand makes five different ranks"


def test_variant_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["showdown", "--variant", "omaha", "--json", "--board", "Jd4d3cQd5h", "AdKd3s2s"]) == 0
    )
    result = json.loads(capsys.readouterr().out)
    assert result["players"][0]["low"] is None and result["low_winners"] == []


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (["AdKd3s2s", "7h1x8s9s"], "player 2: '1x' at position 2 is not a card"),
        (["AdKd3s2s", "AdQcQs5c"], "duplicate card: Ad"),
    ],
)
def test_bad_cards_give_one_line_and_exit_status_2(
    capsys: pytest.CaptureFixture[str], hands: list[str], message: str
) -> None:
    assert main(["showdown", "--board", "Jd4d3cQd5h", *hands]) == 2
    err = capsys.readouterr().err
    assert err.strip() == f"splitpot showdown: error: {message}"
