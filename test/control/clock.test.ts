import { describe, expect, it } from 'vitest';
import { DEMO, envelope, START, useServer } from '../support/helpers.js';

describe('virtual clocks', () => {
  const server = useServer();

  it('each account has its own clock; the test server starts frozen at START', async () => {
    const demo = await server().call('GET', '/__sim/clock', { key: null });
    expect(demo.body).toMatchObject({ now: START.toISOString(), mode: 'frozen', account_id: DEMO });
    // the fixture overwrite requests wait for their expiry
    expect(demo.body.pending.map((s: { kind: string }) => s.kind)).toEqual(['osr_expire', 'osr_expire', 'osr_expire']);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1H' } });
    expect((await server().call('GET', '/__sim/clock', { key: null })).body.now).toBe('2026-03-01T13:00:00.000Z');
    expect((await server().call('GET', '/__sim/clock', { key: 'partner-admin-key' })).body.now).toBe(
      START.toISOString(),
    );
  });

  it("timestamps the API writes come from the account's clock", async () => {
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { to: '2026-04-01T08:30:00.000Z' } });
    const cart = await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'timed' }) });
    expect(cart.body.data.inserted_at).toBe('2026-04-01T08:30:00.000Z');
    const partner = await server().call('POST', '/api/v1/carts', {
      key: 'partner-admin-key',
      body: envelope('cart', { name: 'timed' }),
    });
    expect(partner.body.data.inserted_at).toBe(START.toISOString());
  });

  it('time never goes backwards; bad bodies are refused', async () => {
    const back = await server().call('POST', '/__sim/clock/advance', {
      key: null,
      body: { to: '2020-01-01T00:00:00.000Z' },
    });
    expect(back.status).toBe(422);
    expect(back.body.errors[0].source.pointer).toBe('/to');
    expect(
      (await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'ten minutes' } })).status,
    ).toBe(422);
    // an empty body is one error naming the choices, not one "required" per choice
    const empty = await server().call('POST', '/__sim/clock/advance', { key: null, body: {} });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([
      expect.objectContaining({ detail: 'Give one of by, to, next.', source: { pointer: '/' } }),
    ]);
    expect(
      (await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M', next: true } })).status,
    ).toBe(422);
  });

  it('freeze and resume switch the mode; resume follows wall time from where the clock stands', async () => {
    const resumed = await server().call('POST', '/__sim/clock/resume', { key: null });
    expect(resumed.body.mode).toBe('real');
    const frozen = await server().call('POST', '/__sim/clock/freeze', { key: null });
    expect(frozen.body.mode).toBe('frozen');
    expect(Date.parse(frozen.body.now)).toBeGreaterThanOrEqual(START.getTime());
    expect(Date.parse(frozen.body.now) - START.getTime()).toBeLessThan(60_000);
  });

  it('advance to the next event jumps straight to the earliest scheduled step', async () => {
    await server().call('POST', '/api/v1/bulk_dip_tasks', {
      key: 'demo-standard-key',
      body: envelope('bulk_dip_task', { type: 'CNAM', numbers: ['+13125550100'], reference_id: 'next' }),
    });
    const res = await server().call('POST', '/__sim/clock/advance', { key: null, body: { next: true } });
    expect(res.status).toBe(200);
    expect(res.body.fired).toEqual([expect.objectContaining({ kind: 'bulk_dip', what: 'bulk dip NEW → PROCESSING' })]);
    expect(res.body).toMatchObject({ from: START.toISOString(), now: '2026-03-01T12:00:01.000Z', moved: 'PT1S' });
    const idle = await server().call('POST', '/__sim/clock/advance', {
      key: 'partner-admin-key',
      body: { next: true },
    });
    expect(idle.body).toEqual({ from: START.toISOString(), now: START.toISOString(), moved: 'PT0S', fired: [] });
    expect((await server().read((w) => server().runtime.clocks.of(w, DEMO))).iso()).toBe('2026-03-01T12:00:01.000Z');
  });

  it('advance to the next event goes no further than a day unless `within` says so, and says how far it went', async () => {
    // the fixture overwrite requests expire in 2036: the only steps pending
    const far = await server().call('POST', '/__sim/clock/advance', { key: null, body: { next: true } });
    expect(far.status).toBe(422);
    expect(far.body.errors[0].source.pointer).toBe('/next');
    expect(far.body.errors[0].detail).toContain('2036-02-10T09:00:00.000Z');
    expect((await server().call('GET', '/__sim/clock', { key: null })).body.now).toBe(START.toISOString());
    const short = await server().call('POST', '/__sim/clock/advance', {
      key: null,
      body: { next: true, within: 'P3000D' },
    });
    expect(short.status).toBe(422);
    const went = await server().call('POST', '/__sim/clock/advance', {
      key: null,
      body: { next: true, within: 'P10Y' },
    });
    expect(went.status).toBe(200);
    expect(went.body).toMatchObject({ now: '2036-02-10T09:00:00.000Z', moved: 'P3632DT21H' });
    expect(went.body.fired).toEqual([expect.objectContaining({ kind: 'osr_expire' })]);
    for (const body of [{ within: 'P1D' }, { by: 'PT1M', within: 'P1D' }, { by: 'P' }, { by: 'PT' }, { by: 'P1H' }])
      expect(
        (await server().call('POST', '/__sim/clock/advance', { key: null, body })).status,
        JSON.stringify(body),
      ).toBe(422);
    const by = await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1.5S' } });
    expect(by.body.moved).toBe('PT1.5S');
  });

  it('the control API has its own OpenAPI document', async () => {
    const res = await server().call('GET', '/__sim/openapi', { key: null });
    expect(res.body.openapi).toBe('3.1.0');
    expect(Object.keys(res.body.paths)).toContain('/__sim/clock/advance');
  });
});
