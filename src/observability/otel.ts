/**
 * Tracing with OpenTelemetry's SDK (loaded by tracing.ts only when the `OTEL_*` variables ask for
 * traces). The SDK reads its own settings from the environment: the exporters' endpoints, headers and
 * timeouts (`OTEL_EXPORTER_OTLP_*`), the sampler (`OTEL_TRACES_SAMPLER`, `…_ARG`), the batch processor
 * (`OTEL_BSP_*`) and the resource (`OTEL_SERVICE_NAME`, `OTEL_RESOURCE_ATTRIBUTES`); this file picks
 * the exporters (`OTEL_TRACES_EXPORTER`, `OTEL_EXPORTER_OTLP_[TRACES_]PROTOCOL`). One provider serves the
 * process (OpenTelemetry's API is the process's): every server of the process shares it.
 */
import {
  context,
  createContextKey,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Link,
  type Span as OtelSpan,
  type SpanContext,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, ConsoleSpanExporter, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import {
  TracingRefused,
  type Attributes,
  type Span,
  type SpanKind as Kind,
  type Tracing,
  type WorkSpan,
} from './spans.js';

/** What the work running now was caused by: the call, or the step's own cause (the context's value). */
const CAUSE = createContextKey('dipswitch.cause');

const KINDS: Record<Kind, SpanKind> = {
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  internal: SpanKind.INTERNAL,
};

/** The exporters `OTEL_TRACES_EXPORTER` names (otlp by default), each by its protocol. */
function exportersOf(env: Record<string, string | undefined>): SpanExporter[] {
  const names = (env.OTEL_TRACES_EXPORTER?.trim() || 'otlp').split(',').map((n) => n.trim().toLowerCase());
  return names.map((name) => {
    if (name === 'console') return new ConsoleSpanExporter();
    if (name !== 'otlp')
      throw new TracingRefused(`OTEL_TRACES_EXPORTER=${name}: dipswitch exports traces by otlp or console (or none)`);
    const protocol = (
      env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL?.trim() ||
      env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() ||
      'http/protobuf'
    ).toLowerCase();
    if (protocol === 'http/protobuf') return new ProtobufExporter();
    if (protocol === 'http/json') return new JsonExporter();
    throw new TracingRefused(`OTLP protocol ${protocol}: dipswitch exports traces over http/protobuf or http/json`);
  });
}

const propagator = new W3CTraceContextPropagator();

/** A span context as a `traceparent` header. */
function traceparentOf(c: SpanContext): string {
  return `00-${c.traceId}-${c.spanId}-${c.traceFlags & 1 ? '01' : '00'}`;
}

/** The span context a kept `traceparent` names (undefined: none, or not one). */
function contextOf(traceparent: string | null): SpanContext | undefined {
  if (!traceparent) return undefined;
  return trace.getSpanContext(propagator.extract(ROOT_CONTEXT, { traceparent }, defaultTextMapGetter));
}

function spanOf(span: OtelSpan): Span {
  const c = span.spanContext();
  return {
    traceId: c.traceId,
    traceparent: traceparentOf(c),
    set: (attributes: Attributes) => {
      for (const [k, v] of Object.entries(attributes)) if (v !== undefined) span.setAttribute(k, v);
    },
    rename: (name: string) => span.updateName(name),
    fail: (message: string) => span.setStatus({ code: SpanStatusCode.ERROR, message }),
  };
}

/** Runs `fn` in `span`'s context, and ends the span once it settles (failed when it throws). */
async function ending<T>(span: OtelSpan, ctx: Context, fn: (span: Span) => Promise<T>): Promise<T> {
  try {
    return await context.with(ctx, () => fn(spanOf(span)));
  } catch (e) {
    span.setStatus({ code: SpanStatusCode.ERROR, message: (e as Error).message });
    throw e;
  } finally {
    span.end();
  }
}

/** The attributes that have a value. */
const defined = (attributes: Attributes) =>
  Object.fromEntries(Object.entries(attributes).filter(([, v]) => v !== undefined)) as Record<
    string,
    string | number | boolean
  >;

let provider: NodeTracerProvider | undefined;

/** The process's provider, made and registered at the first server's start. */
function providerOf(env: Record<string, string | undefined>, version: string): NodeTracerProvider {
  if (provider) return provider;
  const resource = defaultResource()
    .merge(resourceFromAttributes({ 'service.name': 'dipswitch', 'service.version': version }))
    .merge(detectResources({ detectors: [envDetector] }));
  const spanProcessors = exportersOf(env).map((e) => new BatchSpanProcessor(e));
  provider = new NodeTracerProvider({ resource, spanProcessors });
  // the context manager carries a call's span across its awaits; W3C trace context is the propagator
  provider.register({ propagator });
  return provider;
}

export function sdkTracing(env: Record<string, string | undefined>, version: string): Tracing {
  const p = providerOf(env, version);
  const tracer = p.getTracer('dipswitch', version);
  return {
    on: true,
    serve(headers, fn) {
      const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
      const span = tracer.startSpan('HTTP', { kind: SpanKind.SERVER }, parent);
      const ctx = trace.setSpan(parent, span).setValue(CAUSE, traceparentOf(span.spanContext()));
      return ending(span, ctx, fn);
    },
    within(work: WorkSpan, fn) {
      const active = context.active();
      const cause = contextOf(work.cause);
      const running = trace.getSpanContext(active);
      const links: Link[] = [];
      // within the call that caused it, a child; else (later, on the clock) a trace of its own, linked
      // to its cause and to whatever fired it (an advance)
      const inCause = !cause || running?.traceId === cause.traceId;
      if (cause && !inCause) links.push({ context: cause, attributes: { 'dipswitch.link': 'cause' } });
      if (running && !inCause) links.push({ context: running, attributes: { 'dipswitch.link': 'fired_by' } });
      const parent = inCause ? active : ROOT_CONTEXT;
      const span = tracer.startSpan(
        work.name,
        { kind: KINDS[work.kind], attributes: defined(work.attributes), links },
        parent,
      );
      let ctx = trace.setSpan(parent, span);
      if (work.causes) ctx = ctx.setValue(CAUSE, work.cause ?? traceparentOf(span.spanContext()));
      return ending(span, ctx, fn);
    },
    open(work) {
      const span = tracer.startSpan(
        work.name,
        { kind: KINDS[work.kind], attributes: defined(work.attributes) },
        ROOT_CONTEXT,
      );
      const parent = trace.setSpan(ROOT_CONTEXT, span);
      return {
        ...spanOf(span),
        child(childWork, fn) {
          const cause = contextOf(childWork.cause);
          const links: Link[] = cause ? [{ context: cause, attributes: { 'dipswitch.link': 'cause' } }] : [];
          const attributes = defined(childWork.attributes);
          const child = tracer.startSpan(childWork.name, { kind: KINDS[childWork.kind], attributes, links }, parent);
          let ctx = trace.setSpan(parent, child);
          if (childWork.causes) ctx = ctx.setValue(CAUSE, traceparentOf(child.spanContext()));
          return ending(child, ctx, fn);
        },
        end: () => span.end(),
      };
    },
    cause: () => (context.active().getValue(CAUSE) as string | undefined) ?? null,
    shutdown: () => p.forceFlush(),
  };
}
