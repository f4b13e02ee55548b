/** The config file: defaults for the flags given neither on the command line nor in the environment. */
import { existsSync, readFileSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { CONFIG_FILE, Stop } from './stop.js';

// ---- the config file

/** The nearest of `candidates` to `word` (at most two edits away), for "did you mean". */
export function nearest(word: string, candidates: string[]): string | undefined {
  // Levenshtein distance, one row at a time
  const distance = (a: string, b: string): number => {
    let row = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
      const next = [i];
      for (let j = 1; j <= b.length; j++) {
        const [up = 0, left = 0, diagonal = 0] = [row[j], next[j - 1], row[j - 1]];
        next[j] = Math.min(up + 1, left + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      }
      row = next;
    }
    return row[b.length] ?? 0;
  };
  const scored = candidates.map((c) => [c, distance(word, c)] as const).filter(([, d]) => d <= 2);
  return scored.sort((x, y) => x[1] - y[1])[0]?.[0];
}

/** Fills the flags given neither on the command line nor in the environment from the config file. */
export function applyConfig(cmd: Command): void {
  const given = cmd.getOptionValue('config') as string | undefined;
  const file = given ?? (existsSync(CONFIG_FILE) ? CONFIG_FILE : undefined);
  if (!file) return;
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Stop(`${file}: ${(e as Error).message}`, 2);
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config))
    throw new Stop(`${file}: a JSON object of flags is needed, e.g. {"port": 4010}`, 2);
  const options = cmd.options.filter((o) => o.long !== '--config');
  const keyOf = (o: Option) => (o.long ?? '').replace(/^--(no-)?/, '');
  const keys = options.map(keyOf);
  for (const [key, value] of Object.entries(config)) {
    const option = options.find((o) => keyOf(o) === key || o.attributeName() === key);
    if (!option) {
      const guess = nearest(key, keys);
      throw new Stop(`${file}: unknown key "${key}"${guess ? `, did you mean "${guess}"?` : ''}`, 2);
    }
    const name = option.attributeName();
    const source = cmd.getOptionValueSource(name);
    if (source === 'cli' || source === 'env') continue;
    const takesValue = option.required || option.optional;
    let parsed: unknown = value;
    if (!takesValue) {
      if (typeof value !== 'boolean') throw new Stop(`${file}: "${key}" must be true or false`, 2);
    } else {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw new Stop(`${file}: "${key}" must be a string or a number`, 2);
      try {
        parsed = option.parseArg ? option.parseArg(String(value), undefined) : String(value);
      } catch (e) {
        throw new Stop(`${file}: "${key}": ${(e as Error).message}`, 2);
      }
    }
    cmd.setOptionValueWithSource(name, parsed, 'config');
  }
}
