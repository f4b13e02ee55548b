"""A client of dipswitch's control API (contract/sim.yaml), for a Python team's tests.

Every method calls one operation of the control API by its operationId (OPERATIONS says which); nothing of
the server is reimplemented. ``Dipswitch.connect(url, key=None, admin_token=None)`` reaches a running server;
``Dipswitch.start(...)`` launches one (an image with docker or podman, or ``npx dipswitch``, or a command)
and stops it at exit. Standard library only.
"""
from __future__ import annotations

import atexit
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Dict, List, Optional

__all__ = ["Dipswitch", "Sandbox", "FaultRule", "ControlError", "VerificationError", "OPERATIONS"]

#: Each method of the client and the operationId of contract/sim.yaml it calls.
OPERATIONS: Dict[str, str] = {
    "health": "simHealth",
    "openapi": "simOpenapi",
    "reset": "simReset",
    "accounts": "simAccounts",
    "sandbox": "simCreateSandbox",
    "Sandbox.remove": "simDeleteAccount",
    "faults.add": "simAddFault",
    "faults.list": "simListFaults",
    "FaultRule.remove": "simDeleteFault",
    "requests.list": "simRequests",
    "requests.verify": "simVerifyRequests",
    "deliveries.list": "simDeliveries",
    "deliveries.verify": "simVerifyDeliveries",
    "deliveries.redeliver": "simRedeliver",
    "snapshots.list": "simListSnapshots",
    "snapshots.save": "simSaveSnapshot",
    "snapshots.restore": "simRestoreSnapshot",
    "clock.get": "simClock",
    "clock.advance": "simAdvance",
    "clock.freeze": "simFreeze",
    "clock.resume": "simResume",
    "inbound.sms": "simInboundSms",
    "inbound.mms": "simInboundMms",
    "inbound.call": "simInboundCall",
    "states.raise_overwrite": "simRaiseOverwrite",
    "states.move_order": "simMoveOrder",
    "states.move_request": "simMoveRequest",
    "states.abort_bulk_dip": "simAbortBulkDip",
    "states.schedule_bulk_dip": "simScheduleBulkDip",
    "states.suspend_user": "simSuspendUser",
    "states.reinstate_user": "simReinstateUser",
    "states.create_group": "simCreateGroup",
    "scenarios": "simListScenarios",
    "run_scenario": "simScenario",
    "coverage": "simCoverage",
    "metrics": "simMetrics",
}


class ControlError(Exception):
    """An answer the control API refused: its status and its error envelope."""

    def __init__(self, status: int, body: Any, operation: str):
        self.status = status
        self.body = body if isinstance(body, dict) else {}
        errors = self.body.get("errors") or []
        said = "; ".join(f"{e.get('code')}: {e.get('detail')}" for e in errors)
        super().__init__(f"{operation} answered {status}: {said}")


class VerificationError(AssertionError):
    """A verify whose count did not hold, with the nearest misses field by field."""

    def __init__(self, body: Dict[str, Any]):
        self.count: int = body.get("count", 0)
        self.expected: str = body.get("expected", "")
        self.near_misses: List[Dict[str, Any]] = body.get("near_misses") or []
        errors = body.get("errors") or [{}]
        lines = [errors[0].get("detail", "The verification failed.")]
        for miss in self.near_misses:
            lines.append(f"  near miss: {miss.get('summary')}")
            for d in miss.get("differences", []):
                lines.append(f"    {d['field']}: expected {json.dumps(d['expected'])}, got {json.dumps(d['actual'])}")
        if not self.near_misses:
            lines.append("  no call came near it")
        super().__init__("\n".join(lines))


