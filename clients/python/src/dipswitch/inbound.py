"""Traffic arriving at the account's numbers: an SMS, an MMS or a call from a handset."""
from __future__ import annotations

from typing import List, Optional, cast

from ._core import Area, calls
from ._generated import CallResult, InboundCall, InboundMms, InboundSms, SmsResult


class Inbound(Area):
    @calls("simInboundSms")
    def sms(self, to: str, from_: str, text: str, media_urls: Optional[List[str]] = None) -> SmsResult:
        """An SMS (an MMS with ``media_urls``) to one of the account's numbers; answers its trace."""
        body: InboundSms = {"to": to, "from": from_, "text": text}
        if media_urls is not None:
            body["media_urls"] = media_urls
        return cast(SmsResult, self._core.call("simInboundSms", body=body))

    @calls("simInboundMms")
    def mms(self, to: str, from_: str, media_urls: List[str], text: Optional[str] = None) -> SmsResult:
        """An MMS to one of the account's numbers; answers its trace."""
        body: InboundMms = {"to": to, "from": from_, "media_urls": media_urls}
        if text is not None:
            body["text"] = text
        return cast(SmsResult, self._core.call("simInboundMms", body=body))

    @calls("simInboundCall")
    def call(self, to: str, from_: str) -> CallResult:
        """A call to one of the account's numbers; answers the routing decision."""
        body: InboundCall = {"to": to, "from": from_}
        return cast(CallResult, self._core.call("simInboundCall", body=body))
