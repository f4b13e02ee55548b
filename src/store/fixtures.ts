/**
 * The default fixtures (interface.md section 3). The file holds records as the contract shows them
 * plus the hidden fields; fixture secrets are given in clear there and hashed on the way in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { upgradeDid } from '../domain/numbers.js';
import { hashSecret } from '../domain/secrets.js';
import { componentValidator, projectRoot } from '../contract.js';
import { type AccountRow, type ApiKeyRow, type UserRow } from '../domain/rows.js';
import { COLLECTION_NAMES, emptyDb, type CollectionName, type DbData } from './schema.js';

/** The Demo account of the default fixtures (interface.md section 3): the account of a control call without a key. */
export const DEMO_ACCOUNT = '0a0a0a0a-0000-4000-8000-000000000001';

/** The default fixtures' keys (interface.md section 3), by the role they carry. */
export const FIXTURE_KEYS = {
  admin: 'demo-admin-key',
  operator: 'demo-operator-key',
  readonly: 'demo-readonly-key',
  standard: 'demo-standard-key',
  partner: 'partner-admin-key',
} as const;

/** The Partner account of the default fixtures. */
export const PARTNER_ACCOUNT = '0a0a0a0a-0000-4000-8000-000000000002';

export const defaultFixturesPath = join(projectRoot, 'fixtures', 'default.json');

type FixtureApiKey = Omit<ApiKeyRow, 'secret_hash' | 'smpp_secret_hash'> & { secret: string; smpp_secret: string };
type FixtureUser = Omit<UserRow, 'password_hash'>;
type FixtureAccount = AccountRow['data'];

/** A fixture file: records as the contract shows them plus the hidden fields, secrets in clear, accounts bare. */
export type FixtureFile = Omit<Partial<DbData>, 'api_keys' | 'users' | 'accounts'> & {
  accounts: FixtureAccount[];
  api_keys: FixtureApiKey[];
  users: FixtureUser[];
};

export function readFixtureFile(path = defaultFixturesPath): FixtureFile {
  return JSON.parse(readFileSync(path, 'utf8')) as FixtureFile;
}

/** The contract schema of each collection's `data` (the collections left out have none). */
const SCHEMA_OF: Partial<Record<CollectionName, string>> = {
  users: 'user',
  api_keys: 'api_key',
  secret_keys: 'secret_key',
  switches: 'switch',
  numbers: 'number',
  auto_responses: 'auto_response',
  optout_items: 'optout_item',
  destinations: 'destination',
  carts: 'cart',
  orders: 'order',
  requests: 'request',
  campaigns: 'csp_campaign',
  brands: 'csp_brand',
  bulk_dip_tasks: 'bulk_dip_task',
  call_data_webhooks: 'call_data_webhook',
  event_subscriptions: 'event_subscription',
  overwrite_requests: 'osr_overwrite_request',
};

/** Collections a fixture file may not hold: they are the simulation's own. */
const NOT_FIXTURES = new Set<string>(['clocks', 'steps', 'deliveries', 'documents']);

/** At most this many problems are listed; the rest are counted. */
const PROBLEMS_LISTED = 20;

/**
 * What is wrong with a fixture file (`--fixtures FILE`), one line each, `[]` when nothing: its
 * shape, every record's `data` against the contract, and every `account_id` naming one of its accounts.
 */
export function fixtureProblems(value: unknown): string[] {
  const problems: string[] = [];
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return ['the file must hold a JSON object of collections (accounts, users, api_keys, numbers, ...)'];
  const file = value as Record<string, unknown>;
  for (const name of ['accounts', 'users', 'api_keys'])
    if (!Array.isArray(file[name])) problems.push(`/${name} must be an array`);
  const accounts = new Set<string>();
  for (const [i, a] of (Array.isArray(file.accounts) ? file.accounts : []).entries()) {
    const ok = typeof a === 'object' && a && typeof a.id === 'string' && typeof a.name === 'string';
    if (!ok) problems.push(`/accounts/${i} must be an object with a string id and name`);
    else accounts.add(a.id as string);
  }
  for (const [name, rows] of Object.entries(file)) {
    if (name === 'accounts') continue;
    if (!(COLLECTION_NAMES as readonly string[]).includes(name) || NOT_FIXTURES.has(name)) {
      problems.push(`/${name} is not a collection a fixture file holds`);
      continue;
    }
    if (!Array.isArray(rows)) {
      problems.push(`/${name} must be an array`);
      continue;
    }
    const schema = SCHEMA_OF[name as CollectionName];
    const validate = schema ? componentValidator(schema) : null;
    for (const [i, row] of rows.entries()) {
      const at = `/${name}/${i}`;
      if (typeof row !== 'object' || row === null || typeof row.data !== 'object' || row.data === null) {
        problems.push(`${at} must be an object with a data object`);
        continue;
      }
      if (!accounts.has(row.account_id)) problems.push(`${at}/account_id names no account of the file`);
      if (name === 'api_keys' && (typeof row.secret !== 'string' || typeof row.smpp_secret !== 'string'))
        problems.push(`${at} must give its secret and smpp_secret in clear`);
      const data = name === 'numbers' ? upgradeDid(row.data) : row.data;
      if (validate && !validate(data))
        for (const e of validate.errors ?? [])
          problems.push(
            `${at}/data${e.instancePath} ${e.message ?? 'is invalid'}${'additionalProperty' in e.params ? `: ${String(e.params.additionalProperty)}` : ''} (${schema})`,
          );
    }
  }
  if (problems.length <= PROBLEMS_LISTED) return problems;
  return [...problems.slice(0, PROBLEMS_LISTED), `and ${problems.length - PROBLEMS_LISTED} more`];
}

/** A user's fixture file, read and checked; throws an Error naming the file and its problems. */
export function loadFixtureFile(path: string): FixtureFile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new Error(`--fixtures ${path}: ${(e as Error).message}`);
  }
  const problems = fixtureProblems(value);
  if (problems.length) throw new Error(`--fixtures ${path} is not a valid fixture file:\n  ${problems.join('\n  ')}`);
  return value as FixtureFile;
}

/** The store's initial state from a fixture file. */
export function fixtureState(file: FixtureFile = readFixtureFile()): DbData {
  const { api_keys, users, accounts, ...rest } = structuredClone(file);
  return {
    ...emptyDb(),
    ...rest,
    accounts: accounts.map((a) => ({ account_id: a.id, sandbox_block: null, data: a })),
    numbers: (rest.numbers ?? []).map((n) => ({ ...n, data: upgradeDid(n.data) })),
    // fixture overwrite requests are scheduled as raised ones are: unreviewed, they go STALE at expires_at
    steps: [
      ...(rest.steps ?? []),
      ...(rest.overwrite_requests ?? [])
        .filter((o) => o.data.status === 'NEW' && o.data.review_status === 'NONE')
        .map((o, i) => ({
          account_id: o.account_id,
          seq: i,
          data: {
            id: `fixture-osr-${o.data.id}`,
            inserted_at: o.data.activation,
            at: o.data.expires_at,
            kind: 'osr_expire' as const,
            ref: o.data.id,
          },
        })),
    ],
    users: users.map((u) => ({ ...u, password_hash: null })),
    api_keys: api_keys.map(({ secret, smpp_secret, ...k }) => ({
      ...k,
      secret_hash: hashSecret(secret),
      smpp_secret_hash: hashSecret(smpp_secret),
    })),
  };
}
