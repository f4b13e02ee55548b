/**
 * The control API under /__sim (interface.md section 7): not part of the simulated service.
 * This first slice: health, reset to the fixtures, and the list of accounts with their keys.
 */
import { Router, type NextFunction, type Request, type Response } from 'express';
import type { Deps } from '../deps.js';
import { fixtureState } from '../store/fixtures.js';

export interface ControlOptions {
  adminToken?: string;
}

export function controlRouter(deps: Deps, opts: ControlOptions): Router {
  const router = Router();
  const initial = fixtureState();

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (opts.adminToken && req.header('x-sim-admin-token') !== opts.adminToken) {
      res.status(403).json({ errors: [{ code: 'access_denied.unauthenticated', title: 'Access denied', sub_code: 'missing_key', detail: 'The control API needs the header X-Sim-Admin-Token.' }] });
      return;
    }
    next();
  });

  router.get('/health', (_req, res) => {
    res.json({ status: 'ok' });
  });

  router.post('/reset', async (_req, res) => {
    await deps.store.replace(initial);
    res.json({ status: 'reset', accounts: deps.store.accounts.list().length });
  });

  router.get('/accounts', (_req, res) => {
    const { store } = deps;
    res.json({
      accounts: store.accounts.list().map((a) => ({
        id: a.id,
        name: a.name,
        keys: store.apiKeys.filter((k) => k.account_id === a.id).map((k) => {
          const user = k.user_id ? store.users.getAnyAccount(k.user_id) : undefined;
          return { id: k.data.id, key: k.data.key, name: k.data.name, kind: user ? 'impersonated' : 'standard', role: user?.role ?? null, active: k.data.active };
        }),
      })),
    });
  });

  router.use((req: Request, res: Response) => {
    res.status(404).json({ errors: [{ code: 'not_found', title: 'Not found', sub_code: 'none', detail: `Nothing at ${req.method} /__sim${req.path}.` }] });
  });

  return router;
}
