"""The command line's parser in a language: its help and usage errors (argparse's own
words among them) said in the language the command line asks for (``--lang``, else the
locale), read before the parser is built."""

from __future__ import annotations

import argparse
import os
import re
import sys
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import Any, NoReturn, TypeVar

from splitpot.i18n import (
    ENGLISH,
    LANGUAGES,
    Language,
    Words,
    is_language_tag,
    language,
    marked,
    negotiate,
)

EXIT_BAD_INPUT = 2
_T = TypeVar("_T")


def typed(convert: Callable[[str, Words], _T], words: Words) -> Callable[[str], _T]:
    """An argparse ``type`` that refuses a value in ``words``' language; named as
    ``convert`` (argparse names it in "invalid ... value" when it fails otherwise)."""

    def converted(text: str) -> _T:
        return convert(text, words)

    converted.__name__ = converted.__qualname__ = convert.__name__
    return converted


def language_option(text: str, words: Words = ENGLISH) -> Language:
    try:
        return language(text)
    except ValueError:
        if not is_language_tag(text):
            said = words.say(
                "{given} is not a language tag (such as en, ja or ru)", given=repr(text)
            )
        else:
            spoken = ", ".join(each.value for each in LANGUAGES)
            said = words.say(
                "splitpot does not speak {given}: it speaks {languages}",
                given=repr(text),
                languages=spoken,
            )
        raise argparse.ArgumentTypeError(said) from None


def add_lang(parser: argparse.ArgumentParser, words: Words) -> None:
    """The ``--lang`` of every command that prints words for a person."""
    parser.add_argument(
        "--lang",
        type=typed(language_option, words),
        default=None,
        help=words.say(
            "the language of the words: en, ja or ru (default: the locale's, from "
            "LC_ALL, LC_MESSAGES or LANG; else English)"
        ),
    )


def locale_language() -> Language:
    """The language the environment's locale asks for (LC_ALL, LC_MESSAGES, LANG)."""
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        if os.environ.get(name):
            return negotiate(os.environ[name])
    return Language.ENGLISH


