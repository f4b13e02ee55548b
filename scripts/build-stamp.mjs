// `npm start` builds only when the build is stale: `npm run build` ends by writing dist/.build-stamp;
// `--check` exits 0 when that stamp is newer than every source the build reads, 1 otherwise.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
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

if (process.argv.includes('--check')) {
  const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : -1;
  process.exit(SOURCES.every((s) => newest(s) <= built) ? 0 : 1);
} else {
  writeFileSync(STAMP, '');
}
