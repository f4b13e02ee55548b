/**
 * The coverage gate at the end of a suite, for a test runner's own end-of-run hook (vitest's global
 * setup teardown, a node:test runner script): reads the coverage of the suite's run (its sandboxes'
 * `run`, from `DIPSWITCH_RUN` by default), prints it in a line, and when it is under `failUnder`
 * sets the process's exit code to 1, since a throw in those hooks does not fail the run. With no gate
 * given and no `DIPSWITCH_FAIL_UNDER`, there is no gate: the line says so and the run passes.
 */
import type { ControlClient } from './control_client.js';
import type { components } from '../generated/sim.js';

export interface CoverageGateOptions {
  /** The least percentage of the documented answers seen that passes (0 to 100); else `DIPSWITCH_FAIL_UNDER`. */
  failUnder?: number;
  /** The run whose sandboxes count; `DIPSWITCH_RUN` of the environment by default, else the client's own scope. */
  run?: string;
  /** Where the line goes; stderr by default. */
  print?: (line: string) => void;
}

export interface CoverageVerdict {
  passed: boolean;
  coverage: components['schemas']['coverage'];
}

/** Gates the suite on its coverage: the verdict, printed; exit code 1 when under. */
export async function coverageGate(client: ControlClient, opts: CoverageGateOptions = {}): Promise<CoverageVerdict> {
  const failUnder = gateOf(opts.failUnder);
  const run = opts.run ?? (process.env.DIPSWITCH_RUN || undefined);
  const coverage = await client.coverage(run === undefined ? {} : { run });
  const s = coverage.summary;
  const passed = failUnder === undefined || s.percent >= failUnder;
  const print = opts.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  const verdict =
    failUnder === undefined
      ? 'no gate (DIPSWITCH_FAIL_UNDER is not set)'
      : `${passed ? 'passes' : 'FAILS'} the gate of ${failUnder}%`;
  print(
    `dipswitch coverage${run ? ` of run ${run}` : ''}: ${s.answers_seen} of ${s.answers} documented answers of ${s.operations_called} operations called seen (${s.percent}%): ${verdict}`,
  );
  if (!passed) process.exitCode = 1;
  return { passed, coverage };
}

/**
 * The gate: the one given, else `DIPSWITCH_FAIL_UNDER`, else none (undefined); a percentage from 0 to
 * 100, or a usage error (RangeError).
 */
export function gateOf(given: number | undefined): number | undefined {
  const said = process.env.DIPSWITCH_FAIL_UNDER;
  const gate = given ?? (said ? Number(said) : undefined);
  if (gate === undefined) return undefined;
  if (!Number.isFinite(gate) || gate < 0 || gate > 100)
    throw new RangeError(`dipswitch: a coverage gate is a percentage from 0 to 100, not ${given ?? said}`);
  return gate;
}
