// `npm start`: builds only when a source is newer than the last build (saying so, as a first build
// takes a while), then runs the built command in this same process, with the arguments given after
// `npm start --`.
import { buildIfStale } from './build-if-stale.mjs';

const status = buildIfStale(process.cwd(), () =>
  process.stderr.write('dipswitch: building (the first start, or a source changed since the last build)…\n'),
);
if (status !== 0) process.exit(status);
await import('../dist/src/cli/main.js');
