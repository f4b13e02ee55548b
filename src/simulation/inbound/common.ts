/** What inbound SMS and calls share: the number they arrive at, and the trace of what happened. */
import { toE164 } from '../../domain/addresses.js';
import { invalidField } from '../../domain/errors.js';
import type { NumberRow } from '../../domain/rows.js';
import type { AccountView } from '../../store/store.js';

export interface TraceStep {
  step: string;
  detail: string;
  [more: string]: unknown;
}

export async function findNumber(view: AccountView, to: string): Promise<NumberRow> {
  const number = await view.numbers.byNumber(toE164(to));
  if (!number) throw invalidField('/to', `${toE164(to)} is not a number of this account.`);
  return number;
}
