/** A bulk LRN dip from creation to its result file, delivered to the client's endpoint. */
import { scenario } from '../src/testing/scenario.js';

export default scenario('bulk-dip-to-file', 'A bulk LRN dip runs and its CSV reaches the client', async (s) => {
  const endpoint = await s.receiver();
  const numbers = ['+13125550100', '+14155550123', '+18885550100'];
  const now = (await s.api('GET', '/__sim/clock', { key: null })).body.now as string;
  const created = await s.api('POST', '/api/v1/bulk_dip_tasks', {
    key: 'demo-standard-key',
    body: {
      type: 'bulk_dip_task',
      data: {
        type: 'LRN',
        numbers,
        reference_id: `scenario-dip-${now}`,
        on_done_actions: [
          { protocol: 'HTTP', data: `${endpoint.url}/dips`, auth_method: 'BEARER', auth_secret: 'scenario-token' },
        ],
      },
    },
  });
  s.expect(created.status === 201 && created.body.data.status === 'NEW', 'the task is created with status NEW');
  const id = created.body.data.id as string;
  await s.advance('PT1M');
  const task = (await s.api('GET', `/api/v1/bulk_dip_tasks/${id}`, { key: 'demo-standard-key' })).body.data;
  s.expect(task.status === 'COMPLETED' && task.done_at !== null, 'the task is COMPLETED with done_at set');
  s.expect(task.on_done_actions[0].status === 'COMPLETED', 'its on-done action is COMPLETED');
  const file = endpoint.received.find((r) => r.path === '/dips');
  s.expect(
    file?.headers.authorization === 'Bearer scenario-token',
    "the endpoint got the file with the action's bearer token",
  );
  const lines = file?.text.trim().split('\r\n') ?? [];
  s.expect(
    lines[0]?.startsWith('number,lrn,') === true && lines.length === numbers.length + 1,
    'the CSV has a header row and a row a number',
  );
});
