"""The control API's types and operations, generated from contract/sim.yaml by scripts/generate-clients.mjs.

Do not edit: change the contract and run ``npm run generate``.
"""
from __future__ import annotations

from typing import Any, Dict, List, Literal, NamedTuple, NotRequired, TypedDict

JsonrpcErrorError = TypedDict(
    "JsonrpcErrorError",
    {
        "code": int,
        "message": str,
    },
)

JsonrpcError = TypedDict(
    "JsonrpcError",
    {
        "jsonrpc": Literal["2.0"],
        "id": Any | None,
        "error": JsonrpcErrorError,
    },
)
"""A JSON-RPC 2.0 error answer to a request that could not be read, so without an id."""

ReadyFile = TypedDict(
    "ReadyFile",
    {
        "url": str,
        "smpp_port": int | None,
        "pid": int,
        "version": str,
    },
)
"""What `dipswitch --ready-file PATH` writes to PATH once the server listens (HTTP, and SMPP unless off), whatever its port (`--port 0` included) and log level: a launcher in any language reads it instead of the log (docs/clients.md, "The launch contract"). Written whole at once (a file beside PATH, then renamed over it), so a reader never sees part of it; removed on a clean stop."""

ErrorResponseErrorsItemSource = TypedDict(
    "ErrorResponseErrorsItemSource",
    {
        "pointer": NotRequired[str],
        "parameter": NotRequired[str],
    },
)

ErrorResponseErrorsItem = TypedDict(
    "ErrorResponseErrorsItem",
    {
        "code": str,
        "detail": str,
        "title": str,
        "sub_code": str,
        "params": NotRequired[Dict[str, Any]],
        "source": NotRequired[ErrorResponseErrorsItemSource],
    },
)

ErrorResponse = TypedDict(
    "ErrorResponse",
    {
        "errors": List[ErrorResponseErrorsItem],
    },
)

RecordEnvelope = TypedDict(
    "RecordEnvelope",
    {
        "type": str,
        "data": Dict[str, Any],
    },
)

ResetRequest = TypedDict(
    "ResetRequest",
    {
        "remove_sandboxes": NotRequired[bool],
        "keep_sandboxes": NotRequired[bool],
    },
)

ResetResultScope = Literal["account", "all"]
"""`account`: the account of the key given; `all`: the whole server."""

ResetResult = TypedDict(
    "ResetResult",
    {
        "status": Literal["reset"],
        "scope": ResetResultScope,
        "account_id": NotRequired[str],
        "accounts": int,
    },
)

AccountKeyKind = Literal["impersonated", "standard"]

AccountKeyRole = Literal["admin", "operator", "read_only"]

AccountKey = TypedDict(
    "AccountKey",
    {
        "id": str,
        "key": str,
        "name": str,
        "kind": AccountKeyKind,
        "role": AccountKeyRole | None,
        "active": bool,
    },
)

AccountListAccountsItem = TypedDict(
    "AccountListAccountsItem",
    {
        "id": str,
        "name": str,
        "keys": List[AccountKey],
    },
)

AccountList = TypedDict(
    "AccountList",
    {
        "accounts": List[AccountListAccountsItem],
    },
)

AccountDeleted = TypedDict(
    "AccountDeleted",
    {
        "id": str,
        "name": str,
        "deleted": Literal[True],
    },
)

SandboxMadeKeys = TypedDict(
    "SandboxMadeKeys",
    {
        "admin": str,
        "readonly": str,
        "standard": str,
    },
)

SandboxMade = TypedDict(
    "SandboxMade",
    {
        "id": str,
        "name": str,
        "run": NotRequired[str],
        "keys": SandboxMadeKeys,
        "numbers": List[str],
    },
)

StepKind = Literal["bulk_dip", "order", "osr_expire", "registry", "delivery"]

Step = TypedDict(
    "Step",
    {
        "id": str,
        "at": str,
        "kind": StepKind,
        "ref": str,
    },
)

ClockStateMode = Literal["real", "frozen"]

ClockState = TypedDict(
    "ClockState",
    {
        "now": str,
        "mode": ClockStateMode,
        "account_id": str,
        "pending": List[Step],
    },
)

Duration = str
"""An ISO 8601 duration of years, months, weeks, days, hours, minutes and seconds (seconds may have a fraction)."""

