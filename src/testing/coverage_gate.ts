/**
 * The coverage gate at the end of a suite, for a test runner's own end-of-run hook (vitest's global
 * setup teardown, a node:test runner script): reads the coverage of the suite's run (its sandboxes'
 * `run`, from `DIPSWITCH_RUN` by default), prints it in a line, and when it is under `failUnder`
 * sets the process's exit code to 1, since a throw in those hooks does not fail the run.
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
  const passed = s.percent >= failUnder;
  const print = opts.print ?? ((line: string) => process.stderr.write(`${line}\n`));
  print(
    `dipswitch coverage${run ? ` of run ${run}` : ''}: ${s.answers_seen} of ${s.answers} documented answers of ${s.operations_called} operations called seen (${s.percent}%): ${passed ? 'passes' : 'FAILS'} the gate of ${failUnder}%`,
  );
  if (!passed) process.exitCode = 1;
  return { passed, coverage };
}

/** The gate: the one given, else `DIPSWITCH_FAIL_UNDER`; a percentage from 0 to 100, or a usage error (RangeError). */
export function gateOf(given: number | undefined): number {
  const said = process.env.DIPSWITCH_FAIL_UNDER;
  const gate = given ?? (said ? Number(said) : undefined);
  if (gate === undefined)
    throw new RangeError('dipswitch: no coverage gate: give failUnder or set DIPSWITCH_FAIL_UNDER');
  if (!Number.isFinite(gate) || gate < 0 || gate > 100)
    throw new RangeError(`dipswitch: a coverage gate is a percentage from 0 to 100, not ${given ?? said}`);
  return gate;
}
