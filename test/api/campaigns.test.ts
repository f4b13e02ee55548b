import { describe, expect, it } from 'vitest';
import { DEMO, envelope, onlyError, PARTNER, useServer } from '../support/helpers.js';

const CAMPAIGN = '01KEAQ8JB0DEM0CAMPA1GN0001';
const DEMO_GROUP = '0a0a0a0a-0000-4000-8000-000000000601';
const PARTNER_GROUP = '0a0a0a0a-0000-4000-8000-000000000602';

describe('CSP campaigns', () => {
  const server = useServer();

  it('the owner lists and gets its campaign with every field and associations', async () => {
    const list = await server().call('GET', '/api/v1/campaigns');
    expect(list.body.count).toBe(1);
    const res = await server().call('GET', `/api/v1/campaigns/${CAMPAIGN}`);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('csp_campaign');
    expect(res.body.data).toMatchObject({
      id: CAMPAIGN,
      shared: 'OWNED',
      tcr_status: 'ACTIVE',
      tcr_campaign_id: 'CDEMO01',
      dca_approved: true,
    });
    expect(res.body.data.sample_messages.length).toBeLessThanOrEqual(5);
    expect(res.body.data.attributes).toMatchObject({ has_subscriber_opt_out: true });
    expect(res.body.associations).toEqual({
      brand: { id: '0a0a0a0a-0000-4000-8000-000000000701', tcr_brand_id: 'BDEMO01' },
      shared_resource_group: null,
    });
  });

  it('shared NO is read as OWNED', async () => {
    await server().write(async (w) =>
      w.campaigns.update((await w.campaigns.get(CAMPAIGN))!, (d) => (d.data.shared = 'NO')),
    );
    expect((await server().call('GET', `/api/v1/campaigns/${CAMPAIGN}`)).body.data.shared).toBe('OWNED');
  });

  it('sharing with an account answers 200; the partner then sees the campaign as PARTNER', async () => {
    expect((await server().call('GET', `/api/v1/campaigns/${CAMPAIGN}`, { key: 'partner-admin-key' })).status).toBe(
      404,
    );
    const res = await server().call('POST', `/api/v1/campaigns/${CAMPAIGN}/share_with/accounts/${PARTNER}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ type: 'csp_campaign', data: { id: CAMPAIGN, shared: 'OWNED' } });
    const partner = await server().call('GET', `/api/v1/campaigns/${CAMPAIGN}`, { key: 'partner-admin-key' });
    expect(partner.body.data.shared).toBe('PARTNER');
    expect((await server().call('GET', '/api/v1/campaigns', { key: 'partner-admin-key' })).body.count).toBe(1);
    const again = await server().call('POST', `/api/v1/campaigns/${CAMPAIGN}/share_with/accounts/${PARTNER}`, {
      key: 'partner-admin-key',
    });
    expect(again.status).toBe(404);
  });

  it('sharing with an unknown account answers 404; with its own account invalid_parameter', async () => {
    const unknown = await server().call(
      'POST',
      `/api/v1/campaigns/${CAMPAIGN}/share_with/accounts/0a0a0a0a-0000-4000-8000-00000000beef`,
    );
    expect(onlyError(unknown)).toMatchObject({ code: 'not_found', params: { resource: { type: 'account' } } });
    const self = await server().call('POST', `/api/v1/campaigns/${CAMPAIGN}/share_with/accounts/${DEMO}`);
    expect(onlyError(self)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'account_id' } });
  });

  it('sharing through a group sets it; changing an existing group answers 409 with empty params', async () => {
    const res = await server().call(
      'POST',
      `/api/v1/campaigns/${CAMPAIGN}/share_with/shared_resource_groups/${DEMO_GROUP}`,
    );
    expect(res.status).toBe(200);
    expect(res.body.associations.shared_resource_group).toEqual({ id: DEMO_GROUP });
    expect(
      (await server().call('POST', `/api/v1/campaigns/${CAMPAIGN}/share_with/shared_resource_groups/${DEMO_GROUP}`))
        .status,
    ).toBe(200);
    await server().write((w) =>
      w.sharedResourceGroups.insert({
        account_id: DEMO,
        data: { id: '0a0a0a0a-0000-4000-8000-000000000603', name: 'second', inserted_at: '2026-01-01T00:00:00.000Z' },
      }),
    );
    const conflict = await server().call(
      'POST',
      `/api/v1/campaigns/${CAMPAIGN}/share_with/shared_resource_groups/0a0a0a0a-0000-4000-8000-000000000603`,
    );
    expect(conflict.status).toBe(409);
    expect(onlyError(conflict)).toMatchObject({ code: 'conflict.changing_shared_resource_group', params: {} });
    expect(
      (await server().call('GET', `/api/v1/campaigns/${CAMPAIGN}`)).body.associations.shared_resource_group,
    ).toEqual({ id: DEMO_GROUP });
  });

  it("another account's group is not found", async () => {
    const res = await server().call(
      'POST',
      `/api/v1/campaigns/${CAMPAIGN}/share_with/shared_resource_groups/${PARTNER_GROUP}`,
    );
    expect(res.status).toBe(404);
  });

  it('removing the group is refused while a number uses the campaign', async () => {
    await server().call('POST', `/api/v1/campaigns/${CAMPAIGN}/share_with/shared_resource_groups/${DEMO_GROUP}`);
    const useCampaign = (id: string | null) =>
      server().write(async (w) =>
        w
          .view(DEMO)
          .numbers.update((await w.view(DEMO).numbers.byNumber('+13125550100'))!, (d) => (d.campaign_id = id)),
      );
    await useCampaign(CAMPAIGN);
    const refused = await server().call('DELETE', `/api/v1/campaigns/${CAMPAIGN}/shared_resource_group`);
    expect(refused.status).toBe(422);
    expect(onlyError(refused).code).toBe('resource_in_use');
    expect((await server().call('GET', '/api/v1/numbers/+13125550100')).body.associations.campaign).toEqual({
      id: CAMPAIGN,
      tcr_campaign_id: 'CDEMO01',
    });
    await useCampaign(null);
    const ok = await server().call('DELETE', `/api/v1/campaigns/${CAMPAIGN}/shared_resource_group`);
    expect(ok.status).toBe(200);
    expect(ok.body.associations.shared_resource_group).toBeNull();
    expect((await server().call('DELETE', `/api/v1/campaigns/${CAMPAIGN}/shared_resource_group`)).status).toBe(404);
  });

  it('a campaign id that is not a ULID is invalid_parameter (404)', async () => {
    const res = await server().call('GET', '/api/v1/campaigns/0a0a0a0a-0000-4000-8000-000000000001');
    expect(res.status).toBe(404);
    expect(onlyError(res)).toMatchObject({ code: 'invalid_parameter', source: { parameter: 'campaign_id' } });
  });

  it('read-only users cannot share', async () => {
    const res = await server().call('POST', `/api/v1/campaigns/${CAMPAIGN}/share_with/accounts/${PARTNER}`, {
      key: 'demo-readonly-key',
    });
    expect(onlyError(res).params).toEqual({ action: 'share', level: 'account', resource: 'csp_campaign' });
    void envelope;
  });
});
