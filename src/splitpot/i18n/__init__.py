"""The languages splitpot speaks: English, Japanese and Russian.

Messages are English source strings with named placeholders (``"{name} folds"``), marked
in the code by the calls of a ``Words`` (``say``, ``say_n`` for a count's plural forms,
``say_p`` for a message with a context) and kept, translated, in gettext catalogues:
``locale/<language>/LC_MESSAGES/<domain>.po``, read with Babel when first needed (no
build step) and used through the standard library's ``gettext``. Plural forms follow
CLDR (Russian: one, few, many). English is the source itself. The catalogues are
checked against the code by ``tests/test_i18n.py``; ``make messages`` refreshes them.
"""

from __future__ import annotations

import gettext
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from importlib import resources
from typing import Any

from babel import Locale
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

DOMAIN = "splitpot"  # the dealer's words and the room's messages
TERMINAL = "terminal"  # the terminal game and client, and the CLI's words for a person
WEB = "web"  # the page's words (served to the page as JSON)


class Language(StrEnum):
    ENGLISH = "en"
    JAPANESE = "ja"
    RUSSIAN = "ru"

    @property
    def native_name(self) -> str:
        """The language's name in itself, for a language menu."""
        return {"en": "English", "ja": "日本語", "ru": "Русский"}[self.value]


LANGUAGES = tuple(Language)
_TAG = re.compile(r"^[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*$")


def is_language_tag(text: str) -> bool:
    """Whether ``text`` reads as a language tag (ja, ru-RU, en_GB), spoken or not."""
    return isinstance(text, str) and bool(_TAG.match(text))


def language(tag: str) -> Language:
    """The language of a tag such as ``ja``, ``ru-RU`` or ``en_GB``; a clear error for
    one splitpot does not speak."""
    if not is_language_tag(tag):
        raise ValueError(f"{tag!r} is not a language tag (such as en, ja or ru)")
    primary = re.split(r"[-_]", tag, maxsplit=1)[0].lower()
    try:
        return Language(primary)
    except ValueError:
        spoken = ", ".join(lang.value for lang in LANGUAGES)
        raise ValueError(f"splitpot does not speak {tag!r}: it speaks {spoken}") from None


def negotiate(accepted: str | None) -> Language:
    """The language to answer an ``Accept-Language`` header (or a locale name such as
    ``ru_RU.UTF-8``) in: the most preferred one splitpot speaks, else English."""
    if not accepted:
        return Language.ENGLISH
    ranked: list[tuple[float, int, str]] = []
    for order, part in enumerate(accepted.split(",")):
        tag, _, params = part.strip().partition(";")
        quality = 1.0
        if params.strip().startswith("q="):
            try:
                quality = float(params.strip()[2:])
            except ValueError:
                quality = 0.0
        ranked.append((-quality, order, tag.split(".")[0].strip()))
    for quality, _, tag in sorted(ranked):
        if quality < 0:
            try:
                return language(tag)
            except ValueError:
                continue
    return Language.ENGLISH


@cache
def translations(lang: Language, domain: str = DOMAIN) -> gettext.NullTranslations:
    """The catalogue of ``domain`` in ``lang`` (English: the source strings themselves);
    another domain falls back on the dealer's."""
    if lang is Language.ENGLISH:
        return gettext.NullTranslations()
    catalogue = read_po(io.BytesIO(po_file(lang, domain).read_bytes()), locale=lang.value)
    catalogue.fuzzy = False  # the header (its plural forms), which Babel may mark fuzzy
    compiled = io.BytesIO()
    write_mo(compiled, catalogue)
    compiled.seek(0)
    translated = gettext.GNUTranslations(compiled)
    if domain != DOMAIN:  # the dealer's words, said in a terminal's or a page's sentence
        translated.add_fallback(translations(lang, DOMAIN))
    return translated


def po_file(lang: Language, domain: str) -> resources.abc.Traversable:
    return resources.files("splitpot") / "locale" / lang.value / "LC_MESSAGES" / f"{domain}.po"


@dataclass(frozen=True, slots=True)
class Words:
    """The words of one language: each call translates a message and fills its fields."""

    language: Language = Language.ENGLISH
    domain: str = DOMAIN

    def say(self, message: str, /, **fields: Any) -> str:
        return self._text().gettext(message).format(**fields)

    def say_n(self, singular: str, plural: str, count: int, /, **fields: Any) -> str:
        """A message about ``count`` things, in the plural form ``count`` takes here
        (``{count}`` is filled with the number as this language writes it)."""
        text = self._text().ngettext(singular, plural, count)
        return text.format(count=self.number(count), **fields)

    def say_p(self, context: str, message: str, /, **fields: Any) -> str:
        """A message whose translation depends on ``context`` (a rank's case, say)."""
        return self._text().pgettext(context, message).format(**fields)

    def number(self, value: int) -> str:
        """A whole number as this language writes it (English: digits alone, as the hand
        histories and the room always wrote them)."""
        if self.language is Language.ENGLISH:
            return str(value)
        return format_decimal(value, locale=self.language.value)

    def listed(self, items: Iterable[str]) -> str:
        """Names in a list: "Ann, Bob and Cy", "Ann、BobとCy", "Ann, Bob и Cy"."""
        names = list(items)
        if len(names) < 2:
            return "".join(names)
        comma = self.say_p("list", ", ")
        return self.say("{first} and {last}", first=comma.join(names[:-1]), last=names[-1])

    def _text(self) -> gettext.NullTranslations:
        return translations(self.language, self.domain)


