import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // the README's library example imports the package by name, as a client team would
    alias: { dipswitch: fileURLToPath(new URL('./src/index.ts', import.meta.url)) },
  },
  test: {
    include: ['test/**/*.test.ts'],
    // DIPSWITCH_TEST_STORE=postgres runs the suite's servers on PostgreSQL (test/pg_global.ts)
    globalSetup: ['test/pg_global.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
