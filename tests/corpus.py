"""Where the shared corpus of real hand histories lives, for the tests that replay it."""

from pathlib import Path

import pytest

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def corpus_files(kind: str) -> list[Path]:
    folder = CORPUS / kind
    if not folder.is_dir():
        pytest.skip(f"the shared corpus is absent: {folder} does not exist")
    return sorted(p for p in folder.rglob("*") if p.is_file())
