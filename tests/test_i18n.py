"""The languages: every catalogue holds every message the code says, with the same
placeholders; a language is chosen from a tag, a header or a locale; and the dealer says
a side pot, a scoop, a quartered low half and "no low" in Japanese and Russian as the
glossary (docs/glossary.md) words them."""

from __future__ import annotations

import json

import pytest
from test_dealer import (
    ANN_ALL_IN,
    ANN_ALL_IN_HOLES,
    NAMES,
    O8_POT_LIMIT,
    act,
    deal_cards,
    seat_players,
    told,
)

from splitpot.dealer import Scene
from splitpot.i18n import (
    DOMAIN,
    LANGUAGES,
    TERMINAL,
    WEB,
    Language,
    Said,
    language,
    negotiate,
    said,
    said_n,
    words,
)
from splitpot.i18n.catalogues import fields, problems, template
from splitpot.rules import NoLimit, Variant
from splitpot.table import TableConfig

JAPANESE, RUSSIAN = words(Language.JAPANESE), words(Language.RUSSIAN)


@pytest.mark.parametrize("domain", [DOMAIN, TERMINAL, WEB])
@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang is not Language.ENGLISH])
def test_every_catalogue_holds_every_message_with_its_placeholders(
    lang: Language, domain: str
) -> None:
    """What ``make messages`` reports: nothing missing, fuzzy or with other placeholders
    (run it, translate what it added, and this passes)."""
    assert problems(lang, domain) == []


def test_the_dealers_messages_are_found_in_the_code() -> None:
    """The extraction sees the dealer's sentences, the tables' marked ones, and the names
    the rules give (a catalogue check that found nothing would pass for nothing)."""
    found = {message.id for message in template(DOMAIN) if message.id}
    assert {"{name} folds", "{who} scoops {what}, {amount}", "Flop: {cards}"} <= found
    assert {"{name} posts the small blind, {amount}", "Omaha Hi/Lo, eight or better"} <= found
    assert len(found) > 100
    assert fields("{who} split {what}, {amount} each") == {"who", "what", "amount"}


def test_a_language_from_a_tag_a_header_or_a_locale() -> None:
    assert language("ja-JP") is Language.JAPANESE and language("ru_RU") is Language.RUSSIAN
    assert negotiate("ru-RU,ru;q=0.9,en-US;q=0.8") is Language.RUSSIAN
    assert negotiate("de-DE,de;q=0.9,ja;q=0.5,en;q=0.4") is Language.JAPANESE
    assert negotiate("fr, en;q=0.1") is Language.ENGLISH
    assert negotiate("ja_JP.UTF-8") is Language.JAPANESE
    assert negotiate(None) is Language.ENGLISH and negotiate("*;q=0") is Language.ENGLISH
    with pytest.raises(ValueError, match=r"splitpot does not speak 'de': it speaks en, ja, ru"):
        language("de")
    with pytest.raises(ValueError, match=r"'12 x' is not a language tag"):
        language("12 x")


def test_numbers_by_locale_and_names_listed() -> None:
    assert words(None).number(12500) == "12500"  # English: as the histories write it
    assert JAPANESE.number(12500) == "12,500"
    assert RUSSIAN.number(12500) == "12\xa0500"
    assert JAPANESE.listed(["Ann", "Bob", "Cy"]) == "Ann、BobとCy"
    assert RUSSIAN.listed(["Ann", "Bob", "Cy"]) == "Ann, Bob и Cy"


def lines_in(lang: Language, events: list, names: dict[int, str], scene: Scene) -> list[str]:  # type: ignore[type-arg]
    spoken = told(events, names, None, scene.speaking(words(lang)))
    return [line for text in spoken if text for line in text.split("\n")]


