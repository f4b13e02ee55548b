/** The shapes of tracing (tracing.ts), which the SDK's side (otel.ts) implements. */

/** A span as the simulator's code sees it (its context null when traces are off). */
export interface Span {
  /** The trace's id, 32 hex digits (null when traces are off). */
  readonly traceId: string | null;
  /** Its context as a W3C `traceparent` header (null when traces are off). */
  readonly traceparent: string | null;
  set(attributes: Attributes): void;
  /** Names it (a call's span is named once its route is known). */
  rename(name: string): void;
  /** Says that what it stands for failed (its status); it ends when the work it wraps does. */
  fail(message: string): void;
}

export type Attributes = Record<string, string | number | boolean | undefined>;

/** What kind of span (OpenTelemetry's SpanKind): a call answered, a request made, or work of the simulator's own. */
export type SpanKind = 'server' | 'client' | 'producer' | 'internal';

/** A span of the simulator's own work (a delivery attempt, a step, a PDU). */
export interface WorkSpan {
  name: string;
  kind: SpanKind;
  attributes: Attributes;
  /**
   * The `traceparent` of the call (or step) whose work this is, kept with the delivery or step: the
   * span is that call's child when it runs within it, else it links to it (made later, on the clock).
   */
  cause: string | null;
  /** This span is the cause of what its work makes (a step's), instead of the cause it came from. */
  causes?: boolean;
}

/** A span that outlives one piece of work (an SMPP session): ended by its owner; the spans of its PDUs are its children. */
export interface OpenSpan extends Span {
  /** Runs `fn` in a child span (linked to `work.cause` when given); the child ends with it. */
  child<T>(work: WorkSpan, fn: (span: Span) => Promise<T>): Promise<T>;
  end(): void;
}

export interface Tracing {
  readonly on: boolean;
  /** Runs `fn` in a server span continuing the call's incoming `traceparent` and `tracestate`; the span ends with it. */
  serve<T>(headers: Record<string, string | string[] | undefined>, fn: (span: Span) => Promise<T>): Promise<T>;
  /** Runs `fn` in a span of the simulator's own work; the span ends with it (failed if it throws). */
  within<T>(work: WorkSpan, fn: (span: Span) => Promise<T>): Promise<T>;
  /** A span its owner ends (a session), a trace of its own. */
  open(work: Omit<WorkSpan, 'cause'>): OpenSpan;
  /** The `traceparent` of the call or step whose work runs now, to keep with what it makes (null: none, or off). */
  cause(): string | null;
  /** Exports what is left (at the server's close). */
  shutdown(): Promise<void>;
}

/** A setting of the `OTEL_*` variables dipswitch cannot honour: the server does not start. */
export class TracingRefused extends Error {}
