/**
 * The scenarios a server knows: those of scenarios/ (compiled beside dist/src, or the TypeScript
 * source under tsx) and those of the folders given with `--scenarios DIR`, which win on a name
 * both hold. A scenario is known by the name given to `scenario()`, whatever its file is called;
 * every script file of a folder is read (again when edited), and one that cannot be loaded or is not
 * a scenario is a one-line problem naming it. A user's TypeScript scenario is loaded through tsx
 * when Node cannot load it alone.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { register } from 'node:module';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { notFound } from '../domain/errors.js';
import { runScenario, type Scenario, type ScenarioResult, type ScenarioTarget } from './scenario.js';

const builtInDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));
/** The files read as scenarios (declaration files and source maps are not). */
const SCRIPT = /^(?!.*\.d\.[cm]?ts$).*\.(js|mjs|cjs|ts|mts|cts)$/;

/** Why `dir` cannot be a scenario folder, or null when it can. */
export function scenarioDirProblem(dir: string): string | null {
  if (!existsSync(dir)) return `--scenarios ${dir}: no such folder`;
  if (!statSync(dir).isDirectory()) return `--scenarios ${dir}: not a folder`;
  return null;
}

type ScenarioModule = { default?: Scenario & { default?: Scenario } };

let hooked = false;

/**
 * The built command resolves `dipswitch` in users' scenario files to itself (src/testing/dipswitch_resolve.ts),
 * wherever their folder is; under vitest or tsx the package resolves as the project's own.
 */
function resolveDipswitch(): void {
  if (hooked || !import.meta.url.endsWith('.js')) return;
  hooked = true;
  register(new URL('./dipswitch_resolve.js', import.meta.url), {
    data: { entry: new URL('../index.js', import.meta.url).href },
  });
}

async function importScenario(file: string): Promise<Scenario> {
  resolveDipswitch();
  const url = pathToFileURL(file).href;
  let module: ScenarioModule;
  try {
    // a JavaScript file's time in its URL: an edited scenario is a new module, read again without a
    // restart (a TypeScript one loaded through tsx is read again by its own loader each time)
    const fresh = file.endsWith('.ts') ? url : `${url}?mtime=${statSync(file).mtimeMs}`;
    module = (await import(fresh)) as ScenarioModule;
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw e;
    // a TypeScript file on a Node that cannot strip types: tsx (an optional peer dependency) loads it,
    // in a loader of its own (no hook left on the process); a file outside an ESM package comes back
    // as CommonJS, its default export one level down
    // tsx not installed (a production install): a scenario written in TypeScript is refused below, by name;
    // tsx failing to load for any other reason is that failure
    const tsx = (await import('tsx/esm/api').catch((err: unknown) => {
      if ((err as { code?: string }).code === 'ERR_MODULE_NOT_FOUND') return null;
      throw err;
    })) as {
      tsImport(specifier: string, parent: string): Promise<unknown>;
    } | null;
    if (!tsx) throw new Error('it is TypeScript: install tsx beside dipswitch to run it, or compile it to .js');
    const loaded = (await tsx.tsImport(url, import.meta.url)) as ScenarioModule;
    module = loaded.default?.default ? { default: loaded.default.default } : loaded;
  }
  const s = module.default;
  if (!s || typeof s.run !== 'function' || typeof s.name !== 'string')
    throw new Error('its default export is not a scenario (export default scenario(name, title, run))');
  return s;
}

/** What the folders hold: each scenario by its name (with its file), and the files that are not scenarios. */
export interface Catalog {
  scenarios: Map<string, { file: string; scenario: Scenario }>;
  problems: string[];
}

/** An error as one line: its message's first line, without the stack. */
const oneLine = (e: unknown): string => (e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '';

/** The scenario of that name in a catalog, or, failing that, of a file of that name. */
export function findScenario({ scenarios }: Catalog, name: string): Scenario | undefined {
  const found =
    scenarios.get(name) ?? [...scenarios.values()].find((s) => basename(s.file).replace(/\.[^.]+$/, '') === name);
  return found?.scenario;
}

export class ScenarioCatalog {
  private readonly dirs: string[];

  /** `userDirs` are searched before the built-in folder. */
  constructor(userDirs: readonly string[] = []) {
    this.dirs = [...userDirs.map((d) => resolve(d)), builtInDir];
  }

  /** Every scenario of the folders, a user's before a built-in one of the same name, and the problems met. */
  async catalog(): Promise<Catalog> {
    const scenarios: Catalog['scenarios'] = new Map();
    const problems: string[] = [];
    for (const dir of this.dirs) {
      if (!existsSync(dir)) continue;
      for (const f of readdirSync(dir).sort()) {
        const file = join(dir, f);
        if (!SCRIPT.test(f) || !statSync(file).isFile()) continue;
        try {
          const scenario = await importScenario(file);
          if (!scenarios.has(scenario.name)) scenarios.set(scenario.name, { file, scenario });
        } catch (e) {
          problems.push(`${file}: ${oneLine(e)}`);
        }
      }
    }
    return { scenarios, problems };
  }

  async names(): Promise<string[]> {
    return [...(await this.catalog()).scenarios.keys()].sort();
  }

  /** The scenario of that name, read as its file is now. */
  async load(name: string): Promise<Scenario> {
    const found = findScenario(await this.catalog(), name);
    if (!found) throw notFound('scenario', name);
    return found;
  }

  async run(target: ScenarioTarget, name: string, adminToken?: string): Promise<ScenarioResult> {
    return runScenario(target, await this.load(name), adminToken);
  }
}
