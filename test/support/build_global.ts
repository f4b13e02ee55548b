/**
 * Global setup of the embedded project (vitest.config.ts): the command is built once, when a source
 * is newer than dist, so the tests that run `dipswitch` as a process spawn the built command, as a
 * user runs it, rather than compiling the sources in every process.
 */
import { projectRoot } from '../../src/contract.js';
// @ts-expect-error a plain script without types
import { buildIfStale } from '../../scripts/build-if-stale.mjs';

export default function setup(): void {
  const status = (buildIfStale as (root: string) => number)(projectRoot);
  if (status !== 0) throw new Error(`npm run build failed (exit ${status})`);
}
