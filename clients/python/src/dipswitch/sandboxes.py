"""Clients of a server and of its sandboxes: each with the areas of the control API, acting with its credentials."""
from __future__ import annotations

import os
from typing import Any, Dict, List, Optional, cast

from ._core import Core, calls
from ._generated import AccountDeleted, AccountList, AccountListAccountsItem, HealthResponse, ReadyResponse, ResetRequest, ResetResult, SandboxMade, SandboxMadeKeys, SandboxRequest
from .clock import Clock
from .coverage import CoverageArea
from .deliveries import Deliveries
from .faults import Faults
from .inbound import Inbound
from .requests import Requests
from .snapshots import Snapshots
from .states import States


class Client(Core):
    """What every client shares: the areas of the control API, health, reset, and sandboxes of its run."""

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
        self.clock = Clock(self)
        self.inbound = Inbound(self)
        self.faults = Faults(self)
        self.requests = Requests(self)
        self.deliveries = Deliveries(self)
        self.snapshots = Snapshots(self)
        self.states = States(self)
        self.coverage = CoverageArea(self)

    @calls("simHealth")
    def health(self) -> HealthResponse:
        """Liveness: answers once the server accepts requests, and while its database is away."""
        return cast(HealthResponse, self.call("simHealth"))

    @calls("simReady")
    def ready(self) -> ReadyResponse:
        """Readiness: answers while the server's store answers; ControlError 503 storage_unavailable while it does not."""
        return cast(ReadyResponse, self.call("simReady"))

    @calls("simReset")
    def reset(self, remove_sandboxes: bool = False) -> ResetResult:
        """With a key: its account back to how it began. Without: the fixture accounts; sandboxes kept unless asked."""
        body: ResetRequest = {"remove_sandboxes": True} if remove_sandboxes else {}
        return cast(ResetResult, self.call("simReset", body=body))

    @calls("simCreateSandbox")
    def sandbox(self, name: Optional[str] = None, run: Optional[str] = None) -> "Sandbox":
        """A fresh sandbox of the run (the client's, else DIPSWITCH_RUN) and a client that acts on it alone."""
        body: SandboxRequest = {}
        if name is not None:
            body["name"] = name
        of_run = run or self.run or os.environ.get("DIPSWITCH_RUN") or None
        if of_run is not None:
            body["run"] = of_run
        return Sandbox(self, cast(SandboxMade, self.call("simCreateSandbox", body=body)))


class Sandbox(Client):
    """A sandbox: its id, name, run, keys and numbers, and a client that acts on it alone (its admin key)."""

    def __init__(self, parent: "Client", made: SandboxMade):
        super().__init__(parent.url, made["keys"]["admin"], parent.admin_token, made.get("run"), parent.receiver_host)
        self.made = made
        self.id: str = made["id"]
        self.name: str = made["name"]
        self.keys: SandboxMadeKeys = made["keys"]
        self.numbers: List[str] = made["numbers"]

    @calls("simDeleteAccount")
    def remove(self) -> AccountDeleted:
        """Removes the sandbox and everything it owns (its coverage is kept with its run)."""
        return cast(AccountDeleted, self.call("simDeleteAccount", {"id": self.id}))


class Server(Client):
    """The server with the control API's own authority (its admin token, where it has one)."""

    @calls("simAccounts")
    def accounts(self) -> List[AccountListAccountsItem]:
        """Every account with its keys."""
        return cast(AccountList, self.call("simAccounts"))["accounts"]

    @calls("simMetrics")
    def metrics(self) -> str:
        """The server's metrics in Prometheus's text format."""
        return cast(str, self.call("simMetrics"))

    @calls("simOpenapi")
    def openapi(self) -> Dict[str, Any]:
        """The control API's contract."""
        return cast(Dict[str, Any], self.call("simOpenapi"))

    @calls("simListScenarios")
    def scenarios(self) -> Dict[str, Any]:
        """The catalogue of scenarios."""
        return cast(Dict[str, Any], self.call("simListScenarios"))

    @calls("simScenario")
    def run_scenario(self, name: str) -> Dict[str, Any]:
        """Runs a scenario on the server and answers its timeline."""
        return cast(Dict[str, Any], self.call("simScenario", {"name": name}))
