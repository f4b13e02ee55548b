import { describe, expect, it } from 'vitest';
import { envelope, onlyError, useServer } from '../support/helpers.js';

describe('users', () => {
  const server = useServer();
  const create = (data: unknown, key?: string) =>
    server().call('POST', '/api/v1/users', { body: envelope('user', data), key });
  const alice = {
    email: 'alice.moreau@demo-telecom.example',
    first_name: 'Alice',
    last_name: 'Moreau',
    title: 'Porting Specialist',
    address: { address1: '10 W Jackson Blvd', city: 'Chicago', state: 'IL', zip_code: '60604', country: 'US' },
    password: 'correct horse battery',
    password_confirmation: 'correct horse battery',
  };

  it('creating a user answers 201 with the record and never the password', async () => {
    const res = await create(alice);
    expect(res.status).toBe(201);
    expect(res.body.type).toBe('user');
    expect(res.body.data).toMatchObject({
      email: alice.email,
      first_name: 'Alice',
      last_name: 'Moreau',
      title: 'Porting Specialist',
      address: alice.address,
    });
    expect(JSON.stringify(res.body)).not.toContain('correct horse');
  });

  it('the password is stored only as a hash', async () => {
    const { id } = (await create(alice)).body.data;
    const row = (await server().read((w) => w.users.get(id)))!;
    expect(row.password_hash).toMatch(/^scrypt\$/);
    expect(JSON.stringify(row)).not.toContain('correct horse');
  });

  it('the new user gets the role of the caller', async () => {
    const byAdmin = (await create({ email: 'a@demo-telecom.example' })).body.data;
    expect((await server().read((w) => w.users.get(byAdmin.id)))!.role).toBe('admin');
  });

  it('password_confirmation must match password (422, pointer to the confirmation)', async () => {
    const res = await create({ ...alice, password_confirmation: 'something else' });
    expect(res.status).toBe(422);
    expect(onlyError(res)).toMatchObject({
      code: 'invalid_parameter',
      source: { pointer: '/data/password_confirmation' },
    });
  });

  it('bad input answers 422 with a pointer: email format, missing email, wrong types, unknown fields', async () => {
    for (const [data, pointer] of [
      [{ email: 'not-an-email' }, '/data/email'],
      [{ email: 'two..dots@demo-telecom.example' }, '/data/email'],
      [{ email: 'a@-leading-hyphen.example' }, '/data/email'],
      [{ first_name: 'NoEmail' }, '/data/email'],
      [{ email: 'b@demo-telecom.example', address: { city: 3 } }, '/data/address/city'],
      [{ email: 'b@demo-telecom.example', role: 'admin' }, '/data/role'],
      [{ email: 'b@demo-telecom.example', address: { planet: 'Mars' } }, '/data/address/planet'],
    ] as const) {
      const res = await create(data);
      expect(res.status, JSON.stringify(data)).toBe(422);
      expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { pointer } });
    }
  });

  it("email is JSON Schema's (RFC 5321 Mailbox): a one-label domain, a quoted local part and an address literal pass", async () => {
    for (const email of ['0@com', '"first last"@demo-telecom.example', 'ops@[127.0.0.1]'])
      expect((await create({ email })).status, email).toBe(201);
  });

  it('an email already used in the account is refused', async () => {
    await create(alice);
    const res = await create({ email: alice.email.toUpperCase() });
    expect(res.status).toBe(422);
    expect(onlyError(res).source.pointer).toBe('/data/email');
  });

  it('update changes the details; password is not an update field', async () => {
    const { id } = (await create(alice)).body.data;
    const res = await server().call('PATCH', `/api/v1/users/${id}`, { body: envelope('user', { title: 'Team Lead' }) });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, title: 'Team Lead', first_name: 'Alice' });
    const pw = await server().call('PATCH', `/api/v1/users/${id}`, {
      body: envelope('user', { password: 'new password!' }),
    });
    expect(pw.status).toBe(422);
    expect(onlyError(pw).source.pointer).toBe('/data/password');
  });

  it('get, list and delete (inferred operations)', async () => {
    const { id } = (await create(alice)).body.data;
    expect((await server().call('GET', `/api/v1/users/${id}`)).body.data.email).toBe(alice.email);
    const list = await server().call('GET', '/api/v1/users');
    expect(list.body.count).toBe(4);
    const del = await server().call('DELETE', `/api/v1/users/${id}`);
    expect(del.status).toBe(200);
    expect(del.body.data.id).toBe(id);
    expect((await server().call('GET', `/api/v1/users/${id}`)).status).toBe(404);
  });

  it('deleting a user removes its impersonated keys; a user cannot delete itself', async () => {
    const operatorUser = '0a0a0a0a-0000-4000-8000-000000000102';
    expect((await server().call('DELETE', `/api/v1/users/${operatorUser}`)).status).toBe(200);
    const denied = await server().call('GET', '/api/v1/users', { key: 'demo-operator-key' });
    expect(onlyError(denied)).toMatchObject({ code: 'access_denied.unauthenticated', sub_code: 'unknown_key' });
    const self = await server().call('DELETE', '/api/v1/users/0a0a0a0a-0000-4000-8000-000000000101');
    expect(self.status).toBe(422);
  });

  it("another account's user answers 404 as if it did not exist", async () => {
    const res = await server().call('GET', '/api/v1/users/0a0a0a0a-0000-4000-8000-000000000201');
    expect(res.status).toBe(404);
    expect(onlyError(res).code).toBe('not_found');
  });

  it('only the admin may create users', async () => {
    expect((await create({ email: 'c@demo-telecom.example' }, 'demo-operator-key')).status).toBe(403);
    expect((await create({ email: 'c@demo-telecom.example' }, 'demo-readonly-key')).status).toBe(403);
    expect((await create({ email: 'c@demo-telecom.example' }, 'demo-standard-key')).status).toBe(403);
  });
});
