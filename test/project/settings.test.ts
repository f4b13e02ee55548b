/**
 * The Node client reads the settings every client of dipswitch reads (docs/clients.md): the argument, else
 * DIPSWITCH_URL and DIPSWITCH_ADMIN_TOKEN; the coverage gate the argument, else DIPSWITCH_FAIL_UNDER, and
 * only a percentage from 0 to 100.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { connectDipswitch } from '../../src/testing/control_client.js';
import { coverageGate } from '../../src/testing/coverage_gate.js';
import { startCli, type Running } from '../support/cli_process.js';

const saved = { ...process.env };
afterEach(() => {
  for (const k of ['DIPSWITCH_URL', 'DIPSWITCH_ADMIN_TOKEN', 'DIPSWITCH_FAIL_UNDER'])
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
});

describe('the Node client and the settings', () => {
  let guarded: Running & { base: string };
  beforeAll(async () => {
    guarded = await startCli(['--memory', '--port', '0'], { env: { SIM_ADMIN_TOKEN: 'n0de-t0ken', SMPP_PORT: '0' } });
  });
  afterAll(() => guarded?.stop());

  it('connectDipswitch() reaches DIPSWITCH_URL with DIPSWITCH_ADMIN_TOKEN; an argument wins', async () => {
    process.env.DIPSWITCH_URL = guarded.base;
    process.env.DIPSWITCH_ADMIN_TOKEN = 'n0de-t0ken';
    const box = await connectDipswitch().sandbox('settings');
    expect(box.numbers).toHaveLength(10);
    await box.remove();
    await expect(connectDipswitch(undefined, { adminToken: 'wrong' }).sandbox()).rejects.toThrow(/403/);
    delete process.env.DIPSWITCH_URL;
    expect(() => connectDipswitch()).toThrow('dipswitch: no server to connect to: give its URL or set DIPSWITCH_URL');
  });

  it('a gate outside 0-100 is refused, given or from DIPSWITCH_FAIL_UNDER; the environment gates when none is given; neither: no gate', async () => {
    const sim = connectDipswitch(guarded.base, { adminToken: 'n0de-t0ken' });
    const box = await sim.sandbox('gated', { run: 'settings-run' });
    await expect(coverageGate(sim, { failUnder: 150 })).rejects.toThrow(
      'a coverage gate is a percentage from 0 to 100, not 150',
    );
    process.env.DIPSWITCH_FAIL_UNDER = '-5';
    await expect(coverageGate(sim, {})).rejects.toThrow('not -5');
    process.env.DIPSWITCH_FAIL_UNDER = '0';
    const lines: string[] = [];
    const verdict = await coverageGate(sim, { run: 'settings-run', print: (l) => lines.push(l) });
    expect(verdict.passed).toBe(true);
    expect(lines[0]).toMatch(/the gate of 0%$/);
    // with no setting there is no gate: the line says so, the run passes, the exit code is left alone
    delete process.env.DIPSWITCH_FAIL_UNDER;
    const exitCode = process.exitCode;
    const ungated = await coverageGate(sim, { run: 'settings-run', print: (l) => lines.push(l) });
    expect(ungated.passed).toBe(true);
    expect(lines[1]).toMatch(/: no gate \(DIPSWITCH_FAIL_UNDER is not set\)$/);
    expect(process.exitCode).toBe(exitCode);
    await box.remove();
  });
});
