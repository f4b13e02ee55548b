/** The routers and validators of the two contracts (openapi-backend, Ajv 2020-12), built once per process. */
import { createHash } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { OpenAPIBackend, type Document } from 'openapi-backend';
import { addContractFormats, loadContract, type ApiName } from '../contract.js';

const backends = new Map<ApiName, Promise<OpenAPIBackend>>();

/** The routers and validators hold no state of a server's own, so every app of the process shares them. */
export function backend(name: ApiName): Promise<OpenAPIBackend> {
  let api = backends.get(name);
  if (!api) backends.set(name, (api = buildBackend(loadContract(name as 'sim').document)));
  return api;
}

/**
 * Builds the openapi-backend router and validator for a contract (OpenAPI 3.1, Ajv 2020-12).
 * `quick` compiles each operation's validators on its first request, which keeps start-up short.
 * openapi-backend asks for a new Ajv at every validator it compiles; one Ajv per kind of validator
 * (request body, parameters, response, response headers: each kind with its own options) serves
 * them all instead, since a new Ajv costs more than the validator compiled in it (87 operations'
 * request validators: 1.9 s with an Ajv each, 0.7 s with one per kind).
 */
async function buildBackend(document: Record<string, unknown>): Promise<OpenAPIBackend> {
  const ajvs = new Map<unknown, Ajv2020>();
  const definition = withoutMappings(structuredClone(document));
  if (!isOpenApi(definition)) throw new Error('a contract without `openapi` and `paths` is no OpenAPI document');
  const api = new OpenAPIBackend({
    definition,
    apiRoot: '/',
    strict: true,
    quick: true,
    coerceTypes: true,
    // verbose: an error carries its schema, whose description says what a pattern checks (validation.ts)
    ajvOpts: { allErrors: true, strict: false, verbose: true },
    customizeAjv: (_ajv, opts, kind) => {
      let ajv = ajvs.get(kind);
      if (!ajv)
        ajvs.set(kind, (ajv = compilingOnce(addContractFormats(new Ajv2020({ ...opts, discriminator: true })))));
      return ajv;
    },
  });
  // openapi-backend checks documents against the 3.0 schema only; the contracts are linted by spectral instead.
  api.validateDefinition = () => api.document;
  await api.init();
  return api;
}

/** An OpenAPI document, as far as openapi-backend reads it before its own checks (the version and the paths). */
function isOpenApi(doc: Record<string, unknown>): doc is Record<string, unknown> & Document {
  return typeof doc.openapi === 'string' && typeof doc.paths === 'object' && doc.paths !== null;
}

/**
 * An Ajv that compiles each schema once: openapi-backend compiles a fresh copy of every schema it
 * validates with (so Ajv's own cache, by object, never hits), and the operations share most of theirs
 * (the error answers above all: 443 compiles are 89 schemas when every operation is called). Keyed by
 * the schema's digest: the same text in the same Ajv is the same validator.
 */
function compilingOnce(ajv: Ajv2020): Ajv2020 {
  const compiled = new Map<string, ValidateFunction>();
  const compile = ajv.compile.bind(ajv);
  ajv.compile = ((schema: object) => {
    const key = createHash('sha256').update(JSON.stringify(schema)).digest('base64');
    let validate = compiled.get(key);
    if (!validate) compiled.set(key, (validate = compile(schema)));
    return validate;
  }) as Ajv2020['compile'];
  return ajv;
}

/**
 * The document as Ajv reads it: a discriminator's `mapping` (there for the generated types, which
 * narrow by its names) is dropped, since Ajv finds each branch by the const of its tag without it.
 */
function withoutMappings<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withoutMappings);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'discriminator' && v && typeof v === 'object') delete (v as { mapping?: unknown }).mapping;
      else withoutMappings(v);
    }
  }
  return node;
}
