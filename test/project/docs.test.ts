/**
 * The README and docs/ as a newcomer meets them: the README short and linking every page, every relative link
 * resolving, every command block marked runnable (```sh runnable) run in order in one bash per page against a
 * fresh server (the built command, in memory) and a receiver on loopback, each answer holding the JSON shown after
 * its block; the examples that are code (the library example, the signature checks) run as they are written.
 */
import { spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { startReceiver } from '../../src/testing/receiver.js';
import { verifySignature } from '../../src/testing/signature.js';
import { startCli } from '../support/cli_process.js';
import { expectRunnable } from '../support/runnable.js';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');
const PAGES = readdirSync(join(projectRoot, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);
const ALL = ['README.md', 'BENCHMARKS.md', ...PAGES];

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const anchors = (text: string) =>
  new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug((m[1] ?? '').replace(/`/g, ''))));

describe('the docs', () => {
  it('the README is under 250 lines, opens with the two commands, and links every page of docs/', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThan(250);
    expect(readme.slice(0, 300)).toContain('npm ci && npm start');
    expect(readme.slice(0, 300)).toContain('npm test');
    expect(PAGES, 'something to check').not.toHaveLength(0);
    for (const page of PAGES) expect(readme, page).toContain(`(${page})`);
  });

  it('every relative link resolves, to a file and to a heading of it', () => {
    const broken: string[] = [];
    expect(ALL, 'something to check').not.toHaveLength(0);
    for (const page of ALL) {
      const text = read(page).replace(/```[\s\S]*?```/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (!target || /^[a-z]+:/i.test(target)) continue;
        const [file, anchor] = target.split('#');
        const path = file ? resolve(projectRoot, dirname(page), file) : join(projectRoot, page);
        let body: string;
        try {
          body = readFileSync(path, 'utf8');
        } catch {
          if (!file || !/\.(png|ya?ml|ts|json)$/.test(file)) broken.push(`${page}: ${target}`);
          else
            try {
              readFileSync(path);
            } catch {
              broken.push(`${page}: ${target}`);
            }
          continue;
        }
        if (anchor && !anchors(body).has(anchor)) broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('no page tells the story of how it was built', () => {
    for (const page of ALL) {
      const text = read(page);
      expect(text, page).not.toMatch(
        /\b(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|last|this|earlier|previous)('s)? sessions?\b/i,
      );
      expect(text, page).not.toMatch(/\bissue \d+/i);
      expect(text, page).not.toMatch(/\b(first|second|this|last) pass\b/i);
    }
  });

  it('shows the library example exactly as test/project/library_example.test.ts runs it', () => {
    const example = read('test/project/library_example.test.ts').split('\n').slice(1).join('\n').trim();
    const block = /<!-- library-example -->\n+```ts\n([\s\S]*?)```/.exec(read('docs/library.md'))?.[1]?.trim();
    expect(block).toBe(example);
  });

  it("the signature checks of docs/webhooks.md, in Node and in Python, accept dipswitch's signature and refuse a changed body", () => {
    const page = read('docs/webhooks.md');
    const js = /<!-- verify-node -->\n+```js\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const py = /<!-- verify-python -->\n+```python\n([\s\S]*?)```/.exec(page)?.[1] ?? '';
    const body = '{"type":"sms","data":{"text":"Grüße"}}';
    const header = `SERVICE0-HMAC-SHA256 ${createHmac('sha256', 's3cret').update(body).digest('hex')}`;
    const dir = mkdtempSync(join(tmpdir(), 'dipswitch-verify-'));
    writeFileSync(
      join(dir, 'verify.cjs'),
      `${js}\nconst b = Buffer.from(${JSON.stringify(body)});\nconsole.log(verify(b, ${JSON.stringify(header)}, 's3cret'), verify(Buffer.from('{}'), ${JSON.stringify(header)}, 's3cret'));\n`,
    );
    expect(spawnSync(process.execPath, [join(dir, 'verify.cjs')], { encoding: 'utf8' }).stdout.trim()).toBe(
      'true false',
    );
    writeFileSync(
      join(dir, 'verify.py'),
      `${py}\nb = ${JSON.stringify(body)}.encode()\nprint(verify(b, ${JSON.stringify(header)}, "s3cret"), verify(b"{}", ${JSON.stringify(header)}, "s3cret"))\n`,
    );
    const python = spawnSync('python3', [join(dir, 'verify.py')], { encoding: 'utf8' });
    expect(python.stdout.trim(), python.stderr).toBe('True False');
    // the Node package's own check says the same
    expect([verifySignature(header, Buffer.from(body), 's3cret'), verifySignature(header, '{}', 's3cret')]).toEqual([
      true,
      false,
    ]);
    expect(verifySignature(`${header} x`, body, 's3cret')).toBe(false);
  });

  it('each decision the parity report names is a heading of docs/decisions.md', () => {
    const names = [...read('src/trust/parity.ts').matchAll(/decision: '([^']+)'/g)].map((m) => m[1] ?? '');
    expect(names.length).toBeGreaterThan(5);
    const headings = anchors(read('docs/decisions.md'));
    for (const name of names) expect(headings.has(slug(name.replace(/`/g, ''))), name).toBe(true);
  });
});

describe('the runnable commands of each page', () => {
  for (const page of ['README.md', ...PAGES]) {
    if (!/```sh runnable/.test(read(page))) continue;
    it(`${page}: every command answers what the page shows`, async () => {
      const server = await startCli(['--memory', '--port', '0']);
      const receiver = await startReceiver();
      try {
        await expectRunnable(page, server.base, receiver.url);
        if (page === 'README.md') {
          // what the README says the receiver prints
          const paths = receiver.received.map((r) => `${r.method} ${r.path}`);
          expect(paths).toContain('POST /sms');
          expect(paths.filter((p) => p === 'POST /events')).toHaveLength(3);
        }
      } finally {
        await server.stop();
        await receiver.close();
      }
    });
  }
});
