"""States on demand: records moved where the clock alone does not take them (docs/control-api.md)."""
from __future__ import annotations

from typing import Any, Dict, Optional, cast

from ._core import Area, calls
from ._generated import Group, RaiseOverwrite, StatusMove, StatusMoveStatus


class States(Area):
    @calls("simRaiseOverwrite")
    def raise_overwrite(self, number: str, service_provider: Optional[str] = None) -> Dict[str, Any]:
        """Raises an OSR overwrite request for one of the account's numbers."""
        body: RaiseOverwrite = {"number": number}
        if service_provider:
            body["service_provider"] = service_provider
        return cast(Dict[str, Any], self._core.call("simRaiseOverwrite", body=body))

    @calls("simMoveOrder")
    def move_order(self, order_id: str, status: StatusMoveStatus, error_code: Optional[str] = None) -> Dict[str, Any]:
        """Moves an order to a status its table allows (``error_code`` with ``ERROR``)."""
        body: StatusMove = {"status": status}
        if error_code:
            body["error_code"] = error_code
        return cast(Dict[str, Any], self._core.call("simMoveOrder", {"id": order_id}, body))

    @calls("simMoveRequest")
    def move_request(self, request_id: str, status: StatusMoveStatus, error_code: Optional[str] = None) -> Dict[str, Any]:
        """Moves a submitted request to a status its table allows."""
        body: StatusMove = {"status": status}
        if error_code:
            body["error_code"] = error_code
        return cast(Dict[str, Any], self._core.call("simMoveRequest", {"id": request_id}, body))

    @calls("simAbortBulkDip")
    def abort_bulk_dip(self, task_id: str) -> Dict[str, Any]:
        """Ends an unfinished bulk dip task ABORTED."""
        return cast(Dict[str, Any], self._core.call("simAbortBulkDip", {"id": task_id}))

    @calls("simScheduleBulkDip")
    def schedule_bulk_dip(self, task_id: str, until: str) -> Dict[str, Any]:
        """Holds a NEW bulk dip task SCHEDULED until a time."""
        return cast(Dict[str, Any], self._core.call("simScheduleBulkDip", {"id": task_id}, {"until": until}))

    @calls("simSuspendUser")
    def suspend_user(self, user_id: str) -> Dict[str, Any]:
        """Suspends a user of the account."""
        return cast(Dict[str, Any], self._core.call("simSuspendUser", {"id": user_id}))

    @calls("simReinstateUser")
    def reinstate_user(self, user_id: str) -> Dict[str, Any]:
        """Reinstates a suspended user."""
        return cast(Dict[str, Any], self._core.call("simReinstateUser", {"id": user_id}))

    @calls("simCreateGroup")
    def create_group(self, name: str) -> Group:
        """Adds a shared resource group to the account."""
        return cast(Group, self._core.call("simCreateGroup", body={"name": name}))
