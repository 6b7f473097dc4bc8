"""``splitpot serve`` at its start: a port another program holds is named in one line
(exit 2, nothing printed of where to go), and a room listening on every interface names
the address friends on the network reach it at."""

from __future__ import annotations

import socket
import subprocess
import sys

from room_helpers import free_port

from splitpot.server.main import claim_port, network_addresses


def test_a_taken_port_is_named_in_one_line_before_anything_else(tmp_path: object) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        done = subprocess.run(
            [sys.executable, "-m", "splitpot.cli", "serve", "--port", str(port),
             "--db", f"sqlite:///{tmp_path}/room.sqlite3"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
    finally:
        taken.close()
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        f"splitpot serve: error: 127.0.0.1:{port} is taken by another program (a room "
        "already running?): choose another with --port (make run PORT=8001) or --host\n"
    )
    assert "open in a browser" not in done.stdout


def test_an_address_not_of_this_machine_is_refused() -> None:
    try:
        claim_port("192.0.2.1", free_port())
    except ValueError as error:
        assert str(error).startswith("192.0.2.1:")
        assert "is not an address of this machine" in str(error)
    else:
        raise AssertionError("listening on another machine's address")


def test_the_network_address_is_one_of_this_machine_and_not_a_loopback_one() -> None:
    for address in network_addresses():
        assert not address.startswith("127.")
        with socket.socket() as probe:
            probe.bind((address, 0))  # an address of this machine


def test_the_kernels_are_loaded_before_the_room_serves() -> None:
    """Numba reads a compiled kernel from its cache at the kernel's first call: a room's
    first showdown and first all-in equity would pay that on its loop (docs/load.md), so
    ``serve`` loads them first. In a fresh process: none loaded on import, all after."""
    probe = (
        "from splitpot.equity import _kernels as equity\n"
        "from splitpot.evaluate import _kernels as evaluate\n"
        "from splitpot.server.main import load_kernels\n"
        "kernels = (evaluate.best_combination, equity.enumerate_boards)\n"
        "print([len(k.signatures) for k in kernels])\n"
        "load_kernels()\n"
        "print([len(k.signatures) for k in kernels])\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.splitlines() == ["[0, 0]", "[1, 1]"]
