/**
 * The default fixtures (interface.md section 3). The file holds records as the contract shows them
 * plus the hidden fields; fixture secrets are given in clear there and hashed on the way in.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { upgradeDid } from '../domain/numbers.js';
import { hashSecret } from '../domain/secrets.js';
import { projectRoot } from '../http/contract.js';
import { emptyDb, type AccountRow, type ApiKeyRow, type DbData, type UserRow } from './rows.js';

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
