"""What a suite met of the contract: operations called and their documented answers seen, deliveries, faults."""
from __future__ import annotations

from typing import Optional, cast

from ._core import Area, calls
from ._generated import Coverage as CoverageReport


class CoverageArea(Area):
    @calls("simCoverage")
    def __call__(self, run: Optional[str] = None, account_id: Optional[str] = None) -> CoverageReport:
        """The coverage of the client's account (with a key), of a run's sandboxes, of one account, or of all."""
        return cast(CoverageReport, self._core.call("simCoverage", query={"run": run, "account_id": account_id}))


def check_gate(percent: float) -> float:
    """A coverage gate is a percentage from 0 to 100; anything else is a mistake of its setting."""
    if isinstance(percent, bool) or not isinstance(percent, (int, float)) or not 0 <= percent <= 100:
        raise ValueError(f"a coverage gate is a percentage from 0 to 100, not {percent!r}")
    return float(percent)