AdvanceRequest = TypedDict(
    "AdvanceRequest",
    {
        "by": NotRequired[Duration],
        "to": NotRequired[str],
        "next": NotRequired[Literal[True]],
        "within": NotRequired[Duration],
    },
)
"""One of `by`, `to` and `next`; `within` only with `next`."""

AdvanceResponseFiredItem = TypedDict(
    "AdvanceResponseFiredItem",
    {
        "at": str,
        "kind": str,
        "ref": str,
        "what": str,
    },
)

AdvanceResponse = TypedDict(
    "AdvanceResponse",
    {
        "from": str,
        "now": str,
        "moved": str,
        "fired": List[AdvanceResponseFiredItem],
    },
)

InboundSms = TypedDict(
    "InboundSms",
    {
        "to": str,
        "from": str,
        "text": str,
        "media_urls": NotRequired[List[str]],
    },
)

InboundMms = TypedDict(
    "InboundMms",
    {
        "to": str,
        "from": str,
        "text": NotRequired[str],
        "media_urls": List[str],
    },
)

TraceStep = TypedDict(
    "TraceStep",
    {
        "step": str,
        "detail": str,
        "status": NotRequired[int | None],
    },
)

SmsResultOutboundItem = TypedDict(
    "SmsResultOutboundItem",
    {
        "from": str,
        "to": str,
        "text": str,
        "reason": str,
    },
)

SmsResult = TypedDict(
    "SmsResult",
    {
        "message": Dict[str, Any],
        "trace": List[TraceStep],
        "outbound": List[SmsResultOutboundItem],
    },
)

InboundCall = TypedDict(
    "InboundCall",
    {
        "to": str,
        "from": str,
    },
)

CallResultDecisionSource = Literal["destination", "switch", "none"]

CallResultDecision = TypedDict(
    "CallResultDecision",
    {
        "type": str,
        "data": str | None,
        "source": CallResultDecisionSource,
        "destination_id": NotRequired[str],
    },
)

CallResult = TypedDict(
    "CallResult",
    {
        "call": Dict[str, Any],
        "decision": CallResultDecision,
        "steps": List[TraceStep],
        "charges": List[str],
    },
)

StatusMoveStatus = Literal["NEW", "PROCESSING", "MANUAL", "REVIEW", "AUTHOR_REVIEW", "COMPLETED", "ERROR", "CANCELLED"]

StatusMove = TypedDict(
    "StatusMove",
    {
        "status": StatusMoveStatus,
        "error_code": NotRequired[str],
    },
)

ScheduleRequest = TypedDict(
    "ScheduleRequest",
    {
        "until": str,
    },
)

GroupRequest = TypedDict(
    "GroupRequest",
    {
        "name": str,
    },
)

Group = TypedDict(
    "Group",
    {
        "id": str,
        "name": str,
        "inserted_at": str,
    },
)

RaiseOverwrite = TypedDict(
    "RaiseOverwrite",
    {
        "number": str,
        "service_provider": NotRequired[str],
    },
)

SandboxRequest = TypedDict(
    "SandboxRequest",
    {
        "name": NotRequired[str],
        "run": NotRequired[str],
    },
)

SnapshotRequest = TypedDict(
    "SnapshotRequest",
    {
        "name": str,
    },
)

SnapshotListSnapshotsItem = TypedDict(
    "SnapshotListSnapshotsItem",
    {
        "name": str,
        "bytes": int,
    },
)

SnapshotList = TypedDict(
    "SnapshotList",
    {
        "name": NotRequired[str],
        "snapshots": List[SnapshotListSnapshotsItem],
    },
)

FaultMatchSmpp = Literal["bind", "submit_sm", "deliver_sm", "enquire_link"]
"""SMPP: a bind (any of the three), a submit_sm from the client, a deliver_sm to it, or an enquire_link."""

FaultMatch = TypedDict(
    "FaultMatch",
    {
        "any": NotRequired[Literal[True]],
        "method": NotRequired[str],
        "path": NotRequired[str],
        "operation_id": NotRequired[str],
        "account_id": NotRequired[str],
        "url": NotRequired[str],
        "smpp": NotRequired[FaultMatchSmpp],
        "system_id": NotRequired[str],
    },
)

