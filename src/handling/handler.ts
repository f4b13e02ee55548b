/**
 * The shape of a handler: it takes the validated request and what it works with, and answers
 * `{ status, body }`, typed from its operation in the contract (`contract/openapi.yaml` for the
 * simulated API, `contract/sim.yaml` for the control API). Handlers never touch express's `res`,
 * and never commit: the pipeline does, once, before answering.
 */
import type { operations } from '../generated/api.js';
import type { operations as simOperations } from '../generated/sim.js';
import type { ControlPort } from './control_port.js';
import type { Work } from '../engine/work.js';
import type { UnitOfWork } from '../store/store.js';
import type { Principal } from './principal.js';
import { DEMO_ACCOUNT } from '../store/fixtures.js';
import type { OperationId, OperationMeta, SimOperationId } from '../contract.js';
import type { Upload } from './upload.js';
import type { Fetcher } from '../runtime.js';

export type { Fetcher };

type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
/** The JSON body of a response's content, if it has JSON. */
type JsonPart<C> = C extends { 'application/json': infer B } ? B : never;
/** The text of any other content type it has (YAML, CSV…): a string, whatever its schema describes. */
type TextPart<C> = [Exclude<keyof C, 'application/json'>] extends [never] ? never : string;
/** An answer's body: JSON as the contract types it, the text of any other content type, nothing without content. */
type AnswerOf<T> = T extends { content: infer C } ? JsonPart<C> | TextPart<C> : undefined;

/**
 * An answer that goes on after its headers (server-sent events): the pipeline sends the status and
 * headers, then hands over a narrow writer; `onClose` runs when the caller goes or the server stops.
 */
export interface StreamWriter {
  /** Writes a chunk; false when the caller is not reading (its buffer is over the bound) and the stream was ended. */
  write(chunk: string): boolean;
  onClose(fn: () => void): void;
  end(): void;
}

/** What every operation type of openapi-typescript looks like. */
interface AnyOp {
  parameters: { path?: unknown; query?: unknown };
  responses: Record<number, unknown>;
}

type BodyOfOp<Op> = Op extends { requestBody?: infer RB } ? JsonOf<NonNullable<RB>> : undefined;
type Success<Op extends AnyOp> = Extract<keyof Op['responses'], 200 | 201 | 202 | 204>;

/** A successful answer of an operation: one of its 2xx statuses with that status's body. */
type ReplyOfOp<Op extends AnyOp> = {
  [S in Success<Op>]: {
    status: S;
    body: AnswerOf<Op['responses'][S]>;
    contentType?: string;
    /** For a `text/event-stream` answer: called once the headers are sent. */
    stream?: (out: StreamWriter) => void;
  };
}[Success<Op>];

export type BodyOf<K extends OperationId> = BodyOfOp<operations[K]>;
export type PathOf<K extends OperationId> = NonNullable<operations[K]['parameters']['path']>;
export type QueryOf<K extends OperationId> = NonNullable<operations[K]['parameters']['query']>;
export type Reply<K extends OperationId> = ReplyOfOp<operations[K]>;

/** Operations that need no API key (they have no `x-scope` in the contract). */
export type PublicOperation = 'getOpenapi';

/** A request of the simulated API as its operation's schemas passed it (validateStage), typed from the same contract. */
export interface ApiRequest<K extends OperationId> {
  /** The caller; the public operations (the contract itself) have none. */
  principal: K extends PublicOperation ? null : Principal;
  params: PathOf<K>;
  query: QueryOf<K>;
  body: BodyOf<K>;
  /** The parts of a multipart/form-data upload, for the operations that take one. */
  upload?: Upload;
  meta: OperationMeta<string>;
}

/**
 * What a handler of the simulated API receives: the request, and the work of the caller's account
 * (`store`, the Work itself: its collections, files and hooks) with its clock, ids, random and outbox
 * at hand.
 */
