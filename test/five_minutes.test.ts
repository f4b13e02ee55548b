// The README's "Simulate in five minutes", run as a newcomer pastes it: every shell block in order, in one
// bash, against a fresh server (the built command, in memory) and a receiver on loopback; each answer
// must hold what the README shows after its command.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReceiver, type Receiver } from '../src/testing/receiver.js';
import { startCli, type Running } from './cli_process.js';

interface Step {
  command: string;
  /** What the README shows after the command (a JSON document the answer must hold), if anything. */
  shows?: unknown;
}

/**
 * The section's shell blocks, each with the JSON block that follows it; the two that start servers are
 * left out. The README's addresses of the server and the receiver become the test's.
 */
function steps(server: string, receiver: string): Step[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8')
    .replaceAll('http://127.0.0.1:4010', server)
    .replaceAll('http://127.0.0.1:4011', receiver);
  const section = /## Simulate in five minutes\n([\s\S]*?)\n## /.exec(readme)?.[1] ?? '';
  const blocks = [...section.matchAll(/```(sh|json)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], text: m[2] ?? '' }));
  const out: Step[] = [];
  for (const b of blocks) {
    if (b.lang === 'sh') {
      if (!/^(npm start|node -e)/.test(b.text)) out.push({ command: b.text });
    } else {
      const last = out[out.length - 1];
      if (!last || last.shows !== undefined) throw new Error(`a JSON block without its command: ${b.text}`);
      last.shows = JSON.parse(b.text);
    }
  }
  return out;
}

/** Whether `actual` holds `shown`: every field shown, with its value; every item shown, somewhere in the array. */
function holds(actual: unknown, shown: unknown): boolean {
  if (Array.isArray(shown))
    return Array.isArray(actual) && shown.every((item) => actual.some((a: unknown) => holds(a, item)));
  if (shown !== null && typeof shown === 'object')
    return (
      actual !== null &&
      typeof actual === 'object' &&
      Object.entries(shown).every(([k, v]) => holds((actual as Record<string, unknown>)[k], v))
    );
  return actual === shown;
}

let server: Running & { base: string };
let receiver: Receiver;
beforeAll(async () => {
  server = await startCli(['--memory', '--port', '0']);
  receiver = await startReceiver();
});
afterAll(async () => {
  await server?.stop();
  await receiver?.close();
});

/** Runs a bash script to its end (asynchronously: the receiver answers from this process meanwhile). */
function bash(script: string): Promise<{ status: number | null; stdout: string }> {
  const child = spawn('bash', ['-c', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  return new Promise((resolve) => child.on('close', (status) => resolve({ status, stdout })));
}

it("every command of the README's five-minute section answers what the README shows", async () => {
  const all = steps(server.base, receiver.url);
  expect(all.length).toBeGreaterThan(15);
  const marker = (i: number) => `=== step ${i} ===`;
  // standard error into standard output: an answer `get` shows lands in its step, in order
  const script = [
    'exec 2>&1',
    'set -eo pipefail',
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
    expect(holds(answers[answers.length - 1], step.shows), `step ${i}: ${step.command}\n${printed}`).toBe(true);
  });
  // what the README says the receiver prints
  const paths = receiver.received.map((r) => `${r.method} ${r.path}`);
  expect(paths).toContain('POST /sms');
  expect(paths.filter((p) => p === 'POST /events')).toHaveLength(3);
  const dip = receiver.received.find((r) => r.path === '/dips');
  expect(dip?.body.toString().trim().split('\n')).toHaveLength(3);
});
