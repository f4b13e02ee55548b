import { describe, expect, it } from 'vitest';
import { envelope, expectInvalid, onlyError, useServer } from '../support/helpers.js';

/** A small binary file that looks like a PDF, every byte value in it. */
const pdf = (size = 3000): Uint8Array<ArrayBuffer> => {
  const bytes = new Uint8Array(size);
  bytes.set(new TextEncoder().encode('%PDF-1.7\n'));
  for (let i = 9; i < size; i++) bytes[i] = (i * 31) % 256;
  return bytes;
};

function form(parts: {
  file?: Uint8Array<ArrayBuffer>;
  type?: string;
  name?: string;
  filename?: string;
  notes?: string;
  file_hint?: string;
}): FormData {
  const f = new FormData();
  if (parts.file) f.append('file', new Blob([parts.file], { type: parts.type ?? 'application/pdf' }), 'loa-signed.pdf');
  for (const k of ['name', 'filename', 'notes', 'file_hint'] as const)
    if (parts[k] !== undefined) f.append(k, parts[k]!);
  return f;
}

describe('request documents', () => {
  const server = useServer();

  async function cartRequest(): Promise<{ cartId: string; requestId: string; path: string }> {
    const cartId = (
      await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'with documents' }) })
    ).body.data.id;
    const requestId = (
      await server().call('POST', `/api/v1/carts/${cartId}/requests`, {
        body: envelope('request', { type: 'REMOVE_NUMBERS', data: { numbers: ['+13125550109'] } }),
      })
    ).body.data.id;
    return { cartId, requestId, path: `/api/v1/carts/${cartId}/requests/${requestId}/documents` };
  }

  it('a real multipart upload answers 201 with the record; the file is stored beside it', async () => {
    const { path } = await cartRequest();
    const bytes = pdf();
    const res = await server().call('POST', path, {
      form: form({
        file: bytes,
        name: 'Letter of authorization',
        filename: 'loa.pdf',
        notes: 'signed by the CFO',
        file_hint: 'DEFAULT',
      }),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.type).toBe('request_document');
    expect(res.body.data).toMatchObject({
      name: 'Letter of authorization',
      filename: 'loa.pdf',
      content_type: 'application/pdf',
      notes: 'signed by the CFO',
    });
    expect(Date.parse(res.body.data.expires_at)).toBeGreaterThan(Date.parse(res.body.data.inserted_at));
    const stored = await server().files.get(res.body.data.id);
    expect(Buffer.compare(stored!, Buffer.from(bytes))).toBe(0);
    const got = await server().call('GET', `${path}/${res.body.data.id}`);
    expect(got.body).toEqual(res.body);
    expect((await server().call('GET', path)).body.count).toBe(1);
  });

  it("filename defaults to the file part's own name", async () => {
    const { path } = await cartRequest();
    const res = await server().call('POST', path, { form: form({ file: pdf(), name: 'bill', type: 'image/png' }) });
    expect(res.body.data).toMatchObject({ filename: 'loa-signed.pdf', content_type: 'image/png' });
  });

  it('a missing file or an empty or duplicate name is invalid_parameter 422', async () => {
    const { path } = await cartRequest();
    expectInvalid(await server().call('POST', path, { form: form({ name: 'no file' }) }), '/file', 422);
    expectInvalid(await server().call('POST', path, { form: form({ file: pdf(), name: '' }) }), '/name', 422);
    expectInvalid(await server().call('POST', path, { form: form({ file: pdf() }) }), '/name', 422);
    expectInvalid(
      await server().call('POST', path, { form: form({ file: pdf(), name: 'n'.repeat(129) }) }),
      '/name',
      422,
    );
    await server().call('POST', path, { form: form({ file: pdf(), name: 'LOA' }) });
    expectInvalid(await server().call('POST', path, { form: form({ file: pdf(), name: 'LOA' }) }), '/name', 422);
    expectInvalid(
      await server().call('POST', path, { raw: '{"name":"x"}', headers: { 'content-type': 'application/json' } }),
      '/',
      422,
    );
  });

  it('files up to 8 MB are accepted; larger answer 413 and store nothing', async () => {
    const { path } = await cartRequest();
    expect(
      (await server().call('POST', path, { form: form({ file: pdf(5 * 1024 * 1024), name: 'five' }) })).status,
    ).toBe(201);
    const big = await server().call('POST', path, { form: form({ file: pdf(9 * 1024 * 1024), name: 'nine' }) });
    expect(big.status).toBe(413);
    expect(onlyError(big).code).toBe('payload_too_large');
    expect((await server().call('GET', path)).body.count).toBe(1);
    expect(await server().files.count()).toBe(1);
  });

  it('delete removes the record and its file; a purge leaves no orphan file', async () => {
    const { cartId, path } = await cartRequest();
    const a = (await server().call('POST', path, { form: form({ file: pdf(), name: 'a' }) })).body.data;
    await server().call('POST', path, { form: form({ file: pdf(), name: 'b' }) });
    const files = server().files;
    expect(await files.count()).toBe(2);
    expect((await server().call('DELETE', `${path}/${a.id}`)).status).toBe(200);
    expect(await files.count()).toBe(1);
    expect((await server().call('GET', `${path}/${a.id}`)).status).toBe(404);
    await server().call('DELETE', `/api/v1/carts/${cartId}?purge=true`);
    expect(await files.count()).toBe(0);
    expect((await server().state()).documents).toHaveLength(0);
  });

  it('after checkout, documents go through the submitted request while it is NEW, MANUAL, REVIEW, AUTHOR_REVIEW or ERROR', async () => {
    const { cartId, requestId, path } = await cartRequest();
    await server().call('POST', `/api/v1/carts/${cartId}/checkout`);
    const viaCart = await server().call('POST', path, { form: form({ file: pdf(), name: 'late' }) });
    expect(onlyError(viaCart).code).toBe('cart_checked_out');
    const submitted = `/api/v1/requests/${requestId}/documents`;
    const doc = (await server().call('POST', submitted, { form: form({ file: pdf(), name: 'LOA' }) })).body.data;
    expect((await server().call('GET', `${submitted}/${doc.id}`)).body.data.name).toBe('LOA');
    const setStatus = (status: 'MANUAL' | 'REVIEW' | 'AUTHOR_REVIEW' | 'ERROR' | 'COMPLETED') =>
      server().write(async (w) =>
        w.requests.update((await w.requests.get(requestId))!, (d) => (d.data.status = status)),
      );
    for (const status of ['MANUAL', 'REVIEW', 'AUTHOR_REVIEW', 'ERROR'] as const) {
      await setStatus(status);
      expect(
        (await server().call('POST', submitted, { form: form({ file: pdf(), name: status }) })).status,
        status,
      ).toBe(201);
    }
    await setStatus('COMPLETED');
    const refused = await server().call('POST', submitted, { form: form({ file: pdf(), name: 'too late' }) });
    expect(refused.status).toBe(422);
    expect(onlyError(refused)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'request_id' } });
    expect((await server().call('DELETE', `${submitted}/${doc.id}`)).status).toBe(422);
    expect((await server().call('GET', submitted)).body.count).toBe(5);
  });

  it('another account cannot reach the documents', async () => {
    const { path } = await cartRequest();
    const res = await server().call('POST', path, { key: 'partner-admin-key', form: form({ file: pdf(), name: 'x' }) });
    expect(res.status).toBe(404);
  });
});
