"""Clients of a server and of its sandboxes: each with the areas of the control API, acting with its credentials.

The methods are generated (``dipswitch.api``); written here: a client's run and receiver host, and a sandbox
made as a client of its own.
"""
from __future__ import annotations

import os
from types import TracebackType
from typing import List, Optional, Type

from ._generated import SandboxMade, SandboxMadeKeys
from .api.client import ControlApi
from .api.sandbox import SandboxApi
from .api.server import ServerApi


class Client(ControlApi):
    """What every client shares: the areas of the control API, health, reset, coverage, and sandboxes of its run."""

    def __init__(
        self,
        url: str,
        key: Optional[str] = None,
        admin_token: Optional[str] = None,
        run: Optional[str] = None,
        receiver_host: str = "127.0.0.1",
    ):
        super().__init__(url, key, admin_token)
        self.run = run
        #: The address the server reaches this machine's loopback at: give it in a receiver's URL
        #: (127.0.0.1, or 10.0.2.2 / host.docker.internal for an image this client started).
        self.receiver_host = receiver_host

    def sandbox(self, name: Optional[str] = None, run: Optional[str] = None) -> "Sandbox":
        """A fresh sandbox of the run (the client's, else DIPSWITCH_RUN) and a client that acts on it alone."""
        of_run = run or self.run or os.environ.get("DIPSWITCH_RUN") or None
        return Sandbox(self, self.create_sandbox(name=name, run=of_run))


class Sandbox(Client, SandboxApi):
    """A sandbox: its id, name, run, keys and numbers, and a client that acts on it alone (its admin key).

    ``with sim.sandbox("name") as box:`` removes it however the block ends.
    """

    def __init__(self, parent: Client, made: SandboxMade):
        super().__init__(parent.url, made["keys"]["admin"], parent.admin_token, made.get("run"), parent.receiver_host)
        self.made = made
        self.id: str = made["id"]
        self.name: str = made["name"]
        self.keys: SandboxMadeKeys = made["keys"]
        self.numbers: List[str] = made["numbers"]

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.remove()


class Server(Client, ServerApi):
    """The server with the control API's own authority (its admin token, where it has one)."""
