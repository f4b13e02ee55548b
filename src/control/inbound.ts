/** Control API (contract/sim.yaml): traffic from the outside world: an inbound SMS, an inbound call, an OSR overwrite request raised. */
import { toE164 } from '../domain/addresses.js';
import { invalidField } from '../domain/errors.js';
import type { SimHandlerMap, Read } from '../handling/handler.js';
import { finishSmsTrace, receiveSms, routeCall, type SmsInput } from '../simulation/inbound/index.js';
import { raiseOverwriteRequest } from '../simulation/overwrites.js';
import { DELIVERY_TIMEOUT_MS } from '../engine/deliveries.js';
import type { ControlPort } from '../handling/control_port.js';

/**
 * How long simulated traffic waits for the deliveries it set off (their first attempts) before it
 * answers: a delivery's own time limit and a second, so a first attempt that runs at once is always
 * seen through. What is still under way then is answered as pending and goes on in the background,
 * so no receiver, relay or SMPP bind holds a control call longer.
 */
export const TRAFFIC_WAIT_MS = DELIVERY_TIMEOUT_MS + 1_000;

/** Runs the account's due steps (the deliveries the traffic set off), waiting for them at most TRAFFIC_WAIT_MS. */
async function dueWithin(port: ControlPort, accountId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, TRAFFIC_WAIT_MS)));
  const due = port.scheduler.runDue(accountId).then(
    () => undefined,
    (e: unknown) => port.logger.warn(`inbound traffic: its deliveries failed to run: ${(e as Error).message}`),
  );
  await Promise.race([due, bound]);
  clearTimeout(timer);
}

/** A message arrives; the answer is its trace once its delivery's first attempt ran (or within the bound). */
async function arrive(port: ControlPort, read: Read, accountId: string, input: SmsInput) {
  const outcome = await port.work(accountId, (w) => receiveSms(w, input));
  // a simulated message waits for the first attempt of its delivery, as `advance` does, within a bound
  await dueWithin(port, accountId);
  const sent = outcome.switchDelivery;
  const delivery = sent && (await read((w) => w.deliveries.get(sent.id)));
  return finishSmsTrace(outcome, delivery);
}

export const inboundHandlers = {
  simInboundSms: async ({ port, read, accountId, body }) => ({
    status: 200,
    body: await arrive(port, read, accountId, body),
  }),

  simInboundMms: async ({ port, read, accountId, body }) => ({
    status: 200,
    body: await arrive(port, read, accountId, { ...body, text: body.text ?? '' }),
  }),

  simInboundCall: async ({ port, accountId, body }) => {
    const result = await port.work(
      accountId,
      (work) =>
        routeCall(
          {
            work,
            route: async (spec) =>
              port.deliveries.sendNow(
                await port.work(accountId, (w) => w.outbox.deliver('route', spec, { retry: false, now: true })),
              ),
          },
          body,
        ),
      { read: true },
    );
    return { status: 200, body: result };
  },

  simRaiseOverwrite: async ({ port, accountId, body }) => {
    const row = await port.work(accountId, async (w) => {
      const number = await w.numbers.byNumber(toE164(body.number));
      if (!number) throw invalidField('/number', `${toE164(body.number)} is not a number of this account.`);
      return raiseOverwriteRequest(w, number, body.service_provider ?? 'Northwind Messaging (NNID 741852)');
    });
    // a simulated event waits for the deliveries it sets off, as `advance` does, within a bound
    await dueWithin(port, accountId);
    return { status: 201, body: { data: row.data, type: 'osr_overwrite_request' } };
  },
} satisfies Partial<SimHandlerMap>;
