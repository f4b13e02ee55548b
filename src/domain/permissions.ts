/**
 * Who may do what (interface.md section 2). Bulk dip tasks are informational lookups, which every
 * key may use; everything else depends on the key's kind and its user's role.
 */
import type { Role } from './rows.js';
import type { Scope } from '../contract.js';

export interface Caller {
  /** null for a standard key. */
  role: Role | null;
  suspended: boolean;
}

const INFORMATIONAL = new Set(['bulk_dip_task']);
const CREDENTIALS = new Set(['api_key', 'secret_key', 'user']);
const WRITES = new Set(['create', 'update', 'delete']);

export function mayAct(caller: Caller, scope: Scope): boolean {
  if (INFORMATIONAL.has(scope.resource)) return true;
  if (caller.role === null || caller.suspended) return false;
  switch (caller.role) {
    case 'admin':
      return true;
    case 'operator':
      return !(CREDENTIALS.has(scope.resource) && WRITES.has(scope.action));
    case 'read_only':
      return scope.action === 'list' || scope.action === 'get';
  }
}
