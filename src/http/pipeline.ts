/**
 * What every stage of the pipeline works with (src/http/app.ts builds it once per app): the runtime,
 * the app's options, the two contracts' routers and validators, the handler map, and the list of
 * answers found off contract (tests).
 */
import type { ValidateFunction } from 'ajv';
import type { OpenAPIBackend } from 'openapi-backend';
import type { Runtime } from '../runtime.js';
import type { HandlerMap, SimHandlerMap } from '../handling/handler.js';
import type { ControlPort } from '../handling/control_port.js';
import type { Admission } from './admission.js';
import type { Handle } from './exchange.js';
import type { Route } from './router.js';

export interface Pipeline {
  runtime: Runtime;
  opts: AppOptions;
  v1: OpenAPIBackend;
  sim: OpenAPIBackend;
  match: (method: string, path: string) => Route | { allow: string[] } | undefined;
  handlers: HandlerMap;
  simHandlers: SimHandlerMap;
  /** What the control API's handlers may do (never the runtime itself). */
  port: ControlPort;
  /** Checks an answer against the error envelope of the API it belongs to (compiled at first use). */
  errorSchemaFor: (api: OpenAPIBackend) => ValidateFunction;
  /** Answers found off contract, when the app checks them (the test suite). */
  violations: string[];
  /** The core itself (src/http/app.ts): what a control call makes of this server in the process. */
  handle: Handle;
  /** Fair admission of the calls of each account (src/http/admission.ts). */
  admission: Admission;
}

/** What an app is made with, besides its runtime (createApp in src/http/app.ts). */
export interface AppOptions {
  /** Check every answer against the contract and fail loudly on a mismatch (the test suite sets it). */
  validateResponses?: boolean;
  /**
   * When set, the control API's own authority: a /__sim call that acts without an account's key, or
   * on the whole server, needs the header X-Sim-Admin-Token with this value (contract/sim.yaml).
   */
  simAdminToken?: string;
  /** With an admin token set, sandboxes may still be made without it (`--open-sandboxes`). */
  openSandboxes?: boolean;
  /** Calls a second of one account, past which 429 `rate_limited` (`--account-rate`; none by default). */
  accountRate?: number;
  /** A trace viewer's page of one trace, `{trace_id}` in it (`--trace-viewer`): the dashboard links each trace there. */
  traceViewer?: string;
  /** Replaces the handler map (tests of the pipeline itself). */
  handlers?: HandlerMap;
  /**
   * CORS for browser front ends (on unless `false`): preflights are answered before the pipeline,
   * and every answer echoes the caller's `Origin`, as Prism's mock does.
   */
  cors?: boolean;
}