def _call(url: str, headers: Dict[str, str], method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None, operation: str = "") -> Any:
    target = url.rstrip("/") + path
    if query:
        pairs = {k: v for k, v in query.items() if v is not None}
        if pairs:
            target += "?" + urllib.parse.urlencode(pairs)
    data = None
    sent = dict(headers)
    if body is not None:
        data = json.dumps(body).encode()
        sent["content-type"] = "application/json"
    request = urllib.request.Request(target, data=data, method=method, headers=sent)
    try:
        with urllib.request.urlopen(request, timeout=60) as res:
            text = res.read().decode()
            kind = res.headers.get("content-type", "")
            return json.loads(text) if text and "json" in kind else text
    except urllib.error.HTTPError as e:
        text = e.read().decode()
        try:
            parsed = json.loads(text) if text else {}
        except ValueError:
            parsed = {"errors": [{"code": "not_json", "detail": text[:300]}]}
        raise ControlError(e.code, parsed, operation) from None


class _Client:
    """What every client of the control API shares: its address and the credentials it acts with."""

    def __init__(self, url: str, key: Optional[str] = None, admin_token: Optional[str] = None):
        self.url = url.rstrip("/")
        self.key = key
        self.admin_token = admin_token
        self.clock = _Clock(self)
        self.inbound = _Inbound(self)
        self.faults = _Faults(self)
        self.requests = _Requests(self)
        self.deliveries = _Deliveries(self)
        self.snapshots = _Snapshots(self)
        self.states = _States(self)

    def _headers(self) -> Dict[str, str]:
        out = {"accept": "application/json"}
        if self.key:
            out["authorization"] = f"Bearer {self.key}"
        if self.admin_token:
            out["x-sim-admin-token"] = self.admin_token
        return out

    def _op(self, operation: str, method: str, path: str, body: Any = None, query: Optional[Dict[str, Any]] = None) -> Any:
        return _call(self.url, self._headers(), method, path, body, query, operation)

    def health(self) -> Dict[str, Any]:
        return self._op("simHealth", "GET", "/__sim/health")

    def coverage(self, run: Optional[str] = None, account_id: Optional[str] = None) -> Dict[str, Any]:
        """The coverage of the client's account (with a key), of a run's sandboxes, of one account, or of all."""
        return self._op("simCoverage", "GET", "/__sim/coverage", query={"run": run, "account_id": account_id})

    def reset(self, remove_sandboxes: bool = False) -> Dict[str, Any]:
        """With a key: its account back to how it began. Without: the fixture accounts; sandboxes kept unless asked."""
        return self._op("simReset", "POST", "/__sim/reset", {"remove_sandboxes": True} if remove_sandboxes else {})

    def sandbox(self, name: Optional[str] = None, run: Optional[str] = None) -> "Sandbox":
        """A fresh sandbox of the run (DIPSWITCH_RUN by default) and a client that acts on it alone."""
        run = run or os.environ.get("DIPSWITCH_RUN") or None
        body = {k: v for k, v in {"name": name, "run": run}.items() if v is not None}
        made = self._op("simCreateSandbox", "POST", "/__sim/accounts", body)
        return Sandbox(self, made)


