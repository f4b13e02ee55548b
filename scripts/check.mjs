// The static checks (npm run check): the contracts' lint, the format, the lint and the typecheck, run
// side by side (on two cores: 23 s against 32 s one after another). Each one's output is printed when
// it ends, under its name; the exit status is 1 when one failed. With --build (npm test), the command
// is built beside them when a source changed (scripts/build-if-stale.mjs), so the test suite's global
// setup finds it built.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './build-if-stale.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const scripts = ['lint:contract', 'format:check', 'lint', 'typecheck'];
if (process.argv.includes('--build') && isStale(root)) scripts.push('build');

/** Runs one npm script to its end; answers its name, exit status, time and output. */
function run(name) {
  const started = performance.now();
  const child = spawn('npm', ['run', '-s', name], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  return new Promise((resolve) => {
    child.on('error', (e) => resolve({ name, status: 1, seconds: 0, output: e.message }));
    child.on('close', (status) =>
      resolve({ name, status: status ?? 1, seconds: (performance.now() - started) / 1000, output }),
    );
  });
}

const results = await Promise.all(scripts.map(run));
for (const r of results) {
  const said = r.output
    .split('\n')
    .filter((l) => l.trim() && !l.startsWith('npm warn'))
    .join('\n');
  console.log(`${r.status === 0 ? 'ok' : 'FAILED'} ${r.name} (${r.seconds.toFixed(1)} s)${said ? `\n${said}` : ''}`);
}
process.exit(results.every((r) => r.status === 0) ? 0 : 1);
