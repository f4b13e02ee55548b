/** The contract itself, served at GET /api/v1/openapi (JSON, or YAML with `?format=yaml`). */
import { loadContract } from '../contract.js';
import type { HandlerMap } from '../handling/handler.js';

export const metaHandlers = {
  getOpenapi: async ({ query }) => {
    const contract = loadContract();
    return query.format === 'yaml'
      ? { status: 200, body: contract.yamlText(), contentType: 'application/yaml' }
      : { status: 200, body: contract.document };
  },
} satisfies HandlerMap;
