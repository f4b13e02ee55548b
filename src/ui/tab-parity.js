// @ts-check
// Parity: behind `dipswitch proxy --shadow`, each operation the client called, how often the real service
// and dipswitch agreed, and each difference with the decision (docs/decisions.md) behind dipswitch's answer.
import { paint } from './api.js';
import { h } from './dom.js';
import { every } from './shell.js';

/**
 * @typedef {{ field: string, real: unknown, dipswitch: unknown, times: number, decision: string | null }} Difference
 * @typedef {{ operation_id: string, calls: number, agreeing: number, differing: number, differences: Difference[] }} Operation
 */

const shown = (/** @type {unknown} */ v) => (v === undefined ? 'absent' : JSON.stringify(v));

/** Draws the report as it stands; false when there is none (no shadowing proxy in front). */
async function render() {
  const res = await fetch('/__proxy/parity');
  if (res.status === 404) {
    paint(
      'parity',
      h(
        'section',
        {},
        h('h2', {}, 'Parity'),
        h(
          'p',
          { class: 'muted' },
          'This dipswitch is not behind a shadowing proxy. Run `dipswitch proxy --upstream URL --shadow` and open its /__sim/ui to compare the real service with dipswitch, call by call.',
        ),
      ),
    );
    return false;
  }
  const report = /** @type {{ operations: Operation[], not_compared: number }} */ (await res.json());
  paint(
    'parity',
    h(
      'section',
      {},
      h('h2', {}, 'Parity: the real service and dipswitch'),
      h(
        'table',
        { id: 'parity' },
        h(
          'tr',
          {},
          ['operation', 'calls', 'agreeing', 'differing'].map((t) => h('th', {}, t)),
        ),
        report.operations.map((o) =>
          h(
            'tr',
            { class: o.differing ? 'differs' : '' },
            h('td', {}, o.operation_id),
            h('td', {}, String(o.calls)),
            h('td', {}, String(o.agreeing)),
            h('td', { class: o.differing ? 's4xx' : '' }, String(o.differing)),
          ),
        ),
      ),
      h('p', { class: 'muted' }, `Calls not compared: ${report.not_compared}.`),
      h('h3', {}, 'Differences'),
      h(
        'table',
        { id: 'parity-differences' },
        h(
          'tr',
          {},
          ['operation', 'field', 'real service', 'dipswitch', 'calls', 'decision'].map((t) => h('th', {}, t)),
        ),
        report.operations.flatMap((o) =>
          o.differences.map((d) =>
            h(
              'tr',
              {},
              h('td', {}, o.operation_id),
              h('td', {}, d.field),
              h('td', { class: 'wrap' }, shown(d.real)),
              h('td', { class: 'wrap' }, shown(d.dipswitch)),
              h('td', {}, String(d.times)),
              h('td', {}, d.decision ?? '—'),
            ),
          ),
        ),
      ),
    ),
  );
  return true;
}

export async function parityView() {
  if (await render()) every(2_000, render);
}