def test_a_side_pot_and_a_tied_low_in_japanese_and_russian() -> None:
    """Ann all in with her small blind: a side pot and a main pot, each split high/low."""
    table = seat_players(O8_POT_LIMIT, ANN_ALL_IN)
    events = deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    events += act(table, "call", "check", *["check"] * 6)
    japanese = lines_in(Language.JAPANESE, events, NAMES, Scene(Variant.O8))
    assert japanese[0] == (
        "ハンド #1：オマハ ハイ/ロー（エイトオアベター）、ポットリミット 1/2、ボタンは3番席"
    )
    assert japanese[-4:] == [
        "Bobがサイドポットのハイハーフを獲得、1、Jのワンペア",
        "BobとCyがサイドポットのローハーフで引き分け、1、7,6,3,2,A：端数チップはBobへ",
        "Annがメインポットのハイハーフを獲得、2、Kのスリーカード",
        "BobとCyがメインポットのローハーフで引き分け、1、7,6,3,2,A：端数チップはBobへ",
    ]
    russian = lines_in(Language.RUSSIAN, events, NAMES, Scene(Variant.O8))
    assert russian[:3] == [
        "Раздача №1: Омаха Хай-Лоу, 8 или ниже, Пот-лимит 1/2, баттон на месте 3",
        "Розыгрыш баттона: Ann 2c, Bob 2d, Cy As",
        "Ann ставит малый блайнд, 1, олл-ин",
    ]
    assert russian[-4:] == [
        "Bob выигрывает хай-половину (побочный банк), 1 — пара вальтов",
        "Bob и Cy: ничья за лоу-половину (побочный банк), 1 — 7,6,3,2,A: нечётная фишка — Bob",
        "Ann выигрывает хай-половину (основной банк), 2 — тройка королей",
        "Bob и Cy: ничья за лоу-половину (основной банк), 1 — 7,6,3,2,A: нечётная фишка — Bob",
    ]


def test_a_scoop_and_no_low_in_japanese_and_russian() -> None:
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Bob", 100)})
    events = deal_cards(table, {0: "Ac2c9h9d", 1: "KhKcQhJh"}, "3d4h5sKsQs", button=0)
    events += act(table, "call", "check", *["check"] * 6)
    assert lines_in(Language.JAPANESE, events, NAMES, Scene(Variant.O8))[-1] == (
        "Annがポットをスクープ、4、ロー：ホイール、5,4,3,2,A、ハイ：ストレート（Aから5）"
    )
    assert lines_in(Language.RUSSIAN, events, NAMES, Scene(Variant.O8))[-1] == (
        "Ann забирает весь банк (скуп), 4 — лоу велосипед, 5,4,3,2,A, "
        "хай — стрит от туза до пятёрки"
    )
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Cy", 100)})
    events = deal_cards(table, {0: "AcKc9h9d", 1: "AdKd9s9c"}, "3d4hJsKsQs", button=0)
    events += act(table, "call", "check", *["check"] * 6)
    names = {0: "Ann", 1: "Cy"}
    assert lines_in(Language.JAPANESE, events, names, Scene(Variant.O8))[-2:] == [
        "CyとAnnがポットをスプリット、各2、Kのワンペア",
        "ポット：ローにクォリファイするハンドなし",
    ]
    assert lines_in(Language.RUSSIAN, events, names, Scene(Variant.O8))[-2:] == [
        "Cy и Ann делят банк, по 2 — пара королей",
        "Нет лоу (банк): ни одна рука не квалифицируется (8 или ниже)",
    ]


