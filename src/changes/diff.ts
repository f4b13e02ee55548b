/**
 * The changes between two contracts, each classified as the field does (oasdiff's checks are the
 * reference, and a change carries the id of the oasdiff check it matches): `breaking` (oasdiff's
 * ERR: a client that worked stops working), `may-break` (WARN: it can, depending on the client) or
 * `safe` (INFO). Requests are read from the client's side: what it sends may only be loosened. A
 * response and a webhook's payload are what it receives: what it reads may only be kept or tightened.
 * docs/contract-changes.md lists the rules and says which are dipswitch's own.
 */
import type { Change, Place } from './change.js';
import { bodyChanges, type Emit, type Way } from './fields.js';
import type { Fields, Operation, Shape } from './shape.js';

/** The operation's own changes: deprecated, renamed, its security. */
function ownChanges(emit: Emit, base: Operation, next: Operation, baseShape: Shape, nextShape: Shape): void {
  if (!base.deprecated && next.deprecated)
    emit({ id: 'endpoint-deprecated', level: 'safe', place: 'operation', text: 'deprecated' });
  if (base.operationId !== next.operationId && base.operationId && next.operationId)
    emit({
      id: 'api-operation-id-updated',
      level: 'may-break',
      place: 'operation',
      text: `operationId changed from ${base.operationId} to ${next.operationId} (a generated client's method is renamed)`,
    });
  // security: a way to authenticate removed, or one required where none was
  for (const s of base.security)
    if (!next.security.includes(s))
      emit({
        id: 'api-security-removed',
        level: 'breaking',
        place: 'security',
        text: s ? `security ${s} no longer accepted` : 'now needs authentication',
      });
  for (const s of next.security)
    if (!base.security.includes(s))
      emit({
        id: 'api-security-added',
        level: base.security.length && !base.security.includes('') ? 'safe' : 'breaking',
        place: 'security',
        text: `security ${s || 'none'} now accepted`,
      });
  for (const s of next.security.flatMap((x) => x.split('+')).filter(Boolean))
    if (baseShape.schemes.has(s) && nextShape.schemes.has(s) && baseShape.schemes.get(s) !== nextShape.schemes.get(s))
      emit({
        id: 'api-security-scheme-changed',
        level: 'breaking',
        place: 'security',
        text: `security scheme ${s} changed`,
      });
}

/** The parameters' changes: removed, added, made required, their values. */
function parameterChanges(emit: Emit, base: Operation, next: Operation): void {
  // the root's required is the parameter's own, prefixed here
  const strip = (fs: Fields) => new Map([...fs].map(([k, v]) => [k, k ? v : { ...v, required: true }]));
  for (const [key, p] of base.parameters) {
    const n = next.parameters.get(key);
    const at = { place: 'parameter' as const, parameter: key };
    if (!n) {
      emit({ ...at, id: 'request-parameter-removed', level: 'may-break', text: `${p.in} parameter ${p.name} removed` });
      continue;
    }
    if (!p.required && n.required)
      emit({
        ...at,
        id: 'request-parameter-became-required',
        level: 'breaking',
        text: `${p.in} parameter ${p.name} became required`,
      });
    if (p.required && !n.required)
      emit({
        ...at,
        id: 'request-parameter-became-optional',
        level: 'safe',
        text: `${p.in} parameter ${p.name} became optional`,
      });
    const prefixed: Emit = (c) =>
      emit({ ...c, text: `${p.in} parameter ${p.name}: ${c.text.replace('the body', 'its value')}` });
    bodyChanges(prefixed, 'sent', 'request-parameter', strip(p.fields), strip(n.fields), at);
  }
  for (const [key, p] of next.parameters)
    if (!base.parameters.has(key))
      emit({
        place: 'parameter',
        parameter: key,
        id: p.required ? 'new-required-request-parameter' : 'new-optional-request-parameter',
        level: p.required ? 'breaking' : 'safe',
        text: `${p.in} parameter ${p.name} added${p.required ? ' as required' : ''}`,
      });
}

