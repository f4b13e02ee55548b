/** Every operation dipswitch simulates, keyed by operationId; any without a handler answers 501 `not_implemented`. */
import type { HandlerMap, ReadsAhead } from '../handling/handler.js';
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

/**
 * What GETs read first, told to the store with the caller's key (src/store/call.ts's Prefetch), which
 * may read it in the same round trip: a record, or the page of a list the store pages itself. A list
 * shown newest first is left to its handler. test/store/round_trips.test.ts proves each entry against
 * its handler (a wrong one costs a round trip more).
 */
export const readsAhead: ReadsAhead = {
  getApiKey: { collection: 'api_keys', param: 'id' },
  getSecretKey: { collection: 'secret_keys', param: 'id' },
  getUser: { collection: 'users', param: 'id' },
  getSwitch: { collection: 'switches', param: 'id' },
  getAutoResponse: { collection: 'auto_responses', param: 'id' },
  getCart: { collection: 'carts', param: 'id' },
  getOrder: { collection: 'orders', param: 'id' },
  getCartRequest: { collection: 'carts', param: 'cart_id' },
  getRequest: { collection: 'requests', param: 'id' },
  getBulkDipTask: { collection: 'bulk_dip_tasks', param: 'id' },
  getCallDataWebhook: { collection: 'call_data_webhooks', param: 'id' },
  getEventSubscription: { collection: 'event_subscriptions', param: 'id' },
  listApiKeys: { collection: 'api_keys', page: true },
  listSecretKeys: { collection: 'secret_keys', page: true },
  listUsers: { collection: 'users', page: true },
  listSwitches: { collection: 'switches', page: true },
  listNumbers: { collection: 'numbers', page: true },
  listAutoResponses: { collection: 'auto_responses', page: true },
  listOptoutItems: { collection: 'optout_items', page: true },
  listCarts: { collection: 'carts', page: true },
  listOrders: { collection: 'orders', page: true },
  listBulkDipTasks: { collection: 'bulk_dip_tasks', page: true },
  listCallDataWebhooks: { collection: 'call_data_webhooks', page: true },
  listEventSubscriptions: { collection: 'event_subscriptions', page: true },
};
