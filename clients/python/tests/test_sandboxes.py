"""The client and its fixtures, run with pytest -n 4: each test's sandbox is its own, whatever the others do."""
import http.server
import json
import threading

import pytest

from dipswitch import ControlError, Receiver, VerificationError, verify_signature

API = "/api/v1"


def get(box, path):
    import urllib.request

    req = urllib.request.Request(box.url + path, headers={"authorization": f"Bearer {box.keys['admin']}"})
    try:
        with urllib.request.urlopen(req) as res:
            return res.status
    except urllib.error.HTTPError as e:  # type: ignore[attr-defined]
        return e.code


@pytest.mark.parametrize("worker_round", range(8))
def test_sandboxes_never_see_each_other(dipswitch_sandbox, worker_round):
    box = dipswitch_sandbox
    rule = box.faults.add({"operation_id": "listNumbers"}, {"status": 503}, times=1)
    assert [get(box, f"{API}/numbers"), get(box, f"{API}/numbers")] == [503, 200]
    assert [(r["id"], r["fired"]) for r in box.faults.list()["faults"]] == [(rule["id"], 1)]
    # only its own calls, whatever the other workers' sandboxes do meanwhile
    box.requests.verify({"operation_id": "listNumbers"}, count={"exactly": 2})
    box.reset()
    box.requests.verify({"any": True}, count={"exactly": 0})
    assert box.faults.list() == {"faults": []}
    assert len(box.numbers) == 10


def test_a_typo_is_refused_with_the_nearest_name(dipswitch_sandbox):
    with pytest.raises(ControlError) as refused:
        dipswitch_sandbox.requests.verify({"operation_id": "listNumbrs"}, count={"at_most": 0})
    assert refused.value.status == 422
    assert "Did you mean `listNumbers`" in str(refused.value)


def test_a_failed_verify_shows_its_near_misses(dipswitch_sandbox):
    get(dipswitch_sandbox, f"{API}/carts")
    with pytest.raises(VerificationError) as failed:
        dipswitch_sandbox.requests.verify({"operation_id": "listCarts", "status": 201}, count={"exactly": 1})
    assert failed.value.near_misses[0]["differences"] == [{"field": "status", "expected": 201, "actual": 200}]
    assert "status: expected 201, got 200" in str(failed.value)


def test_a_dropped_call_is_journaled_so_a_retry_is_verified(dipswitch_sandbox):
    import urllib.error

    box = dipswitch_sandbox
    box.faults.add({"operation_id": "listCarts"}, {"drop": True}, times=1)
    with pytest.raises((urllib.error.URLError, ConnectionError)):
        get(box, f"{API}/carts")
    assert get(box, f"{API}/carts") == 200  # the client's retry
    box.requests.verify({"operation_id": "listCarts"}, count={"exactly": 2})


class _Receiver(http.server.BaseHTTPRequestHandler):
    got: list = []

    def do_POST(self):  # noqa: N802
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        _Receiver.got.append((self.path, json.loads(body or b"null")))
        self.send_response(200)
        self.end_headers()

    def log_message(self, *args):
        pass


