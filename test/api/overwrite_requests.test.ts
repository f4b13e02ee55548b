import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, onlyError, useServer } from '../support/helpers.js';

describe('OSR overwrite requests', () => {
  const server = useServer();
  const review = (id: string, review_status: string, key?: string) =>
    server().call('POST', `/api/v1/osr/overwrite_requests/${id}/review`, {
      key,
      body: envelope('osr_overwrite_request', { review_status }),
    });

  it('the Demo account has pending requests, listed newest first with their associations', async () => {
    const res = await server().call('GET', '/api/v1/osr/overwrite_requests');
    expect(res.body.count).toBe(3);
    const dates = res.body.results.map((r: any) => r.data.inserted_at);
    expect(dates).toEqual([...dates].sort().reverse());
    const first = res.body.results[0];
    expect(first.data).toMatchObject({ status: 'NEW', review_status: 'NONE', error_code: 'OK', is_stale: false });
    expect(first.associations).toEqual({
      did: { id: expect.any(String), number: first.data.tn },
      new_nnid_entry: { service_provider: expect.any(String) },
      reviewed_user: null,
    });
    expect(
      (await server().call('GET', '/api/v1/osr/overwrite_requests', { key: 'partner-admin-key' })).body.count,
    ).toBe(0);
  });

  it('review sets review_status, status and the reviewing user', async () => {
    const id = '01KEB0R5R0VERWR1TE00000001';
    const res = await review(id, 'APPROVED');
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, review_status: 'APPROVED', status: 'APPROVED' });
    expect(res.body.associations.reviewed_user).toEqual({
      id: '0a0a0a0a-0000-4000-8000-000000000101',
      first_name: 'Maria',
      last_name: 'Gonzalez',
    });
    expect((await review('01KEB0R5R0VERWR1TE00000002', 'FORCE_DELETED', 'demo-operator-key')).body.data).toMatchObject({
      review_status: 'FORCE_DELETED',
      status: 'DELETED',
    });
    expect((await review('01KEB0R5R0VERWR1TE00000003', 'REJECTED')).body.data.status).toBe('REJECTED');
  });

  it('reviewing an already reviewed request is a no-op (204) that changes nothing', async () => {
    const id = '01KEB0R5R0VERWR1TE00000001';
    const first = (await review(id, 'APPROVED')).body;
    const again = await review(id, 'REJECTED');
    expect(again.status).toBe(204);
    expect((await server().call('GET', `/api/v1/osr/overwrite_requests/${id}`)).body).toEqual(first);
  });

  it("NONE and the AUTO_ statuses are not the caller's to set", async () => {
    for (const s of ['NONE', 'AUTO_APPROVED', 'AUTO_REJECTED'])
      expectInvalid(await review('01KEB0R5R0VERWR1TE00000001', s), '/data/review_status');
  });

  it('read-only cannot review; another account gets 404', async () => {
    expect(onlyError(await review('01KEB0R5R0VERWR1TE00000001', 'APPROVED', 'demo-readonly-key')).params.action).toBe(
      'review',
    );
    expect((await review('01KEB0R5R0VERWR1TE00000001', 'APPROVED', 'partner-admin-key')).status).toBe(404);
    expect(
      (
        await server().call('GET', '/api/v1/osr/overwrite_requests/01KEB0R5R0VERWR1TE00000001', {
          key: 'partner-admin-key',
        })
      ).status,
    ).toBe(404);
  });
});
