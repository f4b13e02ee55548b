#!/usr/bin/env node
/**
 * The files of dipswitch a call passes through, measured: `node scripts/walk.mjs [BUILD]` (BUILD: a
 * built checkout, this one by default; `npm run build` first) starts the built server in this
 * process (embedded store, in memory, a frozen clock), makes a cart and calls
 * `POST /api/v1/carts/{id}/checkout` once to warm it, then a second time on a new cart with V8's
 * precise coverage on, and prints every source file with a function that ran while that call was
 * answered (its after-commit work included), by folder. docs/architecture.md's walk is its output.
 */
import { Session } from 'node:inspector/promises';
import { resolve, relative } from 'node:path';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? '.');
const { startDipswitch } = await import(pathToFileURL(resolve(root, 'dist/src/index.js')).href);
const sim = await startDipswitch({ clock: 'frozen', smppPort: false, logger: quiet() });
const call = async (method, path, body) => {
  const res = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${sim.keys.admin}`, 'content-type': 'application/json' },
    body: body && JSON.stringify(body),
  });
  const answer = await res.json();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
};
const cart = async (name) => (await call('POST', '/api/v1/carts', { type: 'cart', data: { name } })).data.id;
const checkout = (id) => call('POST', `/api/v1/carts/${id}/checkout`);

await checkout(await cart('warm'));
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
const id = await cart('walked');
await session.post('Profiler.takePreciseCoverage');
await checkout(id);
const { result } = await session.post('Profiler.takePreciseCoverage');
await session.post('Profiler.stopPreciseCoverage');
session.disconnect();
await sim.close();

const src = pathToFileURL(resolve(root, 'dist/src')).href;
const files = result
  .filter((s) => s.url.startsWith(src) && s.functions.some((f) => f.ranges[0]?.count > 0))
  .map((s) => relative(resolve(root, 'dist'), new URL(s.url).pathname).replace(/\.js$/, '.ts'))
  .sort();
for (const file of files) console.log(file);
console.log(`${files.length} files`);

function quiet() {
  const none = () => undefined;
  return { debug: none, info: none, warn: none, error: none, child: () => quiet() };
}
