/**
 * Where the time goes (`BENCH_ONLY=profile npm run bench`): each server runs under `node --cpu-prof`
 * while autocannon drives one request shape; its profile's busy time (idle left out) is summed by
 * module: dipswitch's folders, each package, Node's own modules, the garbage collector.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { AUTH, createCarts, freshPort, measure, startProcess, stop } from './harness.js';

interface Profile {
  nodes: { id: number; callFrame: { functionName: string; url: string }; children?: number[] }[];
  samples: number[];
  timeDeltas: number[];
}

/** The module a frame's code belongs to. */
function moduleOf(functionName: string, url: string): string | null {
  if (functionName === '(idle)') return null;
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)' || (!url && functionName.startsWith('('))) return 'V8 (program)';
  const ours = /\/dist\/src\/(.*)\/[^/]+\.js$/.exec(url) ?? /\/dist\/src\/([^/]+)\.js$/.exec(url);
  if (ours?.[1]) return `dipswitch ${ours[1]}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg?.[1]) return pkg[1];
  if (url.startsWith('node:internal/'))
    return `node ${url.slice(14).split('/').slice(0, 2).join('/').replace(/\.js$/, '')}`;
  if (url.startsWith('node:')) return `node ${url.slice(5).split('/')[0] ?? ''}`;
  return url ? 'other' : 'native';
}

/**
 * Share of busy time by module, in percent. A builtin's time (JSON, crypto, a socket write: frames
 * without a script) counts for the nearest module up its stack that called it.
 */
function shares(profile: Profile): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const moduleAt = (id: number): string | null => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (!frame) break;
      const module = moduleOf(frame.functionName, frame.url);
      if (module !== 'native') return module;
    }
    return 'native';
  };
  const time = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const module = moduleAt(id);
    if (!module) return;
    const dt = profile.timeDeltas[i] ?? 0;
    time.set(module, (time.get(module) ?? 0) + dt);
    busy += dt;
  });
  return new Map([...time].map(([m, t]) => [m, (100 * t) / Math.max(busy, 1)]));
}

export interface ProfileTarget {
  name: string;
  /** The server's flags besides the port. */
  args: string[];
}

/** The three request shapes of the table, on a server at `base`. */
const shapes = (base: string): [string, autocannon.Options][] => {
  return [
    ['GET', { url: `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`, headers: AUTH }],
    ['create', createCarts(base, AUTH, 'profile')],
    ['list', { url: `${base}/api/v1/carts?first=25`, headers: AUTH }],
  ];
};

/** One server per target and shape under the profiler; the table of modules by share of busy time. */
export async function profileTable(targets: ProfileTarget[]): Promise<string> {
  const columns: { name: string; shares: Map<string, number> }[] = [];
  for (const target of targets)
    for (const shape of ['GET', 'create', 'list']) {
      const dir = mkdtempSync(join(os.tmpdir(), 'dipswitch-profile-'));
      const port = freshPort();
      const base = `http://127.0.0.1:${port}`;
      const { child } = await startProcess(
        process.execPath,
        [
          '--cpu-prof',
          '--cpu-prof-dir',
          dir,
          'dist/src/cli/main.js',
          '--quiet',
          '--port',
          String(port),
          ...target.args,
        ],
        `${base}/api/v1/api_keys/0a0a0a0a-0000-4000-8000-000000000301`,
        AUTH,
      );
      const options = shapes(base).find(([s]) => s === shape)?.[1];
      if (options) await measure(`${target.name}: ${shape} (profiled)`, options);
      await stop(child);
      const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
      if (file)
        columns.push({
          name: `${target.name} ${shape}`,
          shares: shares(JSON.parse(readFileSync(join(dir, file), 'utf8'))),
        });
      rmSync(dir, { recursive: true, force: true });
    }
  const modules = [...new Set(columns.flatMap((c) => [...c.shares.keys()]))]
    .map((m) => ({ m, top: Math.max(...columns.map((c) => c.shares.get(m) ?? 0)) }))
    .filter((x) => x.top >= 1)
    .sort((a, b) => b.top - a.top)
    .map((x) => x.m);
  const cell = (c: { shares: Map<string, number> }, m: string) => `${(c.shares.get(m) ?? 0).toFixed(1)}`;
  return [
    `| module (% of busy time) | ${columns.map((c) => c.name).join(' | ')} |`,
    `|---|${columns.map(() => '---:').join('|')}|`,
    ...modules.map((m) => `| ${m} | ${columns.map((c) => cell(c, m)).join(' | ')} |`),
  ].join('\n');
}
