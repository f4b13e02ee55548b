/** What a call's work reads with the caller's key on PostgreSQL, learned from the works of its task (src/store/postgres/read_ahead.ts). */
import { describe, expect, it } from 'vitest';
import { REMEMBERED_PAGES, ReadAhead } from '../../src/store/postgres/read_ahead.js';
import type { PageWindow } from '../../src/store/page.js';

const window: PageWindow = { size: 5, fromEnd: false, newestFirst: false };
const call = (task: string, args: Record<string, string>) => ({ writes: false, task, args });

describe('ReadAhead', () => {
  it('reads nothing ahead for a task no work taught it', () => {
    expect(new ReadAhead().ahead(call('getCart', { id: 'A' }))).toEqual({});
  });

  it('reads the row of the collection by the argument whose value the first read’s id was', () => {
    const ahead = new ReadAhead();
    ahead.learn(call('getCartRequest', { cart_id: 'C1', id: 'R1' }), { collection: 'carts', id: 'C1' });
    expect(ahead.ahead(call('getCartRequest', { cart_id: 'C2', id: 'R2' }))).toEqual({
      row: { collection: 'carts', id: 'C2' },
    });
    // a first read by an id no argument gave teaches nothing, and forgets what was taught
    ahead.learn(call('getCartRequest', { cart_id: 'C3', id: 'R3' }), { collection: 'carts', id: 'elsewhere' });
    expect(ahead.ahead(call('getCartRequest', { cart_id: 'C4', id: 'R4' }))).toEqual({});
  });

  it('reads the page a work of the same task and arguments read first, and remembers a bounded number', () => {
    const ahead = new ReadAhead();
    ahead.learn(call('listCarts', { first: '5' }), { collection: 'carts', accountId: 'a', window });
    expect(ahead.ahead(call('listCarts', { first: '5' }))).toEqual({ page: { collection: 'carts', window } });
    expect(ahead.ahead(call('listCarts', { first: '6' }))).toEqual({});
    for (let n = 0; n < REMEMBERED_PAGES; n++)
      ahead.learn(call('listCarts', { after: `cursor ${n}` }), { collection: 'carts', accountId: 'a', window });
    expect(ahead.ahead(call('listCarts', { first: '5' }))).toEqual({});
    expect(ahead.ahead(call('listCarts', { after: `cursor ${REMEMBERED_PAGES - 1}` })).page).toBeDefined();
    // a work that read nothing first forgets the page of its arguments
    ahead.learn(call('listCarts', { after: `cursor ${REMEMBERED_PAGES - 1}` }), undefined);
    expect(ahead.ahead(call('listCarts', { after: `cursor ${REMEMBERED_PAGES - 1}` }))).toEqual({});
  });
});
