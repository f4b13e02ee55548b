/**
 * Lifecycles as data: each status and the statuses it may move to. The spec shows only NEW for
 * orders and NEW, MANUAL, REVIEW, AUTHOR_REVIEW, ERROR for requests; the rest are dipswitch's
 * (README), ready for the scheduler to drive.
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

export const canMove = <S extends string>(table: Record<S, S[]>, from: S, to: S): boolean => table[from].includes(to);
