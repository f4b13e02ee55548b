/**
 * A page's runnable commands (```sh runnable) run in order in one bash against a server and a receiver,
 * each answer holding the JSON the page shows after its block: docs.test.ts runs every page against the
 * built command; the container tests run the README against the image.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from '../../src/contract.js';
// what a page shows is a subset of the answer, as a verify's body pattern is
import { holdsSubset } from '../../src/domain/verify.js';

interface Step {
  command: string;
  /** What the page shows after the command (a JSON document the answer must hold), if anything. */
  shows?: unknown;
}

/** A page's runnable blocks, each with the JSON block that follows it; its addresses become the test's. */
function steps(page: string, server: string, receiver: string): Step[] {
  const text = readFileSync(join(projectRoot, page), 'utf8')
    .replaceAll('http://127.0.0.1:4010', server)
    .replaceAll('http://127.0.0.1:4011', receiver);
  const out: Step[] = [];
  let last: Step | undefined;
  for (const m of text.matchAll(/```(\w+)( runnable)?\n([\s\S]*?)```/g)) {
    const [, lang, runnable, body = ''] = m;
    if (lang === 'sh' && runnable) out.push((last = { command: body }));
    else if (lang === 'json' && last && last.shows === undefined) last.shows = JSON.parse(body);
    else last = undefined;
  }
  return out;
}

/** Runs a bash script to its end (asynchronously: the receiver answers from this process meanwhile). */
function bash(script: string): Promise<{ status: number | null; stdout: string }> {
  const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout })));
}

/**
 * Runs the page's runnable commands with its addresses made `server`'s and `receiver`'s (the page's
 * http://127.0.0.1:4010 and :4011), and expects each answer to hold what the page shows.
 */
export async function expectRunnable(page: string, server: string, receiver: string): Promise<void> {
  const all = steps(page, server, receiver);
  const marker = (i: number) => `=== step ${i} ===`;
  // standard error into standard output: an answer `get` shows lands in its step, in order
  const script = [
    'exec 2>&1',
    'set -eo pipefail',
    // each answer on a line of its own, as a terminal shows a block's answers one after another
    'curl() { command curl "$@"; echo; }',
    ...all.flatMap((s, i) => [`echo '${marker(i)}'`, s.command, 'echo']),
  ].join('\n');
  const run = await bash(script);
  expect(run.status, run.stdout).toBe(0);
  all.forEach((step, i) => {
    const printed = run.stdout.slice(run.stdout.indexOf(marker(i)), run.stdout.indexOf(marker(i + 1)) >>> 0);
    if (step.shows === undefined) return;
    const answers = printed
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as unknown);
    expect(answers.length, `step ${i} printed an answer: ${step.command}`).toBeGreaterThan(0);
    expect(holdsSubset(answers[answers.length - 1], step.shows), `step ${i}: ${step.command}\n${printed}`).toBe(true);
  });
}
