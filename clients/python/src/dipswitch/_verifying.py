"""A verify's call: the count held (what matched), or a VerificationError with what came nearest."""
from __future__ import annotations

from typing import Any, cast

from ._core import ControlError, Core, VerificationError
from ._generated import Verified


def verifying(core: Core, operation: str, body: Any, of: str) -> Verified:
    __tracebackhide__ = True
    try:
        return cast(Verified, core.call(operation, body=body))
    except ControlError as e:
        if e.code == "verification_failed":
            raise VerificationError(e.body, of) from None
        raise
