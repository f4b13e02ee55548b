"""The journal of calls: a page of it, and verification of what was called."""
from __future__ import annotations

from typing import Any, Optional, cast

from ._core import Area, calls
from ._generated import JournalPage, Verified, VerifyCount, VerifyRequests, VerifyRequestsApi, VerifyRequestsMatch
from ._verifying import verifying


class Requests(Area):
    @calls("simRequests")
    def list(self, **query: Any) -> JournalPage:
        """A page of the journal, newest first, filtered as ``GET /__sim/requests`` filters."""
        return cast(JournalPage, self._core.call("simRequests", query=query))

    @calls("simVerifyRequests")
    def verify(
        self, match: VerifyRequestsMatch, count: Optional[VerifyCount] = None, api: Optional[VerifyRequestsApi] = None
    ) -> Verified:
        """The calls that hold `match`; a VerificationError naming the nearest misses when `count` does not hold."""
        body: VerifyRequests = {"match": match}
        if count is not None:
            body["count"] = count
        if api is not None:
            body["api"] = api
        return verifying(self._core, "simVerifyRequests", body, "calls")
