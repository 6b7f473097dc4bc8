"""Each receiver hears the dealer in their own language (``lang`` in ``hello``, else the
WebSocket's Accept-Language): a Japanese and a Russian player at one table get the same
hand's events in their languages, a watcher whose browser asks for Russian too; the
frames are otherwise the same; a language the room does not speak is refused by name."""

from __future__ import annotations

import json
import re

from room_helpers import Client, Frame, RoomServer, is_event, one_hand

from splitpot.i18n import Language, words


def texts(client: Client, hand: str) -> list[str]:
    return [
        f["event"]["text"]
        for f in client.frames
        if f["type"] == "event" and f["event"].get("hand") == hand and f["event"].get("text")
    ]


def without_words(client: Client, hand: str) -> list[Frame]:
    """The hand's events without their words: the text, and the hands' names."""
    return [
        json.loads(re.sub(r'"(text|name)": "[^"]*"', r'"\1": ""', json.dumps(f["event"])))
        for f in client.frames
        if f["type"] == "event" and f["event"].get("hand") == hand
    ]


def test_a_japanese_and_a_russian_player_hear_the_same_hand_in_their_languages(
    room: RoomServer,
) -> None:
    (_, yuki_token), (_, ivan_token) = room.guest("Yuki"), room.guest("Ivan")
    table = room.create_table(yuki_token, name="Two tongues", seats=2)["table"]["id"]
    yuki = Client(room, yuki_token, lang="ja")
    ivan = Client(room, ivan_token, lang="ru-RU")
    watcher = Client(room, None, headers={"Accept-Language": "ru-RU,ru;q=0.9,en;q=0.5"})
    english = Client(room, None)
    assert (yuki.welcome["lang"], ivan.welcome["lang"], watcher.welcome["lang"]) == (
        "ja",
        "ru",
        "ru",
    )
    yuki.state(table)
    yuki.send({"type": "host", "table": table, "action": "pause"})
    yuki.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    watcher.state(table)
    english.state(table)
    yuki.sit(table, 1, 100)
    ivan.sit(table, 2, 100)
    hand = one_hand(yuki, [yuki, ivan], table)["hand"]
    for listener in (yuki, ivan, watcher, english):
        listener.wait(lambda f: is_event("hand_ended")(f) and f["event"]["hand"] == hand)
    japanese, russian = texts(yuki, hand), texts(ivan, hand)
    assert japanese[0].startswith("ハンド #1：オマハ ハイ/ロー（エイトオアベター）")
    assert russian[0].startswith("Раздача №1: Омаха Хай-Лоу, 8 или ниже")
    assert any(line.startswith("Yukiのホールカード：") for line in japanese)
    assert any(line.startswith("Карты игрока Ivan: ") for line in russian)
    assert not any("ホールカード" in line and "Ivan" in line for line in japanese)  # her own only
    ja, ru = words(Language.JAPANESE), words(Language.RUSSIAN)
    assert any(ja.say("Flop: {cards}", cards="") in line for line in japanese)
    assert any(ru.say("Flop: {cards}", cards="") in line for line in russian)
    watched = texts(watcher, hand)
    assert watched[0] == russian[0] and not any("Карты игрока" in line for line in watched)
    # the hands' names in the awards too (kana in Japanese, Cyrillic in Russian)
    ended = {c: c.events("hand_ended")[-1]["awards"] for c in (yuki, ivan, english)}
    named = {c: [a["high"]["name"] for a in awards if a["high"]] for c, awards in ended.items()}
    assert named[english] and all(re.search("[\u30a0-\u30ff]", n) for n in named[yuki])
    assert all(re.search("[а-я]", n) for n in named[ivan])
    # the same events, cut the same way, whatever the language: only the words differ
    assert without_words(watcher, hand) == without_words(english, hand)
    assert texts(english, hand)[0].startswith("Hand #1: Omaha Hi/Lo, eight or better")
    kinds = [[e["kind"] for e in without_words(c, hand)] for c in (yuki, ivan, watcher)]
    assert kinds[0] == kinds[1] == kinds[2]


