/**
 * The contract, loaded once: the parsed OpenAPI document and what the pipeline reads off each
 * operation (its scope, and whether invalid input answers 404 or 422).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { operations } from './generated/api.js';
import type { operations as simOperations } from './generated/sim.js';

export type OperationId = keyof operations;
export type SimOperationId = keyof simOperations;

/** Which contract an operation belongs to: the simulated API (`/api/v1`) or the control API (`/__sim`). */
export type ApiName = 'openapi' | 'sim';

export interface Scope {
  action: 'create' | 'update' | 'delete' | 'list' | 'get' | 'checkout' | 'share' | 'review';
  resource: string;
}

/** Whom a control call acts on (contract/sim.yaml `x-acts-on`). */
export type ActsOn = 'account' | 'account-or-all' | 'server';

export interface OperationMeta<Id extends string = OperationId> {
  api: ApiName;
  operationId: Id;
  method: string;
  path: string;
  /** null for the operations that need no API key (the contract itself, the control API). */
  scope: Scope | null;
  /**
   * Control API: whom the call acts on (`x-acts-on`): one account (the key's, Demo's without one), the
   * key's account or every account without a key, or the whole server; null for the open calls.
   */
  actsOn: ActsOn | null;
  /**
   * Control API (`x-unit: account`): the operation changes the account it acts on in its call's own
   * unit of work; null: it reads in its call's unit, and runs what it changes through the runner.
   */
  unit: 'account' | null;
  /** The status of `invalid_parameter`: 422 where the operation's 422 response lists that code, else 404. */
  invalidStatus: 404 | 422;
  jsonBody: boolean;
  /** The body is multipart/form-data (document uploads). */
  multipart: boolean;
  /** Control API (`x-jsonrpc`): a body that is no JSON-RPC message is refused as JSON-RPC refuses it. */
  jsonRpc: boolean;
}

/** The folder that holds package.json, contract/ and fixtures/, from src/ or from dist/src/. */
export const projectRoot: string = (() => {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'package.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + dir);
    dir = up;
  }
  return dir;
})();

export const contractPath = join(projectRoot, 'contract', 'openapi.yaml');

/** This release's version: package.json's, the one source every artifact and client says. */
export const packageVersion = (
  JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { version: string }
).version;

type Json = Record<string, unknown>;

/** The digest of a contract's YAML text that `npm run build` writes beside its JSON copy. */
export const contractDigest = (yaml: string): string => createHash('sha256').update(yaml).digest('hex');

/**
 * A contract document: the JSON copy `npm run build` leaves in dist/contract when it was made from
 * this very YAML (the digest beside it says so; start-up then skips the YAML parser), else the YAML
 * itself. A digest, not the files' times: an installed package's files all have the time npm gave
 * them, in no particular order.
 */
export function readContractDocument(name: 'openapi' | 'sim', root = projectRoot): Record<string, unknown> {
  const yaml = readFileSync(join(root, 'contract', `${name}.yaml`), 'utf8');
  const built = join(root, 'dist', 'contract', name);
  if (existsSync(`${built}.json`) && existsSync(`${built}.sha256`)) {
    if (readFileSync(`${built}.sha256`, 'utf8').trim() === contractDigest(yaml))
      return JSON.parse(readFileSync(`${built}.json`, 'utf8')) as Record<string, unknown>;
  }
  const { parse } = createRequire(import.meta.url)('yaml') as typeof import('yaml');
  return parse(yaml) as Record<string, unknown>;
}

export interface Contract<Id extends string = OperationId> {
  name: ApiName;
  /** The YAML text, read when first asked for (`?format=yaml`). */
  yamlText(): string;
  document: Json;
  operations: Map<Id, OperationMeta<Id>>;
}

const cached = new Map<ApiName, Contract<string>>();

