"""The page's words: ``GET /api/languages/{lang}`` serves a language's catalogue of the
page's messages as JSON (the page has no build step: it loads its words from the room)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Path
from fastapi.responses import JSONResponse

from splitpot.i18n import catalogue_json, language
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
