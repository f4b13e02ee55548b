#!/usr/bin/env node
/**
 * The files of dipswitch a call passes through, measured: `node scripts/walk.mjs [BUILD]` (BUILD: a
 * built checkout, this one by default; `npm run build` first) starts the built server in this
 * process (embedded store, in memory, a frozen clock), makes a cart and calls
 * `POST /api/v1/carts/{id}/checkout` once to warm it, then a second time on a new cart with V8's
 * precise coverage on, and prints every source file with a function that ran while that call was
 * answered (its after-commit work included), by folder; then what a reader meets (`measures`): the
 * frames from the core to the handler of one GET and of the checkout, their folders, the files one row
 * write crosses, and the types declared at the seam. docs/architecture.md's walk is its output.
 */
import { Session } from 'node:inspector/promises';
import { readFileSync } from 'node:fs';
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
console.log('');
await measures();

/**
 * What a reader meets on the way of one GET (`getCart`) and of the checkout, from the stacks their calls
 * leave: the frames from the core's `handle` (src/http/app.ts, where express's adapter hands the call
 * over) to the handler, the folders of those frames in order, and the files one row write crosses from
 * the handler to the embedded store's table; and the types declared at the seam between work and store.
 */
async function measures() {
  Error.stackTraceLimit = 200;
  const at = (what) => (what.match(/\((.*?):\d+:\d+\)$/) ?? what.match(/at (?:async )?(\S+?):\d+:\d+$/))?.[1];
  const source = (frame) => {
    const file = at(frame);
    return file?.startsWith(src)
      ? relative(resolve(root, 'dist'), new URL(file).pathname).replace(/\.js$/, '.ts')
      : undefined;
  };
  const stack = () => new Error().stack.split('\n').slice(2);
  const seen = {};
  const { handlers } = await import(pathToFileURL(resolve(root, 'dist/src/api/index.js')).href);
  const { MemoryTable } = await import(pathToFileURL(resolve(root, 'dist/src/store/embedded/memory_table.js')).href);
  const wrapped = { ...handlers };
  for (const id of ['getCart', 'checkoutCart'])
    wrapped[id] = async (ctx) => {
      seen[id] = { handler: stack(), puts: [] };
      const put = MemoryTable.prototype.put;
      MemoryTable.prototype.put = function (...args) {
        seen[id].puts.push(stack());
        return put.apply(this, args);
      };
      try {
        return await handlers[id](ctx);
      } finally {
        MemoryTable.prototype.put = put;
      }
    };
  const { buildServer, listen } = await import(pathToFileURL(resolve(root, 'dist/src/server.js')).href);
  const { app, runtime } = await buildServer({
    store: { memory: true },
    clockMode: 'frozen',
    logger: quiet(),
    handlers: wrapped,
  });
  const server = await listen(app, 0, '127.0.0.1');
  const base = `http://127.0.0.1:${server.address().port}`;
  const send = async (method, path, body) =>
    (
      await fetch(base + path, {
        method,
        headers: { authorization: 'Bearer demo-admin-key', 'content-type': 'application/json' },
        body: body && JSON.stringify(body),
      })
    ).json();
  const made = (await send('POST', '/api/v1/carts', { type: 'cart', data: { name: 'measured' } })).data.id;
  await send('GET', `/api/v1/carts/${made}`);
  await send('POST', `/api/v1/carts/${made}/checkout`);
  server.close();
  await runtime.close();
  for (const [id, { handler, puts }] of Object.entries(seen)) {
    const upTo = handler.findLastIndex((f) => source(f) === 'src/http/app.ts');
    const frames = handler.slice(0, upTo + 1).filter((f) => source(f));
    // the frames below the handler's own (the handler, src/api/carts.ts, is the wrapper's caller here)
    const folders = [...frames.map((f) => source(f).split('/').slice(0, -1).join('/')).reverse(), 'src/api'];
    const sequence = folders.filter((f, i) => f !== folders[i - 1]);
    const nameOf = (f) => {
      const name = f
        .trim()
        .replace(/^at (async )?/, '')
        .split(' ')[0];
      return name.startsWith('file:') ? `(a closure of ${source(f)})` : name;
    };
    const names = frames.map(nameOf).reverse();
    console.log(`${id}: ${frames.length + 1} frames from the core to the handler: ${[...names, id].join(' → ')}`);
    console.log(`${id}: folders: ${sequence.join(' → ')}`);
    const write = puts[0];
    if (write) {
      const crossed = write
        .slice(
          0,
          write.findIndex((f) => source(f) === 'src/api/carts.ts'),
        )
        .map(source)
        .filter(Boolean);
      // and the table the row lands in (MemoryTable.put, the patched frame's own)
      const files = [...[...new Set(crossed)].reverse(), 'src/store/embedded/memory_table.ts'];
      console.log(`${id}: one row write crosses ${files.length} files: ${files.join(' → ')}`);
    }
  }
  const seam = [
    'src/store/store.ts',
    'src/store/collections.ts',
    'src/store/schema.ts',
    'src/store/backend.ts',
    'src/engine/work.ts',
  ];
  const declared = seam.map((f) => {
    const text = readFileSync(resolve(root, f), 'utf8');
    return [f, (text.match(/^(export )?(declare )?(abstract )?(interface|type|class) \w+/gm) ?? []).length];
  });
  const total = declared.reduce((n, [, k]) => n + k, 0);
  console.log(`types declared at the seam: ${total} (${declared.map(([f, k]) => `${f} ${k}`).join(', ')})`);
}

function quiet() {
  const none = () => undefined;
  return { debug: none, info: none, warn: none, error: none, child: () => quiet() };
}
