/**
 * The features whose packages a team installs only when it uses them (package.json's optional
 * `peerDependencies`): a plain `npm i -D dipswitch` brings the simulator alone. A feature loads its
 * packages when it is first used; one not installed is refused in one line that says what to add,
 * with the range this release was tested with. The image and the GitHub Action carry them all.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { projectRoot } from '../contract.js';

/** Each optional feature, what it is called where it is refused, and the packages it loads. */
export const FEATURES = {
  traces: {
    what: 'Traces (OTEL_* variables)',
    packages: [
      '@opentelemetry/api',
      '@opentelemetry/core',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-trace-base',
      '@opentelemetry/sdk-trace-node',
    ],
  },
  proxy: { what: 'dipswitch proxy (the validating proxy)', packages: ['@stoplight/prism-http'] },
  mcp: { what: 'The MCP server (dipswitch mcp, POST /__sim/mcp)', packages: ['@modelcontextprotocol/sdk'] },
  sftp: { what: 'SFTP delivery (sftp:// targets)', packages: ['ssh2'] },
} as const;

export type Feature = keyof typeof FEATURES;

/** A feature used without its packages: `message` is the one line that says what to add. */
export class FeatureMissing extends Error {
  constructor(
    readonly feature: Feature,
    readonly install: string,
  ) {
    super(`${FEATURES[feature].what} needs packages dipswitch does not install by itself: ${install}`);
    this.name = 'FeatureMissing';
  }
}

/** The ranges this release declares for its optional packages (package.json's peerDependencies). */
function ranges(): Record<string, string> {
  const manifest = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  return manifest.peerDependencies ?? {};
}

/** A feature's packages, each as `name@range` at the range this release declares. */
export function featureSpecs(feature: Feature): string[] {
  const declared = ranges();
  return FEATURES[feature].packages.map((p) => (declared[p] ? `${p}@${declared[p]}` : p));
}

/** The command that installs a feature's packages. */
export function installLine(feature: Feature): string {
  return `npm i -D ${featureSpecs(feature)
    .map((s) => `'${s}'`)
    .join(' ')}`;
}

/** The packages of a feature that Node would not find from dipswitch's own folder. */
export function missingPackages(feature: Feature): string[] {
  const folders = createRequire(join(projectRoot, 'package.json')).resolve.paths('x') ?? [];
  return FEATURES[feature].packages.filter((p) => !folders.some((d) => existsSync(join(d, p, 'package.json'))));
}

/** Whether an import failed because one of the feature's own packages is not installed. */
function missingPackage(feature: Feature, e: unknown): boolean {
  const err = e as NodeJS.ErrnoException | undefined;
  if (err?.code !== 'ERR_MODULE_NOT_FOUND' && err?.code !== 'MODULE_NOT_FOUND') return false;
  return FEATURES[feature].packages.some((p) => err.message.includes(`'${p}'`) || err.message.includes(`${p}/`));
}

/**
 * `load()` (the feature's dynamic imports), or FeatureMissing when a package of the feature is not
 * installed; any other failure is the caller's as it came.
 */
export async function loadFeature<T>(feature: Feature, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    if (missingPackage(feature, e)) throw new FeatureMissing(feature, installLine(feature));
    throw e;
  }
}
