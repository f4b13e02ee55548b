/**
 * Traces (docs/observability.md): a server span for every call, a span for every delivery attempt,
 * lifecycle step and SMPP PDU, exported by OpenTelemetry's SDK as the standard `OTEL_*` variables
 * say. Nothing of the SDK is loaded while they ask for no traces: the server then works with NO_TRACES,
 * whose spans cost a closure each.
 */

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

export interface Tracing {
  readonly on: boolean;
  /** Runs `fn` in a server span continuing the call's incoming `traceparent` and `tracestate`; the span ends with it. */
  serve<T>(headers: Record<string, string | string[] | undefined>, fn: (span: Span) => Promise<T>): Promise<T>;
  /** Runs `fn` in a span of the simulator's own work; the span ends with it (failed if it throws). */
  within<T>(work: WorkSpan, fn: (span: Span) => Promise<T>): Promise<T>;
  /** The `traceparent` of the call or step whose work runs now, to keep with what it makes (null: none, or off). */
  cause(): string | null;
  /** Exports what is left (at the server's close). */
  shutdown(): Promise<void>;
}

const NO_SPAN: Span = {
  traceId: null,
  traceparent: null,
  set: () => undefined,
  rename: () => undefined,
  fail: () => undefined,
};

/** Traces off: nothing recorded, nothing loaded. */
export const NO_TRACES: Tracing = {
  on: false,
  serve: (_headers, fn) => fn(NO_SPAN),
  within: (_work, fn) => fn(NO_SPAN),
  cause: () => null,
  shutdown: async () => undefined,
};

type Env = Record<string, string | undefined>;

/**
 * Whether the variables ask for traces: an exporter named in `OTEL_TRACES_EXPORTER` (not `none`), or
 * an OTLP endpoint given; never with `OTEL_SDK_DISABLED=true`. Unset, nothing is exported: a
 * simulator on a laptop sends no spans to a collector it did not ask for.
 */
export function tracesAsked(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase());
  if (exporters.includes('none')) return false;
  if (exporters.some((e) => e !== '')) return true;
  return !!(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The tracing the variables ask for: the SDK loaded (./otel.ts) only then. Refuses a setting it cannot honour. */
export async function openTracing(env: Env, version: string): Promise<Tracing> {
  if (!tracesAsked(env)) return NO_TRACES;
  const { sdkTracing } = await import('./otel.js');
  return sdkTracing(env, version);
}