FaultEffect = TypedDict(
    "FaultEffect",
    {
        "status": NotRequired[int],
        "body": NotRequired[Any],
        "delay_ms": NotRequired[int],
        "drop": NotRequired[bool],
        "malformed": NotRequired[bool],
        "fail": NotRequired[bool],
        "duplicate": NotRequired[bool],
        "reorder": NotRequired[bool],
        "smpp_status": NotRequired[int],
    },
)

FaultRequest = TypedDict(
    "FaultRequest",
    {
        "match": FaultMatch,
        "effect": FaultEffect,
        "times": NotRequired[int],
        "probability": NotRequired[float],
    },
)

FaultScope = Literal["account", "all"]
"""`account`: made with an account's key, it matches only that account's calls and deliveries (`match.account_id`) and only that account lists or removes it; `all`: made with the control API's authority, it matches every account (narrowed by `match.account_id`)."""

Fault = TypedDict(
    "Fault",
    {
        "id": str,
        "match": FaultMatch,
        "effect": FaultEffect,
        "times": int | None,
        "probability": float | None,
        "fired": int,
        "spent": bool,
        "scope": FaultScope,
        "warning": NotRequired[str],
    },
)

FaultList = TypedDict(
    "FaultList",
    {
        "faults": List[Fault],
    },
)

CoverageAnswers = Dict[str, int]
"""How often each answer was seen, by HTTP status (or SMPP command_status, or `no answer`)."""

CoverageSummary = TypedDict(
    "CoverageSummary",
    {
        "operations_called": int,
        "operations": int,
        "answers_seen": int,
        "answers": int,
        "percent": float,
    },
)

CoverageOperationsItemAnswersItem = TypedDict(
    "CoverageOperationsItemAnswersItem",
    {
        "status": int,
        "documented": bool,
        "seen": int,
    },
)

CoverageOperationsItem = TypedDict(
    "CoverageOperationsItem",
    {
        "operation_id": str,
        "method": str,
        "path": str,
        "calls": int,
        "answers": List[CoverageOperationsItemAnswersItem],
    },
)

CoverageDelivered = TypedDict(
    "CoverageDelivered",
    {
        "kind": str,
        "delivered": int,
        "answers": CoverageAnswers,
    },
)

CoverageDeliveries = TypedDict(
    "CoverageDeliveries",
    {
        "events": List[CoverageDelivered],
        "cdrs": List[CoverageDelivered],
        "formats": List[CoverageDelivered],
    },
)

CoverageFaultsItem = TypedDict(
    "CoverageFaultsItem",
    {
        "effect": str,
        "fired": int,
    },
)

Coverage = TypedDict(
    "Coverage",
    {
        "summary": CoverageSummary,
        "operations": List[CoverageOperationsItem],
        "deliveries": CoverageDeliveries,
        "faults": List[CoverageFaultsItem],
    },
)

FootprintContract = TypedDict(
    "FootprintContract",
    {
        "title": str,
        "version": str,
    },
)
"""The contract the footprint was taken against (its info)."""

FootprintOperationsItem = TypedDict(
    "FootprintOperationsItem",
    {
        "operation_id": str,
        "method": str,
        "path": str,
        "calls": int,
        "statuses": List[str],
        "request_fields": List[str],
        "query_parameters": List[str],
        "values": Dict[str, List[str]],
        "response_fields": Dict[str, List[str]],
    },
)

FootprintWebhooksItem = TypedDict(
    "FootprintWebhooksItem",
    {
        "webhook": str,
        "delivered": int,
        "fields": List[str],
    },
)

Footprint = TypedDict(
    "Footprint",
    {
        "contract": FootprintContract,
        "operations": List[FootprintOperationsItem],
        "webhooks": List[FootprintWebhooksItem],
    },
)
"""What a suite used of the simulated API's contract (GET /__sim/footprint). Field paths name an object's fields with dots, an array's items with `[]` and a map's entries with `*` (`data.numbers[].number`); the body's own root is the empty path."""

ContractDiffFootprint = TypedDict(
    "ContractDiffFootprint",
    {
        "source": str,
        "operations": int,
        "webhooks": int,
    },
)

ContractDiffFailOn = Literal["breaks", "may-break", "never"]
"""The verdict that makes the exit status 1."""

ContractDiffSummary = TypedDict(
    "ContractDiffSummary",
    {
        "changes": int,
        "breaking": int,
        "may_break": int,
        "safe": int,
        "breaks_you": int,
        "may_break_you": int,
        "not_used": int,
    },
)

ContractDiffChangesItemLevel = Literal["breaking", "may-break", "safe"]