ENGLISH = Words()


@dataclass(frozen=True, slots=True)
class Said:
    """A message said to listeners of many languages (the room's words to a table): its
    English source and its fields, put in each listener's words by ``to``."""

    message: str
    fields: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None  # with ``count``: a message about a count (``say_n``)
    count: int = 0

    def to(self, words: Words) -> str:
        """In ``words``' language (a field that is itself a ``Said`` too)."""
        fields = {k: v.to(words) if isinstance(v, Said) else v for k, v in self.fields}
        if self.plural is not None:
            return words.say_n(self.message, self.plural, self.count, **fields)
        return words.say(self.message, **fields)

    def __str__(self) -> str:
        return self.to(ENGLISH)

    def to_json(self) -> dict[str, Any]:
        """As one of the room's processes tells another (its fields are JSON values)."""
        fields = {k: {"said": v.to_json()} if isinstance(v, Said) else v for k, v in self.fields}
        return {
            "message": self.message,
            "fields": fields,
            "plural": self.plural,
            "count": self.count,
        }

    @classmethod
    def from_json(cls, body: dict[str, Any]) -> Said:
        fields = tuple(
            (k, cls.from_json(v["said"]) if isinstance(v, dict) and "said" in v else v)
            for k, v in dict(body["fields"]).items()
        )
        return cls(str(body["message"]), fields, body.get("plural"), int(body.get("count", 0)))


def said(message: str, /, **fields: Any) -> Said:
    """A message to say later, in each listener's language."""
    return Said(message, tuple(fields.items()))


def said_n(singular: str, plural: str, count: int, /, **fields: Any) -> Said:
    """A message about ``count`` things to say later, in each listener's language."""
    return Said(singular, tuple(fields.items()), plural, count)


def marked(message: str) -> str:
    """A message said elsewhere (looked up from a table of messages): marked here so
    that the catalogues hold it."""
    return message


def words(lang: Language | str | None, domain: str = DOMAIN) -> Words:
    """The words of a language (a ``Language`` or a tag; None: English) in ``domain``."""
    if lang is None:
        return Words(Language.ENGLISH, domain)
    return Words(lang if isinstance(lang, Language) else language(lang), domain)


def locale(lang: Language) -> Locale:
    return Locale.parse(lang.value)


def catalogue_json(lang: Language, domain: str = WEB) -> dict[str, Any]:
    """A catalogue for a page, as JSON: each message's translation (a plural message: its
    forms by CLDR category, which the page picks with ``Intl.PluralRules``), and the
    languages to choose from. English gives no messages: the page's own are English."""
    messages: dict[str, str | dict[str, str]] = {}
    if lang is not Language.ENGLISH:
        catalogue = read_po(io.BytesIO(po_file(lang, domain).read_bytes()), locale=lang.value)
        categories = plural_categories(lang)
        for message in catalogue:
            if not message.id or not message.string:
                continue
            key = message.id if isinstance(message.id, str) else message.id[0]
            if message.context:
                key = f"{message.context}\x04{key}"  # gettext's context separator
            if isinstance(message.string, str):
                messages[key] = message.string
            else:
                messages[key] = dict(zip(categories, message.string, strict=False))
    return {
        "lang": lang.value,
        "name": lang.native_name,
        "messages": messages,
        "languages": [{"lang": each.value, "name": each.native_name} for each in LANGUAGES],
    }


@cache
def plural_categories(lang: Language) -> tuple[str, ...]:
    """The CLDR plural category of each gettext plural form of the language, in order
    (Russian: one, few, many), found by trying numbers on both."""
    index = gettext.c2py(read_po(io.BytesIO(po_file(lang, DOMAIN).read_bytes())).plural_expr)
    forms: dict[int, str] = {}
    for number in range(200):
        forms.setdefault(index(number), locale(lang).plural_form(number))
    return tuple(forms[form] for form in sorted(forms))


__all__ = [
    "DOMAIN",
    "ENGLISH",
    "LANGUAGES",
    "TERMINAL",
    "WEB",
    "Language",
    "Said",
    "Words",
    "catalogue_json",
    "is_language_tag",
    "language",
    "locale",
    "marked",
    "negotiate",
    "plural_categories",
    "po_file",
    "said",
    "said_n",
    "translations",
    "words",
]
