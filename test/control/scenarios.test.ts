import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatTimeline } from '../../src/testing/scenario.js';
import { ScenarioCatalog } from '../../src/testing/scenario_runner.js';
import { useServer } from '../support/helpers.js';

const shelf = new ScenarioCatalog();
const builtIn = await shelf.names();

describe('scenarios', () => {
  const server = useServer();

  it('there are at least the five main stories', () => {
    expect(builtIn).toEqual(
      expect.arrayContaining([
        'bulk-dip-to-file',
        'cart-to-order',
        'osr-raise-expire',
        'sms-auto-response-stop',
        'call-http-route',
      ]),
    );
  });

  it("a scenario is found by the name given to scenario(), whatever its file's name; other files are named as problems", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-scenarios-'));
    const scenario = (name: string) =>
      `export default { name: '${name}', title: 'The carts of ${name}', async run(s) { s.expect((await s.api('GET', '/api/v1/carts')).status === 200, 'listed'); } };\n`;
    writeFileSync(join(dir, 'checkout flow.mjs'), scenario('my-flow'));
    writeFileSync(join(dir, 'Second.js'), scenario('second'));
    writeFileSync(join(dir, 'helper.mjs'), 'export const helper = 1;\n');
    writeFileSync(join(dir, 'broken.mjs'), 'export default {\n');
    writeFileSync(join(dir, 'notes.md'), 'not a script\n');
    const mine = new ScenarioCatalog([dir]);
    const { scenarios, problems } = await mine.catalog();
    expect([...scenarios.keys()]).toEqual(expect.arrayContaining(['my-flow', 'second', 'cart-to-order']));
    expect(problems).toHaveLength(2);
    expect(problems[0]).toMatch(/broken\.mjs: /);
    expect(problems[1]).toBe(
      `${join(dir, 'helper.mjs')}: its default export is not a scenario (export default scenario(name, title, run))`,
    );
    for (const p of problems) expect(p).not.toContain('\n');
    expect((await mine.run(server().base, 'my-flow')).passed).toBe(true);
    // a file's own name still finds its scenario
    expect((await mine.load('Second')).name).toBe('second');
  });

  it('an edited scenario is read again when it is run, without a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-scenarios-'));
    const file = join(dir, 'edited.mjs');
    const write = (status: number) =>
      writeFileSync(
        file,
        `export default { name: 'edited', title: 't', async run(s) { s.expect((await s.api('GET', '/api/v1/carts')).status === ${status}, 'listed'); } };\n`,
      );
    const mine = new ScenarioCatalog([dir]);
    write(500);
    expect((await mine.run(server().base, 'edited')).passed).toBe(false);
    write(200);
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect((await mine.run(server().base, 'edited')).passed).toBe(true);
  });

  for (const name of builtIn) {
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
