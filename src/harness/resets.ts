/**
 * The resets of the control API (Runtime's `reset`, `resetAccount`, `removeAccount`): the whole
 * server back to the fixtures (its sandboxes kept or not), one account back to how it began, an
 * account removed, each with its fault rules and journal entries.
 */
import type { Ids, Random } from '../deps.js';
import { COLLECTION_NAMES, type AnyRow, type DbData } from '../store/schema.js';
import type { Units } from '../engine/work.js';
import type { Clocks } from '../engine/clock.js';
import type { Coverage } from './coverage.js';
import type { Faults } from '../engine/faults.js';
import type { Journal } from './journal.js';
import { fillSandbox } from './sandboxes.js';
import type { Scheduler } from '../engine/scheduler.js';

/** The resets of the control API: the whole server, one account, an account removed (Runtime's). */
/** The resets a runtime answers the control API with (src/runtime.ts describes each). */
export interface Resets {
  reset(opts?: { keepSandboxes?: boolean }): Promise<void>;
  resetAccount(accountId: string): Promise<boolean>;
  removeAccount(accountId: string): Promise<boolean>;
}

/**
 * Keeps what the account covered before its records go, so a suite's coverage outlives its
 * sandboxes; false when there is no such account.
 */
async function keptCoverage(units: Units, coverage: Coverage, accountId: string): Promise<boolean> {
  const account = await units.run({ read: true }, (w) => w.accounts.get(accountId));
  if (account) await coverage.keep(accountId, account.sandbox_run ?? null);
  return !!account;
}

export function resets(parts: {
  units: Units;
  fixtures: () => DbData;
  faults: Faults;
  journal: Journal;
  coverage: Coverage;
  clocks: Clocks;
  scheduler: Scheduler;
  ids: Ids;
  random: Random;
}): Resets {
  const { units, fixtures, faults, journal, coverage, clocks, scheduler, ids, random } = parts;
  const keepCoverage = (accountId: string) => keptCoverage(units, coverage, accountId);
  return {
    async reset(opts = {}) {
      if (opts.keepSandboxes === false) {
        await units.run({ global: true }, (w) => w.replaceAll(fixtures()));
        await faults.clear();
        await journal.clear();
        await coverage.clear();
      } else {
        for (const a of await units.run({ read: true }, (w) => w.accounts.list()))
          if (a.sandbox_block === null) await coverage.keep(a.account_id, null);
        const kept = await units.run({ global: true }, async (w) => {
          const boxes = (await w.accounts.sandboxes()).map((a) => a.account_id);
          const state = fixtures();
          for (const id of boxes) {
            const own = await w.accountState(id);
            for (const name of COLLECTION_NAMES) (state[name] as AnyRow[]).push(...((own[name] ?? []) as AnyRow[]));
          }
          await w.replaceAll(state);
          return boxes;
        });
        for (const rule of await faults.list())
          if (!kept.includes(rule.match.account_id ?? '')) await faults.remove(rule.id);
        await journal.clear({ except: kept });
      }
      clocks.forget();
      await scheduler.rearm();
    },
    async resetAccount(accountId) {
      if (!(await keepCoverage(accountId))) return false;
      const found = await units.run({ global: true }, async (w) => {
        const account = await w.accounts.get(accountId);
        if (!account) return false;
        if (account.sandbox_block === null) {
          await w.replaceAccount(accountId, fixtures());
          return true;
        }
        const keys = account.sandbox_keys ?? undefined;
        await w.removeAccount(accountId);
        clocks.forget();
        const run = account.sandbox_run ?? undefined;
        const made = { id: accountId, name: account.data.name, block: account.sandbox_block, keys, run };
        await fillSandbox(w, { ids, random }, await clocks.of(w, accountId), made);
        return true;
      });
      if (!found) return false;
      await faults.clear(accountId);
      await journal.clear({ only: accountId });
      clocks.forget();
      await scheduler.retime(accountId);
      return true;
    },
    async removeAccount(accountId) {
      if (!(await keepCoverage(accountId))) return false;
      const found = await units.run({ global: true }, async (w) => {
        if (!(await w.accounts.get(accountId))) return false;
        await w.removeAccount(accountId);
        return true;
      });
      if (found) {
        await faults.clear(accountId);
        await journal.clear({ only: accountId });
        clocks.forget(accountId);
      }
      return found;
    },
  };
}
