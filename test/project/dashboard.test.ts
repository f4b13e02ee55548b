// The dashboard in a real headless Chromium (Debian's `chromium`, driven by playwright-core). Outside
// CI the tests are skipped, saying why, when no Chromium is installed; in CI (`CI` set) they run or fail.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page, type Route } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { projectRoot } from '../../src/contract.js';
import { startReceiver, type Receiver } from '../../src/testing/receiver.js';
import { silentLogger } from '../../src/deps.js';
import { Shadow } from '../../src/trust/shadow.js';
import { callAt, envelope, startTestServer, useServer, type TestServer, startTestProxy } from '../support/helpers.js';
import { runCli, startCli } from '../support/cli_process.js';
import { startOtlpReceiver } from '../support/otlp_receiver.js';

/** A trace viewer's page of one trace (nothing listens there: the test reads the link). */
const VIEWER = 'http://127.0.0.1:9/trace/{trace_id}';

const executable = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p): p is string => !!p && existsSync(p),
);
if (!executable) {
  if (process.env.CI) throw new Error('CI runs the dashboard tests: install Debian’s chromium (.ci/run does)');
  console.warn('dashboard tests skipped: no Chromium found (apt-get install chromium, or set CHROMIUM_PATH)');
}

const shots = join(projectRoot, 'test-results');
mkdirSync(shots, { recursive: true });

let browser: Browser;
beforeAll(async () => {
  if (executable) browser = await chromium.launch({ executablePath: executable, args: ['--no-sandbox'] });
}, 60_000);
afterAll(() => browser?.close());

/**
 * A fresh page at 1280×800. On two cores beside the suite's heaviest files (fuzzing, 200 SMPP calls to a
 * stalled bind) Chromium can be starved for tens of seconds: waits are generous, never a timing assertion.
 */
async function newPage(): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.setDefaultTimeout(90_000);
  await page.route('**/*', viaPlaywright);
  const seen: string[] = [];
  pageLog.set(page, seen);
  const at = () => new Date().toISOString().slice(11, 23);
  page.on('console', (m) => seen.push(`${at()} console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => seen.push(`${at()} page error: ${e.message}`));
  page.on('requestfailed', (r) => seen.push(`${at()} failed: ${r.method()} ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => seen.push(`${at()} ${r.status()} ${r.request().method()} ${r.url()}`));
  return page;
}

/**
 * Every request of a page but the journal's live stream is made by Playwright and handed to the page:
 * Chromium aborts requests in flight (ERR_NETWORK_CHANGED) when a network interface appears, as podman
 * makes one for each container the container tests start beside this file. The stream goes through
 * Chromium; the dashboard follows it again when it is cut.
 */
async function viaPlaywright(route: Route): Promise<void> {
  if (new URL(route.request().url()).pathname === '/__sim/requests/stream') return route.continue();
  try {
    await route.fulfill({ response: await route.fetch({ maxRedirects: 0 }) });
  } catch {
    // the page or its server closed while the request was on its way: nobody waits for it
    await route.abort().catch(() => undefined);
  }
}

/** What each page saw (its console, errors and calls), told when its test fails. */
const pageLog = new WeakMap<Page, string[]>();

/** The page's log, status line and view, for a failed test's report. */
async function whatThePageSaw(page: Page): Promise<string> {
  const text = (selector: string) =>
    page
      .locator(selector)
      .textContent({ timeout: 5_000 })
      .catch((e: Error) => `(unread: ${e.message})`);
  return [
    `url: ${page.url()}`,
    `status line: ${await text('#status')}`,
    `view: ${(await text('#view'))?.slice(0, 2_000)}`,
    ...(pageLog.get(page) ?? []),
  ].join('\n');
}

/** The dashboard of `base` in a fresh page at 1280×800. */
async function open(base: string): Promise<Page> {
  const page = await newPage();
  await page.goto(`${base}/__sim/ui`);
  return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(shots, `dashboard-${name}.png`) });

/** A cart of two new numbers checked out: its order (whose id is the cart's) is NEW. */
async function checkout(server: TestServer): Promise<string> {
  const cart = await server.call('POST', '/api/v1/carts', { body: envelope('cart', { name: 'dashboard cart' }) });
  await server.call('POST', `/api/v1/carts/${cart.body.data.id}/requests`, {
    body: envelope('request', {
      type: 'NEW_NUMBERS',
      data: { npa: '312', state: 'IL', number_type: 'TENDLC', quantity: '2' },
    }),
  });
  const order = await server.call('POST', `/api/v1/carts/${cart.body.data.id}/checkout`);
  expect(order.status).toBeLessThan(300);
  return cart.body.data.id as string;
}

