/** Control API (contract/sim.yaml): back to the fixtures, the accounts and their keys, sandboxes, users suspended, shared resource groups. */
import { invalidField, notFound } from '../domain/errors.js';
import { createSandbox, type Sandbox } from '../harness/sandboxes.js';
import type { Work } from '../engine/work.js';
import type { SimHandlerMap } from '../handling/handler.js';
import type { ControlPort } from '../handling/control_port.js';

/** A fresh account with its keys, numbers and clock (`POST /__sim/accounts`, and the library's `sandbox()`). */
export async function newSandbox(port: ControlPort, name: string | undefined, run?: string): Promise<Sandbox> {
  const id = port.ids.uuid();
  // whole-state work, so that parallel creates cannot pass the limit together
  return port.run({ global: true }, async (w) =>
    createSandbox(w, port.sources, await port.clocks.of(w, id), id, name, port.limits.sandboxes, run),
  );
}

/** Suspends or reinstates a user of the account (spec: a suspended user keeps informational services). */
async function setSuspended(w: Work, id: string, suspended: boolean) {
  const row = await w.users.get(id);
  if (!row) throw notFound('user', id);
  const user = await w.users.update(row, (d) => {
    d.suspended = suspended;
    d.data.updated_at = w.clock.iso();
  });
  return { status: 200 as const, body: { data: user.data, type: 'user' } };
}

export const accountHandlers = {
  simReset: async ({ port, read, own, body }) => {
    if (own !== undefined) await port.resetAccount(own);
    else {
      const remove = body?.remove_sandboxes === true || body?.keep_sandboxes === false;
      if (
        body?.remove_sandboxes !== undefined &&
        body.keep_sandboxes !== undefined &&
        body.remove_sandboxes === body.keep_sandboxes
      )
        throw invalidField('/keep_sandboxes', 'remove_sandboxes and keep_sandboxes say opposite things: give one.');
      // the sandboxes other tests hold are kept unless their removal is asked for
      await port.reset({ keepSandboxes: !remove });
    }
    const accounts = await read((w) => w.accounts.count());
    return {
      status: 200,
      body:
        own === undefined
          ? { status: 'reset', scope: 'all', accounts }
          : { status: 'reset', scope: 'account', account_id: own, accounts },
    };
  },

  simAccounts: async ({ read }) => ({
    status: 200,
    body: {
      accounts: await read(async (w) => {
        const out = [];
        for (const a of await w.accounts.list()) {
          const keys = [];
          for (const k of await w.view(a.data.id).apiKeys.list()) {
            const user = k.user_id ? await w.users.get(k.user_id) : undefined;
            keys.push({
              id: k.data.id,
              key: k.data.key,
              name: k.data.name,
              kind: user ? ('impersonated' as const) : ('standard' as const),
              role: user?.role ?? null,
              active: k.data.active,
            });
          }
          out.push({ id: a.data.id, name: a.data.name, keys });
        }
        return out;
      }),
    },
  }),

  simCreateSandbox: async ({ port, body }) => ({
    status: 201,
    body: await newSandbox(port, body?.name, body?.run),
  }),

  simDeleteAccount: async ({ port, read, params, own }) => {
    // with an account's key, only that account itself (a sandbox's test removing its sandbox)
    const account = own === undefined || own === params.id ? await read((w) => w.accounts.get(params.id)) : null;
    if (!account || !(await port.removeAccount(params.id))) throw notFound('account', params.id);
    return { status: 200, body: { id: params.id, name: account.data.name, deleted: true } };
  },

  simSuspendUser: async ({ work, params }) => setSuspended(await work(), params.id, true),

  simReinstateUser: async ({ work, params }) => setSuspended(await work(), params.id, false),

  simCreateGroup: async ({ work, body }) => {
    const w = await work();
    const group = await w.sharedResourceGroups.insert({
      data: { id: w.ids.uuid(), name: body.name, inserted_at: w.clock.iso() },
    });
    return { status: 201, body: group.data };
  },
} satisfies Partial<SimHandlerMap>;
