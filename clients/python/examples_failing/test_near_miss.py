"""A verify that fails on purpose: what pytest prints for a near miss (the project's suite runs it and reads it)."""


def test_checkout_was_called(dipswitch_sandbox):
    import urllib.request

    urllib.request.urlopen(urllib.request.Request(
        dipswitch_sandbox.url + "/api/v1/carts", method="POST",
        headers={"authorization": f"Bearer {dipswitch_sandbox.keys['admin']}", "content-type": "application/json"},
        data=b'{"type":"cart","data":{"name":"launch"}}',
    ))
    dipswitch_sandbox.requests.verify({"method": "POST", "path": "/api/v1/carts", "body": {"data": {"name": "lunch"}}}, count={"exactly": 1})
