"""The command line and the terminal game in Japanese and Russian (``--lang``, else the
locale): the showdown's hands, equity, replay and verify reports, the offline game's
prompts and the dealer's lines, Russian plurals, and a language splitpot does not speak."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest
from test_verify import dealt_record

from splitpot.arguments import asked_language
from splitpot.cli import main
from splitpot.i18n import TERMINAL, Language, words

SPLIT = ["AsKs2d3d", "KhKd7c8c", "--board", "2c3c4hQdJs"]  # one takes the high, one the low


def run(capsys: pytest.CaptureFixture[str], *argv: str, code: int = 0) -> tuple[str, str]:
    assert main(list(argv)) == code
    out, err = capsys.readouterr()
    return out, err


@pytest.fixture(autouse=True)
def english_locale(monkeypatch: pytest.MonkeyPatch) -> None:
    """No language from the machine's locale: each test says its own."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def test_the_showdown_of_a_split_pot_in_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "showdown", "--lang", "ja", *SPLIT)
    assert out.splitlines() == [
        "オマハ ハイ/ロー（エイトオアベター）、ボード 2c 3c 4h Qd Js",
        "プレイヤー1：As Ks 2d 3d",
        "  ハイ：ツーペア（3と2）（3d 2d Qd 3c 2c）",
        "  ロー：ローなし",
        "  ポットの取り分：1/2",
        "プレイヤー2：Kh Kd 7c 8c",
        "  ハイ：Kのワンペア（Kh Kd Qd Js 4h）",
        "  ロー：8,7,4,3,2（8c 7c 4h 3c 2c）",
        "  ポットの取り分：1/2",
        "プレイヤー1がツーペア（3と2）でハイハーフを獲得",
        "プレイヤー2が8,7,4,3,2でローハーフを獲得",
    ]


def test_the_showdown_of_a_split_pot_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    out, _ = run(capsys, "showdown", "--lang", "ru", *SPLIT)
    assert out.splitlines() == [
        "Омаха Хай-Лоу, 8 или ниже; борд 2c 3c 4h Qd Js",
        "Игрок 1: As Ks 2d 3d",
        "  хай: две пары троек и двоек (3d 2d Qd 3c 2c)",
        "  лоу: нет лоу",
        "  доля банка: 1/2",
        "Игрок 2: Kh Kd 7c 8c",
        "  хай: пара королей (Kh Kd Qd Js 4h)",
        "  лоу: 8,7,4,3,2 (8c 7c 4h 3c 2c)",
        "  доля банка: 1/2",
        "Игрок 1 выигрывает хай-половину: две пары троек и двоек",
        "Игрок 2 выигрывает лоу-половину: 8,7,4,3,2",
    ]


