/** The other commands: `check-receiver`, `scenario` and `store repair` (`proxy` has its own file). */
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { readContractDocument } from '../contract.js';
import { FEATURES, featureSpecs, installLine, missingPackages, type Feature } from '../domain/features.js';
import type { Logger } from '../deps.js';
import { buildServer, listen, scratchOptions } from '../server.js';
import { JsonStore } from '../store/embedded/json_store.js';
import { fixtureState, loadFixtureFile, type FixtureFile } from '../store/fixtures.js';
import { formatTimeline, runScenario } from '../testing/scenario.js';
import { findScenario, ScenarioCatalog, scenarioDirProblem } from '../testing/scenario_runner.js';
import { Stop, storeStop } from './stop.js';

// ---- check-receiver

export interface CheckReceiverFlags {
  kind: 'event' | 'cdr' | 'sms' | 'mms' | 'route';
  auth?: 'NONE' | 'BASIC' | 'BEARER' | 'HMAC_SHA256';
  identity?: string;
  secret?: string;
  format?: string;
  json?: boolean;
}

/** The message formats of a kind, from the contract's enumeration. */
function formatsOf(kind: 'sms' | 'mms'): string[] {
  const schemas = (readContractDocument('openapi') as { components: { schemas: Record<string, { enum: string[] }> } })
    .components.schemas;
  return schemas[`${kind}_message_format`]?.enum ?? [];
}

/** The auth the flags describe: HMAC_SHA256 for a message with a secret, BEARER for the others, NONE without one. */
function receiverAuth(f: CheckReceiverFlags) {
  const message = f.kind === 'sms' || f.kind === 'mms';
  const method = f.auth ?? (f.secret === undefined ? 'NONE' : message ? 'HMAC_SHA256' : 'BEARER');
  if (method === 'HMAC_SHA256' && !message) throw new Stop(`--auth HMAC_SHA256 is for --kind sms or mms only`, 2);
  if (method !== 'NONE' && !f.secret) throw new Stop(`--auth ${method} needs --secret`, 2);
  if (method === 'BASIC' && !f.identity) throw new Stop('--auth BASIC needs --identity', 2);
  return { method, identity: f.identity, secret: f.secret };
}

export async function checkReceiver(url: string, f: CheckReceiverFlags): Promise<void> {
  const auth = receiverAuth(f);
  let format = '';
  if (f.kind === 'sms' || f.kind === 'mms') {
    const known = formatsOf(f.kind);
    format = f.format ?? known[0] ?? '';
    if (!known.includes(format)) throw new Stop(`--format for ${f.kind} is one of ${known.join(', ')}`, 2);
  } else if (f.format) throw new Stop('--format is for --kind sms or mms only', 2);
  const { checkReceiver: check, formatResults } = await import('../trust/check_receiver.js');
  const results = await check({ url, kind: f.kind, auth, format });
  console.log(f.json ? JSON.stringify({ results }, null, 2) : formatResults(results));
  process.exitCode = results.every((r) => r.passed) ? 0 : 1;
}

// ---- scenario

export async function scenario(name: string | undefined, f: { scenarios?: string; fixtures?: string }): Promise<void> {
  let fixtures: FixtureFile | undefined;
  try {
    if (f.fixtures) fixtures = loadFixtureFile(f.fixtures);
  } catch (e) {
    throw new Stop((e as Error).message, 2);
  }
  if (f.scenarios) {
    const problem = scenarioDirProblem(f.scenarios);
    if (problem) throw new Stop(problem, 2);
  }
  // the folders are read once: the scenario found is the one run
  const catalog = await new ScenarioCatalog(f.scenarios ? [f.scenarios] : []).catalog();
  for (const problem of catalog.problems) console.error(`dipswitch: not a scenario: ${problem}`);
  const found = name === undefined ? undefined : findScenario(catalog, name);
  if (!found) {
    const known = `scenarios: ${[...catalog.scenarios.keys()].sort().join(', ')}`;
    throw new Stop(name ? `no scenario ${name}; ${known}` : `name a scenario; ${known}`, 2);
  }
  const { app, runtime } = await buildServer({
    ...scratchOptions(),
    scenarioDirs: f.scenarios ? [f.scenarios] : [],
    ...(fixtures ? { fixtures: () => fixtureState(fixtures) } : {}),
  });
  const server = await listen(app, 0, '127.0.0.1');
  try {
    const result = await runScenario(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, found);
    console.log(formatTimeline(result));
    process.exitCode = result.passed ? 0 : 1;
  } finally {
    server.close();
    await runtime.close();
  }
}

// ---- store repair

export async function repair(f: { data: string }): Promise<void> {
  const said: string[] = [];
  const logger: Logger = { info: (m) => said.push(m), warn: (m) => said.push(m) };
  const store = await JsonStore.open({ file: f.data, repair: true }, logger).catch((e: unknown) => {
    storeStop(e);
    throw e;
  });
  await store.close();
  for (const line of said) console.log(line);
  console.log(
    store.created
      ? `no store at ${resolve(f.data)}: nothing to repair`
      : `${resolve(f.data)}: ${said.length ? 'repaired' : 'sound, nothing to repair'}`,
  );
}

/**
 * `dipswitch features`: each optional feature, whether its packages are installed, and the line that
 * adds them; with `--packages` every feature's packages as `name@range`, one a line (what the GitHub
 * Action's npm mode hands `npm exec --package`).
 */
export function features(f: { packages?: boolean }): void {
  const names = Object.keys(FEATURES) as Feature[];
  if (f.packages) {
    for (const spec of names.flatMap(featureSpecs)) console.log(spec);
    return;
  }
  for (const name of names) {
    const missing = missingPackages(name);
    console.log(`${name.padEnd(7)} ${FEATURES[name].what}: ${missing.length ? 'not installed' : 'installed'}`);
    if (missing.length) console.log(`        ${installLine(name)}`);
  }
}
