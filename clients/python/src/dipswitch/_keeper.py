"""The keeper of a server a client started:
``python -m dipswitch._keeper OWNER MARKER (command ARGV… | container ENGINE ID)``.

It runs in a session of its own. For a command it runs the server itself, its output into MARKER (a file the
launcher reads for the server's address, and for its last lines when it fails). It watches the owner (the test
process; with pytest-xdist, the controller): once the owner is gone, however it ended, or when the keeper is sent
SIGTERM (a stop), it ends what it keeps: the server with SIGTERM (SIGKILL after 15 s), or the container with
``ENGINE rm -f``. A server that exits by itself ends the keeper too. Last, it removes MARKER: a stop waits for that.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import List, Optional


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def said(marker: str, what: str) -> None:
    """The keeper's own line in the server's output: why the server ended before it served."""
    with open(marker, "a") as log:
        log.write(f"\n[dipswitch keeper: {what}]\n")


def main(argv: List[str]) -> int:
    owner, marker, kind, rest = int(argv[0]), argv[1], argv[2], argv[3:]
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    server: Optional["subprocess.Popen[bytes]"] = None
    try:
        if kind == "command":
            with open(marker, "ab") as log:
                try:
                    server = subprocess.Popen(rest, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT)
                except OSError as e:
                    said(marker, f"it could not be run: {e}")
                    return 1
        while not stopping and alive(owner):
            if server is not None and server.poll() is not None:
                said(marker, f"exited with {server.returncode}")
                time.sleep(1)  # the launcher reads what it said before the marker goes
                return 0
            time.sleep(0.1)
        if server is not None:
            server.terminate()
            try:
                server.wait(timeout=15)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        elif kind == "container":
            subprocess.run([rest[0], "rm", "-f", rest[1]], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return 0
    finally:
        try:
            os.unlink(marker)
        except FileNotFoundError:
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
