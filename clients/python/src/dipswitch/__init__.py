"""A client of dipswitch's control API (contract/sim.yaml), for a Python team's tests. Standard library only.

``Dipswitch.connect(url, key=None, admin_token=None)`` reaches a running server; ``Dipswitch.start(...)``
starts one (an image, a command, the project's dipswitch, or a fetch when asked) and ends it with the
process. Settings come from the arguments, else the environment (``DIPSWITCH_URL``…), else defaults.
Every method calls one operation by its operationId (``OPERATIONS`` says which); the methods, and the request
and answer types, are generated from the contract (``dipswitch.api``, ``dipswitch.types``).
"""
from __future__ import annotations

from typing import List, Optional

from . import _generated as types
from ._core import OPERATIONS, ControlError, DipswitchError, VerificationError
from ._version import __version__
from .launch import LaunchError, Started, container_engine
from .launch import start as _start
from .receiver import Received, Receiver, verify_signature
from .sandboxes import Client, Sandbox, Server
from .settings import ENVIRONMENT, SettingError, Settings

__all__ = [
    "Dipswitch",
    "Client",
    "Sandbox",
    "Receiver",
    "Received",
    "verify_signature",
    "ControlError",
    "DipswitchError",
    "LaunchError",
    "SettingError",
    "VerificationError",
    "Settings",
    "ENVIRONMENT",
    "OPERATIONS",
    "container_engine",
    "types",
    "__version__",
]


for _public in (ControlError, DipswitchError, LaunchError, SettingError, VerificationError, Sandbox, Client, Receiver):
    _public.__module__ = __name__  # as a user names them: dipswitch.VerificationError


class Dipswitch(Server):
    """A dipswitch server: the control API with a key (an account's) or the admin token (the server's)."""

    started: Optional[Started] = None

    @classmethod
    def connect(cls, url: Optional[str] = None, key: Optional[str] = None, admin_token: Optional[str] = None) -> "Dipswitch":
        """A running server: `url`, else DIPSWITCH_URL; the admin token, else DIPSWITCH_ADMIN_TOKEN."""
        settings = Settings.resolve(url=url, admin_token=admin_token)
        if not settings.url:
            raise SettingError("no server to connect to: give a url or set DIPSWITCH_URL")
        return cls(settings.url, key, settings.admin_token, settings.run)

    @classmethod
    def start(
        cls,
        image: Optional[str] = None,
        command: Optional[List[str]] = None,
        admin_token: Optional[str] = None,
        container_engine: Optional[str] = None,
        fetch: Optional[bool] = None,
        timeout: float = 90.0,
    ) -> "Dipswitch":
        """A server: DIPSWITCH_URL's when set (and no image or command is given), else one started from the first of: `image` (DIPSWITCH_IMAGE), `command` (DIPSWITCH_COMMAND), the
        project's ``node_modules/.bin/dipswitch``, a fetch of this version (`fetch`, DIPSWITCH_FETCH). It ends
        when this process does, however that ends; ``stop()`` ends it sooner."""
        settings = Settings.resolve(
            image=image, command=command, admin_token=admin_token, container_engine=container_engine, fetch=fetch
        )
        if settings.url and not (image or command):
            return cls(settings.url, admin_token=settings.admin_token, run=settings.run)
        started = _start(settings, timeout=timeout)
        client = cls(started.url, admin_token=started.admin_token, run=settings.run, receiver_host=started.receiver_host)
        client.started = started
        return client

    def stop(self) -> None:
        """Ends a server this client started (SIGTERM: its pending writes finish)."""
        if self.started is not None:
            self.started.stop()
            self.started = None
