/** One line of the change log: `<bytes> <crc32> <json>`, the changes of one commit, checked when read. */
import { crc32 } from 'node:zlib';
import type { AnyRow, CollectionName } from '../schema.js';

/** One change: a row put or deleted (by id) in a collection. */
export type Change = ['put', CollectionName, AnyRow] | ['del', CollectionName, string];

const hex = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

/** A log line: `<bytes> <crc32> <json>`. */
export function logLine(changes: Change[]): string {
  const json = JSON.stringify(changes);
  return `${Buffer.byteLength(json)} ${hex(crc32(json))} ${json}\n`;
}

/** The changes of a log line, or null when its length or checksum do not match. */
export function parseLine(line: string): Change[] | null {
  const m = /^(\d+) ([0-9a-f]{8}) /.exec(line);
  if (!m) return null;
  const json = line.slice(m[0].length);
  if (Buffer.byteLength(json) !== Number(m[1]) || hex(crc32(json)) !== m[2]) return null;
  try {
    const changes = JSON.parse(json) as unknown;
    return Array.isArray(changes) ? (changes as Change[]) : null;
  } catch {
    // a line that is not JSON is damaged: its caller says so
    return null;
  }
}
