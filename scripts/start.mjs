// `npm start`: builds only when a source is newer than the last build (dist/.build-stamp), then runs
// the built command in this same process, with the arguments given after `npm start --`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const SOURCES = ['src', 'scenarios', 'contract', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time under `path`, in ms. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), info.mtimeMs);
}

const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -1;
if (!SOURCES.every((s) => newest(s) <= built)) {
  const build = spawnSync('npm', ['run', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
await import('../dist/src/cli/main.js');
