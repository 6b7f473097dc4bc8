"""Words for the page: ``GET /api/languages/{lang}`` serves a language's catalogue of the
page's messages as JSON (the page has no build step: it loads its words from the room),
and ``GET /api/helper`` names a player's best hands so far in the asker's language."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query, Request
from fastapi.responses import JSONResponse

from splitpot.evaluate import hand_help
from splitpot.i18n import catalogue_json, language, negotiate, words
from splitpot.protocol import ErrorCode, ProtocolError, encode_help
from splitpot.server.http import REFUSALS

router = APIRouter(prefix="/api", responses=REFUSALS)


@router.get("/languages/{lang}")
def page_catalogue(lang: str = Path(description="en, ja or ru")) -> JSONResponse:
    """The page's messages in ``lang`` (en: none, the page's own are English), each
    plural message's forms by CLDR category, and the languages to choose from."""
    try:
        chosen = language(lang)
    except ValueError as error:
        raise HTTPException(404, str(error)) from None  # not_found, naming the languages
    body: dict[str, Any] = catalogue_json(chosen)
    return JSONResponse(body, headers={"cache-control": "public, max-age=300"})


@router.get("/helper")
async def helper(
    request: Request,
    hole: Annotated[str, Query(max_length=64)],
    board: Annotated[str, Query(max_length=64)] = "",
    variant: Annotated[str, Query(max_length=16)] = "o8",
    lang: Annotated[str | None, Query(max_length=35)] = None,
    board2: Annotated[str, Query(max_length=64)] = "",
) -> Any:
    """The hand helper: ``hole``'s best high and low on ``board`` (cards as text,
    "AsKd5h2c"), and on ``board2`` too when a hand has two (RULES.md 7: a double board or
    a board run twice), in words of ``lang`` (else the request's Accept-Language). Pure
    arithmetic on cards the caller already sees: no table, no session."""
    try:
        asked = words(lang or negotiate(request.headers.get("accept-language")))
        first = hand_help(variant, hole, board)
        if not board2:
            return encode_help(first, asked)
        return encode_help(first, asked, (first, hand_help(variant, hole, board2)))
    except ValueError as error:  # a bad card, count, variant or language
        raise ProtocolError(ErrorCode.BAD_MESSAGE, str(error)) from error
