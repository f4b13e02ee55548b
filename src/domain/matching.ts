/**
 * The one match grammar of the harness and its one check. Fault rules, `verify` of calls and of
 * deliveries, `waitFor`, the journal's filters and coverage queries name calls and deliveries the
 * same way, and each pattern is checked the same way before it is used: a field that could match
 * nothing (an operation the contract does not have, a path no route takes, a method no route
 * there takes) is refused with the name that was probably meant, and an empty pattern is refused,
 * so that no verdict passes because its pattern matched nothing, or everything, by accident.
 * Matching everything is said explicitly: `{"any": true}`.
 */

/** An operation of an API, as a pattern can name it. */
export interface RoutedOperation {
  operationId: string;
  method: string;
  /** Its path template (`/api/v1/carts/{id}/checkout`). */
  path: string;
}

/** The fields of a pattern of calls. */
export interface CallMatch {
  any?: boolean;
  method?: string;
  /** A template of the contract (`/api/v1/carts/{id}`) or a literal path. */
  path?: string;
  operation_id?: string;
  account_id?: string;
}

/** A field of a pattern that could match nothing, and why. */
export interface MatchProblem {
  /** The field, as the pattern names it (`operation_id`). */
  field: string;
  detail: string;
}

/** Edit distance, for "did you mean". */
function distance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++)
      next[j] = Math.min(
        (prev[j] ?? 0) + 1,
        (next[j - 1] ?? 0) + 1,
        (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    prev = next;
  }
  return prev[b.length] ?? 0;
}

/** The names nearest `asked` (case ignored), at most three, nearest first. */
export function nearest(asked: string, names: readonly string[]): string[] {
  const a = asked.toLowerCase();
  return names
    .map((name) => ({ name, d: distance(a, name.toLowerCase()) }))
    .filter(({ d }) => d <= Math.max(3, Math.floor(a.length / 3)))
    .sort((x, y) => x.d - y.d || x.name.localeCompare(y.name))
    .slice(0, 3)
    .map(({ name }) => name);
}

/** ` Did you mean `a`, `b`?`, or nothing when no name is near. */
export const didYouMean = (asked: string, names: readonly string[]): string => {
  const near = nearest(asked, names);
  return near.length ? ` Did you mean ${near.map((n) => `\`${n}\``).join(', ')}?` : '';
};

/** A template as a pattern of the literal paths it routes (a trailing slash allowed, as the router does). */
export const templatePattern = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('')}/?$`,
  );

/**
 * Whether a call's path is the one a pattern names: a template names every path it routes (and
 * the call's own template, when the caller knows it), a literal path itself.
 */
export function pathHolds(pattern: string, path: string, template?: string): boolean {
  if (pattern === path || pattern === template) return true;
  return /[{}]/.test(pattern) && templatePattern(pattern).test(path);
}

/** Whether a call holds a pattern's method, path, operation and account (`any` holds every call). */
export function callHolds(
  match: CallMatch,
  call: { method: string; path: string; template?: string; operationId?: string | null; accountId?: string | null },
): boolean {
  return (
    (!match.method || match.method.toUpperCase() === call.method) &&
    (!match.path || pathHolds(match.path, call.path, call.template)) &&
    (!match.operation_id || match.operation_id === call.operationId) &&
    (!match.account_id || match.account_id === call.accountId)
  );
}

/** The operations whose route a pattern's `path` names: the template itself, or the routes its literal path takes. */
function routedBy(path: string, operations: readonly RoutedOperation[]): RoutedOperation[] {
  const byTemplate = operations.filter((o) => o.path === path);
  if (byTemplate.length) return byTemplate;
  // a path with a parameter that is not a template of the contract is matched by no call: a
  // request's path never holds a brace
  if (/[{}]/.test(path)) return [];
  return operations.filter((o) => templatePattern(o.path).test(path));
}

/**
 * The problems that keep a pattern from ever matching a call of the API whose operations are
 * given: an unknown operation, a path no route matches, a method no matching route takes, or
 * fields that name different routes. `api` names the API in the details (`/api/v1`).
 */
export function callMatchProblems(
  match: CallMatch,
  operations: readonly RoutedOperation[],
  api = '/api/v1',
): MatchProblem[] {
  let candidates = [...operations];
  if (match.operation_id !== undefined) {
    const op = operations.find((o) => o.operationId === match.operation_id);
    if (!op) {
      const ids = operations.map((o) => o.operationId);
      return [
        {
          field: 'operation_id',
          detail: `No operation of ${api} is called ${match.operation_id}.${didYouMean(match.operation_id, ids)}`,
        },
      ];
    }
    candidates = [op];
  }
  if (match.path !== undefined) {
    const routed = routedBy(match.path, operations);
    if (!routed.length) {
      const templates = [...new Set(operations.map((o) => o.path))];
      return [
        {
          field: 'path',
          detail: `No route of ${api} matches ${match.path} (a template of the contract, or a literal path under ${api}).${didYouMean(match.path, templates)}`,
        },
      ];
    }
    const both = candidates.filter((c) => routed.includes(c));
    if (!both.length)
      return [
        {
          field: 'path',
          detail: `${match.operation_id} is ${candidates[0]?.method} ${candidates[0]?.path}, which ${match.path} does not route to.`,
        },
      ];
    candidates = both;
  }
  if (match.method !== undefined) {
    const method = match.method.toUpperCase();
    const taking = candidates.filter((c) => c.method === method);
    if (!taking.length) {
      const methods = [...new Set(candidates.map((c) => c.method))].sort();
      const where = match.operation_id ?? match.path;
      return [
        {
          field: 'method',
          detail: where
            ? `${where} is not called with ${method}; it takes ${methods.join(', ')}.`
            : `No operation of ${api} is called with ${method}.${didYouMean(method, [...new Set(operations.map((o) => o.method))])}`,
        },
      ];
    }
  }
  return [];
}

/**
 * An empty pattern matches every record, so a verdict on it says nothing of what the test meant:
 * it is refused, and matching everything is said with `any: true`, alone. `fields` are the
 * pattern's own fields as given by the caller.
 */
export function emptinessProblems(match: Record<string, unknown>): MatchProblem[] {
  const given = Object.keys(match).filter((k) => match[k] !== undefined && k !== 'any');
  if (match.any === true)
    return given.length
      ? [
          {
            field: 'any',
            detail: `any: true matches everything; give it alone, or drop it and match on ${given.join(', ')}.`,
          },
        ]
      : [];
  if (match.any === false)
    return [{ field: 'any', detail: 'any is true or absent: to match everything, say any: true.' }];
  if (!given.length)
    return [
      {
        field: '',
        detail:
          'An empty match matches everything by accident: name what to match, or say {"any": true} to match everything.',
      },
    ];
  return [];
}
