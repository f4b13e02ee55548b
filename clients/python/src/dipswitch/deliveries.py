"""The delivery log: deliveries listed, verified, waited for, sent again."""
from __future__ import annotations

import time
from typing import List, Optional, cast

from ._core import Area, ControlError, VerificationError, calls
from ._generated import Delivery, DeliveryKind, DeliveryList, Listener, ListenerList, Verified, VerifyCount, VerifyDeliveries, VerifyDeliveriesMatch
from ._verifying import verifying


class Deliveries(Area):
    @calls("simDeliveries")
    def list(self, kind: Optional[DeliveryKind] = None) -> List[Delivery]:
        """The deliveries, newest first (of one kind, if given)."""
        return cast(DeliveryList, self._core.call("simDeliveries", query={"kind": kind}))["deliveries"]

    @calls("simListeners")
    def listeners(self) -> List[Listener]:
        """The listeners (`dipswitch listen`, docs/hosted.md) connected now."""
        return cast(ListenerList, self._core.call("simListeners"))["listeners"]

    @calls("simVerifyDeliveries")
    def verify(self, match: VerifyDeliveriesMatch, count: Optional[VerifyCount] = None) -> Verified:
        """The deliveries that hold `match`; a VerificationError naming the nearest misses (and why nothing was sent)."""
        body: VerifyDeliveries = {"match": match}
        if count is not None:
            body["count"] = count
        return verifying(self._core, "simVerifyDeliveries", body, "deliveries")

    @calls("simVerifyDeliveries")
    def wait_for(self, match: VerifyDeliveriesMatch, timeout: float = 5.0) -> Delivery:
        """The oldest delivery holding `match` (the server checks it, as a verify's), waiting up to `timeout` seconds.

        A VerificationError when none came in time, saying how long it waited and what came nearest.
        """
        __tracebackhide__ = True
        deadline = time.monotonic() + timeout
        while True:
            try:
                found = cast(Verified, self._core.call("simVerifyDeliveries", body={"match": match, "count": {"at_least": 1}}))
                oldest = found["matches"][-1]
                for d in self.list(match.get("kind")):
                    if d["id"] == oldest:
                        return d
            except ControlError as e:
                if e.code != "verification_failed":
                    raise
                if time.monotonic() > deadline:
                    raise VerificationError(e.body, "deliveries", waited=timeout) from None
            time.sleep(0.05)

    @calls("simRedeliver")
    def redeliver(self, delivery_id: str) -> Delivery:
        """Sends a delivery again now."""
        return cast(Delivery, self._core.call("simRedeliver", {"id": delivery_id}))