ContractDiffChangesItemOperationKind = Literal["operation", "webhook"]

ContractDiffChangesItemOperation = TypedDict(
    "ContractDiffChangesItemOperation",
    {
        "key": str,
        "kind": ContractDiffChangesItemOperationKind,
        "method": str,
        "path": str,
        "operation_id": NotRequired[str],
    },
)

ContractDiffChangesItemPlace = Literal["operation", "security", "parameter", "request", "response", "payload"]

ContractDiffChangesItemVerdict = Literal["breaks-you", "may-break-you", "not-used", "safe"]
"""What the change means for the suite the footprint is of (without a footprint, every change is the team's)."""

ContractDiffChangesItemDrift = Literal["not-simulated", "not-served", "differs"]
"""With `--against`: an operation the provider serves that dipswitch does not simulate, one dipswitch simulates that is not served, or one that differs."""

ContractDiffChangesItem = TypedDict(
    "ContractDiffChangesItem",
    {
        "id": str,
        "level": ContractDiffChangesItemLevel,
        "operation": ContractDiffChangesItemOperation,
        "place": ContractDiffChangesItemPlace,
        "status": NotRequired[str],
        "media_type": NotRequired[str],
        "parameter": NotRequired[str],
        "field": NotRequired[str],
        "values": NotRequired[List[str]],
        "bound": NotRequired[float],
        "text": str,
        "verdict": ContractDiffChangesItemVerdict,
        "why": str,
        "drift": NotRequired[ContractDiffChangesItemDrift],
    },
)

ContractDiffSide = TypedDict(
    "ContractDiffSide",
    {
        "source": str,
        "title": str,
        "version": str,
    },
)

ContractDiff = TypedDict(
    "ContractDiff",
    {
        "base": ContractDiffSide,
        "next": ContractDiffSide,
        "footprint": NotRequired[ContractDiffFootprint],
        "against": NotRequired[bool],
        "fail_on": ContractDiffFailOn,
        "failed": bool,
        "summary": ContractDiffSummary,
        "changes": List[ContractDiffChangesItem],
    },
)
"""`dipswitch diff --format json`: the changes from one contract to the next, each classified, and crossed with a footprint when one is given (docs/contract-changes.md)."""

AdmissionLimits = TypedDict(
    "AdmissionLimits",
    {
        "account_in_flight": int,
        "calls_in_flight": int,
        "account_backlog": int,
        "account_rate": float | None,
    },
)

AdmissionAccountsItem = TypedDict(
    "AdmissionAccountsItem",
    {
        "account_id": str,
        "running": int,
        "waiting": int,
        "refused": int,
        "mean_wait_ms": float,
    },
)

Admission = TypedDict(
    "Admission",
    {
        "limits": AdmissionLimits,
        "accounts": List[AdmissionAccountsItem],
    },
)

VerifyCount = TypedDict(
    "VerifyCount",
    {
        "exactly": NotRequired[int],
        "at_least": NotRequired[int],
        "at_most": NotRequired[int],
    },
)
"""How many matches there must be: exactly, at least or at most N (at least 1 when not given)."""

VerifyRequestsMatch = TypedDict(
    "VerifyRequestsMatch",
    {
        "any": NotRequired[Literal[True]],
        "method": NotRequired[str],
        "path": NotRequired[str],
        "operation_id": NotRequired[str],
        "query": NotRequired[Dict[str, str]],
        "body": NotRequired[Any],
        "headers": NotRequired[List[str]],
        "status": NotRequired[int],
        "account_id": NotRequired[str],
    },
)

VerifyRequestsApi = Literal["v1", "sim", "smpp"]

VerifyRequests = TypedDict(
    "VerifyRequests",
    {
        "match": VerifyRequestsMatch,
        "count": NotRequired[VerifyCount],
        "api": NotRequired[VerifyRequestsApi],
    },
)

VerifyDeliveriesMatchOutcome = Literal["pending", "delivered", "retrying", "failed", "refused", "held", "waiting"]

DeliveryKind = Literal["event", "cdr", "sms", "mms", "dlr", "route", "result"]
"""What a delivery carries: an event, a CDR, an inbound message to a switch (sms, mms), an SMPP receipt (dlr), a route callback, a bulk dip's result file."""

