"""The coverage gate's setting: a percentage from 0 to 100 (the coverage itself is ``client.coverage(run=…)``)."""
from __future__ import annotations


def check_gate(percent: float) -> float:
    """A coverage gate is a percentage from 0 to 100; anything else is a mistake of its setting."""
    if isinstance(percent, bool) or not isinstance(percent, (int, float)) or not 0 <= percent <= 100:
        raise ValueError(f"a coverage gate is a percentage from 0 to 100, not {percent!r}")
    return float(percent)
