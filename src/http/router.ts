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

/** One matcher for the operations of every contract given, each with its backend. */
export function compileRoutes(...sources: [Contract<string>, OpenAPIBackend][]): Matcher {
  const routes: Compiled[] = [];
  for (const [contract, api] of sources) routes.push(...compile(contract, api));
  // more literal text first, so a fixed segment wins over a parameter in the same place
  routes.sort((a, b) => b.meta.path.replace(/\{\w+\}/g, '').length - a.meta.path.replace(/\{\w+\}/g, '').length);
  return (method, path) => {
    let allow: string[] | undefined;
    for (const r of routes) {
      const m = r.pattern.exec(path);
      if (!m) continue;
      if (r.method !== method) {
        (allow ??= []).push(r.method);
        continue;
      }
      const params: Record<string, string> = {};
      r.names.forEach((name, i) => {
        try {
          params[name] = decodeURIComponent(m[i + 1] ?? '');
        } catch {
          throw invalidParameter(name, `${name} is not a valid path segment.`);
        }
      });
      return { meta: r.meta, operation: r.operation, api: r.api, params };
    }
    return allow ? { allow: [...new Set(allow)].sort() } : undefined;
  };
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
