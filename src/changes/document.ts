/**
 * Reading a contract for a diff: a file or an http(s) URL, YAML or JSON, with the files its `$ref`s
 * name read too (relative to the document that names them). Bounded: each document at most
 * `maxBytes`, a URL answered within `timeoutMs`, at most MAX_DOCUMENTS documents. Whatever is wrong
 * is a `ContractError`: one line, the CLI's exit 2.
 */
import { readFile, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parse } from 'yaml';
import { ShapeReader, type Json, type Shape } from './shape.js';

/** The most documents one contract may span (itself and the files its `$ref`s name). */
export const MAX_DOCUMENTS = 50;

export interface ReadBounds {
  /** The largest document read, in bytes. */
  maxBytes: number;
  /** How long a URL has to answer in full. */
  timeoutMs: number;
}

export const DEFAULT_BOUNDS: ReadBounds = { maxBytes: 20 * 1024 * 1024, timeoutMs: 10_000 };

export class ContractError extends Error {}

const isUrl = (s: string) => /^https?:\/\//i.test(s);

/** The text at `where` (a file or a URL), refused past the bounds. */
export async function readText(where: string, bounds: ReadBounds): Promise<string> {
  if (isUrl(where)) {
    let res: Response;
    const signal = AbortSignal.timeout(bounds.timeoutMs);
    try {
      res = await fetch(where, { signal, headers: { accept: 'application/json, application/yaml;q=0.9, */*;q=0.1' } });
    } catch (e) {
      const timedOut = (e as Error).name === 'TimeoutError' || signal.aborted;
      throw new ContractError(
        timedOut
          ? `${where}: no answer within ${bounds.timeoutMs} ms`
          : `${where}: ${(e as Error & { cause?: Error }).cause?.message ?? (e as Error).message}`,
      );
    }
    if (!res.ok) throw new ContractError(`${where}: answered ${res.status}`);
    const declared = Number(res.headers.get('content-length') ?? NaN);
    if (declared > bounds.maxBytes)
      throw new ContractError(`${where}: ${declared} bytes, over the bound of ${bounds.maxBytes}`);
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body ?? []) {
        size += (chunk as Uint8Array).length;
        if (size > bounds.maxBytes) {
          await res.body?.cancel();
          throw new ContractError(`${where}: over the bound of ${bounds.maxBytes} bytes`);
        }
        chunks.push(Buffer.from(chunk as Uint8Array));
      }
    } catch (e) {
      if (e instanceof ContractError) throw e;
      throw new ContractError(`${where}: no answer within ${bounds.timeoutMs} ms`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
  let size: number;
  try {
    size = (await stat(where)).size;
  } catch (e) {
    throw new ContractError(
      `${where}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`,
    );
  }
  if (size > bounds.maxBytes) throw new ContractError(`${where}: ${size} bytes, over the bound of ${bounds.maxBytes}`);
  return readFile(where, 'utf8');
}

/** YAML or JSON text as a value (JSON is YAML). */
export function parseDocument(text: string, where: string): Json {
  try {
    return parse(text, { maxAliasCount: 1000 }) as Json;
  } catch (e) {
    throw new ContractError(`${where}: neither JSON nor YAML (${(e as Error).message.split('\n')[0]})`);
  }
}

/** Where a `$ref`'s document is, from the document that names it. */
function resolveDoc(ref: string, from: string): string {
  const file = ref.split('#')[0] ?? '';
  if (!file) return from;
  if (isUrl(file)) return file;
  return isUrl(from) ? new URL(file, from).href : resolve(dirname(from), file);
}

/** The value a JSON pointer names in `doc`. */
function pointer(doc: Json, fragment: string, ref: string): Json {
  let at: Json = doc;
  for (const raw of fragment.split('/').slice(1)) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (at === null || typeof at !== 'object' || !(key in at)) throw new ContractError(`$ref ${ref}: names nothing`);
    at = (at as Record<string, Json>)[key] ?? null;
  }
  return at;
}

/** Every `$ref` in a value. */
function refsIn(v: Json, out: string[] = []): string[] {
  if (Array.isArray(v)) for (const x of v) refsIn(x, out);
  else if (v !== null && typeof v === 'object')
    for (const [k, x] of Object.entries(v)) {
      if (k === '$ref' && typeof x === 'string') out.push(x);
      else refsIn(x, out);
    }
  return out;
}

/** A contract read and checked: its shape, and the document itself. */
export interface Contract {
  source: string;
  document: Json;
  shape: Shape;
}

/** Whether a value looks like an OpenAPI 3 document. */
function checkOpenApi(doc: Json, where: string): void {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc))
    throw new ContractError(`${where}: not an OpenAPI document (not an object)`);
  const version = (doc as Record<string, Json>).openapi;
  if (typeof version !== 'string' || !/^3\.\d+/.test(version))
    throw new ContractError(`${where}: not an OpenAPI 3 document (no "openapi: 3.x")`);
  const d = doc as Record<string, Json>;
  if (d.paths === undefined && d.webhooks === undefined)
    throw new ContractError(`${where}: has neither paths nor webhooks`);
}

/** Reads the contract at `where` with every document its `$ref`s name. */
export async function readContract(where: string, bounds: ReadBounds = DEFAULT_BOUNDS): Promise<Contract> {
  // read from its whole path; named in reports as given (a GitHub annotation's file is the repository's path)
  const source = isUrl(where) ? where : resolve(where);
  const docs = new Map<string, Json>();
  const load = async (at: string, text?: string) => {
    if (docs.has(at)) return;
    if (docs.size >= MAX_DOCUMENTS)
      throw new ContractError(`${where}: its $refs name more than ${MAX_DOCUMENTS} documents`);
    const doc = parseDocument(text ?? (await readText(at, bounds)), at);
    docs.set(at, doc);
    for (const ref of refsIn(doc)) await load(resolveDoc(ref, at));
  };
  await load(source);
  const document = docs.get(source) ?? null;
  checkOpenApi(document, where);
  const reader = new ShapeReader((ref, from) => {
    const doc = resolveDoc(ref, from);
    return { node: pointer(docs.get(doc) ?? null, ref.includes('#') ? ref.slice(ref.indexOf('#') + 1) : '', ref), doc };
  });
  try {
    return { source: where, document, shape: reader.shape(document, source) };
  } catch (e) {
    if (e instanceof ContractError) throw e;
    throw new ContractError(`${where}: ${(e as Error).message}`);
  }
}

/** The shape of a document already in hand (the contract dipswitch serves), read from `name`'s folder. */
export function shapeOf(document: Json, name: string): Shape {
  const reader = new ShapeReader((ref, from) => {
    if (!ref.startsWith('#')) throw new ContractError(`$ref ${ref}: only references within the document are read here`);
    return { node: pointer(document, ref.slice(1), ref), doc: from };
  });
  return reader.shape(document, name);
}