def test_a_quartered_low_half_in_japanese_and_russian() -> None:
    """Pot 26: Ann's kings take the high half; Bob and Cy quarter the low half, 7 and 6."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=4)
    table = seat_players(config, {seat: (name, 100) for seat, name in NAMES.items()})
    holes = dict(enumerate(["KsKh9c9d", "Ah3cJhJc", "Ad3dTsTc", "8c8d5h5s"]))
    events = deal_cards(table, holes, "2c6d7hKcQd", button=0)
    events += act(table, "call", "call", "call", "raise 8", "fold", "call", "call", *["check"] * 9)
    scene = Scene(Variant.O8)
    assert lines_in(Language.JAPANESE, events, NAMES, scene)[-1] == (
        "BobとCyがポットのローハーフをスプリット、13、7,6,3,2,A：Bob 7（端数チップ）、Cy 6"
    )
    assert lines_in(Language.RUSSIAN, events, NAMES, scene)[-1] == (
        "Bob и Cy делят лоу-половину (банк), 13 — 7,6,3,2,A: Bob 7 (нечётная фишка), Cy 6"
    )


def test_a_count_takes_the_plural_form_of_its_language() -> None:
    """CLDR: Russian one (1, 21), few (2..4, 22), many (5..20, 25); Japanese one form."""
    message = (
        "{name} has sat out {count} hand and leaves",
        "{name} has sat out {count} hands and leaves",
    )
    left = {n: said_n(*message, n, name="Ann") for n in (1, 2, 5, 21, 22, 25)}
    assert [str(left[n]) for n in (1, 2)] == [
        "Ann has sat out 1 hand and leaves",
        "Ann has sat out 2 hands and leaves",
    ]
    assert [left[n].to(RUSSIAN).split(",")[0] for n in (1, 2, 5, 21, 22, 25)] == [
        "Ann: пропущена 1 раздача",
        "Ann: пропущены 2 раздачи",
        "Ann: пропущено 5 раздач",
        "Ann: пропущена 21 раздача",
        "Ann: пропущены 22 раздачи",
        "Ann: пропущено 25 раздач",
    ]
    assert left[5].to(JAPANESE) == "Annは5ハンドのあいだシットアウトしたため退席します"


def test_a_said_message_travels_between_processes_and_is_worded_there() -> None:
    """A refusal made in one process and told in another (the cluster's answer): its
    fields, nested messages and plural survive JSON and read the same in each language."""
    inner = said("a whole number from {least} to {most}", least=1, most=10)
    outer = said("{field} must be {must}, not {value}", field="sit.seat", must=inner, value="0")
    chat = said_n(
        "at most {count} chat line in {seconds} seconds",
        "at most {count} chat lines in {seconds} seconds",
        5,
        seconds="10",
    )
    for message in (outer, chat):
        back = Said.from_json(json.loads(json.dumps(message.to_json())))
        assert back == message
        assert [back.to(words(lang)) for lang in LANGUAGES] == [
            message.to(words(lang)) for lang in LANGUAGES
        ]
    assert str(outer) == "sit.seat must be a whole number from 1 to 10, not 0"
    assert outer.to(RUSSIAN) == "sit.seat: нужно целое число от 1 до 10, а не 0"


def test_the_cores_refusals_are_found_in_the_code_and_worded_in_each_language() -> None:
    """The engine's, the table's and the settings' refusals are sentences with fields
    (``rules.Refusal``): the extraction sees them, each language words them (a reason said
    inside one too), and their English is what it always was."""
    from splitpot.engine import IllegalActionError
    from splitpot.room.refusals import worded
    from splitpot.room.settings import SettingsError
    from splitpot.rules import Refusal
    from splitpot.table import TableError

    found = {message.id for message in template(DOMAIN) if message.id}
    assert {
        "cannot check: {owed} to call",
        "cannot bet: {reason}",
        "the stack only covers a call",
        "raise to {to} is below the minimum of {least}",
        "bet to {to} is above the pot-limit maximum of {most}",
        "{chips} more would make {stack}: the maximum is {most}",
        "the minimum buy-in {least} is above the maximum {most}",
        "small_blind {small} is above big_blind {big}",
        "{field} must be from {least} to {most}, not {value}",
    } <= found
    why = Refusal("the betting is capped at {cap} bets", cap=4)
    capped = IllegalActionError("cannot raise: {reason}", reason=why)
    assert str(capped) == "cannot raise: the betting is capped at 4 bets"
    told = worded(capped)
    assert isinstance(told, Said)
    assert told.to(JAPANESE) == "レイズできません：ベットは4回までのキャップに達しています"
    assert told.to(RUSSIAN) == "повышение (рейз) невозможно: торги ограничены 4 ставками (кэп)"
    assert Said.from_json(told.to_json()).to(RUSSIAN) == told.to(RUSSIAN)
    empty = TableError("seat {seat} is empty", seat=3)
    assert (str(empty), worded(empty).to(JAPANESE)) == ("seat 3 is empty", "3番席は空席です")
    blinds = SettingsError.passed(
        TableError("a table has 2 to {most} seats, not {seats}", most=10, seats=12)
    )
    assert worded(blinds).to(RUSSIAN) == "за столом от 2 до 10 мест, а не 12"
    assert worded(TableError.untranslated("not {a template}")) == "not {a template}"
