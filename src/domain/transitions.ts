/**
 * Lifecycles as data: each status and the statuses it may move to. The spec shows only NEW for
 * orders and NEW, MANUAL, REVIEW, AUTHOR_REVIEW, ERROR for requests; the rest are dipswitch's
 * (docs/simulation.md), ready for the scheduler to drive.
 */
import type { components } from '../generated/api.js';

export type OrderStatus = components['schemas']['order_status'];
export type RequestStatus = components['schemas']['request_status'];

export const orderTransitions: Record<OrderStatus, OrderStatus[]> = {
  NEW: ['PROCESSING', 'CANCELLED'],
  PROCESSING: ['COMPLETED', 'ERROR'],
  COMPLETED: [],
  ERROR: [],
  CANCELLED: [],
};

export const requestTransitions: Record<RequestStatus, RequestStatus[]> = {
  NEW: ['PROCESSING', 'MANUAL', 'REVIEW', 'CANCELLED'],
  PROCESSING: ['COMPLETED', 'ERROR', 'MANUAL', 'REVIEW'],
  MANUAL: ['PROCESSING', 'COMPLETED', 'ERROR'],
  REVIEW: ['AUTHOR_REVIEW', 'PROCESSING', 'ERROR'],
  AUTHOR_REVIEW: ['REVIEW', 'PROCESSING', 'CANCELLED'],
  ERROR: ['PROCESSING', 'CANCELLED'],
  COMPLETED: [],
  CANCELLED: [],
};

/** Spec: documents can be uploaded or deleted only while the request is in one of these. */
export const DOCUMENT_EDITABLE: readonly RequestStatus[] = ['NEW', 'MANUAL', 'REVIEW', 'AUTHOR_REVIEW', 'ERROR'];

/** Checks a move against its table: a lifecycle that leaves its table is a dipswitch bug. */
export function assertMove<S extends string>(table: Record<S, S[]>, from: S, to: S): S {
  if (!table[from].includes(to)) throw new Error(`no move from ${from} to ${to} in the lifecycle table`);
  return to;
}

export type BulkDipStatus = components['schemas']['bulk_dip_task']['status'];

/** A timed step: the status a record moves to, and how long after entering its current one. */
export interface Timed<S extends string> {
  next: S;
  /** Milliseconds, given the record's size (numbers of a dip, requests of an order). */
  afterMs: (size: number) => number;
}

/** Bulk dip: NEW → PROCESSING → STORING → DELIVERING → COMPLETED, longer for more numbers. */
const bulkDip = {
  NEW: { next: 'PROCESSING', afterMs: () => 1_000 },
  /** Held by the control API until its time; the step is scheduled at that time. */
  SCHEDULED: { next: 'PROCESSING', afterMs: () => 0 },
  PROCESSING: { next: 'STORING', afterMs: (n) => 2_000 + 2 * n },
  STORING: { next: 'DELIVERING', afterMs: (n) => 1_000 + Math.ceil(n / 2) },
  DELIVERING: { next: 'COMPLETED', afterMs: () => 1_000 },
} as const satisfies Partial<Record<BulkDipStatus, Timed<BulkDipStatus>>>;
export const bulkDipSteps: Partial<Record<BulkDipStatus, Timed<BulkDipStatus>>> = bulkDip;
/** A new task's first step. */
export const BULK_DIP_FIRST: Timed<BulkDipStatus> = bulkDip.NEW;

/** Orders: NEW → PROCESSING → COMPLETED (or ERROR), longer for more requests; their requests move with them. */
const order = {
  NEW: { next: 'PROCESSING', afterMs: () => 5_000 },
  PROCESSING: { next: 'COMPLETED', afterMs: (n) => 30_000 + 5_000 * n },
} as const satisfies Partial<Record<OrderStatus, Timed<OrderStatus>>>;
export const orderSteps: Partial<Record<OrderStatus, Timed<OrderStatus>>> = order;
/** A new order's first step, and the step that ends PROCESSING. */
export const ORDER_FIRST: Timed<OrderStatus> = order.NEW;
export const ORDER_PROCESSING: Timed<OrderStatus> = order.PROCESSING;

/** How long an OSR overwrite request waits for review before it goes STALE. */
export const OSR_REVIEW_WINDOW_MS = 7 * 24 * 3600_000;

/** Magic values that make a record fail, so a client can test its error paths (docs/simulation.md, "Magic values"). */
export const MAGIC = {
  /** A bulk dip whose reference_id starts so ends ERROR with BAD_SOURCE_FILE. */
  badSourceFile: 'fail-bad-source',
  /** A request whose name starts so ends ERROR, and its order with it. */
  failingRequest: 'fail-',
} as const;