/** Reads and indexes a contract (once per process): `openapi` (the simulated API, the default) or `sim`. */
export function loadContract(): Contract;
export function loadContract(name: 'sim'): Contract<SimOperationId>;
export function loadContract(name: ApiName = 'openapi'): Contract<string> {
  const hit = cached.get(name);
  if (hit) return hit;
  const document = readContractDocument(name) as Json;
  const yamlPath = join(projectRoot, 'contract', `${name}.yaml`);
  let yaml: string | undefined;
  const yamlText = () => (yaml ??= readFileSync(yamlPath, 'utf8'));
  const components = document.components as { responses?: Record<string, Json>; requestBodies?: Record<string, Json> };
  const resolve = (r: Json, kind: 'responses' | 'requestBodies' = 'responses'): Json => {
    const ref = r.$ref;
    if (typeof ref !== 'string') return r;
    const refName = ref.split('/').pop() ?? '';
    return components[kind]?.[refName] ?? r;
  };
  const operations = new Map<string, OperationMeta<string>>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Json>)) {
    for (const [method, op] of Object.entries(item)) {
      if (method === 'parameters') continue;
      const o = op as Json;
      const responses = o.responses as Record<string, Json>;
      const unprocessable = responses['422'] ? resolve(responses['422']) : undefined;
      const codes = (unprocessable?.['x-error-codes'] as string[] | undefined) ?? [];
      const body = o.requestBody ? resolve(o.requestBody as Json, 'requestBodies') : undefined;
      const content = (body?.content ?? {}) as Json;
      operations.set(o.operationId as string, {
        api: name,
        operationId: o.operationId as string,
        method: method.toUpperCase(),
        path,
        scope: (o['x-scope'] as Scope | undefined) ?? null,
        actsOn: (o['x-acts-on'] as ActsOn | undefined) ?? null,
        unit: o['x-unit'] === 'account' ? 'account' : null,
        invalidStatus: codes.includes('invalid_parameter') ? 422 : 404,
        jsonBody: 'application/json' in content,
        multipart: 'multipart/form-data' in content,
        jsonRpc: o['x-jsonrpc'] === true,
      });
    }
  }
  const contract: Contract<string> = { name, yamlText, document, operations };
  cached.set(name, contract);
  return contract;
}

/**
 * JSON Schema's `email` is RFC 5321's Mailbox: a dot-string or quoted local part of at most 64
 * octets, then a domain of one or more labels (`0@com` is one) or an address literal. ajv-formats'
 * own check wants a dot in the domain, which would refuse addresses the contract allows.
 */
const MAILBOX =
  /^(?=[^@]{1,64}@)(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*|"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*")@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[\x21-\x5a\x5e-\x7e]+\])$/;

/** The formats every validator of the contracts knows: ajv-formats', a file part (`binary`), and RFC 5321's `email`. */
export function addContractFormats(ajv: Ajv2020): Ajv2020 {
  addFormats.default(ajv);
  ajv.addFormat('binary', true);
  ajv.addFormat('email', { type: 'string', validate: (v: string) => v.length <= 254 && MAILBOX.test(v) });
  return ajv;
}

const componentValidators = new Map<string, ValidateFunction>();
let componentAjv: Ajv2020 | undefined;

/** A validator for one schema of `components.schemas` of a contract (the simulated API's by default). */
export function componentValidator(name: string, api: ApiName = 'openapi'): ValidateFunction {
  const key = `${api}#${name}`;
  let validate = componentValidators.get(key);
  if (!validate) {
    if (!componentAjv) {
      componentAjv = addContractFormats(new Ajv2020({ allErrors: true, strict: false }));
      componentAjv.addSchema({ ...loadContract().document, $id: 'contract' });
      componentAjv.addSchema({ ...loadContract('sim').document, $id: 'sim' });
    }
    validate = componentAjv.getSchema(`${api === 'sim' ? 'sim' : 'contract'}#/components/schemas/${name}`);
    if (!validate) throw new Error(`no schema ${name} in the ${api} contract`);
    componentValidators.set(key, validate);
  }
  return validate;
}

let secrets: Set<string> | undefined;

/**
 * The names of the contract's secret fields (`x-secret: true`), which are redacted wherever
 * dipswitch shows or logs a body; and `smpp_secret`, the spelling the provider's client sends.
 */
export function secretFields(): ReadonlySet<string> {
  if (!secrets) {
    const found = new Set(['smpp_secret']);
    const visit = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(visit);
      if (node === null || typeof node !== 'object') return;
      for (const [name, value] of Object.entries(node as Record<string, unknown>)) {
        if (name === 'properties' && value && typeof value === 'object') {
          for (const [field, schema] of Object.entries(value as Record<string, unknown>)) {
            if ((schema as Record<string, unknown> | null)?.['x-secret'] === true) found.add(field);
          }
        }
        visit(value);
      }
    };
    visit(loadContract().document);
    secrets = found;
  }
  return secrets;
}