def asked_language(argv: Sequence[str]) -> Language:
    """The language a command line asks for, read before it is parsed so that its help and
    its usage errors are said in it: the last ``--lang X`` (or ``--lang=X``, or argparse's
    abbreviations ``--la``, ``--lan``) that names one splitpot speaks, else the locale's.
    A ``--lang`` splitpot does not speak is left for the parser to refuse."""
    asked = None
    tokens = iter(argv)
    for token in tokens:
        if token == "--":  # what follows is positional
            break
        option, equals, value = token.partition("=")
        if option not in ("--la", "--lan", "--lang"):
            continue
        if not equals:
            value = next(tokens, "")
        try:
            asked = language(value)
        except ValueError:
            continue
    return asked or locale_language()


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter in a language: "usage:" said in ``words``' language, and text
    with East Asian wide characters (Japanese, which puts no space between words) wrapped
    by the columns it takes, between any two of its characters."""

    def __init__(self, prog: str, *, words: Words = ENGLISH, **options: Any) -> None:
        super().__init__(prog, **options)
        self.words = words

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        if prefix is None:
            prefix = self.words.say("usage: ")
        super().add_usage(usage, actions, groups, prefix)

    def _format_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None,
    ) -> str:
        """argparse's usage, its lines under the first moved right by the columns its
        prefix takes beyond its length ("使い方: " takes 8 columns, 5 characters)."""
        text = super()._format_usage(usage, actions, groups, prefix)
        extra = 0 if prefix is None else display_width(prefix) - len(prefix)
        if extra <= 0:
            return text
        first, *rest = text.split("\n")
        return "\n".join([first, *(" " * extra + line if line.strip() else line for line in rest)])

    def _split_lines(self, text: str, width: int) -> list[str]:
        if not any(_wide(char) for char in text):
            return super()._split_lines(text, width)
        return _wrapped(" ".join(text.split()), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if not any(_wide(char) for char in text):
            return super()._fill_text(text, width, indent)
        lines = _wrapped(" ".join(text.split()), width - len(indent))
        return "\n".join(indent + line for line in lines)


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in "WF"


_NO_LINE_START = set("、。，．・：；！？）」』〕】ー々ぁぃぅぇぉっゃゅょァィゥェォッャュョ%),.:;!?")
_NO_LINE_END = set("（「『〔【([")


def _wrapped(text: str, width: int) -> list[str]:
    """Text in lines of at most ``width`` columns (a word longer than that alone on its
    line): a line breaks at a space, or between two characters of which one is wide, but
    not before closing punctuation nor after opening."""
    pieces: list[str] = []  # the text cut where a line may break (a space kept at its end)
    for char in text:
        if pieces and not pieces[-1].endswith(" "):
            last = pieces[-1][-1]
            breakable = (_wide(char) or _wide(last)) and char != " "
            if breakable and char not in _NO_LINE_START and last not in _NO_LINE_END:
                pieces.append(char)
                continue
            pieces[-1] += char
        else:
            pieces.append(char)
    lines: list[str] = []
    line = ""
    for piece in pieces:
        if line and display_width((line + piece).rstrip()) > width:
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines


# argparse's own messages, as its error() gets them (in English: argparse formats them
# before splitpot sees them), each read back into its fields and said in the parser's
# language; one that no pattern reads stays as argparse says it.
_ARGPARSE = tuple(
    (re.compile(pattern, re.DOTALL), message)
    for pattern, message in (
        (
            r"the following arguments are required: (?P<names>.+)",
            marked("the following arguments are required: {names}"),
        ),
        (
            r"one of the arguments (?P<names>.+) is required",
            marked("one of the arguments {names} is required"),
        ),
        (r"unrecognized arguments: (?P<given>.*)", marked("unrecognized arguments: {given}")),
        (
            r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)",
            marked("ambiguous option: {option} could match {matches}"),
        ),
        (
            r"invalid choice: (?P<given>.+) \(choose from (?P<choices>.+)\)",
            marked("invalid choice: {given} (choose from {choices})"),
        ),
        (r"invalid int value: (?P<given>.+)", marked("not a whole number: {given}")),
        (r"invalid (?P<type>\S+) value: (?P<given>.+)", marked("invalid {type} value: {given}")),
        (r"not allowed with argument (?P<name>.+)", marked("not allowed with argument {name}")),
        (r"expected one argument", marked("expected one argument")),
        (r"expected at most one argument", marked("expected at most one argument")),
        (r"expected at least one argument", marked("expected at least one argument")),
        (
            r"ignored explicit argument (?P<given>.+)",
            marked("ignored explicit argument {given}"),
        ),
    )
)
_ARGUMENT = re.compile(r"argument (?P<name>[^:\s]+): (?P<reason>.+)", re.DOTALL)


def argparse_words(message: str, words: Words) -> str:
    """One of argparse's own English messages in ``words``' language."""
    if words.language is Language.ENGLISH:
        return message
    argument = _ARGUMENT.fullmatch(message)
    if argument:
        reason = argparse_words(argument["reason"], words)
        return words.say("argument {name}: {reason}", name=argument["name"], reason=reason)
    for pattern, said in _ARGPARSE:
        found = pattern.fullmatch(message)
        if found:
            return words.say(said, **found.groupdict())
    return message


class ArgumentParser(argparse.ArgumentParser):
    """An argparse parser that speaks ``words``' language: the help and the usage errors,
    argparse's own words among them ("usage:", the section titles, the -h line, "error:"
    and the refusals argparse makes), without touching argparse's module or gettext's
    global domain (argparse says them through ``gettext.gettext`` of the process). Its
    subcommands' parsers are made with the same ``words`` (``add_parser(..., words=)``)."""

    def __init__(self, *, words: Words = ENGLISH, add_help: bool = True, **options: Any) -> None:
        options.setdefault("formatter_class", partial(HelpFormatter, words=words))
        super().__init__(add_help=False, **options)
        self.words = words
        self._positionals.title = words.say("positional arguments")
        self._optionals.title = words.say("options")
        if add_help:  # as argparse adds it, said in the language
            self.add_argument(
                "-h",
                "--help",
                action="help",
                default=argparse.SUPPRESS,
                help=words.say("show this help message and exit"),
            )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        said = self.words.say(
            "{prog}: error: {message}", prog=self.prog, message=argparse_words(message, self.words)
        )
        self.exit(EXIT_BAD_INPUT, said + "\n")


def display_width(text: str) -> int:
    """Columns a text takes in a terminal: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(char) in "WF" else 1 for char in text)
