/**
 * Inputs derived from the contract: a plausible value for any schema of contract/openapi.yaml, and
 * the ways to break it. Everything draws from a seeded random source, so a run replays from its seed.
 */
import { loadContract } from '../../src/contract.js';
import type { Random } from '../../src/deps.js';

export type Schema = Record<string, any>;

const doc = loadContract().document as { components: { schemas: Record<string, Schema> } };

/** The schema with its `$ref`s resolved (the contract has no cycles). */
export function deref(schema: Schema | undefined): Schema {
  if (!schema) return {};
  if (typeof schema.$ref === 'string') return deref(doc.components.schemas[schema.$ref.split('/').pop()!]);
  return schema;
}

const pick = <T>(r: Random, xs: readonly T[]): T => xs[Math.floor(r.float() * xs.length)]!;

/** Values that satisfy the contract's patterns, by pattern. */
const PATTERN_SAMPLES: Record<string, string[]> = {
  '^[0-7][0-9A-HJKMNP-TV-Z]{25}$': ['01KJ00000000000000000000AA'],
  '^\\+[1-9][0-9]{1,14}$': ['+13125550100', '+14155550123'],
  '^\\+?[1-9][0-9]{1,14}$': ['+13125550100', '13125550101', '+18885550100'],
  '^[A-Z0-9]{7}$': ['CDEMO01', 'BDEMO01'],
  '^[2-9][0-9]{2}$': ['312', '773'],
  '^[A-Z]{2}$': ['IL', 'US'],
  '^[1-9][0-9]{0,3}$': ['1', '10'],
  '^[A-Z0-9_]{1,64}$': ['NONE'],
};

/** A value the schema accepts (as far as the schema alone says). */
export function sample(schema: Schema | undefined, r: Random, depth = 0): unknown {
  const s = deref(schema);
  if ('const' in s) return s.const;
  if (s.enum) return pick(r, s.enum);
  if (s.allOf) {
    // one object schema of all the parts: their properties and requirements together
    const parts = [s, ...s.allOf.map((x: Schema) => deref(x))];
    return sample(
      {
        type: 'object',
        properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})),
        required: parts.flatMap((p) => p.required ?? []),
      },
      r,
      depth,
    );
  }
  if (s.oneOf || s.anyOf) {
    const branches = (s.oneOf ?? s.anyOf).filter((b: Schema) => deref(b).type !== 'null');
    return sample(pick(r, branches.length ? branches : (s.oneOf ?? s.anyOf)), r, depth);
  }
  const type = Array.isArray(s.type)
    ? s.type.find((t: string) => t !== 'null')
    : (s.type ?? (s.properties ? 'object' : undefined));
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) {
        if ((s.required ?? []).includes(k) || (depth < 2 && r.float() < 0.3))
          out[k] = sample(v as Schema, r, depth + 1);
      }
      return out;
    }
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items, r, depth + 1));
    case 'integer':
    case 'number':
      return s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    case 'boolean':
      return r.float() < 0.5;
    case 'string': {
      if (s.pattern && PATTERN_SAMPLES[s.pattern]) return pick(r, PATTERN_SAMPLES[s.pattern]!);
      switch (s.format) {
        case 'uuid':
          return '0a0a0a0a-0000-4000-8000-0000000fffff';
        case 'date-time':
          return '2026-03-01T12:00:00.000Z';
        case 'email':
          return 'fuzz@example.com';
        case 'uri':
          return 'https://example.com/fuzz';
        case 'binary':
          return '';
      }
      return 'f'.repeat(Math.max(s.minLength ?? 0, 3)).slice(0, s.maxLength ?? 3);
    }
    default:
      return 'x';
  }
}

