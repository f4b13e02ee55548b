/**
 * The rules for a field and a body: what a change of a field's schema means, `way` the side the
 * client is on (it sends a request; it receives a response and a webhook's payload).
 */
import { parentOf, type Field, type Fields } from './shape.js';
import type { Change, Level } from './change.js';

/** Which way a body goes: sent by the client (a request) or received by it (a response, a webhook's payload). */
export type Way = 'sent' | 'received';

export type Emit = (c: Omit<Change, 'operation'>) => void;

const where = (field: string) => (field ? `\`${field}\`` : 'the body');
const unquote = (values: string[]) => values.map((v) => (v.startsWith('"') ? v.slice(1, -1) : v));

/** Whether types `a` allow every value types `b` allow (an integer is a number; no types allows any). */
function covers(a: string[], b: string[]): boolean {
  if (!a.length) return true;
  if (!b.length) return false;
  return b.every((t) => a.includes(t) || (t === 'integer' && a.includes('number')));
}

/** The changes of one field, `way` the side the client is on. */
function fieldChanges(
  emit: Emit,
  way: Way,
  stem: string,
  base: Field,
  next: Field,
  at: Partial<Change> & { place: Change['place'] },
): void {
  const f = at.field ?? '';
  const say = (id: string, level: Level, text: string, extra: Partial<Change> = {}) =>
    emit({ ...at, ...extra, id: `${stem}-${id}`, level, text, place: at.place } as Omit<Change, 'operation'>);
  if (way === 'sent') {
    if (!base.required && next.required) say('became-required', 'breaking', `${where(f)} became required`);
    if (base.required && !next.required) say('became-optional', 'safe', `${where(f)} became optional`);
    if (!covers(next.types, base.types))
      say(
        'type-changed',
        'breaking',
        `${where(f)}'s type changed from ${base.types.join('|') || 'any'} to ${next.types.join('|')}`,
      );
    else if (next.types.join() !== base.types.join())
      say('type-generalized', 'safe', `${where(f)} now also takes ${next.types.join('|') || 'any'}`);
  } else {
    if (base.required && !next.required)
      say('became-optional', 'breaking', `${where(f)} became optional: it may no longer come back`);
    if (!base.required && next.required) say('became-required', 'safe', `${where(f)} became required`);
    if (!covers(base.types, next.types))
      say(
        'type-changed',
        'breaking',
        `${where(f)}'s type changed from ${base.types.join('|') || 'any'} to ${next.types.join('|') || 'any'}`,
      );
    else if (next.types.join() !== base.types.join())
      say('type-narrowed', 'safe', `${where(f)} now comes back as ${next.types.join('|')} only`);
  }
  if (base.format !== next.format) {
    if (next.format === undefined)
      say('format-removed', way === 'sent' ? 'safe' : 'may-break', `${where(f)} no longer has format ${base.format}`);
    else if (base.format === undefined)
      say('format-added', way === 'sent' ? 'breaking' : 'safe', `${where(f)} now has format ${next.format}`);
    else say('format-changed', 'breaking', `${where(f)}'s format changed from ${base.format} to ${next.format}`);
  }
  if (base.pattern !== next.pattern && way === 'sent') {
    if (next.pattern === undefined) say('pattern-removed', 'safe', `${where(f)} no longer has a pattern`);
    else if (base.pattern === undefined)
      say('pattern-added', 'may-break', `${where(f)} now has the pattern ${next.pattern}`);
    else say('pattern-changed', 'may-break', `${where(f)}'s pattern changed from ${base.pattern} to ${next.pattern}`);
  }
  enumChanges(say, way, f, base.enum, next.enum);
  boundChanges(say, way, f, base, next);
}

type Say = (id: string, level: Level, text: string, extra?: Partial<Change>) => void;

