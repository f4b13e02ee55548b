"""Snapshots of the whole state: save one under a name, restore it, list them."""
from __future__ import annotations

from typing import Any, Dict, List, cast

from ._core import Area, calls
from ._generated import SnapshotList, SnapshotListSnapshotsItem


class Snapshots(Area):
    @calls("simSaveSnapshot")
    def save(self, name: str) -> SnapshotList:
        """Saves the state under `name`."""
        return cast(SnapshotList, self._core.call("simSaveSnapshot", body={"name": name}))

    @calls("simRestoreSnapshot")
    def restore(self, name: str) -> Dict[str, Any]:
        """Puts the state saved under `name` back."""
        return cast(Dict[str, Any], self._core.call("simRestoreSnapshot", {"name": name}))

    @calls("simListSnapshots")
    def list(self) -> List[SnapshotListSnapshotsItem]:
        """The snapshots saved, with their sizes."""
        return cast(SnapshotList, self._core.call("simListSnapshots"))["snapshots"]