def test_a_language_the_room_does_not_speak_is_refused_by_name(room: RoomServer) -> None:
    client = Client(room, None, hello=False)
    client.send({"type": "hello", "lang": "de"})
    error = client.wait(lambda f: f["type"] == "error")
    assert error["code"] == "bad_message"
    assert error["message"] == (
        'hello.lang must be a language the room speaks (en, ja, ru), not "de"'
    )
    client.send({"type": "hello"})  # nothing changed: a hello without a language is English
    assert client.wait(lambda f: f["type"] == "welcome")["lang"] == "en"


def test_the_rooms_own_words_come_in_each_listeners_language(room: RoomServer) -> None:
    """The host pauses and resumes: the host event's text in Japanese to her, in Russian
    to a Russian watcher, in English to an English one; its fields the same for all."""
    _, yuki_token = room.guest("Yuki")
    table = room.create_table(yuki_token, name="Host words", seats=2)["table"]["id"]
    yuki = Client(room, yuki_token, lang="ja")
    ivan, ann = Client(room, None, lang="ru"), Client(room, None)
    for client in (yuki, ivan, ann):
        client.state(table)
    yuki.send({"type": "host", "table": table, "action": "pause"})
    heard = [
        client.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")["event"]
        for client in (yuki, ivan, ann)
    ]
    assert [event["text"] for event in heard] == [
        "ホストがゲームを一時停止しました",
        "Хост ставит игру на паузу",
        "The host pauses the game",
    ]
    assert len({str({k: v for k, v in e.items() if k != "text"}) for e in heard}) == 1


def test_a_refusal_comes_in_the_players_language(room: RoomServer) -> None:
    """The error's code stays English, its message is the player's; a bad field names
    the field and its value in any language; nothing changed."""
    (_, yuki_token), (_, ivan_token) = room.guest("Yuki"), room.guest("Ivan")
    table = room.create_table(yuki_token, name="Refusals", seats=2)["table"]["id"]
    yuki, ivan = Client(room, yuki_token, lang="ja"), Client(room, ivan_token, lang="ru")
    yuki.sit(table, 1, 100)
    taken = ivan.error({"type": "sit", "table": table, "seat": 1, "buy_in": 100})
    assert (taken["code"], taken["message"]) == ("seat_taken", "место 1 занято")
    bad = yuki.error({"type": "sit", "table": table, "seat": 2, "buy_in": "a lot"})
    assert bad["code"] == "bad_message"
    assert bad["message"] == (
        'sit.buy_inは1〜1000000000000の整数でなければなりません（"a lot"でした）'
    )
    english = Client(room, None).error({"type": "sit", "table": table, "seat": 2, "buy_in": 5})
    assert english["message"] == "a watcher may only watch: say hello with a token"
    seated = [s["player"] for s in ivan.state(table)["seats"] if s and s.get("player")]
    assert seated == [yuki.welcome["player"]["id"]]  # the refusals changed nothing


def test_the_hand_helper_and_the_pages_catalogue_in_a_language(room: RoomServer) -> None:
    query = {"hole": "AsKs2d3d", "board": "Jd4d3c5h9s"}
    with room.http() as http:
        russian = http.get("/api/helper", params=query | {"lang": "ru"}).json()
        english = http.get("/api/helper", params=query).json()
        two = http.get("/api/helper", params=query | {"board2": "KdKh7c5s8h"}).json()
        refused = http.get("/api/helper", params=query | {"lang": "de"})
        catalogue = http.get("/api/languages/ja")
        unknown = http.get("/api/languages/de")
    assert russian["text"] == "стрит от туза до пятёрки · лоу велосипед, 5,4,3,2,A"
    assert english["text"] == "a straight, Ace to Five · low the wheel, 5,4,3,2,A"
    assert russian["high"]["cards"] == english["high"]["cards"]
    assert "boards" not in english
    assert [(b["board_number"], b["text"]) for b in two["boards"]] == [
        (1, "a straight, Ace to Five · low the wheel, 5,4,3,2,A"),
        (2, "three of a kind, Kings · low 8,7,5,2,A"),
    ]
    assert refused.status_code == 400
    assert (
        refused.json()["error"]["message"] == "splitpot does not speak 'de': it speaks en, ja, ru"
    )
    body = catalogue.json()
    assert (catalogue.status_code, body["lang"], body["name"]) == (200, "ja", "日本語")
    assert [entry["lang"] for entry in body["languages"]] == ["en", "ja", "ru"]
    assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"


