/** Every operation dipswitch simulates, keyed by operationId; the rest answer 501 `not_implemented`. */
import type { HandlerMap } from '../http/handler.js';
import { apiKeyHandlers } from './api_keys.js';
import { metaHandlers } from './meta.js';
import { secretKeyHandlers } from './secret_keys.js';
import { userHandlers } from './users.js';

export const handlers: HandlerMap = {
  ...metaHandlers,
  ...apiKeyHandlers,
  ...secretKeyHandlers,
  ...userHandlers,
};