describe.skipIf(!executable)('dashboard', { timeout: 240_000 }, () => {
  const server = useServer();
  let page: Page | undefined;
  afterEach(async ({ task }) => {
    if (page && task.result?.state === 'fail') {
      console.error(`dashboard: what the page saw in "${task.name}":\n${await whatThePageSaw(page)}`);
      await shot(page, 'failed').catch((e: Error) => console.error(`no screenshot: ${e.message}`));
    }
    await page?.close();
    page = undefined;
  });

  it('a client call appears live in Requests and opens to its request, answer and errors', async () => {
    page = await open(server().base);
    // "live": the journal's stream is open and what came before it is read
    await page.locator('#calls-count', { hasText: 'live' }).waitFor();
    await server().call('GET', '/api/v1/numbers');
    await server().call('POST', '/api/v1/carts', { body: envelope('cart', { name: 7 }) });
    const row = page.locator('#calls tr.call', { hasText: '/api/v1/carts' }).first();
    await row.waitFor();
    await expect(page.locator('#calls tr.call', { hasText: '/api/v1/numbers' }).count()).resolves.toBe(1);
    // who waits for their turn: nobody, with the instance's bounds
    await expect
      .poll(() => page!.locator('#admission').textContent())
      .toContain('No account waits for its turn (at most 8 calls of an account in the works, 32 in all)');
    await row.click();
    const detail = page.locator('#call-detail');
    await expect(detail.textContent()).resolves.toContain('createCart');
    await expect(detail.locator('table').textContent()).resolves.toContain('/data/name');
    await page.getByRole('button', { name: 'Copy as curl' }).click();
    await expect.poll(() => page!.locator('#curl').textContent()).toContain("curl -X POST 'http://127.0.0.1:");
    await shot(page, 'requests');
  });

  it('a call made while the live stream is still opening is shown all the same', async () => {
    page = await newPage();
    // the stream's request is held a second on its way: a call is made meanwhile
    await page.route('**/__sim/requests/stream*', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      await route.continue();
    });
    await page.goto(`${server().base}/__sim/ui`);
    await page.locator('#calls').waitFor();
    await server().call('GET', '/api/v1/numbers');
    await page.locator('#calls tr.call', { hasText: '/api/v1/numbers' }).waitFor({ timeout: 30_000 });
    await page.locator('#calls-count', { hasText: 'live' }).waitFor();
  });

  describe('deliveries', () => {
    let receiver: Receiver;
    beforeEach(async () => {
      receiver = await startReceiver();
    });
    afterEach(() => receiver.close());

    it('a checkout with an event subscription shows the delivery, its failed attempt, its retry; redeliver sends it now', async () => {
      await server().call('POST', '/api/v1/event_subscriptions', {
        body: envelope('event_subscription', { protocol: 'HTTP', data: `${receiver.url}/e`, topics: ['ORDER'] }),
      });
      await server().call('POST', '/__sim/faults', {
        key: null,
        body: { match: { url: receiver.url }, effect: { fail: true }, times: 1 },
      });
      await checkout(server());
      page = await open(server().base);
      await page.getByRole('button', { name: 'Deliveries' }).click();
      const retrying = page.locator('details.delivery', { has: page.locator('.o-retrying') }).first();
      await retrying.waitFor();
      const id = await retrying.getAttribute('data-id');
      const delivery = page.locator(`details.delivery[data-id="${id}"]`);
      await expect(delivery.locator('.next-retry').textContent()).resolves.toContain('next retry 2026-03-01 12:01:00Z');
      await delivery.locator('summary').click();
      await shot(page, 'deliveries');
      // the retry falls due a minute later on the account's clock
      await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT1M' } });
      await delivery.locator('.o-delivered').waitFor();
      await expect(delivery.locator('.attempts tr').count()).resolves.toBe(3);
      // what went out: the event's headers and body as sent
      await expect(delivery.locator('.sent-headers').textContent()).resolves.toContain(
        'content-type: application/json',
      );
      await expect(delivery.locator('.sent-body').textContent()).resolves.toContain('"type": "event"');
      await delivery.getByRole('button', { name: 'Redeliver now' }).click();
      await expect.poll(() => delivery.locator('.attempts tr').count()).toBe(4);
      expect(receiver.received.length).toBeGreaterThanOrEqual(2);
    });

    it("the timeline places an order's steps (run and waiting) and a delivery's attempts and retry on the account clock", async () => {
      await server().call('POST', '/api/v1/event_subscriptions', {
        body: envelope('event_subscription', { protocol: 'HTTP', data: `${receiver.url}/e`, topics: ['ORDER'] }),
      });
      await server().call('POST', '/__sim/faults', {
        key: null,
        body: { match: { url: receiver.url }, effect: { fail: true }, times: 1 },
      });
      const orderId = await checkout(server());
      // the order moves to PROCESSING 5 s after checkout; its completion waits 35 s more
      await server().call('POST', '/__sim/clock/advance', { key: null, body: { by: 'PT10S' } });
      page = await open(server().base);
      await page.getByRole('button', { name: 'Timeline' }).click();
      const order = page.locator(`.timeline-row[data-key="order:${orderId}"]`);
      await order.waitFor();
      await expect(order.locator('.mark.done').count()).resolves.toBe(1);
      await expect(order.locator('.mark.pending').count()).resolves.toBe(1);
      await expect(order.locator('.mark.done').getAttribute('title')).resolves.toBe(
        '2026-03-01 12:00:05Z: order NEW → PROCESSING (1 request(s))',
      );
      // the first event's delivery failed once (the fault) and waits for its retry
      const failed = page.locator('.timeline-row', { has: page.locator('.mark.failed') });
      await expect(failed.count()).resolves.toBe(1);
      await expect(failed.locator('.mark.pending').getAttribute('title')).resolves.toMatch(/: next retry$/);
      // the fixture OSRs' expiry, ten years off, is at the right edge, marked as beyond the axis
      await expect(page.locator('.mark.beyond').count()).resolves.toBe(3);
      await shot(page, 'timeline');
    });
  });

  it('“Advance 10 minutes” completes an order, and its status changes in the state browser', async () => {
    const orderId = await checkout(server());
    page = await open(server().base);
    await page.getByRole('button', { name: 'State' }).click();
    await page.locator('#resource').selectOption('orders');
    const row = page.locator('#record-table tr.record', { hasText: orderId });
    await row.waitFor();
    await expect(row.locator('.record-status').textContent()).resolves.toBe('NEW');
    await page.getByRole('button', { name: 'Clock', exact: true }).click();
    await page.locator('#steps').waitFor();
    await page.getByRole('button', { name: 'Advance 10 minutes' }).click();
    await expect.poll(() => page!.locator('#clock-now').textContent()).toBe('2026-03-01 12:10:00Z');
    await page.getByRole('button', { name: 'State' }).click();
    await page.locator('#resource').selectOption('orders');
    await expect
      .poll(() =>
        page!.locator('#record-table tr.record', { hasText: orderId }).locator('.record-status').textContent(),
      )
      .toBe('COMPLETED');
    await shot(page, 'state');
  });

  // the menu was a hand-kept list that offered GET /api/v1/destinations, which does not exist
  it('the state browser offers every list of the contract, and each one opens', async () => {
    page = await open(server().base);
    await page.getByRole('button', { name: 'State' }).click();
    await page.locator('#record-table, #records p').first().waitFor();
    const offered = await page
      .locator('#resource option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    const document = (await server().call('GET', '/api/v1/openapi')).body as {
      paths: Record<string, { get?: { operationId: string } }>;
    };
    const lists = Object.entries(document.paths)
      .filter(([path, ops]) => !path.includes('{') && ops.get?.operationId.startsWith('list'))
      .map(([path]) => path.replace('/api/v1/', ''));
    expect(offered.sort()).toEqual(lists.sort());
    for (const resource of offered) {
      await page.locator('#resource').selectOption(resource);
      await expect.poll(() => page!.locator('#records').textContent()).toMatch(/in all/);
      await expect(page.locator('#records .error').count()).resolves.toBe(0);
    }
  });

  it('a fault added through the form makes the next call fail, and counts it', async () => {
    page = await open(server().base);
    await page.getByRole('button', { name: 'Faults' }).click();
    await page.getByLabel('method', { exact: true }).fill('GET');
    await page.getByLabel('path (/api/v1/carts/{id})', { exact: true }).fill('/api/v1/carts');
    await page.getByLabel('status', { exact: true }).fill('503');
    await page.getByLabel('times', { exact: true }).fill('1');
    await page.getByRole('button', { name: 'Add rule' }).click();
    await page.locator('#faults td.fired').waitFor();
    expect((await server().call('GET', '/api/v1/carts')).status).toBe(503);
    expect((await server().call('GET', '/api/v1/carts')).status).toBe(200);
    await page.getByRole('button', { name: 'Faults' }).click();
    await expect.poll(() => page!.locator('#faults td.fired').first().textContent()).toBe('1');
    await shot(page, 'faults');
  });

  it('opened at #faults, shows a server-wide rule, marked, for every account and for a sandbox picked', async () => {
    // the failing case: with the picked account's key, the tab said "No rule" while this rule delayed every call
    const box = (await server().call('POST', '/__sim/accounts', { key: null, body: { name: 'team a' } })).body;
    const rule = await server().call('POST', '/__sim/faults', {
      key: null,
      body: { match: { any: true }, effect: { delay_ms: 1 }, times: 3 },
    });
    expect(rule.body.warning).toMatch(/every account/);
    for (let i = 0; i < 3; i++) await server().call('GET', '/api/v1/carts', { key: box.keys.admin });
    page = await newPage();
    await page.goto(`${server().base}/__sim/ui#faults`);
    const row = page.locator('#faults tr.server-wide');
    await row.waitFor();
    await expect(row.locator('td.reach').textContent()).resolves.toBe('server-wide: every account');
    await expect(row.locator('td.fired').textContent()).resolves.toBe('3');
    await page.locator('#account').selectOption({ label: `team a (${box.id.slice(0, 8)}…)` });
    await expect.poll(() => page!.locator('#faults tr.server-wide td.fired').textContent()).toBe('3');
    await expect(page.locator('#view').textContent()).resolves.not.toContain('No rule');
    await shot(page, 'faults-server-wide');
    // its fired effects are in the Coverage tab, whose link opens it directly
    await page.locator('#account').selectOption({ label: 'All accounts' });
    await page.goto(`${server().base}/__sim/ui#coverage`);
    await page.locator('#coverage').waitFor();
    await expect.poll(() => page!.locator('#coverage').textContent()).toContain('delay_ms');
  });

  it('a call with a wrong key is in Requests; the dashboard journals and covers none of its own calls', async () => {
    page = await open(server().base);
    await page.locator('#calls').waitFor();
    await fetch(`${server().base}/api/v1/numbers`, { headers: { authorization: 'Bearer not-a-key' } });
    await page.locator('#calls tr.call', { hasText: '/api/v1/numbers' }).waitFor();
    // browse: the state browser's /api/v1 calls and the tabs' /__sim calls
    await page.getByRole('button', { name: 'State' }).click();
    await page.locator('#records').waitFor();
    await page.getByRole('button', { name: 'Coverage' }).click();
    await page.locator('#coverage').waitFor();
    expect(page.url()).toMatch(/#coverage$/);
    const journal = (await server().call('GET', '/__sim/requests?api=all&limit=1000', { key: null })).body;
    const paths = journal.requests.map(
      (r: { method: string; path: string; status: number }) => `${r.method} ${r.path}`,
    );
    expect(paths).toContain('GET /api/v1/numbers');
    // no control call of the dashboard's (the journal read just now is kept after its own answer)
    expect(paths.filter((p: string) => p.includes('/__sim/'))).toEqual([]);
    expect(paths.filter((p: string) => p.startsWith('GET /api/v1/') && p !== 'GET /api/v1/numbers')).toEqual([]);
    const covered = (await server().call('GET', '/__sim/coverage', { key: null })).body;
    expect(covered.summary.operations_called).toBe(1);
  });

  it('a scenario run shows its timeline', async () => {
    page = await open(server().base);
    await page.getByRole('button', { name: 'Scenarios' }).click();
    await page.locator('button[data-scenario="cart-to-order"]').click();
    await page.locator('#timeline .s2xx', { hasText: 'passed' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#timeline tr.timeline-entry').count()).toBeGreaterThan(3);
    await shot(page, 'scenarios');
  });

  it('the Coverage tab shows the operations called with the answers seen', async () => {
    await server().call('POST', '/api/v1/carts', { body: { type: 'cart', data: { name: 'covered' } } });
    await server().call('POST', '/api/v1/carts', { body: { type: 'cart', data: { name: 'covered' } } });
    page = await open(server().base);
    await page.getByRole('button', { name: 'Coverage' }).click();
    const row = page.locator('#coverage tr', { hasText: 'createCart' });
    await row.waitFor();
    await expect(row.textContent()).resolves.toMatch(/201 ✔.*422 ✔/);
    await shot(page, 'coverage');
  });

  it('the Parity tab says how to get a report when no shadowing proxy is in front', async () => {
    page = await open(server().base);
    await page.getByRole('button', { name: 'Parity' }).click();
    await page.locator('#view', { hasText: 'not behind a shadowing proxy' }).waitFor();
  });
});

describe.skipIf(!executable)('dashboard of a shadowing proxy', () => {
  it("the shadow's Parity tab lists each operation and each difference with its decision", async () => {
    const upstream = await startTestServer();
    const shadow = await Shadow.start({ logger: silentLogger });
    const proxy = await startTestProxy(upstream.base, { shadow });
    const page = await open(shadow.url);
    try {
      const { base } = proxy;
      await upstream.call('POST', '/__sim/faults', {
        key: null,
        body: { match: { method: 'GET', path: '/api/v1/switches/not-a-switch' }, effect: { status: 422 } },
      });
      await callAt(base, 'GET', '/api/v1/numbers/+13125550100');
      await callAt(base, 'GET', '/api/v1/switches/not-a-switch');
      await shadow.idle();
      await page.getByRole('button', { name: 'Parity' }).click();
      await page.locator('#parity td', { hasText: 'getNumber' }).waitFor();
      const difference = page.locator('#parity-differences tr', { hasText: 'getSwitch' });
      await expect(difference.textContent()).resolves.toContain('Status of `invalid_parameter`');
      await shot(page, 'parity');
    } finally {
      await page.close();
      await proxy.close();
      await shadow.close();
      await upstream.close();
    }
  });
});

describe.skipIf(!executable)('dashboard behind an admin token', { timeout: 240_000 }, () => {
  let server: TestServer;
  let page: Page | undefined;
  beforeEach(async () => {
    server = await startTestServer({ simAdminToken: 'sesame' });
  });
  afterEach(async () => {
    await page?.close();
    await server.close();
  });

  it('asks for the token once, shows nothing without it, and sends it on every call', async () => {
    page = await open(server.base);
    await page.locator('#token').waitFor();
    await expect(page.locator('#view').textContent()).resolves.toBe('');
    await page.getByLabel('admin token').fill('wrong');
    await page.getByRole('button', { name: 'Use token' }).click();
    await expect.poll(() => page!.locator('#token-error').textContent()).toBe('That token was refused.');
    await page.getByLabel('admin token').fill('sesame');
    await page.getByRole('button', { name: 'Use token' }).click();
    await page.locator('#calls').waitFor();
    // every account (the server's view), then each account
    await expect(page.locator('#account option').count()).resolves.toBe(3);
    await page.getByRole('button', { name: 'Clock', exact: true }).click();
    await page.locator('#clock-now').waitFor();
  });
});

describe.skipIf(!executable)('dashboard of a traced server', { timeout: 240_000 }, () => {
  it("links a call's trace to the trace viewer --trace-viewer names", async () => {
    const otlp = await startOtlpReceiver();
    const sim = await startCli(['--memory', '--port', '0', '--no-smpp', '--trace-viewer', VIEWER], {
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp.url, OTEL_BSP_SCHEDULE_DELAY: '50' },
    });
    const page = await open(sim.base);
    try {
      await page.locator('#calls-count', { hasText: 'live' }).waitFor();
      const trace = '0af7651916cd43dd8448eb211c80319c';
      await callAt(sim.base, 'GET', '/api/v1/numbers', {
        headers: { traceparent: `00-${trace}-b7ad6b7169203331-01` },
      });
      await page.locator('#calls tr.call', { hasText: '/api/v1/numbers' }).first().click();
      const link = page.locator('#call-detail a.trace');
      await expect(link.textContent()).resolves.toBe(trace);
      await expect(link.getAttribute('href')).resolves.toBe(VIEWER.replace('{trace_id}', trace));
    } finally {
      await page.close();
      await sim.stop();
      await otlp.close();
    }
  });

  it('refuses a viewer that is not an http(s) URL with {trace_id}', () => {
    const ran = runCli(['--memory', '--port', '0', '--no-smpp', '--trace-viewer', 'javascript:alert({trace_id})']);
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toContain('an http(s) URL with {trace_id} in it is needed');
  });
});