class Dipswitch(_Client):
    """A client of a dipswitch server: the control API with a key (an account's) or the admin token (the server's)."""

    _process: Optional[subprocess.Popen] = None
    _container: Optional[List[str]] = None

    @classmethod
    def connect(cls, url: str, key: Optional[str] = None, admin_token: Optional[str] = None) -> "Dipswitch":
        return cls(url, key, admin_token)

    @classmethod
    def start(cls, image: Optional[str] = None, command: Optional[List[str]] = None, admin_token: Optional[str] = None, timeout: float = 60.0) -> "Dipswitch":
        """Launches a server: `image` with docker or podman, else `command`, else ``npx dipswitch``; stops it at exit.

        A command's server dies with this process however it ends (Linux: the parent-death signal); a
        container is run with ``--rm`` and stopped at exit.
        """
        if image and (shutil.which("docker") or shutil.which("podman")):
            return cls._start_container(image, admin_token or "dipswitch-python", timeout)
        argv = list(command) if command else ["npx", "dipswitch", "--memory", "--port", "0"]
        proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, preexec_fn=_die_with_parent, start_new_session=False)
        url = None
        deadline = time.monotonic() + timeout
        seen = []
        while time.monotonic() < deadline and proc.stdout is not None:
            line = proc.stdout.readline()
            if not line:
                break
            seen.append(line)
            found = re.search(r"serving (http://[^\s\"/]+)/api/v1", line)
            if found:
                url = found.group(1)
                break
        if url is None:
            proc.kill()
            raise RuntimeError("dipswitch did not start:\n" + "".join(seen[-20:]))
        # the rest of its output is drained, so a full pipe never stalls it
        _drain(proc)
        client = cls(url, admin_token=admin_token)
        client._process = proc
        atexit.register(client.stop)
        return client

    @classmethod
    def _start_container(cls, image: str, token: str, timeout: float) -> "Dipswitch":
        tool = shutil.which("docker") or shutil.which("podman") or "docker"
        cid = subprocess.run([tool, "run", "--rm", "-d", "-p", "127.0.0.1::4010", "-e", f"SIM_ADMIN_TOKEN={token}", image], check=True, capture_output=True, text=True).stdout.strip()
        port = subprocess.run([tool, "port", cid, "4010/tcp"], check=True, capture_output=True, text=True).stdout.strip().split(":")[-1]
        client = cls(f"http://127.0.0.1:{port}", admin_token=token)
        client._container = [tool, cid]
        atexit.register(client.stop)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.health()
                return client
            except (OSError, ControlError):
                if time.monotonic() > deadline:
                    client.stop()
                    raise
                time.sleep(0.2)

    def stop(self) -> None:
        """Stops a server this client started (SIGTERM: pending writes finish)."""
        if self._process is not None and self._process.poll() is None:
            self._process.send_signal(signal.SIGTERM)
            try:
                self._process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self._process.kill()
        if self._container is not None:
            subprocess.run([self._container[0], "stop", self._container[1]], capture_output=True)
            self._container = None

    def accounts(self) -> List[Dict[str, Any]]:
        return self._op("simAccounts", "GET", "/__sim/accounts")["accounts"]

    def metrics(self) -> str:
        return self._op("simMetrics", "GET", "/__sim/metrics")

    def openapi(self) -> Dict[str, Any]:
        return self._op("simOpenapi", "GET", "/__sim/openapi")

    def scenarios(self) -> Dict[str, Any]:
        return self._op("simListScenarios", "GET", "/__sim/scenarios")

    def run_scenario(self, name: str) -> Dict[str, Any]:
        return self._op("simScenario", "POST", f"/__sim/scenarios/{urllib.parse.quote(name)}")


def _die_with_parent() -> None:
    """In the child: SIGTERM when this process dies, even by SIGKILL (Linux's PR_SET_PDEATHSIG)."""
    if sys.platform.startswith("linux"):
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)


def _drain(proc: subprocess.Popen) -> None:
    import threading

    def read() -> None:
        assert proc.stdout is not None
        for _ in proc.stdout:
            pass

    threading.Thread(target=read, daemon=True).start()


class Sandbox(_Client):
    """A sandbox: its id, name, run, keys and numbers, and a client that acts on it alone (its admin key)."""

    def __init__(self, parent: _Client, made: Dict[str, Any]):
        super().__init__(parent.url, made["keys"]["admin"], parent.admin_token)
        self._parent = parent
        self.id: str = made["id"]
        self.name: str = made["name"]
        self.run: Optional[str] = made.get("run")
        self.keys: Dict[str, str] = made["keys"]
        self.numbers: List[str] = made["numbers"]

    def remove(self) -> None:
        """Removes the sandbox and everything it owns (its coverage is kept with its run)."""
        self._op("simDeleteAccount", "DELETE", f"/__sim/accounts/{self.id}")


class _Part:
    def __init__(self, client: _Client):
        self._c = client


