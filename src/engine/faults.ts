/**
 * Injected faults (interface.md section 7): inbound rules answer an API call with a chosen status
 * and body, a delay, a dropped connection or a malformed body; outbound rules make deliveries to a
 * URL fail, arrive twice, or arrive out of order. A rule fires `times` times, or with a probability
 * drawn from the seeded random source.
 */
import type { Random } from '../deps.js';
import { DomainError } from '../domain/errors.js';
import { callHolds } from '../domain/matching.js';
import type { FaultEffect, FaultMatch, FaultRule, FaultRules, SmppFaultPoint } from '../store/shared.js';

export type { FaultEffect, FaultMatch, FaultRule, FaultRules, FaultScope, SmppFaultPoint } from '../store/shared.js';

/** A rule as the control API shows it: whether it has fired its times. */
export type ShownFaultRule = FaultRule & { spent: boolean };

const spentOf = (r: FaultRule): boolean => r.times !== null && r.fired >= r.times;

const shown = (r: FaultRule): ShownFaultRule => ({ ...r, scope: r.scope ?? 'all', spent: spentOf(r) });

/** Whether the rule is the account's own (made with its key); every rule when `own` is undefined. */
const visibleTo = (own: string | undefined) => (r: FaultRule) =>
  own === undefined || (r.scope === 'account' && r.match.account_id === own);

export interface InboundCall {
  method: string;
  path: string;
  template: string;
  operationId: string;
  accountId: string | undefined;
}

/** At most this many rules at once; one more is refused (422 `limit_reached`). */
export const MAX_FAULTS = 1_000;

/** Whether an inbound rule's match takes the call. */
const inboundMatch =
  (call: InboundCall) =>
  (m: FaultMatch): boolean =>
    m.url === undefined && m.smpp === undefined && callHolds(m, call);

export class Faults {
  constructor(
    private readonly random: Random,
    private readonly rules: FaultRules,
  ) {}

  async add(rule: Omit<FaultRule, 'fired'>): Promise<ShownFaultRule> {
    if ((await this.rules.count()) >= MAX_FAULTS)
      throw new DomainError('limit_reached', [
        { detail: `At most ${MAX_FAULTS} fault rules are kept; delete some, or reset.` },
      ]);
    const full = { ...rule, fired: 0 };
    await this.rules.add(full);
    return shown(full);
  }

  /** The rules an account made with its key (`own`), or every rule. */
  async list(own?: string): Promise<ShownFaultRule[]> {
    return (await this.rules.all()).filter(visibleTo(own)).map(shown);
  }

  /** Removes a rule, if it is the account's own (`own`) or `own` is undefined. */
  async remove(id: string, own?: string): Promise<ShownFaultRule | undefined> {
    if (own !== undefined && !(await this.list(own)).some((r) => r.id === id)) return undefined;
    const rule = await this.rules.remove(id);
    return rule && shown(rule);
  }

  /** Removes the account's own rules (`own`), or every rule. */
  async clear(own?: string): Promise<void> {
    if (own === undefined) return this.rules.clear();
    for (const rule of await this.list(own)) await this.rules.remove(rule.id);
  }

  /** The effect of the first live inbound rule matching the call, if it fires this time. */
  inbound(call: InboundCall): Promise<FaultEffect | undefined> {
    return this.fire(inboundMatch(call));
  }

  /**
   * Whether no inbound rule can fire on the call, as the rules known here say without reading
   * anything (none matches it, or those that do have fired their times): `inbound` would answer
   * nothing, drawing nothing. False when the rules would have to be read first.
   */
  quiet(call: InboundCall): boolean {
    const matches = inboundMatch(call);
    const rules = this.rules.cached();
    return !!rules && !rules.some((r) => (r.times === null || r.fired < r.times) && matches(r.match));
  }

  /** The effect for a delivery to `url` from the account, if an outbound rule fires. */
  outbound(url: string, accountId: string): Promise<FaultEffect | undefined> {
    return this.fire(
      (m) => m.url !== undefined && url.startsWith(m.url) && (!m.account_id || m.account_id === accountId),
    );
  }

  /** The effect for an SMPP PDU of a bind with `systemId`, if an SMPP rule fires. */
  smpp(point: SmppFaultPoint, systemId: string, accountId: string | undefined): Promise<FaultEffect | undefined> {
    return this.fire(
      (m) =>
        m.smpp === point && (!m.system_id || m.system_id === systemId) && (!m.account_id || m.account_id === accountId),
    );
  }

  private async fire(matches: (m: FaultMatch) => boolean): Promise<FaultEffect | undefined> {
    for (const rule of await this.rules.live()) {
      if (rule.times !== null && rule.fired >= rule.times) continue;
      if (!matches(rule.match)) continue;
      // the draw happens for every matching call, so the pattern depends only on the seed and the calls
      if (rule.probability !== null && this.random.float() >= rule.probability) continue;
      // another call (here or on another instance) may have taken the last firing meanwhile
      if (await this.rules.take(rule)) return rule.effect;
    }
    return undefined;
  }
}
