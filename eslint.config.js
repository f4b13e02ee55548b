// ESLint: typescript-eslint's recommended rules, no `any` or non-null assertions, no import circles
// (type-only imports counted), and the import rule of the layout (docs/architecture.md).
import importX, { createNodeResolver } from 'eslint-plugin-import-x';
import { noImportCycle } from './scripts/eslint-import-cycles.mjs';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

const src = (...parts) => parts.map((p) => `./src/${p}`);
/** The parts that pick or are a store backend, the handlers, and what only the top may import. */
const BACKENDS = src('store/embedded', 'store/postgres');
const ROOTS = src('server.ts', 'backends.ts', 'cli', 'index.ts', 'trust');
const HANDLERS = src('handling', 'api', 'control', 'http', 'smpp');

/**
 * The import rule: each part of src/ may import only the parts below it. domain imports nothing of
 * ours but the contract's types and the record shapes; store knows nothing above it; engine does not
 * know the simulation, the handlers or HTTP; simulation does not know the handlers or HTTP; the
 * handlers (api, control) and what they are handed (handling) know nothing of HTTP; only http knows express and the statuses of errors; only the composition roots pick a backend.
 */
const zones = [
  {
    target: './src/changes',
    from: './src',
    except: ['./changes', './domain', './generated', './contract.ts'],
    message:
      'changes (a contract diff, a footprint) reads contracts only: nothing of ours but domain, the contract and its types (docs/architecture.md).',
  },
  {
    target: './src/observability',
    from: './src',
    except: ['./observability', './domain', './generated', './contract.ts', './deps.ts'],
    message:
      'observability (metrics, traces) is below the engine: nothing of ours but domain and the contract (docs/architecture.md).',
  },
  {
    target: './src/harness',
    from: [...src('simulation', 'testing'), ...HANDLERS, ...ROOTS, ...BACKENDS],
    message:
      'the harness (sandboxes, resets, journal, coverage) is above the engine and below the simulation and the handlers (docs/architecture.md).',
  },
  {
    target: './src/domain',
    from: './src',
    except: ['./domain', './generated', './contract.ts'],
    message: 'domain imports nothing of ours but the contract and its types (docs/architecture.md).',
  },
  {
    target: './src/store',
    from: [...src('engine', 'harness', 'observability', 'simulation', 'testing', 'runtime.ts'), ...HANDLERS, ...ROOTS],
    message: 'the store, backends included, knows nothing above it (docs/architecture.md).',
  },
  {
    target: './src/runtime.ts',
    from: [...src('testing'), ...HANDLERS, ...ROOTS, ...BACKENDS],
    message: 'the runtime is what handlers see: no test tooling, no backend (docs/architecture.md).',
  },
  {
    target: './src/engine',
    from: [...src('simulation', 'testing', 'harness'), ...HANDLERS, ...ROOTS, ...BACKENDS],
    message: 'the engine knows no simulation, handler, HTTP or backend (docs/architecture.md).',
  },
  {
    target: './src/simulation',
    from: [...src('testing', 'runtime.ts'), ...HANDLERS, ...ROOTS, ...BACKENDS],
    message: 'the simulation uses domain, engine and the store interface only (docs/architecture.md).',
  },
  {
    target: src('api', 'control', 'testing'),
    from: [...ROOTS, ...BACKENDS, './src/http/app.ts', './src/http/errors.ts'],
    message:
      'handlers call the simulation and throw domain errors; only the composition roots pick a backend (docs/architecture.md).',
  },
  {
    target: src('handling', 'api', 'control'),
    from: './src/http',
    message: 'handlers and what they are handed know nothing of HTTP: src/http takes them (docs/architecture.md).',
  },
  {
    target: './src/handling',
    from: src('api', 'control'),
    message: 'what a handler is handed is below the handlers (docs/architecture.md).',
  },
  {
    target: src('http', 'smpp'),
    from: [...ROOTS, ...BACKENDS],
    message: 'only the composition roots pick a store backend (docs/architecture.md).',
  },
  {
    target: src('handling', 'api', 'control', 'http'),
    from: './src/smpp',
    message:
      'the SMPP server is a front door beside HTTP: nothing but the composition roots takes it (docs/architecture.md).',
  },
];

export default tseslint.config(
  { ignores: ['dist/', 'src/generated/', 'node_modules/', 'test-results/', 'data/'] },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { 'import-x': importX, dipswitch: { rules: { 'no-import-cycle': noImportCycle } } },
    settings: {
      // the sources import each other by their compiled names (`./app.js` is `./app.ts`)
      'import-x/resolver-next': [createNodeResolver({ extensionAlias: { '.js': ['.ts', '.js'] } })],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/extensions': ['.ts', '.js'],
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'warn',
      '@typescript-eslint/no-non-null-assertion': 'warn',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      'dipswitch/no-import-cycle': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/http/**', 'src/trust/**'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones, basePath: import.meta.dirname }],
      'no-restricted-imports': [
        'error',
        {
          paths: ['express', 'cors'].map((name) => ({
            name,
            message: 'only src/http knows express (docs/architecture.md).',
          })),
        },
      ],
    },
  },
  {
    files: ['src/http/**/*.ts'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones, basePath: import.meta.dirname }] },
  },
  {
    // a file a newcomer reads at one sitting, a function on one screen (docs/architecture.md)
    files: ['src/**/*.{ts,js}'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    // tests read JSON answers by their fields and index what they just made: asserting is their point
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  prettier,
);