class _Clock(_Part):
    def get(self) -> Dict[str, Any]:
        return self._c._op("simClock", "GET", "/__sim/clock")

    def now(self) -> str:
        return self.get()["now"]

    def advance(self, by: Optional[str] = None, to: Optional[str] = None, next: bool = False, within: Optional[str] = None) -> Dict[str, Any]:
        body: Dict[str, Any] = {}
        if by is not None:
            body["by"] = by
        if to is not None:
            body["to"] = to
        if next:
            body["next"] = True
            if within is not None:
                body["within"] = within
        return self._c._op("simAdvance", "POST", "/__sim/clock/advance", body)

    def freeze(self) -> Dict[str, Any]:
        return self._c._op("simFreeze", "POST", "/__sim/clock/freeze")

    def resume(self) -> Dict[str, Any]:
        return self._c._op("simResume", "POST", "/__sim/clock/resume")


class _Inbound(_Part):
    def sms(self, to: str, from_: str, text: str, **more: Any) -> Dict[str, Any]:
        return self._c._op("simInboundSms", "POST", "/__sim/inbound/sms", {"to": to, "from": from_, "text": text, **more})

    def mms(self, to: str, from_: str, media_urls: List[str], **more: Any) -> Dict[str, Any]:
        return self._c._op("simInboundMms", "POST", "/__sim/inbound/mms", {"to": to, "from": from_, "media_urls": media_urls, **more})

    def call(self, to: str, from_: str) -> Dict[str, Any]:
        return self._c._op("simInboundCall", "POST", "/__sim/inbound/call", {"to": to, "from": from_})


class FaultRule:
    """A fault rule as made, with how often it has fired and its removal."""

    def __init__(self, client: _Client, rule: Dict[str, Any]):
        self._c = client
        self.rule = rule
        self.id: str = rule["id"]

    def fired(self) -> int:
        for r in self._c.faults.list():
            if r["id"] == self.id:
                return r["fired"]
        return self.rule["fired"]

    def remove(self) -> None:
        self._c._op("simDeleteFault", "DELETE", f"/__sim/faults/{self.id}")


class _Faults(_Part):
    def add(self, match: Dict[str, Any], effect: Dict[str, Any], times: Optional[int] = None, probability: Optional[float] = None) -> FaultRule:
        body: Dict[str, Any] = {"match": match, "effect": effect}
        if times is not None:
            body["times"] = times
        if probability is not None:
            body["probability"] = probability
        return FaultRule(self._c, self._c._op("simAddFault", "POST", "/__sim/faults", body))

    def list(self) -> List[Dict[str, Any]]:
        return self._c._op("simListFaults", "GET", "/__sim/faults")["faults"]


def _verifying(client: _Client, operation: str, path: str, body: Dict[str, Any]) -> Dict[str, Any]:
    __tracebackhide__ = True  # pytest shows the test's line and the near misses, not this module
    try:
        return client._op(operation, "POST", path, body)
    except ControlError as e:
        if (e.body.get("errors") or [{}])[0].get("code") == "verification_failed":
            raise VerificationError(e.body) from None
        raise


class _Requests(_Part):
    def list(self, **query: Any) -> Dict[str, Any]:
        return self._c._op("simRequests", "GET", "/__sim/requests", query=query)

    def verify(self, match: Dict[str, Any], count: Optional[Dict[str, int]] = None, api: Optional[str] = None) -> Dict[str, Any]:
        """Raises a VerificationError naming the nearest misses when the count does not hold."""
        __tracebackhide__ = True
        body: Dict[str, Any] = {"match": match}
        if count is not None:
            body["count"] = count
        if api is not None:
            body["api"] = api
        return _verifying(self._c, "simVerifyRequests", "/__sim/requests/verify", body)


