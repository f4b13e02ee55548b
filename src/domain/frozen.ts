/** Rows are read-only, in their types and at run time: what the store hands out, and the draft an update changes. */

/** A row as the store hands it out: read-only all the way down. */
export type Frozen<T> = T extends readonly (infer U)[]
  ? readonly Frozen<U>[]
  : T extends object
    ? { readonly [K in keyof T]: Frozen<T[K]> }
    : T;

/** A writable copy of a row, inside `update(row, (draft) => …)`. */
export type Draft<T> = T extends readonly (infer U)[]
  ? Draft<U>[]
  : T extends object
    ? { -readonly [K in keyof T]: Draft<T[K]> }
    : T;
