/**
 * Injected faults (interface.md section 7): inbound rules answer an API call with a chosen status
 * and body, a delay, a dropped connection or a malformed body; outbound rules make deliveries to a
 * URL fail, arrive twice, or arrive out of order. A rule fires `times` times, or with a probability
 * drawn from the seeded random source.
 */
import type { Random } from '../deps.js';

export interface FaultMatch {
  method?: string;
  /** A path template (`/api/v1/carts/{id}`) or a literal path. */
  path?: string;
  operation_id?: string;
  account_id?: string;
  /** Outbound rules: deliveries whose target starts with this URL. */
  url?: string;
}

export interface FaultEffect {
  status?: number;
  body?: unknown;
  delay_ms?: number;
  drop?: boolean;
  malformed?: boolean;
  /** Outbound: the delivery attempt fails without reaching the endpoint. */
  fail?: boolean;
  /** Outbound: the delivery arrives twice. */
  duplicate?: boolean;
  /** Outbound: the delivery is held back and sent after the next one to the same URL. */
  reorder?: boolean;
}

export interface FaultRule {
  id: string;
  match: FaultMatch;
  effect: FaultEffect;
  times: number | null;
  probability: number | null;
  fired: number;
}

export interface InboundCall {
  method: string;
  path: string;
  template: string;
  operationId: string;
  accountId: string | undefined;
}

export class Faults {
  private rules: FaultRule[] = [];

  constructor(private readonly random: Random) {}

  add(rule: Omit<FaultRule, 'fired'>): FaultRule {
    const full = { ...rule, fired: 0 };
    this.rules.push(full);
    return full;
  }

  list(): readonly FaultRule[] {
    return this.rules;
  }

  remove(id: string): FaultRule | undefined {
    const rule = this.rules.find((r) => r.id === id);
    this.rules = this.rules.filter((r) => r.id !== id);
    return rule;
  }

  clear(): void {
    this.rules = [];
  }

  /** The effect of the first live inbound rule matching the call, if it fires this time. */
  inbound(call: InboundCall): FaultEffect | undefined {
    return this.fire(
      (m) =>
        m.url === undefined &&
        (!m.method || m.method.toUpperCase() === call.method) &&
        (!m.path || m.path === call.template || m.path === call.path) &&
        (!m.operation_id || m.operation_id === call.operationId) &&
        (!m.account_id || m.account_id === call.accountId),
    );
  }

  /** The effect for a delivery to `url` from the account, if an outbound rule fires. */
  outbound(url: string, accountId: string): FaultEffect | undefined {
    return this.fire(
      (m) => m.url !== undefined && url.startsWith(m.url) && (!m.account_id || m.account_id === accountId),
    );
  }

  private fire(matches: (m: FaultMatch) => boolean): FaultEffect | undefined {
    for (const rule of this.rules) {
      if (rule.times !== null && rule.fired >= rule.times) continue;
      if (!matches(rule.match)) continue;
      // the draw happens for every matching call, so the pattern depends only on the seed and the calls
      if (rule.probability !== null && this.random.float() >= rule.probability) continue;
      rule.fired++;
      return rule.effect;
    }
    return undefined;
  }
}
