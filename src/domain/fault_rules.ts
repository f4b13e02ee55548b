/**
 * Whether a fault rule can ever fire (interface.md section 7): a rule whose match names an
 * operation the contract does not have, a path no route of the API could match, a method no route
 * there takes, or a target that is not a URL would sit at `fired: 0` while a test of "503, then
 * recovery" passes without the 503. Each such rule is refused with the field at fault and, where
 * one is near, the name that was probably meant.
 */

/** An operation of the simulated API, as a rule can name it. */
export interface RoutedOperation {
  operationId: string;
  method: string;
  /** Its path template (`/api/v1/carts/{id}/checkout`). */
  path: string;
}

export interface RuleMatch {
  method?: string;
  path?: string;
  operation_id?: string;
  url?: string;
  smpp?: string;
  system_id?: string;
}

export interface RuleEffect {
  status?: number;
  body?: unknown;
  delay_ms?: number;
  drop?: boolean;
  malformed?: boolean;
  fail?: boolean;
  duplicate?: boolean;
  reorder?: boolean;
  smpp_status?: number;
}

export interface RuleProblem {
  pointer: string;
  detail: string;
}

/** What a rule acts on: API calls, deliveries (a target URL), or SMPP PDUs. */
export type RuleKind = 'inbound' | 'outbound' | 'smpp';

/** The effects each kind of rule acts on (faults.ts applies them). */
const EFFECTS: Record<RuleKind, readonly (keyof RuleEffect)[]> = {
  inbound: ['status', 'body', 'delay_ms', 'drop', 'malformed'],
  outbound: ['fail', 'duplicate', 'reorder'],
  smpp: ['delay_ms', 'drop', 'smpp_status'],
};

const INBOUND_FIELDS = ['method', 'path', 'operation_id'] as const;

/** The kind of a rule by its match: a `url` is a delivery's, an `smpp` point a PDU's, anything else a call's. */
export const ruleKind = (match: RuleMatch): RuleKind =>
  match.url !== undefined ? 'outbound' : match.smpp !== undefined ? 'smpp' : 'inbound';

/** A template as a pattern of the literal paths it routes (a trailing slash allowed, as the router does). */
const patternOf = (template: string): RegExp =>
  new RegExp(
    `^${template
      .split(/(\{\w+\})/)
      .map((part) => (/^\{\w+\}$/.test(part) ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
      .join('')}/?$`,
  );

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

const didYouMean = (names: string[]): string =>
  names.length ? ` Did you mean ${names.map((n) => `\`${n}\``).join(', ')}?` : '';

/** The operations whose route a rule's `path` names: the template itself, or the routes its literal path takes. */
function routedBy(path: string, operations: readonly RoutedOperation[]): RoutedOperation[] {
  const byTemplate = operations.filter((o) => o.path === path);
  if (byTemplate.length) return byTemplate;
  // a path with a parameter that is not a template of the contract is matched by no call: a
  // request's path never holds a brace
  if (/[{}]/.test(path)) return [];
  return operations.filter((o) => patternOf(o.path).test(path));
}

/**
 * The problems that keep an inbound rule from ever matching a call of the API: an unknown
 * operation, a path no route matches, a method no matching route takes, or fields that name
 * different routes.
 */
function inboundProblems(match: RuleMatch, operations: readonly RoutedOperation[]): RuleProblem[] {
  let candidates = [...operations];
  if (match.operation_id !== undefined) {
    const op = operations.find((o) => o.operationId === match.operation_id);
    if (!op) {
      const ids = operations.map((o) => o.operationId);
      return [
        {
          pointer: '/match/operation_id',
          detail: `No operation of the API is called ${match.operation_id}.${didYouMean(nearest(match.operation_id, ids))}`,
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
          pointer: '/match/path',
          detail: `No route of the API matches ${match.path} (a template of the contract, or a literal path under /api/v1).${didYouMean(nearest(match.path, templates))}`,
        },
      ];
    }
    const both = candidates.filter((c) => routed.includes(c));
    if (!both.length)
      return [
        {
          pointer: '/match/path',
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
          pointer: '/match/method',
          detail: where
            ? `${where} is not called with ${method}; it takes ${methods.join(', ')}.`
            : `No operation of the API is called with ${method}.`,
        },
      ];
    }
  }
  return [];
}

/**
 * Every reason the rule could never fire, each at its field: inbound rules against the API's
 * routes, outbound rules' target as a URL, and effects the rule's kind does not apply.
 */
export function ruleProblems(
  match: RuleMatch,
  effect: RuleEffect,
  operations: readonly RoutedOperation[],
): RuleProblem[] {
  const kind = ruleKind(match);
  const problems: RuleProblem[] = [];
  const misplaced = (fields: readonly (keyof RuleMatch)[], why: string) => {
    for (const f of fields) if (match[f] !== undefined) problems.push({ pointer: `/match/${f}`, detail: why });
  };
  if (kind === 'outbound') {
    if (!URL.canParse(match.url ?? ''))
      problems.push({
        pointer: '/match/url',
        detail: `${match.url} is not a URL: a delivery's target is one (http://127.0.0.1:4011/sms, smpp://SYSTEM_ID, sftp://host/path).`,
      });
    misplaced([...INBOUND_FIELDS, 'smpp', 'system_id'], 'An outbound rule (match.url) matches deliveries only.');
  } else if (kind === 'smpp') {
    misplaced(INBOUND_FIELDS, 'An SMPP rule (match.smpp) matches SMPP PDUs only.');
  } else {
    misplaced(['system_id'], 'system_id narrows an SMPP rule: give match.smpp with it.');
    problems.push(...inboundProblems(match, operations));
  }
  const applies = EFFECTS[kind];
  const given = (Object.keys(effect) as (keyof RuleEffect)[]).filter((k) => effect[k] !== undefined);
  for (const k of given)
    if (!applies.includes(k))
      problems.push({
        pointer: `/effect/${k}`,
        detail: `${k} does nothing to ${kind === 'inbound' ? 'an API call' : kind === 'outbound' ? 'a delivery' : 'an SMPP PDU'}; a rule of this kind takes ${applies.join(', ')}.`,
      });
  if (kind === 'inbound' && effect.body !== undefined && effect.status === undefined)
    problems.push({ pointer: '/effect/body', detail: 'A body is answered with a status: give effect.status too.' });
  const acting = given.filter((k) => applies.includes(k) && k !== 'body' && effect[k] !== false);
  if (!problems.length && !acting.length)
    problems.push({
      pointer: '/effect',
      detail: `The effect does nothing; a rule of this kind takes ${applies.join(', ')}.`,
    });
  return problems;
}
