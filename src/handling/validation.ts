/**
 * The one place Ajv errors become `invalid_parameter` errors: one per violated location, body
 * fields named by `source.pointer`, query and path parameters by `source.parameter`.
 */
import type { ErrorObject as AjvError } from 'ajv';
import { ERRORS_PER_ANSWER } from '../limits.js';
import { DomainError, type ErrorInit } from '../domain/errors.js';
import { didYouMean } from '../domain/matching.js';

/** Keywords that only say "a branch failed"; the branch's own errors say what is wrong. */
const combinators = new Set(['oneOf', 'anyOf', 'allOf', 'if', 'not']);

function location(e: AjvError): { pointer?: string; parameter?: string; field: string } {
  const extra =
    e.keyword === 'required'
      ? `/${(e.params as { missingProperty: string }).missingProperty}`
      : e.keyword === 'additionalProperties'
        ? `/${(e.params as { additionalProperty: string }).additionalProperty}`
        : e.keyword === 'unevaluatedProperties'
          ? `/${(e.params as { unevaluatedProperty: string }).unevaluatedProperty}`
          : e.keyword === 'discriminator'
            ? `/${(e.params as { tag: string }).tag}`
            : '';
  const full = e.instancePath + extra;
  const [, where = '', ...rest] = full.split('/');
  if (where === 'query' || where === 'path' || where === 'header') {
    const name = decodePointer(rest[0] ?? '');
    return { parameter: name, field: name };
  }
  const pointer = rest.length ? `/${rest.join('/')}` : '/';
  return { pointer, field: pointer === '/' ? 'body' : decodePointer(rest[rest.length - 1] ?? '') };
}

const decodePointer = (s: string): string => s.replace(/~1/g, '/').replace(/~0/g, '~');

function describe(e: AjvError, field: string): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return `${field} is required.`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `${field} is not an accepted field.`;
    case 'const':
      return `${field} must be ${JSON.stringify(p.allowedValue)}.`;
    case 'enum': {
      const allowed = p.allowedValues as unknown[];
      const near = typeof e.data === 'string' ? didYouMean(e.data, allowed.map(String)) : '';
      return `${field} must be one of ${allowed.join(', ')}.${near}`;
    }
    case 'discriminator':
      return `${field} must be one of the accepted types.`;
    case 'pattern': {
      // the schema's own words for what the pattern checks, where it has them (Ajv's `verbose` errors)
      const said = (e.parentSchema as { description?: unknown } | undefined)?.description;
      if (typeof said !== 'string') return `${field} ${e.message ?? 'is invalid'}.`;
      const phrase = /^[A-Z][a-z]/.test(said) ? said.charAt(0).toLowerCase() + said.slice(1) : said;
      return `${field} must be ${phrase.replace(/\.$/, '')}.`;
    }
    default:
      return `${field} ${e.message ?? 'is invalid'}.`;
  }
}

/**
 * A body that gives none of the alternatives a `oneOf` or `anyOf` of required fields offers (`{}` for
 * "one of by, to, next") fails each branch with its own `required` error: one error says it,
 * "give one of by, to, next", at the object.
 */
function alternativesMissing(errors: AjvError[]): { at: string; names: string[] } | undefined {
  const missing = errors.filter(
    (e) => e.keyword === 'required' && /\/(oneOf|anyOf)\/\d+\/required$/.test(e.schemaPath),
  );
  if (missing.length < 2 || missing.some((e) => e.instancePath !== missing[0]?.instancePath)) return undefined;
  if (errors.some((e) => !combinators.has(e.keyword) && !missing.includes(e))) return undefined;
  return {
    at: missing[0]?.instancePath ?? '',
    names: missing.map((e) => (e.params as { missingProperty: string }).missingProperty),
  };
}

/** Turns Ajv's errors into one `invalid_parameter` DomainError, one entry per location. */
export function validationError(errors: AjvError[]): DomainError {
  const alternatives = alternativesMissing(errors);
  if (alternatives) {
    const [, where = '', ...rest] = alternatives.at.split('/');
    const detail = `Give one of ${alternatives.names.join(', ')}.`;
    const source =
      where === 'query' || where === 'path' || where === 'header'
        ? { parameter: decodePointer(rest[0] ?? '') }
        : { pointer: rest.length ? `/${rest.join('/')}` : '/' };
    return new DomainError('invalid_parameter', [{ detail, source }]);
  }
  const byLocation = new Map<string, { e: AjvError; init: ErrorInit }>();
  for (const e of errors) {
    if (combinators.has(e.keyword)) continue;
    const loc = location(e);
    const key = loc.pointer !== undefined ? `p:${loc.pointer}` : `q:${loc.parameter}`;
    const seen = byLocation.get(key);
    // a `type` error from the null branch of a nullable field says less than the other branch's error
    if (seen && !(seen.e.keyword === 'type' && e.keyword !== 'type')) continue;
    const source = loc.pointer !== undefined ? { pointer: loc.pointer } : { parameter: loc.parameter ?? '' };
    byLocation.set(key, { e, init: { detail: describe(e, loc.field), source } });
  }
  if (byLocation.size === 0) {
    // only combinator errors: point at the deepest location they name
    const e = errors[0];
    const loc = e ? location(e) : { pointer: '/', field: 'body' };
    const source = loc.pointer !== undefined ? { pointer: loc.pointer } : { parameter: loc.parameter ?? '' };
    return new DomainError('invalid_parameter', [
      { detail: `${loc.field} does not match any accepted shape.`, source },
    ]);
  }
  const all = [...byLocation.values()].map((v) => v.init);
  const more = all.length - ERRORS_PER_ANSWER;
  if (more <= 0) return new DomainError('invalid_parameter', all);
  // a body of 90,000 unknown keys answers 100 of them and a count, not 90,000 errors
  return new DomainError('invalid_parameter', [
    ...all.slice(0, ERRORS_PER_ANSWER),
    {
      detail: `${more.toLocaleString('en')} more problems are not listed; the first ${ERRORS_PER_ANSWER} are.`,
      params: { not_listed: more },
      source: { pointer: '/' },
    },
  ]);
}
