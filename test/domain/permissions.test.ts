/** Who may do what (interface.md section 2), as src/domain/permissions.ts decides it. */
import { describe, expect, it } from 'vitest';
import type { Scope } from '../../src/contract.js';
import { mayAct, type Caller } from '../../src/domain/permissions.js';

const ACTIONS: Scope['action'][] = ['create', 'update', 'delete', 'list', 'get', 'checkout', 'share', 'review'];
const RESOURCES = ['api_key', 'secret_key', 'user', 'cart', 'order', 'number', 'bulk_dip_task'];
const caller = (role: Caller['role'], suspended = false): Caller => ({ role, suspended });

/** The scopes a caller may act on, as `resource:action`. */
const allowed = (c: Caller) =>
  RESOURCES.flatMap((resource) =>
    ACTIONS.filter((action) => mayAct(c, { action, resource })).map((a) => `${resource}:${a}`),
  );

describe('who may act', () => {
  it('an admin: everything', () => {
    expect(allowed(caller('admin'))).toHaveLength(RESOURCES.length * ACTIONS.length);
  });

  it('an operator: everything but writing keys, secret keys and users', () => {
    for (const resource of ['api_key', 'secret_key', 'user'])
      for (const action of ['create', 'update', 'delete'] as const)
        expect(mayAct(caller('operator'), { action, resource }), `${resource}:${action}`).toBe(false);
    expect(mayAct(caller('operator'), { action: 'list', resource: 'api_key' })).toBe(true);
    expect(mayAct(caller('operator'), { action: 'create', resource: 'cart' })).toBe(true);
  });

  it('read_only: list and get alone (bulk dip tasks, informational, whatever the action)', () => {
    const outside = allowed(caller('read_only')).filter(
      (s) => !/:(list|get)$/.test(s) && !s.startsWith('bulk_dip_task'),
    );
    expect(outside).toEqual([]);
  });

  it('a standard key and a suspended user: bulk dip tasks and nothing else', () => {
    for (const c of [caller(null), caller('admin', true)])
      expect(allowed(c)).toEqual(ACTIONS.map((a) => `bulk_dip_task:${a}`));
  });
});
