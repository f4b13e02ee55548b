/** The package as a client team gets it: packed from the suite's build, and a lockfile to install it offline. */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { projectRoot } from '../../src/contract.js';

interface LockEntry {
  version?: string;
  dev?: boolean;
  link?: boolean;
  [k: string]: unknown;
}

export const npm = (args: string[], cwd: string) =>
  spawnSync('npm', args, {
    cwd,
    encoding: 'utf8',
    timeout: 300_000,
    env: { ...process.env, npm_config_loglevel: 'warn' },
  });

/**
 * Packs a copy of the project with the build the suite made (test/support/build_global.ts), so packing
 * does not compile again; answers the tarball.
 */
export function pack(into: string): string {
  const copy = join(into, 'project');
  mkdirSync(copy);
  for (const entry of [
    'src',
    'dist',
    'contract',
    'docs',
    'fixtures',
    'scenarios',
    'scripts',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
    'tsconfig.build.json',
    'README.md',
  ])
    cpSync(join(projectRoot, entry), join(copy, entry), { recursive: true });
  symlinkSync(join(projectRoot, 'node_modules'), join(copy, 'node_modules'), 'dir');
  const packed = npm(['pack', '--ignore-scripts', '--pack-destination', into, '--json'], copy);
  expect(packed.status, packed.stderr).toBe(0);
  return join(into, (JSON.parse(packed.stdout) as { filename: string }[])[0]!.filename);
}

/** A package's name from its entry in a lockfile: its own `name` (an alias), or its path's last `node_modules/`. */
export function lockName(path: string, entry: Record<string, unknown>): string {
  return typeof entry.name === 'string'
    ? entry.name
    : path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

/**
 * A lockfile for a project depending on the tarball alone: the production part of this project's
 * lockfile, so `npm ci --offline` installs from the npm cache without asking a registry anything.
 */
export function lockfileFor(tarball: string): object {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as Record<string, unknown>;
  const lock = JSON.parse(readFileSync(join(projectRoot, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  // this project's lockfile names no tarball URLs: the registry's are put back, for the cache to find them by
  const registry = 'https://registry.npmjs.org';
  const production = Object.entries(lock.packages)
    .filter(([path, e]) => path !== '' && !e.dev && !e.link)
    .map(([path, e]) => {
      const name = lockName(path, e);
      const file = `${name.split('/').pop()}-${e.version}.tgz`;
      return [path, { resolved: `${registry}/${name}/-/${file}`, ...e }] as const;
    });
  const spec = `file:${tarball}`;
  return {
    name: 'client',
    lockfileVersion: 3,
    requires: true,
    packages: {
      '': { name: 'client', dependencies: { dipswitch: spec } },
      'node_modules/dipswitch': {
        version: manifest.version,
        resolved: spec,
        license: manifest.license,
        dependencies: manifest.dependencies,
        peerDependencies: manifest.peerDependencies,
        peerDependenciesMeta: manifest.peerDependenciesMeta,
        bin: manifest.bin,
        engines: manifest.engines,
      },
      ...Object.fromEntries(production),
    },
  };
}

/** A new project with the packed package installed (production dependencies, offline); answers its folder. */
export function installedClient(dir: string, scripts: Record<string, string> = {}): string {
  const tarball = pack(dir);
  const client = join(dir, 'client');
  mkdirSync(client);
  writeFileSync(
    join(client, 'package.json'),
    JSON.stringify({
      name: 'client',
      private: true,
      type: 'module',
      scripts,
      dependencies: { dipswitch: `file:${tarball}` },
    }),
  );
  writeFileSync(join(client, 'package-lock.json'), JSON.stringify(lockfileFor(tarball)));
  const install = npm(['ci', '--offline', '--omit=dev', '--ignore-scripts', '--no-audit', '--no-fund'], client);
  expect(install.status, install.stderr).toBe(0);
  return client;
}
