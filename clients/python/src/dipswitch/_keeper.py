"""The keeper of a container a client started: ``python -m dipswitch._keeper OWNER MARKER ENGINE ID``.

It runs in a session of its own and watches the owner (the test process; with pytest-xdist, the controller):
once the owner is gone, however it ended, or when the keeper is sent SIGTERM (a stop), it removes the container
(``ENGINE rm -f``). Last, it removes MARKER: a stop waits for that. A command's server needs no keeper: it ends
with its owner by itself (``--parent-pid``, docs/clients.md).
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import List


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def main(argv: List[str]) -> int:
    owner, marker, engine, container = int(argv[0]), argv[1], argv[2], argv[3]
    stopping = False

    def stop(_signum: int, _frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while not stopping and alive(owner):
            time.sleep(0.1)
        subprocess.run([engine, "rm", "-f", container], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        return 0
    finally:
        try:
            os.unlink(marker)
        except FileNotFoundError:
            pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
