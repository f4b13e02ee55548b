// Builds (npm run build) only when a source is newer than the last build (dist/.build-stamp).
// Used by `npm start` and by the test suite's global setup (the command is spawned from dist).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const STAMP = 'dist/.build-stamp';
const SOURCES = ['src', 'scenarios', 'contract', 'scripts', 'package.json', 'tsconfig.json', 'tsconfig.build.json'];

/** The newest modification time under `path`, in ms. */
function newest(path) {
  if (!existsSync(path)) return 0;
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(path).reduce((m, name) => Math.max(m, newest(join(path, name))), info.mtimeMs);
}

/** Whether dist in `root` is missing or older than a source. */
export function isStale(root) {
  const stamp = join(root, STAMP);
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : -1;
  return !SOURCES.every((s) => newest(join(root, s)) <= built);
}

/**
 * Builds in `root` when dist is missing or older than a source; `say` is told before a build starts.
 * Answers the build's exit status (0 when nothing needed building).
 */
export function buildIfStale(root, say = () => {}) {
  if (!isStale(root)) return 0;
  say();
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  return build.status ?? 1;
}
