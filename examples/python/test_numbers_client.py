"""The client team's tests of numbers_client against dipswitch: a fault survived, an order waited for on the
simulated clock, an inbound SMS at the test's own webhook receiver, verifies; the coverage gate by the plugin."""
from __future__ import annotations

import http.server
import json
import threading
from typing import List

from dipswitch import Sandbox
from numbers_client import NumbersClient


def test_listing_survives_a_503(dipswitch_sandbox: Sandbox) -> None:
    box = dipswitch_sandbox
    rule = box.faults.add({"operation_id": "listNumbers"}, {"status": 503}, times=1)
    numbers = NumbersClient(box.url, box.keys["admin"]).numbers()
    assert len(numbers) == 10
    assert [r["fired"] for r in box.faults.list()["faults"] if r["id"] == rule["id"]] == [1]
    box.requests.verify({"operation_id": "listNumbers", "status": 503}, count={"exactly": 1})
    box.requests.verify({"operation_id": "listNumbers", "status": 200}, count={"exactly": 1})


def test_two_numbers_ordered_and_waited_for(dipswitch_sandbox: Sandbox) -> None:
    box = dipswitch_sandbox
    client = NumbersClient(box.url, box.keys["admin"])
    order = client.order_two()
    done = client.wait_for_order(order["id"], tick=lambda: box.clock.advance("PT10M"))
    assert done["status"] == "COMPLETED"
    box.requests.verify({"operation_id": "checkoutCart"}, count={"exactly": 1})


class Receiver(http.server.BaseHTTPRequestHandler):
    texts: List[str] = []

    def do_POST(self) -> None:  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["content-length"])))
        Receiver.texts.append(body["data"]["text"])
        self.send_response(200)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


def test_an_inbound_sms_reaches_our_webhook(dipswitch_sandbox: Sandbox) -> None:
    box = dipswitch_sandbox
    server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = NumbersClient(box.url, box.keys["admin"])
        switch = client.call("POST", "/switches", {"type": "switch", "data": {
            "name": "webhook", "sms_enabled": True, "sms_protocol": "HTTP",
            "sms_data": f"http://{box.receiver_host}:{server.server_port}/sms"}})["data"]
        client.call("PATCH", f"/numbers/{box.numbers[0]}", {"type": "did", "data": {"switch_id": switch["id"]}})
        box.inbound.sms(to=box.numbers[0], from_="+14155550123", text="hello team")
        box.deliveries.wait_for({"kind": "sms", "outcome": "delivered"})
        assert "hello team" in Receiver.texts
        box.deliveries.verify({"kind": "sms", "body": {"data": {"text": "hello team"}}}, count={"exactly": 1})
    finally:
        server.shutdown()
