/** Starting a dipswitch: open the store, seed it when empty, build the app. Shared by main.ts and tests. */
import type { Server } from 'node:http';
import { createApp, type App, type AppOptions } from './app.js';
import { createDeps, type Deps, type DepsOptions } from './deps.js';
import { startSimulation } from './sim/simulation.js';
import { fixtureState } from './store/fixtures.js';
import { Store, type StoreOptions } from './store/store.js';

export interface StartOptions extends Omit<DepsOptions, 'store'>, AppOptions {
  store: StoreOptions;
}

/** Opens the store (seeding an empty one from fixtures/default.json) and builds the app. */
export async function buildServer(opts: StartOptions): Promise<{ app: App; deps: Deps }> {
  const store = await Store.open(opts.store);
  if (store.isEmpty()) await store.replace(fixtureState());
  const deps = createDeps({ ...opts, store });
  startSimulation(deps);
  const app = await createApp(deps, opts);
  return { app, deps };
}

/** Listens and resolves with the bound server. */
export function listen(app: App, port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host, () => resolve(server));
    server.on('error', reject);
  });
}
