/**
 * Routing a request to its operation, compiled once from the contract: a pattern per path
 * template, literal routes before parametrised ones. openapi-backend's own router rebuilds its
 * patterns on every request, which showed as the largest cost in the profile (BENCHMARKS.md).
 */
import type { OpenAPIBackend, Operation } from 'openapi-backend';
import type { Contract, OperationMeta } from '../contract.js';
import { invalidParameter } from '../domain/errors.js';

export interface Route {
  meta: OperationMeta<string>;
  operation: Operation;
  /** The backend whose validators are the operation's. */
  api: OpenAPIBackend;
  params: Record<string, string>;
}

/** A path the contract has, asked with a method it does not have: the methods it has. */
export interface WrongMethod {
  allow: string[];
}

interface Compiled {
  method: string;
  pattern: RegExp;
  names: string[];
  meta: OperationMeta<string>;
  operation: Operation;
  api: OpenAPIBackend;
}

export type Matcher = (method: string, path: string) => Route | WrongMethod | undefined;

/** How many segments a path has (a trailing slash, which every route allows, not counted). */
function segments(path: string): number {
  let n = 0;
  for (let i = 0; i < path.length - 1; i++) if (path.charCodeAt(i) === 47) n++;
  return n;
}

/**
 * One matcher for the operations of every contract given, each with its backend. Routes are kept by
 * method and by their number of segments, so a request tries only the few that could match it.
 */
export function compileRoutes(...sources: [Contract<string>, OpenAPIBackend][]): Matcher {
  const routes: Compiled[] = [];
  for (const [contract, api] of sources) routes.push(...compile(contract, api));
  // more literal text first, so a fixed segment wins over a parameter in the same place
  routes.sort((a, b) => b.meta.path.replace(/\{\w+\}/g, '').length - a.meta.path.replace(/\{\w+\}/g, '').length);
  const byShape = new Map<string, Compiled[]>();
  for (const r of routes) {
    const shape = `${r.method} ${segments(r.meta.path)}`;
    const same = byShape.get(shape);
    if (same) same.push(r);
    else byShape.set(shape, [r]);
  }
  const methods = [...new Set(routes.map((r) => r.method))];
  return (method, path) => {
    const n = segments(path);
    for (const r of byShape.get(`${method} ${n}`) ?? []) {
      const m = r.pattern.exec(path);
      if (m) return { meta: r.meta, operation: r.operation, api: r.api, params: paramsOf(r, m) };
    }
    // the path under another method: 405 with the methods it has
    const allow = methods.filter(
      (other) => other !== method && byShape.get(`${other} ${n}`)?.some((r) => r.pattern.test(path)),
    );
    return allow.length ? { allow: allow.sort() } : undefined;
  };
}

/** The path parameters of a match, decoded. */
function paramsOf(r: Compiled, m: RegExpExecArray): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < r.names.length; i++) {
    const name = r.names[i] as string;
    try {
      params[name] = decodeURIComponent(m[i + 1] ?? '');
    } catch {
      // decodeURIComponent's URIError: a broken percent-encoding
      throw invalidParameter(name, `${name} is not a valid path segment.`);
    }
  }
  return params;
}

function compile(contract: Contract<string>, api: OpenAPIBackend): Compiled[] {
  const routes: Compiled[] = [];
  // openapi-backend's getOperation lists every operation at each call: looked up in one list instead
  const operations = new Map(api.router.getOperations().map((o) => [o.operationId, o]));
  for (const meta of contract.operations.values()) {
    const names: string[] = [];
    const source = meta.path
      .split(/(\{\w+\})/)
      .map((part) => {
        const m = /^\{(\w+)\}$/.exec(part);
        if (m?.[1]) {
          names.push(m[1]);
          return '([^/]+)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    const operation = operations.get(meta.operationId);
    if (!operation) throw new Error(`openapi-backend has no operation ${meta.operationId}`);
    routes.push({ method: meta.method, pattern: new RegExp(`^${source}/?$`), names, meta, operation, api });
  }
  return routes;
}
