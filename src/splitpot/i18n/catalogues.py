"""The catalogues against the code: which messages the code says (Babel's extraction of
the ``Words`` calls, and the names the rules and cards give), what a language's ``.po``
misses or gets wrong, and bringing every ``.po`` up to date (``make messages``)."""

from __future__ import annotations

import io
import re
import string
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from splitpot.cards import RANK_NAMES
from splitpot.evaluate import Variant
from splitpot.i18n import DOMAIN, LANGUAGES, TERMINAL, WEB, Language
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit

SOURCE = Path(__file__).resolve().parent.parent  # src/splitpot
LOCALE = SOURCE / "locale"
# The calls that say a message (i18n.Words) and mark one (i18n.marked), as Babel reads them,
# and the core's refusals (rules.Refusal and its kinds: a sentence and its fields, which
# the room says in each player's language, room.refusals).
KEYWORDS: dict[str, tuple[int | tuple[int, str], ...] | None] = {
    "say": None,
    "say_n": (1, 2),
    "say_p": ((1, "c"), 2),
    "marked": None,
    "said": None,
    "said_n": (1, 2),
    "Refusal": None,
    "RulesError": None,
    "IllegalActionError": None,
    "TableError": None,
    "SettingsError": None,
    "TournamentError": None,
}
# Which source files say each Python domain's messages (Babel's method maps); the page's
# (WEB) are read from its scripts and pages by ``web_messages``.
TERMINAL_FILES = [
    "cli.py",
    "arguments.py",
    "session.py",
    "tui.py",
    "verify.py",
    "client/**.py",
    "server/limits.py",  # serve's --help
]
METHODS = {
    TERMINAL: [(pattern, "python") for pattern in TERMINAL_FILES],
    DOMAIN: [
        *((pattern, "ignore") for pattern in TERMINAL_FILES),
        ("**.py", "python"),
    ],
}
MessageId = str | tuple[str, str]  # a message, or its singular and plural
Key = tuple[MessageId, str | None]  # and its context


def named() -> Iterator[tuple[str | None, str]]:
    """Messages the code says by a name held elsewhere: the games and structures as the
    rules name them, and the ranks in each of their contexts (``dealer._rank``)."""
    for variant in Variant:
        yield None, variant.title
        yield None, variant.short_name
    for betting in (
        FixedLimit(2, 4),
        PotLimit(1, 2),
        NoLimit(1, 2),
        Mixed(FixedLimit(2, 4), PotLimit(1, 2)),
    ):
        yield None, betting.name
    for name in RANK_NAMES:
        yield "rank", name
        yield "rank of", name
        yield "ranks of", name + ("es" if name == "Six" else "s")
    yield "list", ", "


def template(domain: str = DOMAIN) -> Catalog:
    """Every message of ``domain`` the code says, with where it says it."""
    catalogue = Catalog(domain=domain, project="splitpot", charset="utf-8")
    if domain in METHODS:
        for found in extract_from_dir(
            str(SOURCE), METHODS[domain], keywords=KEYWORDS, comment_tags=("Translators:",)
        ):
            filename, line, message, comments, context = found
            catalogue.add(
                message,
                locations=[(filename, line)],
                auto_comments=comments,
                context=context,
            )
        for context, message in named() if domain == DOMAIN else ():
            catalogue.add(message, context=context)
    else:
        for message, context in web_messages():
            catalogue.add(message, context=context)
    return catalogue


def web_messages() -> list[tuple[str, str | None]]:
    """The page's messages: each ``t("...")`` and ``tn("...", "...")`` of its scripts and
    each ``data-i18n`` text of its pages (the page has no build step: read as text)."""
    found: list[tuple[str, str | None]] = []
    web = SOURCE / "web"
    call = re.compile(
        r"""\bt(n?)\(\s*(["'`])((?:\\.|(?!\2).)*)\2(?:\s*,\s*(["'`])((?:\\.|(?!\4).)*)\4)?"""
    )
    for script in sorted(web.rglob("*.js")):
        for plural, _, first, _, second in call.findall(script.read_text(encoding="utf-8")):
            found.append(((first, second) if plural else first, None))  # type: ignore[arg-type]
    attribute = re.compile(r'data-i18n(?:-[a-z]+)*="([^"]+)"')
    for page in sorted(web.rglob("*.html")):
        found += [(text, None) for text in attribute.findall(page.read_text(encoding="utf-8"))]
    return found


