/**
 * A change crossed with a suite's footprint: whether it breaks this team (`breaks-you`), may break
 * it (`may-break-you`), or touches nothing the suite used (`not-used`), and why: the calls, fields
 * and values that tie it to the suite. Without a footprint every change is the team's.
 */
import type { components } from '../generated/sim.js';
import type { Change } from './change.js';

export type Footprint = components['schemas']['footprint'];
export type Report = components['schemas']['contract_diff'];
export type Crossed = Report['changes'][number];
export type Verdict = Crossed['verdict'];
export type FailOn = Report['fail_on'];

type Op = Footprint['operations'][number];

/** Whether a field the contract names (`*` a map's entry) is `seen`, or holds a field of it. */
function holds(field: string, seen: readonly string[]): boolean {
  if (field === '') return seen.length > 0;
  const re = new RegExp(
    `^${field
      .split('*')
      .map((s) => s.replace(/[.[\]()+?^$|{}\\]/g, '\\$&'))
      .join('[^.]+')}(\\.|\\[\\]|$)`,
  );
  return seen.some((p) => re.test(p));
}

const calls = (op: Op) => `${op.operation_id} called ${op.calls} time${op.calls === 1 ? '' : 's'}`;

/** How far a change touches an operation the suite called: wholly, partly (some calls may), or not. */
function touchOperation(c: Change, op: Op): { touch: 'yes' | 'partly' | 'no'; why: string } {
  const f = c.field ?? '';
  const id = c.id;
  if (c.place === 'operation' || c.place === 'security') return { touch: 'yes', why: calls(op) };
  if (c.place === 'parameter') {
    const [where, name] = (c.parameter ?? ' ').split(' ') as [string, string];
    if (where === 'path') return { touch: 'yes', why: calls(op) };
    if (where !== 'query')
      return { touch: 'yes', why: `${calls(op)} (the ${where} parameters sent are not in the footprint)` };
    const sent = op.query_parameters.includes(name);
    if (id === 'new-required-request-parameter' || id === 'request-parameter-became-required')
      return sent
        ? { touch: 'partly', why: `${calls(op)}; query ${name} sent by some of them` }
        : { touch: 'yes', why: `${calls(op)}, none with query ${name}` };
    if (id.endsWith('enum-value-removed')) return valuesTouch(c, op, `query.${name}`, `query ${name}`);
    if (BOUND_TIGHTENED.test(id) && op.values[`query.${name}`])
      return boundTouch(c, op, `query.${name}`, `query ${name}`);
    return sent
      ? { touch: 'yes', why: `${calls(op)} with query ${name}` }
      : { touch: 'no', why: `query ${name} never sent` };
  }
  if (c.place === 'request') {
    if (id === 'request-body-became-required' || id === 'request-body-added-required')
      return op.request_fields.length
        ? { touch: 'partly', why: `${calls(op)}, some with a body` }
        : { touch: 'yes', why: `${calls(op)}, none with a body` };
    if (id === 'request-body-media-type-removed')
      return { touch: 'yes', why: `${calls(op)} (the media type sent is not in the footprint)` };
    const sent = holds(f, op.request_fields);
    if (id.startsWith('new-required') || id.endsWith('became-required'))
      return sent
        ? { touch: 'partly', why: `${calls(op)}; \`${f}\` sent by some of them` }
        : { touch: 'yes', why: `${calls(op)}, none sending \`${f}\`` };
    if (id.endsWith('enum-value-removed')) return valuesTouch(c, op, f, `\`${f}\``);
    if (BOUND_TIGHTENED.test(id) && op.values[f]) return boundTouch(c, op, f, `\`${f}\``);
    return sent ? { touch: 'yes', why: `${calls(op)} sending \`${f}\`` } : { touch: 'no', why: `\`${f}\` never sent` };
  }
  // a response
  const status = c.status ?? '';
  const met = op.statuses.includes(status);
  if (!c.field && c.field !== '')
    return met
      ? { touch: 'yes', why: `${calls(op)}, answered ${status}` }
      : { touch: 'no', why: `${op.operation_id} never answered ${status}` };
  const received = op.response_fields[status] ?? [];
  if (holds(f, received)) return { touch: 'yes', why: `${calls(op)}; \`${f}\` received with ${status}` };
  return {
    touch: 'no',
    why: met ? `\`${f}\` never received with ${status}` : `${op.operation_id} never answered ${status}`,
  };
}

