"""A small client of the provider's /api/v1, as a client team writes one: list numbers, order two, wait for the order."""
import json
import time
import urllib.error
import urllib.request


class NumbersClient:
    def __init__(self, base_url, key, retries=2):
        self.base = base_url.rstrip("/") + "/api/v1"
        self.key = key
        self.retries = retries

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        headers = {"authorization": f"Bearer {self.key}", "accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        for attempt in range(self.retries + 1):
            try:
                with urllib.request.urlopen(urllib.request.Request(self.base + path, data, headers, method=method)) as res:
                    return json.loads(res.read() or b"null")
            except urllib.error.HTTPError as e:
                # the provider's 5xx are worth another try; anything else is the caller's to handle
                if e.code < 500 or attempt == self.retries:
                    raise
                time.sleep(0.05 * (attempt + 1))

    def numbers(self):
        return [r["data"]["number"] for r in self._call("GET", "/numbers")["results"]]

    def order_two(self, npa="312", state="IL"):
        cart = self._call("POST", "/carts", {"type": "cart", "data": {"name": f"order {time.time_ns()}"}})["data"]
        self._call("POST", f"/carts/{cart['id']}/requests", {
            "type": "request",
            "data": {"type": "NEW_NUMBERS", "data": {"npa": npa, "state": state, "number_type": "TENDLC", "quantity": "2"}},
        })
        return self._call("POST", f"/carts/{cart['id']}/checkout")["data"]

    def order(self, order_id):
        return self._call("GET", f"/orders/{order_id}")["data"]

    def wait_for_order(self, order_id, tick=lambda: None, attempts=50):
        """Polls the order until it ends; `tick` moves time on between polls (a test's clock)."""
        for _ in range(attempts):
            order = self.order(order_id)
            if order["status"] in ("COMPLETED", "ERROR", "CANCELLED"):
                return order
            tick()
        raise TimeoutError(f"order {order_id} did not end")
