"""A dishonest room is caught (issue 19, FAIRNESS.md "What the player's own client
checks"): each cheat of ``dishonest.py`` publishes records that verify by themselves, and
fails, naming the cheat, once the record is held against the hand's announcement as the
player received it: by ``verify.py`` (the function and the command) and by the terminal
client. The honest room passes every one of these checks. A player's own records, in
every form the room hands them out, keep the table's chain."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from dishonest import cheating
from room_helpers import Client, Frame, RoomServer, is_event, one_hand, play
from room_helpers import passive as passive_action
from test_client import bots_table, passive
from test_room_fair import Committer, document, fair_game, play_fair_hand

from splitpot.cli import play_lines
from splitpot.client.announced import unrevealed
from splitpot.client.remote import RemoteGame
from splitpot.verify import Own, main, public_view, verify_chain, verify_hand

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def announced(client: Client, hand: str) -> Frame:
    """The frame of ``hand``'s last announcement as ``client`` received it."""
    frames = [
        f for f in client.frames if is_event("hand_started")(f) and f["event"]["hand"] == hand
    ]
    return frames[-1]


def failures(
    record: dict[str, Any], start: Frame | None = None, own: Own | None = None
) -> set[str]:
    event = None if start is None else {**start["event"], "table": start["table"]}
    return {c.name for c in verify_hand(record, event, own) if not c.passed}


def dealt_hand(room: RoomServer, names: list[str]) -> tuple[str, list[Client], list[bytes], str]:
    """A hand of ``names`` who all committed, revealed when listed and played it out:
    the table, the clients, the entropy each committed for the hand, and the hand."""
    table, clients = fair_game(room, names)
    committers = [Committer(client, table) for client in clients]
    entropy = [committer.entropy for committer in committers]
    hand = play_fair_hand(clients[0], clients, committers, table)
    return table, clients, entropy, hand


def test_the_honest_room_passes_every_check_of_every_player(
    room: RoomServer, tmp_path: Path
) -> None:
    table, clients, entropy, hand = dealt_hand(room, ["Ann", "Bob", "Cy"])
    for client, mine in zip(clients, entropy, strict=True):
        assert client.seat is not None
        record = document(room, hand, client.token)
        start = announced(client, hand)
        own = Own(client.seat, mine)
        checks = verify_hand(record, {**start["event"], "table": table}, own)
        assert [c.name for c in checks if not c.passed] == []
        names = {c.name for c in checks}
        assert {"announced deck commitment", "announced server commitment"} <= names
        assert {
            "announced dealing order",
            "seats dealt",
            "your commitment",
            "your entropy",
        } <= names
        started, kept = tmp_path / "start.json", tmp_path / "hand.json"
        started.write_text(json.dumps(start))  # the frame as the client received it
        kept.write_text(json.dumps(record))
        args = [str(kept), "--announced", str(started), "--entropy", mine.hex()]
        assert main([*args, "--seat", str(client.seat)]) == 0
    for client in clients:
        client.close()


