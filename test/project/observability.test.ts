/**
 * The trace viewer's recipe (containers/compose.traces.yaml, docs/observability.md): each service it
 * names beside the viewer is one of the hosted stack's, each variable it sets is one the page names,
 * and the viewer link is one `--trace-viewer` takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { projectRoot } from '../../src/contract.js';
import { traceViewerUrl } from '../../src/cli/values.js';

const read = (path: string) => readFileSync(join(projectRoot, path), 'utf8');

describe('the trace viewer beside the hosted stack', () => {
  it("extends the stack's services with variables docs/observability.md names", () => {
    const stack = parse(read('containers/compose.yaml')) as { services: Record<string, unknown> };
    const traces = parse(read('containers/compose.traces.yaml'), { merge: true }) as {
      services: Record<string, { environment?: Record<string, string>; image?: string }>;
    };
    const page = read('docs/observability.md');
    const instances = Object.entries(traces.services).filter(([name]) => name !== 'jaeger');
    expect(instances.map(([name]) => name).sort()).toEqual(['dipswitch-a', 'dipswitch-b']);
    for (const [name, service] of instances) {
      expect(Object.keys(stack.services), `${name} is a service of the stack`).toContain(name);
      const env = Object.entries(service.environment ?? {});
      expect(env.length).toBeGreaterThan(0);
      for (const [key, value] of env) {
        if (key.startsWith('OTEL_')) expect(page, `${key} is on the page`).toContain(`\`${key}\``);
        else expect(key).toBe('TRACE_VIEWER');
        if (key === 'TRACE_VIEWER') expect(traceViewerUrl(value.replace(/\$\{[^}]*:-(\d+)\}/, '$1'))).toBeTruthy();
      }
    }
    expect(traces.services.jaeger?.image).toMatch(/jaeger/);
  });
});
