import { describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/deps.js';
import { buildServer, listen } from '../../src/server.js';
import { eventually } from '../support/eventually.js';

describe('a clock in real mode', () => {
  it('runs due steps by itself, from one timer, without an advance', async () => {
    const { app, runtime } = await buildServer({
      store: { memory: true },
      seed: 3,
      logger: silentLogger,
      validateResponses: true,
    });
    const server = await listen(app, 0, '127.0.0.1');
    const base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const created = await fetch(`${base}/api/v1/bulk_dip_tasks`, {
      method: 'POST',
      headers: { authorization: 'Bearer demo-standard-key', 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'bulk_dip_task',
        data: { type: 'CNAM', numbers: ['+13125550100'], reference_id: 'real' },
      }),
    }).then((r) => r.json() as Promise<{ data: { id: string } }>);
    const status = await eventually(async () => {
      const task = await runtime.store.run({ read: true }, (w) => w.bulkDipTasks.getAnyAccount(created.data.id));
      return task?.data.status !== 'NEW' && task?.data.status;
    }, 'the task to leave NEW on its own');
    await runtime.close();
    await new Promise((r) => server.close(r));
    expect(status).toBe('PROCESSING');
    expect(app.contractViolations).toEqual([]);
  });
});