VerifyDeliveriesMatch = TypedDict(
    "VerifyDeliveriesMatch",
    {
        "any": NotRequired[Literal[True]],
        "kind": NotRequired[DeliveryKind],
        "target": NotRequired[str],
        "method": NotRequired[str],
        "body": NotRequired[Any],
        "outcome": NotRequired[VerifyDeliveriesMatchOutcome],
        "account_id": NotRequired[str],
    },
)

VerifyDeliveries = TypedDict(
    "VerifyDeliveries",
    {
        "match": VerifyDeliveriesMatch,
        "count": NotRequired[VerifyCount],
    },
)

Verified = TypedDict(
    "Verified",
    {
        "count": int,
        "matches": List[int | str],
    },
)

NearMissDifferencesItem = TypedDict(
    "NearMissDifferencesItem",
    {
        "field": str,
        "expected": Any,
        "actual": Any,
    },
)

NearMiss = TypedDict(
    "NearMiss",
    {
        "id": int | str,
        "summary": str,
        "differences": List[NearMissDifferencesItem],
    },
)

VerifyFailedErrorsItemSource = TypedDict(
    "VerifyFailedErrorsItemSource",
    {
        "pointer": NotRequired[str],
        "parameter": NotRequired[str],
    },
)

VerifyFailedErrorsItem = TypedDict(
    "VerifyFailedErrorsItem",
    {
        "code": str,
        "detail": str,
        "title": str,
        "sub_code": str,
        "params": NotRequired[Dict[str, Any]],
        "source": NotRequired[VerifyFailedErrorsItemSource],
    },
)

VerifyFailed = TypedDict(
    "VerifyFailed",
    {
        "errors": List[VerifyFailedErrorsItem],
        "count": NotRequired[int],
        "expected": NotRequired[str],
        "near_misses": NotRequired[List[NearMiss]],
        "near_misses_left_out": NotRequired[int],
        "notes": NotRequired[List[str]],
    },
)

JournalEntryRequest = TypedDict(
    "JournalEntryRequest",
    {
        "headers": Dict[str, str],
        "query": NotRequired[Dict[str, Any]],
        "body": Any,
    },
)

JournalEntryResponse = TypedDict(
    "JournalEntryResponse",
    {
        "body": Any,
    },
)

JournalEntry = TypedDict(
    "JournalEntry",
    {
        "id": int,
        "at": str,
        "wall_at": str,
        "method": str,
        "path": str,
        "operation_id": str | None,
        "account_id": str | None,
        "status": int | None,
        "latency_ms": float,
        "trace_id": NotRequired[str],
        "request": JournalEntryRequest,
        "response": JournalEntryResponse,
    },
)

JournalPage = TypedDict(
    "JournalPage",
    {
        "count": int,
        "requests": List[JournalEntry],
        "next_cursor": str | None,
    },
)

Attempt = TypedDict(
    "Attempt",
    {
        "at": str,
        "status": int | None,
        "error": str | None,
        "duration_ms": float,
        "trace_id": NotRequired[str],
    },
)

DeliveryOutcome = Literal["pending", "delivered", "retrying", "failed", "refused", "held", "waiting"]
"""waiting: an SMPP message for a key with no receiving bind, sent when one binds (docs/protocols.md, "SMPP")."""

Delivery = TypedDict(
    "Delivery",
    {
        "id": str,
        "inserted_at": str,
        "account_id": str,
        "kind": DeliveryKind,
        "method": str,
        "target": str,
        "headers": Dict[str, str],
        "body": str,
        "attempts": List[Attempt],
        "outcome": DeliveryOutcome,
        "next_attempt_at": str | None,
        "note": NotRequired[str | None],
        "trace_id": NotRequired[str],
    },
)

Listener = TypedDict(
    "Listener",
    {
        "id": str,
        "name": str,
        "all": bool,
        "account_id": str,
        "here": NotRequired[bool],
    },
)
"""A listener as `GET /__sim/listen` opened it."""

ListenerList = TypedDict(
    "ListenerList",
    {
        "count": int,
        "listeners": List[Listener],
    },
)

ListenedDeliveryMethod = Literal["GET", "POST", "PUT"]

ListenedDelivery = TypedDict(
    "ListenedDelivery",
    {
        "id": str,
        "delivery_id": str,
        "kind": DeliveryKind,
        "target": str,
        "method": ListenedDeliveryMethod,
        "headers": Dict[str, str],
        "body_base64": str,
    },
)
"""One attempt of a delivery, as a listener receives it: the request as sent, to be sent on to the local receiver unchanged (a signature over the body stays valid)."""

