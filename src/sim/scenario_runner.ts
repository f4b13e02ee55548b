/** Finds a scenario of scenarios/ by name (compiled beside dist/src, or the TypeScript source under tsx) and runs it. */
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { notFound } from '../http/errors.js';
import { runScenario, type Scenario, type ScenarioResult } from './scenario.js';

const scenariosDir = fileURLToPath(new URL('../../scenarios/', import.meta.url));

/** The names of the scenarios there are. */
export function scenarioNames(): string[] {
  if (!existsSync(scenariosDir)) return [];
  return readdirSync(scenariosDir)
    .filter((f) => /^[a-z0-9-]+\.(js|ts)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => f.replace(/\.(js|ts)$/, ''))
    .sort();
}

export async function loadScenario(name: string): Promise<Scenario> {
  if (!/^[a-z0-9-]+$/.test(name)) throw notFound('scenario', name);
  for (const ext of ['js', 'ts']) {
    const file = `${scenariosDir}${name}.${ext}`;
    if (existsSync(file)) return ((await import(pathToFileURL(file).href)) as { default: Scenario }).default;
  }
  throw notFound('scenario', name);
}

export async function runScenarioByName(base: string, name: string, adminToken?: string): Promise<ScenarioResult> {
  return runScenario(base, await loadScenario(name), adminToken);
}
