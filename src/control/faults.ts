/**
 * Control API (contract/sim.yaml): faults: rules that change answers and deliveries on purpose
 * (interface.md section 7). A rule made with an account's key is that account's alone; one made
 * with the control API's authority matches every account. A rule that could never fire is refused.
 */
import { loadContract } from '../contract.js';
import { assertNoViolations, invalidField, notFound } from '../domain/errors.js';
import { ruleProblems, type RoutedOperation } from '../domain/fault_rules.js';
import type { SimHandlerMap } from '../handling/handler.js';

let routed: RoutedOperation[] | undefined;

/** The operations of the simulated API a rule can name (the control API's own calls meet no fault). */
const apiOperations = (): RoutedOperation[] =>
  (routed ??= [...loadContract().operations.values()].map(({ operationId, method, path }) => ({
    operationId,
    method,
    path,
  })));

export const faultHandlers = {
  simAddFault: async ({ port, read, body, own }) => {
    const match = { ...body.match };
    if (own !== undefined) {
      // a key's rule is its account's: it can neither reach another account nor every one
      if (match.account_id !== undefined && match.account_id !== own)
        throw invalidField(
          '/match/account_id',
          "A rule made with an account's key matches that account only; name no other (or use the admin authority).",
        );
      match.account_id = own;
    } else if (match.account_id !== undefined) {
      const id = match.account_id;
      if (!(await read((w) => w.accounts.get(id))))
        throw invalidField('/match/account_id', `No account has the id ${id}.`);
    }
    assertNoViolations(ruleProblems(body.match, body.effect, apiOperations()));
    const rule = await port.faults.add({
      id: port.ids.uuid(),
      match,
      effect: body.effect,
      times: body.times ?? null,
      probability: body.probability ?? null,
      scope: own === undefined ? 'all' : 'account',
    });
    // a rule of the whole server that names no account reaches every team's calls: said, not hidden
    const reach =
      own === undefined && match.account_id === undefined
        ? {
            warning:
              "This rule matches every account's calls and deliveries, every sandbox included: narrow it with match.account_id, or make it with the account's key.",
          }
        : {};
    return { status: 201, body: { ...rule, ...reach } };
  },

  simListFaults: async ({ port, own }) => ({ status: 200, body: { faults: await port.faults.list(own) } }),

  simGetFault: async ({ port, params, own }) => {
    const rule = (await port.faults.list(own)).find((r) => r.id === params.id);
    if (!rule) throw notFound('fault', params.id);
    return { status: 200, body: rule };
  },

  simDeleteFault: async ({ port, params, own }) => {
    const rule = await port.faults.remove(params.id, own);
    if (!rule) throw notFound('fault', params.id);
    return { status: 200, body: rule };
  },
} satisfies Partial<SimHandlerMap>;