def po_path(lang: Language, domain: str = DOMAIN) -> Path:
    return LOCALE / lang.value / "LC_MESSAGES" / f"{domain}.po"


def read(lang: Language, domain: str = DOMAIN) -> Catalog:
    path = po_path(lang, domain)
    if not path.exists():
        return Catalog(
            locale=lang.value,
            domain=domain,
            project="splitpot",
            copyright_holder="the splitpot authors",
            msgid_bugs_address="",
            last_translator="splitpot",
            language_team=lang.native_name,
            fuzzy=False,
        )
    with path.open("rb") as file:
        return read_po(file, locale=lang.value, domain=domain)


def update(lang: Language, domain: str = DOMAIN) -> Path:
    """Bring a language's catalogue up to date with the code: new messages added
    (untranslated), gone ones dropped, translations kept. The path written."""
    catalogue = read(lang, domain)
    wanted = template(domain)
    wanted.creation_date = catalogue.creation_date  # unchanged messages: an unchanged file
    catalogue.update(wanted, no_fuzzy_matching=True)
    catalogue.obsolete.clear()
    catalogue.fuzzy = False
    path = po_path(lang, domain)
    path.parent.mkdir(parents=True, exist_ok=True)
    written = io.BytesIO()
    write_po(written, catalogue, width=100, omit_header=False, sort_output=False)
    path.write_bytes(written.getvalue())
    return path


def fields(text: str) -> set[str]:
    """The placeholders of a message: {name}, {amount}, ..."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def problems(lang: Language, domain: str = DOMAIN) -> list[str]:
    """What the language's catalogue gets wrong: a message the code says that it lacks or
    leaves untranslated or fuzzy, a translation whose placeholders differ from the
    message's, a plural form missing."""
    catalogue = read(lang, domain)
    found: list[str] = []
    for wanted in template(domain):
        if not wanted.id:
            continue
        have = catalogue.get(wanted.id, context=wanted.context)
        label = _label(wanted)
        if have is None:
            found.append(f"{lang.value}: missing {label}")
            continue
        if have.fuzzy:
            found.append(f"{lang.value}: fuzzy {label}")
        found += [f"{lang.value}: {problem} in {label}" for problem in _checked(have, catalogue)]
    return found


def _checked(message: Message, catalogue: Catalog) -> Iterator[str]:
    ids = message.id if isinstance(message.id, tuple | list) else (message.id,)
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    if isinstance(message.id, tuple | list) and len(strings) != catalogue.num_plurals:
        yield f"{len(strings)} plural forms, not {catalogue.num_plurals}"
    wanted = set().union(*(fields(text) for text in ids))
    for text in strings:
        if not text:
            yield "no translation"
        elif fields(text) - wanted or (
            fields(text) != wanted and not isinstance(message.id, tuple | list)
        ):
            yield f"placeholders {sorted(fields(text))}, not {sorted(wanted)}"


def _label(message: Message) -> str:
    text = message.id[0] if isinstance(message.id, tuple | list) else message.id
    context = f" ({message.context})" if message.context else ""
    return f"{text!r}{context}"


def main() -> None:
    """Update every language's catalogues and say what each still lacks."""
    for lang in LANGUAGES:
        if lang is Language.ENGLISH:
            continue
        for domain in (DOMAIN, TERMINAL, WEB):
            path = update(lang, domain)
            left = problems(lang, domain)
            print(f"{path.relative_to(SOURCE.parent)}: {len(left)} to translate or mend")


if __name__ == "__main__":
    main()
