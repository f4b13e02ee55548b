import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, useServer } from '../support/helpers.js';

describe('bulk dip tasks', () => {
  const server = useServer();
  const create = (data: unknown, key = 'demo-standard-key') =>
    server().call('POST', '/api/v1/bulk_dip_tasks', { key, body: envelope('bulk_dip_task', data) });
  const task = { type: 'LRN', numbers: ['+13125550100', '14155550123'], reference_id: 'nightly-2026-03-01' };

  it('create answers 201 with status NEW and the defaults', async () => {
    const res = await create({ ...task, enhanced: true, messaging_lookup: true, enable_cdr_export: true });
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('bulk_dip_task');
    expect(res.body.data).toMatchObject({
      type: 'LRN',
      status: 'NEW',
      error_code: 'OK',
      format: 'CSV',
      enhanced: true,
      messaging_lookup: true,
      enable_cdr_export: true,
      done_at: null,
      on_done_actions: [],
      numbers: ['+13125550100', '+14155550123'],
    });
    expect(res.body.data.id).toMatch(/^[0-7][0-9A-HJKMNP-TV-Z]{25}$/);
  });

  it('type, format and numbers are checked; a bad number is pointed at by index', async () => {
    expectInvalid(await create({ ...task, type: 'HLR' }), '/data/type', 422);
    expectInvalid(await create({ ...task, format: 'XLSX' }), '/data/format', 422);
    expectInvalid(
      await create({ ...task, numbers: ['+13125550100', '+13125550101', 'call me'] }),
      '/data/numbers/2',
      422,
    );
    expect((await create({ ...task, numbers: [], reference_id: 'empty' })).status).toBe(201);
  });

  it('numbers and reference_id are optional (no ! in the spec): a task without them completes with an empty result', async () => {
    const made = await create({ type: 'LRN' });
    expect(made.status).toBe(201);
    expect(made.body.data).toMatchObject({ numbers: [], reference_id: null, status: 'NEW' });
    expect((await create({ type: 'LRN' })).status).toBe(201);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT10M' } });
    const done = await server().call('GET', `/api/v1/bulk_dip_tasks/${made.body.data.id}`, {
      key: 'demo-standard-key',
    });
    expect(done.body.data).toMatchObject({ status: 'COMPLETED', error_code: 'OK' });
  });

  it('reference_id is 1..255 and unique in the account', async () => {
    expectInvalid(await create({ ...task, reference_id: '' }), '/data/reference_id', 422);
    expectInvalid(await create({ ...task, reference_id: 'r'.repeat(256) }), '/data/reference_id', 422);
    await create(task);
    expectInvalid(await create(task), '/data/reference_id', 422);
    expect((await create(task, 'partner-admin-key')).status).toBe(201);
  });

  // spec: "`enhanced` Boolean For `LRN`: enhanced lookup" describes LRN; it forbids nothing for the others
  it('enhanced and messaging_lookup on a CNAM or MCL task are accepted and change nothing', async () => {
    const cnam = await create({ ...task, type: 'CNAM', enhanced: true, reference_id: 'cnam' });
    expect(cnam.status).toBe(201);
    expect((await create({ ...task, type: 'MCL', messaging_lookup: true, reference_id: 'mcl' })).status).toBe(201);
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    const file = await server().files.get(`result-${cnam.body.data.id}`);
    expect(file?.toString().split('\r\n')[0]).toBe('number,caller_name');
  });

  it('more than 20,000 numbers are refused; 20,000 are accepted', async () => {
    const numbers = Array.from({ length: 20_001 }, (_, i) => `+1312${String(2000000 + i).padStart(7, '0')}`);
    expectInvalid(await create({ ...task, numbers }), '/data/numbers', 422);
    const ok = await create({ ...task, numbers: numbers.slice(0, 20_000), reference_id: 'big' });
    expect(ok.status).toBe(201);
    expect(ok.body.data.numbers).toHaveLength(20_000);
  });

  it('on_done_actions are checked per protocol; status and error_code only appear in answers; secrets never', async () => {
    const http = {
      protocol: 'HTTP',
      data: 'https://results.example.com/dips',
      auth_method: 'BEARER',
      auth_secret: 'result-token-9',
    };
    const sftp = {
      protocol: 'SFTP',
      data: 'sftp://files.example.com/dips',
      auth_method: 'BASIC',
      auth_identity: 'dips',
      auth_secret: 'pw',
      archive_format: 'TAR_GZ',
      filename: 'dips.csv',
    };
    const res = await create({ ...task, on_done_actions: [http, sftp] });
    expect(res.status).toBe(201);
    expect(res.body.data.on_done_actions).toEqual([
      expect.objectContaining({
        protocol: 'HTTP',
        data: http.data,
        auth_method: 'BEARER',
        status: 'NEW',
        error_code: 'OK',
        type: 'SEND',
      }),
      expect.objectContaining({ protocol: 'SFTP', archive_format: 'TAR_GZ', filename: 'dips.csv', status: 'NEW' }),
    ]);
    expect(JSON.stringify(res.body)).not.toContain('result-token-9');
    expectInvalid(
      await create({ ...task, reference_id: 'a', on_done_actions: [{ ...http, data: 'sftp://x.example.com' }] }),
      '/data/on_done_actions/0/data',
      422,
    );
    expectInvalid(
      await create({ ...task, reference_id: 'b', on_done_actions: [http, { ...sftp, data: 'https://x.example.com' }] }),
      '/data/on_done_actions/1/data',
      422,
    );
    // credentials are not required: BASIC without an identity is accepted (the upload then fails)
    expect(
      (await create({ ...task, reference_id: 'c', on_done_actions: [{ ...sftp, auth_identity: null }] })).status,
    ).toBe(201);
    expectInvalid(
      await create({ ...task, reference_id: 'd', on_done_actions: [{ ...http, status: 'COMPLETED' }] }),
      '/data/on_done_actions/0/status',
      422,
    );
  });

  it('a task without type (no ! in the spec) is accepted NEW and ends ERROR with BAD_SOURCE_FILE', async () => {
    const res = await create({ numbers: ['+13125550100'], reference_id: 'untyped' });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({ type: null, status: 'NEW', error_code: 'OK' });
    await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
    const got = await server().call('GET', `/api/v1/bulk_dip_tasks/${res.body.data.id}`, { key: 'demo-standard-key' });
    expect(got.body.data).toMatchObject({ status: 'ERROR', error_code: 'BAD_SOURCE_FILE' });
  });

  it("list and get; another account's task is not found", async () => {
    const { id } = (await create(task)).body.data;
    expect(
      (await server().call('GET', `/api/v1/bulk_dip_tasks/${id}`, { key: 'demo-standard-key' })).body.data.id,
    ).toBe(id);
    expect((await server().call('GET', '/api/v1/bulk_dip_tasks', { key: 'demo-readonly-key' })).body.count).toBe(1);
    expect((await server().call('GET', `/api/v1/bulk_dip_tasks/${id}`, { key: 'partner-admin-key' })).status).toBe(404);
  });
});
