// The image carries every optional feature (src/domain/features.ts). In its build stage, each feature's
// packages become production dependencies of package.json, at the ranges it declares as optional peers, so
// that the lockfile made again from it marks them production and `npm prune --omit=dev` keeps them.
import { readFileSync, writeFileSync } from 'node:fs';
import { FEATURES } from '../dist/src/domain/features.js';

const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
for (const name of Object.values(FEATURES).flatMap((f) => f.packages)) {
  const range = manifest.peerDependencies?.[name];
  if (!range) throw new Error(`${name}: no optional peer dependency of that name in package.json`);
  manifest.dependencies[name] = range;
  delete manifest.devDependencies[name];
}
writeFileSync('package.json', `${JSON.stringify(manifest, null, 2)}\n`);
