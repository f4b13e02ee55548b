"""Fault rules: what they match (calls, deliveries, SMPP PDUs), what they do, and how often."""
from __future__ import annotations

from typing import List, Literal, Optional, Union, cast

from ._core import Area, Core, calls
from ._generated import Fault, FaultEffect, FaultList, FaultMatch, FaultRequest

#: A rule that fires on every match until removed: said, never implied by a missing count.
UNLIMITED: Literal["unlimited"] = "unlimited"


class FaultRule:
    """A rule as made: its id, what the server said of it, how often it has fired now, and its removal."""

    def __init__(self, core: Core, made: Fault):
        self._core = core
        self.made = made
        self.id: str = made["id"]
        self.warning: Optional[str] = made.get("warning")

    @calls("simListFaults")
    def fired(self) -> int:
        """How often the rule has fired, as the server counts it now (0 once it is removed or reset)."""
        listed = cast(FaultList, self._core.call("simListFaults"))
        return next((r["fired"] for r in listed["faults"] if r["id"] == self.id), 0)

    @calls("simDeleteFault")
    def remove(self) -> None:
        """Removes the rule."""
        self._core.call("simDeleteFault", {"id": self.id})


class Faults(Area):
    @calls("simAddFault")
    def add(
        self,
        match: FaultMatch,
        effect: FaultEffect,
        *,
        times: Union[int, Literal["unlimited"]],
        probability: Optional[float] = None,
    ) -> FaultRule:
        """Makes a rule: ``times=1`` fires once; ``times=UNLIMITED`` on every match until removed."""
        body: FaultRequest = {"match": match, "effect": effect}
        if times != UNLIMITED:
            if isinstance(times, bool) or not isinstance(times, int):
                raise TypeError(f"times is a count of 1 or more, or dipswitch.UNLIMITED, not {times!r}")
            body["times"] = times
        if probability is not None:
            body["probability"] = probability
        return FaultRule(self._core, cast(Fault, self._core.call("simAddFault", body=body)))

    @calls("simListFaults")
    def list(self) -> List[Fault]:
        """The rules the client may see: its account's, or every rule with the admin token alone."""
        return cast(FaultList, self._core.call("simListFaults"))["faults"]