@pytest.mark.parametrize(
    ("cheat", "caught_by_announcement", "caught_by_own"),
    [
        ("regrind", {"announced server commitment"}, set()),
        ("drop_entropy", set(), {"your entropy"}),
        ("omit_commitment", set(), {"your commitment", "your entropy"}),
        ("reorder", {"announced dealing order", "seats dealt"}, set()),
    ],
)
def test_each_cheat_verifies_alone_and_fails_against_the_announcement(
    room: RoomServer,
    monkeypatch: pytest.MonkeyPatch,
    cheat: str,
    caught_by_announcement: set[str],
    caught_by_own: set[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cheating(monkeypatch, cheat)
    _, clients, entropy, hand = dealt_hand(room, ["Ann", "Bob"])
    ann = clients[0]  # the lowest seat: the one the cheats single out
    assert ann.seat == 1
    record = document(room, hand, ann.token)
    start = announced(ann, hand)
    alone = failures(record)
    if cheat == "reorder":  # the order of dealing is derived, not read from the record
        assert "seats dealt" in alone
        assert all(name == "seats dealt" or name.startswith("dealt ") for name in alone)
    else:  # consistent in itself: only the announcement and the player can tell
        assert alone == set()
    assert failures(record, start) == alone | caught_by_announcement
    own = Own(1, entropy[0])
    assert failures(record, start, own) - failures(record, start) == caught_by_own
    started, kept = tmp_path / "start.json", tmp_path / "hand.json"
    started.write_text(json.dumps([start]))
    kept.write_text(json.dumps(record))
    capsys.readouterr()
    code = main(
        [str(kept), "--announced", str(started), "--entropy", entropy[0].hex(), "--seat", "1"]
    )
    out = capsys.readouterr().out
    assert code == 1
    for name in caught_by_announcement | caught_by_own:
        assert f"FAIL {name}:" in out, out
    for client in clients:
        client.close()


def test_a_hand_cancelled_after_the_reveals_is_dealt_again_under_new_commitments(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    cheating(monkeypatch, "cancel")
    table, clients = fair_game(room, ["Ann", "Bob"])
    ann = clients[0]
    committers = [Committer(client, table) for client in clients]
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    first = ann.wait(is_event("hand_started"))["event"]
    for committer in committers:
        committer.reveal(first)
    cancelled = ann.wait(is_event("hand_cancelled"))["event"]
    assert cancelled["hand"] == first["hand"]
    again = ann.wait(is_event("hand_started"))["event"]  # under new commitments
    assert again["fairness"]["deck_commitment"] != first["fairness"]["deck_commitment"]
    told = {p["commitment"] for p in again["fairness"]["players"]}
    assert told and not told & {p["commitment"] for p in first["fairness"]["players"]}
    for client in clients:
        client.close()


def test_verify_names_the_cancel_from_the_events_the_client_received(
    room: RoomServer,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The hand dealt again verifies against its own announcement; the events Ann's client
    received, kept whole, show it was called off after the reveals (FAIRNESS.md)."""
    cheating(monkeypatch, "cancel")
    table, clients = fair_game(room, ["Ann", "Bob"])
    ann = clients[0]
    committers = [Committer(client, table) for client in clients]
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    first = ann.wait(is_event("hand_started"))["event"]
    for committer in committers:
        committer.reveal(first)
    ann.wait(is_event("hand_cancelled"))
    again = ann.wait(is_event("hand_started"))["event"]
    bob = clients[1]  # both past the room's error to the reveal whose deal it called off
    bob.wait(lambda f: is_event("hand_started")(f) and f["event"]["fairness"] == again["fairness"])
    ann.skip()
    bob.skip()
    for committer in committers:
        committer.reveal(again)
    ann.send({"type": "host", "table": table, "action": "pause"})
    hand = again["hand"]
    assert hand == first["hand"]
    play(clients, table, lambda: any(e["hand"] == hand for e in ann.events("hand_ended")))
    received, last, kept = tmp_path / "all.json", tmp_path / "last.json", tmp_path / "hand.json"
    received.write_text(json.dumps(ann.frames))  # every frame: the events, and all the rest
    last.write_text(json.dumps(announced(ann, hand)))
    kept.write_text(json.dumps(document(room, hand, ann.token)))
    capsys.readouterr()
    assert main([str(kept), "--announced", str(last)]) == 0  # the record and its last word
    assert main([str(kept), "--announced", str(received)]) == 1
    out = capsys.readouterr().out
    called_off = (
        f"FAIL hand {hand}: was called off after the players could reveal their entropy and "
        "dealt again under new commitments"
    )
    assert called_off in out and f"hand {hand}: verified" in out, out
    for client in clients:
        client.close()


def test_a_command_that_waits_for_the_deal_holds_up_no_reveal(room: RoomServer) -> None:
    """Bob leaves as the hand is announced, then reveals: the leave waits for the deal,
    his reveal does not wait behind it (the deal has his entropy), and he leaves when
    the hand ends. A command that waited and then fails is refused with its ref."""
    table, clients = fair_game(room, ["Ann", "Bob"])
    ann, bob = clients
    committers = [Committer(client, table) for client in clients]
    ann.skip()
    ann.send({"type": "host", "table": table, "action": "resume"})
    started = ann.wait(lambda f: is_event("hand_started")(f) and f["table"] == table)["event"]
    bob.send({"type": "top_up", "table": table, "amount": 10**9, "ref": "too-much"})
    bob.send({"type": "leave", "table": table})
    committers[0].reveal(started)
    entropy = committers[1].entropy.hex()  # no commit for a next hand: Bob is leaving
    bob.send({"type": "reveal", "table": table, "hand": started["hand"], "entropy": entropy})
    refused = bob.wait(lambda f: f["type"] == "error" and f.get("ref") == "too-much")
    assert refused["code"] in ("buy_in", "not_now"), refused
    ann.send({"type": "host", "table": table, "action": "pause"})
    hand = started["hand"]
    bob.refused.add("too-much")
    play(clients, table, lambda: any(e["hand"] == hand for e in ann.events("hand_ended")))
    ann.wait(lambda f: is_event("player_left")(f) and f["event"]["seat"] == 2)
    record = document(room, hand, ann.token)
    entropy = {p["seat"]: p["entropy"] for p in record["fairness"]["players"]}
    assert entropy[1] is not None and entropy[2] is not None, entropy
    for client in clients:
        client.close()


def test_the_terminal_client_notes_another_seat_dealt_without_its_entropy(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """FAIRNESS.md: a listed commitment with ``entropy: null`` is reported with its seat
    (not as a cheat on this player: their own entropy missing is a warning of its own)."""
    cheating(monkeypatch, "drop_entropy")  # the room leaves Ann's (seat 1) entropy out
    _, clients, _, hand = dealt_hand(room, ["Ann", "Bob"])
    ann, bob = clients
    record = document(room, hand, bob.token)
    assert unrevealed(record, 2) == [
        f"Note: hand {hand}: seat 1 (Ann) was dealt in without their entropy: the room "
        "says they did not reveal in time."
    ]
    assert unrevealed(document(room, hand, ann.token), 1) == []
    for client in clients:
        client.close()


# ------------------------------------------------------------------ the terminal client


def terminal_hands(
    room: RoomServer, folder: Path, monkeypatch: pytest.MonkeyPatch, hands: int = 2
) -> tuple[RemoteGame, list[str]]:
    """The terminal client plays ``hands`` at a table with a bot: the game and its lines."""
    table = bots_table(room, bots=1)
    game = RemoteGame(room.url, "Tui", table=table, max_hands=hands, patience=10, announced=folder)

    def lines() -> Any:
        yield "sit"
        yield from passive()

    printed = io.StringIO()
    monkeypatch.setattr("sys.stdout", printed)
    try:
        assert play_lines(game, lines()) == 0
    finally:
        monkeypatch.undo()
    return game, printed.getvalue().splitlines()


def test_the_terminal_client_checks_each_hand_of_the_honest_room(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game, said = terminal_hands(room, tmp_path, monkeypatch)
    try:
        checked = [line for line in said if "the deal checks out against its announcement" in line]
        # A leave sent as hand 3 is announced waits for that deal, and the client's reveal
        # for it does not wait behind the leave: no hand is dealt without its entropy.
        assert len(checked) >= 2 and not [line for line in said if "WARNING" in line], said
        kept = list(tmp_path.glob("*.json"))  # on disk: the announcements of the table
        assert len(kept) == 1 and len(json.loads(kept[0].read_text())) >= 2
        assert "the deal checks out" in game.command("verify 1").lines[0]
    finally:
        game.close()


@pytest.mark.parametrize(
    ("cheat", "said"),
    [
        ("regrind", "announced server commitment: T is not the one announced"),
        ("drop_entropy", "your entropy: missing: the room dealt without your entropy"),
        ("omit_commitment", "was announced without your commitment"),
        ("reorder", "announced dealing order: seats"),
        ("cancel", "was called off after the players revealed their entropy"),
    ],
)
def test_the_terminal_client_catches_each_cheat(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, cheat: str, said: str
) -> None:
    cheating(monkeypatch, cheat)
    game, lines = terminal_hands(room, tmp_path, monkeypatch, hands=1)
    try:
        warned = "\n".join(line for line in lines if "WARNING" in line or line.startswith("  "))
        assert said in warned, "\n".join(lines)
        if cheat == "cancel":
            assert game.announced is not None and game.announced.cancelled_after_reveals() == 1
            assert "Hands called off after the reveals at this table: 1." in warned
    finally:
        game.close()


# ------------------------------------------------------------------ the chain


def cy_folds(client: Client, turn: Frame) -> Frame:
    """Seat 3 folds at its first chance; the others go to the showdown."""
    names = [entry["action"] for entry in turn["legal"]]
    if client.seat == 3 and "fold" in names:
        return {"action": "fold"}
    return passive_action(client, turn)


def test_a_players_own_records_keep_the_chain_in_every_form_and_a_rewrite_breaks_it(
    room: RoomServer, tmp_path: Path
) -> None:
    table, clients = fair_game(room, ["Ann", "Bob", "Cy"])
    for _ in range(3):
        one_hand(clients[0], clients, table, cy_folds)
    with room.http() as http:
        public = http.get(f"/api/tables/{table}/hands").json()["hands"]
    for client in clients:
        with room.http(client.token) as http:
            listed = http.get(f"/api/tables/{table}/hands").json()
            one_by_one = [http.get(f"/api/hands/{h['id']}").json() for h in listed["hands"]]
        assert one_by_one == listed["hands"]
        for mine, anyones in zip(listed["hands"], public, strict=True):
            assert mine != anyones and public_view(mine) == anyones  # additions taken off
            assert bool(mine["chain"].get("private")) == (client.seat == 3)  # a folded hand
        assert all(c.passed for c in verify_chain(listed["hands"][::-1]))
        exported = tmp_path / f"{client.seat}.jsonl"  # the page's "All as JSON": a line each
        exported.write_text("".join(json.dumps(doc) + "\n" for doc in one_by_one[::-1]))
        assert main(["--chain", str(exported)]) == 0
        answer = tmp_path / f"{client.seat}.json"  # the API's answer as it is
        answer.write_text(json.dumps(listed))
        assert main(["--chain", str(answer)]) == 0
        rewritten = copy.deepcopy(listed["hands"][::-1])
        rewritten[1]["players"][0]["stack"] += 1
        assert [c.passed for c in verify_chain(rewritten)] == [True, False]
        if client.seat == 3:  # private cards changed, named as private: still caught
            forged = copy.deepcopy(listed["hands"][::-1])
            forged[0]["chain"]["private"] = []
            assert not verify_chain(forged)[0].passed
    for client in clients:
        client.close()
