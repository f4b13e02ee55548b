/**
 * The delivery log across accounts, in pages (GET /__sim/deliveries without a key): by account, then
 * oldest first; every delivery once, on both backends; a key's own log whole unless it asks for a page.
 */
import { describe, expect, it } from 'vitest';
import { numberEvents, useReceiver, useServer } from '../support/helpers.js';

describe('the delivery log across accounts, in pages', () => {
  const server = useServer();
  const receiver = useReceiver();

  /** A sandbox whose number is updated `n` times, each update an event delivered. */
  async function sandboxWithEvents(n: number) {
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: {} })).body;
    await numberEvents(server(), box, `${receiver().url}/ev`, n);
    return { id: box.id as string, key: box.keys.admin as string };
  }

  it('pages every account’s deliveries once, by account then oldest first, and refuses a cursor of its own making', async () => {
    const boxes = [await sandboxWithEvents(3), await sandboxWithEvents(2), await sandboxWithEvents(4)];
    const own = async (key: string) => (await server().call('GET', '/__sim/deliveries', { key })).body;
    const expected: string[] = [];
    for (const b of [...boxes].sort((x, y) => (x.id < y.id ? -1 : 1))) {
      const log = await own(b.key);
      expect(log.next_cursor).toBeNull();
      expected.push(...log.deliveries.map((d: { id: string }) => d.id));
    }
    expect(expected).toHaveLength(9);

    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: { count: number; deliveries: { id: string }[]; next_cursor: string | null } } =
        await server().call('GET', `/__sim/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ''}`, {
          key: null,
        });
      expect(res.status).toBe(200);
      expect(res.body.count).toBe(res.body.deliveries.length);
      expect(res.body.count).toBeLessThanOrEqual(2);
      seen.push(...res.body.deliveries.map((d) => d.id));
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor && pages < 20);
    // Demo's own deliveries, if any, come in their account's place; the sandboxes' are in the order of their logs
    expect(seen.filter((id) => expected.includes(id))).toEqual(expected);
    expect(new Set(seen).size).toBe(seen.length);

    // a key may ask its own log in pages too
    const first = (await server().call('GET', '/__sim/deliveries?limit=2', { key: boxes[0]!.key })).body;
    expect(first.count).toBe(2);
    const rest = (await server().call('GET', `/__sim/deliveries?cursor=${first.next_cursor}`, { key: boxes[0]!.key }))
      .body;
    expect([...first.deliveries, ...rest.deliveries].map((d: { id: string }) => d.id)).toEqual(
      (await own(boxes[0]!.key)).deliveries.map((d: { id: string }) => d.id),
    );

    // without a key, one account's log by its id, as its key reads it
    const byId = (await server().call('GET', `/__sim/deliveries?account_id=${boxes[1]!.id}`, { key: null })).body;
    expect(byId.deliveries.map((d: { id: string }) => d.id)).toEqual(
      (await own(boxes[1]!.key)).deliveries.map((d: { id: string }) => d.id),
    );
    expect(
      (await server().call('GET', `/__sim/deliveries?account_id=${boxes[1]!.id}`, { key: boxes[0]!.key })).status,
    ).toBe(422);

    const bad = await server().call('GET', '/__sim/deliveries?cursor=not-a-cursor', { key: null });
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('cursor is not a next_cursor of this delivery log');
  });
});
