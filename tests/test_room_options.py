"""The home game's options at a real room (RULES.md 7, docs/protocol.md "Table settings"
and "Running it twice"): a table made with them over HTTP and listed with them; each bad
setting refused by name; the vote to run it twice (both yes: two runs, each with its own
awards; a no or ten silent seconds: one run), with its clock in the event; the host's bomb
pot and options, the straddle and the rabbit hunt, as clients see them over the socket; the
rake booked to the house in the ledger; and a hand waiting for the vote, or run twice, that
a crash leaves is resumed from its log."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from room_helpers import (
    FAST,
    Client,
    Frame,
    RoomServer,
    chips_kept,
    is_event,
    one_hand,
    play,
    posts,
    replay,
    running_room,
    seated_game,
)
from test_room_crash import Connections, restarted, room_on, run, until
from test_table_host import ANN, BOB, OPTIONS, Game, events

from splitpot.bots import make_bot, run_it_answer
from splitpot.engine import Action
from splitpot.room.commands import RunIt, Sit, SitOut
from splitpot.room.settings import parse_settings
from splitpot.server.actor import Request
from splitpot.store import HandStatus, Store
from splitpot.table import RunItAnswered
from splitpot.verify import verify_rabbit

one_database = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

EVERY_OPTION: dict[str, Any] = {
    "ante": 1,
    "rake_percent": 2.5,
    "rake_cap": 5,
    "straddle": True,
    "run_it_twice": True,
    "rabbit_hunt": True,
    "bomb_pot": 2,
    "bomb_every": 8,
    "double_board": "bomb-pots",
    "kill": "off",
    "kill_size": 0,
}
RUN_TWICE = {"structure": "no-limit", "seats": 2, "run_it_twice": True}


def shove(client: Client, turn: Frame) -> Frame:
    """All in when it can, else call or check: the hand is all in before the flop."""
    names = [entry["action"] for entry in turn["legal"]]
    for name in ("allin", "call", "check", "show"):
        if name in names:
            return {"action": name}
    raise AssertionError(f"no action to take in {turn['legal']}")


def fold_first(client: Client, turn: Frame) -> Frame:
    """Fold when a bet is to be called: the first to act gives the hand up preflop."""
    names = [entry["action"] for entry in turn["legal"]]
    return {"action": "fold" if "fold" in names else "check"}


def chosen_by(seat: int) -> Callable[[Frame], bool]:
    return lambda f: is_event("straddle_chosen")(f) and f["event"]["seat"] == seat


def hand_events(client: Client, kind: str, hand: str) -> list[Frame]:
    return [event for event in client.events(kind) if event["hand"] == hand]


def to_the_vote(host: Client, clients: list[Client], table: str) -> Frame:
    """Deal one hand at a paused table and play it all in: the ``run_it`` event."""
    host.skip()
    host.send({"type": "host", "table": table, "action": "resume"})
    started = host.wait(lambda f: is_event("hand_started")(f) and f["table"] == table)
    host.send({"type": "host", "table": table, "action": "pause"})
    hand = started["event"]["hand"]
    play(clients, table, lambda: bool(hand_events(host, "run_it", hand)), shove)
    return hand_events(host, "run_it", hand)[0]


def hand_over(clients: list[Client], table: str, hand: str) -> None:
    play(clients, table, lambda: all(hand_events(c, "hand_ended", hand) for c in clients))


# ---------------------------------------------------------------- settings


@one_database
def test_a_table_made_with_every_option_lists_them(room: RoomServer) -> None:
    _, token = room.guest("Ann")
    made = room.create_table(token, name="Home", **EVERY_OPTION)["table"]
    assert {name: made[name] for name in EVERY_OPTION} == EVERY_OPTION
    with room.http() as http:
        listed = next(t for t in http.get("/api/tables").json()["tables"] if t["id"] == made["id"])
    assert {name: listed[name] for name in EVERY_OPTION} == EVERY_OPTION
    state = Client(room, token).state(made["id"])
    assert {name: state["table"][name] for name in EVERY_OPTION} == EVERY_OPTION
    limit = room.create_table(token, name="Kill", structure="limit", kill="half", kill_size=40)
    assert (limit["table"]["kill"], limit["table"]["kill_size"]) == ("half", 40)


BAD_SETTINGS: list[tuple[dict[str, Any], str]] = [
    ({"ante": -1}, "ante must be from 0 to 1000000000000, not -1"),
    ({"rake_percent": "5"}, "rake_percent must be a number, not '5'"),
    ({"rake_percent": 100.5}, "rake_percent must be from 0 to 100, not 100.5"),
    ({"rake_cap": 5}, "rake_cap: a cap needs a rake_percent above 0"),
    ({"straddle": "yes"}, "straddle must be true or false, not 'yes'"),
    ({"run_it_twice": 1}, "run_it_twice must be true or false, not 1"),
    ({"rabbit_hunt": None}, "rabbit_hunt must be true or false, not None"),
    ({"bomb_pot": 101}, "bomb_pot must be from 0 to 100, not 101"),
    ({"bomb_every": 5}, "bomb_every: a bomb pot every 5 hands needs a bomb"),
    (
        {"double_board": "twice"},
        "double_board must be one of off, bomb-pots, always, not 'twice'",
    ),
    ({"double_board": "bomb-pots"}, "double_board: a double board for bomb pots needs a bomb"),
    (
        {"double_board": "always", "seats": 10},
        "double_board: two boards of o8 need more cards: a table with a double board has "
        "2 to 9 seats, not 10",
    ),
    ({"kill": "quarter"}, "kill must be one of off, half, full, not 'quarter'"),
    ({"kill": "half"}, "kill: kill pots are played in fixed limit only"),
    (
        {"structure": "limit", "kill": "half", "small_blind": 1, "big_blind": 3},
        "kill: a half kill needs an even big blind and small bet, not 3 and 3",
    ),
    ({"kill_size": 30}, "kill_size: a kill size needs kill half or full"),
    (
        {"structure": "limit", "straddle": True},
        "straddle: a straddle is played in pot limit and no limit, not fixed limit",
    ),
]


@one_database
def test_each_bad_option_is_refused_by_name(room: RoomServer) -> None:
    _, token = room.guest("Ann")
    with room.http(token) as http:
        for settings, message in BAD_SETTINGS:
            answer = http.post("/api/tables", json={"name": "Bad"} | settings)
            assert answer.status_code == 400, answer.text
            assert answer.json()["error"] == {"code": "bad_message", "message": message}
        assert http.get("/api/tables").json()["tables"] == []  # none was made


# ---------------------------------------------------------------- running it twice


@one_database
def test_both_say_yes_and_the_board_is_run_twice(room: RoomServer) -> None:
    table, clients = seated_game(room, ("Ann", "Bob"), 100, name="Twice", **RUN_TWICE)
    ann, bob = clients
    early = ann.error({"type": "run_it", "table": table, "hand": f"{table}-1", "yes": True})
    assert (early["code"], early["message"]) == ("not_now", "no one is being asked to run it twice")
    asked = to_the_vote(ann, clients, table)
    hand = asked["hand"]
    assert asked["seats"] == [1, 2] and asked["seconds"] == 10.0
    deadline = datetime.fromisoformat(asked["deadline"])
    assert 0 < (deadline - datetime.now(UTC)).total_seconds() <= 10
    state = bob.state(table)
    assert state["hand"]["run_it"] == [1, 2] and state["deadline"] == asked["deadline"]
    answer = {"type": "run_it", "table": table, "hand": hand, "yes": True}
    wrong = ann.error(answer | {"hand": f"{table}-9"})
    assert (wrong["code"], wrong["message"]) == (
        "wrong_hand",
        f"hand {table}-9 is not the hand in play ({hand})",
    )
    ann.send(answer)
    ann.wait(lambda f: is_event("run_it_answered")(f) and f["event"]["seat"] == 1)
    again = ann.error(answer)
    assert (again["code"], again["message"]) == ("not_now", "seat 1 has already answered")
    watcher = Client(room, room.guest("Cy")[1])
    assert watcher.error(answer)["code"] == "not_seated"
    bob.send(answer)
    hand_over(clients, table, hand)
    assert [(e["seat"], e["yes"]) for e in bob.events("run_it_answered", table)] == [
        (1, True),
        (2, True),
    ]
    assert [e["times"] for e in hand_events(bob, "runs", hand)] == [2]
    boards = hand_events(bob, "board", hand)
    assert [(e["board_number"], e["street"]) for e in boards] == [
        (1, "flop"),
        (1, "turn"),
        (1, "river"),
        (2, "flop"),
        (2, "turn"),
        (2, "river"),
    ]
    first, second = boards[2]["board"], boards[5]["board"]
    assert len(first) == len(second) == 5 and not set(first) & set(second)
    awarded = hand_events(bob, "pot_awarded", hand)
    assert {e["board_number"] for e in awarded} == {1, 2}
    ended = hand_events(bob, "hand_ended", hand)[0]
    assert {a["board_number"] for a in ended["awards"]} == {1, 2}
    assert sum(a["amount"] for a in ended["awards"]) == 200  # each run's part of the pot
    assert sum(s["stack"] for s in ended["stacks"]) == 200
    logged = room.store.hand_log(hand)
    assert [(a.seat, a.kind, a.amount) for a in logged.actions][-2:] == [
        (1, "run_it", 1),
        (2, "run_it", 1),
    ]
    table_after, _ = replay(logged)  # the log replays to the two runs
    played = table_after.history[-1].hand
    assert played.runs == 2 and [list(map(str, b)) for b in played.boards] == [first, second]
    chips_kept(room.store)


@pytest.fixture
def quick_room(store: Store) -> Any:
    """A room whose clocks run five times faster: the vote lasts two seconds."""
    with running_room(store, replace(FAST, clock_scale=0.2)) as server:
        yield server


@one_database
def test_a_no_or_silence_runs_the_board_once(quick_room: RoomServer) -> None:
    room = quick_room
    table, clients = seated_game(room, ("Ann", "Bob"), 100, name="Once", **RUN_TWICE)
    ann, bob = clients
    asked = to_the_vote(ann, clients, table)
    assert asked["seconds"] == 2.0
    hand = asked["hand"]
    ann.send({"type": "run_it", "table": table, "hand": hand, "yes": False})
    hand_over(clients, table, hand)
    assert [e["times"] for e in hand_events(bob, "runs", hand)] == [1]
    assert {e["board_number"] for e in hand_events(bob, "board", hand)} == {1}
    ended = hand_events(bob, "hand_ended", hand)[0]
    assert {a["board_number"] for a in ended["awards"]} == {1}
    # Silence: Bob says yes, Ann nothing; two seconds after the question, it is run once.
    table, clients = seated_game(room, ("Cy", "Di"), 100, name="Silent", **RUN_TWICE)
    ann, bob = clients
    asked = to_the_vote(ann, clients, table)
    hand = asked["hand"]
    bob.send({"type": "run_it", "table": table, "hand": hand, "yes": True})
    hand_over(clients, table, hand)
    assert [(e["seat"], e["yes"]) for e in ann.events("run_it_answered", table)[-1:]] == [(2, True)]
    assert [e["times"] for e in hand_events(ann, "runs", hand)] == [1]
    assert {e["board_number"] for e in hand_events(ann, "board", hand)} == {1}
    logged = [(a.seat, a.kind, a.amount) for a in room.store.hand_log(hand).actions]
    assert logged[-2:] == [(2, "run_it", 1), (1, "run_it_timeout", None)]
    chips_kept(room.store)


# ---------------------------------------------------------------- host, straddle, rabbit


@one_database
def test_the_host_calls_a_bomb_pot_and_changes_the_options(room: RoomServer) -> None:
    table, clients = seated_game(room, ("Ann", "Bob", "Cy"), 100, name="Bombs", seats=3, bomb_pot=2)
    ann, bob, _ = clients
    host = {"type": "host", "table": table}
    refused = bob.error(host | {"action": "bomb_pot"})
    assert (refused["code"], refused["message"]) == (
        "forbidden",
        f"only the host of table {table} may do that",
    )
    assert bob.error(host | {"action": "options", "ante": 1})["code"] == "forbidden"
    first = one_hand(ann, clients, table)
    assert {kind for posted in posts(ann, first["hand"]).values() for kind in posted} == {
        "small_blind",
        "big_blind",
    }
    ann.send(host | {"action": "bomb_pot"})
    called = ann.wait(is_event("bomb_pot_called"))["event"]
    assert called["blinds"] == 2
    twice = ann.error(host | {"action": "bomb_pot"})
    assert (twice["code"], twice["message"]) == (
        "illegal_action",
        "a bomb pot is already called for the next hand",
    )
    bombed = one_hand(ann, clients, table)
    assert posts(ann, bombed["hand"]) == {seat: {"bomb": 4} for seat in (1, 2, 3)}
    # The options: refused by name, then taken (between hands: at once).
    bad = ann.error(host | {"action": "options", "kill": "half"})
    assert (bad["code"], bad["message"]) == (
        "bad_message",
        "kill: kill pots are played in fixed limit only",
    )
    none = ann.error(host | {"action": "options"})
    assert none["message"].startswith("host.options needs one option field or more: ante,")
    ann.send(host | {"action": "options", "ante": 1, "bomb_pot": 0, "rabbit_hunt": True})
    said = ann.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "options")
    assert said["event"]["options"] == {"ante": 1, "bomb_pot": 0, "rabbit_hunt": True}
    assert said["event"]["text"] == "The host changes the table's options"
    summary = ann.state(table)["table"]
    assert (summary["ante"], summary["bomb_pot"], summary["rabbit_hunt"]) == (1, 0, True)
    assert ann.error(host | {"action": "bomb_pot"})["message"] == "this table plays no bomb pots"
    anted = one_hand(ann, clients, table)
    assert all(posted["ante"] == 1 for posted in posts(ann, anted["hand"]).values())
    chips_kept(room.store)


@one_database
def test_the_player_left_of_the_big_blind_straddles(room: RoomServer) -> None:
    names = ("Ann", "Bob", "Cy", "Di")
    table, clients = seated_game(room, names, 100, name="Straddle", straddle=True, seats=4)
    for seat, client in enumerate(clients, start=1):
        client.send({"type": "straddle", "table": table, "straddle": "always"})
        mine = chosen_by(seat)
        assert client.wait(mine)["event"]["straddle"] == "always"
    bad = clients[0].error({"type": "straddle", "table": table, "straddle": "twice"})
    assert bad["message"] == 'straddle.straddle must be one of off, next, always, not "twice"'
    started = one_hand(clients[0], clients, table)
    posted = posts(clients[0], started["hand"])
    big = next(seat for seat, kinds in posted.items() if "big_blind" in kinds)
    straddles = {seat: kinds["straddle"] for seat, kinds in posted.items() if "straddle" in kinds}
    assert straddles == {big % 4 + 1: 4}  # left of the big blind, twice the big blind
    chips_kept(room.store)


@one_database
def test_the_rabbit_shows_the_board_a_fold_left_undealt(room: RoomServer) -> None:
    table, clients = seated_game(room, ("Ann", "Bob"), 100, name="Rabbit", rabbit_hunt=True)
    ann, bob = clients
    started = one_hand(ann, clients, table, fold_first)
    hand = started["hand"]
    assert hand_events(ann, "board", hand) == []  # folded before the flop
    bob.send({"type": "rabbit", "table": table})
    rabbit = ann.wait(is_event("rabbit"))["event"]
    assert rabbit["seat"] == 2
    streets = [(s["board_number"], s["street"], len(s["cards"])) for s in rabbit["streets"]]
    assert streets == [(1, "flop", 3), (1, "turn", 1), (1, "river", 1)]
    holes = {c for e in hand_events(bob, "dealt", hand) if e["cards"] for c in e["cards"]}
    cards = [card for street in rabbit["streets"] for card in street["cards"]]
    assert len(set(cards)) == 5 and not set(cards) & holes
    assert rabbit["hand"] == hand  # FAIRNESS.md: its cards checked against the hand's record
    with room.http(bob.token) as http:
        record = http.get(f"/api/hands/{hand}").json()
    checks = verify_rabbit(record, rabbit)
    assert checks and all(check.passed for check in checks), checks
    swapped = [dict(rabbit["streets"][0], cards=cards[1::-1] + cards[2:3]), *rabbit["streets"][1:]]
    assert not all(check.passed for check in verify_rabbit(record, rabbit | {"streets": swapped}))
    again = ann.error({"type": "rabbit", "table": table})
    assert (again["code"], again["message"]) == (
        "illegal_action",
        "the rabbit of hand 1 is already shown",
    )
    watcher = Client(room, room.guest("Cy")[1])
    assert watcher.error({"type": "rabbit", "table": table})["code"] == "not_seated"


# ---------------------------------------------------------------- the rake


def test_the_rake_goes_to_the_house_in_the_ledger(store: Store) -> None:
    """Every chip movement is a ledger entry and they sum to zero: a raked hand books its
    rake to the house (SQLite and PostgreSQL)."""
    with running_room(store) as room:
        settings = {"small_blind": 10, "big_blind": 20, "min_buy_in": 400, "max_buy_in": 400}
        raked = {"rake_percent": 10, "rake_cap": 3, "seats": 2}
        table, clients = seated_game(room, ("Ann", "Bob"), 400, name="Raked", **settings, **raked)
        started = one_hand(clients[0], clients, table)
        hand = started["hand"]
        rake = [e["amount"] for e in hand_events(clients[0], "rake", hand)]
        assert rake == [3]  # 10% of the pot of 40 would be 4: the cap is 3
        ended = hand_events(clients[0], "hand_ended", hand)[0]
        assert sum(s["stack"] for s in ended["stacks"]) == 800 - 3
        totals = store.check_invariant()
        assert totals.house == 3 and totals.balances + totals.on_tables + totals.house == 0
        stats = store.table_stats(table)
        assert stats.rake == 3 and sum(p.net for p in stats.players) == -3
        assert store.hand(hand).status is HandStatus.FINISHED


# ---------------------------------------------------------------- crashes


def test_a_hand_waiting_for_the_vote_resumes_and_runs_twice(store: Store) -> None:
    """A crash while the players are asked: the restarted table asks again (an answer
    logged is kept), and their yes runs the board twice, every chip in the ledger."""

    async def scenario() -> None:
        identities = [store.create_guest(name) for name in ("Ann", "Bob")]
        settings = parse_settings({"name": "Crash", **RUN_TWICE})
        players = Connections([identity.player for identity in identities])
        people = list(players.players.values())
        async with room_on(store) as room:
            actor, _ = await room.create_here(settings, identities[0].player)
            for seat, connection in enumerate(players.connections.values()):
                await actor.submit(Request(connection, Sit(people[seat], seat, 100)))
            await until(lambda: actor.host.playing is not None, "the deal")
            host = actor.host
            while host.vote is None:
                seat = host.table.seat_to_act
                assert seat is not None
                legal = host.table.view(seat).legal
                assert legal is not None
                await players.act(actor, Action.all_in() if legal.all_in else Action.call())
            assert host.playing is not None
            hand = host.playing.id
            first = host.occupants[0].player_id
            await actor.submit(Request(players.connections[first], RunIt(people[0], True, hand)))
        logged = store.hand_log(hand)
        assert logged.status is HandStatus.PLAYING and logged.actions[-1].kind == "run_it"
        async with room_on(store) as room:
            resumed, steps = await restarted(room, actor.id)
            host = resumed.host
            assert steps is None and host.table.run_it_seats == (0, 1)
            assert host.playing is not None and host.playing.answered == {0}
            run(room, resumed, steps, hold=True)
            await until(lambda: host.vote is not None, "the question asked again")
            second = host.occupants[1].player_id
            await resumed.submit(Request(players.connections[second], RunIt(people[1], True)))
            await until(lambda: host.playing is None, "the result")
            played = host.table.history[-1].hand
            assert played.runs == 2 and len(played.boards) == 2
        assert store.hand(hand).status is HandStatus.FINISHED
        table, _ = replay(store.hand_log(hand))
        assert table.history[-1].hand.runs == 2
        assert store.check_invariant().on_tables == 200

    asyncio.run(scenario())


# ---------------------------------------------------------------- the room's answers


def all_in_by_the_antes(bot: bool) -> Game:
    """Ann and a bot (or Bob) at a table whose antes put both all in: the first hand's
    deal asks them to run it twice at once."""
    game = Game(
        structure="no-limit", seats=2, run_it_twice=True, ante=2, min_buy_in=1, max_buy_in=200
    )
    if bot:  # seated first: Ann's sitting down then schedules the deal
        game.host.seat(1, BOB, 2, make_bot("sensible", BOB.name))
    else:
        game.do(Sit(BOB, 1, 2))
    game.do(Sit(ANN, 0, 2))
    game.wait(OPTIONS.hand_pause)  # dealt: no one committed to entropy
    assert game.host.table.run_it_seats == (0, 1) and game.host.vote is not None
    return game


def logged_votes(game: Game) -> list[tuple[int, str, int | None]]:
    return [(e.seat, e.kind, e.amount) for e in game.keeper.logged() if e.kind.startswith("run")]


def test_a_bot_answers_with_its_own_choice() -> None:
    game = all_in_by_the_antes(bot=True)
    current = game.host.table.hand
    assert current is not None
    choice = run_it_answer(current.hand.view(1), current.hand.config.variant)
    game.wait(OPTIONS.bot_delay)
    assert logged_votes(game) == [(2, "run_it", int(choice))]
    answered = [e for e in events(game.told) if isinstance(e, RunItAnswered)]
    assert [(e.seat, e.yes) for e in answered] == [(1, choice)]
    if choice:  # Ann's yes runs it twice
        game.do(RunIt(ANN, True))
        assert game.host.table.history[-1].hand.runs == 2
    else:
        assert game.host.vote is None and game.host.table.history[-1].hand.runs == 1


def test_a_player_away_says_no_and_silence_times_out() -> None:
    game = all_in_by_the_antes(bot=False)
    game.do(SitOut(BOB))  # away: the room answers no for Bob at once
    game.wait(0.0)
    assert logged_votes(game) == [(2, "run_it", 0)]
    assert game.host.vote is None and game.host.table.history[-1].hand.runs == 1
    again = all_in_by_the_antes(bot=False)
    again.do(RunIt(BOB, True))
    again.wait(9.9)
    assert again.host.vote is not None, "ten seconds to answer"
    again.wait(0.1)
    assert logged_votes(again) == [(2, "run_it", 1), (1, "run_it_timeout", None)]
    assert again.host.vote is None and again.host.table.history[-1].hand.runs == 1
