"""A small client of the provider's /api/v1, as a client team writes one: list numbers, order two, wait for the order."""
from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any, Callable, Dict, List, Optional


class NumbersClient:
    def __init__(self, base_url: str, key: str, retries: int = 2):
        self.base = base_url.rstrip("/") + "/api/v1"
        self.key = key
        self.retries = retries

    def call(self, method: str, path: str, body: Optional[Dict[str, Any]] = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        headers = {"authorization": f"Bearer {self.key}", "accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        attempt = 0
        while True:
            try:
                with urllib.request.urlopen(urllib.request.Request(self.base + path, data, headers, method=method)) as res:
                    return json.loads(res.read() or b"null")
            except urllib.error.HTTPError as e:
                # the provider's 5xx are worth another try; anything else is the caller's to handle
                if e.code < 500 or attempt == self.retries:
                    raise
                attempt += 1
                time.sleep(0.05 * attempt)

    def numbers(self) -> List[str]:
        return [r["data"]["number"] for r in self.call("GET", "/numbers")["results"]]

    def order_two(self, npa: str = "312", state: str = "IL") -> Dict[str, Any]:
        cart = self.call("POST", "/carts", {"type": "cart", "data": {"name": f"order {time.time_ns()}"}})["data"]
        self.call("POST", f"/carts/{cart['id']}/requests", {
            "type": "request",
            "data": {"type": "NEW_NUMBERS", "data": {"npa": npa, "state": state, "number_type": "TENDLC", "quantity": "2"}},
        })
        order: Dict[str, Any] = self.call("POST", f"/carts/{cart['id']}/checkout")["data"]
        return order

    def order(self, order_id: str) -> Dict[str, Any]:
        found: Dict[str, Any] = self.call("GET", f"/orders/{order_id}")["data"]
        return found

    def wait_for_order(self, order_id: str, tick: Callable[[], object] = lambda: None, attempts: int = 50) -> Dict[str, Any]:
        """Polls the order until it ends; `tick` moves time on between polls (a test's clock)."""
        for _ in range(attempts):
            order = self.order(order_id)
            if order["status"] in ("COMPLETED", "ERROR", "CANCELLED"):
                return order
            tick()
        raise TimeoutError(f"order {order_id} did not end")