def test_an_inbound_sms_reaches_the_tests_receiver(dipswitch_sandbox):
    server = http.server.HTTPServer(("127.0.0.1", 0), _Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        import urllib.request

        box = dipswitch_sandbox
        url = f"http://127.0.0.1:{server.server_port}/sms"
        headers = {"authorization": f"Bearer {box.keys['admin']}", "content-type": "application/json"}
        made = json.loads(urllib.request.urlopen(urllib.request.Request(
            box.url + f"{API}/switches", method="POST", headers=headers,
            data=json.dumps({"type": "switch", "data": {"name": "py", "sms_enabled": True, "sms_protocol": "HTTP", "sms_data": url}}).encode(),
        )).read())
        urllib.request.urlopen(urllib.request.Request(
            box.url + f"{API}/numbers/{box.numbers[0]}", method="PATCH", headers=headers,
            data=json.dumps({"type": "did", "data": {"switch_id": made["data"]["id"]}}).encode(),
        ))
        box.inbound.sms(to=box.numbers[0], from_="+14155550123", text="hello from pytest")
        delivered = box.deliveries.wait_for({"kind": "sms", "outcome": "delivered", "body": {"data": {"text": "hello from pytest"}}})
        assert delivered["target"] == url
        assert any(path == "/sms" for path, _ in _Receiver.got)
    finally:
        server.shutdown()


def test_a_fault_rule_fires_as_often_as_it_says(dipswitch_sandbox):
    box = dipswitch_sandbox
    # a count is the server's to judge, as in every client: a float or 0 is sent, and refused there
    for times in (0.5, 0):
        with pytest.raises(ControlError) as refused:
            box.faults.add({"operation_id": "listNumbers"}, {"status": 503}, times=times)  # type: ignore[arg-type]
        assert refused.value.status == 422
    rule = box.faults.add({"operation_id": "listNumbers"}, {"status": 503})  # no times: every match
    assert rule["times"] is None
    assert [get(box, f"{API}/numbers") for _ in range(3)] == [503, 503, 503]
    assert [r["fired"] for r in box.faults.list()["faults"]] == [3]  # read now, not remembered
    assert box.faults.remove(rule["id"])["id"] == rule["id"]
    assert box.faults.list() == {"faults": []}


def test_a_wait_that_runs_out_says_so(dipswitch_sandbox):
    with pytest.raises(VerificationError) as failed:
        dipswitch_sandbox.deliveries.wait_for({"kind": "sms"}, timeout=0.2)
    assert str(failed.value).startswith("Waited 0.2 s: expected at least 1 matching deliveries, found 0.")
    assert "no delivery came near it" in str(failed.value)


def test_a_delivery_verify_says_why_nothing_was_sent(dipswitch_sandbox):
    box = dipswitch_sandbox
    box.inbound.sms(to=box.numbers[0], from_="+14155550123", text="to nowhere")
    with pytest.raises(VerificationError) as failed:
        box.deliveries.verify({"kind": "sms"})
    said = str(failed.value)
    assert said.startswith("Expected at least 1 matching deliveries, found 0.\n")
    assert f"The inbound SMS to {box.numbers[0]} at " in said
    assert "was not sent on: the number has no switch." in said
    assert failed.value.notes and "no delivery came near it" not in said


def test_a_sandbox_in_a_with_block_is_removed_at_its_end(dipswitch_sandbox):
    with dipswitch_sandbox.sandbox("for a block") as box:
        assert len(box.numbers) == 10
        made = box.id
    with pytest.raises(ControlError) as gone:
        box.clock.get()
    assert gone.value.status == 403
    assert made


def test_a_signed_sms_at_the_clients_receiver(dipswitch_sandbox):
    import urllib.request

    box = dipswitch_sandbox
    with Receiver() as receiver:
        headers = {"authorization": f"Bearer {box.keys['admin']}", "content-type": "application/json"}
        made = json.loads(urllib.request.urlopen(urllib.request.Request(
            box.url + f"{API}/switches", method="POST", headers=headers,
            data=json.dumps({"type": "switch", "data": {"name": "py", "sms_enabled": True, "sms_protocol": "HTTP",
                             "sms_data": receiver.url(box.receiver_host, "/sms"), "sms_auth_method": "HMAC_SHA256",
                             "sms_secret": "py secret"}}).encode(),
        )).read())
        urllib.request.urlopen(urllib.request.Request(
            box.url + f"{API}/numbers/{box.numbers[0]}", method="PATCH", headers=headers,
            data=json.dumps({"type": "did", "data": {"switch_id": made["data"]["id"]}}).encode(),
        ))
        box.inbound.sms(to=box.numbers[0], from_="+14155550123", text="signed")
        [sms] = receiver.wait_for(1)
        assert sms.path == "/sms"
        assert verify_signature(sms.headers["authorization"], sms.body, "py secret")
        assert not verify_signature(sms.headers["authorization"], sms.body + b" ", "py secret")
        assert json.loads(sms.body)["data"]["text"] == "signed"
