/**
 * Where deliveries may go. Every target host is normalized (any IPv4 spelling, IPv4-mapped IPv6,
 * case, a trailing dot) and every address actually connected to, after DNS, is classed:
 * unspecified, link-local, cloud metadata and multicast/broadcast addresses are always refused;
 * private ranges and loopback only with `--outbound-deny private,loopback` (client teams receive
 * on their own machines); `--outbound-allow` limits the host names as well.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, isIPv4 } from 'node:net';

export type AddressClass = 'unspecified' | 'metadata' | 'link-local' | 'multicast' | 'loopback' | 'private' | 'public';

/** Classes refused whatever the flags say. */
export const ALWAYS_REFUSED: readonly AddressClass[] = ['unspecified', 'metadata', 'link-local', 'multicast'];
/** Classes `--outbound-deny` may add. */
export const DENIABLE = ['private', 'loopback'] as const;
export type Deniable = (typeof DENIABLE)[number];

/** A delivery the policy refused: final, never retried. */
export class OutboundRefused extends Error {}

const ranges: [AddressClass, BlockList][] = (
  [
    ['metadata', ['169.254.169.254/32', '169.254.170.2/32', '100.100.100.200/32', 'fd00:ec2::254/128']],
    ['unspecified', ['0.0.0.0/8', '::/128']],
    ['link-local', ['169.254.0.0/16', 'fe80::/10']],
    ['multicast', ['224.0.0.0/4', '240.0.0.0/4', 'ff00::/8']],
    ['loopback', ['127.0.0.0/8', '::1/128']],
    ['private', ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '100.64.0.0/10', 'fc00::/7']],
  ] as const
).map(([cls, subnets]) => {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [net = '', bits = ''] = subnet.split('/');
    list.addSubnet(net, Number(bits), isIPv4(net) ? 'ipv4' : 'ipv6');
  }
  return [cls, list];
});

/** An IPv4 address in any spelling inet_aton takes (`127.1`, `2130706433`, `0x7f.0.0.1`), dotted; else null. */
function ipv4Of(host: string): string | null {
  const parts = host.split('.');
  if (parts.length > 4 || parts.some((p) => !/^(0x[0-9a-f]*|0[0-7]*|[1-9][0-9]*)$/i.test(p))) return null;
  const nums = parts.map((p) =>
    /^0x/i.test(p) ? parseInt(p.slice(2) || '0', 16) : /^0./.test(p) ? parseInt(p, 8) : Number(p),
  );
  const last = nums.pop() ?? 0;
  if (nums.some((n) => n > 255) || last >= 256 ** (4 - nums.length)) return null;
  const value = nums.reduce((acc, n, i) => acc + n * 256 ** (3 - i), 0) + last;
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** The host as it will be connected to: an IP literal in its one spelling, or a lower-case name. */
export function normalizeHost(hostname: string): string {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  const v4 = ipv4Of(host);
  if (v4) return v4;
  if (isIP(host) === 6) {
    // IPv4-mapped (::ffff:a.b.c.d, ::ffff:7f00:1) is the IPv4 address it carries
    const mapped = /^(?:0{0,4}:){0,5}:?ffff:(.+)$/.exec(host)?.[1];
    if (mapped) {
      if (isIPv4(mapped)) return mapped;
      const [hi = '', lo = ''] = mapped.split(':');
      if (/^[0-9a-f]{1,4}$/.test(hi) && /^[0-9a-f]{1,4}$/.test(lo)) {
        const n = parseInt(hi, 16) * 65536 + parseInt(lo, 16);
        return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
      }
    }
  }
  return host;
}

/** The class of an IP address (any spelling). */
export function classify(address: string): AddressClass {
  const ip = normalizeHost(address);
  const family = isIP(ip);
  if (!family) return 'public';
  for (const [cls, list] of ranges) if (list.check(ip, family === 4 ? 'ipv4' : 'ipv6')) return cls;
  return 'public';
}

export interface OutboundPolicyOptions {
  /** Host names (or `*.suffix`) deliveries may reach; any when empty. */
  allow?: readonly string[];
  /** Classes refused besides those always refused. */
  deny?: readonly Deniable[];
}

export class OutboundPolicy {
  private readonly allow: readonly string[];
  private readonly refused: ReadonlySet<AddressClass>;

  constructor(opts: OutboundPolicyOptions = {}) {
    this.allow = (opts.allow ?? []).map((a) => a.toLowerCase().replace(/\.$/, ''));
    this.refused = new Set([...ALWAYS_REFUSED, ...(opts.deny ?? [])]);
  }

  /** Why the URL may not be reached, judged on its host before connecting; null when it may. */
  denial(url: string): string | null {
    let host: string;
    try {
      host = normalizeHost(new URL(url.includes('://') ? url : `sftp://${url}`).hostname);
    } catch {
      // not a URL (TypeError): refused
      return 'the target is not a URL';
    }
    if (!host) return 'the target names no host';
    if (this.allow.length && !this.allow.some((a) => (a.startsWith('*.') ? host.endsWith(a.slice(1)) : host === a)))
      return `${host} is not in --outbound-allow`;
    return isIP(host) ? this.addressRefusal(host) : null;
  }

  /** Why an address may not be connected to; null when it may. */
  addressRefusal(address: string): string | null {
    const cls = classify(address);
    if (!this.refused.has(cls)) return null;
    return ALWAYS_REFUSED.includes(cls)
      ? `${address} is a ${cls} address`
      : `${address} is a ${cls} address (--outbound-deny ${cls})`;
  }

  /**
   * A `lookup` for node:http and node:net: resolves as dns.lookup does and drops refused
   * addresses, so what is connected to is what was checked (no rebinding between check and use).
   */
  readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (err: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    dnsLookup(hostname, { ...options, all: true } as { all: true }, (err, found) => {
      if (err) return callback(err, options.all ? [] : '');
      const kept = found.filter((a) => this.addressRefusal(a.address) === null);
      if (!kept.length) {
        const reason = found[0] ? this.addressRefusal(found[0].address) : 'no address';
        return callback(new OutboundRefused(`${hostname}: ${reason}`), options.all ? [] : '');
      }
      const [first] = kept;
      if (options.all) callback(null, kept);
      else callback(null, first?.address ?? '', first?.family);
    });
  };

  /** The first address of `host` that may be connected to (for SFTP, which connects by address). */
  resolve(host: string): Promise<string> {
    return new Promise((resolve, reject) =>
      this.lookup(host, {}, (err, address) => (err ? reject(err) : resolve(String(address)))),
    );
  }
}