/** Every JSON path into an object value, with the schema found there. */
export function paths(
  value: unknown,
  schema: Schema,
  at: (string | number)[] = [],
): { at: (string | number)[]; schema: Schema; value: unknown }[] {
  const s = deref(schema);
  const out = [{ at, schema: s, value }];
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const props: Record<string, Schema> = { ...(s.properties ?? {}) };
    for (const part of [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])])
      Object.assign(props, deref(part).properties ?? {});
    for (const [k, v] of Object.entries(value)) out.push(...paths(v, props[k] ?? {}, [...at, k]));
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => out.push(...paths(v, s.items ?? {}, [...at, i])));
  }
  return out;
}

export function setAt(root: unknown, at: (string | number)[], value: unknown, remove = false): unknown {
  if (at.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let node = copy;
  for (const k of at.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  const last = at[at.length - 1]!;
  if (remove) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else if (last === '__proto__') {
    Object.defineProperty(node, '__proto__', { value, enumerable: true, configurable: true, writable: true });
  } else node[last] = value;
  return copy;
}

const WRONG_TYPES: unknown[] = [42, -1.5, true, null, 'text', [], {}, [1, 'a'], { nested: { deeper: true } }];
const UNICODE = ['名前テスト', '🚀📞☎️', 'שלום', 'a\u200bb', 'e\u0301', '\u0000nul', '💩'.repeat(300)];

/** One way to break (or stretch) a body: answers the new body and what was done. */
export function mutate(body: unknown, schema: Schema, r: Random): { body: unknown; what: string } {
  const all = paths(body, schema);
  const objects = all.filter((p) => p.value !== null && typeof p.value === 'object' && !Array.isArray(p.value));
  const kind = Math.floor(r.float() * 10);
  // missing and odd keys need an object to act on
  const target = (kind === 1 || kind === 2) && objects.length ? pick(r, objects) : pick(r, all);
  if ((kind === 1 || kind === 2) && !objects.length) return { body: pick(r, WRONG_TYPES), what: 'not an object' };
  const where = `/${target.at.join('/')}`;
  const s = target.schema;
  switch (kind) {
    case 0:
      return { body: setAt(body, target.at, pick(r, WRONG_TYPES)), what: `wrong type at ${where}` };
    case 1: {
      const required = (s.required ?? []) as string[];
      if (required.length) {
        const k = pick(r, required);
        return { body: setAt(body, [...target.at, k], undefined, true), what: `missing ${where}/${k}` };
      }
      return { body: setAt(body, [...target.at, 'unexpected_field'], 1), what: `extra field at ${where}` };
    }
    case 2:
      return {
        body: setAt(body, [...target.at, pick(r, ['__proto__', 'constructor', 'prototype', 'unexpected'])], {
          polluted: true,
        }),
        what: `odd key at ${where}`,
      };
    case 3:
      return { body: setAt(body, target.at, 'NOT_IN_THE_ENUM'), what: `enum violation at ${where}` };
    case 4:
      return {
        body: setAt(body, target.at, 'x'.repeat(s.maxLength ? s.maxLength + 1 : 70_000)),
        what: `over-long string at ${where}`,
      };
    case 5:
      return { body: setAt(body, target.at, pick(r, UNICODE)), what: `unicode at ${where}` };
    case 6: {
      let deep: unknown = 'bottom';
      for (let i = 0; i < 300; i++) deep = { a: deep };
      return { body: setAt(body, target.at, deep), what: `deep nesting at ${where}` };
    }
    case 7:
      return {
        body: setAt(
          body,
          target.at,
          typeof s.maximum === 'number' ? s.maximum + 1 : typeof s.minimum === 'number' ? s.minimum - 1 : -99999999999,
        ),
        what: `out of range at ${where}`,
      };
    case 8:
      return { body: pick(r, [[], 'a string', 12, null, [body]]), what: 'not an object' };
    default:
      return {
        body: setAt(
          body,
          target.at,
          Array.from({ length: 2_000 }, (_, i) => ({ i })),
        ),
        what: `large array at ${where}`,
      };
  }
}