/** A numeric bound tightened: a maximum lowered, a minimum raised. */
const BOUND_TIGHTENED = /-(max-decreased|min-increased)$/;

/** A numeric bound tightened touches the suite only if it sent a value past the new bound. */
function boundTouch(c: Change, op: Op, key: string, name: string): { touch: 'yes' | 'no'; why: string } {
  const sent = op.values[key] ?? [];
  const bound = c.bound ?? NaN;
  const past = sent.filter((v) => (c.id.endsWith('max-decreased') ? Number(v) > bound : Number(v) < bound));
  if (past.length) return { touch: 'yes', why: `${calls(op)}; sent ${name} = ${past.join(', ')}` };
  return { touch: 'no', why: `sent ${name} only as ${sent.join(', ')}, within ${bound}` };
}

/** An enumeration narrowed touches the suite only if it sent a value taken away. */
function valuesTouch(c: Change, op: Op, key: string, name: string): { touch: 'yes' | 'no'; why: string } {
  const sent = op.values[key] ?? [];
  const hit = (c.values ?? []).filter((v) => sent.includes(v));
  if (hit.length) return { touch: 'yes', why: `${calls(op)}; sent ${name} = ${hit.join(', ')}` };
  return { touch: 'no', why: sent.length ? `sent ${name} only as ${sent.join(', ')}` : `${name} never sent` };
}

function touch(c: Change, fp: Footprint): { touch: 'yes' | 'partly' | 'no'; why: string } {
  if (c.operation.kind === 'webhook') {
    const w = fp.webhooks.find((x) => x.webhook === c.operation.path);
    if (!w) return { touch: 'no', why: `webhook ${c.operation.path} never received` };
    const got = `webhook ${w.webhook} received ${w.delivered} time${w.delivered === 1 ? '' : 's'}`;
    if (c.place !== 'payload' || c.field === undefined) return { touch: 'yes', why: got };
    if (!w.fields.length) return { touch: 'yes', why: `${got} (its payload's fields are not in the footprint)` };
    return holds(c.field, w.fields)
      ? { touch: 'yes', why: `${got}, with \`${c.field}\`` }
      : { touch: 'no', why: `\`${c.field}\` never received` };
  }
  const op = fp.operations.find((o) => o.method === c.operation.method && o.path === c.operation.path);
  if (!op) return { touch: 'no', why: `${c.operation.operation_id ?? c.operation.key} never called` };
  return touchOperation(c, op);
}

/** Each change with what it means for the suite `fp` is of (every change is the team's without one). */
export function cross(changes: readonly Change[], fp: Footprint | undefined): Crossed[] {
  return changes.map((c) => {
    if (c.level === 'safe') return { ...c, verdict: 'safe', why: '' };
    if (!fp)
      return {
        ...c,
        verdict: c.level === 'breaking' ? 'breaks-you' : 'may-break-you',
        why: 'no footprint given: every change is yours',
      };
    const t = touch(c, fp);
    const verdict: Verdict =
      t.touch === 'no' ? 'not-used' : t.touch === 'yes' && c.level === 'breaking' ? 'breaks-you' : 'may-break-you';
    return { ...c, verdict, why: t.why };
  });
}

/** Whether a verdict meets the level that fails the run. */
export function fails(v: Verdict, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  return v === 'breaks-you' || (failOn === 'may-break' && v === 'may-break-you');
}
