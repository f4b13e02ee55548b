// An ESLint rule of the project's: no import circle among the sources of a top folder (src, test…),
// type-only imports counted.
// import-x/no-cycle skips `import type`, which lets two files that each need the other's types stand
// as one tangle a reader cannot take apart; here every relative import (and re-export) is an edge.
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** Every relative `import … from` and `export … from` of a source, as resolved paths. */
function importsOf(file) {
  const text = readFileSync(file, 'utf8');
  const out = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/g)) {
    const target = resolve(dirname(file), m[1]).replace(/\.js$/, '.ts');
    if (existsSync(target)) out.push(target);
  }
  return out;
}

function sources(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'generated') sources(path, out);
    } else if (name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/** The files of every circle of `root`'s imports (Tarjan's strongly connected components of two files or more). */
function circles(root) {
  const graph = new Map(sources(root).map((f) => [f, importsOf(f)]));
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  let next = 0;
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const circle = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        circle.push(w);
      } while (w !== v);
      if (circle.length > 1) found.push(circle);
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** The circles last found under a folder, with the state of its files they were found in (paths and times). */
const found = new Map();

/** The circles of `root` as its files are now: found again only when a file came, went or changed. */
function circlesNow(root) {
  const files = sources(root);
  const state = files.map((f) => `${f}:${statSync(f).mtimeMs}`).join('\n');
  const last = found.get(root);
  if (last?.state === state) return last.circles;
  const now = circles(root);
  found.set(root, { state, circles: now });
  return now;
}

export const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'no import circle among the sources, type-only imports counted' },
    schema: [],
    messages: { circle: 'this file is in an import circle (type-only imports count): {{files}}' },
  },
  create(context) {
    const file = context.filename;
    // the circles of the file's top folder (src, test, bench…): one graph of each
    const top = relative(context.cwd, file).split(/[\\/]/)[0];
    const root = join(context.cwd, top ?? '');
    if (!top || top.startsWith('..') || !existsSync(root) || !statSync(root).isDirectory()) return {};
    const circle = circlesNow(root).find((c) => c.includes(file));
    if (!circle) return {};
    return {
      Program(node) {
        context.report({
          node,
          messageId: 'circle',
          data: { files: circle.map((f) => relative(context.cwd, f)).join(' → ') },
        });
      },
    };
  },
};
