/**
 * The shape of a handler: it takes the validated request and the unit of work it runs in, and
 * answers `{ status, body }`, typed from the operation in the contract. Handlers never touch
 * express's `res`, and never commit: the pipeline does, once, before answering.
 */
import type { operations } from '../generated/api.js';
import type { Work } from '../sim/work.js';
import type { Principal } from './auth.js';
import type { OperationId, OperationMeta } from './contract.js';
import type { Upload } from './multipart.js';

type Op<K extends OperationId> = operations[K];
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;

export type BodyOf<K extends OperationId> = Op<K> extends { requestBody: infer RB } ? JsonOf<NonNullable<RB>> : undefined;
export type PathOf<K extends OperationId> = NonNullable<Op<K>['parameters']['path']>;
export type QueryOf<K extends OperationId> = NonNullable<Op<K>['parameters']['query']>;

type Responses<K extends OperationId> = Op<K>['responses'];
type Success<K extends OperationId> = Extract<keyof Responses<K>, 200 | 201 | 204>;

/** A successful answer of operation K: one of its 2xx statuses with that status's body. */
export type Reply<K extends OperationId> = {
  [S in Success<K>]: { status: S; body: JsonOf<Responses<K>[S]>; contentType?: string };
}[Success<K>];

/** Operations that need no API key (they have no `x-scope` in the contract). */
export type PublicOperation = 'getOpenapi';

/** What a handler receives: the work of the caller's account (store, clock, ids, random, sim) and the request. */
export interface Ctx<K extends OperationId> extends Work {
  /** The caller; the public operations (the contract itself) have none. */
  principal: K extends PublicOperation ? null : Principal;
  params: PathOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
  /** The parts of a multipart/form-data upload, for the operations that take one. */
  upload?: Upload;
  meta: OperationMeta;
}

export type Handler<K extends OperationId> = (ctx: Ctx<K>) => Reply<K> | Promise<Reply<K>>;

export type HandlerMap = { [K in OperationId]?: Handler<K> };
