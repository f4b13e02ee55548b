/**
 * What every stage of the pipeline works with (src/http/app.ts builds it once per app): the runtime,
 * the app's options, the two contracts' routers and validators, the handler map, and the list of
 * answers found off contract (tests).
 */
import type { ValidateFunction } from 'ajv';
import type { OpenAPIBackend } from 'openapi-backend';
import type { Runtime } from '../runtime.js';
import type { AppOptions } from './app.js';
import type { HandlerMap, ReadsAhead } from './handler.js';
import type { Route } from './router.js';

export interface Pipeline {
  runtime: Runtime;
  opts: AppOptions;
  v1: OpenAPIBackend;
  sim: OpenAPIBackend;
  match: (method: string, path: string) => Route | { allow: string[] } | undefined;
  handlers: HandlerMap;
  readsAhead: ReadsAhead;
  /** Checks an answer against the error envelope of the API it belongs to (compiled at first use). */
  errorSchemaFor: (api: OpenAPIBackend) => ValidateFunction;
  /** Answers found off contract, when the app checks them (the test suite). */
  violations: string[];
}
