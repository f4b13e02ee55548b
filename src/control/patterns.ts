/**
 * The one check of every pattern the control API takes (src/domain/matching.ts): fault rules,
 * verify of calls and deliveries, the journal's filters and coverage queries. A pattern that could
 * match nothing, or matches everything without saying so, is refused at its field.
 */
import type { Read } from '../handling/handler.js';
import { loadContract } from '../contract.js';
import { DomainError, type ErrorInit } from '../domain/errors.js';
import { callMatchProblems, emptinessProblems, type MatchProblem, type RoutedOperation } from '../domain/matching.js';
import type { ControlPort } from '../handling/control_port.js';

const routed = new Map<'v1' | 'sim', RoutedOperation[]>();

/** The operations of an API a pattern can name: the simulated one (`v1`) or the control API (`sim`). */
export function operationsOf(api: 'v1' | 'sim'): RoutedOperation[] {
  let ops = routed.get(api);
  if (!ops) {
    const contract = api === 'v1' ? loadContract() : loadContract('sim');
    ops = [...contract.operations.values()].map(({ operationId, method, path }) => ({ operationId, method, path }));
    routed.set(api, ops);
  }
  return ops;
}

/** Where a pattern's fields were given: under a body pointer (`/match`), or as query parameters. */
export type PatternAt = { pointer: string } | 'query';

const sourceOf = (at: PatternAt, field: string): ErrorInit['source'] =>
  at === 'query' ? { parameter: field } : { pointer: field ? `${at.pointer}/${field}` : at.pointer };

/** Throws one `invalid_parameter` with an entry per problem, at its field. */
export function refuse(problems: readonly MatchProblem[], at: PatternAt): void {
  if (problems.length)
    throw new DomainError(
      'invalid_parameter',
      problems.map((p) => ({ detail: p.detail, source: sourceOf(at, p.field) })),
    );
}

/** The journal's APIs whose calls are routed by a contract (SMPP PDUs and clock steps are not). */
const routedApi = (api: string | undefined): 'v1' | 'sim' | undefined =>
  api === undefined || api === 'v1' ? 'v1' : api === 'sim' ? 'sim' : undefined;

/**
 * Checks a pattern of calls of `api`: not empty (unless `allowEmpty`, a journal page's filter),
 * each of its operation, path and method able to match a call of that API, and the account it
 * names one that exists or existed (a removed sandbox's calls are still counted).
 */
export async function checkCallPattern(
  port: ControlPort,
  read: Read,
  match: Record<string, unknown> & { method?: string; path?: string; operation_id?: string; account_id?: string },
  api: string | undefined,
  at: PatternAt,
  allowEmpty = false,
): Promise<void> {
  if (!allowEmpty) refuse(emptinessProblems(match), at);
  const of = routedApi(api);
  if (of) refuse(callMatchProblems(match, operationsOf(of), of === 'v1' ? '/api/v1' : '/__sim'), at);
  if (match.account_id !== undefined) await checkAccount(port, read, match.account_id, at);
}

/** Checks a pattern of deliveries: not empty, and the account it names one that exists or existed. */
export async function checkDeliveryPattern(
  port: ControlPort,
  read: Read,
  match: Record<string, unknown> & { account_id?: string },
  at: PatternAt,
): Promise<void> {
  refuse(emptinessProblems(match), at);
  if (match.account_id !== undefined) await checkAccount(port, read, match.account_id, at);
}

/** An account a pattern names must be one whose records could be there: live, or removed with its coverage kept. */
export async function checkAccount(port: ControlPort, read: Read, id: string, at: PatternAt): Promise<void> {
  if (await read((w) => w.accounts.get(id))) return;
  if (await port.coverage.knows({ account_id: id })) return;
  refuse([{ field: 'account_id', detail: `No account has the id ${id}, nor had it.` }], at);
}
