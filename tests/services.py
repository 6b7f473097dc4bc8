"""What a test needs of the machine (PostgreSQL, Redis, Chromium): missing, the test is
skipped, or failed where the environment requires the service (CI sets
SPLITPOT_REQUIRE_POSTGRES, SPLITPOT_REQUIRE_REDIS and SPLITPOT_REQUIRE_BROWSER)."""

from __future__ import annotations

import os
from typing import NoReturn

import pytest


def missing(reason: str, required_by: str) -> NoReturn:
    """Skip the test for ``reason``; fail it instead when $``required_by`` is 1."""
    if os.environ.get(required_by) == "1":
        pytest.fail(reason)
    pytest.skip(reason)