def test_the_locale_picks_japanese_without_lang(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    out, _ = run(capsys, "showdown", *SPLIT)
    assert out.splitlines()[-1] == "プレイヤー2が8,7,4,3,2でローハーフを獲得"
    out, _ = run(capsys, "showdown", "--lang", "en", *SPLIT)  # --lang over the locale
    assert out.splitlines()[-1] == "Player 2 wins the low half with 8,7,4,3,2"


def test_a_language_splitpot_does_not_speak_is_refused(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["showdown", "--lang", "de", *SPLIT])
    assert stopped.value.code == 2
    assert "argument --lang: splitpot does not speak 'de': it speaks en, ja, ru" in (
        capsys.readouterr().err
    )


def test_equity_in_japanese_and_russian(capsys: pytest.CaptureFixture[str]) -> None:
    hands = ["AsKs2d3d", "KhKd7c8c", "--board", "2c3c4h"]
    out, _ = run(capsys, "equity", "--lang", "ru", *hands)
    lines = out.splitlines()
    assert lines[0].split() == ["рука", "эквити", "хай", "выигр.", "хай", "ничья", "лоу",
                                "выигр.", "лоу", "ничья", "скуп", "четверть", "3/4", "лоу",
                                "возм."]  # fmt: skip
    assert lines[1].split()[:2] == ["AsKs2d3d", "55,91%"]  # a decimal comma
    assert lines[-1] == "точно: все борды (820)"
    out, _ = run(capsys, "equity", "--lang", "ja", *hands)
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["ハンド", "エクイティ", "ハイ勝ち"]
    assert lines[1].split()[:2] == ["AsKs2d3d", "55.91%"]
    assert lines[-1] == "厳密：全820ボード"
    out, _ = run(capsys, "equity", "--lang", "ja", "AsKs2d3d", "*", "--samples", "2000")
    assert out.splitlines()[-1].startswith(
        "モンテカルロ：2,000回のディール、エクイティの標準誤差は最大"
    )


def test_replay_in_russian_and_japanese(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    history = tmp_path / "hands.txt"
    argv = ["simulate", "--hands", "2", "--seed", "3", "--seats", "3"]
    run(capsys, *argv, "--history-out", str(history))
    out, _ = run(capsys, "replay", "--check", "--lang", "ru", str(history))
    lines = out.splitlines()
    assert lines[0] == f"{history}: 2 раздачи (pokerstars)"
    assert lines[1] == "Раздача 1 (Omaha Hi/Lo Pot Limit)"
    assert lines.count("  совпадает с файлом") == 2
    assert any(" выигрывает " in line for line in lines)  # the dealer's words
    assert lines[-1] == "Совпадают с файлами: 2 из 2 раздач"
    out, _ = run(capsys, "replay", "--check", "--lang", "ja", str(history))
    lines = out.splitlines()
    assert lines[0] == f"{history}：2ハンド（pokerstars）"
    assert lines.count("  ファイルと一致") == 2
    assert lines[-1] == "2ハンド中2ハンドがファイルと一致"


def test_verify_in_russian_and_japanese(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    good, bad, empty = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "empty.json"
    record = dealt_record()
    good.write_text(json.dumps(record))
    seed = record["fairness"]["server_seed"]
    record["fairness"]["server_seed"] = ("0" if seed[0] != "0" else "1") + seed[1:]
    bad.write_text(json.dumps(record))
    empty.write_text("")
    out, _ = run(capsys, "verify", "--lang", "ru", str(good))
    assert out == "раздача t9-1: проверена (42 проверки)\n"
    out, _ = run(capsys, "verify", "--lang", "ja", str(good))
    assert out == "ハンド t9-1：検証済み（42件のチェック）\n"
    out, _ = run(capsys, "verify", "--lang", "ru", str(bad), code=1)
    assert out.splitlines()[0].startswith("раздача t9-1: ")
    assert out.splitlines()[0].endswith(" (42 проверки)")
    assert "НЕ ПРОЙДЕН" in out.splitlines()[0]
    assert out.splitlines()[1] == "  СБОЙ сид сервера: T = H(t)"
    out, _ = run(capsys, "verify", "--lang", "ja", str(bad), code=1)
    assert out.splitlines()[1] == "  失敗 サーバーシード：T = H(t)"
    out, _ = run(capsys, "verify", "--lang", "ja", "--chain", str(good), code=1)
    assert out.splitlines()[-2:] == [
        f"{good}：1ハンドのチェーン",
        "  失敗 ハンド t9-1：記録に chain がありません",
    ]
    _, err = run(capsys, "verify", "--lang", "ru", str(empty), code=2)
    assert err == f"{empty}: не удаётся прочитать: файл пуст\n"


def _play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: str, *args: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    argv = ["play", "--plain", "--seed", "2", "--seats", "3", "--structure", "limit", *args]
    out, _ = run(capsys, *argv)
    return out


def test_the_offline_game_in_russian(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The person's prompts and the picture in Russian, and the dealer's lines too (the
    offline room tells its scenes in the person's language)."""
    out = _play(monkeypatch, capsys, "check\ncall\nhelp\nlast\nquit\nquit\n", "--lang", "ru")
    lines = out.splitlines()
    assert lines[0] == "*** Раздача №1: Омаха Хай-Лоу, Фиксированный лимит 2/4 ***"
    assert "Bot 1 ставит малый блайнд, 1" in lines
    assert "Bot 2 ставит большой блайнд, 2" in lines
    assert "Место 1: Hero (баттон): 200" in lines
    assert "Борд: (пока нет)   Банк: 3" in lines
    assert "Ваш ход: fold, call 2, raise 4" in lines  # the commands stay as they are typed
    assert "Сейчас нельзя: cannot check: 2 to call." in lines  # the engine's reason, as said
    assert "Можно: fold, call 2, raise 4" in lines
    assert "Hero уравнивает 2" in lines
    assert "Команды:" in lines
    assert "Законченных раздач пока нет." in lines
    assert (
        "Выход сейчас сбросит ваши карты: вложенные 2 фишки будут потеряны. "
        "Введите quit ещё раз, чтобы выйти."
    ) in lines
    assert lines[-2:] == [
        "Сессия окончена: сыграна 1 раздача.",
        "Hero: 198 фишек, -2 к бай-ину 200.",
    ]
    assert not [line for line in lines if "Your move" in line or " posts " in line]


def test_the_offline_game_in_japanese(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, "call\n", "--lang", "ja")
    lines = out.splitlines()
    assert lines[0] == "*** ハンド #1：オマハ ハイ/ロー、リミット 2/4 ***"
    assert "1番席：Hero（ボタン）：200" in lines
    assert "あなたの番：fold, call 2, raise 4" in lines
    assert "Bot 1がスモールブラインド1をポスト" in lines  # the dealer's own words
    assert lines[-3:] == [
        "退出のためハンド #1 をフォールドしました：入れていた2チップは失われました。",
        "セッション終了：1ハンドをプレイしました。",
        "Hero：198チップ、バイイン200に対して-2。",
    ]


def test_an_offline_setting_refused_in_russian(capsys: pytest.CaptureFixture[str]) -> None:
    _, err = run(capsys, "play", "--lang", "ru", "--table", "abc", code=2)
    assert err == (
        "splitpot play: ошибка: --table и --invite требуют --server URL (офлайн стол только один)\n"
    )
    _, err = run(capsys, "simulate", "--lang", "ja", "--hands", "1", "--stakes", "3/2", code=2)
    assert err == (
        "splitpot simulate: エラー: pot-limit のステークスは"
        "スモールブラインドとビッグブラインドで、"
        "ビッグブラインドはスモール以上です（例：1/2。'3/2' ではありません）\n"
    )


@pytest.mark.parametrize(
    ("count", "said"),
    [
        (1, "Сессия окончена: сыграна 1 раздача."),
        (2, "Сессия окончена: сыграны 2 раздачи."),
        (5, "Сессия окончена: сыграно 5 раздач."),
        (11, "Сессия окончена: сыграно 11 раздач."),
        (21, "Сессия окончена: сыграна 21 раздача."),
        (1000, "Сессия окончена: сыграно 1\xa0000 раздач."),
    ],
)
def test_a_russian_count_takes_its_plural(count: int, said: str) -> None:
    russian = words("ru", TERMINAL)
    assert (
        russian.say_n(
            "Session over: {count} hand played.", "Session over: {count} hands played.", count
        )
        == said
    )


def test_a_russian_count_on_the_command_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out, _ = run(capsys, "simulate", "--lang", "ru", "--hands", "5", "--seed", "1")
    assert out.splitlines()[-2].startswith("5 раздач за ")
    out, _ = run(capsys, "simulate", "--lang", "ru", "--hands", "2", "--seed", "1")
    assert out.splitlines()[-2].startswith("2 раздачи за ")
    out, _ = run(capsys, "simulate", "--lang", "ru", "--hands", "1", "--seed", "1")
    assert out.splitlines()[-2].startswith("1 раздача за ")


# The help and the usage errors: the parser is built in the language asked for (--lang,
# read before parsing, else the locale), argparse's own words said through the catalogue.

COMMANDS = (
    "showdown", "serve", "verify", "replay", "play", "tournaments", "simulate", "equity"
)  # fmt: skip
CARDS = re.compile(r"(?:[2-9TJQKA][cdhs])+")
OPTION = re.compile(r"(?<![\w-])--?[a-z][a-z0-9-]*")
# the program and its commands, a default (o8), the languages' codes, a file's extension (.md)
KEPT = {"splitpot", *COMMANDS, "o8", "en", "ja", "ru", "md"}


def _help(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *argv: str, code: int = 0
) -> tuple[str, str]:
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps to the terminal's width
    with pytest.raises(SystemExit) as stopped:
        main(list(argv))
    assert stopped.value.code == code
    out, err = capsys.readouterr()
    return out, err


def english_words(text: str) -> list[str]:
    """The words of ``text`` that are English: not an option's name, a choice, a metavar
    (capitals: HAND, LANG; LC_ALL too), a card, the program's or a command's name."""
    text = CARDS.sub(" ", OPTION.sub(" ", re.sub(r"\{[^}]*\}", " ", text)))
    found = re.findall(r"[A-Za-z][A-Za-z_0-9]*", text)
    return [word for word in found if not word.isupper() and word not in KEPT]


def test_the_help_of_showdown_in_japanese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = _help(capsys, monkeypatch, "showdown", "--help", "--lang", "ja")
    lines = out.splitlines()
    assert lines[:3] == [
        "使い方: splitpot showdown [-h] [--lang LANG] --board BOARD",
        "                          [--variant {o8,omaha,bigo,o-hilo-noq}] [--json]",
        "                          HAND [HAND ...]",
    ]  # the lines under the first start below "splitpot", in columns
    assert "位置引数:" in lines
    assert "オプション:" in lines
    assert "  HAND                  ホールカード（例：AdKd3s2s）" in lines
    assert "  -h, --help            このヘルプを表示して終了する" in lines
    assert "  --board BOARD         ボードの3〜5枚（例：Jd4d3cQd5h）" in lines
    assert "                        ゲーム（既定値 o8）" in lines
    assert "  --json                JSON オブジェクトを1つ出力する" in lines
    assert english_words(out) == []


def test_the_help_of_splitpot_in_russian_from_the_locale(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    out, _ = _help(capsys, monkeypatch, "--help")
    lines = out.splitlines()
    assert lines[0] == "использование: splitpot [-h] [--version] COMMAND ..."
    assert "Покер Омаха Хай-Лоу: оценка комбинаций, вскрытие карт и многое другое." in lines
    assert "позиционные аргументы:" in lines
    assert "параметры:" in lines
    assert "  -h, --help   показать эту справку и выйти" in lines
    assert "  --version    показать версию программы и выйти" in lines
    assert "    simulate   боты играют раздачи за одним столом" in lines
    assert english_words(out) == []
    assert main([]) == 0  # no command: the same help
    assert capsys.readouterr().out == out


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("lang", ["ja", "ru"])
def test_every_command_s_help_is_in_the_language(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: str, lang: str
) -> None:
    monkeypatch.setenv("LANG", f"{lang}_XX.UTF-8")  # serve has no --lang: the locale's
    out, _ = _help(capsys, monkeypatch, command, "--help")
    said = words(lang, TERMINAL)
    assert out.startswith(said.say("usage: ") + f"splitpot {command} [-h]")
    assert said.say("options") + ":" in out.splitlines()
    for english in ("usage:", "options:", "positional arguments", "show this help", "default"):
        assert english not in out


def test_a_usage_error_in_russian_names_the_missing_argument(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, err = _help(capsys, monkeypatch, "showdown", "--lang", "ru", code=2)
    lines = err.splitlines()
    assert lines[0].startswith("использование: splitpot showdown [-h] [--lang LANG]")
    assert lines[-1] == "splitpot showdown: ошибка: нужны обязательные аргументы: HAND, --board"
    _, err = _help(capsys, monkeypatch, "showdown", "AsKs2d3d", "--lang=ru", code=2)
    assert (
        err.splitlines()[-1] == "splitpot showdown: ошибка: нужны обязательные аргументы: --board"
    )
    _, err = _help(capsys, monkeypatch, "equity", "--lang", "ru", "--variant", "zz", "*", code=2)
    assert err.splitlines()[-1] == (
        "splitpot equity: ошибка: аргумент --variant: недопустимое значение: 'zz' "
        "(выберите из 'o8', 'omaha', 'bigo', 'o-hilo-noq')"
    )


def test_splitpot_s_own_refusals_of_an_argument_in_japanese(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LC_ALL", "ja_JP.UTF-8")
    _, err = _help(capsys, monkeypatch, "serve", "--bots", "x", code=2)
    assert err.splitlines()[0].startswith("使い方: splitpot serve [-h]")
    assert err.splitlines()[-1] == (
        "splitpot serve: エラー: 引数 --bots：ボットの数は0〜9です（'x' ではありません）"
    )
    _, err = _help(capsys, monkeypatch, "verify", "--seat", "x", code=2)
    assert err.splitlines()[-1] == "splitpot verify: エラー: 引数 --seat：整数ではありません：'x'"
    _, err = _help(capsys, monkeypatch, "showdown", "--lang", "xx-!", "AsKs2d3d", code=2)
    assert err.splitlines()[-1] == (
        "splitpot showdown: エラー: 引数 --lang：'xx-!' は言語タグ（en、ja、ru など）ではありません"
    )


def test_the_english_help_and_errors_are_argparse_s(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out, _ = _help(capsys, monkeypatch, "showdown", "--help")
    lines = out.splitlines()
    assert lines[0] == "usage: splitpot showdown [-h] [--lang LANG] --board BOARD"
    assert "positional arguments:" in lines
    assert "options:" in lines
    assert "  -h, --help            show this help message and exit" in lines
    assert "                        game (default o8)" in lines
    assert out.isascii()
    for command in COMMANDS:
        out, _ = _help(capsys, monkeypatch, command, "--help", "--lang", "ja", "--lang", "en")
        assert out.startswith(f"usage: splitpot {command} [-h]")
        assert out.isascii()
    _, err = _help(capsys, monkeypatch, "showdown", code=2)
    assert err.splitlines()[-1] == (
        "splitpot showdown: error: the following arguments are required: HAND, --board"
    )


@pytest.mark.parametrize(
    ("argv", "asked"),
    [
        (["showdown", "--lang", "ja"], Language.JAPANESE),
        (["showdown", "--lang=ru", "--help"], Language.RUSSIAN),
        (["showdown", "--la", "ru"], Language.RUSSIAN),  # as argparse reads an abbreviation
        (["showdown", "--lang", "ja", "--lang", "ru"], Language.RUSSIAN),  # the last
        (["showdown", "--lang", "de"], Language.ENGLISH),  # refused later, by the parser
        (["replay", "--", "--lang", "ja"], Language.ENGLISH),  # a file's name
        (["showdown", "--lang"], Language.ENGLISH),
    ],
)
def test_the_language_asked_for_before_parsing(argv: list[str], asked: Language) -> None:
    assert asked_language(argv) is asked
