"""The delivery log (the generated ``dipswitch.api.deliveries``), and the one thing written by hand: waiting."""
from __future__ import annotations

import time
from typing import cast

from ._core import VerificationError, calls
from ._generated import Delivery, Verified, VerifyDeliveriesMatch
from .api.deliveries import DeliveriesApi


class Deliveries(DeliveriesApi):
    @calls("simVerifyDeliveries")
    def wait_for(self, match: VerifyDeliveriesMatch, timeout: float = 5.0) -> Delivery:
        """The oldest delivery holding `match` (the server checks it, as a verify's), waiting up to `timeout` seconds.

        A VerificationError when none came in time, saying how long it waited and what came nearest.
        """
        __tracebackhide__ = True
        deadline = time.monotonic() + timeout
        while True:
            try:
                found = cast(Verified, self.verify(match, {"at_least": 1}))
                oldest = found["matches"][-1]
                for d in self.list(kind=match.get("kind"))["deliveries"]:
                    if d["id"] == oldest:
                        return d
            except VerificationError as e:
                if time.monotonic() > deadline:
                    raise e.waited(timeout) from None
            time.sleep(0.05)