/** The request body's changes; a webhook's request is its payload, which the client receives. */
function requestChanges(emit: Emit, base: Operation, next: Operation): void {
  const webhook = base.kind === 'webhook';
  const way: Way = webhook ? 'received' : 'sent';
  const place: Place = webhook ? 'payload' : 'request';
  const stem = webhook ? 'payload-property' : 'request-property';
  if (!webhook && !base.bodyRequired && next.bodyRequired)
    emit({
      id: base.request.size ? 'request-body-became-required' : 'request-body-added-required',
      level: 'breaking',
      place,
      text: 'the request body became required',
    });
  for (const [media, fields] of base.request) {
    const n = next.request.get(media);
    if (n) bodyChanges(emit, way, stem, fields, n, { place, media_type: media });
    else
      emit({
        id: 'request-body-media-type-removed',
        level: webhook ? 'may-break' : 'breaking',
        place,
        media_type: media,
        text: `${media} no longer ${webhook ? 'sent' : 'accepted'}`,
      });
  }
  for (const media of next.request.keys())
    if (!base.request.has(media) && base.request.size)
      emit({
        id: 'request-body-media-type-added',
        level: webhook ? 'may-break' : 'safe',
        place,
        media_type: media,
        text: `${media} now ${webhook ? 'sent' : 'accepted'}`,
      });
}

/** The responses' changes: statuses, media types, the fields received. */
function responseChanges(emit: Emit, base: Operation, next: Operation): void {
  for (const [status, media] of base.responses) {
    const n = next.responses.get(status);
    const success = /^2/.test(status);
    if (!n) {
      emit({
        id: success ? 'response-success-status-removed' : 'response-non-success-status-removed',
        level: success ? 'breaking' : 'may-break',
        place: 'response',
        status,
        text: `status ${status} no longer answered`,
      });
      continue;
    }
    const prefixed: Emit = (c) => emit({ ...c, text: `status ${status}: ${c.text}` });
    for (const [type, fields] of media) {
      const nf = n.get(type);
      if (nf)
        bodyChanges(prefixed, 'received', 'response-property', fields, nf, {
          place: 'response',
          status,
          media_type: type,
        });
      else
        emit({
          id: 'response-media-type-removed',
          level: 'breaking',
          place: 'response',
          status,
          media_type: type,
          text: `status ${status}: ${type} no longer answered`,
        });
    }
  }
  for (const status of next.responses.keys())
    if (!base.responses.has(status))
      emit({
        id: /^2/.test(status) ? 'response-success-status-added' : 'response-non-success-status-added',
        level: 'safe',
        place: 'response',
        status,
        text: `status ${status} may now be answered`,
      });
}

/** The changes of one operation present in both contracts. */
function operationChanges(emit: Emit, base: Operation, next: Operation, baseShape: Shape, nextShape: Shape): void {
  ownChanges(emit, base, next, baseShape, nextShape);
  parameterChanges(emit, base, next);
  requestChanges(emit, base, next);
  // what a receiver answers a webhook is not read
  if (base.kind !== 'webhook') responseChanges(emit, base, next);
}

/** Every change from `base` to `next`, in `base`'s order of operations, then the operations added. */
export function diff(base: Shape, next: Shape): Change[] {
  const out: Change[] = [];
  const forOp = (o: Operation) => (c: Omit<Change, 'operation'>) =>
    out.push({
      ...c,
      operation: {
        key: o.key,
        kind: o.kind,
        method: o.method,
        path: o.path,
        ...(o.operationId ? { operation_id: o.operationId } : {}),
      },
    } as Change);
  for (const [key, b] of base.operations) {
    const n = next.operations.get(key);
    if (n) operationChanges(forOp(b), b, n, base, next);
    else
      forOp(b)({
        id: b.deprecated
          ? 'api-removed-after-deprecation'
          : b.kind === 'webhook'
            ? 'webhook-removed'
            : 'api-removed-without-deprecation',
        level: b.kind === 'webhook' ? 'may-break' : 'breaking',
        place: 'operation',
        text: b.kind === 'webhook' ? 'webhook removed: no longer sent' : 'operation removed',
      });
  }
  for (const [key, n] of next.operations)
    if (!base.operations.has(key))
      forOp(n)({
        id: n.kind === 'webhook' ? 'webhook-added' : 'endpoint-added',
        level: 'safe',
        place: 'operation',
        text: n.kind === 'webhook' ? 'webhook added' : 'operation added',
      });
  return out;
}
