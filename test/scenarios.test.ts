import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTimeline } from '../src/testing/scenario.js';
import { ScenarioShelf } from '../src/testing/scenario_runner.js';
import { useServer } from './helpers.js';

const shelf = new ScenarioShelf();

describe('scenarios', () => {
  const server = useServer();

  it('there are at least the five main stories', () => {
    expect(shelf.names()).toEqual(
      expect.arrayContaining([
        'bulk-dip-to-file',
        'cart-to-order',
        'osr-raise-expire',
        'sms-auto-response-stop',
        'call-http-route',
      ]),
    );
  });

  it('an edited scenario is read again when it is run, without a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-scenarios-'));
    const file = join(dir, 'edited.mjs');
    const write = (status: number) =>
      writeFileSync(
        file,
        `export default { name: 'edited', title: 't', async run(s) { s.expect((await s.api('GET', '/api/v1/carts')).status === ${status}, 'listed'); } };\n`,
      );
    const mine = new ScenarioShelf([dir]);
    write(500);
    expect((await mine.run(server().base, 'edited')).passed).toBe(false);
    write(200);
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect((await mine.run(server().base, 'edited')).passed).toBe(true);
  });

  for (const name of shelf.names()) {
    it(`${name} passes`, async () => {
      const result = await shelf.run(server().base, name);
      expect(result.passed, formatTimeline(result)).toBe(true);
      expect(result.timeline.filter((e) => e.step === 'ok').length).toBeGreaterThan(2);
    });
  }

  it('POST /__sim/scenarios/{name} runs one on the server; an unknown one is 404', async () => {
    const res = await server().call('POST', '/__sim/scenarios/call-http-route', { key: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'call-http-route', passed: true });
    expect((await server().call('POST', '/__sim/scenarios/no-such-story', { key: null })).status).toBe(404);
    expect((await server().call('POST', '/__sim/scenarios/..%2Fsrc%2Fmain', { key: null })).status).toBe(404);
  });
});
