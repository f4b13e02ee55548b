"""The request core: one call of one operation of the control API, and the errors it raises.

Every method of the client is one operation of contract/sim.yaml, generated into ``dipswitch.api`` and named by
its operationId with ``@calls``; the method and path come from the generated table
(``_generated.CONTRACT_OPERATIONS``), never written twice. A verify the server refuses with
``verification_failed`` is a ``VerificationError``; any other refusal a ``ControlError``.
"""
from __future__ import annotations

import functools
import json
import urllib.error
import urllib.parse
import urllib.request
from typing import Any, Callable, Dict, List, Mapping, Optional, TypeVar, cast

from ._generated import CONTRACT_OPERATIONS, NearMiss

#: Each method of the client (``area.method``) and the operationId it calls; filled by ``@calls``.
OPERATIONS: Dict[str, str] = {}

F = TypeVar("F", bound=Callable[..., Any])


class DipswitchError(Exception):
    """Anything the client raises of its own."""


class ControlError(DipswitchError):
    """An answer the control API refused: its status and its error envelope."""

    def __init__(self, status: int, body: Any, operation: str):
        self.status = status
        self.operation = operation
        self.body: Dict[str, Any] = body if isinstance(body, dict) else {}
        errors = self.body.get("errors") or []
        said = "; ".join(f"{e.get('code')}: {e.get('detail')}" for e in errors)
        super().__init__(f"{operation} answered {status}: {said}")

    @property
    def code(self) -> Optional[str]:
        errors = self.body.get("errors") or [{}]
        return cast(Optional[str], errors[0].get("code"))


class VerificationError(DipswitchError, AssertionError):
    """A verify whose count did not hold (or a wait that ran out): what was asked, what came nearest, and why."""

    def __init__(self, body: Mapping[str, Any], of: str = "calls", waited: Optional[float] = None):
        self._body, self._of = body, of
        self.count: int = body.get("count", 0)
        self.expected: str = body.get("expected", "")
        self.near_misses: List[NearMiss] = list(body.get("near_misses") or [])
        self.left_out: int = body.get("near_misses_left_out", 0)
        self.notes: List[str] = list(body.get("notes") or [])
        errors = body.get("errors") or [{}]
        first = errors[0].get("detail", "The verification failed.")
        lines = [f"Waited {waited:g} s: {first[0].lower()}{first[1:]}" if waited is not None else first]
        lines += [f"  {note}" for note in self.notes]
        for miss in self.near_misses:
            lines.append(f"  near miss: {miss['summary']}")
            for d in miss["differences"]:
                lines.append(f"    {d['field']}: expected {json.dumps(d['expected'])}, got {json.dumps(d['actual'])}")
        if self.left_out:
            lines.append(f"  … and {self.left_out} further from it, left out")
        if not self.near_misses and not self.notes:
            lines.append(f"  no {'delivery' if of == 'deliveries' else 'call'} came near it")
        super().__init__("\n".join(lines))

    def waited(self, seconds: float) -> "VerificationError":
        """The same failure, said of a wait that ran `seconds` out."""
        return VerificationError(self._body, self._of, waited=seconds)


def calls(operation: str) -> Callable[[F], F]:
    """Marks a method as the client's way to call `operation`; a refusal is raised from the caller's line."""
    if operation not in CONTRACT_OPERATIONS:
        raise KeyError(f"{operation} is no operation of contract/sim.yaml")

    def mark(method: F) -> F:
        OPERATIONS[method.__qualname__.lstrip("_")] = operation

        @functools.wraps(method)
        def call(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True  # pytest shows the test's line and the error, not this library
            try:
                return method(*args, **kwargs)
            except DipswitchError as e:
                raise e.with_traceback(None) from None

        return cast(F, call)

    return mark


def given(fields: Mapping[str, Any]) -> Dict[str, Any]:
    """A body's fields, those not given (None) left out."""
    return {k: v for k, v in fields.items() if v is not None}


def _query_value(value: Any) -> Any:
    return ("true" if value else "false") if isinstance(value, bool) else value


class Core:
    """A server's address and the credentials calls act with: an account's key, the admin token, or both."""

    def __init__(self, url: str, key: Optional[str] = None, admin_token: Optional[str] = None, timeout: float = 60.0):
        self.url = url.rstrip("/")
        self.key = key
        self.admin_token = admin_token
        self.timeout = timeout

    def headers(self) -> Dict[str, str]:
        out = {"accept": "application/json"}
        if self.key:
            out["authorization"] = f"Bearer {self.key}"
        if self.admin_token:
            out["x-sim-admin-token"] = self.admin_token
        return out

    def call(
        self,
        operation: str,
        params: Optional[Mapping[str, str]] = None,
        body: Any = None,
        query: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """Calls one operation: its path's parameters, a JSON body (None for none) and the query (None values left out)."""
        op = CONTRACT_OPERATIONS[operation]
        path = op.path
        for name, value in (params or {}).items():
            path = path.replace("{" + name + "}", urllib.parse.quote(value, safe=""))
        target = self.url + path
        pairs = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if pairs:
            target += "?" + urllib.parse.urlencode(pairs)
        sent = self.headers()
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            sent["content-type"] = "application/json"
        request = urllib.request.Request(target, data=data, method=op.method, headers=sent)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as res:
                text = res.read().decode()
                kind = res.headers.get("content-type", "")
                return json.loads(text) if text and "json" in kind else text
        except urllib.error.HTTPError as e:
            text = e.read().decode()
            try:
                parsed = json.loads(text) if text else {}
            except ValueError:
                parsed = {"errors": [{"code": "not_json", "detail": text[:300]}]}
            refused = ControlError(e.code, parsed, operation)
            if refused.code == "verification_failed":
                raise VerificationError(refused.body, "deliveries" if operation == "simVerifyDeliveries" else "calls") from None
            raise refused from None
        except urllib.error.URLError as e:
            raise DipswitchError(f"{operation}: no answer from {self.url}: {e.reason}") from None


class Area:
    """One area of the control API (the clock, the faults…), acting with its client's credentials."""

    def __init__(self, core: Core):
        self._core = core
