/** A change between two contracts, as the diff finds it and classifies it. */
import type { Operation } from './shape.js';

export type Level = 'breaking' | 'may-break' | 'safe';

/** Where in an operation a change is. */
export type Place = 'operation' | 'security' | 'parameter' | 'request' | 'response' | 'payload';

export interface Change {
  /** The oasdiff check this is (or, for a rule of dipswitch's own, an id in its style). */
  id: string;
  level: Level;
  operation: { key: string; kind: Operation['kind']; method: string; path: string; operation_id?: string };
  place: Place;
  status?: string;
  media_type?: string;
  parameter?: string;
  /** The field's path in the body or the parameter ('' the whole). */
  field?: string;
  /** The enumeration values added or removed. */
  values?: string[];
  /** A bound's value in the next contract, where one was set or changed. */
  bound?: number;
  text: string;
}