def test_the_http_apis_refusals_follow_accept_language(room: RoomServer) -> None:
    """The code stays English; the message is the asker's (the page sends its language)."""
    with room.http() as http:
        assert http.post("/api/accounts", json={"name": "Kim", "password": "right-one"}).is_success
        taken = http.post(
            "/api/accounts",
            json={"name": "kim", "password": "another-one"},
            headers={"Accept-Language": "ja"},
        )
        wrong = http.post(
            "/api/sessions",
            json={"name": "Kim", "password": "wrong-one"},
            headers={"Accept-Language": "ru-RU,ru;q=0.9"},
        )
        english = http.post("/api/sessions", json={"name": "Kim", "password": "wrong-one"})
    assert taken.status_code == 409
    assert taken.json()["error"] == {
        "code": "name_taken",
        "message": "名前'kim'はすでに使われています",
    }
    assert wrong.status_code == 401
    assert wrong.json()["error"] == {
        "code": "unauthorized",
        "message": "неизвестное имя или неверный пароль",
    }
    assert english.json()["error"]["message"] == "unknown name or wrong password"


def test_the_engines_refusals_come_in_each_players_language(room: RoomServer) -> None:
    """An illegal action (a check facing a bet, a raise below the minimum, a bet where
    there is one) is refused with the code ``illegal_action`` and the engine's sentence
    in the player's language, its numbers filled in; nothing changed."""
    (_, yuki_token), (_, ivan_token) = room.guest("Yuki"), room.guest("Ivan")
    table = room.create_table(yuki_token, name="Illegal", seats=2)["table"]["id"]
    yuki, ivan = Client(room, yuki_token, lang="ja"), Client(room, ivan_token, lang="ru")
    yuki.state(table)
    yuki.send({"type": "host", "table": table, "action": "pause"})
    yuki.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    yuki.sit(table, 1, 100)
    ivan.sit(table, 2, 100)
    yuki.skip()
    yuki.send({"type": "host", "table": table, "action": "resume"})
    hand = yuki.wait(is_event("hand_started"))["event"]["hand"]
    yuki.send({"type": "host", "table": table, "action": "pause"})
    yuki.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    first = yuki.state(table)["hand"]["to_act"]  # heads-up: the button's small blind
    players = {1: yuki, 2: ivan}
    small, big = players[first], players[3 - first]
    act = {"type": "act", "table": table, "hand": hand}
    said = {
        yuki: {
            "check": "チェックできません：コールに1必要です",
            "raise": "3へのレイズは最小額4を下回っています",
            "bet": "ベットできません：すでに2のベットがあります。レイズしてください",
        },
        ivan: {
            "check": "чек невозможен: для колла нужно 1",
            "raise": "повышение до 3 меньше минимума 4",
            "bet": "ставка невозможна: уже есть ставка 2; повышайте (рейз)",
        },
    }
    before = small.state(table)
    check = small.error(act | {"action": "check"})
    low = small.error(act | {"action": "raise", "amount": 3})
    assert [(e["code"], e["message"]) for e in (check, low)] == [
        ("illegal_action", said[small]["check"]),
        ("illegal_action", said[small]["raise"]),
    ]
    assert small.state(table) == before  # nothing changed
    small.send(act | {"action": "call"})
    small.wait(lambda f: is_event("acted")(f) and f["event"]["action"] == "call")
    before = big.state(table)
    bet = big.error(act | {"action": "bet", "amount": 4})
    low = big.error(act | {"action": "raise", "amount": 3})
    assert [(e["code"], e["message"]) for e in (bet, low)] == [
        ("illegal_action", said[big]["bet"]),
        ("illegal_action", said[big]["raise"]),
    ]
    assert big.state(table) == before
    english = Client(room, None).state(table)
    assert english["hand"]["to_act"] == 3 - first  # the call stood, the refusals did not
