/**
 * The proxy's figures: GET one record through `dipswitch proxy` to a dipswitch upstream, plain, with
 * `--record` and with `--shadow` riding on it (issue 25: each adds at most 10% to the proxy's latency).
 * Each proxy is a process of its own in front of the same upstream process.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { AUTH, freshPort, measure, startProcess, stop, type Figure } from './harness.js';

const KEY = '/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301';

export interface ProxyFigures {
  plain: Figure;
  record: Figure;
  shadow: Figure;
}

export async function proxyFigures(): Promise<ProxyFigures> {
  const upstreamPort = freshPort();
  const upstream = `http://127.0.0.1:${upstreamPort}`;
  const server = await startProcess(
    process.execPath,
    ['dist/src/cli/main.js', '--no-smpp', '--memory', '--quiet', '--port', String(upstreamPort)],
    upstream + KEY,
    AUTH,
  );
  const dir = mkdtempSync(join(os.tmpdir(), 'dipswitch-bench-record-'));
  const through = async (name: string, flags: string[]): Promise<Figure> => {
    const port = freshPort();
    const proxy = await startProcess(
      process.execPath,
      ['dist/src/cli/main.js', 'proxy', '--quiet', '--upstream', upstream, '--port', String(port), ...flags],
      `http://127.0.0.1:${port}${KEY}`,
      AUTH,
    );
    try {
      return await measure(name, { url: `http://127.0.0.1:${port}${KEY}`, headers: AUTH });
    } finally {
      await stop(proxy.child);
    }
  };
  try {
    return {
      plain: await through('proxy: GET one API key', []),
      record: await through('proxy --record: GET one API key', ['--record', dir]),
      shadow: await through('proxy --shadow: GET one API key', ['--shadow']),
    };
  } finally {
    await stop(server.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The rows of the table: each figure, and what recording and shadowing add to the plain proxy's latency. */
export function proxyRows(f: ProxyFigures, ratio: (f: Figure) => string) {
  const added = (x: Figure) =>
    `p50 ×${(x.p50 / f.plain.p50).toFixed(2)}, req/s ×${(x.rps / f.plain.rps).toFixed(2)} of the plain proxy's`;
  return [
    { ...f.plain, ratio: ratio(f.plain) },
    { ...f.record, ratio: added(f.record) },
    { ...f.shadow, ratio: added(f.shadow) },
  ];
}
