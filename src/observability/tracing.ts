/**
 * Traces (docs/observability.md): a server span for every call, a span for every delivery attempt,
 * lifecycle step and SMPP PDU, exported by OpenTelemetry's SDK as the standard `OTEL_*` variables
 * say. Nothing of the SDK is loaded while they ask for no traces: the server then works with NO_TRACES,
 * whose spans cost a closure each.
 */

import { loadFeature } from '../domain/features.js';
import type { OpenSpan, Span, Tracing } from './spans.js';

export { TracingRefused } from './spans.js';
export type { Attributes, OpenSpan, Span, SpanKind, Tracing, WorkSpan } from './spans.js';

const NO_SPAN: Span = {
  traceId: null,
  traceparent: null,
  set: () => undefined,
  rename: () => undefined,
  fail: () => undefined,
};

const NO_OPEN_SPAN: OpenSpan = { ...NO_SPAN, child: (_work, fn) => fn(NO_SPAN), end: () => undefined };

/** Traces off: nothing recorded, nothing loaded. */
export const NO_TRACES: Tracing = {
  on: false,
  serve: (_headers, fn) => fn(NO_SPAN),
  within: (_work, fn) => fn(NO_SPAN),
  open: () => NO_OPEN_SPAN,
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
  const { sdkTracing } = await loadFeature('traces', () => import('./otel.js'));
  return sdkTracing(env, version);
}
