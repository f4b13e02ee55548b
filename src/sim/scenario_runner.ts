/** Runs a scenario of scenarios/ by name (filled in with the scenario DSL). */
import type { Deps } from '../deps.js';
import { notFound } from '../http/errors.js';

export async function runScenarioByName(_deps: Deps, name: string): Promise<unknown> {
  throw notFound('scenario', name);
}
