/**
 * Whether a fault rule can ever fire (interface.md section 7): a rule whose match names an
 * operation the contract does not have, a path no route of the API could match, a method no route
 * there takes, or a target that is not a URL would sit at `fired: 0` while a test of "503, then
 * recovery" passes without the 503. Each such rule is refused with the field at fault and, where
 * one is near, the name that was probably meant.
 */

import type { components } from '../generated/sim.js';
import { callMatchProblems, emptinessProblems, type RoutedOperation } from './matching.js';

export type { RoutedOperation } from './matching.js';

/** A rule's match and effect as the control API's contract types them (contract/sim.yaml). */
export type RuleMatch = components['schemas']['fault_match'];
export type RuleEffect = components['schemas']['fault_effect'];

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

const INBOUND_FIELDS = ['any', 'method', 'path', 'operation_id'] as const;

/** The kind of a rule by its match: a `url` is a delivery's, an `smpp` point a PDU's, anything else a call's. */
export const ruleKind = (match: RuleMatch): RuleKind =>
  match.url !== undefined ? 'outbound' : match.smpp !== undefined ? 'smpp' : 'inbound';

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
  const problems: RuleProblem[] = emptinessProblems({ ...match }).map((p) => ({
    pointer: p.field ? `/match/${p.field}` : '/match',
    detail: p.detail,
  }));
  if (problems.length) return problems;
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
    problems.push(
      ...callMatchProblems(match, operations).map((p) => ({ pointer: `/match/${p.field}`, detail: p.detail })),
    );
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