function enumChanges(say: Say, way: Way, f: string, base: string[] | undefined, next: string[] | undefined): void {
  if (!base && !next) return;
  if (base && next) {
    const removed = base.filter((v) => !next.includes(v));
    const added = next.filter((v) => !base.includes(v));
    if (removed.length)
      say(
        'enum-value-removed',
        way === 'sent' ? 'breaking' : 'safe',
        `${where(f)} no longer takes ${unquote(removed).join(', ')}`,
        {
          values: unquote(removed),
        },
      );
    if (added.length)
      say(
        'enum-value-added',
        way === 'sent' ? 'safe' : 'may-break',
        `${where(f)} may now be ${unquote(added).join(', ')}`,
        {
          values: unquote(added),
        },
      );
    return;
  }
  if (next)
    say('enum-added', way === 'sent' ? 'breaking' : 'safe', `${where(f)} is now one of ${unquote(next).join(', ')}`);
  else say('enum-removed', way === 'sent' ? 'safe' : 'may-break', `${where(f)} is no longer one of a list`);
}

const BOUND_WORDS = {
  maxLength: ['max-length', 'at most', 'characters'],
  minLength: ['min-length', 'at least', 'characters'],
  maximum: ['max', 'at most', ''],
  minimum: ['min', 'at least', ''],
  maxItems: ['max-items', 'at most', 'items'],
  minItems: ['min-items', 'at least', 'items'],
} as const;

/** A bound tightened on what a client sends breaks it; loosened on what it receives may. */
function boundChanges(say: Say, way: Way, f: string, base: Field, next: Field): void {
  for (const [key, [id, words, unit]] of Object.entries(BOUND_WORDS) as [
    keyof typeof BOUND_WORDS,
    readonly [string, string, string],
  ][]) {
    const b = base[key];
    const n = next[key];
    if (b === n) continue;
    const isMax = key.startsWith('max');
    // tighter: a max lowered or added, a min raised or added
    const tighter = n !== undefined && (b === undefined || (isMax ? n < b : n > b));
    const what = `${where(f)}: ${words} ${n ?? b}${unit ? ` ${unit}` : ''}`;
    if (tighter)
      say(
        `${id}-${isMax ? 'decreased' : 'increased'}`,
        way === 'sent' ? 'breaking' : 'safe',
        `${what}, was ${b ?? 'unbounded'}`,
        { bound: n },
      );
    else
      say(
        `${id}-${n === undefined ? 'removed' : isMax ? 'increased' : 'decreased'}`,
        way === 'sent' ? 'safe' : 'may-break',
        n === undefined ? `${where(f)} is no longer ${words} ${b}` : `${what}, was ${b}`,
        n === undefined ? {} : { bound: n },
      );
  }
}

/** The changes of a body's fields. */
export function bodyChanges(
  emit: Emit,
  way: Way,
  stem: string,
  base: Fields,
  next: Fields,
  at: Partial<Change> & { place: Change['place'] },
): void {
  for (const [path, b] of base) {
    const n = next.get(path);
    if (n) {
      fieldChanges(emit, way, stem, b, n, { ...at, field: path });
      continue;
    }
    const parent = parentOf(path);
    if (parent !== undefined && !next.has(parent)) continue; // prefixed of the parent
    if (way === 'sent')
      emit({
        ...at,
        field: path,
        id: `${stem}-removed`,
        level: 'may-break',
        text: `${where(path)} was removed`,
        place: at.place,
      });
    else
      emit({
        ...at,
        field: path,
        id: `${stem.replace('-property', '')}-${b.required ? 'required' : 'optional'}-property-removed`,
        level: b.required ? 'breaking' : 'may-break',
        text: `${where(path)} was removed`,
        place: at.place,
      });
  }
  for (const [path, n] of next) {
    if (base.has(path)) continue;
    const parent = parentOf(path);
    if (parent !== undefined && !base.has(parent)) continue;
    // a field is required of the client when it is required where its parent must be sent
    const mustSend = way === 'sent' && n.required && (parent === undefined || next.get(parent)?.required !== false);
    emit({
      ...at,
      field: path,
      id:
        way === 'sent'
          ? mustSend
            ? `new-required-${stem.replace('-property', '')}-property`
            : `new-optional-${stem.replace('-property', '')}-property`
          : `${stem}-added`,
      level: mustSend ? 'breaking' : 'safe',
      text: `${where(path)} was added${mustSend ? ' as required' : ''}`,
      place: at.place,
    });
  }
}