ListenerAnswer = TypedDict(
    "ListenerAnswer",
    {
        "id": str,
        "status": NotRequired[int],
        "headers": NotRequired[Dict[str, str]],
        "body": NotRequired[str],
        "body_cut": NotRequired[bool],
        "error": NotRequired[str],
    },
)

DeliveryList = TypedDict(
    "DeliveryList",
    {
        "count": int,
        "deliveries": List[Delivery],
        "next_cursor": str | None,
    },
)

TimelineEntry = TypedDict(
    "TimelineEntry",
    {
        "at": str,
        "step": str,
        "detail": str,
    },
)

ScenarioResult = TypedDict(
    "ScenarioResult",
    {
        "name": str,
        "title": str,
        "passed": bool,
        "error": NotRequired[str],
        "timeline": List[TimelineEntry],
    },
)

HealthResponse = TypedDict(
    "HealthResponse",
    {
        "status": Literal["ok"],
        "version": str,
    },
)

ReadyResponse = TypedDict(
    "ReadyResponse",
    {
        "status": Literal["ready"],
        "version": str,
    },
)

RestoreSnapshotResponse = TypedDict(
    "RestoreSnapshotResponse",
    {
        "name": str,
        "restored": Literal[True],
    },
)

ListScenariosResponse = TypedDict(
    "ListScenariosResponse",
    {
        "scenarios": List[str],
        "titles": Dict[str, str],
        "problems": List[str],
    },
)

OpenapiQuery = TypedDict(
    "OpenapiQuery",
    {
        "format": NotRequired[str],
    },
)
"""The query of `GET /__sim/openapi`: each parameter absent unless given."""

RequestsQuery = TypedDict(
    "RequestsQuery",
    {
        "api": NotRequired[str],
        "path": NotRequired[str],
        "method": NotRequired[str],
        "status": NotRequired[int],
        "operation_id": NotRequired[str],
        "account_id": NotRequired[str],
        "trace_id": NotRequired[str],
        "since": NotRequired[str],
        "until": NotRequired[str],
        "limit": NotRequired[int],
        "cursor": NotRequired[str],
    },
)
"""The query of `GET /__sim/requests`: each parameter absent unless given."""

DeliveriesQuery = TypedDict(
    "DeliveriesQuery",
    {
        "kind": NotRequired[str],
        "account_id": NotRequired[str],
        "limit": NotRequired[int],
        "cursor": NotRequired[str],
    },
)
"""The query of `GET /__sim/deliveries`: each parameter absent unless given."""

CoverageQuery = TypedDict(
    "CoverageQuery",
    {
        "run": NotRequired[str],
        "account_id": NotRequired[str],
    },
)
"""The query of `GET /__sim/coverage`: each parameter absent unless given."""

FootprintQuery = TypedDict(
    "FootprintQuery",
    {
        "run": NotRequired[str],
        "account_id": NotRequired[str],
    },
)
"""The query of `GET /__sim/footprint`: each parameter absent unless given."""


class Operation(NamedTuple):
    """One operation of the control API: its operationId, method and path template."""

    id: str
    method: str
    path: str


