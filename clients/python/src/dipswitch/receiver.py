"""A webhook receiver for a test that only wants to see what was sent, and the ``HMAC_SHA256`` signature check."""
from __future__ import annotations

import hashlib
import hmac
import http.server
import re
import threading
import time
from dataclasses import dataclass
from types import TracebackType
from typing import Dict, List, Optional, Type

from ._core import DipswitchError


def verify_signature(header: Optional[str], body: bytes, secret: str) -> bool:
    """Whether `header` (the Authorization received) signs `body` (the raw bytes, as received) with `secret`:
    ``SERVICE0-HMAC-SHA256 <hex>``, the lowercase hex HMAC-SHA256 of the body (docs/webhooks.md)."""
    scheme, _, given = (header or "").partition(" ")
    if scheme != "SERVICE0-HMAC-SHA256" or not re.fullmatch(r"[0-9a-f]{64}", given):
        return False
    return hmac.compare_digest(hmac.new(secret.encode(), body, hashlib.sha256).hexdigest(), given)


@dataclass(frozen=True)
class Received:
    """One request as it came: its method, path, headers (lowercase names) and raw body."""

    method: str
    path: str
    headers: Dict[str, str]
    body: bytes


class Receiver:
    """Python's HTTP server on a free port of 127.0.0.1, in a thread, answering every request `status` (200).

    ``with Receiver() as receiver:`` … ``receiver.url(box.receiver_host, "/sms")``, ``receiver.wait_for(1)``.
    """

    def __init__(self, status: int = 200, host: str = "127.0.0.1"):
        self._got: List[Received] = []
        self._changed = threading.Condition()
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def _take(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                got = Received(self.command, self.path, {k.lower(): v for k, v in self.headers.items()}, self.rfile.read(length))
                with outer._changed:
                    outer._got.append(got)
                    outer._changed.notify_all()
                self.send_response(status)
                self.send_header("content-length", "0")
                self.end_headers()

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _take

            def log_message(self, format: str, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer((host, 0), Handler)
        self.port: int = self._server.server_port
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    def url(self, host: str = "127.0.0.1", path: str = "/") -> str:
        """The URL of `path` on this receiver as the server reaches it (`host`: the client's receiver_host)."""
        return f"http://{host}:{self.port}{path}"

    @property
    def received(self) -> List[Received]:
        """Every request so far."""
        with self._changed:
            return list(self._got)

    def wait_for(self, count: int = 1, timeout: float = 5.0) -> List[Received]:
        """The first `count` requests, waiting up to `timeout` seconds for them."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while len(self._got) < count:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise DipswitchError(f"the receiver got {len(self._got)} of {count} requests within {timeout:g} s")
                self._changed.wait(left)
            return self._got[:count]

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "Receiver":
        return self

    def __exit__(self, kind: Optional[Type[BaseException]], value: Optional[BaseException], tb: Optional[TracebackType]) -> None:
        self.close()
