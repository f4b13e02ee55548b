/** Checks what dipswitch sent out against the contract's `webhooks` payload schemas. */
import { expect } from 'vitest';
import { componentValidator } from '../../src/contract.js';

export function expectConforms(
  schema:
    | 'event_delivery'
    | 'cdr_delivery'
    | 'message_delivery'
    | 'message_fields'
    | 'route_callback'
    | 'message_jsonapi_delivery',
  value: unknown,
): void {
  const validate = componentValidator(schema);
  expect(validate(value), `${schema}: ${JSON.stringify(validate.errors)} in ${JSON.stringify(value)}`).toBe(true);
}