export interface Ctx<K extends OperationId>
  extends ApiRequest<K>, Pick<Work, 'accountId' | 'clock' | 'ids' | 'random' | 'outbox'> {
  readonly store: Work;
}

/**
 * A handler's context, made once per call: its request and its unit of work side by side. The
 * work's identifiers and outbox stay lazy (most reads use neither).
 */
export function handlerContext<K extends OperationId>(request: ApiRequest<K>, work: Work): Ctx<K> {
  const { principal, params, query, body, upload, meta } = request;
  const { accountId, clock, random } = work;
  return {
    principal,
    params,
    query,
    body,
    upload,
    meta,
    accountId,
    store: work,
    clock,
    random,
    get ids() {
      return work.ids;
    },
    get outbox() {
      return work.outbox;
    },
  };
}

/** Runs the handler of an operation, if there is one: undefined for an operation not simulated. */
export function runHandler<K extends OperationId>(
  handlers: HandlerMap,
  id: K,
  ctx: Ctx<K>,
): Reply<K> | Promise<Reply<K>> | undefined {
  const handler: Handler<K> | undefined = handlers[id];
  return handler?.(ctx);
}

export type Handler<K extends OperationId> = (ctx: Ctx<K>) => Reply<K> | Promise<Reply<K>>;

export type HandlerMap = { [K in OperationId]?: Handler<K> };

/** A request of the control API as its operation's schemas passed it (validateStage). */
export interface SimRequest<K extends SimOperationId> {
  params: NonNullable<simOperations[K]['parameters']['path']>;
  query: NonNullable<simOperations[K]['parameters']['query']>;
  body: BodyOfOp<simOperations[K]>;
}

/** What every control handler reads the state with: its call's unit of work, outside any account's lock. */
export type Read = <T>(fn: (w: UnitOfWork) => Promise<T>) => Promise<T>;

/** What a handler of the control API receives: its port to the simulator, the account the call acts on, and the request. */
/** The account a control call acts on: its key's, or without one the Demo account (interface.md, /__sim). */
export const actingAccount = (principal: Principal | null | undefined): string => principal?.accountId ?? DEMO_ACCOUNT;

export interface SimCtx<K extends SimOperationId> extends SimRequest<K> {
  /** What the handler may do to the simulator (never the runtime itself). */
  port: ControlPort;
  /** Reads the state in the call's unit of work. */
  read: Read;
  /**
   * The Work of the account the call acts on, in the call's unit of work, committed before the call
   * answers: for the operations marked `x-unit: account`, whose call's unit is that account's write.
   */
  work(): Promise<Work>;
  /** The account of the key in Authorization; the Demo account when none is given. */
  accountId: string;
  /**
   * The account of the key in Authorization, undefined when none is given: a call that acts on
   * the key's account or on every account (`x-acts-on: account-or-all`) acts on every account then.
   */
  own: string | undefined;
  /** The call's Authorization as sent (a listener is opened as its caller). */
  authorization?: string;
  /**
   * This server's core, answering in the process (no socket): as the call's own caller (its Authorization,
   * and the admin token when it had the control API's authority: the MCP tools), or with the server's
   * authority (the admin token on every /__sim call: a scenario run by the server).
   */
  callBack: { asCaller: Fetcher; asServer: Fetcher };
}

export type SimReply<K extends SimOperationId> = ReplyOfOp<simOperations[K]>;

export type SimHandler<K extends SimOperationId> = (ctx: SimCtx<K>) => SimReply<K> | Promise<SimReply<K>>;

export type SimHandlerMap = { [K in SimOperationId]: SimHandler<K> };

/** Runs the handler of a control operation. */
export function runSimHandler<K extends SimOperationId>(
  handlers: SimHandlerMap,
  id: K,
  ctx: SimCtx<K>,
): SimReply<K> | Promise<SimReply<K>> {
  const handler: SimHandler<K> = handlers[id];
  return handler(ctx);
}
