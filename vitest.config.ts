import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * Files whose outcome does not depend on the Node that runs them: the static checks (lint, formatting,
 * the house, docs, versions, install scripts, CI files), the other languages' toolchains, the docs'
 * recipes, the browser. Project `once`: `.ci/run` runs them on the machine's Node alone, as it does
 * `postgres` (the API suite over PostgreSQL: its SQL does not depend on the Node) and `containers`, and
 * `embedded` (the server tests, PostgreSQL's own among them) on every Node the package declares.
 */
const ONCE = [
  'test/project/{action,ci_recipes,client_types,dashboard,deps,docs,gitlab,house}.test.ts',
  'test/project/{install_scripts,licence,observability,recipes,settings,tooling,versions}.test.ts',
  'test/clients/*.test.ts',
];

/** Server tests about the process, the package or the embedded store itself: not run again on PostgreSQL. */
const EMBEDDED_ONLY = [
  'test/cli/cli.test.ts',
  'test/project/package.test.ts',
  'test/control/journal.test.ts',
  // processes on one store folder, and npm start: the embedded store's owner
  'test/store/ownership.test.ts',
  'test/reliability/{memory,crash}.test.ts',
  // its servers are in memory whatever the project (bounds on what a caller can make it hold)
  'test/reliability/hosting.test.ts',
  // their own PostgreSQL servers, whatever the project
  'test/store/{postgres,instances,listen_instances,outages}.test.ts',
  'test/store/isolation.test.ts',
  // the receiver checker's own dipswitch is in memory whatever the project
  'test/trust/check_receiver.test.ts',
  // recording is the proxy's; its replays start from fixture files, whatever the backend
  'test/trust/record.test.ts',
  // the shadow dipswitch is in memory whatever the project
  'test/trust/shadow.test.ts',
  'test/observability/traces.test.ts',
];

export default defineConfig({
  resolve: {
    // the README's library example imports the package by name, as a client team would
    alias: { dipswitch: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    // every dipswitch a test starts picks a free SMPP port (the default, 2775, is one per machine)
    env: { SMPP_PORT: '0' },
    // generous: with several files at once on two cores, a test that spawns processes can wait its turn;
    // timing is the benchmark's business (npm run bench), never a test's
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // most of a test's time is spent waiting on sockets, child processes and PostgreSQL, so more files
    // run at once than there are cores (vitest's default is one fewer than the cores: one, on two)
    maxWorkers: 4,
    // a worker keeps the modules it loaded from one file to the next (the app's contract and validators
    // are loaded once a worker, not once a file); no test mocks a module or relies on a fresh one
    isolate: false,
    sequence: { sequencer: (await import('./test/support/sequencer.js')).SlowFirst },
    projects: [
      {
        extends: true,
        // the command is built once for the tests that spawn it (test/support/build_global.ts)
        test: {
          name: 'embedded',
          include: ['test/**/*.test.ts'],
          exclude: [...ONCE, 'test/containers/**'],
          globalSetup: ['test/support/build_global.ts'],
        },
      },
      {
        extends: true,
        test: { name: 'once', include: ONCE, globalSetup: ['test/support/build_global.ts'] },
      },
      {
        extends: true,
        // dipswitch's image, built once for the run from the Dockerfile (test/support/image_global.ts), and
        // the containers, Testcontainers and compose stack made from it
        test: {
          name: 'containers',
          include: ['test/containers/**/*.test.ts'],
          globalSetup: ['test/support/build_global.ts', 'test/support/image_global.ts'],
        },
      },
      {
        extends: true,
        test: {
          // the API suite again with every test server on PostgreSQL: one throwaway server for the run,
          // a database per test server copied from a template (test/support/pg_global.ts); a test server's
          // calls go to its core in the process (the embedded project tests the wire)
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: [...ONCE, ...EMBEDDED_ONLY, 'test/containers/**'],
          env: { DIPSWITCH_TEST_STORE: 'postgres', SMPP_PORT: '0' },
          globalSetup: ['test/support/pg_global.ts'],
        },
      },
    ],
  },
});
