"""Who the terminal client is at each room: the guest token the room gave it, kept in the
user's data folder by room address and name, so that coming back is the same player (one
line in the settle-up and the ledger, not two players of one name)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from platformdirs import user_data_dir

FOLDER_VARIABLE = "SPLITPOT_CLIENT_DATA"  # the client's folder, instead of the user's own


def client_folder() -> Path:
    """The terminal client's folder: $SPLITPOT_CLIENT_DATA, else the user's data folder."""
    return Path(os.environ.get(FOLDER_VARIABLE) or user_data_dir("splitpot"))


def default_file() -> Path:
    """Where the identities are kept by default."""
    return client_folder() / "identities.json"


class Identities:
    """The tokens kept in ``path``: one a room address and name. A file that cannot be
    read counts as empty (the next guest made is kept in its place)."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def token(self, room: str, name: str) -> str | None:
        """The token kept for ``name`` at ``room``, if any."""
        token = self._read().get(_room_key(room), {}).get(name)
        return token if isinstance(token, str) and token else None

    def keep(self, room: str, name: str, token: str) -> None:
        """Keep ``token`` for ``name`` at ``room`` (readable by the user alone: it lets
        whoever holds it play as them). An ``OSError`` says why it could not be kept."""
        kept = self._read()
        kept.setdefault(_room_key(room), {})[name] = token
        self.path.parent.mkdir(parents=True, exist_ok=True)
        draft = self.path.with_suffix(".tmp")
        opened = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(opened, "w", encoding="utf-8") as out:
            json.dump(kept, out, indent=1, sort_keys=True)
        draft.replace(self.path)

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            kept = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(kept, dict):
            return {}
        return {room: names for room, names in kept.items() if isinstance(names, dict)}


def _room_key(room: str) -> str:
    """A room's address as it is kept: http://host:8000/ and http://host:8000 are one."""
    return room.strip().rstrip("/")


__all__ = ["FOLDER_VARIABLE", "Identities", "client_folder", "default_file"]
