"""The account's clock: read it, move it forward (running what falls due), freeze it, resume it."""
from __future__ import annotations

from typing import Optional, cast

from ._core import Area, calls
from ._generated import AdvanceRequest, AdvanceResponse, ClockState


class Clock(Area):
    @calls("simClock")
    def get(self) -> ClockState:
        """The clock, its mode and the steps waiting on it."""
        return cast(ClockState, self._core.call("simClock"))

    def now(self) -> str:
        """The time on the account's clock (ISO 8601)."""
        return self.get()["now"]

    @calls("simAdvance")
    def advance(
        self, by: Optional[str] = None, *, to: Optional[str] = None, next: bool = False, within: Optional[str] = None
    ) -> AdvanceResponse:
        """Moves the clock by an ISO 8601 duration (``PT10M``), to a time, or to the next step (``within`` how far)."""
        body: AdvanceRequest = {}
        if by is not None:
            body["by"] = by
        if to is not None:
            body["to"] = to
        if next:
            body["next"] = True
        if within is not None:
            body["within"] = within
        return cast(AdvanceResponse, self._core.call("simAdvance", body=body))

    @calls("simFreeze")
    def freeze(self) -> ClockState:
        """Stops the clock following wall time."""
        return cast(ClockState, self._core.call("simFreeze"))

    @calls("simResume")
    def resume(self) -> ClockState:
        """Makes the clock follow wall time again."""
        return cast(ClockState, self._core.call("simResume"))
