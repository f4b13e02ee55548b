/** Every operation dipswitch simulates, keyed by operationId; any without a handler answers 501 `not_implemented`. */
import type { HandlerMap } from '../handling/handler.js';
import { apiKeyHandlers } from './api_keys.js';
import { autoResponseHandlers } from './auto_responses.js';
import { bulkDipTaskHandlers } from './bulk_dip_tasks.js';
import { callDataWebhookHandlers } from './call_data_webhooks.js';
import { campaignHandlers } from './campaigns.js';
import { cartHandlers } from './carts.js';
import { destinationHandlers } from './destinations.js';
import { documentHandlers } from './documents.js';
import { eventSubscriptionHandlers } from './event_subscriptions.js';
import { metaHandlers } from './meta.js';
import { numberHandlers } from './numbers.js';
import { optoutItemHandlers } from './optout_items.js';
import { overwriteRequestHandlers } from './overwrite_requests.js';
import { requestHandlers } from './requests.js';
import { secretKeyHandlers } from './secret_keys.js';
import { switchHandlers } from './switches.js';
import { userHandlers } from './users.js';

export const handlers: HandlerMap = {
  ...metaHandlers,
  ...apiKeyHandlers,
  ...secretKeyHandlers,
  ...userHandlers,
  ...switchHandlers,
  ...numberHandlers,
  ...autoResponseHandlers,
  ...optoutItemHandlers,
  ...destinationHandlers,
  ...cartHandlers,
  ...requestHandlers,
  ...documentHandlers,
  ...campaignHandlers,
  ...bulkDipTaskHandlers,
  ...callDataWebhookHandlers,
  ...eventSubscriptionHandlers,
  ...overwriteRequestHandlers,
};