class _Deliveries(_Part):
    def list(self, kind: Optional[str] = None) -> List[Dict[str, Any]]:
        return self._c._op("simDeliveries", "GET", "/__sim/deliveries", query={"kind": kind})["deliveries"]

    def verify(self, match: Dict[str, Any], count: Optional[Dict[str, int]] = None) -> Dict[str, Any]:
        """Raises a VerificationError naming the nearest misses when the count does not hold."""
        __tracebackhide__ = True
        body: Dict[str, Any] = {"match": match}
        if count is not None:
            body["count"] = count
        return _verifying(self._c, "simVerifyDeliveries", "/__sim/deliveries/verify", body)

    def wait_for(self, timeout: float = 5.0, **match: Any) -> Dict[str, Any]:
        """The oldest delivery holding the pattern (checked by the server, as a verify's), waiting up to `timeout` s."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                found = self._c._op("simVerifyDeliveries", "POST", "/__sim/deliveries/verify", {"match": match, "count": {"at_least": 1}})
                oldest = found["matches"][-1]
                for d in self.list(match.get("kind")):
                    if d["id"] == oldest:
                        return d
            except ControlError as e:
                if (e.body.get("errors") or [{}])[0].get("code") != "verification_failed":
                    raise
                if time.monotonic() > deadline:
                    raise VerificationError(e.body) from None
            time.sleep(0.05)

    def redeliver(self, delivery_id: str) -> Dict[str, Any]:
        return self._c._op("simRedeliver", "POST", f"/__sim/deliveries/{delivery_id}/redeliver")


class _Snapshots(_Part):
    def save(self, name: str) -> Dict[str, Any]:
        return self._c._op("simSaveSnapshot", "POST", "/__sim/snapshots", {"name": name})

    def restore(self, name: str) -> Dict[str, Any]:
        return self._c._op("simRestoreSnapshot", "POST", f"/__sim/snapshots/{urllib.parse.quote(name)}/restore")

    def list(self) -> List[Dict[str, Any]]:
        return self._c._op("simListSnapshots", "GET", "/__sim/snapshots")["snapshots"]


class _States(_Part):
    """States on demand: what the clock alone does not reach (docs/control-api.md)."""

    def raise_overwrite(self, number: str, service_provider: Optional[str] = None) -> Dict[str, Any]:
        body = {"number": number, **({"service_provider": service_provider} if service_provider else {})}
        return self._c._op("simRaiseOverwrite", "POST", "/__sim/osr/overwrite_requests", body)

    def move_order(self, order_id: str, status: str, error_code: Optional[str] = None) -> Dict[str, Any]:
        body = {"status": status, **({"error_code": error_code} if error_code else {})}
        return self._c._op("simMoveOrder", "POST", f"/__sim/orders/{order_id}/status", body)

    def move_request(self, request_id: str, status: str, error_code: Optional[str] = None) -> Dict[str, Any]:
        body = {"status": status, **({"error_code": error_code} if error_code else {})}
        return self._c._op("simMoveRequest", "POST", f"/__sim/requests/{request_id}/status", body)

    def abort_bulk_dip(self, task_id: str) -> Dict[str, Any]:
        return self._c._op("simAbortBulkDip", "POST", f"/__sim/bulk_dip_tasks/{task_id}/abort")

    def schedule_bulk_dip(self, task_id: str, until: str) -> Dict[str, Any]:
        return self._c._op("simScheduleBulkDip", "POST", f"/__sim/bulk_dip_tasks/{task_id}/schedule", {"until": until})

    def suspend_user(self, user_id: str) -> Dict[str, Any]:
        return self._c._op("simSuspendUser", "POST", f"/__sim/users/{user_id}/suspend")

    def reinstate_user(self, user_id: str) -> Dict[str, Any]:
        return self._c._op("simReinstateUser", "POST", f"/__sim/users/{user_id}/reinstate")

    def create_group(self, name: str) -> Dict[str, Any]:
        return self._c._op("simCreateGroup", "POST", "/__sim/shared_resource_groups", {"name": name})