#: Every operation of contract/sim.yaml, by operationId.
CONTRACT_OPERATIONS: Dict[str, Operation] = {
    "simOpenapi": Operation("simOpenapi", "GET", "/__sim/openapi"),
    "simHealth": Operation("simHealth", "GET", "/__sim/health"),
    "simReady": Operation("simReady", "GET", "/__sim/ready"),
    "simReset": Operation("simReset", "POST", "/__sim/reset"),
    "simAccounts": Operation("simAccounts", "GET", "/__sim/accounts"),
    "simCreateSandbox": Operation("simCreateSandbox", "POST", "/__sim/accounts"),
    "simDeleteAccount": Operation("simDeleteAccount", "DELETE", "/__sim/accounts/{id}"),
    "simAddFault": Operation("simAddFault", "POST", "/__sim/faults"),
    "simListFaults": Operation("simListFaults", "GET", "/__sim/faults"),
    "simGetFault": Operation("simGetFault", "GET", "/__sim/faults/{id}"),
    "simDeleteFault": Operation("simDeleteFault", "DELETE", "/__sim/faults/{id}"),
    "simRequests": Operation("simRequests", "GET", "/__sim/requests"),
    "simListSnapshots": Operation("simListSnapshots", "GET", "/__sim/snapshots"),
    "simSaveSnapshot": Operation("simSaveSnapshot", "POST", "/__sim/snapshots"),
    "simRestoreSnapshot": Operation("simRestoreSnapshot", "POST", "/__sim/snapshots/{name}/restore"),
    "simClock": Operation("simClock", "GET", "/__sim/clock"),
    "simAdvance": Operation("simAdvance", "POST", "/__sim/clock/advance"),
    "simFreeze": Operation("simFreeze", "POST", "/__sim/clock/freeze"),
    "simResume": Operation("simResume", "POST", "/__sim/clock/resume"),
    "simDeliveries": Operation("simDeliveries", "GET", "/__sim/deliveries"),
    "simInboundSms": Operation("simInboundSms", "POST", "/__sim/inbound/sms"),
    "simInboundMms": Operation("simInboundMms", "POST", "/__sim/inbound/mms"),
    "simInboundCall": Operation("simInboundCall", "POST", "/__sim/inbound/call"),
    "simRaiseOverwrite": Operation("simRaiseOverwrite", "POST", "/__sim/osr/overwrite_requests"),
    "simMoveOrder": Operation("simMoveOrder", "POST", "/__sim/orders/{id}/status"),
    "simMoveRequest": Operation("simMoveRequest", "POST", "/__sim/requests/{id}/status"),
    "simAbortBulkDip": Operation("simAbortBulkDip", "POST", "/__sim/bulk_dip_tasks/{id}/abort"),
    "simScheduleBulkDip": Operation("simScheduleBulkDip", "POST", "/__sim/bulk_dip_tasks/{id}/schedule"),
    "simSuspendUser": Operation("simSuspendUser", "POST", "/__sim/users/{id}/suspend"),
    "simReinstateUser": Operation("simReinstateUser", "POST", "/__sim/users/{id}/reinstate"),
    "simCreateGroup": Operation("simCreateGroup", "POST", "/__sim/shared_resource_groups"),
    "simListScenarios": Operation("simListScenarios", "GET", "/__sim/scenarios"),
    "simScenario": Operation("simScenario", "POST", "/__sim/scenarios/{name}"),
    "simDashboard": Operation("simDashboard", "GET", "/__sim/ui"),
    "simDashboardAsset": Operation("simDashboardAsset", "GET", "/__sim/ui/{asset}"),
    "simVerifyRequests": Operation("simVerifyRequests", "POST", "/__sim/requests/verify"),
    "simVerifyDeliveries": Operation("simVerifyDeliveries", "POST", "/__sim/deliveries/verify"),
    "simCoverage": Operation("simCoverage", "GET", "/__sim/coverage"),
    "simFootprint": Operation("simFootprint", "GET", "/__sim/footprint"),
    "simMetrics": Operation("simMetrics", "GET", "/__sim/metrics"),
    "simAdmission": Operation("simAdmission", "GET", "/__sim/admission"),
    "simRequestStream": Operation("simRequestStream", "GET", "/__sim/requests/stream"),
    "simMcp": Operation("simMcp", "POST", "/__sim/mcp"),
    "simListen": Operation("simListen", "GET", "/__sim/listen"),
    "simListeners": Operation("simListeners", "GET", "/__sim/listeners"),
    "simListenAnswer": Operation("simListenAnswer", "POST", "/__sim/listen/answers"),
    "simDelivery": Operation("simDelivery", "GET", "/__sim/deliveries/{id}"),
    "simRedeliver": Operation("simRedeliver", "POST", "/__sim/deliveries/{id}/redeliver"),
}

#: The operations no client offers (`x-client: { omit }`), with the reason.
OMITTED: Dict[str, str] = {
    "simDashboard": "the dashboard's page: for a browser, not a test",
    "simDashboardAsset": "the dashboard's files: for a browser, not a test",
    "simRequestStream": "server-sent events of the journal: requests.list pages the same calls",
    "simMcp": "the MCP endpoint: for an agent's MCP client (docs/agents.md), not a test",
    "simListen": "a listener's stream: `dipswitch listen` (or the Node package's `listen`) forwards it to a local receiver (docs/hosted.md)",
    "simListenAnswer": "a listener's answers: posted by `dipswitch listen` for each delivery it forwards",
}
